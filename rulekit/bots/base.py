"""The bot interface and the random bot."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.actions import Action
    from rulekit.engine.observation import Observation


class Bot:
    """A player. Subclasses implement :meth:`act`.

    :param seed: seeds the bot's own randomness (never the deal).
    """

    name = "bot"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        """Choose one of ``obs.legal`` (an :class:`~rulekit.engine.actions.Action`)."""
        raise NotImplementedError


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def act(self, obs: Observation) -> Action:
        """A random element of ``obs.legal``."""
        return obs.legal[int(self.rng.random() * len(obs.legal))]


def make_bot(kind: str, seed: int = 0) -> Bot:
    """Build a bot by name: ``random`` or ``bot``/``sensible``.

    :raises ValueError: an unknown name.
    """
    from rulekit.bots.sensible import SensibleBot
    kinds = {"random": RandomBot, "bot": SensibleBot, "sensible": SensibleBot}
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r} (expected one of {', '.join(kinds)})")
    return kinds[kind](seed)
