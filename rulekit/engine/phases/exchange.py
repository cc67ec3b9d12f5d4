"""``widow_exchange`` phase (rules/fivehundred.md [W1]).

The declarer takes the widow into his hand and discards as many cards face
down (any cards, including those just taken).  Discards score nothing and are
seen by nobody else.
"""
from __future__ import annotations

from itertools import combinations

from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.errors import IllegalActionError


def start(state) -> bool:
    """Applies only with a declarer; moves the widow into his hand."""
    h = state.hand
    if h.declarer < 0:
        return False
    zone = state.current_phase.zone
    h.hands[h.declarer] |= h.zones.get(zone, 0)
    h.zones[zone] = 0
    h.to_move = h.declarer
    return True


def legal(state) -> list:
    """Every set of ``discard`` cards from the declarer's hand (deck order)."""
    h = state.hand
    n = state.current_phase.discard
    deck = state.variant.deck
    cards = list(bits(h.hands[h.declarer]))
    out = []
    for combo in combinations(cards, n):
        m = 0
        for c in combo:
            m |= 1 << c
        out.append(Action.discard(deck, m))
    return out


def check(state, action) -> None:
    """:raises IllegalActionError: wrong kind, wrong count or a card not held."""
    h = state.hand
    n = state.current_phase.discard
    if action.kind != "discard":
        raise IllegalActionError(f"the declarer must discard {n} cards now (e.g. discard "
                                 f"{' '.join(state.variant.deck.names_of(h.hands[h.declarer])[:n])})")
    if action.cards.bit_count() != n:
        raise IllegalActionError(f"discard exactly {n} cards, not {action.cards.bit_count()}")
    extra = action.cards & ~h.hands[h.declarer]
    if extra:
        raise IllegalActionError(f"you do not hold {' '.join(state.variant.deck.names_of(extra))}")


def apply(state, action) -> bool:
    """Remove the discards from the declarer's hand."""
    h = state.hand
    h.hands[h.declarer] &= ~action.cards
    h.discards |= action.cards
    return True
