"""Shared fixtures: the reference variants, loaded once per test session; and what keeps the tests
independent of each other, so that they run in parallel workers (``pytest -n auto``) and in any
order: no inherited terminal width, no record saved in the working folder."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulekit.variant import load_variant

# pytest-xdist's controller hands its workers the LINES and COLUMNS of its terminal (80 x 24 when
# there is none); rulekit's console takes a COLUMNS it finds at import as its fixed width, so a test
# that asks for a wider table (``runner.invoke(..., env={"COLUMNS": "160"})``) would get 80 in a
# worker and 160 alone. Each test sets the width it needs.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)

#: what ``rulekit play`` saves in the working folder when no --save is given (cli/game.py's default_path)
_RECORDS = ("rulekit-*.json", "rulekit-*.json.key")


def _records(folder: Path) -> set:
    return {p.name for pattern in _RECORDS for p in folder.glob(pattern)}


@pytest.fixture(autouse=True)
def _no_record_in_the_working_folder(request):
    """A test that plays a game saves it under its own ``tmp_path`` (``--save`` or
    ``monkeypatch.chdir``): a record left in the folder the suite runs from litters the clone, and
    two workers picking the same default name at once would write one file."""
    folder = request.config.invocation_params.dir
    before = _records(folder)
    yield
    left = _records(folder) - before
    assert not left, f"the test left {sorted(left)} in {folder}: save under tmp_path"


@pytest.fixture(scope="session")
def fivehundred():
    return load_variant("fivehundred")


@pytest.fixture(scope="session")
def rams():
    return load_variant("rams")


@pytest.fixture
def lister(tmp_path):
    """A builder of the made-up ``list_auction`` variant ``LISTER`` (``offers`` adds keys to its
    ``call_partner`` phase)."""
    from tests.helpers import LISTER, variant_from

    def make(offers=""):
        return variant_from(tmp_path, "lister.yaml", LISTER % {"offers": offers})
    return make


@pytest.fixture
def step_toy(tmp_path):
    """The made-up ``step_auction`` / ``announce`` / ``defence`` variant ``STEP_TOY``."""
    from tests.helpers import STEP_TOY, variant_from
    return variant_from(tmp_path, "toy.yaml", STEP_TOY)
