"""Shared primitives of issue 6 part 3, each on a small made-up variant (not a real game).

Helper J's primitives: early end of play (``end_if``), tallies and card points by card,
suit and trick, lead and first-trick restrictions, per-hand roles (declarer, called
partner, defenders), contracts as records with a ``list_auction``, seats that sit out and
a card put aside, open hands, and chance events (a card turned from a second pack).
"""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant

TOY = """id: toy
name: Toy
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "4 4"}
  play: {kind: tricks%(play)s}
scoring:
%(scoring)s
match:
  deals: 1
"""


def toy(tmp_path, play="", scoring='  each: "tricks"', text=TOY, name="toy.yaml"):
    """A made-up three-handed 24-card variant; ``play`` adds keys to the tricks entry."""
    f = tmp_path / name
    f.write_text(text % {"play": play, "scoring": scoring}, encoding="utf-8")
    return load_variant(str(f))


def play_out(s: State, hand_number: int = 0) -> None:
    """Play the first legal action until hand ``hand_number`` is over."""
    while not s.is_over and s.hand.number == hand_number:
        s.apply(s.legal_actions()[0])


# ---------------------------------------------------------------------- early end
def test_end_if_stops_play_after_the_trick_where_it_holds(tmp_path):
    """issue 6 part 3 (early end): ``end_if`` is checked after each trick; play stops at the
    first trick after which some column has 3 tricks; unplayed cards stay in the hands."""
    v = toy(tmp_path, play=', end_if: "tricks >= 3"')
    s = State(v, seed=5)
    h = s.hand
    play_out(s)
    assert max(h.won) == 3
    assert len(h.tricks) < 8
    assert [m.bit_count() for m in h.hands] == [8 - len(h.tricks)] * 3
    assert s.result()["totals"] == h.won
    # without end_if the same deal plays all eight tricks
    s2 = State(toy(tmp_path, name="toy2.yaml"), seed=5)
    play_out(s2)
    assert len(s2.hand_log[0].tricks) == 8


def test_end_if_errors_carry_file_line_col(tmp_path):
    """A bad ``end_if`` is refused at load with its place in the file."""
    with pytest.raises(VariantError) as e:
        toy(tmp_path, play=', end_if: "trics >= 3"')
    first = str(e.value).splitlines()[0]
    assert "toy.yaml:13:" in first and "phases.play.end_if" in first and "unknown variable trics" in first


# ---------------------------------------------------------------------- tallies, card points
TALLY_SCORING = """  tallies:
    hearts: {suits: H, in: tricks}
    queen_spades: {cards: QS, in: tricks}
    last: {tricks: [-1], count: tricks, in: tricks}
    first_two: {tricks: [1, 2], count: tricks, in: tricks}
    black_aces: {ranks: A, suits: S C, in: hand}
  each: "tricks + 100 * hearts + 1000 * queen_spades + 10000 * last + 100000 * first_two"
"""


def test_tallies_by_suit_card_and_trick_index(tmp_path):
    """issue 6 part 3 (tallies by trick index, card and suit): counted from the hand's own
    tricks, and agreeing with a count made here by hand."""
    v = toy(tmp_path, scoring=TALLY_SCORING)
    s = State(v, seed=11)
    h = s.hand
    play_out(s)
    from rulekit.engine.scoring import player_envs
    envs = player_envs(v, h)
    deck = v.deck
    for seat in range(3):
        mine = [t for t in h.tricks if t[2] == seat]
        cards = [c for t in mine for _s, c in t[1]]
        e = envs[seat].vars
        assert e["hearts"] == sum(deck.suit_of(c) == "H" for c in cards)
        assert e["queen_spades"] == int(deck.index["QS"] in cards)
        assert e["last"] == int(h.tricks[-1][2] == seat)
        assert e["first_two"] == sum(t[2] == seat for t in h.tricks[:2])
        assert e["black_aces"] == sum(deck.index[x] in set(_bits(h.dealt[seat])) for x in ("AS", "AC"))
        assert h.entries[seat] == (e["tricks"] + 100 * e["hearts"] + 1000 * e["queen_spades"]
                                   + 10000 * e["last"] + 100000 * e["first_two"])


