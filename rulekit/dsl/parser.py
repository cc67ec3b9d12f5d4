"""Parse DSL strings with the grammar in ``grammar/rulekit.lark``.

One LALR parser with three start rules (``expr``, ``ranking``, ``deal``) is
built once per process.  Errors become :class:`~rulekit.errors.DSLError` with
the 1-based line and column inside the DSL text, what was found, what was
expected and a caret excerpt.
"""
from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulekit.errors import DSLError

START_RULES = ("expr", "ranking", "deal")

# Friendlier names for terminals in "expected ..." lists.
_TERMINAL_NAMES = {
    "INT": "a number", "NAME": "a variable name", "CONST": "a constant such as NT or H",
    "CARD": "a card such as AS", "RANK": "a rank such as A or 10", "SUIT": "a suit letter S H D C",
    "JOKER": "JK", "SUITREF": "trump or sister", "ZONE": "widow, talon, kitty or aside",
    "FACING": "up or down", "CMP": "a comparison", "ADDOP": "+ or -", "MULOP": "* / or %",
    "LPAR": "(", "RPAR": ")", "COMMA": ",", "LSQB": "[", "RSQB": "]", "COLON": ":",
    "MINUS": "-", "IF": "if", "THEN": "then", "ELSE": "else", "AND": "and", "OR": "or",
    "NOT": "not", "IN": "in", "TRUE": "true", "FALSE": "false", "X": "x",
}


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The shared LALR parser (built once, grammar analysis cached by lark)."""
    text = files("rulekit.grammar").joinpath("rulekit.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="contextual", start=list(START_RULES),
                propagate_positions=True, maybe_placeholders=False)


def _expected(names) -> str:
    pretty = sorted({_TERMINAL_NAMES.get(n, n.lower()) for n in names})
    return ", ".join(pretty)


def caret(text: str, line: int, column: int) -> str:
    """Return the ``line`` of ``text`` with a caret under ``column`` (both 1-based)."""
    lines = text.splitlines() or [""]
    src = lines[min(max(line, 1), len(lines)) - 1]
    return f"    {src}\n    {' ' * max(column - 1, 0)}^"


def parse(text: str, start: str) -> Tree:
    """Parse ``text`` from start rule ``start`` (one of :data:`START_RULES`).

    :raises DSLError: with position, found token and expected set.
    """
    try:
        return parser().parse(text, start=start)
    except UnexpectedInput as e:
        raise _to_dsl_error(text, e) from None


def _to_dsl_error(text: str, e: UnexpectedInput) -> DSLError:
    if isinstance(e, UnexpectedEOF):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        msg = f"unexpected end of text (expected {_expected(e.expected)})"
    elif isinstance(e, UnexpectedToken):
        line, col = e.line, e.column
        if e.token.type == "$END":
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
            msg = f"unexpected end of text (expected {_expected(e.expected)})"
        else:
            msg = f"unexpected {e.token!s:.20} (expected {_expected(e.accepts or e.expected)})"
    elif isinstance(e, UnexpectedCharacters):
        line, col = e.line, e.column
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "end"
        allowed = e.allowed or set()
        msg = f"unexpected character {ch!r}" + (f" (expected {_expected(allowed)})" if allowed else "")
    else:  # pragma: no cover - lark has no other kinds today
        line, col, msg = 1, 1, str(e)
    return DSLError(msg, line, col, caret(text, line, col))
