"""Parse DSL strings with the grammar in ``grammar/rulekit.lark``.

One LALR parser with three start rules (``expr``, ``ranking``, ``deal``) is
built once per process.  Errors become :class:`~rulekit.errors.DSLError` with
the 1-based line and column inside the DSL text, what was found, what was
expected, a hint for common mistakes (``=`` for ``==``, commas in a ranking,
lower-case cards) and a caret excerpt.
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from importlib.resources import files

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulekit.errors import DSLError

START_RULES = ("expr", "ranking", "deal")

#: Longest DSL string accepted (characters); longer text is refused before parsing.
MAX_LENGTH = 4000

# Friendlier names for terminals in "expected ..." lists, in the order they are listed.
_TERMINAL_NAMES = {
    "INT": "a number", "NAME": "a variable", "CONST": "a constant such as NT or H",
    "CARD": "a card such as AS", "RANK": "a rank such as A or 10", "SUIT": "a suit letter (S H D C)",
    "JOKER": "JK", "SUITREF": "trump or sister", "ZONE": "a zone (widow, talon, kitty, aside or stock)",
    "FACING": "up or down", "CMP": "a comparison (== != < <= > >=)", "ADDOP": "+ or -",
    "MULOP": "* / or %", "LPAR": '"("', "RPAR": '")"', "COMMA": '","', "LSQB": '"["',
    "RSQB": '"]"', "COLON": '":"', "MINUS": '"-"', "IF": '"if"', "THEN": '"then"', "ELSE": '"else"',
    "AND": '"and"', "OR": '"or"', "NOT": '"not"', "IN": '"in"', "TRUE": "true", "FALSE": "false",
    "X": '"x"', "$END": "end of text",
}
_ORDER = list(_TERMINAL_NAMES)

# What each start rule is, for "expected" messages about empty text.
_WHAT = {"expr": "a formula", "ranking": "a ranking", "deal": "a dealing pattern"}


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The shared LALR parser (built once, grammar analysis cached by lark)."""
    text = files("rulekit.grammar").joinpath("rulekit.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="contextual", start=list(START_RULES),
                propagate_positions=True, maybe_placeholders=False)


def expected_text(names) -> str:
    """Terminal names as a readable alternative: ``a number, "(" or end of text``."""
    names = {n for n in names if not n.startswith("__")}
    pretty = []
    for n in sorted(names, key=lambda n: (_ORDER.index(n) if n in _ORDER else len(_ORDER), n)):
        p = _TERMINAL_NAMES.get(n, f'"{n.lower()}"')
        if p not in pretty:
            pretty.append(p)
    if not pretty:
        return "something else"
    return pretty[0] if len(pretty) == 1 else ", ".join(pretty[:-1]) + " or " + pretty[-1]


def caret(text: str, line: int, column: int) -> str:
    """Return the ``line`` of ``text`` with a caret under ``column`` (both 1-based)."""
    lines = text.splitlines() or [""]
    src = lines[min(max(line, 1), len(lines)) - 1]
    return f"    {src}\n    {' ' * max(column - 1, 0)}^"


def parse(text: str, start: str) -> Tree:
    """Parse ``text`` from start rule ``start`` (one of :data:`START_RULES`).

    :raises DSLError: with position, found token, expected set and a hint.
    """
    if not isinstance(text, str):
        raise DSLError(f"expected text ({_WHAT.get(start, start)}), found {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise DSLError(f"the text is {len(text)} characters long (expected at most {MAX_LENGTH})",
                       1, 1, caret(text, 1, 1))
    try:
        return parser().parse(text, start=start)
    except UnexpectedInput as e:
        raise _to_dsl_error(text, start, e) from None


