"""Referee for Schnapsen (docs/rules/schnapsen.md): the rules of the family in stockgame.py.

Independent of rulekit (it must never import it). Card and action notation: see stockgame.py
(``play XX``, ``meld KX QX``, ``exchange``, ``close``, ``claim``); 20 cards A 10 K Q J.
"""
from __future__ import annotations

import random

from tests.referees import stockgame
from tests.referees.stockgame import Rules

RULES = Rules(
    prefix="SN",
    ranks=("A", "10", "K", "Q", "J"),  # [SN-P1]
    packets=(("N", 3), ("D", 3), ("T", 1), ("N", 2), ("D", 2)),  # [SN-D1]
    low_trump="J",  # [SN-X1]
    exchange_needs_trick=False,  # [SN-X1]
    melds_when_strict=True,  # [SN-M3]
    last_trick_bonus=0,  # [SN-S6]
    last_trick_wins=True,  # [SN-S5]
)
PACK = tuple(RULES.pack())


class Deal(stockgame.Deal):
    """One deal of Schnapsen."""

    rules = RULES


def deal_random(rng: random.Random, dealer: int) -> tuple[list[list[str]], dict[str, list[str]]]:
    return stockgame.deal_random(RULES, rng, dealer)


match_winner = stockgame.match_winner  # [SN-B1]: a Bummerl is 7 game points
