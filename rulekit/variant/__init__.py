"""Variant files (DESIGN.md layer 3): read, merge ``extends:``, validate, compile.

>>> v = load_variant("fivehundred")
>>> v.players, v.deck.size
(3, 33)
"""
from __future__ import annotations

from pathlib import Path

from rulekit.errors import Diagnostic, VariantError
from rulekit.variant.loader import (VariantFileError, builtin_ids, is_file, not_regular_file, read_text, resolve,
                                    resolve_text)
from rulekit.variant.compiler import VariantWarning, check, compile_variant
from rulekit.contracts import NT, Bid
from rulekit.variant.model import Context, Variant


def load_variant(name: str, players: int | None = None) -> Variant:
    """Load and compile a variant by id (``fivehundred``) or path (``my/house.yaml``).

    :param players: the ``players`` setting, for variants that offer a choice.
    :raises VariantError: with every problem found, each with file:line:column.
    """
    settings = {"players": players} if players is not None else {}
    return compile_variant(resolve(name), settings)


def check_file(path: str, players: int | None = None, warnings: bool = False) -> list[Diagnostic]:
    """Every problem of the variant file at ``path`` (empty when valid), in file order.

    With ``warnings``, also each option that has no effect, as a
    :class:`~rulekit.variant.compiler.VariantWarning` (a valid file may have some).

    ``path`` may also be the id of an installed variant.  Without ``players``, a
    variant offering several player counts is checked for each.  Never raises for
    bad input: an unreadable or missing file is a diagnostic too.
    """
    p = Path(path)
    problem = not_regular_file(path)
    if problem is not None:
        return [Diagnostic(path, 1, 1, "", problem)]
    if not is_file(p):
        if "/" not in path and not path.endswith((".yaml", ".yml")) and path in builtin_ids():
            return check(resolve(path), players, warnings)
        return [Diagnostic(path, 1, 1, "", f"no such file{_near_miss(p)} (expected a variant .yaml file, "
                           f"or the id of an installed variant: {', '.join(builtin_ids())})")]
    try:
        text = read_text(p, path)
    except VariantFileError as e:
        return [e.diagnostic]
    return check(resolve_text(path, text), players, warnings)


def _near_miss(p: Path) -> str:
    """``"; did you mean X?"`` for a file name with a close sibling."""
    import difflib
    folder = p.parent if str(p.parent) else Path(".")
    try:
        names = [f.name for f in folder.iterdir() if f.suffix in (".yaml", ".yml")]
    except (OSError, ValueError):
        return ""
    close = difflib.get_close_matches(p.name, names, n=1, cutoff=0.75)
    return f"; did you mean {folder / close[0] if str(p.parent) != '.' else close[0]}?" if close else ""


__all__ = ["Bid", "Context", "NT", "Variant", "VariantError", "VariantWarning", "builtin_ids", "check", "check_file",
           "compile_variant", "load_variant", "resolve"]
