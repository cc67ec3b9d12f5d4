"""The bots' policy for ``step_auction``: bid while the hand is strong enough."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.strength import hand_strength
from rulekit.engine.actions import PASS, Action
from rulekit.engine.phases import step_auction

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(step_auction.KIND)
def bid_steps(bot: SensibleBot, obs: Observation) -> Action | None:
    """Bid a number while the hand is strong enough for it, else pass (see
    :func:`~rulekit.bots.strength.hand_strength`)."""
    legal_ = obs.legal
    spec = obs.phase_spec
    best = max(hand_strength(obs.variant, obs.hand, s) for s in obs.variant.deck.suits)
    names = [a for a in legal_ if a.kind == "bid" and not a.text.isdigit()]
    if names:  # naming round: the lowest one we may name, else concede
        return names[0] if best >= 6 else (PASS if PASS in legal_ else names[0])
    hold = next((a for a in legal_ if a.kind == "hold"), None)
    num = next((a for a in legal_ if a.kind == "bid"), None)
    reach = 2 + max(0, int(best) - 5)   # a rough level this hand can afford
    if hold is not None and int(obs.phase_data.get("level", 0)) <= reach:
        return hold
    if num is not None and int(num.text) <= min(reach, spec.levels[-1]) and best >= 5:
        return num
    return PASS
