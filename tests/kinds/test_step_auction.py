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


def test_a_blind_skip_must_name_a_phase_of_the_variant(tmp_path):
    """A blind win skips the phases of ``blind.skips``: a name that is no phase of the variant
    is a validate error at its place in the file, with the nearest phase name."""
    from rulekit.variant import check_file
    from tests.helpers import STEP_TOY, write_variant
    bad = STEP_TOY.replace("blind: {call: blind, skips: [widow]}", "blind: {call: blind, skips: [widows]}")
    found = [str(d) for d in check_file(write_variant(tmp_path, "toy.yaml", bad))]
    assert len(found) == 1 and found[0].endswith(
        "toy.yaml:12:34: phases.bidding.blind.skips.0: unknown phase widows; did you mean widow? "
        "(expected a phase of this variant: deal, bidding, widow, say, defend, play)"), found
    assert check_file(write_variant(tmp_path, "ok.yaml", STEP_TOY), warnings=True) == []
