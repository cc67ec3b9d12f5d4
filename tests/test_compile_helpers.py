"""What the variant compiler offers a kind's ``compile`` (``CompileHelpers``): its ``deck`` is the
variant's :class:`~rulekit.cards.Deck` while the phases compile and after, and building the deck
again gives the same one (the attribute never hides the method that builds it)."""
from __future__ import annotations

from rulekit.cards import Deck
from rulekit.variant.compiler import _Compiler
from rulekit.variant.loader import resolve


def test_the_deck_stays_the_variants_and_can_be_built_again():
    c = _Compiler(resolve("fivehundred"), {})
    v = c.build()
    assert isinstance(c.deck, Deck) and c.deck is v.deck
    again = c.build_deck()
    assert again.names == v.deck.names and again.size == 33
