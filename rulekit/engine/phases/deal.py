"""``deal`` phase: cards go out by the variant's pattern (rules/fivehundred.md [D3] [D4]).

The deal needs no decision: it happens in :func:`start` from the hand's
``deck_order`` (a shuffled deck, or an explicit deal from a record).
"""
from __future__ import annotations


def deal_plan(spec, players: int) -> tuple:
    """Where each position of the dealing order goes: a player offset from the eldest
    hand (0 = eldest) or a zone name.  Built once per pattern."""
    plan = []
    for step in spec.steps:
        if step.zone:
            plan += [step.zone] * step.count
            continue
        for _ in range(step.repeat):
            for k in range(players):
                plan += [k] * step.count
    return tuple(plan)


_PLANS: dict = {}


def deal_cards(spec, hand, players: int) -> None:
    """Give out ``hand.deck_order`` by ``spec.steps``, clockwise from the eldest hand.

    Player packets go to every seat in turn starting with ``hand.eldest``;
    zone steps (``widow 3 up``) put cards in that zone.
    """
    key = (id(spec), players)
    plan = _PLANS.get(key)
    if plan is None or plan[0] is not spec:
        plan = _PLANS[key] = (spec, deal_plan(spec, players))
    eldest = hand.eldest
    hands = hand.hands
    zones = hand.zones
    for target, c in zip(plan[1], hand.deck_order):
        if target.__class__ is int:
            seat = (eldest + target) % players
            hands[seat] |= 1 << c
        else:
            zones[target] = zones.get(target, 0) | 1 << c
    for name, (_size, up) in spec.zones.items():
        hand.zone_up[name] = up
    hand.dealt = list(hands)


def start(state) -> bool:
    """Deal the hand; the phase needs no action."""
    deal_cards(state.current_phase, state.hand, state.variant.players)
    return False


def legal(state):  # pragma: no cover - never to move
    return []
