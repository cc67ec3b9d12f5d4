"""The bots' policy for ``announce``: the contract of the longest, strongest suit."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.strength import hand_strength
from rulekit.engine.actions import Action
from rulekit.engine.phases import announce

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(announce.KIND)
def announce_contract(bot: SensibleBot, obs: Observation) -> Action | None:
    """The contract of the longest, strongest suit (the lowest choice when none fits)."""
    v = obs.variant
    by_text = {b.text: b for b in v.auction().bids}
    best, best_s = obs.legal[0], -1.0
    for a in obs.legal:
        b = by_text[a.text]
        if b.strain in v.deck.suits:
            s = hand_strength(v, obs.hand, b.strain)
            if s > best_s + 0.5:
                best, best_s = a, s
    return best
