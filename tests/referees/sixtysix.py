"""Referee for Sixty-Six, Sechsundsechzig (docs/rules/sixtysix.md): the family in stockgame.py.

Independent of rulekit (it must never import it). Card and action notation: see stockgame.py
(``play XX``, ``meld KX QX``, ``exchange``, ``close``, ``claim``); 24 cards A 10 K Q J 9.
"""
from __future__ import annotations

import random

from tests.referees import stockgame
from tests.referees.stockgame import Rules

RULES = Rules(
    prefix="SS",
    ranks=("A", "10", "K", "Q", "J", "9"),  # [SS-P1]
    packets=(("N", 3), ("D", 3), ("N", 3), ("D", 3), ("T", 1)),  # [SS-D1]
    low_trump="9",  # [SS-X1]
    exchange_needs_trick=True,  # [SS-X1]
    melds_when_strict=False,  # [SS-M3]
    last_trick_bonus=10,  # [SS-S6]
    last_trick_wins=False,  # [SS-S5]
)
PACK = tuple(RULES.pack())


class Deal(stockgame.Deal):
    """One deal of Sixty-Six."""

    rules = RULES


def deal_random(rng: random.Random, dealer: int) -> tuple[list[list[str]], dict[str, list[str]]]:
    return stockgame.deal_random(RULES, rng, dealer)


match_winner = stockgame.match_winner  # [SS-B1]: seven game points
