"""Shared fixtures: the shared/ folder beside the project root, variants."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def fivehundred():
    return load_variant("fivehundred")


@pytest.fixture(scope="session")
def rams():
    return load_variant("rams")
