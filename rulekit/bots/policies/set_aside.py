"""The bots' policy for ``set_aside``: the strongest cards in a null, else the weakest."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.strength import choose_discards
from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.phases import REGISTRY, set_aside

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(set_aside.KIND)
def put_aside(bot: SensibleBot, obs: Observation) -> Action | None:
    """Put aside the strongest cards in a null (the likeliest to win a trick), else the
    weakest of the shortest suits."""
    v = obs.variant
    k = obs.legal[0].cards.bit_count()
    ctx = v.contexts.get(obs.trump) or v.contexts["NT"]
    spec = v.auction()
    contract = next((b for b in REGISTRY[spec.kind].contracts(spec) if b.text == obs.contract), None) \
        if spec is not None else None
    if getattr(contract, "null", False):
        cards = sorted(bits(obs.hand), key=lambda c: -ctx.strength[c])[:k]
        return Action.discard(v.deck, sum(1 << c for c in cards))
    return Action.discard(v.deck, choose_discards(v, obs.hand, obs.trump, k))
