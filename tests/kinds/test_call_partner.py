"""The ``call_partner`` kind on a small made-up variant: a partner called for the hand is a role
for formulas and observations; offers refused and accepted."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from tests.helpers import play_first_legal


def _to_partner_phase(v):
    s = State(v, seed=4)
    s.apply("turn KH")
    s.apply("3H")      # seat 1 (eldest)
    s.apply("pass")    # seat 2
    s.apply("pass")    # seat 0
    assert s.phase_kind == "call_partner" and s.to_move == 1
    return s


def test_called_partner_is_a_role_for_formulas_and_observations(lister):
    """Per-hand partnerships and roles: the declarer invites; the first player
    clockwise who accepts partners him for this hand, is scored with the declarer's formula
    (``side_tricks`` counts both), is no defender, and every observation names him."""
    v = lister()
    s = _to_partner_phase(v)
    assert [a.text for a in s.legal_actions()] == ["alone", "invite"]
    s.apply("invite")
    assert s.to_move == 2 and [a.text for a in s.legal_actions()] == ["pass", "accept"]
    s.apply("pass")
    assert s.to_move == 0
    s.apply("accept")
    assert s.hand.partner == 0 and s.role(0) == "partner" and s.role(2) == "defender" and s.role(1) == "declarer"
    assert all(s.observation(x).partner == 0 for x in range(3))
    h = s.hand
    play_first_legal(s)
    side = h.won[1] + h.won[0]
    value = 9 if side >= 3 else -9
    assert h.entries == [value, value, 0]
    assert "with P0" in s.sheet.rows[0].note


def test_offer_refused_then_accepted(lister):
    """Called partner: after ``alone`` a player may offer himself; the declarer
    refuses one offer and accepts the next."""
    v = lister()
    s = _to_partner_phase(v)
    s.apply("alone")
    assert s.to_move == 2 and [a.text for a in s.legal_actions()] == ["pass", "offer"]
    s.apply("offer")
    assert s.to_move == 1 and [a.text for a in s.legal_actions()] == ["refuse", "accept"]
    with pytest.raises(IllegalActionError, match="invite is not an answer now: the declarer says accept or refuse"):
        s.apply("invite")
    s.apply("refuse")
    assert s.to_move == 0 and s.hand.partner == -1
    s.apply("offer")
    s.apply("accept")
    assert s.hand.partner == 0 and s.phase_kind == "tricks"
