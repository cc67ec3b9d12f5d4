"""The exception tree of rulekit.

Every error a user can cause derives from :class:`RulekitError`; the CLI
prints its message and exits non-zero.  Anything else escaping is a bug.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.text import visible


class RulekitError(Exception):
    """Root of every error caused by user input (files, DSL text, actions)."""


class CardError(RulekitError, ValueError):
    """Text that names no card of the deck."""


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a variant file.

    :param file: path of the file as given.
    :param line: 1-based line, 0 when unknown.
    :param column: 1-based column, 0 when unknown.
    :param path: dotted path in the document (``phases.2.pattern``), ``""`` for the root.
    :param message: what is wrong, with what was expected.
    :param excerpt: optional source excerpt with a caret under the column.

    ``str(d)`` is ``FILE:LINE:COL: path: message`` followed by the excerpt's
    lines, the form ``rulekit validate`` prints (and editors parse).
    """

    file: str
    line: int
    column: int
    path: str
    message: str
    excerpt: str = ""

    def __str__(self) -> str:
        # the file's name and the key path on one line (a newline in them would break FILE:LINE:COL)
        where = f"{visible(str(self.file), newlines=False)}:{self.line}:{self.column}"
        head = f"{where}: {visible(self.path, newlines=False) if self.path else '(document)'}: {self.message}"
        return head + ("\n" + self.excerpt if self.excerpt else "")

    def as_dict(self) -> dict:
        """The diagnostic as a JSON-ready dict (for ``--format json``).

        Keys: ``file``, ``line``, ``column``, ``path``, ``message`` and, when
        there is one, ``excerpt`` (the source line with a caret).
        """
        out = {"file": self.file, "line": self.line, "column": self.column,
               "path": self.path, "message": self.message}
        if self.excerpt:
            out["excerpt"] = self.excerpt
        return out


class VariantError(RulekitError):
    """A variant file (or its ``extends:`` chain) is invalid.

    :ivar diagnostics: every problem found, in file order.
    """

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class DSLError(RulekitError):
    """A DSL string does not parse or names something undefined.

    :ivar line: 1-based line inside the DSL text.
    :ivar column: 1-based column inside the DSL text.
    :ivar excerpt: the text with a caret under the column.
    """

    def __init__(self, message: str, line: int = 1, column: int = 1, excerpt: str = ""):
        self.message = message
        self.line = line
        self.column = column
        self.excerpt = excerpt
        super().__init__(message)


class ActionError(RulekitError, ValueError):
    """Root of errors about an action offered to a game state."""


class InvalidActionError(ActionError):
    """Action text that does not parse (``plya QS``)."""


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid now; the message gives the rule."""


class RecordError(RulekitError):
    """A game record that cannot be read or does not replay."""
