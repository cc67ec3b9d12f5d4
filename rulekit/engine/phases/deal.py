"""``deal`` phase: cards go out by the variant's pattern (rules/fivehundred.md [D3] [D4]).

The deal needs no decision: it happens in :func:`start` from the hand's
``deck_order`` (a shuffled deck, or an explicit deal from a record).
"""
from __future__ import annotations


def deal_cards(spec, hand, players: int) -> None:
    """Give out ``hand.deck_order`` by ``spec.steps``, clockwise from the eldest hand.

    Player packets go to every seat in turn starting with ``hand.eldest``;
    zone steps (``widow 3 up``) put cards in that zone.
    """
    order = hand.deck_order
    i = 0
    for step in spec.steps:
        if step.zone:
            m = 0
            for c in order[i:i + step.count]:
                m |= 1 << c
            i += step.count
            hand.zones[step.zone] = hand.zones.get(step.zone, 0) | m
            hand.zone_up[step.zone] = step.face_up
            continue
        for _ in range(step.repeat):
            for k in range(players):
                seat = (hand.eldest + k) % players
                for c in order[i:i + step.count]:
                    hand.hands[seat] |= 1 << c
                i += step.count
    hand.dealt = list(hand.hands)


def start(state) -> bool:
    """Deal the hand; the phase needs no action."""
    deal_cards(state.current_phase, state.hand, state.variant.players)
    return False


def legal(state):  # pragma: no cover - never to move
    return []