def _end_of(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank character of ``text``."""
    lines = text.rstrip().split("\n") or [""]
    return len(lines), len(lines[-1]) + 1


def _to_dsl_error(text: str, start: str, e: UnexpectedInput) -> DSLError:
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        line, col = _end_of(text)
        expected = set(getattr(e, "accepts", None) or getattr(e, "expected", None) or ())
        if not text.strip():
            msg = f"empty text (expected {_WHAT.get(start, start)})"
        else:
            msg = f"unexpected end of text (expected {expected_text(expected)})"
        hint = _hint_end(text, start, expected)
    elif isinstance(e, UnexpectedToken):
        line, col = e.line, e.column
        expected = set(e.accepts or e.expected or ())
        msg = f"unexpected {_show(str(e.token))} (expected {expected_text(expected)})"
        hint = _hint_token(start, e.token, expected)
    elif isinstance(e, UnexpectedCharacters):
        line, col = e.line, e.column
        pos = len(text) if e.pos_in_stream is None else e.pos_in_stream   # (lark always sets it here)
        ch = text[pos] if pos < len(text) else ""
        allowed = set(e.allowed or ())
        msg = f"unexpected character {_show(ch)}" + (f" (expected {expected_text(allowed)})" if allowed else "")
        hint = _hint_char(text, pos, start)
    else:  # pragma: no cover - lark has no other kinds today
        line, col, msg, hint = 1, 1, str(e), ""
    if hint:
        msg += f"; {hint}"
    return DSLError(msg, line, col, caret(text, line, col))


def _show(s: str) -> str:
    """A found token or character, quoted and shortened."""
    if s == "":
        return "end of text"
    if len(s) > 20:
        s = s[:17] + "..."
    return repr(s)


_ZONES = ("widow", "talon", "kitty", "aside", "stock")
_KEYWORDS = ("if", "then", "else", "and", "or", "not", "in", "true", "false")
_CARDISH = re.compile(r"^(1[0-3]|[2-9tjqka])[shdc]?$|^jk[12]?$", re.I)


def _hint_token(start: str, tok, expected: set) -> str:
    """A fix-it hint for an unexpected token, or ``""``."""
    value = str(tok)
    if start == "ranking":
        if tok.type == "COMMA":
            return "ranking items are separated by spaces, not commas"
        if _CARDISH.match(value) and value != value.upper():
            return f"cards and ranks are written in capitals: did you mean {value.upper()}?"
        if tok.type == "NAME" and value in ("s", "trumps", "sisters"):
            return "after a colon write trump or sister (J:trump)"
    if start == "deal":
        if tok.type == "NAME" and "ZONE" not in expected and value in _ZONES:
            return f"put a comma before {value} (zones are separate steps: \"3 3, {value} 2\")"
        if tok.type == "NAME":
            close = difflib.get_close_matches(value, _ZONES, n=1)
            if close:
                return f"did you mean {close[0]}?"
    if start == "expr":
        if tok.type == "NAME" and "CONST" in expected and value.upper() != value:
            return f"constants are written in capitals: did you mean {value.upper()}?"
        if tok.type == "NAME":
            close = difflib.get_close_matches(value, _KEYWORDS, n=1, cutoff=0.75)
            if close and close[0] != value:
                return f"did you mean {close[0]}?"
        if tok.type == "RPAR" and "COMMA" not in expected and expected & {"INT", "NAME"}:
            return "a value is missing before \")\""
    return ""


def _hint_char(text: str, pos: int, start: str) -> str:
    """A fix-it hint for an unexpected character, or ``""``."""
    ch = text[pos:pos + 1]
    two = text[pos:pos + 2]
    if start == "expr":
        if ch == "=" and two != "==":
            return "did you mean == to compare?"
        if two in ("&&", "||") or ch == "&" or ch == "|":
            return f"write {'and' if ch == '&' else 'or'} instead of {two if two in ('&&', '||') else ch}"
        if ch == "!" and two != "!=":
            return "write not instead of !"
        if ch in "'\"":
            return "text in quotes is not part of the language; constants are bare (NT, H)"
    if start == "ranking" and ch.isalpha():
        return "a ranking lists ranks (A K Q J 10 ...), cards (JC), JK, or suit letters"
    return ""


def _hint_end(text: str, start: str, expected: set) -> str:
    """A fix-it hint for text that stops too early, or ``""``."""
    if start == "expr" and "ELSE" in expected:
        return "every if needs then ... else ..."
    if start == "expr" and "RPAR" in expected:
        return "a \"(\" is not closed"
    if start == "deal" and text.rstrip().endswith(","):
        return "remove the trailing comma"
    return ""
