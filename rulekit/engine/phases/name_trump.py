"""``name_trump`` phase: a player names trumps.

* ``by: declarer`` — the declarer of a contract whose strain is ``chosen``
  (rules/fivehundred.md [A4]: ten with trump, named after the widow).
* ``by: dealer`` — the dealer names trumps before play, or with
  ``partner_may_name`` passes and lets his partner name them (rules/whist.md [K2]).
"""
from __future__ import annotations

from rulekit.engine.actions import PASS, Action
from rulekit.errors import IllegalActionError


def start(state) -> bool:
    """Applies to a ``chosen`` contract (by declarer) or always (by dealer)."""
    h = state.hand
    spec = state.current_phase
    if spec.by == "dealer":
        h.namer = h.dealer
        h.to_move = h.dealer
        return True
    if h.contract is None or h.contract.strain != "chosen":
        return False
    h.namer = h.declarer
    h.to_move = h.declarer
    return True


def _may_pass(state) -> bool:
    h = state.hand
    spec = state.current_phase
    return spec.by == "dealer" and spec.partner_may_name and h.namer == h.dealer


def legal(state) -> list:
    """``trump X`` for each choice (then ``pass`` when the dealer may leave it to his partner)."""
    acts = [Action.trump(s) for s in state.current_phase.choices]
    return acts + [PASS] if _may_pass(state) else acts


def check(state, action) -> None:
    """:raises IllegalActionError: not a trump call, or not one of the choices."""
    choices = state.current_phase.choices
    if action.kind == "pass" and _may_pass(state):
        return
    if action.kind != "trump" or action.suit not in choices:
        extra = " or pass (your partner names them)" if _may_pass(state) else ""
        raise IllegalActionError(f"name trumps now: one of {', '.join('trump ' + c for c in choices)}{extra}")


def apply(state, action) -> bool:
    """Set the trump context, or pass the choice to the partner."""
    h = state.hand
    if action.kind == "pass":
        h.namer = state.partner_of(h.dealer)
        h.to_move = h.namer
        return False
    state.set_trump(action.suit)
    return True
