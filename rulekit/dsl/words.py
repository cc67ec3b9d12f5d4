"""Formulas of the rulekit DSL said in English, for the rulebook (``rulekit explain``) and for
the phase kinds' own sentences (a condition such as ``end_if``).

>>> formula_words("10 * tricks")
'10 times the tricks taken'
"""
from __future__ import annotations

from collections.abc import Mapping

from lark import Token, Tree

from rulekit.cards import SUIT_NAMES
from rulekit.dsl.parser import parse
from rulekit.errors import DSLError, RulekitError

#: How a formula variable reads in a sentence.
VAR_WORDS = {
    "tricks": "the tricks taken", "total_tricks": "the number of tricks in the hand", "points": "the card points taken",
    "players": "the number of players", "level": "the bid level", "strain": "the strain's rank",
    "declarer_tricks": "the declarer's tricks", "declarer_points": "the declarer's card points",
    "is_declarer": "this player is the declarer", "has_contract": "there is a contract",
    "doubled": "the contract is doubled", "redoubled": "the contract is redoubled",
    "vulnerable": "vulnerable", "trump": "trumps", "game_score": "the game score",
    "side_tricks": "the tricks of the declarer and his partner", "has_partner": "the declarer has a partner",
    "null": "the contract is a null", "is_partner": "this player is the declarer's partner",
    "is_defender": "this player is a defender", "declarer_vulnerable": "the declarer is vulnerable",
    "pile_score": "the points of the pile's thresholds he reached",
    "total": "his running total before this hand", "declarer_total": "the declarer's running total before this hand",
    "highest_other_total": "the highest running total of the others before this hand",
    "lowest_other_total": "the lowest running total of the others before this hand",
    "hand_game": "the declarer plays hand",
    "deal_number": "the number of this deal (from 1)",
    "dealer": "the dealer's seat", "is_dealer": "this player dealt",
    "in_party": "this player is in the declaring party", "party_size": "the number of players in the declaring party",
    "party_tricks": "the declaring party's tricks", "party_points": "the declaring party's card points",
    "matadors": "the declarer's matadors (with or without)", "with_matadors": "the declarer holds the top trump",
    "open_game": "the declarer's hand is laid open",
}
#: Variables that are true or false, said as a sentence and as its negation.
_NOT = {"is_declarer": "this player is not the declarer", "has_contract": "there is no contract",
        "doubled": "the contract is not doubled", "redoubled": "the contract is not redoubled",
        "null": "the contract is not a null", "has_partner": "the declarer has no partner",
        "is_partner": "this player is not the declarer's partner", "is_defender": "this player is not a defender",
        "declarer_vulnerable": "the declarer is not vulnerable", "vulnerable": "not vulnerable",
        "is_dealer": "this player did not deal", "hand_game": "the declarer took the widow", "in_party": "this player is not in the declaring party",
        "with_matadors": "the declarer lacks the top trump", "open_game": "the declarer's hand is not laid open"}
#: Variables whose words are plural ("the tricks taken are ...").
PLURAL = {"tricks", "points", "declarer_tricks", "declarer_points", "trump", "side_tricks", "party_tricks",
          "party_points"}
#: Comparisons in words: (singular, plural); ``==`` / ``!=`` against a formula read "equals".
_CMP = {"==": ("is", "are"), "!=": ("is not", "are not"), ">=": ("is at least", "are at least"),
        "<=": ("is at most", "are at most"), ">": ("is more than", "are more than"),
        "<": ("is less than", "are less than")}
_EQUALS = {"==": ("equals", "equal"), "!=": ("does not equal", "do not equal")}
_OPS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
_CALLS = {"max": "the larger of", "min": "the smaller of", "abs": "the absolute value of", "sum": "the sum of",
          "count": "the number of players for whom"}


def _data(t) -> str:
    return getattr(t, "data", "")


def _plural(t) -> bool:
    """Whether the words of node ``t`` are a plural subject (``the tricks taken``)."""
    d = _data(t)
    if d == "var":
        return str(t.children[0]) in PLURAL
    if d == "call" and len(t.children) == 2 and str(t.children[0]) in ("max", "min"):
        return _plural(t.children[1])
    return False


