"""The bots' policy for ``rob``: the dealer robs a turned card, putting out his weakest card."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.strength import choose_discards
from rulekit.engine.phases import rob
from rulekit.engine.phases.rob import rob_action

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.actions import Action
    from rulekit.engine.observation import Observation


@policy(rob.KIND)
def rob_it(bot: SensibleBot, obs: Observation) -> Action | None:
    """Rob (a turned trump is always worth a card), putting out the weakest card of the hand."""
    v = obs.variant
    out = choose_discards(v, obs.hand, obs.trump, 1)
    act = rob_action(v.deck, out.bit_length() - 1)
    return act if act in obs.legal else None
