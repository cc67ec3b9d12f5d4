"""``pass_cards`` directions follow the variant's direction of play (issue 11): ``left`` is the
next player in turn (``Variant.next_seat``), as for the deal's rotation, so in a
counter-clockwise game the cards go to the next lower seat number."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant

TOY = """id: pass-toy
name: Pass toy
players: 4
deck: {suits: [S, H, D, C], ranks: ["10", J, Q, K, A]}
ranking: {suit: "A K Q J 10"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "5"}
  passing: {kind: pass_cards, count: 2, directions: [left, right, across]}
  play: {kind: tricks}
scoring:
  each: "tricks"
match: {deals: 3}
"""


def _toy(tmp_path, direction: str):
    p = tmp_path / "toy.yaml"
    p.write_text(TOY + f"direction: {direction}\n", encoding="utf-8")
    return load_variant(str(p))


@pytest.mark.parametrize("direction, deal, expected", [
    ("counterclockwise", 0, {0: 3, 1: 0, 2: 1, 3: 2}),   # left: the next player in turn, seat - 1
    ("counterclockwise", 1, {0: 1, 1: 2, 2: 3, 3: 0}),   # right: against the direction of play
    ("counterclockwise", 2, {0: 2, 1: 3, 2: 0, 3: 1}),   # across
    ("clockwise", 0, {0: 1, 1: 2, 2: 3, 3: 0}),          # unchanged for clockwise games
])
def test_passing_follows_the_direction_of_play(tmp_path, direction, deal, expected):
    """issue 11 (passing-direction schedules): each seat's passed cards arrive at the seat the
    direction names, counted in the variant's direction of play (it counted clockwise before)."""
    v = _toy(tmp_path, direction)
    s = State(v, seed=7, dealer=0)
    while s.hand.number < deal:
        s.apply(s.legal_actions()[0])
    assert s.phase_kind == "pass_cards"
    passed = {}
    for _ in range(4):
        seat = s.to_move
        a = s.legal_actions()[0]
        passed[seat] = a.cards
        s.apply(a)
    for seat, cards in passed.items():
        assert s.hand.hands[expected[seat]] & cards == cards, (seat, expected[seat])