def _has_cond(t) -> bool:
    return _data(t) == "cond" or any(_has_cond(x) for x in getattr(t, "children", ()))


def _inline(t) -> str:
    """Words of a sub-expression that sits inside another: a conditional is bracketed."""
    w = _words(t)
    return f"({w})" if _data(t) == "cond" else w


def _words(t) -> str:
    """English for one parse tree node of the expression grammar (grammar/rulekit.lark).

    Named values (``scoring.let``, tallies, a contract's own variables) are in bold, so a name
    such as ``times`` never reads as an operator; a conditional reads ``X if C, otherwise Y``
    and is bracketed wherever it is part of a larger formula."""
    d = _data(t)
    if not d:
        return str(t)
    c = t.children
    if d == "number":
        return str(c[0])
    if d in ("true", "false"):
        return d
    if d == "var":
        name = str(c[0])
        if name.startswith("promised_") and name not in VAR_WORDS:   # a contract's promise
            return f"the declarer promised {name[9:]}"
        return VAR_WORDS.get(name, f"**{name}**")
    if d == "const":
        return _strain_name(str(c[0]))
    if d == "neg":
        w = _inline(c[0])
        return f"minus ({w})" if _data(c[0]) == "binop" else f"minus {w}"
    if d == "binop":
        op = str(c[1])
        left, right = _inline(c[0]), _inline(c[2])
        lop = str(c[0].children[1]) if _data(c[0]) == "binop" else ""
        rop = str(c[2].children[1]) if _data(c[2]) == "binop" else ""
        if op in "*/%":  # a sum inside a product keeps its brackets
            left = f"({left})" if lop and lop in "+-" else left
            right = f"({right})" if rop and (rop in "+-" or op != "*") else right
        elif op == "-" and rop in ("+", "-"):
            right = f"({right})"
        word = _OPS.get(op, op)
        if op == "*" and _data(c[0]) != "number" and _data(c[0].children[0] if _data(c[0]) == "neg" else c[0]) != "number":  # "10 times X", but "X multiplied by **times**"
            word = "multiplied by"
        return f"{left} {word} {right}"
    if d == "compare":
        op = str(c[1])
        if _data(c[0]) == "var" and str(c[0].children[0]) in _NOT and op in ("==", "!=") \
                and _data(c[2]) == "number" and str(c[2].children[0]) in ("0", "1"):  # `null == 1`
            yes = (str(c[2].children[0]) == "1") == (op == "==")
            name = str(c[0].children[0])
            return VAR_WORDS[name] if yes else _NOT[name]
        words = _EQUALS[op] if op in _EQUALS and _data(c[2]) not in ("number", "const", "true", "false") \
            else _CMP.get(op, (op, op))
        return f"{_inline(c[0])} {words[_plural(c[0])]} {_inline(c[2])}"
    if d == "member":
        names = [_strain_name(str(x)) for x in c[1].children]
        return f"{_inline(c[0])} {'are' if _plural(c[0]) else 'is'} {' or '.join(names)}"
    if d == "and_":
        return f"{_inline(c[0])} and {_inline(c[1])}"
    if d == "or_":
        return f"{_inline(c[0])} or {_inline(c[1])}"
    if d == "not_":
        if _data(c[0]) == "var" and str(c[0].children[0]) in _NOT:
            return _NOT[str(c[0].children[0])]
        return f"not {_words(c[0])}" if _data(c[0]) == "var" else f"not ({_words(c[0])})"
    if d == "cond":  # a chain "if A: X; otherwise, if B: Y; otherwise: Z"
        parts = []
        while _data(t) == "cond":
            parts.append(f"if {_words(t.children[0])}: {_inline(t.children[1])}")
            t = t.children[2]
        return "; otherwise, ".join(parts) + f"; otherwise: {_inline(t)}"
    if d == "call" and len(c) == 2 and str(c[0]) in ("max", "min"):  # over all players
        most = "greatest" if str(c[0]) == "max" else "smallest"
        return f"the {most} {_words(c[1]).removeprefix('the ')} of any player"
    if d == "call" and len(c) == 2 and str(c[0]) == "sum":  # over all score columns
        return f"the sum of everyone's {_inline(c[1])}"
    if d == "call":  # several arguments: each sum or product in brackets
        args = " and ".join(f"({_words(x)})" if len(c) > 2 and _data(x) == "binop" else _inline(x) for x in c[1:])
        return f"{_CALLS.get(str(c[0]), str(c[0]))} {args}"
    return " ".join(_words(x) for x in c)


