"""``name_trump`` phase: the declarer of a contract whose strain is ``chosen``
names trumps (rules/fivehundred.md [A4]: ten with trump, named after the widow)."""
from __future__ import annotations

from rulekit.engine.actions import Action
from rulekit.errors import IllegalActionError


def start(state) -> bool:
    """Applies only when the contract's strain is ``chosen``."""
    h = state.hand
    if h.contract is None or h.contract.strain != "chosen":
        return False
    h.to_move = h.declarer
    return True


def legal(state) -> list:
    """``trump X`` for each choice."""
    return [Action.trump(s) for s in state.current_phase.choices]


def check(state, action) -> None:
    """:raises IllegalActionError: not a trump call, or not one of the choices."""
    choices = state.current_phase.choices
    if action.kind != "trump" or action.suit not in choices:
        raise IllegalActionError(f"name trumps now: one of {', '.join('trump ' + c for c in choices)}")


def apply(state, action) -> bool:
    """Set the trump context."""
    state.set_trump(action.suit)
    return True
