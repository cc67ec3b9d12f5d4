"""``turn_up`` phase: trumps are the suit of the dealer's last card, turned face up
(rules/whist.md [K1]).

The card belongs to the dealer's hand but stays face up on the table, seen by
every seat, until the dealer plays to the first trick.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, card_place
from rulekit.engine.phases.table import Table


@dataclass(frozen=True)
class TurnUpSpec(PhaseSpec):
    """``turn_up`` phase (rules/whist.md [K1]): trumps are the suit of the dealer's last card,
    or with ``card: stock`` of the top card of the undealt stock (no trumps when none is left)."""

    card: str = "dealer_last"


@dataclass
class TurnUpData(KindData):
    """``turn_up``'s data with ``card: stock``: ``card``, the stock's top card turned (-1: none)."""

    card: int = -1


def start(state: Table) -> bool:
    """Turn up the last card dealt and set trumps; the phase needs no action."""
    h = state.hand
    if KIND.spec(state).card == "stock":  # the top card of the stock, seen by all
        stock = h.zones.get("stock", 0)
        top = next((c for c in h.deck_order if stock >> c & 1), -1)
        state.set_trump("NT" if top < 0 else state.variant.deck.suit_of(top) or "NT")
        h.phase_state[KIND.name] = TurnUpData(top)
        return False
    card = h.deck_order[-1]
    h.turned = card
    state.set_trump(state.variant.deck.suit_of(card) or "NT")   # (a joker names no suit, as from the stock)
    return False


def legal(state: Table):  # pragma: no cover - never to move
    return []


class TurnUpKind(PhaseKind[TurnUpSpec]):
    """The ``turn_up`` kind (see the module docstring)."""

    name = "turn_up"
    schema = {'description': "Trumps are the suit of a turned card: the dealer's last card, which lies face "
                             'up until he plays to the first trick, or (`card: stock`) the top card of the '
                             'undealt stock.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind'],
              'properties': {'kind': True,
                             'card': {'description': '`dealer_last` (default): the dealer\'s last card; '
                                                     '`stock`: the top card of the undealt stock (deal '
                                                     'hand_sizes), no trumps when none is left.',
                                      'enum': ['dealer_last', 'stock']}}}
    label = "turn up"
    example = "trumps: {kind: turn_up}"
    start = staticmethod(start)
    legal = staticmethod(legal)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`TurnUpSpec`."""
        return TurnUpSpec("turn_up", name, p.get("card", "dealer_last"))

    def strains(self, spec, deck) -> set:
        """Any suit may be turned (and no trumps when the stock is empty)."""
        return set(deck.suits) | ({"NT"} if spec.card == "stock" else set())

    def observe(self, state: Table, seat: int) -> dict:
        """``turned``: the stock card turned for trumps (public), when there is one."""
        d = self.data_of(state.hand)
        return {"turned": d.card} if d is not None else {}

    def show(self, data, variant, names=None) -> list:
        """The stock card turned for trumps, public: ``turned  8♥`` as an order-up shows its own
        (user pass 2, finding 9); none when the stock was empty."""
        card = data.card
        return [("turned", variant.deck.pretty(card))] if card >= 0 else []

    def known_cards(self, state: Table) -> list:
        """The stock card turned for trumps lies face up on the stock (public)."""
        d = self.data_of(state.hand)
        return card_place(state, d.card) if d is not None else []

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: nobody acts."""
        return ()

    def describe(self, spec) -> str:
        """One sentence."""
        if spec.card == "stock":
            return ("The top card of the undealt stock is turned face up; its suit is trumps for the hand "
                    "(when every card was dealt, the hand is played without trumps).")
        return ("The dealer's last card is turned face up; its suit is trumps for the hand, and the dealer "
                "takes the card into his hand when he plays to the first trick.")


KIND = TurnUpKind()
