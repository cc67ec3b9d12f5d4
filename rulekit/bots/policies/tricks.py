"""The bots' policy for ``tricks``: the actions besides card play — announcements, and a stock's,
melds' and claim's turn actions.

Announcements: an announcement is a bet on the rest of the hand, and a bot's worlds are played
out with every card known, which flatters any promise; so one is made only when, over the worlds
sampled for this decision, it raises the bot's utility on average and in at least :data:`SURE` of
them (paired: each world is played out with and without it, the same cards after).

A stock, melds or a claim: a claim that is made is claimed at once (points are public: any
sampled world says it); the turned card is taken in exchange; the best meld open is declared;
closing the stock is weighed by the bot's sampled worlds only once the player has 40 points or
more (the worlds show every hidden card, which makes closing look safer than it is); a claim
that would fail is never made.

Card play is the bot's own.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.sensible import _play_out, capped, utility
from rulekit.engine.phases import claim as _claim
from rulekit.engine.phases import melds as _melds
from rulekit.engine.phases import tricks

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.actions import Action
    from rulekit.engine.observation import Observation

#: The share of sampled worlds in which an announcement must pay for the bot to make it.
SURE = 0.7
#: the points a player has before the bot weighs closing the stock
CLOSE_FROM = 40


@policy(tricks.KIND)
def trick_turn(bot: SensibleBot, obs: Observation) -> Action | None:
    """An announcement that pays (:func:`paying_announcement`), else a stock's, melds' or claim's
    action (:func:`turn_action`), else ``None`` (the bot plays as usual) — or, when announcements
    were legal but none pays, the card the bot plays among its cards."""
    calls = [a for a in obs.legal if a.kind == "announcement"]
    if calls:
        best = paying_announcement(bot, obs, calls)
        if best is not None:
            return best
        obs = dataclasses.replace(obs, legal=[a for a in obs.legal if a.kind != "announcement"])
    act = turn_action(bot, obs)
    if act is not None or not calls:
        return act
    return bot.play(obs) if len(obs.legal) > 1 else obs.legal[0]


def paying_announcement(bot: SensibleBot, obs: Observation, calls: list) -> Action | None:
    """The announcement of ``calls`` that pays in :data:`SURE` of the sampled worlds (the best
    such), or ``None``."""
    v = obs.variant
    gains: dict = {a.text: [] for a in calls}
    for _ in range(max(3, bot.samples)):
        world = capped(bot.sample(obs))
        prefs = bot.preferences(world)
        base = _after(world, None, prefs, obs.seat, v)
        for a in calls:
            gains[a.text].append(_after(world, a, prefs, obs.seat, v) - base)
    best = max(calls, key=lambda a: sum(gains[a.text]))
    g = gains[best.text]
    return best if sum(g) > 0 and sum(x > 0 for x in g) >= SURE * len(g) else None


def _after(world, action, prefs, seat: int, v) -> float:
    """The bot's utility in ``world`` (a copy of it) when it makes ``action`` (or nothing) and the
    hand is played out by the bots' fast policy."""
    w = world.clone(light=True)
    h0 = w.hand
    if action is not None:
        w.apply_unchecked(action)
    _play_out(w, prefs, h0)
    return utility(h0, seat, v)


def turn_action(bot: SensibleBot, obs: Observation) -> Action | None:
    """Claim, exchange, meld or weigh closing (see the module docstring); ``None``: card play."""
    spec = obs.phase_spec
    if not isinstance(spec, tricks.TricksSpec) or not spec.extras:
        return None
    legal = obs.legal
    extra = {a.text: a for a in legal if a.kind != "play"}
    if not extra:
        return None
    world = obs.sample_world(bot.rng)
    if "claim" in extra and spec.claim is not None and _claim.made(world, spec.claim, obs.seat):
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
    return bot.play(dataclasses.replace(obs, legal=rest)) if rest else None


def _meld_points(spec, mask: int, trump: str) -> int:
    """The points of the combination ``mask`` of the trick phase ``spec`` when ``trump`` is trumps."""
    m, j = _melds.entry_of(spec.melds, mask)
    return m.value(m.combos[j][1], trump) if m is not None else 0
