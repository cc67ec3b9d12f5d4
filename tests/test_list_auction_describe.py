"""``rulekit explain`` of a ``list_auction`` (issue 11: `rulekit explain boston` was thin): the
contracts' table with calls, names, tricks, trumps, nulls, open hands, cards put aside, partners
and values by suit class (rules/boston.md [A1]-[A3], [B5], [T3])."""
from __future__ import annotations

from rulekit.variant import load_variant
from rulekit.variant.explain import explain


def test_boston_explain_lists_the_contracts_with_values():
    """issue 11: each contract of the list, in the list's order, with what it undertakes and
    what it is worth (5 tricks: 3, 2 or 1 by suit class; little open: 35, one card aside, the
    hand face up before the lead)."""
    text = explain(load_variant("boston"))
    rows = [line.strip() for line in text.splitlines() if line.strip().startswith("| ")]
    assert rows[0] == "| Contract | Tricks to win | Trumps | Also | Value (suit class 1 / 2 / 3) |"
    assert "| 5S 5H 5D 5C | 5 | the suit bid | a partner may be called | 3 / 2 / 1 |" in rows
    assert "| BN (big null) | none (a null) | none | — | 25 |" in rows
    assert "| LO (little open) | none (a null) | none | 1 card put aside, hand face up before the lead | 35 |" in rows
    assert "| BO (big open) | none (a null) | none | hand face up after the first trick | 45 |" in rows
    assert rows[-1] == "| 13S 13H 13D 13C | 13 | the suit bid | — | 50 / 49 / 48 |"
    assert "equal values cannot overcall each other" in text
