"""Variant files (DESIGN.md layer 3): read, merge ``extends:``, validate, compile.

>>> v = load_variant("fivehundred")
>>> v.players, v.deck.size
(3, 33)
"""
from __future__ import annotations

from pathlib import Path

from rulekit.errors import Diagnostic, VariantError
from rulekit.variant.loader import builtin_ids, resolve, resolve_text
from rulekit.variant.model import NT, Bid, Context, Variant, compile_variant


def load_variant(name: str, players: int | None = None) -> Variant:
    """Load and compile a variant by id (``fivehundred``) or path (``my/house.yaml``).

    :param players: the ``players`` setting, for variants that offer a choice.
    :raises VariantError: with every problem found, each with file:line:column.
    """
    settings = {"players": players} if players is not None else {}
    return compile_variant(resolve(name), settings)


def check_file(path: str, players: int | None = None) -> list[Diagnostic]:
    """Every problem of the variant file at ``path`` (empty when valid). Never raises."""
    p = Path(path)
    if not p.is_file():
        return [Diagnostic(path, 0, 0, "", "no such file")]
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return [Diagnostic(path, 0, 0, "", f"cannot read the file: {e}")]
    r = resolve_text(path, text)
    try:
        compile_variant(r, {"players": players} if players else {})
    except VariantError as e:
        return e.diagnostics
    return []


__all__ = ["Bid", "Context", "NT", "Variant", "VariantError", "builtin_ids", "check_file",
           "compile_variant", "load_variant", "resolve"]
