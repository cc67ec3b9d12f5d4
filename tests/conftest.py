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
