"""``tricks`` with ``announcements:``: calls made during play, at the player's turn before his
card — who may make them (by party, by holding, after another), until when (cards held,
tricks played), what they imply and reveal, late replies, the formulas that read them, the
scorepad, and the file's mistakes at file:line:column.  On the made-up games of
``tests/data/partners/`` (a Doppelkopf-like party of the black queens, a called ace with kontra
and re) and a small made-up game with a marriage shown by holding."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant
from tests.helpers import deal_order, variant_from
from tests.kinds.test_call_partner_card import ACE_A, _bid, called_ace

DATA = Path(__file__).parent.parent / "data" / "partners"

#: The black queens are with seats 1 and 3 (the party); seats 0 and 2 are the others.
QUEENS = [ACE_A[0], ["7C", "8C", "9S", "QC", "AS", "JC", "AH", "10H"], ACE_A[2],
          ["QS", "10C", "8S", "7S", "AD", "10D", "KD", "JS"]]


def queens() -> State:
    v = load_variant(str(DATA / "queens-party.yaml"))
    return State(v, seed=1, deals=[deal_order(QUEENS, (4, 4), first=1)], dealer=0)


def calls(s: State) -> list:
    return [a.text for a in s.legal_actions() if a.kind == "announcement"]


def card(s: State) -> None:
    """The seat to move plays his first legal card."""
    s.apply(next(a for a in s.legal_actions() if a.kind == "play"))


def test_who_may_announce_and_what_an_announcement_implies():
    """At his turn before his card, the party's player may say re and the promises (not kontra);
    saying no 45 also says re for his side, and then only no 15 is left to it."""
    s = queens()
    assert s.to_move == 1 and calls(s) == ["re", "no 45", "no 15"]
    with pytest.raises(IllegalActionError, match="kontra is not for your side"):
        s.apply("kontra")
    s.apply("no 45")
    assert s.to_move == 1 and calls(s) == ["no 15"]
    card(s)
    assert s.to_move == 2 and calls(s) == ["kontra", "no 45", "no 15"]   # the others' own
    assert s.observation(2).phase_data["announced"] == [(1, "re", False), (1, "no45", False)]


def test_deadlines_count_the_cards_held_and_a_late_reply():
    """Re and kontra need 7 cards, no 45 six: at his third card a player of the others may only
    reply kontra (one card later than the party's no 45), and a promise after a late kontra is
    refused."""
    s = queens()
    s.apply("no 45")
    for _ in range(8):                 # two tricks, nobody else announcing
        card(s)
    seat = s.to_move
    assert s.hand.hands[seat].bit_count() == 6
    if seat in (1, 3):                 # the party's player first: let him play
        card(s)
        seat = s.to_move
    assert calls(s) == ["kontra"]
    with pytest.raises(IllegalActionError, match=r"too late for kontra \(needed with no 45\)"):
        s.apply("no 45")
    s.apply("kontra")
    assert s.observation(0).phase_data["announced"][-1] == (seat, "kontra", True)
    with pytest.raises(IllegalActionError, match="no 45 needs kontra in time, and it was said late"):
        s.apply("no 45")


def test_formulas_read_the_announcements_by_side():
    """``announced_NAME`` for the side that made it, ``against_NAME`` for the other; the game's
    value counts re, kontra and the promise: the party promising no 45 and keeping it scores 6."""
    s = queens()
    s.apply("no 45")
    card(s)
    s.apply("kontra")                  # seat 2, in time
    h = s.hand
    while s.hand is h and not s.is_over:
        card(s)
    from rulekit.engine.scoring import player_envs
    envs = player_envs(s.variant, h)
    for seat in range(4):
        party = seat in (1, 3)
        e = envs[seat].vars
        assert (e["announced_re"], e["against_re"], e["announced_kontra"], e["against_kontra"]) == \
            ((True, False, False, True) if party else (False, True, True, False))
        assert e["announced_no45"] == party and e["against_no45"] == (not party)
    pts = e["party_points"]
    value = 1 + 2 + 2 + 1              # won, re, kontra, no 45
    sign = 1 if 120 - pts < 45 else -1   # the party kept its promise, or the others reached 45
    assert h.entries == [-sign * value, sign * value, -sign * value, sign * value]


def test_an_announcement_shows_the_side_and_the_worlds_follow_it():
    """Re by seat 3 shows him in the party: seat 2's observation counts him in, and every world
    seat 2 samples gives him a black queen; kontra by seat 0 shows him out: no world gives him one."""
    s = queens()
    card(s)                            # seat 1
    card(s)                            # seat 2
    s.apply("re")                      # seat 3
    card(s)
    s.apply("kontra")                  # seat 0, leading or not: at his turn
    obs = s.observation(2)
    assert 3 in obs.phase_data["partner_call"]["party"] and 0 in obs.phase_data["partner_call"]["others"]
    queens_mask = 1 << s.variant.deck.parse("QC") | 1 << s.variant.deck.parse("QS")
    rng = random.Random(2)
    for _ in range(15):
        w = obs.sample_world(rng).hand
        played3 = any(x == 3 and (1 << c) & queens_mask for _l, p, _w, _n in w.tricks for x, c in p)
        assert w.hands[3] & queens_mask or played3
        assert not w.hands[0] & queens_mask


def test_kontra_before_the_first_card_then_re():
    """The called ace's kontra: a defender at his first card; re for the declaring party only
    after it, with seven cards or more; both double the game's value."""
    s = called_ace()
    _bid(s, 1)
    s.apply("call AC")
    assert calls(s) == []              # the declarer: re only after a kontra
    card(s)
    assert calls(s) == []              # the partner likewise
    card(s)
    assert calls(s) == ["kontra"]      # seat 3, a defender
    s.apply("kontra")
    card(s)
    assert calls(s) == []              # seat 0: his side has said it
    card(s)
    leader = s.to_move
    if leader in (1, 2):
        assert calls(s) == ["re"]
        s.apply("re")
    h = s.hand
    while s.hand is h and not s.is_over:
        card(s)
    factor = 4 if leader in (1, 2) else 2
    assert abs(h.entries[1]) == 20 * factor and sum(h.entries) == 0


MARRIAGES = """id: marriages
name: Marriages
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "4 4"}
  trumps: {kind: fixed_trump, suit: H}
  play:
    kind: tricks
    lead: eldest
    announcements:
      marriage: {holds: "KH QH", until: {tricks: 2}}
scoring:
  each: "tricks + 4 * announced_marriage"
match: {deals: 1}
"""


def test_an_announcement_by_holding_shows_the_cards(tmp_path):
    """A marriage needs the K♥ and the Q♥ in hand, before the third trick; once announced both
    cards are known to be the announcer's (placed in every seat's observation) and score 4."""
    v = variant_from(tmp_path, "m.yaml", MARRIAGES)
    hands = [["KH", "QH", "9S", "10S", "JS", "QS", "KS", "AS"], ["9H", "10H", "JH", "AH", "9D", "10D", "JD", "QD"],
             ["KD", "AD", "9C", "10C", "JC", "QC", "KC", "AC"]]
    s = State(v, seed=1, deals=[deal_order(hands, (4, 4), first=1)], dealer=0)
    assert s.to_move == 1 and calls(s) == []
    card(s)
    card(s)
    assert s.to_move == 0 and calls(s) == ["marriage"]
    s.apply("marriage")
    kq = 1 << v.deck.parse("KH") | 1 << v.deck.parse("QH")
    assert s.observation(1).placed[0] & kq == kq and s.observation(2).placed[0] & kq == kq
    h = s.hand
    while s.hand is h and not s.is_over:
        card(s)
    assert h.entries[0] == h.won[0] + 4 and h.entries[1] == h.won[1]


def test_the_scorepad_asks_each_side_its_announcements():
    """The scorepad asks what the party and the others announced (each implying its lower ones)
    and scores the hand as it was played."""
    from tests.helpers import typed_pad
    s = queens()
    s.apply("no 45")
    card(s)
    s.apply("kontra")
    h = s.hand
    while s.hand is h and not s.is_over:
        card(s)
    v = s.variant
    pts = [sum(v.card_points[c] for c in range(32) if h.won_cards[x] >> c & 1) for x in range(4)]
    pad = typed_pad(v, ["P1 P3", "no 45", "kontra", " ".join(map(str, h.won)), " ".join(map(str, pts))])
    assert pad.sheet.rows[0].entries == s.sheet.rows[0].entries
    from rulekit.sheets.scorepad import FactError, ScorePad
    pad = ScorePad(v)
    facts: dict = {}
    pad.answer(pad.next_question(facts), "P1 P3", facts)
    q = pad.next_question(facts)
    assert q.prompt == "announcements of the declaring party"
    with pytest.raises(FactError, match="kontra is not said by that side"):
        pad.answer(q, "kontra", facts)


BASE = (DATA / "queens-party.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("old, new, message", [
    ('no45: {say: "no 45", implies: [re, kontra]', 'no45: {say: "no 45", implies: [re, kontr]',
     "unknown announcement 'kontr'; did you mean kontra?"),
    ('no45: {say: "no 45", implies: [re, kontra]', 'no45: {say: "no 45", implies: [re, no15]',
     "no45 implies itself through no15"),
    ("re: {by: party, until: {cards: 7}, reply: true}", "re: {by: party, until: {tricks: 2}, reply: true}",
     "a reply is made one card later than the other side's deadline, which counts cards"),
    ('no45: {say: "no 45"', 'no45: {say: "AS"', "'as' reads as another action"),
    ('no45: {say: "no 45"', 'no45: {say: "no 15"', "'no 15' is also said for no45")])
def test_mistakes_are_refused_at_their_place(tmp_path, old, new, message):
    """The announcements' mistakes, each said once at file:line:column."""
    assert old in BASE
    with pytest.raises(VariantError) as e:
        variant_from(tmp_path, "bad.yaml", BASE.replace(old, new))
    said = str(e.value)
    assert message in said and len(e.value.diagnostics) == 1, said
    text = BASE.replace(old, new)
    line = text[:text.index(new)].count(chr(10)) + 1 + ("also said" in message)   # (a second use: at the later)
    assert f"bad.yaml:{line}:" in said, said


def test_announcements_and_a_stock_in_one_trick_phase_are_refused(tmp_path):
    """A trick phase with both ``announcements:`` and a ``stock:`` (or melds, a claim) is refused
    at its announcements until they can share the phase."""
    text = (Path(__file__).parent.parent.parent / "variants" / "schnapsen.yaml").read_text()
    text = text.replace("    follow_suit: false", "    follow_suit: false\n    announcements: {double: {}}", 1)
    with pytest.raises(VariantError, match=r"announcements do not go with a stock: block in the same trick phase"):
        variant_from(tmp_path, "both.yaml", text)
