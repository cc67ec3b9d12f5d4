"""``rulekit explain`` of a ``list_auction`` (issue 11: `rulekit explain boston` was thin): each
contract of the list with its calls, name, tricks, trumps, null, open hand, cards put aside,
partner and values by suit class (rules/boston.md [A1]-[A3], [B5], [T3])."""
from __future__ import annotations

from rulekit.engine.phases import REGISTRY
from rulekit.variant import load_variant
from rulekit.variant.explain import explain


def test_boston_explain_lists_the_contracts_with_values():
    """issue 11: the list in its order, with what each contract undertakes and is worth (5
    tricks: 3, 2 or 1 by suit class, a partner; little open: 35, one card aside, the hand face
    up before the lead), in one paragraph (describe() is sentences, no line breaks)."""
    v = load_variant("boston")
    text = REGISTRY["list_auction"].describe(v.phase("list_auction"))
    assert "\n" not in text and "equal values cannot overcall each other" in text
    assert "The contracts, in the list's order: 5S, 5H, 5D, 5C: 5 tricks or more, the suit bid trumps, " \
           "a partner may be called, worth 3, 2 or 1 (suit class 1, 2, 3); " in text
    assert "; BN (big null): no trick (a null), at no trump, worth 25; " in text
    assert "; LO (little open): no trick (a null), at no trump, 1 card put aside, the hand face up before " \
           "the lead, worth 35; " in text
    assert "; BO (big open): no trick (a null), at no trump, the hand face up after the first trick, worth 45; " in text
    assert text.endswith("13S, 13H, 13D, 13C: 13 tricks or more, the suit bid trumps, worth 50, 49 or 48 "
                         "(suit class 1, 2, 3).")
    assert text in explain(v)
