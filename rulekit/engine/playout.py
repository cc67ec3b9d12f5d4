"""Random playouts inside the engine: the loop simulations and benchmarks use.

:func:`random_hand` plays the current hand of a :class:`~rulekit.engine.state.State`
to its end with uniformly random legal decisions.  Phases other than trick play go through
the kinds' choices as numbers (``legal_choices()``/``apply_choice()``: no action is built).
Trick play runs on bitmasks through the
rules of :mod:`rulekit.engine.phases.tricks` itself: when
:func:`~rulekit.engine.phases.tricks.plain_rules` holds (plain following: the common branch
of ``legal_mask``), :func:`_plain_tricks` plays the rest of the hand in one loop of local
variables on the hand's context tables; otherwise each card goes through ``legal_mask`` and
``play_card``.  tests/test_fast_path.py plays the same seeded deals of every shipped variant
through this loop and through the checked ``legal_actions()``/``apply()`` path and compares
every legal set, the history, the sheet and the result.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulekit.engine import kernel as _kernel
from rulekit.engine.phases import tricks as _tricks
from rulekit.engine.hand import PlayedTricks

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
    log_play = h.choices.append   # the record: a play's choice is its card
    legal_mask = _tricks.legal_mask   # the rules of the checked path, not a copy of them
    play_card = _tricks.play_card
    tricks = _tricks.KIND
    kinds = state.kinds   # (the hand's rules: a round schedule changes them between hands)
    legal_choices = state._legal_choices   # (each phase's kind's legal_choices, read once)
    apply_choice = state.apply_choice
    while state.hand is h and not state.is_over:
        kind = kinds[h.phase]
        if kind is not tricks:   # (what state.legal_choices() returns, without its checks)
            choices = legal_choices[h.phase](state)
            apply_choice(choices[int(rand() * len(choices))])
            continue
        ctx = h.ctx
        pairs = state._play_pairs
        if not h.trick and _tricks.plain_rules(state.variant.phases[h.phase], ctx, h.hands):
            plays += _plain_tricks(state, h, ctx, rand, log_play, pairs, rng)
            state.advance_phase()
            continue
        # a led card of this group names a suit to follow (none: no card does)
        naming = len(state.variant.deck.suits) if ctx.top_names_suit else -1
        group_of = ctx.group_of
        held = sum(m.bit_count() for m in h.hands)
        spec: _tricks.TricksSpec = state.variant.phases[h.phase]  # type: ignore[assignment]  # (a tricks phase)
        # actions besides cards (a stock's exchange and close, melds, a claim): a choice among all
        extras = spec.extras
        while True:
            if spec.side and _tricks.side_actions(state, spec):   # an earlier phase's action is open too
                legal = _tricks.legal(state)
                state.apply_unchecked(legal[int(rand() * len(legal))])
                if state.hand is not h or h.to_move < 0:
                    break
                continue
            if h.ctx is not ctx:   # trumps set during play (the first lead makes trumps)
                ctx = h.ctx
                naming = len(state.variant.deck.suits) if ctx.top_names_suit else -1
                group_of = ctx.group_of
            seat = h.to_move
            if extras:   # a uniform choice among every legal action, as the checked path makes it
                legal = _tricks.legal(state)
                if any(a.kind != "play" for a in legal):
                    a = legal[int(rand() * len(legal))]
                    if a.kind != "play":
                        state.apply_unchecked(a)   # (a claim ends the hand: it is scored)
                        if state.hand is not h or h.to_move < 0:
                            break
                        continue
                    log_play(pairs[seat][a.card])
                    if play_card(state, a.card):
                        break
                    continue
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
                log_play(c + state.variant.deck.size * (1 + state.variant.deck.suits.index(suit)))
                if play_card(state, c, suit):
                    break
        plays += held - sum(m.bit_count() for m in h.hands)   # the cards played
        if state.hand is h and h.to_move < 0 and not state.is_over:
            state.advance_phase()
    return plays


def _plain_tricks(state: State, h, ctx, rand, log_play, pairs, rng: random.Random | None = None) -> int:
    """Play the rest of hand ``h`` at random from a trick boundary under the plain rules
    (:func:`~rulekit.engine.phases.tricks.plain_rules`); return the number of cards played.

    The same rules as :func:`~rulekit.engine.phases.tricks.legal_mask` and
    :func:`~rulekit.engine.phases.tricks.play_card` on the same tables of the hand's
    :class:`~rulekit.variant.model.Context`, in local variables: the hot loop of
    simulations.  It draws from ``rand`` as the per-card loop does (the k-th lowest legal
    card, then a named suit), so both give the same hand; tests/test_fast_path.py plays
    every shipped variant through both this loop and the checked ``apply()`` and compares
    every legal set, the history, the sheet and the result.

    With ``rng`` (the generator ``rand`` draws from) and the compiled kernel on
    (:mod:`rulekit.engine.kernel`), the kernel plays the hand instead when it can: the same
    draws, the same hand (tests/test_kernel.py).
    """
    if rng is not None and _kernel.enabled():
        done = _kernel.random_tricks(state, h, ctx, rng)
        if done is not None:
            data, names, last, group, legal = done
            _finish(state, h, data, names, last, group)
            return len(legal)
    v = state.variant
    spec = v.phases[h.phase]
    hands = h.hands
    n = h.players
    step = v.step
    active = [s for s in range(n) if hands[s]]
    order = {}   # the seats of a trick in playing order, by leader
    for s in active:
        seq = [s]
        nxt = (s + step) % n
        while nxt != s:
            if hands[nxt]:
                seq.append(nxt)
            nxt = (nxt + step) % n
        order[s] = [(x, pairs[x]) for x in seq[1:]]   # (seat, its log entries by card)
    group_mask = ctx.group_mask
    group_of = ctx.group_of
    win_keys = ctx.win_keys
    trumps = group_mask[ctx.trump_suit_group] if spec.must_trump and ctx.trump_suit_group is not None else 0
    # the lead rules in force (a suit not led until broken, or never) and the first trick's
    rules = _tricks._lead_rules(state, spec) if spec.lead_broken or spec.lead_never else ()
    gone = _tricks.played_cards(h.tricks) if rules else 0   # the cards of the finished tricks
    first_trick = spec.restricts and not h.tricks
    naming = len(v.deck.suits) if ctx.top_names_suit else -1
    failed = h.failed
    won = h.won
    won_cards = h.won_cards
    winners = h.trick_winners
    flat: list = []   # the tricks in PlayedTricks' layout: they are kept so once the hand ends
    named_by_trick: list = []   # (only where a led card may name a suit)
    size = len(active)   # cards a trick
    at = 1   # where the current trick's winner goes in flat
    leader = first = h.to_move
    left = hands[leader].bit_count()
    for _ in range(left):
        first = leader
        hand = hands[leader]
        m = _tricks.lead_allowed(rules, hand, gone) if rules else hand
        if first_trick:
            m = _tricks.first_allowed(spec, m, True)
        k = int(rand() * m.bit_count())
        while k:   # drop the k lowest cards: a uniform choice
            m &= m - 1
            k -= 1
        low = m & -m
        c = low.bit_length() - 1
        hands[leader] = hand ^ low
        if naming < 0:
            lg = group_of[c]
            log_play(pairs[leader][c])
        elif group_of[c] == naming:   # a led top card names the suit to follow ([T4])
            ok = _tricks.nameable_suits(state, leader)
            named = ok[int(rand() * len(ok))]
            named_by_trick.append(named)
            lg = v.deck.suits.index(named)
            log_play(c + v.deck.size * (1 + lg))   # its choice: the card and the suit named
        else:
            named_by_trick.append("")
            lg = group_of[c]
            log_play(pairs[leader][c])
        keys = win_keys[lg]
        follow = group_mask[lg]
        flat += (leader, leader, size, leader, c)
        cards = low
        best = keys[c]
        winner = leader
        for s, log_of in order[leader]:
            hand = hands[s]
            m = hand & follow
            if not m:   # he cannot follow: trumps if he must, else any card
                failed[s] |= 1 << lg
                m = hand & trumps or hand
            if first_trick:
                m = _tricks.first_allowed(spec, m, False)
            k = int(rand() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            low = m & -m
            c = low.bit_length() - 1
            hands[s] = hand ^ low
            log_play(log_of[c])
            flat += (s, c)
            cards |= low
            if keys[c] > best:
                best = keys[c]
                winner = s
        flat[at] = winner
        at += 3 + 2 * size
        winners.append(winner)
        won[winner] += 1
        won_cards[winner] |= cards
        leader = winner
        gone |= cards
        first_trick = False
    _finish(state, h, bytes(flat) if state._small else tuple(flat), named_by_trick if naming >= 0 else left,
            first, lg)
    return left * size


def _finish(state: State, h, flat, named, first: int, lg: int) -> None:
    """The end of :func:`_plain_tricks` (its Python loop or the kernel): the cards out of play to
    the player the phase (or the contract group) names (``widow_to``, ``discards_to``), the tricks
    kept in ``PlayedTricks``' layout (``flat``, ``named``: see :meth:`PlayedTricks.of`), the trick
    state of a finished trick phase."""
    spec = state.variant.phases[h.phase]
    if _tricks.credits(spec, h.ctx):   # cards out of play counted for a player
        _tricks.credit(state, spec, h.trick_winners[-1])
    played: Sequence = PlayedTricks.of(flat, named)
    if h.tricks:   # (tricks played before this loop began: a bot's world mid-hand)
        played = list(h.tricks) + list(played)
        played = PlayedTricks(played) if state._small else played
    h.tricks = played  # type: ignore[assignment]  # reads as the list
    h.leader = first
    h.trick = []
    h.named = ""
    h.led_group = lg
    h.to_move = -1
