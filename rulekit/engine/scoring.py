"""Score a finished hand and decide whether the match is over.

Scoring formulas are evaluated once per player with these variables
(points are card points, tricks are counts):

``players``, ``total_tricks``, ``tricks`` (his), ``points`` (his card points),
``seat``, ``is_declarer``, ``has_contract``; with a contract also ``level``,
``strain`` (index of the strain in the auction's strain list), ``trump``
(``S``.. or ``NT``), ``declarer_tricks`` and ``declarer_points``.

Match end (``match:``): ``immediate_win`` (declarer context), ``lose_at``,
``target`` with ``ties`` (``declarer``; ``trick_order``: the tied player
whose running total reached the target at the earliest trick wins —
rules/fivehundred.md [G3]), or a fixed number of ``deals``.
"""
from __future__ import annotations

from rulekit.dsl import Env


def player_envs(variant, hand, upto: int | None = None) -> list:
    """One :class:`~rulekit.dsl.Env` per seat for ``hand``.

    :param upto: count only the first ``upto`` tricks (for [G3] trick order).
    """
    n = variant.players
    pts = variant.card_points
    tricks = hand.tricks if upto is None else hand.tricks[:upto]
    won = [0] * n
    cards = [0] * n
    for _leader, played, winner, _named in tricks:
        won[winner] += 1
        for _s, c in played:
            cards[winner] |= 1 << c
    if upto is None:  # widow cards that went to a trick winner count too
        cards = hand.won_cards
    points = [sum(pts[c] for c in _bits(m)) for m in cards] if variant.has_card_points else [0] * n
    return envs_for(variant, hand.contract, hand.declarer, hand.trump, won, points)


def envs_for(variant, contract, declarer: int, trump: str, won: list, points: list) -> list:
    """Scoring environments from explicit trick and point counts (also for bots' what-ifs).

    :param contract: the :class:`~rulekit.variant.model.Bid` or ``None``.
    :param won: tricks per seat; ``points``: card points per seat.
    """
    n = variant.players
    total = variant.hand_size
    envs = []
    auction = variant.phase("ladder_auction")
    for s in range(n):
        v = {"players": n, "total_tricks": total, "tricks": won[s], "points": points[s], "seat": s,
             "is_declarer": s == declarer, "has_contract": contract is not None}
        if contract is not None:
            strains = auction.strains
            v.update(level=contract.level, strain=strains.index(trump) if trump in strains else 0,
                     trump=trump, declarer_tricks=won[declarer], declarer_points=points[declarer])
        else:
            v.update(level=0, strain=0, trump=trump, declarer_tricks=0, declarer_points=0)
        envs.append(Env(v))
    for e in envs:
        e.everyone = envs
    return envs


def _bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def entry_formulas(variant, hand) -> list:
    """The formula scoring each seat for this hand."""
    return formulas_for(variant, hand.contract, hand.declarer)


def formulas_for(variant, contract, declarer: int) -> list:
    """The formula scoring each seat, given the contract (or ``None``) and declarer."""
    sc = variant.scoring
    n = variant.players
    if contract is None:
        f = sc.no_contract or sc.each
        return [f] * n
    if sc.declarer is not None:
        return [sc.declarer if s == declarer else sc.defender for s in range(n)]
    return [sc.each] * n


def score_hand(variant, hand, envs=None) -> tuple[list, bool]:
    """Entries (points per seat) of a finished hand, and whether it is void.

    :param envs: the hand's :func:`player_envs`, when already built.
    :returns: ``(entries, void)``; a void hand has all-zero entries ([S3] of rams.md).
    """
    envs = envs or player_envs(variant, hand)
    sc = variant.scoring
    if sc.void_if is not None and sc.void_if(envs[0]):
        return [0] * variant.players, True
    fs = entry_formulas(variant, hand)
    return [int(fs[s](envs[s])) for s in range(variant.players)], False


def better(variant, a: int, b: int) -> bool:
    """True when total ``a`` beats total ``b`` (lower wins for penalty games)."""
    return a < b if variant.scoring.lower_is_better else a > b


def best_seats(variant, totals: list) -> list:
    """Seats with the best total (several on a tie)."""
    key = min if variant.scoring.lower_is_better else max
    top = key(totals)
    return [s for s, t in enumerate(totals) if t == top]


def match_result(variant, hand, before: list, after: list, hands_played: int, envs=None):
    """Decide whether the match ends after ``hand``.

    :param before: totals before this hand; ``after``: totals after it.
    :param envs: the hand's :func:`player_envs`, when already built.
    :returns: ``None`` when play goes on, else ``(winners, reason)``.
    """
    m = variant.match
    if hand.contract is not None and m.immediate_win is not None and not hand.void:
        envs = envs or player_envs(variant, hand)
        if m.immediate_win(envs[hand.declarer]):
            return [hand.declarer], f"seat {hand.declarer} made {hand.contract.text} and wins at once"
    if m.lose_at is not None:
        losers = [s for s in range(variant.players) if after[s] <= m.lose_at]
        if losers:
            rest = [s for s in range(variant.players) if s not in losers]
            totals = [after[s] if s in rest else None for s in range(variant.players)]
            key = min if variant.scoring.lower_is_better else max
            top = key(t for t in totals if t is not None) if rest else None
            win = [s for s in rest if after[s] == top]
            return win, f"seat {losers[0]} fell to {after[losers[0]]} and loses"
    if m.target is not None:
        reached = [s for s in range(variant.players) if after[s] >= m.target]
        if reached:
            return _break_ties(variant, hand, before, reached), f"reached {m.target}"
    if m.deals is not None and hands_played >= m.deals:
        return best_seats(variant, after), f"{m.deals} deals played"
    return None


def _break_ties(variant, hand, before, reached) -> list:
    m = variant.match
    cands = list(reached)
    for rule in m.ties:
        if len(cands) <= 1:
            break
        if rule == "declarer" and hand.declarer in cands:
            cands = [hand.declarer]
        elif rule == "trick_order":
            fs = entry_formulas(variant, hand)
            first = {}
            for s in cands:
                first[s] = len(hand.tricks) + 1
                for t in range(1, len(hand.tricks) + 1):
                    envs = player_envs(variant, hand, upto=t)
                    if before[s] + int(fs[s](envs[s])) >= m.target:
                        first[s] = t
                        break
            early = min(first.values())
            cands = [s for s in cands if first[s] == early]
    return cands
