"""A score sheet: one column per player (or side), one row per hand.

The same sheet serves a played match and a hand-scored table game.  Rows keep
each hand's entries, a note, and the order in which tricks were won (so a
tie on the same hand can be settled by trick order, rules/fivehundred.md [G3]).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Row:
    """One hand on the sheet.

    :ivar hand: 0-based hand number.
    :ivar entries: points per column for this hand.
    :ivar totals: running totals per column after this hand.
    :ivar note: what happened (``P1 8H made (9 tricks)``).
    :ivar void: the hand counted for nothing (thrown in, or voided by the rules).
    :ivar trick_winners: seat that won each trick, in order.
    :ivar parts: entries split by part (``{"below": [..], "above": [..]}``) or ``None``.
    :ivar line: a game ended with this row (a line is drawn under it, rules/bridge.md [S2]).
    :ivar games: game points won with this row, per column.
    :ivar bonus: the row is a bonus (rubber bonus), not a deal.
    :ivar against: entries written against another player, as ``{column, target, value, part}``
        (:class:`~rulekit.sheets.result.Against`); not in ``entries``.
    :ivar marks: marker events of this hand (``{"marker", "column", "state"}``: a refe
        written ``new``, or played ``passed`` / ``failed``; rulekit/engine/markers.py).
    """

    hand: int
    entries: list
    totals: list
    note: str = ""
    void: bool = False
    trick_winners: list = field(default_factory=list)
    parts: dict | None = None
    line: bool = False
    games: list = field(default_factory=list)
    bonus: bool = False
    against: list = field(default_factory=list)
    marks: list = field(default_factory=list)

    def as_dict(self) -> dict:
        """JSON-ready form."""
        d = {"hand": self.hand, "entries": self.entries, "totals": self.totals, "note": self.note,
             "void": self.void, "trick_winners": self.trick_winners}
        if self.parts is not None:
            d.update(parts=self.parts, line=self.line, games=self.games, bonus=self.bonus)
        if self.against:
            d["against"] = self.against
        if self.marks:
            d["marks"] = self.marks
        return d


class Sheet:
    """Columns with entries and running totals.

    :param columns: column titles (player or side names).
    :param lower_is_better: totals are penalties.
    :param start: starting totals (default zeros).
    """

    def __init__(self, columns: list, lower_is_better: bool = False, start: list | None = None):
        self.columns = list(columns)
        self.lower_is_better = lower_is_better
        self.start = list(start) if start else [0] * len(columns)
        self.rows: list[Row] = []

    def totals(self) -> list:
        """Current totals per column."""
        return list(self.rows[-1].totals) if self.rows else list(self.start)

    def add(self, hand: int, entries: list, note: str = "", void: bool = False,
            trick_winners: list | None = None, parts: dict | None = None, line: bool = False,
            games: list | None = None, bonus: bool = False, against: list | None = None,
            marks: list | None = None) -> Row:
        """Append a hand's entries (points per column) and return the new row.

        :raises ValueError: when the number of entries is not the number of columns.
        """
        if len(entries) != len(self.columns):
            raise ValueError(f"{len(entries)} entries for {len(self.columns)} columns")
        totals = [t + e for t, e in zip(self.rows[-1].totals if self.rows else self.start, entries)]
        row = Row(hand, list(entries), totals, note, void, list(trick_winners or []),
                  dict(parts) if parts is not None else None, line,
                  list(games) if games else [0] * len(self.columns), bonus, list(against or []),
                  list(marks or []))
        self.rows.append(row)
        return row

    def game_points(self) -> list:
        """Game points per column (game values and bonuses sent there)."""
        return [sum(r.games[c] for r in self.rows) for c in range(len(self.columns))]

    def clone(self) -> "Sheet":
        """A copy whose rows can be added to independently."""
        s = Sheet(self.columns, self.lower_is_better, self.start)
        s.rows = list(self.rows)
        return s

    def as_dict(self) -> dict:
        """JSON-ready form (records store it)."""
        return {"columns": self.columns, "lower_is_better": self.lower_is_better, "start": self.start,
                "rows": [r.as_dict() for r in self.rows]}

    @classmethod
    def from_dict(cls, d: dict) -> "Sheet":
        """Rebuild a sheet from :meth:`as_dict` output."""
        s = cls(d["columns"], d.get("lower_is_better", False), d.get("start"))
        for r in d.get("rows", []):
            s.add(r["hand"], r["entries"], r.get("note", ""), r.get("void", False), r.get("trick_winners"),
                  r.get("parts"), r.get("line", False), r.get("games"), r.get("bonus", False),
                  r.get("against"), r.get("marks"))
        return s
