"""The primitives of issue 11 (authoring reach), each on a small made-up variant:
decks by rule or by card, per-player trick bids with the dealer's hook, exact-bid and nil
scoring variables, hand-size schedules with a stock turned for trumps."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant

TOY = """id: toy
name: Toy
players: 3
deck: {suits: [S, H, D], ranks: ["9", "10", J, Q, K, A]%(deck)s}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "%(pattern)s"%(sizes)s}
%(extra)s  play: {kind: tricks, lead: eldest}
scoring:
  each: "%(each)s"
match: {deals: %(deals)s}
"""


def toy(tmp_path, deck="", pattern="6", sizes="", extra="", each="tricks", deals=3):
    f = tmp_path / "toy.yaml"
    f.write_text(TOY % dict(deck=deck, pattern=pattern, sizes=sizes, extra=extra, each=each, deals=deals))
    return load_variant(str(f))


def test_deck_minus_leaves_cards_out(tmp_path):
    """issue 11: a deck by rule, the grid minus cards (the shape of four-handed Five Hundred's
    pack without black fours)."""
    v = toy(tmp_path, deck=", minus: [9S, 9H, 9D]", pattern="5")
    assert v.deck.size == 15 and "9S" not in v.deck.index and v.deck.name(0) == "10S"
    assert v.deck.suit_of(v.deck.parse("AD")) == "D" and v.deck.rank_of(v.deck.parse("AD")) == "A"


def test_deck_plus_keeps_only_the_listed_cards_of_a_sparse_rank(tmp_path):
    """issue 11: a deck by rule, grid plus cards: the 9 exists only in hearts."""
    v = toy(tmp_path, deck=", plus: [9H]", pattern="5, widow 1")
    assert v.deck.size == 16 and v.deck.names_of(v.deck.full_mask)[:6] == ["10S", "JS", "QS", "KS", "AS", "9H"]


def test_deck_listed_by_card(tmp_path):
    """issue 11: a deck listed by card."""
    v = toy(tmp_path, deck=", cards: [AS, KS, QS, AH, KH, QH]", pattern="2")
    assert v.deck.names_of(v.deck.full_mask) == ["QS", "KS", "AS", "QH", "KH", "AH"]


def test_deck_card_outside_the_grid_is_refused(tmp_path):
    with pytest.raises(VariantError) as e:
        toy(tmp_path, deck=", minus: [8S]", pattern="6")
    assert "toy.yaml:4:66: deck.minus.0: 8S is not a card of the suits x ranks grid" in str(e.value)


BIDS = "  trump: {kind: turn_up, card: stock}\n  bidding: {kind: trick_bids, hook: true}\n"


def test_trick_bids_hook_refuses_the_last_bid_that_adds_up(tmp_path):
    """issue 11: per-player trick bids with a constraint on their sum (the dealer's hook)."""
    v = toy(tmp_path, sizes=", hand_sizes: [2, 3]", extra=BIDS, each="if tricks == bid then 10 + bid else 0")
    s = State(v, seed=1, dealer=2)
    assert s.hand.hands[0].bit_count() == 2 and s.hand.zones["stock"].bit_count() == 12
    assert s.hand.trump == v.deck.suit_of(next(c for c in s.hand.deck_order[6:]))
    assert [a.text for a in s.legal_actions()] == ["bid 0", "bid 1", "bid 2"]
    s.apply("bid 1")
    s.apply("0")
    assert [a.text for a in s.legal_actions()] == ["bid 0", "bid 2"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("bid 1")
    assert "the bids would add up to the 2 tricks of the hand" in str(e.value)
    s.apply("bid 2")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    bids, won = [1, 0, 2], s.hand_log[0].won
    assert s.sheet.totals() == [10 + b if w == b else 0 for b, w in zip(bids, won)]
    assert s.hand.hands[0].bit_count() == 3  # the next deal gives 3 each


def test_last_deal_without_stock_is_played_at_no_trump(tmp_path):
    """issue 11: hand-size schedule; with every card dealt no card is turned: no trumps."""
    v = toy(tmp_path, sizes=", hand_sizes: [6]", extra=BIDS)
    s = State(v, seed=2)
    assert s.hand.trump == "NT" and "stock" not in s.hand.zones


def test_nil_and_side_bids(tmp_path):
    """issue 11: nil scoring and a side's bids added (bid, bid_tricks, nil_made, nil_failed)."""
    f = tmp_path / "side.yaml"
    f.write_text("""id: side
name: Side
players: 4
sides: {A: [0, 2], B: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "3"}
  bidding: {kind: trick_bids}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "(if bid_tricks >= bid then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed"
match: {deals: 1}
""")
    v = load_variant(str(f))
    s = State(v, seed=4, dealer=3)
    for b in ("bid 0", "bid 1", "bid 2", "bid 1"):
        s.apply(b)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    won = s.hand_log[0].won
    a = (20 if won[2] >= 2 else -20) + (100 if won[0] == 0 else -100)
    b = 20 if won[1] + won[3] >= 2 else -20
    assert s.sheet.totals() == [a, b]


def test_trick_bids_describes_the_hook(tmp_path):
    from rulekit.variant.explain import explain
    v = toy(tmp_path, sizes=", hand_sizes: [2, 3]", extra=BIDS)
    t = " ".join(explain(v).split())
    assert "may not bid the number that would make the bids add up to the tricks of the hand" in t
    assert "changes from deal to deal: 2 3" in t
    assert "The top card of the undealt stock is turned face up; its suit is trumps" in t
