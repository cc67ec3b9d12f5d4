"""``announce`` phase: the declarer announces his contract, at least as high as his bid
(rules/preferans.md [X1] [X2]).

The auction before it leaves the contracts the declarer may announce in its own data
(``choices``, lowest first; the auction's bids); one choice is taken at once.  The
announced contract sets ``hand.contract`` and the trump context.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.engine.actions import Action
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.registry import REGISTRY
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class AnnounceSpec(PhaseSpec):
    """A compiled ``announce`` entry."""


def _choices(state: Table) -> list:
    """The contract texts the auction left for the declarer (``[]`` without an auction)."""
    auction = state.variant.auction()
    if auction is None:
        return []
    return REGISTRY[auction.kind].choices_left(state.hand)


def _set(state: Table, text: str) -> None:
    h = state.hand
    bid = state.bid_by_text[text]
    h.contract = bid
    state.set_trump(bid.strain)


class AnnounceKind(PhaseKind[AnnounceSpec]):
    """The ``announce`` kind (see the module docstring)."""

    name = "announce"
    schema = {"description": "The declarer announces a contract at least as high as his winning bid.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True}}
    label = "announce"
    example = "announce: {kind: announce}"

    def compile(self, c, name, p, path):
        """No options."""
        return AnnounceSpec(self.name, name)

    def acts_for_declarer(self, p) -> bool:
        """It needs the auction's declarer."""
        return True

    def start(self, state: Table) -> bool:
        """Skipped without a declarer; one choice is announced at once."""
        h = state.hand
        choices = _choices(state)
        if h.declarer < 0 or not choices:
            return False
        if len(choices) == 1:
            _set(state, choices[0])
            return False
        h.to_move = h.declarer
        return True

    def legal(self, state: Table) -> list:
        """Each contract the declarer may announce, lowest first."""
        return [Action("bid", t, bid=t) for t in _choices(state)]

    def check(self, state: Table, action: Action) -> None:
        """:raises IllegalActionError: a contract below the bid, or not his to announce."""
        if action not in self.legal(state):
            raise IllegalActionError(f"announce one of {', '.join(_choices(state))} "
                                     f"(at least as high as your bid)")

    def apply(self, state: Table, action: Action) -> bool:
        """Set the contract and trumps."""
        _set(state, action.text)
        return True

    def parse(self, text: str, state: Table):
        """A contract's name."""
        t = text.strip().lower()
        return Action("bid", t, bid=t) if t in _choices(state) else None

    def help_line(self, spec, variant) -> str:
        """The form."""
        return "a contract name, at least as high as your bid"

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """Every contract of the auction."""
        auction = variant.auction()
        return tuple(b.text for b in auction.bids) if auction is not None else ()

    def describe(self, spec) -> str:
        """One sentence."""
        return "The declarer announces a contract at least as high as his winning bid."


KIND = AnnounceKind()
