"""Matadors: the unbroken run of top trumps a declarer holds, or lacks (``scoring.matadors``).

Skat's game value counts the matadors "with n" or "without n" (docs/rules/skat.md [SK-V3]): the
run from the top of the contract's trump order that the declarer's cards hold ("with", he holds
the top trump) or lack ("without"), counted on the cards he was dealt plus named zones as dealt
(the skat, whether he took it or not).  Ombre's and Schafkopf's matadors (Laufende) are the same
run, the partner's cards counted with the declarer's in Schafkopf (``side: party``).

Two readings:

* :func:`exact` — at the end of the hand, on the cards as dealt (formula variables
  ``matadors`` and ``with_matadors``);
* :func:`best_known` — while the declarer chooses his game (``announce``'s ``declare_if``): only
  what he can know.  The cards of a named zone he has not seen (a skat left face down in a hand
  game) count as the best case for him over every content he cannot rule out, so a refusal never
  depends on a hidden card (docs/rules/skat.md, "Choices": the referee's reading of [SK-G6]).

Plain functions over bitmasks; the trump order is the context's
(:attr:`~rulekit.variant.model.Context.orders` of its trump group).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.engine.phases import deal

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.hand import Hand
    from rulekit.variant.model import Context, MatadorSpec, Variant


def trump_order(ctx: Context | None) -> tuple[int, ...]:
    """The trumps of ``ctx`` from the strongest down (``()`` without a trump group: no trumps,
    a null)."""
    if ctx is None or ctx.trump_group is None:
        return ()
    return ctx.orders[ctx.trump_group]


def run(order: tuple[int, ...], held: int) -> tuple[int, bool]:
    """``(n, with_)``: the run from the top of ``order`` that ``held`` (a bitmask) holds
    (``with_`` True: he holds the top trump) or lacks ([SK-V3]); ``(0, False)`` for no trumps."""
    if not order:
        return 0, False
    with_ = bool(held >> order[0] & 1)
    n = 0
    for c in order:
        if bool(held >> c & 1) != with_:
            break
        n += 1
    return n, with_


def best_run(order: tuple[int, ...], held: int, unknown: int, hidden: int) -> int:
    """The largest run (with or without) some content of the unseen zones could give: ``held``
    the cards known to be his, ``unknown`` the cards he cannot place, ``hidden`` how many of
    them the unseen zones (counted for him) hold."""
    if not order:
        return 0
    best = 0
    budget, n = hidden, 0               # "with": each gap of the run filled from the zone
    for c in order:
        if held >> c & 1:
            n += 1
        elif unknown >> c & 1 and budget > 0:
            budget, n = budget - 1, n + 1
        else:
            break
    best = n
    if not held >> order[0] & 1:        # "without": the run he lacks; the zone holds other cards
        spare = bin(unknown).count("1")
        n = 0
        for c in order:
            if held >> c & 1:
                break
            if unknown >> c & 1:
                if spare - 1 < hidden:  # the zone must still be filled by unknown cards off the run
                    break
                spare -= 1
            n += 1
        best = max(best, n)
    return best


def _side(spec: MatadorSpec, hand: Hand) -> list[int]:
    seats = [hand.declarer]
    if spec.side == "party" and hand.partner >= 0 and hand.partner != hand.declarer:
        seats.append(hand.partner)
    return seats


def _dealt_zone(variant: Variant, hand: Hand, name: str) -> int:
    for p in variant.phases:
        if p.kind == deal.KIND.name:
            return deal.KIND.zone_dealt(p, hand, variant, name)
    return 0


def exact(variant: Variant, hand: Hand, ctx: Context | None = None) -> tuple[int, bool]:
    """The matadors of the hand's declarer (and partner, ``side: party``) on the cards as dealt
    plus the spec's zones as dealt, in the trump order of ``ctx`` (default the hand's)."""
    spec = variant.scoring.matadors
    if spec is None or hand.declarer < 0:
        return 0, False
    held = 0
    for s in _side(spec, hand):
        held |= hand.dealt[s]
    for z in spec.zones:
        held |= _dealt_zone(variant, hand, z)
    return run(trump_order(ctx if ctx is not None else hand.ctx), held)


def best_known(variant: Variant, hand: Hand, ctx: Context | None) -> tuple[int, bool]:
    """The matadors the declarer can count on while the play has not begun: his own cards
    (those he holds and has discarded), the spec's zones he has seen or that lie face up, and
    for a zone still face down and unseen (a hand game's skat) the best case over its possible
    contents.  ``with_`` is whether he holds the top trump himself."""
    spec = variant.scoring.matadors
    d = hand.declarer
    if spec is None or d < 0:
        return 0, False
    order = trump_order(ctx)
    held = hand.hands[d] | hand.discards
    hidden = 0
    for z in spec.zones:
        cards = hand.zones.get(z, 0)
        if hand.zone_up.get(z):
            held |= cards
        else:
            hidden += bin(cards).count("1")
    if not hidden:
        return run(order, held)
    known = held
    for z, up in hand.zone_up.items():
        if up:
            known |= hand.zones.get(z, 0)
    unknown = ((1 << variant.deck.size) - 1) & ~known
    n = best_run(order, held, unknown, hidden)
    return n, bool(order) and bool(held >> order[0] & 1)
