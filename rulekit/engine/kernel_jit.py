"""The compiled trick loops of :mod:`rulekit.engine.kernel` (numba; the ``fast`` extra).

Only :mod:`rulekit.engine.kernel` imports this module, and only when the kernel is switched on
and numba is installed: nothing else in rulekit imports numba.  Each function here is a line
for line copy of a pure-Python loop that stays the reference, on the packed tables of one
:class:`~rulekit.variant.model.Context` (:class:`rulekit.engine.kernel.Pack`): cards are bit
indices below 63 of ``int64`` masks, and every rule is read from those tables.

- :func:`random_tricks` is ``rulekit.engine.playout._plain_tricks`` (the random playout's plain
  loop): the lead rules (:func:`_lead_mask`: ``tricks.lead_allowed``, ``first_allowed``);
  follow the led group, else ``must_trump``'s trumps, else any card, less the first trick's
  refused cards; the trick to the highest win key; a uniform choice of the k-th lowest legal
  card, drawn from the caller's ``random.Random`` itself (:func:`uniform`: CPython's MT19937, to the bit).
- :func:`greedy_tricks` is ``rulekit.bots.sensible._plain_tricks`` with its greedy policy
  (``_lead``, ``_follow``): the SensibleBot's one-loop playout.

``@njit(cache=True)``: the machine code is written next to this file (or numba's cache folder)
the first time and loaded by later processes, so a process pays the compilation once, ever.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros

trailing_zeros: Any = _trailing_zeros   # (an intrinsic: the index of the lowest set bit)


@njit(cache=True)
def _count(m):
    """Set bits of the mask ``m``."""
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def _kth(m, k):
    """The ``k``-th lowest card of ``m`` (from 0): the uniform pick of the Python loops."""
    while k:
        m &= m - 1
        k -= 1
    return trailing_zeros(m & -m)


@njit(cache=True)
def _twist(mt):
    """Regenerate the 624 words of the MT19937 generator ``mt`` (CPython's ``genrand_uint32``)."""
    for k in range(623):
        y = (np.int64(mt[1 + k]) & 0x80000000) | (np.int64(mt[2 + k]) & 0x7fffffff)
        x = np.int64(mt[1 + k + 397 if k < 227 else 1 + k - 227]) ^ (y >> 1)
        mt[1 + k] = x ^ 0x9908b0df if y & 1 else x
    y = (np.int64(mt[624]) & 0x80000000) | (np.int64(mt[1]) & 0x7fffffff)
    x = np.int64(mt[397]) ^ (y >> 1)
    mt[624] = x ^ 0x9908b0df if y & 1 else x
    mt[0] = 0


@njit(cache=True)
def _next32(mt):
    """The next 32-bit output of the MT19937 generator ``mt``: its index, then its 624 words, as
    CPython's ``random.Random`` keeps them (``genrand_uint32`` of its _randommodule.c)."""
    if mt[0] >= 624:
        _twist(mt)
    i = mt[0]
    mt[0] = i + 1
    y = np.int64(mt[1 + i])
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    return y ^ (y >> 18)


@njit(cache=True)
def uniform(mt):
    """``random.Random.random()`` on the generator ``mt`` (see :func:`_next32`), to the bit: two
    outputs, 53 bits."""
    a = _next32(mt) >> 5
    b = _next32(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def uniforms(mt, out):
    """Fill ``out`` with :func:`uniform` draws, in order."""
    for i in range(out.shape[0]):
        out[i] = uniform(mt)


@njit(cache=True)
def _lead_mask(m, lr, gone, first):
    """The leads ``m`` less what the lead rules ``lr`` forbid (:func:`random_tricks`), as
    ``tricks.lead_allowed`` then ``tricks.first_allowed`` (lead) remove them."""
    for r in range(4, lr.shape[0], 2):   # a suit not led while the leader keeps another card
        mask = lr[r]
        if m & ~mask and not (lr[r + 1] and gone & mask):   # (until broken: none of it played)
            m &= ~mask
    if first:
        c = lr[1]
        if c >= 0 and (m >> c) & 1:   # the first lead's card leads
            m = np.int64(1) << c
        if m & ~lr[2]:   # cards not led to the first trick
            m &= ~lr[2]
        if m & ~lr[3]:   # cards not played to it
            m &= ~lr[3]
    return m


@njit(cache=True)
def random_tricks(io, tab, lr, mt, flat):
    """Play the rest of a hand at random from a trick boundary (every seat in play holding
    as many cards); return ``(last trick's leader, its led group)``.

    ``io``: the number of seats ``n``, then per seat its hand, failed groups, tricks won, cards
    won (changed in place), then the leader, the cards of the tricks played before (for a suit
    not led until broken) and whether the next trick is the hand's first; after those
    ``4 n + 4`` values, the results (below).  ``tab``:
    :attr:`rulekit.engine.kernel.Pack.tab` (its last row: the trump group, the naming group
    (-1: none), the number of suits, the direction of play).  ``lr``: the phase's rules
    (:func:`rulekit.engine.kernel.rules_row`): the trumps a seat that cannot follow must
    play, the first trick's lead card (-1: none), its cards not to be led and not to be played
    while the seat holds another, then ``(suit mask, until broken)`` of each lead rule.
    ``mt``: the caller's generator (:func:`_next32`), which draws what the Python loop draws,
    in its order: one uniform per card, and one after a lead that names a suit.  Written:
    ``flat`` (the tricks in ``PlayedTricks``' layout: leader, winner, cards, then seat and
    card of each play) and the rest of ``io``: the choice number of every play in order (its
    card; a lead that names suit ``i``: the card plus the deck's size times ``1 + i``), then
    the legal mask of every play, then per trick the suit index its lead named (-1: none).
    """
    n = io[0]
    st = io[:4 * n + 4]
    out = io[4 * n + 4:]
    hands = st[1:n + 1]
    failed = st[n + 1:2 * n + 1]
    won = st[2 * n + 1:3 * n + 1]
    won_cards = st[3 * n + 1:4 * n + 1]
    leader = st[4 * n + 1]
    gone = st[4 * n + 2]
    first_trick = st[4 * n + 3] != 0
    group_of = tab[0]
    groups = (tab.shape[0] - 6) // 2
    deck = tab.shape[1]
    win_keys = tab[3:3 + groups]
    group_mask = tab[3 + 2 * groups, :groups]
    naming = tab[5 + 2 * groups, 1]
    nsuits = tab[5 + 2 * groups, 2]
    step = tab[5 + 2 * groups, 3]
    trumps = lr[0]
    no_play = lr[3] if first_trick else 0
    restricted = first_trick or lr.shape[0] > 4
    active = np.zeros(n, np.bool_)
    size = 0
    for s in range(n):
        if hands[s]:
            active[s] = True
            size += 1
    left = _count(hands[leader])
    plays = out[:left * size]
    legal = out[left * size:2 * left * size]
    named = out[2 * left * size:]
    at = 0
    p = 0
    first = leader
    lg = -1
    for t in range(left):
        first = leader
        hand = hands[leader]
        m = _lead_mask(hand, lr, gone, first_trick) if restricted else hand
        legal[p] = m
        c = _kth(m, int(uniform(mt) * _count(m)))
        low = np.int64(1) << c
        hands[leader] = hand ^ low
        plays[p] = c
        named[t] = -1
        if naming >= 0 and group_of[c] == naming:   # a led top card names the suit to follow
            f = failed[leader]
            ok = 0
            for i in range(nsuits):
                if not (f >> i) & 1:
                    ok += 1
            j = int(uniform(mt) * (ok if ok else nsuits))
            lg = j
            if ok:   # the j-th suit he has not failed (all of them when he failed every one)
                for i in range(nsuits):
                    if not (f >> i) & 1:
                        if j == 0:
                            lg = i
                            break
                        j -= 1
            named[t] = lg
            plays[p] = c + deck * (1 + lg)
        else:
            lg = group_of[c]
        p += 1
        follow = group_mask[lg]
        base = at
        flat[at] = leader
        flat[at + 1] = leader
        flat[at + 2] = size
        flat[at + 3] = leader
        flat[at + 4] = c
        at += 5
        cards = low
        best = win_keys[lg, c]
        winner = leader
        s = leader
        for _ in range(size - 1):
            s = (s + step) % n
            while not active[s]:
                s = (s + step) % n
            hand = hands[s]
            m = hand & follow
            if not m:   # he cannot follow: trumps if he must, else any card
                failed[s] |= np.int64(1) << lg
                m = hand & trumps
                if not m:
                    m = hand
            if m & ~no_play:   # the first trick's cards not to be played while he holds another
                m &= ~no_play
            legal[p] = m
            c = _kth(m, int(uniform(mt) * _count(m)))
            low = np.int64(1) << c
            hands[s] = hand ^ low
            plays[p] = c
            p += 1
            flat[at] = s
            flat[at + 1] = c
            at += 2
            cards |= low
            if win_keys[lg, c] > best:
                best = win_keys[lg, c]
                winner = s
        flat[base + 1] = winner
        won[winner] += 1
        won_cards[winner] |= cards
        leader = winner
        gone |= cards
        first_trick = False
        no_play = 0
    return first, lg


@njit(cache=True)
def _less3(a0, a1, a2, b0, b1, b2):
    """``(a0, a1, a2) < (b0, b1, b2)`` as Python compares tuples."""
    return a0 < b0 or (a0 == b0 and (a1 < b1 or (a1 == b1 and a2 < b2)))


@njit(cache=True)
def _follow(keys, top, mask, want, group_of, strength, tg, pts):
    """``sensible._follow``: the greedy card of a seat that does not lead (``mask`` holds two
    cards or more; ``top`` is the highest key played to the trick so far)."""
    if want:   # the cheapest winning card, else the cheapest card: no trump, weakest, fewest points
        win = -1
        m = mask
        while m:
            low = m & -m
            m ^= low
            c = trailing_zeros(low)
            k = keys[c]
            if k > top and (win < 0 or k < keys[win]):
                win = c
        if win >= 0:
            return win
        lose = -1
        x0 = x1 = x2 = 0
        m = mask
        while m:
            low = m & -m
            m ^= low
            c = trailing_zeros(low)
            y0 = 1 if tg >= 0 and group_of[c] == tg else 0
            if lose < 0 or _less3(y0, strength[c], pts[c], x0, x1, x2):
                lose = c
                x0, x1, x2 = y0, strength[c], pts[c]
        return lose
    shed = -1   # a seat avoiding tricks: its most costly card that does not win, else its highest winner
    s0 = s1 = 0
    win = -1
    m = mask
    while m:
        low = m & -m
        m ^= low
        c = trailing_zeros(low)
        k = keys[c]
        if k <= top:
            if shed < 0 or pts[c] > s0 or (pts[c] == s0 and strength[c] > s1):
                shed = c
                s0, s1 = pts[c], strength[c]
        elif shed < 0 and (win < 0 or k > keys[win]):
            win = c
    return shed if shed >= 0 else win


@njit(cache=True)
def _lead(hands, mask, want, group_of, strength, group_mask, orders, order_len, tg, pts):
    """``sensible._lead``: a master card (trumps first) if the seat wants tricks; else a low card
    of its longest side group (``mask`` holds two cards or more)."""
    if want:
        remaining = np.int64(0)
        for x in hands:
            remaining |= x
        side = -1
        for g in range(group_mask.shape[0]):
            if not mask & group_mask[g]:
                continue
            c = -1
            for i in range(order_len[g]):   # the best card left of the group
                c = orders[g, i]
                if (remaining >> c) & 1:
                    break
            if (mask >> c) & 1:
                if g == tg:
                    return c
                if side < 0 or strength[c] > strength[side]:
                    side = c
        if side >= 0:
            return side
    side_cards = mask & ~group_mask[tg] if tg >= 0 else mask
    if not side_cards:
        side_cards = mask
    best = -1
    b0 = b1 = 0
    m = side_cards
    while m:
        low = m & -m
        m ^= low
        c = trailing_zeros(low)
        if want:   # the weakest card of the longest side group
            g = group_of[c]
            y0 = -_count(mask & group_mask[g]) if g >= 0 else -1
            y1 = strength[c]
        else:
            y0 = strength[c]
            y1 = pts[c]
        if best < 0 or y0 < b0 or (y0 == b0 and y1 < b1):
            best = c
            b0, b1 = y0, y1
    return best


@njit(cache=True)
def greedy_tricks(st, tab, out):
    """Play the trick phase to its end with the greedy policy: the first card given (or -1),
    then ``_lead``/``_follow``'s cards; return ``(tricks completed, values written to out,
    last trick's leader, its led group)``.

    ``st``: the number of seats, then per seat its hand, failed groups, tricks won, cards won
    (changed in place) and whether it wants tricks; then the seat to move, the trick's leader,
    its led group, the suit index its lead named (-1: none), the first card, the direction of
    play, the trumps a seat that cannot follow must play, and the (seat, card) pairs of the
    trick under way.  ``tab``: :attr:`rulekit.engine.kernel.Pack.tab`, whose last row holds
    the trump group and the group whose led cards name the first suit their leader has not
    failed (-1: none).  Written, ``out``: per trick its leader, winner, named suit (-1:
    none), number of cards, then ``seat * 64 + card`` of each play.
    """
    n = st[0]
    return _greedy(st, st[1:n + 1], st[n + 1:2 * n + 1], st[2 * n + 1:3 * n + 1], st[3 * n + 1:4 * n + 1],
                   st[5 * n + 5], tab, out)


@njit(cache=True)
def greedy_each(sts, tab, rows, cards, w, res):
    """:func:`greedy_tricks` once for each job ``i``: from the position ``sts[rows[i]]`` (rows
    of equal length, each a ``st`` of :func:`greedy_tricks`, left as they are; their first card
    is not read) with the first card ``cards[i]`` (-1: the greedy policy's own), so that one
    call plays many candidates of many worlds.  Row ``i`` of ``res`` gets that playout: tricks
    completed, values of trick data, last trick's leader and led group; the winner of each
    completed trick (``w`` slots, -1 past the last); per seat its failed groups, tricks won,
    cards won, card points won (by the points row of ``tab``); then the trick data of
    :func:`greedy_tricks`.
    """
    n = sts[0, 0]   # (sts holds one row or more)
    for i in range(cards.shape[0]):
        st = sts[rows[i]]
        hands = st[1:n + 1].copy()
        failed = st[n + 1:2 * n + 1].copy()
        won = st[2 * n + 1:3 * n + 1].copy()
        won_cards = st[3 * n + 1:4 * n + 1].copy()
        row = res[i]
        data = row[4 + w + 4 * n:]
        nt, o, leader, lg = _greedy(st, hands, failed, won, won_cards, cards[i], tab, data)
        row[0] = nt
        row[1] = o
        row[2] = leader
        row[3] = lg
        j = 0
        for t in range(w):
            if t < nt:
                row[4 + t] = data[j + 1]
                j += 4 + data[j + 3]
            else:
                row[4 + t] = -1
        for s in range(n):
            row[4 + w + s] = failed[s]
            row[4 + w + n + s] = won[s]
            row[4 + w + 2 * n + s] = won_cards[s]
            points = 0
            m = won_cards[s]
            while m:
                low = m & -m
                m ^= low
                points += tab[2, trailing_zeros(low)]
            row[4 + w + 3 * n + s] = points
    return cards.shape[0]


@njit(cache=True)
def _greedy(st, hands, failed, won, won_cards, first, tab, out):
    """The loop of :func:`greedy_tricks` on the seats' arrays given (``st`` for the rest)."""
    n = st[0]
    prefs = st[4 * n + 1:5 * n + 1]
    seat = st[5 * n + 1]
    leader = st[5 * n + 2]
    lg = st[5 * n + 3]
    named = st[5 * n + 4]
    step = st[5 * n + 6]
    trumps = st[5 * n + 7]
    trick = st[5 * n + 8:]
    group_of = tab[0]
    strength = tab[1]
    pts = tab[2]
    groups = (tab.shape[0] - 6) // 2
    win_keys = tab[3:3 + groups]
    orders = tab[3 + groups:3 + 2 * groups]
    group_mask = tab[3 + 2 * groups, :groups]
    order_len = tab[4 + 2 * groups, :groups]
    tg = tab[5 + 2 * groups, 0]
    names = tab[5 + 2 * groups, 1]
    ts = np.empty(n, np.int64)
    tc = np.empty(n, np.int64)
    cnt = trick.shape[0] // 2
    for i in range(cnt):
        ts[i] = trick[2 * i]
        tc[i] = trick[2 * i + 1]
    c = first
    best = -1
    winner = leader
    top = -1
    follow = np.int64(0)
    if cnt:   # a trick under way: its winner so far as play_card judges it
        follow = group_mask[lg]
        for i in range(cnt):
            k = win_keys[lg, tc[i]]
            if i == 0 or k > top:
                top = k
            if k > best:
                best = k
                winner = ts[i]
    o = 0
    nt = 0
    while True:
        hand = hands[seat]
        if cnt:
            if c < 0:
                m = hand & follow
                if not m:
                    m = hand & trumps
                    if not m:
                        m = hand
                if m & (m - 1):
                    c = _follow(win_keys[lg], top, m, prefs[seat] != 0, group_of, strength, tg, pts)
                else:
                    c = trailing_zeros(m)
            if group_of[c] != lg and not hand & follow & ~(np.int64(1) << c):
                failed[seat] |= np.int64(1) << lg
        else:
            if c < 0:
                if hand & (hand - 1):
                    c = _lead(hands, hand, prefs[seat] != 0, group_of, strength, group_mask, orders, order_len, tg,
                              pts)
                else:
                    c = trailing_zeros(hand)
            leader = seat
            lg = group_of[c]
            if lg == names:   # a led top card names the first suit its leader has not failed
                j = 0
                for i in range(names):
                    if not (failed[seat] >> i) & 1:
                        j = i
                        break
                lg = j
                named = lg
            follow = group_mask[lg]
            best = -1
            winner = leader
            top = win_keys[lg, c]
        hands[seat] = hand ^ (np.int64(1) << c)
        ts[cnt] = seat
        tc[cnt] = c
        cnt += 1
        k = win_keys[lg, c]
        if k > best:
            best = k
            winner = seat
        if k > top:
            top = k
        c = -1
        nxt = (seat + step) % n
        while not hands[nxt] and nxt != leader:   # a seat without cards sits the trick out
            nxt = (nxt + step) % n
        if nxt != leader:
            seat = nxt
            continue
        cards = np.int64(0)
        out[o] = leader
        out[o + 1] = winner
        out[o + 2] = named
        out[o + 3] = cnt
        o += 4
        for i in range(cnt):
            cards |= np.int64(1) << tc[i]
            out[o] = ts[i] * 64 + tc[i]
            o += 1
        nt += 1
        won[winner] += 1
        won_cards[winner] |= cards
        cnt = 0
        named = -1
        empty = True
        for x in hands:
            if x:
                empty = False
                break
        if empty:
            return nt, o, leader, lg
        while not hands[winner]:   # the winner has no card left: the next seat that has leads
            winner = (winner + step) % n
        seat = winner


@njit(cache=True)
def fill(mt, cards, optn, opt, room, out):
    """``rulekit.engine.observation._fill`` drawing from the generator ``mt`` (see
    :func:`_next32`) what it draws, in the same order: the cards shuffled as ``rng.shuffle``
    does (a rejected ``getrandbits`` draw for each Fisher-Yates step), then the cards that may
    not go everywhere, fewest places first (in shuffled order among equals), each to a place
    drawn by ``random()`` weighted by its room left; the others fill the room left in shuffled
    order.  ``cards``: the cards, lowest first; ``optn``: per card its number of places (-1: it
    may go anywhere), ``opt`` those places; ``room``: each place's count (used up); ``out``:
    per place its cards, as a mask (zeroed by the caller).  Returns 1, or 0 when stuck (a card
    with no room left among its places, or too little room for the rest)."""
    n = cards.shape[0]
    order = np.empty(n, np.int64)
    for i in range(n):
        order[i] = i
    for i in range(n - 1, 0, -1):   # random.shuffle: j = _randbelow(i + 1) by getrandbits
        m = i + 1
        k = 0
        x = m
        while x:
            k += 1
            x >>= 1
        j = _next32(mt) >> (32 - k)
        while j >= m:
            j = _next32(mt) >> (32 - k)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    places = room.shape[0]
    free = 0
    for want in range(places + 1):   # the tied cards, fewest places first (a stable sort)
        for t in range(n):
            ci = order[t]
            if optn[ci] != want:
                continue
            total = 0
            for q in range(want):
                total += room[opt[ci, q]]
            if total == 0:
                return 0
            r = uniform(mt) * total
            j = -1
            for q in range(want):
                p = opt[ci, q]
                kk = room[p]
                if kk > 0:
                    j = p
                    r -= kk
                    if r < 0:
                        break
            out[j] |= np.int64(1) << cards[ci]
            room[j] -= 1
    for t in range(n):
        if optn[t] < 0:
            free += 1
    left = 0
    for p in range(places):
        left += room[p]
    if left < free:
        return 0
    t = 0
    for p in range(places):
        k = room[p]
        while k > 0 and t < n:
            ci = order[t]
            t += 1
            if optn[ci] < 0:
                out[p] |= np.int64(1) << cards[ci]
                k -= 1
    return 1
