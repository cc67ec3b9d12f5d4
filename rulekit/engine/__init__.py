"""The generic rules interpreter (docs/architecture.md, "The engine").

:class:`State` is the API: ``legal_actions()``, ``apply(action)``, ``to_move``,
``observation(seat)``, ``is_over``, ``result()``.

This package also holds modules of lower layers (the phase kinds in ``phases/``, the hand and
actions as data, the type aliases): ``State`` and ``Action`` are imported when first asked for
(PEP 562), so that importing a kind never loads the engine above it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.actions import Action
    from rulekit.engine.state import State

__all__ = ["Action", "State"]


def __getattr__(name: str) -> Any:
    """``State`` and ``Action``, imported on first use."""
    if name == "State":
        from rulekit.engine.state import State
        return State
    if name == "Action":
        from rulekit.engine.actions import Action
        return Action
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
