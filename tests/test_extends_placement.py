"""``extends:``: where a phase a house rule adds runs. By default after the base's last phase;
``before: NAME`` / ``after: NAME`` put it next to a phase of the base (five-handed Tarot's king
call before the dog), and misuse is refused at the key's file:line:column."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant import check_file, load_variant
from tests.helpers import play_first_legal, write_variant

#: A made-up two-phase base: a deal and the tricks, each for himself.
BASE = """id: base
name: Base
players: 4
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "3 3"}
  play: {kind: tricks, lead: eldest}
scoring:
  each: "tricks"
match: {deals: 2}
"""

#: A house rule of it: spades are trumps, set by a phase that must run before the play.
HOUSE = """id: house
extends: base.yaml
phases:
  trumps:
    kind: fixed_trump
    suit: S
    %s
"""


def _names(v) -> list:
    return [p.name for p in v.phases]


def test_before_puts_the_new_phase_before_a_phase_of_the_base(tmp_path):
    """``before: play``: the trump phase runs between the deal and the play, and the hand is
    played with spades as trumps."""
    write_variant(tmp_path, "base.yaml", BASE)
    v = load_variant(write_variant(tmp_path, "house.yaml", HOUSE % "before: play"))
    assert _names(v) == ["deal", "trumps", "play"]
    s = State(v, seed=2)
    play_first_legal(s)
    assert s.hand_log[0].trump == "S"


def test_after_puts_the_new_phase_after_a_phase_of_the_base(tmp_path):
    """``after: deal`` is the same place; without a placement the new phase would follow the
    play, which the compiler refuses (no phase can follow trick play)."""
    write_variant(tmp_path, "base.yaml", BASE)
    v = load_variant(write_variant(tmp_path, "house.yaml", HOUSE % "after: deal"))
    assert _names(v) == ["deal", "trumps", "play"]
    [d] = check_file(write_variant(tmp_path, "plain.yaml", HOUSE % ""))
    assert "no phase can follow trick play" in d.message


@pytest.mark.parametrize("placement, column, message", [
    ("before: dog", 13, "before: 'dog' is not another phase of this variant (expected one of: deal, play)"),
    ("before: trumps", 13, "before: 'trumps' is not another phase of this variant"),
    ("before: play\n    after: deal", 13, "a phase is placed before a phase or after one, not both"),
])
def test_a_wrong_placement_is_refused_at_its_key(tmp_path, placement, column, message):
    """An unknown phase, the phase itself, both keys: refused at the key, with what was expected
    (the phase then stays last, which the compiler refuses too)."""
    write_variant(tmp_path, "base.yaml", BASE)
    found = check_file(write_variant(tmp_path, "house.yaml", HOUSE % placement))
    [d] = [d for d in found if d.path == "phases.trumps.before"]
    assert (d.line, d.column) == (7, column) and message in d.message


def test_a_phase_of_the_base_keeps_its_place(tmp_path):
    """Placing a phase the base already has is refused (it keeps its place)."""
    write_variant(tmp_path, "base.yaml", BASE)
    f = write_variant(tmp_path, "house.yaml", "id: house\nextends: base.yaml\nphases:\n  deal:\n    after: play\n")
    [d] = check_file(f)
    assert (d.line, d.column, d.path) == (5, 12, "phases.deal.after")
    assert "deal is a phase of the base: it keeps its place" in d.message


def test_a_placement_needs_extends(tmp_path):
    """In a file without ``extends:`` the phases run in the order written: a placement is refused."""
    f = write_variant(tmp_path, "base.yaml", BASE.replace('{kind: deal, pattern: "3 3"}',
                                                         '{kind: deal, pattern: "3 3", after: play}'))
    [d] = check_file(f)
    assert d.path == "phases.deal.after" and "in a file without extends: the phases run in the order written" \
        in d.message
