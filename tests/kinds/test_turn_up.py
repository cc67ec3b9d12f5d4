"""The ``turn_up`` kind on a small made-up variant: the card turned from the stock sets trumps;
a deal that leaves no stock is played at no trump."""
from __future__ import annotations

from rulekit.engine import State
from tests.helpers import STOCK_BIDS, small_deck_toy


def test_last_deal_without_stock_is_played_at_no_trump(tmp_path):
    """Hand-size schedule; with every card dealt no card is turned: no trumps."""
    v = small_deck_toy(tmp_path, sizes=", hand_sizes: [6]", extra=STOCK_BIDS)
    s = State(v, seed=2)
    assert s.hand.trump == "NT" and "stock" not in s.hand.zones