def _cases(t, depth: int = 0) -> list:
    """A conditional as a Markdown case list: ``- if C: X`` rows, a nested conditional as an
    indented list under its case, ``- otherwise: Y`` last."""
    pad = "  " * depth
    out: list[str] = []
    first = True
    while _data(t) == "cond":
        cond, then = t.children[0], t.children[1]
        head = f"{pad}- {'if' if first else 'otherwise, if'} {_words(cond)}:"
        out += [head] + _cases(then, depth + 1) if _data(then) == "cond" else [f"{head} {_words(then)}"]
        t, first = t.children[2], False
    out.append(f"{pad}- otherwise: {_words(t)}")
    return out


def formula_words(text: str) -> str:
    """A formula of the scoring DSL said in words, e.g. ``10 * tricks`` -> ``10 times the
    tricks taken``, ``if made then value else -value`` -> ``**value** if **made**, otherwise
    minus **value**``; the text itself when it does not parse."""
    try:
        return _words(parse(str(text), "expr"))
    except (DSLError, RulekitError):
        return str(text)


def formula_cases(text: str) -> list:
    """A formula whose top is a conditional, as the lines of a Markdown case list (see :func:`_cases`, each line ``- if C: X``, nested ones indented);
    ``[]`` for any other formula (say it with :func:`formula_words`) or text that does not parse."""
    try:
        tree = parse(str(text), "expr")
    except (DSLError, RulekitError):
        return []
    return _cases(tree) if _data(tree) == "cond" else []


def is_condition(text: str) -> bool:
    """Whether the formula is a condition (true or false: a comparison, ``and``/``or``/``not``,
    or a conditional choosing between conditions), e.g. ``declarer_tricks >= level``."""
    try:
        t = parse(str(text), "expr")
    except (DSLError, RulekitError):
        return False
    while _data(t) == "cond":
        t = t.children[1]
    return _data(t) in ("compare", "member", "and_", "or_", "not_")


def formula_line(head: str, text: str, pad: str = "") -> list:
    """Markdown lines saying ``head`` followed by the formula in words, with the formula in
    backticks: one bullet ``- head words (`text`).``, or, for nested conditionals, ``- head
    (`text`):`` and the indented case list under it."""
    cases = formula_cases(text)
    text = " ".join(str(text).split())  # a formula written over several lines shown on one
    if cases:
        return [f"{pad}- {head} (`{text}`):"] + [f"{pad}  {x}" for x in cases]
    return [f"{pad}- {head} {formula_words(text)} (`{text}`)."]


_FOLD_CMP = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b,
             "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}
_FOLD_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def _node(x):
    """A folded value back as a parse tree node (a number, ``true``/``false``), or the node."""
    if isinstance(x, Tree):
        return x
    if isinstance(x, bool):
        return Tree("true" if x else "false", [])
    return Tree("number", [Token("INT", str(x))]) if x >= 0 else Tree("neg", [_node(-x)])


def _conjuncts(t) -> list:
    return _conjuncts(t.children[0]) + _conjuncts(t.children[1]) if _data(t) == "and_" else [t]


def _bound(t) -> tuple | None:
    """``(variable, op, number)`` of a comparison ``x >= n`` or ``x <= n``, else ``None``."""
    if _data(t) != "compare":
        return None
    a, op, b = t.children
    if _data(a) == "var" and _data(b) == "number" and str(op) in (">=", "<="):
        return str(a.children[0]), str(op), int(b.children[0])
    return None


