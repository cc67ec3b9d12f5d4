"""How a match's deals follow from its seed: one seed per deal, and the cut for the first dealer.

Deal ``k`` of a match seeded ``s`` is a permutation of the deck drawn from the deal's own seed,
the BLAKE2b digest of ``rulekit:s:k`` (dealing scheme 2, the default): the digest's 512 bits
(more blocks for a deck of more than 88 cards) read as one number ``x`` give a Fisher-Yates
shuffle, position ``i`` taking ``x mod (i + 1)`` and ``x`` divided by ``i + 1`` for the next,
so the deal depends on nothing but ``(s, k)`` and costs one hash and a few divisions, not a
seeded generator.  The players cut for the first dealer from the digest of ``rulekit:s:cut``,
each drawing one card from those left ([D1]), without shuffling the rest of the deck.  With at
least 64 bits to spare beyond ``log2(n!)``, no permutation is favoured by more than 2^-64.

Scheme 1 is how deals were made before (records of format ``rulekit-record/1``, which
:mod:`rulekit.records` replays with it): ``random.Random(f"rulekit:{s}:{k}")`` shuffles deal
``k`` (``random.shuffle``'s order) and a whole deck shuffled by ``random.Random(f"rulekit:{s}:cut")``
gives the cut, its first cards one per seat.
"""
from __future__ import annotations

import math
import random
from hashlib import blake2b

#: The dealing schemes: 1 (seeded generators, records of format 1), 2 (a digest per deal).
SCHEMES = (1, 2)
#: The scheme of new matches.
CURRENT = 2


def deck_order(scheme: int, seed: int | None, k: int, n: int) -> list[int]:
    """The cards ``0 .. n-1`` in dealing order for deal ``k`` of a match seeded ``seed``.

    :raises ValueError: an unknown scheme."""
    if scheme == 2:
        return _permutation(_number(f"rulekit:{seed}:{k}", n), n)
    if scheme == 1:
        return shuffled(random.Random(f"rulekit:{seed}:{k}"), n)
    raise ValueError(f"unknown dealing scheme {scheme} (expected one of {SCHEMES})")


def cut_cards(scheme: int, seed: int | None, n: int, players: int) -> list[int]:
    """The card each of ``players`` seats cuts from a deck of ``n`` for the first dealer ([D1]),
    seat order; different cards.

    :raises ValueError: an unknown scheme."""
    if scheme == 2:
        x = _number(f"rulekit:{seed}:cut", n)
        order = list(range(n))
        for i in range(min(players, n)):   # each cuts one of the cards left
            x, j = divmod(x, n - i)
            j += i
            order[i], order[j] = order[j], order[i]
        return order[:players]
    if scheme == 1:
        return shuffled(random.Random(f"rulekit:{seed}:cut"), n)[:players]
    raise ValueError(f"unknown dealing scheme {scheme} (expected one of {SCHEMES})")


def _number(key: str, n: int) -> int:
    """A uniform number of at least ``log2(n!) + 64`` bits from the digests of ``key``."""
    blocks = _BLOCKS.get(n)
    if blocks is None:
        bits = math.lgamma(n + 1) / math.log(2) + 64
        blocks = _BLOCKS[n] = max(1, math.ceil(bits / 512))
    data = key.encode()
    if blocks == 1:
        return int.from_bytes(blake2b(data, digest_size=64).digest(), "little")
    return int.from_bytes(b"".join(blake2b(data + b":%d" % b, digest_size=64).digest() for b in range(blocks)),
                          "little")


_BLOCKS: dict = {}


def _permutation(x: int, n: int) -> list[int]:
    """``list(range(n))`` shuffled by Fisher-Yates, each step's index read from ``x`` (a mixed
    radix number: position ``i`` takes ``x mod (i + 1)``, then ``x`` becomes ``x // (i + 1)``).
    Consecutive steps are read together by one division of ``x`` by their radices' product
    (below 2^30), then by small numbers: the same indices, fewer divisions of a long number."""
    order = list(range(n))
    groups = _GROUPS.get(n)
    if groups is None:
        groups = _GROUPS[n] = _groups(n)
    for prod, steps in groups:
        x, r = divmod(x, prod)
        for i, radix in steps:   # (% and // of small numbers: cheaper than a divmod call)
            j = r % radix
            r //= radix
            order[i], order[j] = order[j], order[i]
    return order


def _groups(n: int) -> tuple:
    """The Fisher-Yates positions ``n - 1 .. 1``, each with its radix ``(i, i + 1)``, in runs whose
    radices multiply to less than 2^30."""
    out: list = []
    run: list = []
    prod = 1
    for i in range(n - 1, 0, -1):
        if prod * (i + 1) >= 1 << 30:
            out.append((prod, tuple(run)))
            run, prod = [], 1
        run.append((i, i + 1))
        prod *= i + 1
    if run:
        out.append((prod, tuple(run)))
    return tuple(out)


_GROUPS: dict = {}


def _shuffled_inline(rng: random.Random, n: int) -> list:
    """``list(range(n))`` shuffled by ``rng.shuffle``'s own algorithm (Fisher-Yates with
    ``_randbelow`` from ``getrandbits``), inlined: the same order from the same generator,
    at about half the cost (bots' sampled worlds shuffle the unseen cards)."""
    steps = _SHUFFLE_STEPS.get(n)
    if steps is None:   # (i, i + 1, its bit length) for each swap: computed once per deck size
        steps = _SHUFFLE_STEPS[n] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    order = list(range(n))
    bits = rng.getrandbits
    for i, m, k in steps:
        j = bits(k)
        while j >= m:
            j = bits(k)
        order[i], order[j] = order[j], order[i]
    return order


_SHUFFLE_STEPS: dict = {}


def _shuffled_std(rng: random.Random, n: int) -> list:
    order = list(range(n))
    rng.shuffle(order)
    return order


def _same_shuffle() -> bool:
    """Whether the inlined shuffle gives this Python's ``random.shuffle`` orders (deals of
    scheme 1 must never change: records replay them from the seed)."""
    return all(_shuffled_inline(random.Random(f"check:{k}"), n) == _shuffled_std(random.Random(f"check:{k}"), n)
               for k in range(8) for n in (1, 2, 24, 33, 52, 53))


#: ``shuffled(rng, n)``: ``list(range(n))`` in ``rng.shuffle``'s order (inlined when it gives the same).
shuffled = _shuffled_inline if _same_shuffle() else _shuffled_std
