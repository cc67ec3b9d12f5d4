"""German Whist (variants/germanwhist.yaml; whiteknucklecards.com, gamerules.com, pokerwiner.com):
the winner of each trick takes the face-up top card of the stock and the loser the next one
unseen, after which the next card is turned; suit is followed in both stages; only the last 13
tricks score, the majority its excess."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, mask, order_for

#: Dealer 1, so seat 0 leads; the stock in dealing order, its first card the turn-up (A♦: trumps).
HANDS = {0: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2C",
         1: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2S",
         "stock": "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2H"}


@pytest.fixture(scope="module")
def v():
    return load_variant("germanwhist")


def deal(v) -> State:
    return State(v, seed=0, deals=[order_for(v, 1, HANDS)], dealer=1)


def names(v, s, seat: int) -> set:
    return set(v.deck.names_of(s.hand.hands[seat]))


def test_the_winner_takes_the_face_up_card_and_the_loser_the_next_unseen(v):
    """The turned A♦ makes diamonds trumps and stays on the stock; P0 wins the first trick and
    takes it, P1 takes K♦ unseen, and Q♦ is turned: both know Q♦ lies on top and that P0 holds
    A♦; P0 does not know P1's K♦."""
    s = deal(v)
    assert s.hand.trump == "D" and s.to_move == 0
    assert all(s.observation(k).zone_known == {"stock": mask(v, "AD")} for k in (0, 1))
    s.apply("play AS")
    s.apply("play 2S")                             # P1 must follow with his only spade
    assert "AD" in names(v, s, 0) and "KD" in names(v, s, 1)
    assert [len(names(v, s, k)) for k in (0, 1)] == [13, 13]
    p0, p1 = s.observation(0), s.observation(1)
    assert p0.zone_known == p1.zone_known == {"stock": mask(v, "QD")}
    assert p1.placed[0] & mask(v, "AD")            # the face-up card is known in P0's hand
    assert not any(m & mask(v, "KD") for m in p0.placed) and not p0.hands_seen[1]
    s.apply("play KS")
    s.apply("play AH")                             # P1 has no spade left: any card, P0 wins
    assert "QD" in names(v, s, 0) and "JD" in names(v, s, 1)


def test_suit_must_be_followed_while_the_stock_lasts(v):
    """Follow suit if able, in the first stage too: P1, holding the 2♠, may not discard a heart
    on the A♠."""
    s = deal(v)
    s.apply("play AS")
    with pytest.raises(IllegalActionError, match="you must follow spades"):
        s.apply("play AH")
    assert sorted(a.text for a in s.legal_actions()) == ["play 2S"]


def play_out(v, s: State, rng: random.Random) -> None:
    while not s.sheet.rows:
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])


def test_only_the_last_13_tricks_score_the_majority_its_excess(v):
    """26 tricks, the first 13 for the stock's cards only: the player who takes more of tricks
    14 to 26 scores the difference, the other 0; and once the stock is gone a refused card says
    the suit to follow."""
    for seed in range(6):
        s = deal(v)
        play_out(v, s, random.Random(seed))
        h = s.hand_log[0]
        assert len(h.trick_winners) == 26
        late = [sum(1 for w in h.trick_winners[13:] if w == k) for k in (0, 1)]
        assert s.sheet.rows[0].entries == [max(late[k] - late[1 - k], 0) for k in (0, 1)]
    s = deal(v)
    rng = random.Random(1)
    while len(s.hand.tricks) < 13 or s.hand.trick:
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    assert not s.hand.zones.get("stock") and [len(names(v, s, k)) for k in (0, 1)] == [13, 13]
    held = names(v, s, 1 - s.to_move)
    lead = next(a for a in s.legal_actions() if any(c[-1] == a.text[-1] for c in held))
    s.apply(lead)
    off = next(c for c in held if c[-1] != lead.text[-1])
    with pytest.raises(IllegalActionError, match="you must follow"):
        s.apply("play " + off)


def test_random_hands_draw_in_order_and_keep_the_stock_hidden(v):
    """Random hands: after each of the first 13 tricks the winner draws the face-up card, the
    loser the next in dealing order; the face-up card is the only stock card anyone sees."""
    checked = 0
    for seed in range(20):
        rng = random.Random(seed)
        s = State(v, seed=seed)
        h = s.hand
        order = [c for c in h.deck_order if h.zones["stock"] >> c & 1]
        while s.hand is h and h.zones.get("stock"):
            stock = h.zones["stock"]
            top = order[len(order) - stock.bit_count()]
            for seat in (0, 1):
                obs = s.observation(seat)
                assert obs.zone_known == {"stock": 1 << top}
                hidden = stock & ~(1 << top)
                assert not obs._visible() & hidden and not any(m & hidden for m in obs.placed)
            before, tricks = list(h.hands), len(h.tricks)
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
            if len(h.tricks) > tricks:
                w = h.trick_winners[-1]
                got = [(h.hands[k] & ~before[k]).bit_length() - 1 for k in (w, 1 - w)]
                at = len(order) - stock.bit_count()
                assert got == order[at:at + 2]
                checked += 1
    assert checked == 20 * 13


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_german_whist_plays_to_a_winner(seed):
    """Random legal play reaches a winner for any seed."""
    assert_plays_to_a_winner("germanwhist", seed)
