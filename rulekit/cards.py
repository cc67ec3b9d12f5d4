"""Cards, decks and card sets (DESIGN.md layer 1).

A :class:`Deck` is built from a variant's ``deck`` block.  Each card is a small
int (its index in the deck) and a set of cards is an int bitmask with bit ``i``
set for card ``i``; the engine and the bots only handle these ints.  People
see cards through :meth:`Deck.name` / :meth:`Deck.parse` and the
:class:`CardSet` wrapper.

A pack has any number of suits, each a letter (``S H D C`` and any other capital, such as
a ``T`` suit of 21 numbered trumps) with its own rank list, name, symbol and colour; any
number of named suitless cards (the jokers ``JK``/``JK1``..., four Wizards ``W``, an Excuse
``EX``); and may hold every card several times (``copies``).

Card text: rank then suit letter, ``AS``, ``10H`` (``TH`` is accepted), ``21T``; a suitless
card by its token, ``JK``, ``EX``.  A card held in several copies is written with its copy
number, ``AS:1`` ``AS:2``, ``W:3``; the plain text ``AS`` also reads as the card (its first
copy: :meth:`Deck.held` turns it into a copy the player holds).  Suit symbols (``A♠``, or a
deck's own) are accepted on input and used for display.
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
COPY = ":"
"""Separates a card's text from its copy number (``AS:2``)."""


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (not negative), lowest first, as a list
    (:func:`bits` without a generator's cost, for the hot paths: a byte of the mask at a time,
    from tables, for its first 64 bits; five bytes unrolled for decks of up to 40 cards)."""
    if mask < _FORTY:   # (most decks: no loop)
        return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255], *_B3[mask >> 24 & 255],
                *_B4[mask >> 32]]
    out: list[int] = []
    for table in _BYTE_BITS:
        if not mask:
            return out
        out += table[mask & 255]
        mask >>= 8
    mask <<= len(_BYTE_BITS) * 8   # (the bits past the tables': one at a time)
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: byte ``k`` of a mask -> value -> the indices of its set bits (``8 * k`` onwards), for 64 bits
_BYTE_BITS = tuple(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(8))
_B0, _B1, _B2, _B3, _B4 = _BYTE_BITS[:5]
_FORTY = 1 << 40


def mask_of(cards: Iterable[int]) -> int:
    """Return the bitmask holding every card index in ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


@dataclass(frozen=True)
class Special:
    """A named suitless card of a pack (a joker, a Wizard, the Excuse).

    :ivar token: its card text (``JK1``, ``W``, ``EX``).
    :ivar name: what players call it (``the big joker``, ``Wizard``), or ``""``.
    :ivar copies: how many the pack holds (four Wizards: ``W:1`` .. ``W:4``).
    :ivar kind: the word cut orders use for it (``JK`` for every joker, else its token).
    """

    token: str
    name: str = ""
    copies: int = 1
    kind: str = ""


