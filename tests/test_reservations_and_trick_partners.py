"""Game finding by reservations (``list_auction`` with ``speaking: reservations``), contracts that
need cards (``holds``), a partner found by a trick (``partner_trick``) with announcement deadlines
that move with it, and tallies of a trick by its worth, by the card that won it, by the other
side's cards and for a party; on a small made-up game (not any real game's rules)."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.engine.scoring import tallies
from rulekit.errors import IllegalActionError
from rulekit.errors import VariantError
from tests.helpers import explicit_order, load_text

TOY = """id: reserve-toy
name: Reservations toy (made up)
players: 4
deck: {suits: [C, S, H, D], ranks: ["9", "10", J, Q, K, A], card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}}
ranking: {suit: "A 10 K Q J 9"}
contract_groups:
  jacks: {ranking: {top: "JC JS JH JD", suit: "A 10 K Q 9"}}
dealer: {first: {seat: 3}, rotation: left}
phases:
  deal: {kind: deal, pattern: "3 3"}
  trumps: {kind: fixed_trump, suit: H}
  finding:
    kind: list_auction
    speaking: reservations
    all_pass: play
    contracts:
      - {call: solo, trumps: each, value: 3}
      - {call: jacks, value: 3, group: jacks}
      - {call: pair, trumps: H, value: 1, holds: "AC AS", partner_trick: 2}
  partner: {kind: call_partner}
  play:
    kind: tricks
    lead: eldest
    announcements:
      double: {by: others, until: {cards: 5}}
scoring:
  tallies:
    big: {in: tricks, count: tricks, worth: 25, party: own}
    big_party: {in: tricks, count: tricks, worth: 25, party: declaring}
    jack_last: {in: tricks, tricks: [-1], count: tricks, won_by: JC}
    caught: {cards: AH, in: tricks, from: others}
  each: "if party_size == 0 then tricks else if in_party then party_tricks else 6 - party_tricks"
