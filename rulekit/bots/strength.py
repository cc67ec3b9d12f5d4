"""Simple measures of a hand for the bots and their policies: how good a suit is as trumps,
a rough count of the tricks a hand takes, the cards to throw away.

All read only the bot's own cards (a bitmask) and the compiled variant's tables.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.cards import bit_list, bits
from rulekit.engine.types import Mask

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.variant.model import Variant


def choose_discards(variant: Variant, hand: Mask, trump: str, n: int) -> Mask:
    """Bitmask of the ``n`` weakest cards of ``hand`` with ``trump`` (a strain) as trumps:
    never trumps first; short side suits go first."""
    ctx = variant.contexts.get(trump) or variant.contexts["NT"]
    base, per_card = _keep_keys(variant, ctx)
    group_of = ctx.group_of
    counts: dict[int, int] = {}
    cards = bit_list(hand)
    for c in cards:
        g = group_of[c]
        counts[g] = counts.get(g, 0) + 1
    m = 0
    for _k, c in sorted([(base[c] + per_card[c] * counts[group_of[c]], c) for c in cards])[:n]:
        m |= 1 << c
    return m


_KEEP = "bots.keep_keys"   # (low, context name) -> (context, keys): see _keep_keys


def _keep_keys(variant: Variant, ctx) -> tuple[list[int], list[int]]:
    """Per card of context ``ctx``, how much :func:`choose_discards` wants to keep it: ``base +
    per_card * (cards the hand holds of its group)``; a trump ``10,000`` plus its strength,
    another card its strength, plus 500 for its group's best card, plus 10 a card of its
    group held (built once per variant and context)."""
    cache: dict = variant.cached(_KEEP, dict)
    hit = cache.get((ctx.low, ctx.name))
    if hit is not None and hit[0] is ctx:
        return hit[1]
    strength = ctx.strength
    base, per_card = [], []
    for c, g in enumerate(ctx.group_of):
        if g == ctx.trump_group:
            base.append(10_000 + strength[c])
            per_card.append(0)
        else:
            order = ctx.orders[g]
            high = bool(order) and strength[c] == strength[order[0]]  # the group's best card
            base.append((500 if high else 0) + strength[c])
            per_card.append(10)
    cache[ctx.low, ctx.name] = (ctx, (base, per_card))
    return base, per_card


def trump_strength(variant: Variant, hand: Mask, strain: str) -> float:
    """How good ``strain`` is as trumps for ``hand``: trump count, then their strength."""
    ctx = variant.contexts[strain]
    if ctx.trump_group is None:
        return 0.0
    trumps = [c for c in bits(hand) if ctx.group_of[c] == ctx.trump_group]
    return len(trumps) + sum(ctx.strength[c] for c in trumps) / 1000.0


def hand_strength(variant: Variant, hand: Mask, trump: str) -> float:
    """A rough count of the tricks ``hand`` (a card bitmask) takes with ``trump`` (a suit
    letter, or ``NT``): aces, guarded kings and queens, and trump length."""
    deck = variant.deck
    top = list(deck.ranks)[::-1][:3]  # the three highest ranks of the deck's order, e.g. A K Q
    score = 0.0
    for su in deck.suits:
        held = [r for r in deck.ranks if r + su in deck.index and hand & deck.copies_of(deck.index[r + su])]
        n = len(held)
        hi = [r for r in top if r in held]
        score += 1.0 * (top[0] in hi) + 0.7 * (top[1] in hi and n >= 2) + 0.4 * (top[2] in hi and n >= 3)
        if su == trump:
            score += max(0, n - 2) * 0.9
    return score


__all__ = ["choose_discards", "hand_strength", "trump_strength"]