@dataclass(frozen=True)
class Deck:
    """The cards of one variant.

    :param suits: suit letters in the variant's order (e.g. ``("S", "C", "D", "H")``).
    :param ranks: rank tokens from low to high in natural order (``("7", ..., "A")``): the
        ranks of every suit that lists none of its own (``suit_ranks``).  After construction,
        ``ranks`` holds every rank of the pack (these first, then the other suits' own ranks).
    :param jokers: number of jokers (0, 1 or 2): the suitless cards ``JK`` (or ``JK1``, ``JK2``).
    :param colours: suit letter -> colour name (``None``: no colour).
    :param absent: texts of the cards of the suits x ranks grid that the deck leaves out
        (``("4S", "4C")``: a deck not a full grid, e.g. low cards in two suits only).
    :param suit_ranks: suit letter -> its own ranks, low to high (a suit of 21 numbered trumps).
    :param suit_names, suit_symbols: suit letter -> its name (``trumps``) / display symbol;
        by default ``spades ♠`` ... and the letter itself for other suits.
    :param specials: named suitless cards beyond the jokers (:class:`Special`).
    :param copies: how many copies of every suited card the pack holds (2 in a double pack).
    :ivar has_copies: some card (suited or suitless) is held in several copies.

    Cards are numbered suit by suit (suits in order, ranks low to high within each, the copies
    of a card one after the other), the grid's absent cards skipped; suitless cards follow the
    suited ones.  Without absent cards and copies, card ``s * len(ranks) + r`` is rank
    ``ranks[r]`` of suit ``suits[s]``.
    """

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    jokers: int = 0
    colours: dict = field(default_factory=lambda: dict(DEFAULT_COLOURS), compare=False)
    absent: tuple = ()
    suit_ranks: dict = field(default_factory=dict, compare=False)
    suit_names: dict = field(default_factory=dict, compare=False)
    suit_symbols: dict = field(default_factory=dict, compare=False)
    specials: tuple = ()
    copies: int = 1
    names: tuple[str, ...] = field(init=False, compare=False)
    index: dict = field(init=False, compare=False, repr=False)
    _suit: tuple = field(init=False, compare=False, repr=False)
    _rank: tuple = field(init=False, compare=False, repr=False)
    _base: tuple = field(init=False, compare=False, repr=False)
    _same: tuple = field(init=False, compare=False, repr=False)
    _symbols: dict = field(init=False, compare=False, repr=False)
    has_copies: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        gone = set(self.absent)
        default = tuple(self.ranks)
        own = {s: tuple(self.suit_ranks.get(s) or default) for s in self.suits}
        every = list(default) + [r for s in self.suits for r in own[s] if r not in default]
        object.__setattr__(self, "suit_ranks", own)
        object.__setattr__(self, "ranks", tuple(dict.fromkeys(every)))
        specials = tuple(self.specials)
        if self.jokers and not any(_is_joker_token(sp.token) for sp in specials):
            specials = tuple([Special(JOKER)] if self.jokers == 1 else
                             [Special(f"{JOKER}{i + 1}") for i in range(self.jokers)]) + specials
        specials = tuple(Special(sp.token, sp.name, sp.copies, sp.kind or (JOKER if _is_joker_token(sp.token)
                                                                           else sp.token)) for sp in specials)
        object.__setattr__(self, "jokers", sum(1 for sp in specials if sp.kind == JOKER))
        object.__setattr__(self, "specials", specials)
        names: list[str] = []
        suit: list[int] = []
        rank: list[str] = []
        base: list[str] = []

        def add(text: str, n: int, si: int, rk: str) -> None:
            for k in range(n):
                names.append(text if n == 1 else f"{text}{COPY}{k + 1}")
                suit.append(si)
                rank.append(rk)
                base.append(text)
        for si, s in enumerate(self.suits):
            for r in own[s]:
                if r + s not in gone:
                    add(r + s, self.copies, si, r)
        for sp in specials:
            add(sp.token, sp.copies, -1, sp.kind)
        object.__setattr__(self, "names", tuple(names))
        index = {n: i for i, n in enumerate(names)}
        for i, b in enumerate(base):   # the plain text of a card held in copies: its first copy
            index.setdefault(b, i)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "_suit", tuple(suit))
        object.__setattr__(self, "_rank", tuple(rank))
        object.__setattr__(self, "_base", tuple(base))
        same: dict[str, int] = {}
        for i, b in enumerate(base):
            same[b] = same.get(b, 0) | 1 << i
        object.__setattr__(self, "_same", tuple(same[b] for b in base))
        symbols = {s: self.symbol(s) for s in self.suits}
        object.__setattr__(self, "_symbols", {v: k for k, v in symbols.items() if v != k})
        # some card is held in several copies (read by every parse of a player's text)
        object.__setattr__(self, "has_copies", self.copies > 1 or any(sp.copies > 1 for sp in specials))

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return len(self.names)

    @property
    def full_mask(self) -> int:
        """Bitmask of every card."""
        return (1 << self.size) - 1

    def suit_of(self, card: int) -> str | None:
        """Natural suit letter of ``card``, or ``None`` for a suitless card (a joker)."""
        s = self._suit[card]
        return self.suits[s] if s >= 0 else None

    def rank_of(self, card: int) -> str:
        """Rank token of ``card`` (``"JK"`` for a joker, the token of another suitless card)."""
        return self._rank[card]

    def is_joker(self, card: int) -> bool:
        """True when ``card`` is a suitless card (a joker, a Wizard, the Excuse)."""
        return self._suit[card] < 0

    is_special = is_joker

    def special(self, card: int) -> Special | None:
        """The :class:`Special` of a suitless ``card``, else ``None``."""
        if self._suit[card] >= 0:
            return None
        base = self._base[card]
        return next(s for s in self.specials if s.token == base)

    def base(self, card: int) -> str:
        """The card's text without its copy number (``AS`` for ``AS:2``)."""
        return self._base[card]

    def copies_of(self, card: int) -> int:
        """Bitmask of every copy of ``card`` (``card`` alone without copies)."""
        return self._same[card]

    def card(self, rank: str, suit: str) -> int:
        """Index of the card of ``rank`` and ``suit`` (its first copy); raises :class:`CardError`."""
        return self.parse(rank + suit)

    def suit_mask(self, suit: str) -> int:
        """Bitmask of the natural cards of ``suit``."""
        s = self.suits.index(suit)
        return mask_of(c for c, x in enumerate(self._suit) if x == s)

    def named_mask(self, text: str) -> int:
        """Bitmask of the card ``text`` names: every copy of a plain text (``AS``), the one
        copy of ``AS:2``; raises :class:`CardError`."""
        c = self.parse(text)
        return self._same[c] if self.normalise(text) == self._base[c] else 1 << c

    def symbol(self, suit: str) -> str:
        """A suit's display symbol (``♠``, or the deck's own; the letter when it has none)."""
        return self.suit_symbols.get(suit) or SUIT_SYMBOLS.get(suit, suit)

    def suit_name(self, suit: str) -> str:
        """A suit's name (``spades``, or the deck's own; the letter when it has none)."""
        return self.suit_names.get(suit) or SUIT_NAMES.get(suit, suit)

    def special_name(self, card: int) -> str:
        """What players call a suitless card (``the Excuse``), or its token."""
        sp = self.special(card)
        return sp.name if sp is not None and sp.name else self.names[card]

    def name(self, card: int) -> str:
        """Canonical text of ``card``: ``10H``, ``AS``, ``JK``, ``AS:2``."""
        return self.names[card]

    def pretty(self, card: int) -> str:
        """Display text with a suit symbol: ``10♥``, ``A♠``, ``JK``, ``A♠:2``."""
        n = self.names[card]
        s = self._suit[card]
        if s < 0:
            return n
        base = self._base[card]
        return base[:-1] + self.symbol(self.suits[s]) + n[len(base):]

    def face(self, card: int) -> str:
        """What a player reads on the card: :meth:`pretty` without the copy number (``10♥`` for
        ``10H:2``; the same as ``pretty`` in a pack without copies). Copies of a card are
        alike in play, so a hand or a trick shows them alike; a typed card names a copy with
        :meth:`name`."""
        s = self._suit[card]
        base = self._base[card]
        return base if s < 0 else base[:-1] + self.symbol(self.suits[s])

    def normalise(self, text: str) -> str:
        """Card text in this deck's canonical spelling: capitals, suit letters for the deck's
        symbols, ``10`` for a leading ``T`` (``th`` -> ``10H``), when that names a card."""
        t = text.strip().upper()
        head, sep, copy = t.partition(COPY)
        for sym, letter in list(self._symbols.items()) + list(SYMBOL_SUITS.items()):
            if head.endswith(sym):
                head = head[:-len(sym)] + letter
                break
        if head.startswith("T") and head not in self.index and "10" + head[1:] in self.index:
            head = "10" + head[1:]
        return head + sep + copy

    def parse(self, text: str) -> int:
        """Parse card text (``AS``, ``as``, ``10H``, ``TH``, ``A♠``, ``JK``, ``AS:2``).

        :raises CardError: when the text names no card of this deck.
        """
        t = self.normalise(text)
        try:
            return self.index[t]
        except KeyError:
            head = t.partition(COPY)[0]
            if head in self.absent:  # a card of the grid the deck leaves out (deck.minus)
                raise CardError(f"{text!r} is not a card of this deck: the deck leaves it out "
                                f"(expected one of the cards it holds, such as {self.names[0]})") from None
            if COPY in t and head in self.index:
                c = self.index[head]
                n = self._same[c].bit_count()
                raise CardError(f"{text!r} is not a card of this deck: it holds {n} cop{'y' if n == 1 else 'ies'} "
                                f"of {head} (expected {head}{COPY}1 to {head}{COPY}{n}, or {head})") from None
            extra = "".join(f", or {s.token}" for s in self.specials)   # offer suitless cards only to a deck that has them
            raise CardError(f"{text!r} is not a card of this deck "
                            f"(expected rank {'/'.join(self.ranks)} then suit "
                            f"{'/'.join(self.suits)}{extra})") from None

    def held(self, mask: int, hand: int) -> int:
        """``mask`` with each card its player does not hold replaced by a copy of it that he
        holds and ``mask`` does not already name (``AS`` typed plays one of his copies: the
        first he holds); cards of which he holds no free copy stay as they are."""
        if not mask & ~hand or not self.has_copies:
            return mask
        out = mask & hand
        for c in bits(mask & ~hand):
            free = self._same[c] & hand & ~out
            out |= free & -free if free else 1 << c
        return out

    def parse_mask(self, texts: Iterable[str]) -> int:
        """Parse several card texts into one bitmask; raises :class:`CardError`.  A plain text
        repeated (``AS AS``) names the next copy each time."""
        m = 0
        for t in texts:
            c = self.parse(t)
            if m >> c & 1 and self.has_copies and COPY not in t:
                free = self._same[c] & ~m
                c = (free & -free).bit_length() - 1 if free else c
            m |= 1 << c
        return m

    def names_of(self, mask: int) -> list[str]:
        """Canonical texts of the cards in ``mask``, in deck order."""
        names = self.names
        return [names[c] for c in bit_list(mask)]


def _is_joker_token(token: str) -> bool:
    """``JK``, ``JK1``, ``JK2``...: a joker's token."""
    return token == JOKER or (token.startswith(JOKER) and token[len(JOKER):].isdigit())


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
