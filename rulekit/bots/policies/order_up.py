"""The bots' policy for ``order_up``: call a suit with three trumps or more."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.phases import order_up

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(order_up.KIND)
def order_or_pass(bot: SensibleBot, obs: Observation) -> Action | None:
    """Call a suit holding three trumps or more (bowers counted), else pass; discard the
    weakest card."""
    v = obs.variant
    if obs.legal[0].kind == "discard":
        ctx = v.contexts.get(obs.trump) or v.contexts["NT"]
        return min(obs.legal, key=lambda a: ctx.strength[next(iter(bits(a.cards)))])
    best, count = None, 2
    for a in obs.legal:
        if a.kind == "pass" or a.text.endswith("alone"):
            continue
        suit = a.suit or v.deck.suit_of(obs.phase_data.get("turned", -1))
        ctx = v.contexts[suit]
        k = (obs.hand & ctx.group_mask[ctx.trump_suit_group]).bit_count()
        if k > count:
            best, count = a, k
    if best is not None:
        return best
    return next((a for a in obs.legal if a.kind == "pass"), obs.legal[0])
