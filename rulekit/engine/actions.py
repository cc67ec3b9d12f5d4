"""Actions: small immutable values with one canonical text each.

=============  ==========================  =========================================
kind           text                        meaning
=============  ==========================  =========================================
``pass``       ``pass``                    a pass in an auction
``bid``        ``7H``, ``10NT``, ``10T``   a bid (the variant's bid texts)
``double``     ``X``                       double the last bid (``XX``: ``redouble``)
``discard``    ``discard 7C 8C 9D``        cards put away face down after a widow
``trump``      ``trump H``                 the declarer names trumps
``play``       ``play QS``, ``play JK H``  a card played; a led top card may name a suit
=============  ==========================  =========================================

:meth:`Action.parse` reads what :meth:`Action.text` writes (case and ``T``/``10``
and suit symbols are forgiven); the CLI, records and playthroughs share it.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.cards import Deck, normalise_card_text
from rulekit.errors import CardError, InvalidActionError

_SUITS = ("S", "H", "D", "C", "NT")


@dataclass(frozen=True)
class Action:
    """One decision of a player.

    :ivar kind: ``pass``, ``bid``, ``discard``, ``trump`` or ``play``.
    :ivar text: the canonical text (the identity of the action).
    :ivar card: the card played (``play``), else -1.
    :ivar cards: bitmask of discarded cards (``discard``), else 0.
    :ivar suit: suit named (``trump``, or a ``play`` of a led top card), else ``""``.
    :ivar bid: bid text (``bid``), else ``""``.
    """

    kind: str
    text: str
    card: int = -1
    cards: int = 0
    suit: str = ""
    bid: str = ""

    def __str__(self) -> str:
        return self.text

    @staticmethod
    def pass_() -> "Action":
        """The pass action."""
        return PASS

    @staticmethod
    def make_bid(text: str) -> "Action":
        """A bid with the given canonical text."""
        return Action("bid", text, bid=text)

    @staticmethod
    def play(deck: Deck, card: int, suit: str = "") -> "Action":
        """Play ``card``; ``suit`` is named for a led top card ([T4])."""
        text = f"play {deck.name(card)}" + (f" {suit}" if suit else "")
        return Action("play", text, card=card, suit=suit)

    @staticmethod
    def discard(deck: Deck, mask: int) -> "Action":
        """Discard the cards of ``mask`` (text lists them in deck order)."""
        return Action("discard", "discard " + " ".join(deck.names_of(mask)), cards=mask)

    @staticmethod
    def trump(suit: str) -> "Action":
        """Name ``suit`` (or NT) as trumps (one shared action per suit: actions are immutable)."""
        a = _TRUMPS.get(suit)
        if a is None:
            a = _TRUMPS[suit] = Action("trump", f"trump {suit}", suit=suit)
        return a

    @staticmethod
    def parse(text: str, deck: Deck, bids: tuple = ()) -> "Action":
        """Parse action text.

        :param bids: the variant's bid texts, for recognising bids.
        :raises InvalidActionError: when the text is no action of this variant.
        """
        words = text.strip().split()
        if not words:
            raise InvalidActionError("empty action (expected e.g. pass, 7H, discard 7C 8C 9D, play QS; ? lists them)")
        head = words[0].lower()
        try:
            if head == "pass" and len(words) == 1:
                return PASS
            if head == "play" and len(words) in (2, 3):
                card = deck.parse(words[1])
                suit = _suit(words[2], deck) if len(words) == 3 else ""
                return Action.play(deck, card, suit)
            if head == "discard" and len(words) >= 2:
                mask = 0
                for w in words[1:]:
                    c = deck.parse_mask(deck.names_of(mask) + [w]) & ~mask   # a plain text again: the next copy
                    if not c:
                        raise InvalidActionError(f"{w} is named twice")
                    mask |= c
                return Action.discard(deck, mask)
            if head == "trump" and len(words) == 2:
                return Action.trump(_suit(words[1], deck))
        except CardError as e:
            raise InvalidActionError(str(e)) from None
        if len(words) == 1 and head in ("x", "double", "xx", "redouble"):
            return DOUBLE if head in ("x", "double") else REDOUBLE
        if len(words) == 1:
            up = words[0].upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
            for b in bids:
                if up == b.upper() or up + "T" == b.upper() and up.endswith("N"):  # 1N = 1NT
                    return Action.make_bid(b)
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "…"
        raise InvalidActionError(f"{shown!r} is not an action (expected pass, a bid such as "
                                 f"{bids[0] if bids else '7H'}, discard CARDS, trump SUIT or play CARD)")


_TRUMPS: dict = {}  # suit -> its shared ``trump SUIT`` action


def _suit(w: str, deck: Deck | None = None) -> str:
    s = normalise_card_text(w)
    s = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(s, s)
    suits = tuple(deck.suits) + ("NT",) if deck is not None else _SUITS
    if deck is not None:
        s = next((x for x in deck.suits if deck.symbol(x) == w.strip()), s)
    if s not in suits:
        raise InvalidActionError(f"{w!r} is not a suit (expected {', '.join(suits[:-1])} or NT)")
    return s


PASS = Action("pass", "pass")
DOUBLE = Action("double", "X")
REDOUBLE = Action("redouble", "XX")