def _bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def test_tally_trick_index_out_of_range_is_refused(tmp_path):
    """A trick number the hand does not have is refused with file:line:col."""
    with pytest.raises(VariantError) as e:
        toy(tmp_path, scoring='  tallies:\n    late: {tricks: [9], count: tricks, in: tricks}\n  each: "late"')
    assert "scoring.tallies.late.tricks.0: there is no trick 9 in a hand of 8 tricks" in str(e.value)


def test_card_points_by_card_and_by_suit(tmp_path):
    """issue 6 part 3 (card points by card and by suit): every heart 1, the queen of spades
    13 (its own entry wins), kings 2 by rank plus their suit's."""
    text = TOY.replace("  ranks: [\"9\", \"10\", J, Q, K, A]\n",
                       "  ranks: [\"9\", \"10\", J, Q, K, A]\n  card_points: {H: 1, QS: 13, K: 2}\n")
    v = toy(tmp_path, text=text, scoring='  each: "points"')
    pts = {v.deck.name(c): p for c, p in enumerate(v.card_points) if p}
    assert pts["QS"] == 13 and pts["9H"] == 1 and pts["KH"] == 3 and pts["KS"] == 2 and "QD" not in pts
    assert sum(v.card_points) == 6 + 13 + 4 * 2
    bad = TOY.replace("  ranks: [\"9\", \"10\", J, Q, K, A]\n",
                      "  ranks: [\"9\", \"10\", J, Q, K, A]\n  card_points: {ZZ: 1}\n")
    with pytest.raises(VariantError) as e:
        toy(tmp_path, text=bad)
    assert "deck.card_points.ZZ: unknown rank 'ZZ'" in str(e.value) and "a suit (S H D C) or a card" in str(e.value)


# ---------------------------------------------------------------------- lead and first-trick restrictions
#: dealt "4 4" from seat 1: seat 1 hearts and diamonds, seat 2 two hearts and the spades, seat 0 clubs
RESTRICT_DEAL = ("AH KH QH JH  10H 9H AS KS  AC KC QC JC  AD KD QD JD  QS JS 10S 9S  10C 9C 10D 9D").split()


def test_lead_broken_and_first_trick(tmp_path):
    """issue 6 part 3 (lead restrictions, first-trick restrictions): hearts may not be led while
    the leader holds another suit until a heart has been played; the queen of spades may not be
    played to the first trick while the player has another card; both refused with the reason."""
    v = toy(tmp_path, play=', lead_broken: [H], first_trick: {no_play: "QS"}')
    s = State(v, seed=1, deals=[RESTRICT_DEAL])
    deck = v.deck
    assert s.to_move == 1 and deck.names_of(s.hand.hands[1]) == deck.names_of(
        sum(1 << deck.index[c] for c in "AH KH QH JH AD KD QD JD".split()))
    assert sorted(a.text for a in s.legal_actions()) == ["play AD", "play JD", "play KD", "play QD"]
    with pytest.raises(IllegalActionError, match="hearts may not be led until one has been played, while you hold"):
        s.apply("AH")
    s.apply("AD")
    assert "play QS" not in [a.text for a in s.legal_actions()] and len(s.legal_actions()) == 7
    with pytest.raises(IllegalActionError, match="QS may not be played to the first trick while you hold another"):
        s.apply("QS")
    s.apply("10H")   # hearts are broken now
    s.apply("9D")
    assert s.to_move == 1 and "play AH" in [a.text for a in s.legal_actions()]
    s.apply("KD")
    assert "play QS" in [a.text for a in s.legal_actions()]   # not the first trick any more


def test_lead_broken_gives_way_when_only_that_suit_is_left(tmp_path):
    """A leader holding only the restricted suit may lead it (the rule's "while he holds another")."""
    deal = ("AH KH QH JH  AS KS QS JS  AC KC QC JC  10H 9H AD KD  10S 9S 10C 9C  QD JD 10D 9D").split()
    v = toy(tmp_path, play=", lead_broken: [H]")
    s = State(v, seed=1, deals=[deal])
    assert sorted(a.text for a in s.legal_actions()) == ["play AD", "play KD"]
    with pytest.raises(VariantError) as e:
        toy(tmp_path, play=", lead_broken: [X]", name="toy3.yaml")
    assert "phases.play.lead_broken.0:" in str(e.value)
