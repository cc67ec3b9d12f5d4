"""Every hand of shared/conformance/fivehundred-hands.json replays through the engine
with the same legal set at every step, the same tricks, entries and game winner.
(rules/fivehundred.md, all rule ids exercised by random play.)"""
from __future__ import annotations

import json

import pytest

from rulekit.engine import Action, State
from pathlib import Path

# A copy of shared/conformance/fivehundred-hands.json (ground truth, kept with the tests).
DATA = Path(__file__).parent / "data" / "fivehundred-hands.json"
HANDS = json.loads(DATA.read_text())["hands"] if DATA.exists() else []


def canon(state, text):
    """Translate the conformance notation (TS, play JK X) to rulekit's canonical text."""
    return Action.parse(text, state.variant.deck, state._bid_texts).text


@pytest.mark.parametrize("i", range(len(HANDS)))
def test_hand_replays(fivehundred, i):
    case = HANDS[i]
    s = State(fivehundred, deals=[case["deck_order"]], dealer=case["dealer"], scores=case["start_scores"])
    h = s.hand
    deck = fivehundred.deck
    for seat, cards in case["hands"].items():
        assert deck.names_of(h.hands[int(seat)]) == deck.names_of(deck.parse_mask(cards))
    assert deck.names_of(h.zones["widow"]) == deck.names_of(deck.parse_mask(case["widow"]))
    for k, step in enumerate(case["steps"]):
        assert s.to_move == step["seat"], f"step {k}"
        if step["legal"] is not None:
            got = sorted(a.text for a in s.legal_actions())
            want = sorted(canon(s, t) for t in step["legal"])
            assert got == want, f"step {k}: {step['action']}"
        s.apply(canon(s, step["action"]))
    assert h.declarer == (-1 if case["declarer"] is None else case["declarer"])
    assert (h.contract.text if h.contract else None) == case["contract"]
    assert (None if h.trump == "NT" else h.trump) == case["trump"]
    assert h.won == case["tricks"]
    assert s.sheet.rows[0].entries == case["entries"]
    assert (s.winners[0] if s.winners else None) == case["winner"]
