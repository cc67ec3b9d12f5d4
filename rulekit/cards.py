"""Cards, decks and card sets (DESIGN.md layer 1).

A :class:`Deck` is built from a variant's ``deck`` block.  Each card is a small
int (its index in the deck) and a set of cards is an int bitmask with bit ``i``
set for card ``i``; the engine and the bots only handle these ints.  People
see cards through :meth:`Deck.name` / :meth:`Deck.parse` and the
:class:`CardSet` wrapper.

Card text: rank then suit letter, ``AS``, ``10H`` (``TH`` is accepted),
``JK`` for a joker (``JK1``, ``JK2`` when a deck has several).  Suit symbols
(``A♠``) are accepted on input and used for display.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from rulekit.errors import CardError

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SYMBOL_SUITS = {v: k for k, v in SUIT_SYMBOLS.items()}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
DEFAULT_COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}
JOKER = "JK"


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first, as a list (:func:`bits` without
    a generator's cost, for the hot paths)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    """Return the bitmask holding every card index in ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


@dataclass(frozen=True)
class Deck:
    """The cards of one variant.

    :param suits: suit letters in the variant's order (e.g. ``("S", "C", "D", "H")``).
    :param ranks: rank tokens from low to high in natural order (``("7", ..., "A")``).
    :param jokers: number of jokers (0, 1 or 2).
    :param colours: suit letter -> colour name.
    :param absent: texts of the cards of the suits x ranks grid that the deck leaves out
        (``("4S", "4C")``: a deck not a full grid, e.g. low cards in two suits only).

    Cards are numbered suit by suit (suits in order, ranks low to high within each), the
    grid's absent cards skipped; jokers follow the suited cards.  Without absent cards,
    card ``s * len(ranks) + r`` is rank ``ranks[r]`` of suit ``suits[s]``.
    """

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    jokers: int = 0
    colours: dict = field(default_factory=lambda: dict(DEFAULT_COLOURS), compare=False)
    absent: tuple = ()
    names: tuple[str, ...] = field(init=False, compare=False)
    index: dict = field(init=False, compare=False, repr=False)
    _suit: tuple = field(init=False, compare=False, repr=False)
    _rank: tuple = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        gone = set(self.absent)
        grid = [(si, ri) for si, s in enumerate(self.suits) for ri, r in enumerate(self.ranks) if r + s not in gone]
        names = [self.ranks[ri] + self.suits[si] for si, ri in grid]
        names += [JOKER] if self.jokers == 1 else [f"{JOKER}{i + 1}" for i in range(self.jokers)]
        object.__setattr__(self, "names", tuple(names))
        index = {n: i for i, n in enumerate(names)}
        object.__setattr__(self, "index", index)
        # per card: its suit index and rank token (-1 / JOKER for a joker)
        object.__setattr__(self, "_suit", tuple(si for si, _ri in grid) + (-1,) * self.jokers)
        object.__setattr__(self, "_rank", tuple(self.ranks[ri] for _si, ri in grid) + (JOKER,) * self.jokers)

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return len(self.names)

    @property
    def full_mask(self) -> int:
        """Bitmask of every card."""
        return (1 << self.size) - 1

    def suit_of(self, card: int) -> str | None:
        """Natural suit letter of ``card``, or ``None`` for a joker."""
        s = self._suit[card]
        return self.suits[s] if s >= 0 else None

    def rank_of(self, card: int) -> str:
        """Rank token of ``card`` (``"JK"`` for a joker)."""
        return self._rank[card]

    def is_joker(self, card: int) -> bool:
        """True when ``card`` is a joker."""
        return self._suit[card] < 0

    def card(self, rank: str, suit: str) -> int:
        """Index of the card of ``rank`` and ``suit``; raises :class:`CardError`."""
        return self.parse(rank + suit)

    def suit_mask(self, suit: str) -> int:
        """Bitmask of the natural cards of ``suit``."""
        s = self.suits.index(suit)
        return mask_of(c for c, x in enumerate(self._suit) if x == s)

    def name(self, card: int) -> str:
        """Canonical text of ``card``: ``10H``, ``AS``, ``JK``."""
        return self.names[card]

    def pretty(self, card: int) -> str:
        """Display text with a suit symbol: ``10♥``, ``A♠``, ``JK``."""
        n = self.names[card]
        if self.is_joker(card):
            return n
        return n[:-1] + SUIT_SYMBOLS.get(n[-1], n[-1])

    def parse(self, text: str) -> int:
        """Parse card text (``AS``, ``as``, ``10H``, ``TH``, ``A♠``, ``JK``).

        :raises CardError: when the text names no card of this deck.
        """
        t = normalise_card_text(text)
        try:
            return self.index[t]
        except KeyError:
            if t in self.absent:  # a card of the grid the deck leaves out (deck.minus)
                raise CardError(f"{text!r} is not a card of this deck: the deck leaves it out "
                                f"(expected one of the cards it holds, such as {self.names[0]})") from None
            jokers = f", or {JOKER}" if self.jokers else ""   # offer jokers only to a deck that has them
            raise CardError(f"{text!r} is not a card of this deck "
                            f"(expected rank {'/'.join(self.ranks)} then suit "
                            f"{'/'.join(self.suits)}{jokers})") from None

    def parse_mask(self, texts: Iterable[str]) -> int:
        """Parse several card texts into one bitmask; raises :class:`CardError`."""
        return mask_of(self.parse(t) for t in texts)

    def names_of(self, mask: int) -> list[str]:
        """Canonical texts of the cards in ``mask``, in deck order."""
        names = self.names
        return [names[c] for c in bit_list(mask)]


def normalise_card_text(text: str) -> str:
    """Upper-case card text, map suit symbols to letters and ``T`` to ``10``."""
    t = text.strip().upper()
    if t and t[-1] in SYMBOL_SUITS:
        t = t[:-1] + SYMBOL_SUITS[t[-1]]
    if len(t) == 2 and t[0] == "T":
        t = "10" + t[1]
    return t


class CardSet:
    """A read-only set API over a card bitmask, for the CLI and tests.

    >>> deck = Deck(("S", "H"), ("7", "8"))
    >>> str(CardSet(deck, deck.parse_mask(["7S", "8H"])))
    '7S 8H'
    """

    __slots__ = ("deck", "mask")

    def __init__(self, deck: Deck, mask: int = 0) -> None:
        self.deck = deck
        self.mask = mask

    def __iter__(self) -> Iterator[int]:
        return bits(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: int) -> bool:
        return bool(self.mask >> card & 1)

    def __str__(self) -> str:
        return " ".join(self.deck.names_of(self.mask))

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
