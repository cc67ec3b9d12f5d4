"""``turn_up`` phase: trumps are the suit of the dealer's last card, turned face up
(rules/whist.md [K1]).

The card belongs to the dealer's hand but stays face up on the table, seen by
every seat, until the dealer plays to the first trick.
"""
from __future__ import annotations

from rulekit.engine.phases.base import PhaseKind


def start(state) -> bool:
    """Turn up the last card dealt and set trumps; the phase needs no action."""
    h = state.hand
    card = h.deck_order[-1]
    h.turned = card
    state.set_trump(state.variant.deck.suit_of(card))
    return False


def legal(state):  # pragma: no cover - never to move
    return []


class TurnUpKind(PhaseKind):
    """The ``turn_up`` kind (see the module docstring)."""

    name = "turn_up"
    schema = {'description': "Trumps are the suit of the dealer's last card, which lies face up until he plays "
                             'to the first trick.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind'],
              'properties': {'kind': True}}
    label = "turn up"
    example = "trumps: {kind: turn_up}"
    start = staticmethod(start)
    legal = staticmethod(legal)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`~rulekit.variant.model.TurnUpSpec`."""
        from rulekit.variant.model import TurnUpSpec
        return TurnUpSpec("turn_up", name)

    def strains(self, spec, deck) -> set:
        """Any suit may be turned."""
        return set(deck.suits)

    def describe(self, spec) -> str:
        """One sentence."""
        return ("The dealer's last card is turned face up; its suit is trumps for the hand, and the dealer "
                "takes the card into his hand when he plays to the first trick.")


KIND = TurnUpKind()
