"""The bots' policy for ``call_partner``: invite, and answer with enough trumps and top cards;
by a card, call the card of the suit he holds fewest of."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.cards import bits
from rulekit.engine.actions import PASS, Action
from rulekit.engine.phases import call_partner
from rulekit.engine.phases.call_partner import ACT

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(call_partner.KIND)
def call_or_answer(bot: SensibleBot, obs: Observation) -> Action | None:
    """Invite when the contract is the lowest a partner may help; answer yes with at least
    three trumps and two top cards of the other suits."""
    d = obs.phase_data["partner_call"]
    if d["stage"] == "call":
        return call_card(obs)
    if d["stage"] == "ask":
        return ACT["invite"]
    if d["stage"] == "decide":
        return ACT["accept"]
    v = obs.variant
    ctx = v.contexts.get(obs.trump) or v.contexts["NT"]
    trumps = [c for c in bits(obs.hand) if v.deck.suit_of(c) == obs.trump]
    tops = [c for c in bits(obs.hand) if v.deck.rank_of(c) in ("A", "K")]
    good = len(trumps) >= 3 and len(tops) >= 2 and ctx is not None
    return (ACT["accept"] if d["invited"] else ACT["offer"]) if good else PASS


def call_card(obs: Observation) -> Action:
    """By a card: the legal call whose suit (in the hand's trumps) the declarer holds fewest
    cards of, the first in deck order of equals: its holder is then likely to win the
    declarer's short suit (a called ace over a single card of its suit)."""
    v = obs.variant
    ctx = (v.low_contexts if obs.low else v.contexts).get(obs.trump) or v.contexts["NT"]
    return min(obs.legal, key=lambda a: (obs.hand & ctx.group_mask[ctx.group_of[a.card]]).bit_count())
