"""Decks and rankings on small made-up variants: a deck by rule (``minus``, ``plus``) or by card,
card points by card and by suit, and a trump suit's own points (``deck.trump_points``)."""
from __future__ import annotations

import pytest

from rulekit.errors import VariantError
from tests.helpers import TRICK_TOY, jacknine, small_deck_toy, trick_toy


def test_card_points_by_card_and_by_suit(tmp_path):
    """Card points by card and by suit: every heart 1, the queen of spades
    13 (its own entry wins), kings 2 by rank plus their suit's."""
    text = TRICK_TOY.replace("  ranks: [\"9\", \"10\", J, Q, K, A]\n",
                       "  ranks: [\"9\", \"10\", J, Q, K, A]\n  card_points: {H: 1, QS: 13, K: 2}\n")
    v = trick_toy(tmp_path, text=text, scoring='  each: "points"')
    pts = {v.deck.name(c): p for c, p in enumerate(v.card_points) if p}
    assert pts["QS"] == 13 and pts["9H"] == 1 and pts["KH"] == 3 and pts["KS"] == 2 and "QD" not in pts
    assert sum(v.card_points) == 6 + 13 + 4 * 2
    bad = TRICK_TOY.replace("  ranks: [\"9\", \"10\", J, Q, K, A]\n",
                      "  ranks: [\"9\", \"10\", J, Q, K, A]\n  card_points: {ZZ: 1}\n")
    with pytest.raises(VariantError) as e:
        trick_toy(tmp_path, text=bad)
    assert "deck.card_points.ZZ: unknown rank 'ZZ'" in str(e.value) and "a suit (S H D C) or a card" in str(e.value)


def test_deck_minus_leaves_cards_out(tmp_path):
    """A deck by rule, the grid minus cards (the shape of four-handed Five Hundred's
    pack without black fours)."""
    v = small_deck_toy(tmp_path, deck=", minus: [9S, 9H, 9D]", pattern="5")
    assert v.deck.size == 15 and "9S" not in v.deck.index and v.deck.name(0) == "10S"
    assert v.deck.suit_of(v.deck.parse("AD")) == "D" and v.deck.rank_of(v.deck.parse("AD")) == "A"


def test_deck_plus_keeps_only_the_listed_cards_of_a_sparse_rank(tmp_path):
    """A deck by rule, grid plus cards: the 9 exists only in hearts."""
    v = small_deck_toy(tmp_path, deck=", plus: [9H]", pattern="5, widow 1")
    assert v.deck.size == 16 and v.deck.names_of(v.deck.full_mask)[:6] == ["10S", "JS", "QS", "KS", "AS", "9H"]


def test_deck_listed_by_card(tmp_path):
    """A deck listed by card."""
    v = small_deck_toy(tmp_path, deck=", cards: [AS, KS, QS, AH, KH, QH]", pattern="2")
    assert v.deck.names_of(v.deck.full_mask) == ["QS", "KS", "AS", "QH", "KH", "AH"]


def test_deck_card_outside_the_grid_is_refused(tmp_path):
    with pytest.raises(VariantError) as e:
        small_deck_toy(tmp_path, deck=", minus: [8S]", pattern="6")
    assert "toy.yaml:4:66: deck.minus.0: 8S is not a card of the suits x ranks grid" in str(e.value)


def test_trump_points_live_in_each_trump_table(tmp_path):
    """Belote primitives: the trump suit's cards count by deck.trump_points, the same
    cards of a plain suit by card_points; every table is the variant's per-trump Context."""
    v = jacknine(tmp_path)
    d = v.deck
    h, nt = v.contexts["H"].points, v.contexts["NT"].points
    assert (h[d.parse("JH")], h[d.parse("9H")], h[d.parse("AH")], h[d.parse("JS")], h[d.parse("9S")]) == (20, 14, 11, 2, 0)
    assert (nt[d.parse("JH")], nt[d.parse("9H")]) == (2, 0)
    assert sum(h) == 30 * 3 + 62 and v.points_total("H") == 152 and v.points_total() == 152
    # the trump order: J 9 A 10 K Q, the plain suits A 10 K Q J 9
    ctx = v.contexts["H"]
    assert sorted(("JH", "9H", "AH", "10H", "KH", "QH"), key=lambda c: -ctx.strength[d.parse(c)]) == \
        ["JH", "9H", "AH", "10H", "KH", "QH"]
    assert max(("AS", "10S", "JS", "9S"), key=lambda c: ctx.strength[d.parse(c)]) == "AS"


def test_a_plus_card_of_a_rank_not_in_deck_ranks_says_to_add_it(tmp_path):
    """A ``plus`` card's rank must be listed in ``deck.ranks`` (the grid's rank order): a
    missing one is refused at the card, saying which rank to add."""
    with pytest.raises(VariantError) as e:
        small_deck_toy(tmp_path, deck=", plus: [8H]", pattern="6")
    assert ("deck.plus.0: 8H is not a card of the suits x ranks grid" in str(e.value)
            and "a plus card's rank is listed in deck.ranks too, at its place in the order (add 8 to deck.ranks)"
            in str(e.value))


def test_bit_list_gives_every_set_bit_lowest_first_past_the_byte_tables():
    """``cards.bit_list`` reads the first 64 bits a byte at a time from tables (five bytes
    unrolled below bit 40) and the rest bit by bit: the same indices as a plain scan, for masks
    of small and double packs (108 cards)."""
    import random

    from rulekit.cards import bit_list
    rng = random.Random(5)
    masks = [0, 1, 1 << 39, (1 << 40) - 1, 1 << 40, (1 << 40) | 1, 1 << 63, 1 << 64, (1 << 64) - 1,
             (1 << 70) | 1, (1 << 108) - 1]
    masks += [rng.getrandbits(n) for n in (8, 33, 40, 41, 52, 64, 65, 108) for _ in range(50)]
    for m in masks:
        assert bit_list(m) == [i for i in range(m.bit_length()) if m >> i & 1]
    assert bit_list(0b1010_0000_0001) == [0, 9, 11]
