"""Markers written on the sheet when a deal is thrown in, used by a later declarer
(``scoring.markers``; the Balkan preferans refe, rules/preferans.md [R1]-[R3]).

Each column keeps a list of its markers, each ``open`` (not used yet), ``passed`` (used
on a hand the declarer made) or ``failed``.  When every player passed, each column gets
one more, unless it already has ``most`` or its total is below ``not_below`` ("under the
hat").  A phase may also write one for a single column (:meth:`write`: the ``defence``
option ``unplayed_choice``, a refe the declarer takes instead of an unplayed hand counted
as made), under the same limits.  A declarer with an open marker plays his hand at ``factor`` times; afterwards
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

    def may_write(self, name: str, column: int, totals: list) -> bool:
        """[R1]: whether column ``column`` may take one more ``name`` marker: fewer than its
        ``max`` written so far, and its total (``totals``, the sheet's) not below ``not_below``."""
        m = next(m for m in self.specs if m.name == name)
        return len(self.marks[name][column]) < m.most and (m.not_below is None or totals[column] >= m.not_below)

    def write(self, name: str, column: int, totals: list) -> list:
        """Write one open ``name`` marker for ``column`` alone, if :meth:`may_write` allows it.

        :returns: the events ``[{"marker", "column", "state": "new"}]`` (``[]``: not written).
        """
        if not self.may_write(name, column, totals):
            return []
        self.marks[name][column].append("open")
        return [{"marker": name, "column": column, "state": "new"}]

    def thrown_in(self, totals: list) -> list:
        """[R1]: a deal thrown in writes a marker for each column that may take one.

        :returns: the events ``{"marker", "column", "state": "new"}``.
        """
        return [e for m in self.specs for c in range(len(self.marks[m.name])) for e in self.write(m.name, c, totals)]

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
