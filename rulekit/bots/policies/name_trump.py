"""The bots' policy for ``name_trump``'s order: ``high`` or ``low``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.engine.actions import Action
from rulekit.engine.phases import name_trump
from rulekit.engine.phases.name_trump import HIGH, LOW

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(name_trump.KIND)
def high_or_low(bot: SensibleBot, obs: Observation) -> Action | None:
    """``high`` or ``low``: the order in which more of the bot's cards are among the four best
    of their group (ties: high); ``None`` (the bots' trump choice) otherwise."""
    if HIGH not in obs.legal:
        return None
    v = obs.variant

    def good(ctx) -> int:
        return sum(1 for order in ctx.orders for c in order[:4] if obs.hand >> c & 1)
    low = v.low_contexts.get(obs.trump)
    return LOW if low is not None and good(low) > good(v.contexts[obs.trump]) else HIGH
