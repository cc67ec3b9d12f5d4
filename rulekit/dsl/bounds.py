"""Static bounds of a formula: the least and greatest value it can give.

:func:`interval` walks a formula's parse tree with interval arithmetic over
the ranges of its variables (tricks ``0..N``, a level among the bid levels, a
condition ``0..1``...).  It is sound (the true value always lies inside the
interval) but not exact: ``if tricks > 0 then 10 / tricks else 0`` is flagged
as a possible division by zero because the branches are not narrowed.  The
variant compiler therefore confirms a flagged formula by evaluating it on
concrete values (:func:`rulekit.variant.compiler` does that) before refusing it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from rulekit.dsl.compile import LIMIT
from rulekit.dsl.parser import parse

#: The range of a value nothing is known about.
UNKNOWN = (-LIMIT, LIMIT)


@dataclass
class Bounds:
    """Result of :func:`interval`.

    :ivar lo, hi: the least and greatest value (a condition is 0..1).
    :ivar risks: ``(line, column, what)`` of each operation that may divide by zero
        or leave ``-LIMIT..LIMIT`` (positions in the formula text, 1-based).
    """

    lo: int
    hi: int
    risks: list = field(default_factory=list)


def interval(text: str, ranges: Mapping[str, tuple], columns: int = 1) -> Bounds:
    """Bounds of the formula ``text``.

    :param ranges: variable (or ``let`` name) -> ``(lo, hi)``; a constant-valued
        variable (``trump``) may be left out; an unlisted name is :data:`UNKNOWN`.
    :param columns: score columns, for ``sum(x)`` over players.
    :raises DSLError: when ``text`` does not parse (compile it first).
    """
    risks: list = []

    def at(t):
        meta = getattr(t, "meta", None)
        if meta is not None and not getattr(meta, "empty", True):
            return meta.line, meta.column
        for ch in getattr(t, "children", ()):
            if hasattr(ch, "line"):
                return ch.line, ch.column
            return at(ch)
        return 1, 1

    def bounded(t, lo, hi):
        if lo < -LIMIT or hi > LIMIT:
            risks.append(at(t) + (f"may reach {hi if hi > LIMIT else lo}, past the arithmetic bound "
                                  f"(|x| <= {LIMIT})",))
            return min(max(lo, -LIMIT), LIMIT), max(min(hi, LIMIT), -LIMIT)
        return lo, hi

    def corners(f, a, b):
        vals = [f(x, y) for x in a for y in b]
        return min(vals), max(vals)

    def walk(t) -> tuple:
        kind, ch = t.data, t.children
        if kind == "number":
            v = int(ch[0])
            return v, v
        if kind in ("true", "false"):
            v = int(kind == "true")
            return v, v
        if kind == "var":
            return tuple(ranges.get(str(ch[0]), UNKNOWN))
        if kind in ("const", "compare", "member", "not_"):
            if kind == "not_":
                lo, hi = walk(ch[0])
                return (0 if hi else 1), (0 if lo else 1)
            for x in ch:
                if hasattr(x, "data") and x.data != "const_list":
                    walk(x)
            return 0, 1
        if kind in ("and_", "or_"):
            (alo, ahi), (blo, bhi) = walk(ch[0]), walk(ch[1])
            ta, tb = (bool(alo) if alo == ahi else None), (bool(blo) if blo == bhi else None)
            if kind == "and_" and (ta is False or tb is False):
                return 0, 0
            if kind == "or_" and (ta is True or tb is True):
                return 1, 1
            if ta is not None and tb is not None:
                v = int(ta and tb) if kind == "and_" else int(ta or tb)
                return v, v
            return 0, 1
        if kind == "neg":
            lo, hi = walk(ch[0])
            return -hi, -lo
        if kind == "cond":
            (clo, chi), a, b = walk(ch[0]), walk(ch[1]), walk(ch[2])
            if clo == chi:  # a constant condition: only one branch is ever taken
                return a if clo else b
            return min(a[0], b[0]), max(a[1], b[1])
        if kind == "binop":
            a, op, b = walk(ch[0]), str(ch[1]), walk(ch[2])
            if op == "+":
                return bounded(t, a[0] + b[0], a[1] + b[1])
            if op == "-":
                return bounded(t, a[0] - b[1], a[1] - b[0])
            if op == "*":
                return bounded(t, *corners(lambda x, y: x * y, a, b))
            return divide(t, ch[2], op, a, b)
        if kind == "call":
            name = str(ch[0])
            args = [walk(x) for x in ch[1:]]
            if name in ("min", "max") and len(args) >= 2:
                f = min if name == "min" else max
                return f(x[0] for x in args), f(x[1] for x in args)
            if name == "abs" and len(args) == 1:
                lo, hi = args[0]
                return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
            if name == "round_div" and len(args) == 2:
                return divide(t, ch[2], "/", args[0], args[1], extra=1)
            if name == "sum" and len(args) == 1:
                return bounded(t, min(args[0][0], columns * args[0][0]), max(args[0][1], columns * args[0][1]))
            if name == "count" and len(args) == 1:
                return 0, columns
            if len(args) == 1:  # min(x) / max(x) over players
                return args[0]
        return UNKNOWN  # pragma: no cover - every node kind is handled above

    def divide(t, divisor, op, a, b, extra=0):
        if b[0] <= 0 <= b[1]:
            risks.append(at(divisor) + ("may divide by zero",))
            if b == (0, 0):
                return 0, 0
        if op == "%":
            m = max(abs(b[0]), abs(b[1]))
            return -(m - 1), m - 1
        # a / y is extreme at the ends of y's range or at y = -1, 1 (the smallest nonzero |y|)
        ys = [y for y in (b[0], b[1], -1, 1) if b[0] <= y <= b[1] and y != 0]
        lo, hi = corners(lambda x, y: x // y, a, ys)
        return lo - extra, hi + extra

    lo, hi = walk(parse(str(text), "expr"))
    return Bounds(lo, hi, risks)


__all__ = ["Bounds", "UNKNOWN", "interval"]
