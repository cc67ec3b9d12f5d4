"""Type aliases of the public engine API (all plain ``int`` at run time).

>>> from rulekit.engine.types import Card, Mask
>>> queen: Card = 10
>>> hand: Mask = 1 << queen
"""
from __future__ import annotations

Card = int
"""A card: its index in the variant's deck (``variant.deck.name(card)`` gives ``QS``)."""

Mask = int
"""A set of cards as a bitmask: bit ``c`` set when card ``c`` is in the set."""

Seat = int
"""A seat, 0-based clockwise; -1 for "nobody" (no declarer, nobody to move)."""

Column = int
"""A score column: a seat, or a side's index when the variant scores by side."""

__all__ = ["Card", "Column", "Mask", "Seat"]
