"""The variant compiler's helpers as a phase kind sees them (``CompileHelpers``)."""
from __future__ import annotations

from rulekit.cards import Deck
from rulekit.variant import compile_variant, resolve
from rulekit.variant.compiler import _Compiler


def test_deck_is_the_compiled_deck_and_a_compiler_builds_twice():
    """``c.deck`` is the variant's :class:`Deck` while the kinds compile, and building the deck
    is a method of its own that compiling never overwrites: the same compiler builds the same
    variant again (a Five Hundred pack: 33 cards with the joker)."""
    r = resolve("fivehundred")
    c = _Compiler(r, {})
    first = c.build()
    assert isinstance(c.deck, Deck) and c.deck.size == 33
    assert callable(c.build_deck) and c.build_deck().size == 33
    again = c.build()
    assert again.deck.size == first.deck.size == 33
    assert again.hash == first.hash == compile_variant(resolve("fivehundred")).hash
