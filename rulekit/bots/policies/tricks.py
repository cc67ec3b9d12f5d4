"""The bots' policy for ``tricks`` with a stock, melds or a claim: the actions besides card play.

A claim that is made is claimed at once (points are public: any sampled world says it); the
turned card is taken in exchange; the best meld open is declared; closing the stock is weighed
by the bot's sampled worlds only once the player has 40 points or more (the worlds show every
hidden card, which makes closing look safer than it is); a claim that would fail is never made.
Card play is the bot's own.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.engine.actions import Action
from rulekit.engine.phases import claim as _claim
from rulekit.engine.phases import tricks

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation

#: the points a player has before the bot weighs closing the stock
CLOSE_FROM = 40


@policy(tricks.KIND)
def turn_action(bot: SensibleBot, obs: Observation) -> Action | None:
    """Claim, exchange, meld or weigh closing (see the module docstring); ``None``: card play."""
    spec = obs.phase_spec
    if spec is None or not getattr(spec, "extras", False):
        return None
    legal = obs.legal
    extra = {a.text: a for a in legal if a.kind != "play"}
    if not extra:
        return None
    world = obs.sample_world(bot.rng)
    if "claim" in extra and _claim.made(world, spec.claim, obs.seat):
        return extra["claim"]
    if "exchange" in extra:
        return extra["exchange"]
    melds = [a for a in legal if a.kind == "meld"]
    if melds:
        return max(melds, key=lambda a: (_meld_points(spec, a.cards, obs.trump), -a.cards))
    env = world.score_envs()[obs.seat].vars
    mine = env.get("points", 0) + env.get("melds", 0)
    rest = [a for a in legal if a.kind == "play" or a.kind == "close" and mine >= CLOSE_FROM]
    if len(rest) == 1:
        return rest[0]
    return bot.play(replace(obs, legal=rest)) if rest else None


def _meld_points(spec, mask: int, trump: str) -> int:
    """The points of the combination ``mask`` of the trick phase ``spec`` when ``trump`` is trumps."""
    for m in spec.melds.list:
        for c, suit in m.combos:
            if c == mask:
                return m.value(suit, trump)
    return 0
