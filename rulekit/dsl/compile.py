"""Compile parsed DSL strings once, at load time, into plain callables and data.

* :func:`compile_expr` turns a formula or condition into a :class:`Formula`, a
  closure over an :class:`Env`.  No ``eval``/``exec``; integers only;
  every intermediate value is bounded by :data:`LIMIT`.
* :func:`compile_ranking` turns a ranking string into a list of
  :class:`RankItem` (highest first).
* :func:`compile_deal` turns a dealing pattern into a tuple of :class:`DealStep`.

Names are checked at compile time: a formula may only use the variables its
context defines (the ``names`` argument); an unknown name is a
:class:`~rulekit.errors.DSLError` at its position, with a close-match hint.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable, Collection, Mapping

from lark import Token, Tree

from rulekit.dsl.parser import caret, parse
from rulekit.errors import DSLError, RulekitError

#: Largest absolute value any formula may produce (points); beyond it the
#: formula is refused at run time rather than computing huge numbers.
LIMIT = 10 ** 12


class Env:
    """Variables for evaluating a formula, for one player (or for the hand).

    :param vars: name -> int/bool/str value for the current player.
    :param everyone: the :class:`Env` of each player, for aggregates
        (``max(points)``, ``count(tricks == 0)``); ``None`` outside per-player scoring.
    """

    __slots__ = ("vars", "everyone")

    def __init__(self, vars: dict, everyone: "list[Env] | None" = None):
        self.vars = vars
        self.everyone = everyone


class FormulaError(RulekitError):
    """A formula failed at run time (division by zero, value out of bounds)."""


@dataclass(frozen=True)
class Formula:
    """A compiled DSL expression.

    :ivar text: the source text.
    :ivar names: the variable names it reads.
    :ivar fn: ``fn(env) -> int | bool | str``.
    """

    text: str
    names: frozenset
    fn: Callable

    def __call__(self, env: Env):
        return self.fn(env)


def _check(v):
    if isinstance(v, int) and not isinstance(v, bool) and not -LIMIT <= v <= LIMIT:
        raise FormulaError(f"value {v} is out of bounds (|x| <= {LIMIT})")
    return v


def _div(a, b):
    if b == 0:
        raise FormulaError("division by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise FormulaError("division by zero")
    return a % b


_BINOPS = {
    "+": lambda a, b: _check(a + b), "-": lambda a, b: _check(a - b),
    "*": lambda a, b: _check(a * b), "/": _div, "%": _mod,
}
_CMPS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}

#: Functions a formula may call: name -> (min args, max args, description).
FUNCTIONS = {
    "min": "min(a, b, ...) of numbers; min(x) alone: the least x over all players",
    "max": "max(a, b, ...) of numbers; max(x) alone: the greatest x over all players",
    "sum": "sum(x): x added over all players",
    "count": "count(c): number of players for whom condition c holds",
    "abs": "abs(x): absolute value",
    "round_div": "round_div(a, b): a / b rounded to the nearest integer, halves away from zero",
}


def _round_div(a, b):
    if b == 0:
        raise FormulaError("division by zero")
    q, r = divmod(abs(a), abs(b))
    if 2 * r >= abs(b):
        q += 1
    return q if (a >= 0) == (b > 0) else -q


class _Compiler:
    def __init__(self, text: str, names: Collection[str], consts: Collection[str],
                 macros: Mapping[str, Formula]):
        self.text = text
        self.names = set(names)
        self.consts = set(consts)
        self.macros = macros
        self.used: set[str] = set()

    def error(self, tok, msg: str) -> DSLError:
        line = getattr(tok, "line", None) or getattr(getattr(tok, "meta", None), "line", 1) or 1
        col = getattr(tok, "column", None) or getattr(getattr(tok, "meta", None), "column", 1) or 1
        return DSLError(msg, line, col, caret(self.text, line, col))

    def build(self, t) -> Callable:
        kind = t.data
        ch = t.children
        if kind == "number":
            v = _check(int(ch[0]))
            return lambda env: v
        if kind == "true":
            return lambda env: True
        if kind == "false":
            return lambda env: False
        if kind == "var":
            return self.var(ch[0])
        if kind == "const":
            name = str(ch[0])
            if name not in self.consts:
                raise self.error(ch[0], f"unknown constant {name}" + self.hint(name, self.consts)
                                 + f" (expected one of {', '.join(sorted(self.consts)) or 'none here'})")
            return lambda env: name
        if kind == "neg":
            f = self.build(ch[0])
            return lambda env: -f(env)
        if kind == "binop":
            a, op, b = self.build(ch[0]), _BINOPS[str(ch[1])], self.build(ch[2])
            return lambda env: op(a(env), b(env))
        if kind == "compare":
            a, op, b = self.build(ch[0]), _CMPS[str(ch[1])], self.build(ch[2])
            return lambda env: op(a(env), b(env))
        if kind == "member":
            a = self.build(ch[0])
            options = []
            for tok in ch[1].children:
                if str(tok) not in self.consts:
                    raise self.error(tok, f"unknown constant {tok}" + self.hint(str(tok), self.consts))
                options.append(str(tok))
            opts = frozenset(options)
            return lambda env: a(env) in opts
        if kind == "and_":
            a, b = self.build(ch[0]), self.build(ch[1])
            return lambda env: bool(a(env)) and bool(b(env))
        if kind == "or_":
            a, b = self.build(ch[0]), self.build(ch[1])
            return lambda env: bool(a(env)) or bool(b(env))
        if kind == "not_":
            a = self.build(ch[0])
            return lambda env: not a(env)
        if kind == "cond":
            c, a, b = (self.build(x) for x in ch)
            return lambda env: a(env) if c(env) else b(env)
        if kind == "call":
            return self.call(ch[0], [self.build(x) for x in ch[1:]])
        raise self.error(t, f"unsupported expression {kind}")  # pragma: no cover

    def hint(self, name: str, known) -> str:
        close = difflib.get_close_matches(name, sorted(known), n=1)
        return f"; did you mean {close[0]}?" if close else ""

    def var(self, tok: Token) -> Callable:
        name = str(tok)
        if name in self.macros:
            self.used |= self.macros[name].names
            return self.macros[name].fn
        if name not in self.names:
            known = set(self.names) | set(self.macros)
            raise self.error(tok, f"unknown variable {name}" + self.hint(name, known)
                             + f" (expected one of {', '.join(sorted(known))})")
        self.used.add(name)
        return lambda env: env.vars[name]

    def call(self, tok: Token, args: list[Callable]) -> Callable:
        name = str(tok)
        n = len(args)
        if name not in FUNCTIONS:
            raise self.error(tok, f"unknown function {name}" + self.hint(name, FUNCTIONS)
                             + f" (expected one of {', '.join(FUNCTIONS)})")
        if name in ("min", "max") and n >= 2:
            agg = min if name == "min" else max
            return lambda env: agg(a(env) for a in args)
        if name == "abs" and n == 1:
            a = args[0]
            return lambda env: abs(a(env))
        if name == "round_div" and n == 2:
            a, b = args
            return lambda env: _round_div(a(env), b(env))
        if name in ("min", "max", "sum", "count") and n == 1:
            a = args[0]
            agg = {"min": min, "max": max, "sum": sum}.get(name)

            def each(env):
                if env.everyone is None:
                    raise FormulaError(f"{name}(...) over players is not available here")
                return [a(e) for e in env.everyone]
            if name == "count":
                return lambda env: sum(1 for v in each(env) if v)
            return lambda env: _check(agg(each(env)))
        raise self.error(tok, f"{name} takes a different number of arguments: {FUNCTIONS[name]}")


def compile_expr(text: str, names: Collection[str], consts: Collection[str] = (),
                 macros: Mapping[str, Formula] | None = None) -> Formula:
    """Compile a formula or condition.

    :param text: DSL text, e.g. ``"40 + 20 * strain + 100 * (level - 6)"``.
    :param names: variables the context defines.
    :param consts: upper-case constants allowed (``NT``, suit letters).
    :param macros: named formulas (a variant's ``let:``) usable as variables.
    :raises DSLError: syntax error or unknown name, with position in ``text``.
    """
    tree = parse(str(text), "expr")
    c = _Compiler(str(text), names, consts, macros or {})
    fn = c.build(tree) if isinstance(tree, Tree) else None
    return Formula(str(text), frozenset(c.used), fn)


# ------------------------------------------------------------------ rankings
@dataclass(frozen=True)
class RankItem:
    """One element of a ranking, highest first.

    :ivar kind: ``"rank"`` (a rank in the suit being ranked), ``"card"`` (one
        card), ``"relative"`` (rank of the trump or sister suit), ``"joker"``
        or ``"suit"`` (a suit letter, in suit orders).
    :ivar value: rank token, card text, joker text or suit letter.
    :ivar ref: ``"trump"`` or ``"sister"`` for relative items.
    :ivar line, column: position in the DSL text (1-based).
    """

    kind: str
    value: str
    ref: str = ""
    line: int = 1
    column: int = 1


def compile_ranking(text: str) -> list[RankItem]:
    """Parse a ranking string (highest first) into :class:`RankItem` values.

    :raises DSLError: on syntax errors.
    """
    tree = parse(str(text), "ranking")
    items = []
    for node in tree.children:
        toks = node.children
        t = toks[0]
        kind = {"card_item": "card", "relative_item": "relative", "rank_item": "rank",
                "joker_item": "joker", "suit_item": "suit"}[node.data]
        value = str(t)
        if kind == "rank" and value == "T":
            value = "10"
        if kind == "card" and value[0] == "T":
            value = "10" + value[1]
        ref = str(toks[1]) if kind == "relative" else ""
        if kind == "relative" and value == "T":
            value = "10"
        items.append(RankItem(kind, value, ref, t.line, t.column))
    return items


# ------------------------------------------------------------------ dealing
@dataclass(frozen=True)
class DealStep:
    """One step of a dealing pattern.

    :ivar zone: ``""`` for the players (each gets ``count`` cards in turn,
        clockwise from the eldest hand), else the zone name (``widow``...).
    :ivar count: cards per player (or in the zone) in one packet.
    :ivar repeat: how many rounds of this packet.
    :ivar face_up: for a zone: whether its cards are dealt face up.
    """

    zone: str
    count: int
    repeat: int = 1
    face_up: bool = False


def compile_deal(text: str) -> tuple[DealStep, ...]:
    """Parse a dealing pattern (``"3 3 3 1, widow 3 up"``) into steps.

    :raises DSLError: on syntax errors or a zero count.
    """
    tree = parse(str(text), "deal")
    steps = []
    for node in tree.children:
        if node.data == "to_players":
            for p in node.children[0].children:
                if p.data == "repeat":
                    cnt, rep = int(p.children[0]), int(p.children[1])
                    tok = p.children[0]
                else:
                    rep, cnt, tok = 1, int(p.children[0]), p.children[0]
                if cnt <= 0 or rep <= 0:
                    raise DSLError("a packet must have at least one card", tok.line, tok.column,
                                   caret(str(text), tok.line, tok.column))
                steps.append(DealStep("", cnt, rep))
        else:
            zone, cnt = str(node.children[0]), int(node.children[1])
            face = str(node.children[2]) if len(node.children) > 2 else "down"
            steps.append(DealStep(zone, cnt, 1, face == "up"))
    return tuple(steps)
