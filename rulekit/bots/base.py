"""The bot interface and the random bot."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.actions import Action
    from rulekit.engine.observation import Observation


#: ``bot:PATH`` names a bot file run in its own process (:mod:`rulekit.bots.remote`).
EXTERNAL_PREFIX = "bot:"


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
    """Build a bot by name: ``random``, ``bot``/``sensible``, or ``bot:PATH`` (the bot file at
    ``PATH`` in a process of its own: :class:`~rulekit.bots.remote.ProcessBot`).

    :raises ValueError: an unknown name.
    :raises FileNotFoundError: ``bot:PATH`` whose file does not exist.
    """
    from rulekit.bots.sensible import SensibleBot
    if kind.startswith(EXTERNAL_PREFIX):
        from rulekit.bots.remote import ProcessBot
        return ProcessBot(kind[len(EXTERNAL_PREFIX):], seed)
    kinds = {"random": RandomBot, "bot": SensibleBot, "sensible": SensibleBot}
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r} (expected one of {', '.join(kinds)})")
    return kinds[kind](seed)
