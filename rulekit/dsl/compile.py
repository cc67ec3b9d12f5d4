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
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Mapping

from lark import Token

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

    __slots__ = ("vars", "everyone", "memo")

    def __init__(self, vars: dict, everyone: "list[Env] | None" = None):
        self.vars = vars
        self.everyone = everyone
        self.memo: dict | None = None

    def once(self, formula: "Formula"):
        """``formula(self)``, evaluated once per environment and then remembered: a finished
        hand's environments are read-only and may be shared by every hand with the same
        outcome (the score cache), whose end of match and notes ask the same conditions.

        :raises FormulaError: as :meth:`Formula.__call__`.
        """
        memo = self.memo
        if memo is None:
            memo = self.memo = {}
        key = id(formula)   # (formulas live as long as their variant, as do its cached envs)
        if key in memo:
            return memo[key]
        out = memo[key] = formula(self)
        return out


class FormulaError(RulekitError):
    """A formula failed at run time (division by zero, value out of bounds).

    :ivar message: what went wrong (``division by zero``).
    :ivar line, column: 1-based position of the failing operation inside the formula's
        text (``None`` when unknown).
    :ivar formula: the :class:`Formula` whose text holds that operation (a ``let``
        formula used inside another is named itself), set as the error leaves it.

    ``str(e)`` is ``FILE:LINE:COL: path: message in formula '...'`` when the formula
    came from a variant file (its ``origin``), else ``message in formula '...'``.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.formula: Formula | None = None

    def __str__(self) -> str:
        f = self.formula
        if f is None:
            return self.message
        tail = f"{self.message} in formula {f.text!r}"
        if f.origin is None:
            return tail
        return f"{f.origin(self.line or 1, self.column or 1)}: {tail}"


def _tag(fn: Callable, line: int, column: int) -> Callable:
    """``fn`` that marks a :class:`FormulaError` it raises with (line, column) in the formula,
    unless an operation nested deeper already did (the innermost position wins)."""
    def tagged(env):
        try:
            return fn(env)
        except FormulaError as e:
            if e.line is None:
                e.line, e.column = line, column
            raise
    return tagged


@dataclass(frozen=True)
class Formula:
    """A compiled DSL expression.

    :ivar text: the source text.
    :ivar names: the variable names it reads.
    :ivar fn: ``fn(env) -> int | bool | str``.
    :ivar type: what it yields: ``"num"`` (a number), ``"bool"`` (a condition),
        ``"const"`` (a constant such as ``H`` or ``NT``) or ``"any"``.
    :ivar origin: where the text comes from, for run-time errors: a callable
        ``origin(line, column) -> "FILE:LINE:COL: path"`` mapping a position inside the
        text to the file (set by the variant compiler), or ``None``.

    :raises FormulaError: when called, for a division by zero or a value out of bounds,
        naming this formula (or the ``let`` formula it uses that failed) and the position.
    """

    text: str
    names: frozenset
    fn: Callable
    type: str = "any"
    origin: Callable | None = field(default=None, compare=False, repr=False)

    def __call__(self, env: Env):
        try:
            return self.fn(env)
        except FormulaError as e:
            if e.formula is None:
                e.formula = self
            raise


#: Readable names of formula types, for messages.
TYPE_NAMES = {"num": "a number", "bool": "a condition", "const": "a constant", "any": "a value"}

#: Deepest nesting of operations a formula may have (``a + b + c`` nests two); the
#: compiled closures recurse this deep when evaluated.
MAX_DEPTH = 200


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
    def __init__(self, text: str, names, consts: Collection[str],
                 macros: Mapping[str, Formula], notes: Mapping[str, str], ignore: Collection[str]):
        self.text = text
        self.types = dict(names) if isinstance(names, Mapping) else {n: "any" for n in names}
        self.consts = set(consts)
        self.macros = macros
        self.notes = notes
        self.ignore = set(ignore)
        self.used: set[str] = set()
        self.depth = 0

    def error(self, tok, msg: str) -> DSLError:
        line, col = _where(tok)
        return DSLError(msg, line, col, caret(self.text, line, col))

    def build(self, t) -> tuple[Callable, str]:
        """Compile node ``t`` to ``(fn, type)``."""
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise self.error(t, f"the formula nests more than {MAX_DEPTH} operations (expected a shorter formula)")
            return self._build(t)
        finally:
            self.depth -= 1

    def _build(self, t) -> tuple[Callable, str]:
        kind = t.data
        ch = t.children
        if kind == "number":
            v = int(ch[0])
            if v > LIMIT:
                raise self.error(ch[0], f"the number {_short(ch[0])} is too large (expected at most {LIMIT})")
            return (lambda env: v), "num"
        if kind == "true":
            return (lambda env: True), "bool"
        if kind == "false":
            return (lambda env: False), "bool"
        if kind == "var":
            return self.var(ch[0])
        if kind == "const":
            name = str(ch[0])
            if name not in self.consts:
                raise self.error(ch[0], f"unknown constant {name}" + self.hint(name, self.consts)
                                 + f" (expected {_one_of(self.consts)})")
            return (lambda env: name), "const"
        if kind == "neg":
            f, ty = self.build(ch[0])
            self.need_number(ch[0], ty, "-")
            return (lambda env: -f(env)), "num"
        if kind == "binop":
            (a, ta), op, (b, tb) = self.build(ch[0]), str(ch[1]), self.build(ch[2])
            self.need_number(ch[0], ta, op)
            self.need_number(ch[2], tb, op)
            if op in ("/", "%") and ch[2].data == "number" and int(ch[2].children[0]) == 0:
                raise self.error(ch[2], "division by zero")
            fop = _BINOPS[op]
            return _tag(lambda env: fop(a(env), b(env)), *_where(ch[1])), "num"
        if kind == "compare":
            (a, ta), op, (b, tb) = self.build(ch[0]), str(ch[1]), self.build(ch[2])
            if op in ("==", "!="):
                if {ta, tb} == {"const", "num"} or {ta, tb} == {"const", "bool"}:
                    raise self.error(ch[1], f"{op} compares {TYPE_NAMES[ta]} with {TYPE_NAMES[tb]} "
                                     f"(expected two numbers or two constants)")
            else:
                self.need_number(ch[0], ta, op)
                self.need_number(ch[2], tb, op)
            fop = _CMPS[op]
            return (lambda env: fop(a(env), b(env))), "bool"
        if kind == "member":
            a, ta = self.build(ch[0])
            if ta in ("num", "bool"):
                raise self.error(ch[0], f"`in [...]` tests a constant, but this is {TYPE_NAMES[ta]} "
                                 f"(expected e.g. trump in [H, NT])")
            options = []
            for tok in ch[1].children:
                if str(tok) not in self.consts:
                    raise self.error(tok, f"unknown constant {tok}" + self.hint(str(tok), self.consts)
                                     + f" (expected {_one_of(self.consts)})")
                options.append(str(tok))
            opts = frozenset(options)
            return (lambda env: a(env) in opts), "bool"
        if kind in ("and_", "or_", "not_"):
            parts = [self.build(x) for x in ch]
            for x, (_f, ty) in zip(ch, parts):
                self.need_condition(x, ty, {"and_": "and", "or_": "or", "not_": "not"}[kind])
            if kind == "not_":
                a = parts[0][0]
                return (lambda env: not a(env)), "bool"
            a, b = parts[0][0], parts[1][0]
            if kind == "and_":
                return (lambda env: bool(a(env)) and bool(b(env))), "bool"
            return (lambda env: bool(a(env)) or bool(b(env))), "bool"
        if kind == "cond":
            (c, tc), (a, ta), (b, tb) = (self.build(x) for x in ch)
            self.need_condition(ch[0], tc, "if")
            if "const" in (ta, tb) and {ta, tb} & {"num", "bool"}:
                raise self.error(ch[2], f"the branches give {TYPE_NAMES[ta]} and {TYPE_NAMES[tb]} "
                                 f"(expected the same kind after then and else)")
            ty = ta if ta == tb else ("num" if {ta, tb} <= {"num", "bool"} else "any")
            return (lambda env: a(env) if c(env) else b(env)), ty
        if kind == "call":
            args = [self.build(x) for x in ch[1:]]
            for x, (_f, ty) in zip(ch[1:], args):
                if ty == "const":
                    raise self.error(x, f"{ch[0]}(...) needs numbers, not {TYPE_NAMES[ty]}")
            return _tag(self.call(ch[0], [f for f, _ty in args]), *_where(ch[0])), "num"
        raise self.error(t, f"unsupported expression {kind}")  # pragma: no cover

    def need_number(self, node, ty: str, op: str):
        if ty == "const":
            raise self.error(node, f"{op} needs numbers, but this is {TYPE_NAMES[ty]} "
                             f"(compare constants with == or in [...])")

    def need_condition(self, node, ty: str, op: str):
        if ty == "const":
            raise self.error(node, f"{op} needs a condition, but this is {TYPE_NAMES[ty]} "
                             f"(expected e.g. trump == H)")

    def hint(self, name: str, known) -> str:
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.5)
        if not close and name.lower() != name:
            close = [k for k in known if k.lower() == name.lower()][:1]
        return f"; did you mean {close[0]}?" if close else ""

    def var(self, tok: Token) -> tuple[Callable, str]:
        name = str(tok)
        if name in self.macros:
            m = self.macros[name]
            self.used |= m.names
            return m.__call__, m.type   # through Formula.__call__: its errors name the let formula
        if name in self.ignore:
            return (lambda env: 0), "any"
        if name not in self.types:
            known = set(self.types) | set(self.macros)
            if name in self.notes:
                raise self.error(tok, f"unknown variable {name}: {self.notes[name]}")
            if name.upper() in self.consts:
                raise self.error(tok, f"unknown variable {name}; constants are written in capitals: "
                                 f"did you mean {name.upper()}?")
            raise self.error(tok, f"unknown variable {name}" + self.hint(name, known)
                             + f" (expected {_one_of(known)})")
        self.used.add(name)
        return (lambda env: env.vars[name]), self.types[name]

    def call(self, tok: Token, args: list[Callable]) -> Callable:
        name = str(tok)
        n = len(args)
        if name not in FUNCTIONS:
            raise self.error(tok, f"unknown function {name}" + self.hint(name, FUNCTIONS)
                             + f" (expected {_one_of(FUNCTIONS)})")
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
            fold: Callable[[list], Any] = min if name == "min" else max if name == "max" else sum

            def each(env):
                if env.everyone is None:
                    raise FormulaError(f"{name}(...) over players is not available here")
                return [a(e) for e in env.everyone]
            if name == "count":
                return lambda env: sum(1 for v in each(env) if v)
            return lambda env: _check(fold(each(env)))
        raise self.error(tok, f"{name} takes a different number of arguments (found {n}): {FUNCTIONS[name]}")


def _where(tok) -> tuple[int, int]:
    """1-based (line, column) of a token or tree node."""
    if isinstance(tok, Token):
        return tok.line or 1, tok.column or 1
    meta = getattr(tok, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        return meta.line or 1, meta.column or 1
    for child in getattr(tok, "children", ()):
        return _where(child)
    return 1, 1


def _short(tok) -> str:
    s = str(tok)
    return s if len(s) <= 20 else f"{s[:6]}...{s[-4:]} ({len(s)} digits)"


def _one_of(names) -> str:
    names = sorted(names)
    if not names:
        return "none here"
    return ("one of " if len(names) > 1 else "") + ", ".join(names)


def compile_expr(text: str, names: Collection[str] | Mapping[str, str], consts: Collection[str] = (),
                 macros: Mapping[str, Formula] | None = None, expect: str | None = None,
                 notes: Mapping[str, str] | None = None, ignore: Collection[str] = ()) -> Formula:
    """Compile a formula or condition.

    :param text: DSL text, e.g. ``"40 + 20 * strain + 100 * (level - 6)"``.
    :param names: variables the context defines; a mapping gives each one's type
        (``"num"``, ``"bool"``, ``"const"``, ``"any"``) so that, e.g., ``trump + 1``
        is refused at load time.
    :param consts: upper-case constants allowed (``NT``, suit letters).
    :param macros: named formulas (a variant's ``let:``) usable as variables.
    :param expect: ``"num"`` for an entry (points), ``"bool"`` for a condition, or ``None``.
    :param notes: name -> why it is not available here (used in the message).
    :param ignore: names accepted without checking (already reported elsewhere).
    :raises DSLError: syntax error, unknown name or a value of the wrong kind,
        with position in ``text``.
    """
    text = str(text)
    tree = parse(text, "expr")
    c = _Compiler(text, names, consts, macros or {}, notes or {}, ignore)
    try:
        fn, ty = c.build(tree)
    except RecursionError:  # pragma: no cover - MAX_DEPTH stops well before
        raise DSLError(f"the formula nests more than {MAX_DEPTH} operations (expected a shorter formula)",
                       1, 1, caret(text, 1, 1)) from None
    if expect == "num" and ty in ("bool", "const"):
        raise c.error(tree, f"this gives {TYPE_NAMES[ty]}, but points are expected here "
                      f"(expected a number, e.g. 10 * tricks or if made then 10 else 0)")
    if expect == "bool" and ty == "const":
        raise c.error(tree, f"this gives {TYPE_NAMES[ty]}, but a condition is expected here "
                      f"(expected e.g. trump == H)")
    if expect == "bool" and ty == "num":
        raise c.error(tree, "this gives a number, but a condition is expected here "
                      "(expected a comparison such as tricks == 0)")
    return Formula(text, frozenset(c.used), fn, ty)


# ------------------------------------------------------------------ rankings
@dataclass(frozen=True)
class RankItem:
    """One element of a ranking, highest first.

    :ivar kind: ``"rank"`` (a rank in the suit being ranked), ``"card"`` (one
        card), ``"relative"`` (rank of the trump or sister suit), ``"joker"``
        (a suitless card: a joker, a Wizard, the Excuse) or ``"suit"`` (a suit letter, in suit
        orders).  :func:`compile_ranking` reads the kind from the word's shape in the usual
        pack (ranks 2 to 13 and J Q K A, suits S H D C, jokers JK); the variant compiler reads
        it again from the variant's own pack (:func:`word_kind`).
    :ivar value: rank token, card text, suitless card's token or suit letter.
    :ivar ref: ``"trump"`` or ``"sister"`` for relative items.
    :ivar line, column: position in the DSL text (1-based).
    """

    kind: str
    value: str
    ref: str = ""
    line: int = 1
    column: int = 1


_USUAL_RANK = re.compile(r"^(1[0-3]|[2-9TJQKA])$")
_USUAL_CARD = re.compile(r"^(1[0-3]|[2-9TJQKA])[SHDC]$")
_USUAL_JOKER = re.compile(r"^JK[12]?$")


def word_kind(word: str, ranks=None, cards=None, specials=None, suits=None, want: str = "card") -> str:
    """The kind of a ranking word (see :class:`RankItem`) in a pack of these ``ranks``,
    card texts ``cards``, suitless tokens ``specials`` and ``suits`` (``None``: the usual
    pack's); ``want`` ``"suit"`` reads a word that is both a rank and a suit letter (a
    knight ``C`` beside clubs ``C``) as the suit (cut orders of suits), else as the rank."""
    if ranks is None:
        if _USUAL_JOKER.match(word):
            return "joker"
        if _USUAL_CARD.match(word):
            return "card"
        if _USUAL_RANK.match(word):
            return "rank"
        return "suit"
    if want == "suit" and word in suits:
        return "suit"
    if word in specials:
        return "joker"
    if word in ranks:
        return "rank"
    if word in cards or (len(word) > 1 and (word[-1] in suits or word[:-1] in ranks)):
        return "card"
    if word in suits:
        return "suit"
    if word.isdigit() or len(word) == 1:   # shaped like a rank: an unknown one
        return "rank"
    return "card" if word[-1].isalpha() and not word.isalpha() else "unknown"


def compile_ranking(text: str) -> list[RankItem]:
    """Parse a ranking string (highest first) into :class:`RankItem` values.

    :raises DSLError: on syntax errors (a word in small letters among them: cards and ranks
        are written in capitals).
    """
    text = str(text)
    tree = parse(text, "ranking")
    items = []
    for node in tree.children:
        toks = node.children
        t = toks[0]
        assert isinstance(t, Token)   # each item rule starts with its token
        value = str(t)
        if value != value.upper():
            raise DSLError(f"unexpected {value!r}; cards and ranks are written in capitals: did you mean "
                           f"{value.upper()}?", t.line or 1, t.column or 1, caret(text, t.line or 1, t.column or 1))
        if node.data == "relative_item":
            kind, ref = "relative", str(toks[1])
        else:
            kind, ref = word_kind(value), ""
        if kind in ("rank", "relative") and value == "T":
            value = "10"
        if kind == "card" and value[0] == "T":
            value = "10" + value[1:]
        items.append(RankItem(kind, value, ref, t.line or 1, t.column or 1))
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

    :raises DSLError: on syntax errors or a zero count (at the count).
    """
    text = str(text)
    tree = parse(text, "deal")
    steps = []

    def positive(tok, what):
        n = int(tok)
        if n <= 0:
            raise DSLError(f"{what} must be at least 1 (found {n})", tok.line, tok.column,
                           caret(text, tok.line, tok.column))
        return n
    for node in tree.children:
        if node.data == "to_players":
            for p in node.children[0].children:
                if p.data == "repeat":
                    cnt = positive(p.children[0], "a packet's card count")
                    rep = positive(p.children[1], "the number of rounds after x")
                else:
                    rep, cnt = 1, positive(p.children[0], "a packet's card count")
                steps.append(DealStep("", cnt, rep))
        else:
            zone, cnt = str(node.children[0]), positive(node.children[1], f"the {node.children[0]}'s card count")
            face = str(node.children[2]) if len(node.children) > 2 else "down"
            steps.append(DealStep(zone, cnt, 1, face == "up"))
    return tuple(steps)
