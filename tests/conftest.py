"""Shared fixtures: the reference variants, loaded once per test session."""
from __future__ import annotations

import pytest

from rulekit.variant import load_variant


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
