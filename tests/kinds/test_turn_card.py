"""The ``turn_card`` kind: the card turned from a second pack is a chance event, stored in the
record and public."""
from __future__ import annotations

import pytest

from rulekit.engine import State



def test_chance_event_is_an_action_in_the_record_and_public(lister):
    """Chance events stored in the record: the card turned from a second pack
    is the turner's one legal action, stored in the history; a record may name any card (a real
    table's), and every seat sees it and the suit classes it gives."""
    v = lister()
    s = State(v, seed=4)
    assert s.phase_kind == "turn_card" and s.to_move == 0
    drawn = s.legal_actions()
    assert len(drawn) == 1 and drawn[0].text.startswith("turn ")
    s.apply("turn KH")                     # what the table turned, not what the seed drew
    assert s.history[0] == (0, "turn KH")
    for seat in range(3):
        data = s.observation(seat).phase_data
        assert data["turned_card"] == v.deck.index["KH"]
        assert data["suit_classes"] == {"H": 1, "D": 2, "S": 3, "C": 3}
    with pytest.raises(Exception):
        State(v, seed=4).apply("turn 2H")  # not a card of this pack
