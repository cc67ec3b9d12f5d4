"""Ranks beyond 10 in a suit: rank tokens
11, 12, 13 in the deck, the ranking DSL, card points, actions (``play 11S``), the record and the
terminal -- on a small made-up deck."""
from __future__ import annotations

import json

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.records import replay, to_record
from rulekit.variant import load_variant
from tests.helpers import variant_from

HIGH = """id: highranks
name: High ranks
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", %(ranks)s, J, Q, K, A]
  minus: [13C]
  card_points: {"13": 5, 11H: 2}
ranking:
  suit: "A K Q J 13 12 11 10 9"
  top: "12S"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "1 x 11, widow 2"}
  play: {kind: tricks, first_trick: {lead: 11S}}
scoring:
  each: "points"
match:
  deals: 1
"""


def high(tmp_path, ranks='"11", "12", 13'):
    return variant_from(tmp_path, "high.yaml", HIGH % {"ranks": ranks})


def test_deck_ranking_and_points_with_ranks_beyond_ten(tmp_path):
    """Ranks beyond 10: 9 ranks a suit less 13C = 35 cards; 11, 12, 13 rank between
    10 and J as the ranking says (12S above all as the top card); the 13s score 5, 11H 2."""
    v = high(tmp_path)
    d = v.deck
    assert d.size == 35 and d.names[:9] == ("9S", "10S", "11S", "12S", "13S", "JS", "QS", "KS", "AS")
    assert "13C" not in d.index and d.parse("11h") == d.index["11H"] and d.pretty(d.index["13D"]) == "13♦"
    nt = v.contexts["NT"]
    spades = sorted(d.names_of(d.suit_mask("S")), key=lambda n: -nt.strength[d.index[n]])
    assert spades == ["12S", "AS", "KS", "QS", "JS", "13S", "11S", "10S", "9S"]
    assert [v.card_points[d.index[c]] for c in ("13S", "13H", "11H", "11S", "12D")] == [5, 5, 2, 0, 0]


def test_play_eleven_and_the_record_round_trip(tmp_path):
    """``play 11S`` (and bare ``11s``) is an action; a card the player does not hold
    is refused with its name; the record replays to the same sheet."""
    v = high(tmp_path)
    s = State(v, seed=2)   # (a deal that gives 11S to a player, not to the widow)
    assert [a.text for a in s.legal_actions()] == ["play 11S"]   # first_trick.lead: 11S
    held = set(v.deck.names_of(s.hand.hands[s.to_move]))
    other = next(c for c in ("12H", "13H", "11D", "12C") if c not in held)
    with pytest.raises(IllegalActionError, match=f"you do not hold {v.deck.pretty(v.deck.index[other])}"):
        s.apply(f"play {other}")
    s.apply("11s")
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    rec = json.loads(json.dumps(to_record(s)))
    assert any(a.endswith("11S") for _seat, a in (tuple(x) for x in s.history))
    again = replay(rec, folder=tmp_path)
    assert again.sheet.totals() == s.sheet.totals() and sum(s.sheet.totals()) == 17 - sum(
        v.card_points[c] for c in range(35) if s.hand.zones.get("widow", 0) >> c & 1)


def test_rank_past_ninety_nine_is_refused_at_its_place(tmp_path):
    """Rank tokens are numbers up to 99 or one capital letter: 100 is refused with
    file:line:col and the pattern."""
    with pytest.raises(VariantError) as e:
        high(tmp_path, ranks='"11", "100"')
    assert "high.yaml:6:" in str(e.value) and "deck.ranks.3: '100' is not well formed" in str(e.value)


def test_pbn_export_refuses_ranks_beyond_ten(tmp_path):
    """PBN writes one character a rank; a deck with 11, 12 or 13 is refused with the
    reason instead of writing unreadable hands."""
    from rulekit import pbn
    f = tmp_path / "four.yaml"
    f.write_text("id: four-high\nextends: fivehundred-four\nname: Four high\n"
                 "deck:\n  ranks: [\"5\", \"6\", \"7\", \"8\", \"9\", \"10\", \"11\", J, Q, K, A]\n  minus: [5S, 5C]\n"
                 "ranking:\n  suit: \"A K Q J 11 10 9 8 7 6 5\"\n"
                 "  trump: \"JK J:trump J:sister A K Q 11 10 9 8 7 6 5\"\n"
                 "dealer:\n  first:\n    cut: low\n    ranks: \"K Q J 11 10 9 8 7 6 5 A JK\"\n", encoding="utf-8")
    v = load_variant(str(f))
    s = State(v, seed=3)
    n = s.hand.number
    while s.hand.number == n:
        s.apply(s.legal_actions()[0])
    with pytest.raises(pbn.PBNError, match=r"PBN export needs ranks of A K Q J 10 .* \(this deck has 11\)"):
        pbn.write(s, s.hand_log[-1])
