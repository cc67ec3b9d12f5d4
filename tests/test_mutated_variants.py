"""House rules that change one key of a shipped variant in a way its author did not foresee
either play to their end with a record that replays, or are refused with the file's line and
column (cases found by tools/mutation_fuzz.py)."""
from __future__ import annotations

import random

import pytest

from rulekit import records
from rulekit.engine import State
from rulekit.errors import VariantError
from rulekit.variant import check_file
from tests.helpers import variant_from, write_variant


def _play_and_replay(v, tmp_path, seed: int, hands: int = 3) -> State:
    s = State(v, seed=seed, max_hands=hands)
    rnd = random.Random(seed)
    while not s.is_over:
        s.apply(rnd.choice(s.legal_actions()))
    f = tmp_path / f"game-{seed}.json"
    records.save(f, records.to_record(s, ["random"] * v.players))
    again = records.replay(records.load(f))
    assert again.history == s.history and again.sheet.as_dict() == s.sheet.as_dict()
    return s


def test_a_column_no_formula_scores_gets_nothing(tmp_path):
    """Preferans without its announce phase: a declarer but no contract, so no formula scores his
    opponents' columns; those get 0 (as a scoring part without a formula does), and every hand
    is scored."""
    v = variant_from(tmp_path, "no-announce.yaml", "extends: preferans\nphases: {announce: null}\n")
    s = _play_and_replay(v, tmp_path, seed=0)
    assert len(s.sheet.rows) == 3 and all(isinstance(e, int) for r in s.sheet.rows for e in r.entries)


def test_an_order_up_from_a_zone_the_deal_does_not_make_is_refused(tmp_path):
    """Belote's bidding turns the talon's top card; without ``from`` it would turn a widow the
    deal does not make: refused at the phase, naming the zones there are."""
    f = write_variant(tmp_path, "no-from.yaml", "extends: belote\nphases: {bidding: {from: null}}\n")
    problems = [str(p) for p in check_file(f) if getattr(p, "level", "error") == "error"]
    assert any("order_up turns the top card of the widow, but the deal has no widow "
               "(expected from: one of talon)" in p for p in problems), problems
    with pytest.raises(VariantError, match="no-from.yaml:"):
        variant_from(tmp_path, "no-from.yaml", "extends: belote\nphases: {bidding: {from: null}}\n")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_doubling_word_written_in_capitals_is_read_back_from_the_record(tmp_path, seed):
    """A defence chain whose first word is written ``S`` ([F5]'s kontra renamed): the word is
    read in any case, as the file spells it, so every played game's record replays."""
    text = "extends: preferans\nphases: {defence: {chain: [S, rekontra, subkontra, mortkontra]}}\n"
    v = variant_from(tmp_path, "capital.yaml", text)
    _play_and_replay(v, tmp_path, seed=seed)
    s = State(v, seed=seed)
    assert s.variant.phases[[p.name for p in s.variant.phases].index("defence")].chain[0] == "S"
