"""The bots' policy for ``list_auction``: in a round where each player speaks once, bid high;
in an auction of values, bid up to the value of the best game the hand can make."""
from __future__ import annotations

from typing import TYPE_CHECKING

from copy import copy

from rulekit.bots.policies import policy
from rulekit.bots.strength import hand_strength
from rulekit.engine.actions import PASS, Action
from rulekit.engine.phases import list_auction, matadors

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(list_auction.KIND)
def bid_once(bot: SensibleBot, obs: Observation) -> Action | None:
    """In an auction where each player speaks once (``once``), a player who is not the last
    to speak bids the highest contract of the list his bot would bid alone (offered it and
    pass only; the bot values it by playing out sampled worlds with the variant's scoring):
    he will not speak again, so a lower bid that pays as well only lets a later player take
    the contract.  Else ``None``: the bot's own bid (the last to speak needs only the
    lowest bid that pays; a forced bid too)."""
    spec = obs.phase_spec
    if spec.values:
        return bid_values(bot, obs)
    if not spec.once or PASS not in obs.legal:
        return None
    texts = {b.text for b in obs.phase_data.get("bids") or spec.bids}
    spoken = sum(1 for _s, t in obs.calls if t == "pass" or t in texts)
    if spoken >= obs.variant.players - 1:
        return None
    for offer in reversed([a for a in obs.legal if a.kind == "bid"]):   # legal lists them by value
        alone = copy(obs)
        alone.legal = [PASS, offer]
        if bot.bid(alone).text == offer.text:
            return offer
    return PASS


def reach(obs: Observation) -> int:
    """The highest value among the games of an auction of values that the hand looks strong
    enough for (:func:`~rulekit.bots.strength.hand_strength` at least its tricks less one: the
    widow may help; a game of no tricks, won by card points, half as many tricks again as a
    player's share; a null when the hand has hardly a high card), 0 when none.  With
    ``scoring.matadors`` a game is worth its value times one more than the hand's own run of
    top trumps (games only named in a hand game, or with promises, are not counted on)."""
    v = obs.variant
    best = 0
    share = v.hand_size * 1.5 / v.players if v.hand_size else 0
    for g in obs.phase_spec.games:
        if g.hand or g.promises:
            continue
        strength = hand_strength(v, obs.hand, g.strain)
        need = g.level - 1 if g.level else share
        if (strength < 1.0 if g.null else strength >= need):
            worth = g.value
            if v.scoring.matadors is not None and not g.null:
                worth *= matadors.run(matadors.trump_order(v.context(g.strain, g.group)), obs.hand)[0] + 1
            best = max(best, worth)
    return best


def bid_values(bot: SensibleBot, obs: Observation) -> Action:
    """In an auction of values: hold, or bid the lowest value, while it does not pass
    :func:`reach`; else pass."""
    top = reach(obs)
    hold = next((a for a in obs.legal if a.kind == "hold"), None)
    high = obs.phase_data.get("high")
    if hold is not None:
        return hold if high is not None and int(high) <= top else PASS
    low = next((a for a in obs.legal if a.kind == "bid"), None)
    if low is not None and int(low.text) <= top or PASS not in obs.legal:
        return low if low is not None else obs.legal[0]
    return PASS
