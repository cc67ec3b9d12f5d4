"""The bots' policy for ``widow_exchange`` with ``hand``: take the widow (a bot never plays hand:
the widow's cards can only help it); the discards are the bot's own (its ``exchange`` role)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.engine.actions import Action
from rulekit.engine.phases import exchange

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(exchange.KIND)
def take_the_widow(bot: SensibleBot, obs: Observation) -> Action | None:
    """``take`` when the declarer chooses between taking the widow and playing hand, else
    ``None`` (the bot discards by its exchange role)."""
    return exchange.TAKE if exchange.TAKE in obs.legal else None
