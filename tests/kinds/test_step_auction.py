"""The ``step_auction`` kind on a small made-up variant: steps of one, the hold by the earlier
seat, blind calls, and markers written when all pass."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError



def test_step_auction_hold_blind_and_markers(step_toy):
    """Steps of one, hold by the earlier seat, a marker for all when all pass, its factor."""
    s = State(step_toy, seed=1, dealer=2)
    for t in ("pass", "pass", "pass"):
        s.apply(t)
    assert s.markers.factor_for(0) == 3 and len(s.sheet.rows[0].marks) == 3
    s.apply("pass")                       # seat 1 speaks first now
    s.apply("1")
    with pytest.raises(IllegalActionError, match="the next is 2"):
        s.apply("1")
    s.apply("2")
    s.apply("hold")
    s.apply("pass")
    assert s.hand.declarer == 2 and s.phase_kind == "widow_exchange"


def test_step_auction_without_a_blind_block_offers_no_blind_call(tmp_path):
    """Found by the mutation fuzz: with `blind:` removed the auction still offered the blind call
    `blind`, whose win then failed (IndexError). No blind block, no blind call."""
    from rulekit.engine import State
    from rulekit.variant import load_variant
    f = tmp_path / "noblind.yaml"
    f.write_text("id: noblind\nextends: preferans\nphases:\n  auction:\n    blind: null\n", encoding="utf-8")
    s = State(load_variant(str(f)), seed=1)
    assert [a.kind for a in s.legal_actions()] == ["pass", "bid"]
    s = State(load_variant("preferans"), seed=1)
    assert [a.text for a in s.legal_actions() if a.kind == "blind"] == ["igra", "betl", "sans"]
