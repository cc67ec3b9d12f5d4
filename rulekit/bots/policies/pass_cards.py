"""The bots' policy for ``pass_cards``: pass the highest cards."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.phases import pass_cards

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(pass_cards.KIND)
def pass_highest(bot: SensibleBot, obs: Observation) -> Action | None:
    """Pass the highest cards (the likeliest to win tricks one does not want)."""
    v = obs.variant
    ctx = v.contexts.get(obs.trump) or v.contexts["NT"]
    k = obs.legal[0].cards.bit_count()
    cards = sorted(bits(obs.hand), key=lambda c: -ctx.strength[c])[:k]
    return Action.discard(v.deck, sum(1 << c for c in cards))
