"""A variant's actions numbered once: the fixed ``Discrete(n)`` action space of its environment.

Numbers ``0 .. N-1`` are the cards of the pack in deck order (``Deck.name``): a card played
(``play CARD``: trick play, a pile, a layout) or one card of a discard, which is chosen one card
at a time (``discard 7C 8C 9D`` is three decisions; the discard is applied with its last card,
in any order the player picks them). Numbers ``N ..`` are the variant's words, in phase order
and each once: every text an action made of more than cards alone may have, as each phase kind
gives them (:meth:`~rulekit.engine.phases.base.PhaseKind.action_words`; ``pass``, bids, ``X``,
``trump H``, ``play JK H``, a kind's own words), over every round of a round schedule. A phase
whose kind's ``role`` is ``chance`` (a card turned from a second pack) is decided by no player:
the environment applies its one action itself.

The numbering reads the compiled variant only, never a hand. Which numbers are legal now is
:meth:`ActionTable.decision`, from ``State.legal_actions()`` and the cards already picked.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.phases import REGISTRY
from rulekit.errors import RulekitError
from rulekit.variant.model import Variant


def rules_of_match(variant: Variant) -> tuple[Variant, ...]:
    """The variant and each round's rules of its schedule (``Variant.rounds``)."""
    return (variant, *variant.rounds)


@dataclass(frozen=True)
class Decision:
    """The legal numbers of one decision and what each does.

    :ivar mask: per number, 1 when legal now.
    :ivar actions: number -> the action it applies (``None``: a card picked for a discard still
        incomplete).
    :ivar texts: number -> its text for people (``play QS``, ``discard 7C ...`` for a pick).
    """

    mask: tuple[int, ...]
    actions: dict[int, Action | None]
    texts: dict[int, str]


class ActionTable:
    """The action numbering of one compiled variant (see the module docstring).

    :ivar cards: ``N``, the pack's size (numbers ``0..N-1``).
    :ivar words: the word texts, numbered from ``N``.
    :ivar size: ``N + len(words)``, the ``Discrete`` size.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.deck = variant.deck
        self.cards = variant.deck.size
        words: dict[str, None] = {}
        for rules in rules_of_match(variant):
            for spec in rules.phases:
                for w in REGISTRY[spec.kind].action_words(spec, rules):
                    words.setdefault(w, None)
        self.words: tuple[str, ...] = tuple(words)
        self._word_number = {w: self.cards + i for i, w in enumerate(self.words)}
        self.size = self.cards + len(self.words)

    def text(self, number: int) -> str:
        """The text of ``number``: ``card QS`` for a card, else its word.

        :raises IndexError: not a number of this table.
        """
        if not 0 <= number < self.size:
            raise IndexError(f"action {number} is not in 0..{self.size - 1}")
        return f"card {self.deck.name(number)}" if number < self.cards else self.words[number - self.cards]

    def word_number(self, text: str) -> int | None:
        """The number of word ``text``, or ``None`` when it is no word of this table."""
        return self._word_number.get(text)

    def number_of(self, action: Action) -> int:
        """The number of an action of one decision (a card for a plain ``play CARD``).

        :raises RulekitError: a word the phase kinds do not list (a kind's ``action_words``
            misses it), or a discard (picked card by card: :meth:`decision`).
        """
        if action.kind == "play" and not action.suit and action.card >= 0:
            return action.card
        n = self._word_number.get(action.text)
        if n is None:
            raise RulekitError(f"the action {action.text!r} has no number: its phase kind's "
                               f"action_words do not list it")
        return n

    def decision(self, legal: Sequence[Action], picked: int = 0) -> Decision:
        """The legal numbers for the legal actions ``legal`` of the seat to move, ``picked``
        the bitmask of the cards it has already chosen for a discard.

        :raises RulekitError: two legal actions would share a number (a card both played and
            discarded at one decision), or a word without a number.
        """
        mask = [0] * self.size
        actions: dict[int, Action | None] = {}
        texts: dict[int, str] = {}
        if hasattr(legal, "next_cards"):   # a lazy list of "any k of these cards" (DiscardChoices)
            k: int = getattr(legal, "k")
            fixed: int = getattr(legal, "fixed", 0)   # cards every choice holds (a restricted discard)
            for c in bits(legal.next_cards(picked)):
                m = picked | 1 << c
                full = Action.discard(self.deck, m | fixed) if m.bit_count() == k else None
                mask[c], actions[c] = 1, full
                texts[c] = full.text if full else "discard " + " ".join(self.deck.names_of(m)) + " ..."
            return Decision(tuple(mask), actions, texts)
        discards = []
        for a in legal:
            if a.kind == "discard":
                if a.cards & picked == picked:
                    discards.append(a)
                continue
            if picked:
                continue   # a discard is under way: only its cards
            n = self.number_of(a)
            if n in actions:
                raise RulekitError(f"{a.text!r} and {actions[n]!r} share the number {n}")
            mask[n], actions[n], texts[n] = 1, a, a.text
        if discards:
            room: dict[int, list] = {}
            for a in discards:
                for c in bits(a.cards & ~picked):
                    room.setdefault(c, []).append(a)
            for c, ways in room.items():
                if c in actions:
                    raise RulekitError(f"card {self.deck.name(c)} is both {actions[c]!r} and a discard's card")
                last = next((a for a in ways if a.cards == picked | 1 << c), None)   # the pick completes it
                mask[c], actions[c] = 1, last
                texts[c] = last.text if last else "discard " + " ".join(self.deck.names_of(picked | 1 << c)) + " ..."
        return Decision(tuple(mask), actions, texts)
