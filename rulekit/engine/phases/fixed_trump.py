"""``fixed_trump`` phase: one suit is trumps in every hand (``suit: S``), with no action.

For games whose trump suit never changes (spades in Spades); it only sets the hand's trump.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.cards import SUIT_NAMES
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table


@dataclass(frozen=True)
class FixedTrumpSpec(PhaseSpec):
    """``fixed_trump`` phase: ``suit`` is trumps."""

    suit: str


def start(state: Table) -> bool:
    """Set trumps; the phase needs no action."""
    state.set_trump(KIND.spec(state).suit)
    return False


def legal(state: Table):  # pragma: no cover - never to move
    return []


class FixedTrumpKind(PhaseKind[FixedTrumpSpec]):
    """The ``fixed_trump`` kind (see the module docstring)."""

    name = "fixed_trump"
    schema = {"description": "One suit is trumps in every hand.",
              "type": "object", "additionalProperties": False, "required": ["kind", "suit"],
              "properties": {"kind": True,
                             "suit": {"description": "The trump suit's letter.", "enum": ["S", "H", "D", "C"]}}}
    label = "trumps"
    example = "trumps: {kind: fixed_trump, suit: S}"
    start = staticmethod(start)
    legal = staticmethod(legal)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`FixedTrumpSpec`; the suit must be in the deck."""
        if p["suit"] not in c.deck.suits:
            c.err(path + ("suit",), f"{p['suit']} is not a suit of the deck (expected one of {' '.join(c.deck.suits)})")
        return FixedTrumpSpec(self.name, name, p["suit"])

    def strains(self, spec, deck) -> set:
        """Only that suit."""
        return {spec.suit}

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: nobody acts."""
        return ()

    def describe(self, spec) -> str:
        """One sentence."""
        return f"{SUIT_NAMES.get(spec.suit, spec.suit).capitalize()} are trumps in every hand."


KIND = FixedTrumpKind()
