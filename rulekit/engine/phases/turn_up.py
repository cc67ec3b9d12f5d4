"""``turn_up`` phase: trumps are the suit of the dealer's last card, turned face up
(rules/whist.md [K1]).

The card belongs to the dealer's hand but stays face up on the table, seen by
every seat, until the dealer plays to the first trick.
"""
from __future__ import annotations


def start(state) -> bool:
    """Turn up the last card dealt and set trumps; the phase needs no action."""
    h = state.hand
    card = h.deck_order[-1]
    h.turned = card
    state.set_trump(state.variant.deck.suit_of(card))
    return False


def legal(state):  # pragma: no cover - never to move
    return []
