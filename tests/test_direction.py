"""The ``direction:`` key (the direction of play) on a small made-up three-player variant:
with ``counterclockwise`` the deal, the first speaker, auction turns, trick play and the deal
passing all go to the next lower seat number; the default stays clockwise."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant.compiler import compile_variant
from rulekit.variant.loader import resolve
from tests.helpers import variant_from

TOY = """id: turn-toy
name: Turn toy
players: 3
deck: {suits: [S, H, D, C], ranks: [J, Q, K, A]}
ranking: {suit: "A K Q J"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "2, widow 1 down, 3"}
  bidding:
    kind: step_auction
    contracts: [{call: low, level: 1, strain: S}, {call: high, level: 2, strain: H}]
  play: {kind: tricks}
scoring:
  each: "tricks"
match: {deals: 4}
"""


def _toy(tmp_path, direction: str | None):
    return variant_from(tmp_path, "toy.yaml", TOY if direction is None else TOY + f"direction: {direction}\n")


def _hand_of(s: State, cards) -> list:
    """The seat holding each card index of ``cards`` (dealt cards only)."""
    return [next(seat for seat, m in enumerate(s.hand.dealt) if m >> c & 1) for c in cards]


@pytest.mark.parametrize("direction, order", [(None, [1, 2, 0]), ("clockwise", [1, 2, 0]),
                                              ("counterclockwise", [2, 1, 0])])
def test_deal_auction_and_play_follow_the_direction(tmp_path, direction, order):
    """Dealer 0: the eldest hand, the dealing order, auction turns, the opening lead and each
    next card of the trick, and the next dealer follow the direction of play."""
    v = _toy(tmp_path, direction)
    assert v.step == (-1 if direction == "counterclockwise" else 1)
    s = State(v, seed=3, dealer=0)
    h = s.hand
    assert h.eldest == order[0]
    d = h.deck_order
    # "2, widow 1 down, 3": two cards to each seat in turn from the eldest, one to the widow, three each
    assert _hand_of(s, d[0:6]) == [order[0]] * 2 + [order[1]] * 2 + [order[2]] * 2
    assert _hand_of(s, d[7:16]) == [order[0]] * 3 + [order[1]] * 3 + [order[2]] * 3
    turns = []
    for call in ("1", "pass", "pass"):
        turns.append(s.to_move)
        s.apply(call)
    assert turns == order
    assert s.hand.declarer == order[0]
    played = []
    for _ in range(3):
        played.append(s.to_move)
        s.apply(s.legal_actions()[0])
    assert played == order                 # the eldest leads, the trick goes round the same way
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert s.hand.dealer == order[0]       # the deal passes to the next player in turn
    assert s.hand.eldest == order[1]


def test_rotation_right_goes_against_the_direction(tmp_path):
    """``dealer.rotation: right`` passes the deal against the direction of play."""
    p = tmp_path / "toy.yaml"
    p.write_text(TOY.replace("dealer: {first: {seat: 0}}", "dealer: {first: {seat: 0}, rotation: right}")
                 + "direction: counterclockwise\n")
    v = compile_variant(resolve(str(p)))
    s = State(v, seed=3, dealer=0)
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert s.hand.dealer == 1 and s.hand.eldest == 0


def test_bad_direction_is_refused(tmp_path):
    """A direction other than the two is a schema error naming the choices."""
    p = tmp_path / "toy.yaml"
    p.write_text(TOY + "direction: widdershins\n")
    with pytest.raises(Exception, match="clockwise"):
        compile_variant(resolve(str(p)))


def test_explain_says_each_step_in_the_direction_of_play(tmp_path):
    """``explain`` of a counter-clockwise game says counter-clockwise and right in every step (the
    deal from the eldest hand at the dealer's right, turns in play, the deal passing), and the
    clockwise words stay for a clockwise game."""
    from rulekit.variant.explain import explain
    ccw = explain(_toy(tmp_path, "counterclockwise"))
    steps = ccw.split("## The deal", 1)[1]
    assert "counter-clockwise from the eldest hand (right of the dealer)" in steps
    assert "the deal then passes to the right" in steps
    assert "in turn counter-clockwise" in steps
    assert "left of the dealer" not in steps
    assert " clockwise" not in steps.replace("counter-clockwise", "")
    cw = explain(_toy(tmp_path, None))
    assert "clockwise from the eldest hand (left of the dealer)" in cw and "counter-clockwise" not in cw
    assert "the deal then passes to the left" in cw