def _tighter(terms: list) -> list:
    """Conjuncts with ``x >= a and x >= b`` kept as the stricter one (the same for ``<=``)."""
    out: list = []
    for t in terms:
        k = _bound(t)
        old = next((i for i, u in enumerate(out) if k is not None and (_bound(u) or ())[:2] == k[:2]), None)
        if old is None:
            out.append(t)
        elif k is not None and (k[2] > (_bound(out[old]) or k)[2]) == (k[1] == ">="):
            out[old] = t
    return out


def _fold(t, known: Mapping, lets: Mapping, depth: int = 0):
    """Node ``t`` with the variables of ``known`` replaced by their values and what they decide
    worked out: a constant (``int``/``bool``) when the whole node is one, else a parse tree. A
    let (``lets``: name -> formula text) that folds to a constant is replaced by it."""
    d = _data(t)
    c: list = list(getattr(t, "children", ()))
    if d == "number":
        return int(c[0])
    if d in ("true", "false"):
        return d == "true"
    if d == "var":
        name = str(c[0])
        if name in known:
            return known[name]
        if name in lets and depth < 16:
            x = _fold(parse(str(lets[name]), "expr"), known, lets, depth + 1)
            if not isinstance(x, Tree):
                return x
        return t
    f = [_fold(x, known, lets, depth) for x in c if isinstance(x, Tree)]
    const = all(not isinstance(x, Tree) for x in f)
    if d == "not_":
        return (not f[0]) if const else Tree(d, f)
    if d in ("and_", "or_"):
        stop = d == "or_"   # (the value that decides: true for or, false for and)
        if any(not isinstance(x, Tree) and bool(x) is stop for x in f):
            return stop
        rest = [x for x in f if isinstance(x, Tree)]
        if not rest:
            return not stop
        if len(rest) == 1:
            return rest[0]
        if d == "and_":
            terms = _tighter([y for x in rest for y in _conjuncts(x)])
            out = terms[0]
            for y in terms[1:]:
                out = Tree("and_", [out, y])
            return out
        return Tree(d, rest)
    if d == "cond":
        if not isinstance(f[0], Tree):
            return f[1] if f[0] else f[2]
        return Tree(d, [_node(x) for x in f])
    if d == "compare" and const:
        return _FOLD_CMP[str(c[1])](f[0], f[1])
    if d == "binop" and const and str(c[1]) in _FOLD_OPS:
        return _FOLD_OPS[str(c[1])](int(f[0]), int(f[1]))
    if d == "neg" and const:
        return -int(f[0])
    if d in ("compare", "binop"):
        return Tree(d, [_node(f[0]), c[1], _node(f[1])])
    return t


def folded_words(text: str, known: Mapping, lets: Mapping | None = None) -> str | None:
    """A condition said in words once the variables of ``known`` (name -> value) are fixed: what
    a contract needs, from the scoring's ``made`` with the contract's own attributes (``null``,
    ``promised_schneider``...) known, e.g. ``won`` -> ``the declarer's card points are at least
    90 and not **overbid**``.  A formula that is only the name of a let (``lets``: name ->
    formula text) is said by that let's formula; ``None`` when the condition is decided by
    ``known`` alone (true or false whatever the play) or the text does not parse."""
    lets = lets or {}
    try:
        t = _fold(parse(str(text), "expr"), known, lets)
        seen: set = set()
        while _data(t) == "var" and str(t.children[0]) in lets and str(t.children[0]) not in seen:
            seen.add(str(t.children[0]))
            t = _fold(parse(str(lets[str(t.children[0])]), "expr"), known, lets)
    except (DSLError, RulekitError, ArithmeticError, TypeError, ValueError):
        return None
    return _words(t) if isinstance(t, Tree) else None


def _strain_name(s: str) -> str:
    return "no trump" if s == "NT" else SUIT_NAMES.get(s, s)


__all__ = ["PLURAL", "VAR_WORDS", "folded_words", "formula_cases", "formula_line", "formula_words", "is_condition"]
