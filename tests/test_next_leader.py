"""The lead after a trick whose winner has no card left (unequal hands: a seat that put cards
aside, or sits out): the next seat holding cards in the direction of play leads, in the engine's
trick rules and in the bots' one-loop playout alike."""
from __future__ import annotations

import pytest

from rulekit.bots.sensible import _plain_tricks
from rulekit.engine import State
from rulekit.engine.phases import tricks
from rulekit.variant.compiler import compile_variant
from rulekit.variant.loader import resolve

TOY = """id: lead-toy
name: Lead toy
players: 3
deck: {suits: [S, H, D, C], ranks: [J, Q, K, A]}
ranking: {suit: "A K Q J"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "4, widow 4 down"}
  play: {kind: tricks}
scoring:
  each: "tricks"
match: {deals: 1}
direction: %s
"""


def _first_trick(tmp_path, direction: str):
    """A state at the first lead whose leader holds only AS; the next seat KS AH, the one after
    it QS KH: the leader wins the spade trick with his last card."""
    p = tmp_path / "toy.yaml"
    p.write_text(TOY % direction)
    v = compile_variant(resolve(str(p)))
    s = State(v, seed=1, dealer=0)
    h = s.hand
    card = v.deck.parse
    leader = h.to_move
    nxt, after = v.next_seat(leader), v.next_seat(leader, 2)
    h.hands = [0] * 3
    h.hands[leader] = 1 << card("AS")
    h.hands[nxt] = 1 << card("KS") | 1 << card("AH")
    h.hands[after] = 1 << card("QS") | 1 << card("KH")
    return s, leader, nxt


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_the_next_seat_with_cards_leads_in_the_direction_of_play(tmp_path, direction):
    """The leader wins with his last card: the next seat in the direction of play leads."""
    s, leader, nxt = _first_trick(tmp_path, direction)
    for text in ("play AS", "play KS", "play QS"):
        s.apply(text)
    assert s.hand.tricks[0][2] == leader and s.hand.hands[leader] == 0
    assert s.to_move == nxt


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_the_bots_playout_leads_as_the_engine_does(tmp_path, direction):
    """The bots' one-loop playout (``_plain_tricks``) gives the second trick to the same leader."""
    s, leader, nxt = _first_trick(tmp_path, direction)
    assert tricks.plain_follow(s.current_phase, s.hand.ctx)
    h = s.hand
    _plain_tricks(s, h, [True] * 3)
    assert [t[0] for t in h.tricks] == [leader, nxt]
