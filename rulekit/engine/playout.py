"""Random playouts inside the engine: the loop simulations and benchmarks use.

:func:`random_hand` plays the current hand of a :class:`~rulekit.engine.state.State`
to its end with uniformly random legal decisions.  Card play runs in one tight loop
over the bitmask tables of the trump context (the same rules as
:mod:`rulekit.engine.phases.tricks`, which it calls to close each trick); other
phases go through the ordinary ``legal_actions()``.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulekit.engine.phases import tricks as _tricks
from rulekit.engine.tables import action_tables

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.state import State


def random_hand(state: State, rng: random.Random) -> int:
    """Play the current hand to its end at random; return the number of cards played.

    :param state: the :class:`~rulekit.engine.state.State` (changed in place).
    :param rng: a :class:`random.Random` for the decisions (never the deal).
    """
    h = state.hand
    plays = 0
    rand = rng.random
    log = state.log
    pairs = action_tables(state.variant)["play_pairs"]
    ns = len(state.variant.deck.suits)
    while state.hand is h and not state.winners:
        phase = state.current_phase
        if phase.kind != "tricks":
            legal = state.legal_actions()
            state.apply_unchecked(legal[int(rand() * len(legal))])
            continue
        must_trump = phase.must_trump
        ctx = h.ctx
        group_mask = ctx.group_mask
        while True:
            seat = h.to_move
            hand = h.hands[seat]
            if h.trick:
                m = hand & group_mask[h.led_group]
                if not m:
                    m = hand
                    if must_trump and ctx.trump_suit_group is not None:
                        t = hand & group_mask[ctx.trump_suit_group]
                        if t:
                            m = t
            else:
                m = hand
            k = int(rand() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            c = (m & -m).bit_length() - 1
            suit = ""
            if not h.trick and ctx.top_names_suit and ctx.group_of[c] == ns:
                ok = _tricks.nameable_suits(state, seat)
                suit = ok[int(rand() * len(ok))]
                log.append((seat, _tricks.Action.play(state.variant.deck, c, suit)))
            else:
                log.append(pairs[seat][c])
            plays += 1
            if _tricks.play_card(state, c, suit):
                state.advance_phase()
                break
    return plays
