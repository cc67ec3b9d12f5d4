"""Build a score sheet from hand results alone (DESIGN.md layer 5, the sheet seam).

:class:`SheetBook` turns :class:`~rulekit.sheets.result.HandResult` records into
sheet rows: a row per counted deal (a void ``passed out`` row for a deal thrown
in), and, for variants whose parts count toward games (rules/bridge.md [S2]
[S8], whist.md [S3]-[S5]), the line under each game, game points and rubber
bonus rows, through the engine's :class:`~rulekit.engine.progress.Progress`.
It gives the same rows as a played match's sheet (tests/test_sheet_seam.py).
"""
from __future__ import annotations

from rulekit.engine.progress import Progress
from rulekit.sheets.result import HandResult
from rulekit.sheets.sheet import Row, Sheet


class SheetBook:
    """A sheet and the match progress (games, rubbers, vulnerability) behind it.

    :param variant: the compiled variant (its scoring parts and match rules).
    :param columns: score column titles (players, or sides with ``scoring.by: side``).
    :param start: starting totals per column (default zeros).

    :ivar sheet: the :class:`~rulekit.sheets.sheet.Sheet`.
    :ivar progress: the :class:`~rulekit.engine.progress.Progress` of games and rubbers.
    :ivar deals: deals counted so far (a deal redealt by the same dealer does not count).
    :ivar results: every :class:`HandResult` added, in order.
    """

    def __init__(self, variant, columns: list, start: list | None = None):
        self.variant = variant
        self.sheet = Sheet(columns, lower_is_better=variant.scoring.lower_is_better,
                           start=start or [variant.scoring.start] * len(columns))
        self.progress = Progress(len(columns))
        self.deals = 0
        self.results: list[HandResult] = []

    def vulnerable(self, dealer: int) -> list:
        """Vulnerability of each column for the next deal, dealt by ``dealer``."""
        return self.progress.vulnerable(self.variant, self.deals, dealer)

    def add(self, r: HandResult) -> list[Row]:
        """Write hand ``r`` on the sheet; return the rows it added (none for a deal redealt
        by the same dealer; the deal's row, then any rubber bonus row)."""
        self.results.append(r)
        n = len(self.sheet.columns)
        if not r.counted:
            return []
        self.deals += 1
        if r.thrown_in:
            return [self.sheet.add(r.number, [0] * n, note="passed out", void=True, marks=list(r.marks))]
        row = self.sheet.add(r.number, list(r.entries), note=r.note, void=r.void,
                             trick_winners=list(r.trick_winners), parts=r.parts,
                             against=[a.as_dict() for a in r.against], marks=list(r.marks))
        rows = [row]
        if r.parts and not r.void:
            rows += self.progress.write(self.variant, r.parts, self.sheet, row)
        return rows

    def stop(self, number: int) -> Row | None:
        """The players stop: an unfinished rubber scores its bonuses (rules/bridge.md [S9]).

        :param number: the hand number the bonus row carries (the next deal's).
        :returns: the bonus row, or ``None`` when there is none.
        """
        v = self.variant
        m = v.match
        if not (m.unfinished_game or m.unfinished_part):
            return None
        bonus = self.progress.unfinished(v)
        if not any(bonus):
            return None
        part = next((p.name for p in v.scoring.parts if not p.game), None)
        return self.sheet.add(number, bonus, note="unfinished rubber", parts={part: bonus} if part else None,
                              bonus=True)


def build_sheet(variant, columns: list, results, start: list | None = None) -> Sheet:
    """The sheet of ``results`` (:class:`HandResult` records, in order)."""
    book = SheetBook(variant, columns, start)
    for r in results:
        book.add(r)
    return book.sheet
