"""``set_aside`` phase: the declarer puts cards aside face down before play, so that he
plays with fewer cards than the others (rules/boston.md, little null: 12 cards against 13).

The number is fixed (``count: 2``) or the contract's own ``aside`` attribute
(``count: contract``, a ``list_auction`` contract); with none the phase is skipped.  The
cards go to the declarer's discards: seen by him only, out of play.  In trick play a
seat without cards sits the last tricks out.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said, n_cards
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.exchange import DiscardChoices, takes
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class SetAsideSpec(PhaseSpec):
    """``set_aside`` phase: ``count`` cards (-1: the contract's ``aside``)."""

    count: int


@dataclass
class SetAsideData(KindData):
    """``set_aside``'s data for one hand: ``count``, the cards the declarer puts aside."""

    count: int


def _count(state: Table) -> int:
    n = KIND.spec(state).count
    return getattr(state.hand.contract, "aside", 0) if n < 0 else n


def start(state: Table) -> bool:
    """Applies with a declarer who has cards to put aside."""
    h = state.hand
    if h.declarer < 0 or _count(state) <= 0:
        return False
    h.phase_state[KIND.name] = SetAsideData(_count(state))
    h.to_move = h.declarer
    return True


def legal(state: Table):
    """Every choice of the cards to put aside (a lazy sequence of ``discard`` actions)."""
    h = state.hand
    return DiscardChoices(state.variant.deck, h.hands[h.to_move], KIND.data(state).count)


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: not exactly ``count`` of his own cards."""
    h = state.hand
    k = takes(KIND.data(state).count, h.hands[h.to_move])
    deck = state.variant.deck
    if action.kind != "discard":
        raise IllegalActionError(f"put {k} card{'s' if k > 1 else ''} aside face down now "
                                 f"(discard {' '.join(deck.names_of(h.hands[h.to_move]))[:2 * k + k]}...)")
    if action.cards & ~h.hands[h.to_move]:
        raise IllegalActionError(f"you do not hold {' '.join(deck.names_of(action.cards & ~h.hands[h.to_move]))}")
    if action.cards.bit_count() != k:
        raise IllegalActionError(f"put exactly {k} card{'s' if k > 1 else ''} aside "
                                 f"(found {action.cards.bit_count()})")


def apply(state: Table, action: Action) -> bool:
    """The cards leave his hand face down."""
    h = state.hand
    h.hands[h.to_move] &= ~action.cards
    h.discards |= action.cards
    return True


class SetAsideKind(PhaseKind[SetAsideSpec]):
    """The ``set_aside`` kind (see the module docstring)."""

    name = "set_aside"
    schema = {"description": "The declarer puts cards aside face down and plays with fewer cards than the others.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True,
                             "count": {"description": "How many: a number, or `contract` (the contract's "
                                                      "`aside` attribute; the default).",
                                       "anyOf": [{"type": "integer", "minimum": 1}, {"const": "contract"}]}}}
    label = "aside"
    example = "aside: {kind: set_aside, count: contract}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def compile(self, c, name, p, path):
        """The spec."""
        n = p.get("count", "contract")
        return SetAsideSpec(self.name, name, -1 if n == "contract" else n)

    def pad_out_of_play(self, spec, variant, facts: dict, contract) -> int:
        """The cards the declarer put aside (none without a declarer)."""
        if contract is None or facts.get("declarer", -1) < 0:
            return 0
        return getattr(contract, "aside", 0) if spec.count < 0 else spec.count

    def finish(self, c, spec):
        """The declarer must hold the cards he puts aside: the fixed count, or the most any
        contract's ``aside`` says (user pass finding 2)."""
        n = spec.count if spec.count >= 0 else max(
            (getattr(b, "aside", 0) for s in c.phase_specs if s is not None for b in getattr(s, "bids", ())),
            default=0)
        c.check_takes(("phases", spec.name) + (("count",) if spec.count >= 0 else ()), n, "puts aside")
        return spec

    def acts_for_declarer(self, p) -> bool:
        """It needs a declarer."""
        return True

    def help_line(self, spec, variant) -> str:
        """The action form."""
        return "put cards aside face down: discard CARD ..."

    def discards(self, spec, hand, variant) -> int:
        """The declarer's one set of cards put aside."""
        return 1

    def said(self, spec, hand, variant, seat: int, text: str, names: list) -> Said | None:
        """``puts 1 card aside``."""
        if not text.startswith("discard "):
            return None
        n = n_cards(len(text.split()) - 1)
        return Said(seat, f"puts {n} aside", f"put {n} aside")

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: the cards put aside are cards."""
        return ()

    def describe(self, spec) -> str:
        """One sentence."""
        n = "the number of cards his contract says" if spec.count < 0 else f"{spec.count} cards"
        return f"The declarer puts {n} aside face down and plays with fewer cards than the others."


KIND = SetAsideKind()
