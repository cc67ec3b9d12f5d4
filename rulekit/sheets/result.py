"""Hand results: what the engine (or a table's scorepad) hands to the sheet layer.

A :class:`HandResult` is plain data: the sheet layer builds sheets from these
records alone and never reads engine state (DESIGN.md, "the engine emits hand
results; the sheet layer builds sheets from them").
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Against:
    """An entry written in one column against another player (a Balkan preferans soup,
    rules/preferans.md): ``value`` points in ``column``, written against ``target``.

    :ivar part: the part of the score it belongs to, or ``None``.
    """

    column: int
    target: int
    value: int
    part: str | None = None

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {"column": self.column, "target": self.target, "value": self.value, "part": self.part}


@dataclass(frozen=True)
class HandResult:
    """One scored hand.

    :ivar number: 0-based hand number in the match.
    :ivar dealer: the dealer's seat.
    :ivar contract: the contract's bid text (``8H``, ``4S``) or ``None``.
    :ivar declarer: the declarer's seat, or -1.
    :ivar facts: what was scored, JSON-ready: ``trump``, ``doubled``, and per score
        column ``tricks``, ``points``, ``tallies``, ``vulnerable``, ``game_score``.
    :ivar entries: points per score column (the parts added up).
    :ivar parts: the entries split by part (``{"below": [..], "above": [..]}``) or ``None``.
    :ivar against: entries written against another player (:class:`Against`).
    :ivar void: the hand counts for nothing (voided by the rules).
    :ivar thrown_in: all passed and the deal was thrown in: a void ``passed out`` row, or,
        with ``counted=False`` (redealt by the same dealer), no row at all.
    :ivar note: one line for the sheet (``P1 8H made (9 tricks)``).
    :ivar trick_winners: the seat that won each trick, when known (a played hand).
    :ivar marks: marker events (a refe written or played; rulekit/engine/markers.py).
    """

    number: int
    dealer: int
    contract: str | None = None
    declarer: int = -1
    facts: dict = field(default_factory=dict)
    entries: tuple = ()
    parts: dict | None = None
    against: tuple = ()
    void: bool = False
    thrown_in: bool = False
    counted: bool = True
    note: str = ""
    trick_winners: tuple = ()
    marks: tuple = ()

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {"number": self.number, "dealer": self.dealer, "contract": self.contract,
                "declarer": self.declarer, "facts": self.facts, "entries": list(self.entries),
                "parts": self.parts, "against": [a.as_dict() for a in self.against], "void": self.void,
                "thrown_in": self.thrown_in, "counted": self.counted, "note": self.note,
                "trick_winners": list(self.trick_winners), "marks": list(self.marks)}
