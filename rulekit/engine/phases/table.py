"""The facade through which a phase kind knows the match it is played in: :class:`Table`.

A kind's hooks (``start``, ``legal``, ``check``, ``apply``, ``observe``, ...) receive a ``Table``:
the hand in progress, the compiled variant, and the few helpers that change the hand or the
match by the engine's own rules (:meth:`Table.set_trump`, :meth:`Table.throw_in`...).  The match
state (:class:`~rulekit.engine.state.State`, in the engine layer above the kinds) is the one
implementation; the client API (``legal_actions()``, ``apply()``, ``observation()``...) is not
part of the facade, so a kind never drives the match itself.  mypy checks that ``State``
provides every member (the engine passes itself to the kinds' hooks).
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from rulekit.contracts import Bid
from rulekit.dsl import Env
from rulekit.engine.actions import Action
from rulekit.engine.hand import Hand
from rulekit.engine.markers import Markers
from rulekit.engine.types import Card, Seat

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.phases.base import PhaseSpec
    from rulekit.variant.model import Variant


class Table(Protocol):
    """What a phase kind may read and do of the match in progress.

    :ivar variant: the compiled rules of the current hand (a round's own, in a round schedule).
    :ivar hand: the :class:`~rulekit.engine.hand.Hand` in progress, which the kinds change.
    :ivar names: the players' names, for messages.
    :ivar markers: the markers carried across deals (``scoring.markers``), read-only here.
    """

    variant: Variant
    hand: Hand
    names: list[str]
    markers: Markers

    # ------------------------------------------------------------------ what the kinds read
    @property
    def current_phase(self) -> PhaseSpec:
        """The spec of the phase in progress (its kind's own spec class)."""

    @property
    def bid_actions(self) -> Mapping[str, Action]:
        """Bid text -> its shared bid :class:`Action`, for the variant's auction."""

    @property
    def bid_by_text(self) -> Mapping[str, Bid]:
        """Bid text -> its :class:`~rulekit.contracts.Bid`, for the variant's auction."""

    @property
    def play_actions(self) -> Sequence[Action]:
        """The shared ``play CARD`` action of each card (index = card)."""

    def play_action(self, card: Card) -> Action:
        """The shared ``play CARD`` action (no suit named)."""

    def totals(self) -> list[int]:
        """The sheet's running totals per score column (before this hand)."""

    def score_envs(self, names: frozenset | None = None) -> list[Env]:
        """The scoring environments of the hand so far, one per score column (the variables of
        the variant's formulas: tricks won so far, the contract, the phases' own); given the
        ``names`` a formula reads, they may hold only those (``Formula.names``)."""

    def expected_forms(self) -> str:
        """What the seat to move may type now, in words (for refusals)."""

    def next_seat(self, seat: Seat, k: int = 1) -> Seat:
        """The seat ``k`` turns after ``seat`` in the direction of play."""

    def partner_of(self, seat: Seat) -> Seat:
        """The next seat in the direction of play on ``seat``'s side (``seat`` without partners)."""

    def chance_rng(self, tag: str) -> random.Random:
        """A generator for a chance event ``tag`` of this hand, seeded by the match's seed and
        the hand's number (a card of a second pack), so that every replay draws the same."""

    # ------------------------------------------------------------------ what the kinds change
    def set_trump(self, strain: str, low: bool | None = None) -> None:
        """Set the hand's trump context (a suit letter or ``NT``); ``low``: the tables of a
        low-wins contract, ``None``: keep the hand's current order."""

    def set_partner(self, seat: Seat) -> None:
        """Make ``seat`` the declarer's partner for this hand only."""

    def lay_open(self, seat: Seat, after_tricks: int = 0) -> None:
        """``seat``'s hand lies face up for everyone once ``after_tricks`` tricks are finished."""

    def skip_phases(self, names: Sequence[str]) -> None:
        """Skip the phases named ``names`` for the rest of this hand."""

    def note_chance(self, seat: Seat, text: str) -> None:
        """A chance event of this hand for ``seat`` (``turned 7H QS``): written in the hand's
        actions and in the match's chance events, which records store."""

    def throw_in(self, same_dealer: bool = False, note: str = "passed out") -> None:
        """The hand is thrown in unscored; the next dealer deals (or with ``same_dealer`` the
        same one again, the deal not counted); ``note`` is the sheet's word for the row."""

    def write_marker(self, name: str, seat: Seat, note: str) -> None:
        """The hand is not scored: one ``name`` marker is written for ``seat`` alone instead, on a
        row noted ``note``; the next dealer deals."""


__all__ = ["Table"]
