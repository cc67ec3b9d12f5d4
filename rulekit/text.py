"""Text read from a file (a variant, a record, a pad) made safe to print.

Every command that prints such text (``explain`` plain, Markdown or rendered, ``validate``,
``play``, ``replay``, ``score``, the pad exports, to the terminal or a file) writes it through :func:`visible`,
so that a name cannot clear the screen, retitle the window, write the clipboard (OSC 52), open a
hyperlink, or reorder what a line shows with a bidirectional override.
"""
from __future__ import annotations

import json
import re
import unicodedata

#: Longest name (characters): a key of a variant file, a seat name, a player name of a record or pad.
MAX_NAME = 64
#: Longest variant id (characters), checked by ``validate`` and by record loading alike.
MAX_ID = 100
#: Longest other string (characters): any text of a variant file (a formula, a source), and a text
#: field of a record or pad (a hash, a file name, an action).
MAX_TEXT = 2000

#: The bidirectional formatting characters: embeddings and overrides (U+202A-U+202E), isolates
#: (U+2066-U+2069), the marks (U+200E, U+200F) and the Arabic letter mark (U+061C).
BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"

#: The Unicode categories :func:`visible` shows and :func:`unprintable` refuses: the controls (ESC,
#: BEL, the C1 controls: 0x9b is a one-byte CSI on some terminals), the format characters (the
#: bidi characters of :data:`BIDI`, zero-width spaces and joiners, soft hyphens, tags) and the line
#: and paragraph separators (U+2028, U+2029: a line break to some terminals and editors).
UNSAFE_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")


def visible(text: str, newlines: bool = True) -> str:
    """``text`` with every control or format character (:data:`UNSAFE_CATEGORIES`) made visible,
    so that it prints as it reads: ESC is shown as ``^[``, another C0 control as ``^X`` (a tab as
    ``^I``), DEL as ``^?``, a C1 control as ``\\x9b``, a format character as ``\\u202e`` (a bidi
    override) or ``\\U000e0041`` beyond the BMP.  Text without such a character is returned as
    it is.

    The one escaping of file text (a variant, a record, a pad): the terminal (``explain``,
    ``validate``, ``play``, ``replay``, ``score``) and the pad exports (CSV, JSON, text) alike.

    :param newlines: keep newlines (text of several lines); ``False`` shows them too (``^J``: a
        cell of an export, which must stay one line).
    """
    if all(line.isprintable() for line in (text.split("\n") if newlines else (text,))):
        return text       # isprintable is False for every Cc and Cf character (and a few more)
    return "".join(_show(ch) if unicodedata.category(ch) in UNSAFE_CATEGORIES and not (newlines and ch == "\n")
                   else ch for ch in text)


def json_text(data, indent: int | None = 2) -> str:
    """``data`` as JSON text whose every control, format or separator character
    (:data:`UNSAFE_CATEGORIES`: ESC, DEL, a C1 control, a bidi override, a zero-width space,
    U+2028) is written as a JSON escape (``\\u001b``, ``\\u202e``; beyond the BMP a surrogate
    pair), so it prints as it reads on a terminal and reads back as the same data; other text
    (``♣``, ``é``) stays as it is.  The JSON output of ``validate`` and ``diff``."""
    out = json.dumps(data, indent=indent, ensure_ascii=False)
    if out.isascii() and out.isprintable():
        return out
    return "".join(_json_escape(ch) if unicodedata.category(ch) in UNSAFE_CATEGORIES and ch != "\n" else ch
                   for ch in out)


def _json_escape(ch: str) -> str:
    """``ch`` as a JSON ``\\uXXXX`` escape (a surrogate pair beyond U+FFFF)."""
    return json.dumps(ch, ensure_ascii=True)[1:-1]


#: What :func:`markdown_line` escapes: a backslash, the characters that open emphasis (``*``,
#: ``_``), code (`` ` ``), raw HTML or an autolink (``<``), an entity (``&``), a strikethrough
#: (``~``), a heading's closing ``#``, and a ``]`` that would close a link (before ``(`` or
#: ``[``); a bracket else opens nothing (a rule id ``[A1]`` stays as it is), nor a ``_`` inside
#: a word.
_MARKDOWN = re.compile(r"[\\`*<&~#]|\](?=[(\[])|(?<![^\W_])_|_(?![^\W_])")
#: What opens a list, a quote, a task box or a link's definition at the start of a line (``-``,
#: ``+``, ``>``, ``1.``, ``1)``, ``[ ]``, ``[x]: URL``).
_MARKDOWN_START = re.compile(r"\d{1,9}(?=[.)])|(?=[-+>\[])")


def markdown_line(text: str) -> str:
    """``text`` read from a file (a variant's ``name``, ``source``, an omitted rule) as one line of
    Markdown that renders as it reads: its line breaks, with the spaces around them, folded into
    one space (a newline would end the heading or the list item it stands in, and could start a
    heading of its own), and every character that would open a Markdown construct (emphasis, code,
    a link, raw HTML, an entity, a list or a quote at the start) escaped with a backslash, as
    CommonMark allows: ``a *b*`` is written ``a \\*b\\*``.  Control characters are
    :func:`visible`'s (apply it after)."""
    line = " ".join(part for part in (p.strip(" \t") for p in text.split("\n")) if part)
    line = _MARKDOWN.sub(lambda m: "\\" + m.group(0), line)
    start = _MARKDOWN_START.match(line)
    return line if start is None else f"{line[:start.end()]}\\{line[start.end():]}"


def unprintable(text: str) -> bool:
    """True when ``text`` holds a control or format character (:data:`UNSAFE_CATEGORIES`: ESC,
    a bidi override, a zero-width joiner), which a name must not (it could not be typed at a
    prompt, and would not read as it shows)."""
    return any(unicodedata.category(ch) in UNSAFE_CATEGORIES for ch in text)


def name_problem(name: str, where: str) -> str:
    """What is wrong with ``name`` as a player name read from a file (a record, a pad), or ``""``:
    longer than :data:`MAX_NAME`, or holding a control or format character (:func:`unprintable`:
    a newline would forge an output line, ESC a terminal sequence; as ``validate`` refuses in a
    seat name).  ``where`` names the field in the message (``names[0]``); the name is quoted
    with :func:`visible` (newlines shown too)."""
    if len(name) > MAX_NAME:
        return f"{where} is {len(name)} characters long (expected at most {MAX_NAME})"
    if unprintable(name):
        return f"{where} holds a control character ({visible(name, newlines=False)})"
    return ""


def _show(ch: str) -> str:
    c = ord(ch)
    if c < 0x20:
        return "^" + chr(c + 64)
    if c == 0x7f:
        return "^?"
    return f"\\x{c:02x}" if c <= 0xff else f"\\u{c:04x}" if c <= 0xffff else f"\\U{c:08x}"


__all__ = ["BIDI", "MAX_ID", "MAX_NAME", "MAX_TEXT", "UNSAFE_CATEGORIES", "json_text", "markdown_line", "name_problem",
           "unprintable", "visible"]
