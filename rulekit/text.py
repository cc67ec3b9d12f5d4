"""Text read from a file (a variant, a record, a pad) made safe to print.

Every command that prints such text (``explain`` plain, Markdown or rendered, ``validate``,
``play``, ``replay``, ``score``, the exports to the terminal) writes it through :func:`visible`,
so that a name cannot clear the screen, retitle the window, write the clipboard (OSC 52), open a
hyperlink, or reorder what a line shows with a bidirectional override.
"""
from __future__ import annotations

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
# C0 controls but newline, DEL, the C1 controls (0x9b is a one-byte CSI on some terminals), bidi
_UNSAFE = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{BIDI}]")


def visible(text: str) -> str:
    """``text`` with its control and bidirectional formatting characters made visible: ESC is
    shown as ``^[``, another C0 control as ``^X`` (a tab as ``^I``), DEL as ``^?``, a C1 control
    as ``\\x9b``, a bidi character as ``\\u202e``; newlines are kept.  Text without such a
    character is returned as it is."""
    return _UNSAFE.sub(_show, text) if _UNSAFE.search(text) else text


def unprintable(text: str) -> bool:
    """True when ``text`` holds a control or format character (Unicode categories Cc, Cf: ESC,
    a bidi override, a zero-width joiner), which a name must not (it could not be typed at a
    prompt, and would not read as it shows)."""
    return any(unicodedata.category(ch) in ("Cc", "Cf") for ch in text)


def _show(m: re.Match) -> str:
    c = ord(m.group())
    if c < 0x20:
        return "^" + chr(c + 64)
    if c == 0x7f:
        return "^?"
    return f"\\x{c:02x}" if c <= 0xff else f"\\u{c:04x}"


__all__ = ["BIDI", "MAX_ID", "MAX_NAME", "MAX_TEXT", "unprintable", "visible"]
