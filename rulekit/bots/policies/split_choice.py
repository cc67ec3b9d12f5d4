"""The bots' policy for ``split_choice``: name the suit held most among the first cards."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.phases import split_choice

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(split_choice.KIND)
def name_longest(bot: SensibleBot, obs: Observation) -> Action | None:
    """Name the suit it holds most of among its first cards (strength breaking ties)."""
    v = obs.variant
    hand = obs.hand
    strength = v.contexts["NT"].strength
    names = [a for a in obs.legal if a.kind == "trump"]
    if not names:
        return obs.legal[-1]

    def weight(a):
        cards = [c for c in bits(hand) if v.deck.suit_of(c) == a.suit]
        return (len(cards), sum(strength[c] for c in cards))
    return max(names, key=weight)
