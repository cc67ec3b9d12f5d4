"""Oh Hell (variants/ohhell.yaml, pagat.com "Oh Hell"): deals that grow by one card, exact
bids, the dealer's hook, and play to a winner."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ohhell_plays_to_a_winner(seed):
    """Random legal play of ``ohhell`` reaches a winner for any seed (the match cap is not what ends it)."""
    assert_plays_to_a_winner("ohhell", seed)


def test_ohhell_deals_grow_and_exact_bids_score():
    """Worked example (pagat): deal k gives k cards; exactly the bid scores 10 + bid, else 0."""
    v = load_variant("ohhell")
    s = State(v, seed=3, dealer=3)
    assert [m.bit_count() for m in s.hand.hands] == [1, 1, 1, 1]
    for b in ("bid 1", "bid 0", "bid 0"):
        s.apply(b)
    assert [a.text for a in s.legal_actions()] == ["bid 1"]  # the hook: 0 would add up to 1
    s.apply("bid 1")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    won = s.hand_log[0].won
    assert s.sheet.totals() == [11 if won[0] else 0, 10 if not won[1] else 0, 10 if not won[2] else 0,
                                11 if won[3] else 0]
    assert [m.bit_count() for m in s.hand.hands] == [2, 2, 2, 2]
