"""Briscola for two (variants/briscola.yaml; viniciocoletti.it, marittimaravennate.com, the Piccola
enciclopedia di giuochi e passatempi): three cards each, the briscola turned under the stock and
drawn last, no obligation to follow suit at any time, 61 card points win a hand, a game is the
best of three."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import player_envs
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, mask, order_for

#: Dealer 1, so seat 0 leads; the stock's first card, the 7♦, is the briscola (coins trumps).
HELD = "AS 2H 4C 3S KH 2D"
_REST = [r + s for s in "SHDC" for r in ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")
         if r + s not in HELD.split() + ["7D", "QS", "JS"]]
HANDS = {0: "AS 2H 4C", 1: "3S KH 2D", "stock": ["7D", "QS", "JS"] + _REST}


@pytest.fixture(scope="module")
def v():
    return load_variant("briscola")


def texts(s) -> list:
    return sorted(a.text for a in s.legal_actions())


def test_any_card_to_any_lead_and_the_winner_draws_first(v):
    """The briscola 7♦ makes coins trumps; P1 may answer the A♠ with anything, even holding the
    3♠; a 2 of trumps takes the ace; the winner P1 draws the Q♠, P0 the J♠."""
    s = State(v, seed=0, deals=[order_for(v, 1, HANDS)], dealer=1)
    assert s.hand.trump == "D" and s.to_move == 0
    assert all(s.observation(k).zone_known == {"stock": mask(v, "7D")} for k in (0, 1))
    s.apply("play AS")
    assert texts(s) == ["play 2D", "play 3S", "play KH"]
    s.apply("play 2D")
    assert s.hand.trick_winners == [1] and s.to_move == 1
    assert "QS" in v.deck.names_of(s.hand.hands[1]) and "JS" in v.deck.names_of(s.hand.hands[0])


def test_the_briscola_is_drawn_last_and_no_suit_is_ever_forced(v):
    """Random hands: the loser of the 17th trick takes the turned 7♦; with the stock gone any
    card may still be played to any lead."""
    for seed in range(10):
        rng = random.Random(seed)
        s = State(v, seed=0, deals=[order_for(v, 1, HANDS)], dealer=1)
        while s.hand.zones.get("stock"):
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        loser = 1 - s.hand.trick_winners[-1]
        assert len(s.hand.tricks) == 17 and mask(v, "7D") & s.hand.hands[loser]
        while not s.sheet.rows:
            held = s.hand.hands[s.to_move]
            assert {a.card for a in s.legal_actions()} == {c for c in range(40) if held >> c & 1}
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])


def test_sixty_one_wins_the_hand_and_sixty_all_scores_nothing(v):
    """120 card points; more than 60 scores the hand's one point, 60 each none."""
    for seed in range(40):
        s = State(v, seed=seed)
        rng = random.Random(seed)
        while not s.sheet.rows:
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        pts = [e.vars["points"] for e in player_envs(v, s.hand_log[0])]
        assert sum(pts) == 120
        assert s.sheet.rows[0].entries == [1 if p > 60 else 0 for p in pts]


def test_the_best_of_three(v):
    """Two hands won end the game: 1-0 ahead, a second hand won wins it."""
    s = State(v, seed=0, deals=[order_for(v, 1, HANDS)], dealer=1, scores=[1, 0])
    rng = random.Random(0)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    totals = s.sheet.totals()
    assert max(totals) == 2 and s.winners == [totals.index(2)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_briscola_plays_to_a_winner(seed):
    """Random legal play reaches a winner for any seed."""
    assert_plays_to_a_winner("briscola", seed)
