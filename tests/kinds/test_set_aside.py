"""The ``set_aside`` kind on a small made-up variant: a card put aside face down, seats that sit
out, unequal hands and an open hand."""
from __future__ import annotations

import pytest

from rulekit.engine import State



@pytest.mark.parametrize("seed, won, tricks, entries", [(11, [1, 0, 7], 8, [0, 8, 0]), (5, [0, 1, 1], 2, [0, -8, 0])])
def test_card_put_aside_unequal_hands_and_open_hand(lister, seed, won, tricks, entries):
    """A card put aside face down, seats that sit out, open hands: the misere
    declarer puts one card aside (seen by him only), his other 7 lie face up for everyone
    before the first lead, and he has no card for the last trick, which the others play alone
    (seed 11: made, 8 tricks); play stops at the first trick he wins (seed 5: trick 2, end_if)."""
    v = lister("")
    s = State(v, seed=seed)
    s.apply("turn KH")
    s.apply("MIS")
    s.apply("pass")
    s.apply("pass")
    assert s.phase_kind == "set_aside" and s.to_move == 1   # no partner for this contract
    h = s.hand
    low = min(s.hand_cards(1), key=lambda c: v.contexts["NT"].strength[c])
    s.apply(f"discard {v.deck.name(low)}")
    assert h.hands[1].bit_count() == 7 and h.discards == 1 << low
    assert s.observation(1).discards == 1 << low and s.observation(2).discards == 0
    assert s.observation(2).hidden_discards == 1
    assert s.observation(0).open_hands == h.hands[1] and s.observation(0).open_seats == [1]
    assert s.observation(1).open_hands == 0
    world = s.observation(2).sample_world(__import__("random").Random(1))
    assert world.hand.hands[1] == h.hands[1]              # the open hand is not resampled
    while not s.is_over:
        legal = s.legal_actions()
        # the declarer ducks when he can
        a = min(legal, key=lambda x: v.contexts["NT"].strength[x.card]) if s.to_move == 1 else legal[0]
        s.apply(a)
    assert h.won == won and len(h.tricks) == tricks and h.entries == entries
    if tricks == 8:
        assert sorted(p for p, _c in h.tricks[-1][1]) == [0, 2]   # the 8th trick: the two others
