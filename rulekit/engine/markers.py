"""Markers written on the sheet when a deal is thrown in, used by a later declarer
(``scoring.markers``; the Balkan preferans refe, rules/preferans.md [R1]-[R3]).

Each column keeps a list of its markers, each ``open`` (not used yet), ``passed`` (used
on a hand the declarer made) or ``failed``.  When every player passed, each column gets
one more, unless it already has ``most`` or its total is below ``not_below`` ("under the
hat").  A declarer with an open marker plays his hand at ``factor`` times; afterwards
his first open marker is marked played.  Defenders' markers are not used.
"""
from __future__ import annotations


class Markers:
    """The markers of a match, per marker spec and per score column.

    :param specs: the variant's :class:`~rulekit.variant.model.MarkerSpec` tuple.
    :param columns: the number of score columns.
    """

    def __init__(self, specs: tuple, columns: int):
        self.specs = specs
        self.marks: dict[str, list] = {m.name: [[] for _ in range(columns)] for m in specs}

    def clone(self) -> "Markers":
        """An independent copy."""
        out = Markers(self.specs, 0)
        out.marks = {k: [list(c) for c in v] for k, v in self.marks.items()}
        return out

    def factors(self, declarer: int) -> dict:
        """Marker name -> the factor of a hand declared by ``declarer`` (1 without an open one)."""
        return {m.name: m.factor if declarer >= 0 and "open" in self.marks[m.name][declarer] else 1
                for m in self.specs}

    def factor_for(self, declarer: int) -> int:
        """The product of the marker factors of a hand declared by ``declarer``."""
        out = 1
        for f in self.factors(declarer).values():
            out *= f
        return out

    def thrown_in(self, totals: list) -> list:
        """[R1]: a deal thrown in writes a marker for each column that may take one.

        :returns: the events ``{"marker", "column", "state": "new"}``.
        """
        events = []
        for m in self.specs:
            for c, marks in enumerate(self.marks[m.name]):
                if len(marks) >= m.most or (m.not_below is not None and totals[c] < m.not_below):
                    continue
                marks.append("open")
                events.append({"marker": m.name, "column": c, "state": "new"})
        return events

    def played(self, declarer: int, made: bool) -> list:
        """[R2] [R3]: the declarer's first open marker is marked ``passed`` or ``failed``.

        :returns: the events ``{"marker", "column", "state"}``.
        """
        events = []
        for m in self.specs:
            marks = self.marks[m.name][declarer] if declarer >= 0 else []
            if "open" in marks:
                i = marks.index("open")
                marks[i] = "passed" if made else "failed"
                events.append({"marker": m.name, "column": declarer, "state": marks[i]})
        return events
