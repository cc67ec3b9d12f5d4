"""The bots' policies per phase kind: how a bot chooses in a phase whose kind its role does not
tell it how to play (a partner call, cards passed, a pile, a layout...), keyed by kind name.

A policy is a function ``(bot, obs) -> Action | None`` registered for a kind with
:func:`policy`; ``None`` leaves the choice to the bot (a random legal action, or its own
auction play for a kind whose role is ``auction``).  Policies read only the observation (and the
bot's own random source and settings); the kinds keep only their rules.  A new kind's policy is
a module here (or anywhere: :func:`policy` registers it when imported).

>>> from rulekit.engine.phases import kind_of
>>> policy_for(kind_of("pile").name) is not None
True
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.actions import Action
    from rulekit.engine.observation import Observation
    from rulekit.engine.phases.base import PhaseKind

Policy = Callable[["SensibleBot", "Observation"], Optional["Action"]]
"""A bot's choice in one kind of phase: an action of ``obs.legal``, or ``None`` (the bot's own)."""

#: kind name -> its policy
POLICIES: dict[str, Policy] = {}
_loaded: list[bool] = [False]


def policy(kind: PhaseKind) -> Callable[[Policy], Policy]:
    """Register the decorated function as the bots' policy for phases of ``kind``.

    :raises ValueError: ``kind`` already has a policy.
    """
    def add(fn: Policy) -> Policy:
        if POLICIES.get(kind.name, fn) is not fn:
            raise ValueError(f"phase kind {kind.name!r} already has a bot policy")
        POLICIES[kind.name] = fn
        return fn
    return add


def policy_for(kind: str) -> Policy | None:
    """The policy registered for the kind named ``kind``, or ``None``."""
    if not _loaded[0]:
        _load()
    return POLICIES.get(kind)


def _load() -> None:
    """Register the policies of the built-in kinds (their modules register on import)."""
    _loaded[0] = True
    from rulekit.bots.policies import (announce, call_partner, defence, domino, list_auction,  # noqa: F401
                                       name_trump, order_up, pass_cards, pile, set_aside, split_choice,
                                       step_auction, trick_bids, tricks)


__all__ = ["POLICIES", "Policy", "policy", "policy_for"]
