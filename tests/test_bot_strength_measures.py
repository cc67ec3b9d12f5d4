"""The bots' simple measures of a hand (rulekit.bots.strength): the cards the bot throws away."""
from __future__ import annotations

import pytest

from rulekit.bots.strength import choose_discards
from rulekit.variant import load_variant


def _mask(deck, names: str) -> int:
    m = 0
    for x in names.split():
        m |= 1 << deck.index[x]
    return m


@pytest.mark.parametrize("trump, n, thrown", [
    ("S", 3, "8D 9D 7H"),    # trumps kept; the shortest side suit (diamonds) first, then the lowest heart
    ("NT", 3, "7S 8D 9D"),   # no trumps: the short diamonds and the lowest spade
])
def test_discards_are_the_weakest_side_cards_short_suits_first(trump, n, thrown):
    """The widow discard of the bots: never a trump while a side card is left, the cards of short
    side suits before long ones, a suit's best card last, lower cards first."""
    v = load_variant("fivehundred")
    hand = _mask(v.deck, "JS JC AS 7S KH QH 7H 8D 9D AC KC 10C JK")
    assert choose_discards(v, hand, trump, n) == _mask(v.deck, thrown)
    assert choose_discards(v, hand, trump, n) == choose_discards(v, hand, trump, n)   # (its table is kept)


def test_discards_keep_the_trumps_and_each_suits_best_card():
    """With diamonds trumps, four discards: both clubs (the shortest side suit) and the lowest
    spade and heart go; the trumps, the ace of spades and the top hearts stay."""
    v = load_variant("fivehundred")
    hand = _mask(v.deck, "AH KH 7H 8H 9C 10C JD QD KD AS 7S 8S 9S")
    assert choose_discards(v, hand, "D", 4) == _mask(v.deck, "7S 9C 10C 7H")
