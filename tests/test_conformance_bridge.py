"""Every deal of shared/conformance/bridge-duplicate-deals.json (from an independent bridge
engine) replays under `bridge-duplicate` with the same legal set at every step (calls and
cards, the declarer choosing dummy's cards) and the same duplicate score for North-South.
(rules/bridge.md [A1]-[A6], [T1]-[T3], [S1]-[S6] and the duplicate house rule.)"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant
from tests.helpers import deal_order

# A copy of shared/conformance/bridge-duplicate-deals.json, kept with the tests.
DATA = Path(__file__).parent / "data" / "bridge-duplicate-deals.json"
GAMES = json.loads(DATA.read_text())["games"]
SEATS = "NESW"


@pytest.fixture(scope="module")
def duplicate():
    return load_variant("bridge-duplicate")


def deck_order(hands: dict, dealer: int) -> list:
    """Cards in dealing order for a one-at-a-time deal starting left of the dealer."""
    return deal_order([hands[seat] for seat in SEATS], first=dealer + 1)


def canon(state, text):
    """Conformance text (``TS``, ``X``, a bare card for a play) in rulekit's canonical form."""
    return state.parse_action(text).text


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_deal_replays(duplicate, i):
    g = GAMES[i]
    dealer = SEATS.index(g["dealer"])
    s = State(duplicate, deals=[deck_order(g["hands"], dealer)], dealer=dealer)
    for k, step in enumerate(g["steps"]):
        assert SEATS[s.controller(s.to_move)] == step["seat"], f"step {k}"
        got = sorted(a.text for a in s.legal_actions())
        want = sorted(canon(s, t) for t in step["legal"])
        assert got == want, f"step {k}: {step['action']}"
        s.apply(canon(s, step["action"]))
    row = s.sheet.rows[0]
    assert row.entries[0] - row.entries[1] == int(g["score_ns"])
