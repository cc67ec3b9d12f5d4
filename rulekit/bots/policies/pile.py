"""The bots' policy for ``pile``: the best threshold score now."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.engine.actions import Action
from rulekit.engine.phases import pile
from rulekit.engine.phases.pile import crossed

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(pile.KIND)
def add_to_pile(bot: SensibleBot, obs: Observation) -> Action | None:
    """The card with the best threshold score now (never reach a threshold that costs points
    when another card avoids it); among equals, shed the highest value while it is safe,
    keeping low cards for when the total is near the next threshold."""
    spec = obs.phase_spec
    total = obs.phase_data.get("pile_total", 0)
    plays = [a for a in obs.legal if a.kind == "play"]
    if not plays:
        return None
    return max(plays, key=lambda a: (crossed(spec, total, total + spec.values[a.card]),
                                     spec.values[a.card], -a.card))
