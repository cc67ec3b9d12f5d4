"""The bots' policy for ``domino``: keep options open."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.engine.actions import Action
from rulekit.engine.phases import domino
from rulekit.engine.phases.domino import DominoSpec

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(domino.KIND)
def lay_card(bot: SensibleBot, obs: Observation) -> Action | None:
    """Lay the card that opens the way to the most of one's own cards further along its row
    (and start the suits one holds most of); pass when forced."""
    spec = obs.phase_spec
    plays = [a for a in obs.legal if a.kind == "play"]
    if not plays:
        return None
    deck = obs.variant.deck
    hand = obs.hand
    rows = {s for s, _lo, _hi in obs.phase_data.get("layout_rows", [])}

    def ahead(c, step):
        n, x = 0, step[c]
        while x >= 0:
            n += hand >> x & 1
            x = step[x]
        return n

    def key(a):
        c = a.card
        if deck.suit_of(c) not in rows:  # a new row opens both directions, for everyone
            return (ahead(c, spec.up) + ahead(c, spec.down), -c)
        return (ahead(c, spec.up) if _extends_up(c, spec, obs) else ahead(c, spec.down), -c)
    return max(plays, key=key)


def _extends_up(c: int, spec: DominoSpec, obs: Observation) -> bool:
    """Whether ``c`` would go on the high end of its row."""
    for _s, _lo, hi in obs.phase_data.get("layout_rows", []):
        if spec.up[hi] == c:
            return True
    return False
