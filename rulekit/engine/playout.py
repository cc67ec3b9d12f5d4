"""Random playouts inside the engine: the loop simulations and benchmarks use.

:func:`random_hand` plays the current hand of a :class:`~rulekit.engine.state.State`
to its end with uniformly random legal decisions.  Card play runs in one tight loop
on bitmasks, through the rules of :mod:`rulekit.engine.phases.tricks` itself
(``legal_mask`` for the cards allowed, ``play_card`` to play one and close the trick);
other phases go through the ordinary ``legal_actions()``/``apply_unchecked()``.
tests/test_fast_path.py plays the same seeded deals through this loop and through the
checked ``legal_actions()``/``apply()`` path and compares them.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulekit.engine.phases import REGISTRY
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
    log_play = state.log.append
    legal_mask = _tricks.legal_mask   # the rules of the checked path, not a copy of them
    play_card = _tricks.play_card
    while state.hand is h and not state.winners:
        kind = state.variant.phases[h.phase].kind
        if kind != "tricks":   # (what state.legal_actions() returns, without its checks)
            legal = REGISTRY[kind].legal(state)
            state.apply_unchecked(legal[int(rand() * len(legal))])
            continue
        ctx = h.ctx
        pairs = action_tables(state.variant)["play_pairs"]
        # a led card of this group names a suit to follow (none: no card does)
        naming = len(state.variant.deck.suits) if ctx.top_names_suit else -1
        group_of = ctx.group_of
        held = sum(m.bit_count() for m in h.hands)
        while True:
            if h.ctx is not ctx:   # trumps set during play (the first lead makes trumps)
                ctx = h.ctx
                naming = len(state.variant.deck.suits) if ctx.top_names_suit else -1
                group_of = ctx.group_of
            seat = h.to_move
            m = legal_mask(state, seat)
            k = int(rand() * m.bit_count())
            while k:               # drop the k lowest cards: a uniform choice
                m &= m - 1
                k -= 1
            c = (m & -m).bit_length() - 1
            if naming < 0 or group_of[c] != naming or h.trick:
                log_play(pairs[seat][c])
                if play_card(state, c):
                    break
            else:
                ok = _tricks.nameable_suits(state, seat)
                suit = ok[int(rand() * len(ok))]
                log_play((seat, _tricks.Action.play(state.variant.deck, c, suit)))
                if play_card(state, c, suit):
                    break
        plays += held - sum(m.bit_count() for m in h.hands)   # the cards played
        state.advance_phase()
    return plays
