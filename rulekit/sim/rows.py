"""The rows of a comparison, stored by field (``rulekit compare`` keeps every row for its paired
statistics: up to :data:`rulekit.sim.compare.MAX_N` deals per variant).

A row is a flat dict of plain values (``int``, ``float``, ``str`` or ``None`` where a value does
not apply).  :class:`Rows` keeps one typed :class:`array.array` per field instead of a dict per
row: 8 bytes a number (``q`` for integers, ``d`` for other numbers), 4 bytes a text (its code
in the field's table of distinct texts).  A Five Hundred deal's row, 24 fields, takes about 190
bytes (``benchmarks/compare.py`` prints the figure; a list of dicts took 2.7 KB).  Reading a row
back (:meth:`Rows.__getitem__`, iteration) builds its dict, with the values as they were
appended: an integer field stays ``int``, a field that received a float reads as floats.
"""
from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

#: the integer stored for ``None`` in an integer field (a value no row holds: seeds are 63 bits)
NO_INT = -(1 << 63)


class Rows:
    """Rows of flat dicts stored as one array per field, in the order appended.

    Fields are kept in the order they first appear; a row without a field reads ``None`` there
    (as does a field a row gives as ``None``).  Equal when they hold the same rows.
    """

    def __init__(self, rows: Iterable[dict] = ()):
        self._cols: dict[str, array[Any]] = {}
        self._texts: dict[str, list] = {}   # text field -> its distinct values (code = place)
        self._codes: dict[str, dict] = {}   # text field -> value -> code
        self._n = 0
        self.extend(rows)

    def __len__(self) -> int:
        return self._n

    @property
    def fields(self) -> list[str]:
        """The fields, in the order they first appeared."""
        return list(self._cols)

    def extend(self, rows: Iterable[dict]) -> None:
        """Append every row of ``rows`` (dicts of ``int``/``float``/``str``/``bool``/``None``)."""
        for r in rows:
            self.append(r)

    def append(self, row: dict) -> None:
        """Append one row.  :raises TypeError: a value that is not a number, a text or ``None``."""
        n = self._n
        cols = self._cols
        for k, x in row.items():
            col = cols.get(k)
            if col is None:
                col = self._new(k, x, n)
            self._put(k, col, x)
        for k, col in cols.items():
            if len(col) == n:   # a field this row does not have
                self._put(k, col, None)
        self._n = n + 1

    def _new(self, k: str, x: Any, n: int) -> array:
        """A new column for field ``k``, typed by its first value ``x``, ``None`` for the rows before."""
        col: array
        if isinstance(x, str) or x is None:
            self._texts[k], self._codes[k] = [None], {None: 0}
            col = array("I", bytes(4 * n))
        elif isinstance(x, float):
            col = array("d", [math.nan]) * n
        else:
            col = array("q", [NO_INT]) * n
        self._cols[k] = col
        return col

    def _put(self, k: str, col: array, x: Any) -> None:
        t = col.typecode
        if t == "q":
            if x is None:
                col.append(NO_INT)
            elif isinstance(x, float):   # an integer field that receives a number: numbers from now on
                numbers = self._cols[k] = array("d", (math.nan if v == NO_INT else float(v) for v in col))
                numbers.append(x)
            elif isinstance(x, int):
                col.append(int(x))
            else:
                raise TypeError(f"field {k!r}: {x!r} in a number field")
        elif t == "d":
            if x is None:
                col.append(math.nan)
            elif isinstance(x, (int, float)) and not isinstance(x, bool):
                col.append(float(x))
            else:
                raise TypeError(f"field {k!r}: {x!r} in a number field")
        else:
            codes = self._codes[k]
            if not (x is None or isinstance(x, str)):
                if len(codes) > 1 or not isinstance(x, (int, float)):
                    raise TypeError(f"field {k!r}: {x!r} in a text field")
                # a field that was None so far and receives a number: a number field
                del self._codes[k], self._texts[k]
                col = self._cols[k] = self._new(k, x, len(col))
                self._put(k, col, x)
                return
            code = codes.get(x)
            if code is None:
                code = codes[x] = len(codes)
                self._texts[k].append(x)
            col.append(code)

    def _value(self, k: str, i: int) -> Any:
        col = self._cols[k]
        v = col[i]
        t = col.typecode
        if t == "q":
            return None if v == NO_INT else v
        if t == "d":
            return None if v != v else v
        return self._texts[k][v]

    def values(self, field: str) -> list:
        """Every row's value of ``field`` (``None`` where none), in order; ``[None] * len`` for an
        unknown field."""
        col = self._cols.get(field)
        if col is None:
            return [None] * self._n
        t = col.typecode
        if t == "q":
            return [None if v == NO_INT else v for v in col]
        if t == "d":
            return [None if v != v else v for v in col]
        texts = self._texts[field]
        return [texts[v] for v in col]

    def where(self, field: str, value: Any) -> list[int]:
        """The places of the rows whose ``field`` is ``value``."""
        return [i for i, v in enumerate(self.values(field)) if v == value]

    def row(self, i: int) -> dict:
        """Row ``i`` as a dict (every field; ``None`` where it has no value)."""
        return {k: self._value(k, i) for k in self._cols}

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.row(j) for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self.row(i)

    def __iter__(self) -> Iterator[dict]:
        cols = [(k, self.values(k)) for k in self._cols]
        for i in range(self._n):
            yield {k: vals[i] for k, vals in cols}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rows):
            return list(self) == list(other)
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # changes as rows are appended

    def nbytes(self) -> int:
        """Bytes the rows take: their arrays and their tables of texts (what :data:`MAX_N` rows
        cost in memory; the Python objects' own headers, a few hundred bytes a field, left out)."""
        import sys
        size = sum(c.itemsize * len(c) for c in self._cols.values())
        return size + sum(sys.getsizeof(t) for texts in self._texts.values() for t in texts if t is not None)


__all__ = ["NO_INT", "Rows"]
