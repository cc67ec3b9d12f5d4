"""Players that act only on ``observation(seat)`` (DESIGN.md layer 6).

* :class:`RandomBot` — a uniformly random legal action.
* :class:`SensibleBot` — Monte Carlo: samples the unseen cards consistently
  with what it has seen and plays the samples out with a fast greedy policy;
  bids only contracts whose expected score is positive.

Both work for every variant; neither knows a game by name.
"""
from rulekit.bots.base import Bot, RandomBot, make_bot
from rulekit.bots.sensible import SensibleBot

__all__ = ["Bot", "RandomBot", "SensibleBot", "make_bot"]
