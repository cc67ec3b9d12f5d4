"""The bots' policy for ``announce``: the contract of the longest, strongest suit."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.strength import hand_strength
from rulekit.engine.actions import Action
from rulekit.engine.phases import REGISTRY, announce, matadors

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(announce.KIND)
def announce_contract(bot: SensibleBot, obs: Observation) -> Action | None:
    """The contract of the longest, strongest suit (the lowest choice when none fits); after an
    auction of values, among the games worth the declarer's bid when there are any."""
    v = obs.variant
    auction = v.auction()
    by_text = {b.text: b for b in REGISTRY[auction.kind].contracts(auction)}
    best, best_s = obs.legal[0], -1.0
    bid = max((int(t) for s, t in obs.calls if s == obs.seat and t.isdigit()), default=0)
    legal = obs.legal
    spec = obs.phase_spec
    if isinstance(spec, announce.AnnounceSpec) and spec.declare_if is not None:   # every game offered can reach the bid
        return _plain_game(v, obs, [by_text[a.text] for a in legal]) or best
    if REGISTRY[auction.kind].bids_values(auction):   # after an auction of values: a game worth the bid, if any
        legal = [a for a in legal if by_text[a.text].value >= bid] or legal
        best = legal[-1]
    for a in legal:
        b = by_text[a.text]
        if b.strain in v.deck.suits:
            s = hand_strength(v, obs.hand, b.strain)
            if s > best_s + 0.5:
                best, best_s = a, s
    return best


def _plain_game(v, obs: Observation, games: list) -> Action | None:
    """Among games that may all be announced: those without promises or an open hand when there
    are any; the strongest trump suit, no trump when it is clearly stronger, a null when the hand
    has hardly a high card."""
    plain = [g for g in games if not g.promises and not g.open] or games
    bid = max((int(t) for s, t in obs.calls if s == obs.seat and t.isdigit()), default=0)
    if v.scoring.matadors is not None:   # a game his own run of top trumps makes worth the bid, if any
        def worth(g) -> int:
            run = matadors.run(matadors.trump_order(v.context(g.strain, g.group)), obs.hand | obs.discards)[0]
            return g.value if g.null else g.value * (run + 1)
        plain = [g for g in plain if worth(g) >= bid] or plain
    best, best_s = None, -1.0
    for g in plain:
        s = hand_strength(v, obs.hand, g.strain)
        score = (10.0 - 10 * s) if g.null else (s - 1.0 if g.strain not in v.deck.suits else s)
        if score > best_s:
            best, best_s = g, score
    return Action("bid", best.text, bid=best.text) if best is not None else None