match: {deals: 2}
"""

HANDS = ["AC AS 9C 9S 9D 10D", "AH KH QH 10C KC QC", "JC JS JH JD 10S KS", "9H 10H AD KD QD QS"]
PARTNER = kind_of("call_partner")


def game(text: str = TOY) -> State:
    v = load_text(text)
    return State(v, seed=0, deals=[explicit_order(v, 3, [h.split() for h in HANDS])], dealer=3)


def texts(s: State) -> list[str]:
    return [a.text for a in s.legal_actions()]


def say(s: State, *acts: str) -> None:
    for a in acts:
        s.apply(a)


def test_everyone_passes_and_the_trumps_set_before_stay():
    """No reservation: no contract, no declarer, and the fixed trump suit (hearts) is played."""
    s = game()
    assert texts(s) == ["pass", "reservation"]
    say(s, "pass", "pass", "pass", "pass")
    assert s.phase_kind == "tricks" and s.hand.declarer < 0 and s.hand.contract is None and s.hand.trump == "H"


def test_a_single_reservation_names_any_game_it_may():
    """One reservation: every game of the list, by value; the pair only for a holder of A♣ A♠
    (the refusal says which cards); a game with its own ranking is played with it."""
    s = game()
    say(s, "pass", "reservation", "pass", "pass")
    assert texts(s) == ["soloC", "soloS", "soloH", "soloD", "jacks"]
    s2 = game()
    say(s2, "reservation", "pass", "pass", "pass")
    assert texts(s2) == ["pair", "soloC", "soloS", "soloH", "soloD", "jacks"]
    s3 = game()
    say(s3, "pass", "pass", "reservation", "pass")
    with pytest.raises(IllegalActionError, match="pair needs A♣ A♠ in your hand"):
        s3.apply("pair")
    say(s3, "jacks")
    assert s3.hand.declarer == 2 and s3.hand.contract.text == "jacks"
    say(s3, "play AC", "play KC")
    assert len([t for t in texts(s3) if t.startswith("play")]) == 6   # the J♣ is no club: seat 2 has none


def test_several_reservations_name_by_value_then_seat_order():
    """Several reservations: the games of the highest value first, in seat order; the first
    named wins; a pass is allowed only to one who may name a lower game (the pair's holder)."""
    s = game()
    say(s, "reservation", "reservation", "pass", "pass")
    assert s.to_move == 0 and texts(s)[0] == "pass" and "pair" not in texts(s)
    say(s, "pass")
    assert s.to_move == 1 and "pass" not in texts(s)
    with pytest.raises(IllegalActionError, match="name a game worth 3"):
        s.apply("pass")
    say(s, "soloD")
    assert s.hand.declarer == 1 and s.hand.trump == "D"


def _pair(*cards: str) -> State:
    s = game()
    say(s, "reservation", "pass", "pass", "pass", "pair")
    for c in cards:
        s.apply("play " + c)
    return s


def test_the_partner_is_the_first_other_winner_of_the_first_tricks():
    """Seat 3 trumps the first trick: he is the pair's partner at once, seen by everyone."""
    s = _pair("AC", "KC", "JC")
    assert texts(s)[0] != "double" and "double" not in texts(s)   # nothing before he is found
    s.apply("play 9H")
    assert PARTNER.party(s.hand) == 0b1001
    assert ("party", "P0 and P3 (trick 1)") in PARTNER.known_rows(s.observation(1), ["P0", "P1", "P2", "P3"])


def test_a_later_partner_moves_the_deadlines():
    """Seat 0 wins trick 1, seat 1 trick 2: seat 1 is the partner, and the others may double one
    card later than the written 5 (with 4 cards)."""
    s = _pair("AC", "KC", "JC", "QD")
    with pytest.raises(IllegalActionError, match="waits until the trick that finds"):
        s.apply("double")
    say(s, "play AS", "play QH", "play 10S", "play QS")
    assert PARTNER.party(s.hand) == 0b0011 and s.to_move == 1
    say(s, "play KH")
    assert s.to_move == 2 and "double" in texts(s)


def test_the_declarer_winning_the_first_tricks_plays_alone():
    """Seat 0 wins tricks 1 and 2: he plays alone (party_size 1) and scores his party's tricks."""
    s = _pair("AC", "KC", "JC", "QD", "AS", "10C", "10S", "QS")
    assert PARTNER.party(s.hand) == 0b0001
    while s.hand.number == 0:
        s.apply(next(a for a in s.legal_actions() if a.text.startswith("play")))
    h = s.hand_log[0]
    assert h.entries[0] == h.won[0] and h.entries[1] == 6 - h.won[0]


def test_tallies_by_the_trick_its_worth_its_winner_and_the_others_cards():
    """Seat 2 plays the jacks game alone and takes every trick: ``big`` (tricks of 25 points or
    more won by the seat's party) is 1 for him (trick 2: J♠ 10♥ A♠ K♥, 27) and 0 for the
    others, ``big_party`` (the declaring party's) 1 in every column, ``jack_last`` 1 (his J♣ takes
    the last trick) and ``caught`` 1 (the A♥ seat 1 played to his J♦ in trick 1)."""
    s = game()
    say(s, "pass", "pass", "reservation", "pass", "jacks")
    for card in ("9D AH JD AD  JS 10H AS KH  JH KD 10D QH  10S QS 9S 10C  KS QD 9C KC  JC 9H AC QC").split():
        s.apply("play " + card)
    h = s.hand_log[0]
    assert h.trick_winners == [2] * 6
    t = tallies(s.variant, h, h.won_cards)
    assert t[2] == {"big": 1, "big_party": 1, "jack_last": 1, "caught": 1}
    for seat in (0, 1, 3):
        assert t[seat] == {"big": 0, "big_party": 1, "jack_last": 0, "caught": 0}


@pytest.mark.parametrize("change, where, says", [
    ('holds: "AC AS"', 'holds: "AC AC"', "AC is listed 2 times but the pack has 1"),
    ("partner_trick: 2}", "partner_trick: 9}", "a hand has 6 tricks"),
    ("  partner: {kind: call_partner}\n", "", "the partnership lives in a call_partner phase"),
    ("big: {in: tricks, count: tricks, worth: 25", "big: {in: tricks, worth: 25", "worth picks won tricks"),
    ("jack_last: {in: tricks, tricks: [-1], count: tricks, won_by: JC}",
     "jack_last: {in: hand, won_by: JC}", "won_by picks won tricks"),
    ("jack_last: {in: tricks, tricks: [-1], count: tricks, won_by: JC}",
     "jack_last: {in: tricks, won_by: XC}", "expected cards of this deck"),
    ("    all_pass: play\n", "    all_pass: play\n    once: true\n", "once does not go with speaking: reservations"),
])
def test_misuse_is_reported_at_the_option(change, where, says):
    """``validate`` refuses each misuse at its place, saying what was expected."""
    assert change in TOY
    with pytest.raises(VariantError) as e:
        load_text(TOY.replace(change, where, 1))
    found = e.value.diagnostics
    assert any(says in d.message for d in found), [d.message for d in found]
    assert all(d.line > 0 for d in found if says in d.message)
