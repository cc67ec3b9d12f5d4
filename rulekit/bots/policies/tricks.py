"""The bots' policy for ``tricks`` with announcements: announce only what sampled worlds say
pays clearly, then play the card the bot would play anyway.

An announcement is a bet on the rest of the hand, and a bot's worlds are played out with every
card known, which flatters any promise; so one is made only when, over the worlds sampled for
this decision, it raises the bot's utility on average and in at least :data:`SURE` of them
(paired: each world is played out with and without it, the same cards after).  Without an
announcement worth making the bot chooses among its cards as it always does.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.sensible import _play_out, capped, utility
from rulekit.engine.phases import tricks

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.actions import Action
    from rulekit.engine.observation import Observation

#: The share of sampled worlds in which an announcement must pay for the bot to make it.
SURE = 0.7


@policy(tricks.KIND)
def announce_or_play(bot: SensibleBot, obs: Observation) -> Action | None:
    """An announcement that pays in :data:`SURE` of the worlds (the best such), else ``None``
    when none is legal (the bot plays as usual), else the card the bot plays among its cards."""
    calls = [a for a in obs.legal if a.kind == "announcement"]
    if not calls:
        return None
    cards = dataclasses.replace(obs, legal=[a for a in obs.legal if a.kind != "announcement"])
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
    if sum(g) > 0 and sum(x > 0 for x in g) >= SURE * len(g):
        return best
    return bot.play(cards) if len(cards.legal) > 1 else cards.legal[0]


def _after(world, action, prefs, seat: int, v) -> float:
    """The bot's utility in ``world`` (a copy of it) when it makes ``action`` (or nothing) and the
    hand is played out by the bots' fast policy."""
    w = world.clone(light=True)
    h0 = w.hand
    if action is not None:
        w.apply_unchecked(action)
    _play_out(w, prefs, h0)
    return utility(h0, seat, v)
