"""The generic rules interpreter (DESIGN.md layer 4).

:class:`State` is the API: ``legal_actions()``, ``apply(action)``, ``to_move``,
``observation(seat)``, ``is_over``, ``result()``.
"""
from rulekit.engine.actions import Action
from rulekit.engine.state import State

__all__ = ["Action", "State"]
