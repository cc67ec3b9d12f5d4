"""Contract values: what an auction can make a hand's contract, as plain immutable data.

Below both the phase kinds that build them (the auctions) and the engine and sheets that
read them (scoring, records, the scorepad): no behaviour needs the engine.

>>> Bid("7H", 7, "H", 0).level
7
"""
from __future__ import annotations

from dataclasses import dataclass, field

NT = "NT"
"""The strain of a contract played without trumps."""

LOW = "low"
"""The contract group of a low-wins contract (``ranking.low``; a bid with ``wins: low``)."""


@dataclass(frozen=True)
class Bid:
    """A bid of a ladder auction.

    :ivar text: action text (``7H``, ``10NT``, ``10T``).
    :ivar level: tricks the declarer must win.
    :ivar strain: suit letter, ``NT`` or ``chosen``.
    :ivar rank: position in the auction order (higher outbids lower).
    :ivar only_over: index of the bid that must be highest for this one to be legal, or -1.
    :ivar wins: which cards win tricks under this contract: ``high`` (the ranking), ``low``
        (``ranking.low``, a low-wins contract) or ``chosen`` (the declarer says which when
        he names trumps, ``name_trump``).
    :ivar group: the contract group it is played with (``contract_groups``: its ranking, card
        points and where the cards out of play go), or ``""`` for the base rules.
    """

    text: str
    level: int
    strain: str
    rank: int
    only_over: int = -1
    wins: str = field(default="high", kw_only=True)  # keyword-only: Contract's fields stay positional
    group: str = field(default="", kw_only=True)


@dataclass(frozen=True)
class Contract(Bid):
    """A contract of a ``list_auction``: a :class:`~rulekit.contracts.Bid` (``text``,
    ``level`` = tricks undertaken, ``strain`` = trump suit or ``NT``, ``rank`` = place in
    the list) with its attributes.

    :ivar value: points it is worth this hand (bids rank by it; ties cannot overcall).
    :ivar values: its value for suit class 1, 2, 3 (the compiled list; ``value`` is set
        from it each hand).
    :ivar null: the declarer undertakes to win no trick.
    :ivar open: ``""``, ``before_lead`` or ``after_first_trick``: when the declarer's hand
        is laid face up.
    :ivar aside: cards the declarer puts aside face down before play.
    :ivar partner: the declarer may call a partner (``call_partner`` phase).
    :ivar label: a name for people (``little null``), or ``""``.
    :ivar skips: names of the phases this contract skips (the exchange of a contract played
        without the widow).
    :ivar hand: it may only be announced in a hand game (``widow_exchange``'s ``hand``).
    :ivar promises: what the declarer undertakes beside the contract itself, by name (Skat's
        announced ``schneider``, ``schwarz``): formula variables ``promised_NAME``.
    """

    value: int = 0
    values: tuple = ()
    null: bool = False
    open: str = ""
    aside: int = 0
    partner: bool = False
    label: str = ""
    skips: tuple = ()
    hand: bool = False
    promises: tuple = ()

    def variables(self) -> dict:
        """The contract's attributes as formula variables (``promised_NAME`` true for each of
        its promises; the auction's other promise names default to false)."""
        out = {"value": self.value, "null": self.null, "open_game": bool(self.open), "aside": self.aside,
               "partner_allowed": self.partner}
        for name in self.promises:
            out["promised_" + name] = True
        return out


@dataclass(frozen=True)
class LadderBid(Bid):
    """A bid of a ``ladder_auction`` (:class:`Bid`) with the
    attributes an extra bid may have.

    :ivar only_after: rank of a bid that must have been reached: the highest bid so far
        must be it or higher (``only_after``), or -1.
    :ivar null: the declarer undertakes to win no trick (a misère).
    :ivar open: ``""``, ``before_lead`` or ``after_first_trick``: when the declarer's hand is
        laid face up (read by the ``tricks`` phase, as for a list contract).
    :ivar alone: the declarer's partner sits the hand out (his cards put aside).
    :ivar value: its own value (formula variable ``bid_value``; 0 when not given).
    """

    only_after: int = -1
    null: bool = False
    open: str = ""
    alone: bool = False
    value: int = 0

    def variables(self) -> dict:
        """``null``, ``open_game`` and ``bid_value`` as formula variables (scoring reads a
        contract's ``variables`` when it has them)."""
        return {"null": self.null, "open_game": bool(self.open), "bid_value": self.value}


__all__ = ["LOW", "NT", "Bid", "Contract", "LadderBid"]
