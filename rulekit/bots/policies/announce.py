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
    """The contract of the longest, strongest suit (the lowest choice when none fits); after an
    auction of values, among the games worth the declarer's bid when there are any."""
    v = obs.variant
    by_text = {b.text: b for b in v.auction().bids}
    best, best_s = obs.legal[0], -1.0
    bid = max((int(t) for s, t in obs.calls if s == obs.seat and t.isdigit()), default=0)
    legal = obs.legal
    if getattr(v.auction(), "values", ()):   # after an auction of values: a game worth the bid, if any
        legal = [a for a in legal if by_text[a.text].value >= bid] or legal
        best = legal[-1]
    for a in legal:
        b = by_text[a.text]
        if b.strain in v.deck.suits:
            s = hand_strength(v, obs.hand, b.strain)
            if s > best_s + 0.5:
                best, best_s = a, s
    return best
