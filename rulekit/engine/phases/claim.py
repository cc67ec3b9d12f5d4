"""A claim that stops trick play: "I have 66" (docs/rules/schnapsen.md [SN-G1] [SN-S5]).

The ``claim:`` block of a ``tricks`` phase: a player may say ``claim`` at the moments ``when``
names (on lead, or at any of his turns); play stops at once and the claim is judged there and
then by the condition ``made_if`` over the scoring variables of his column (``"points + melds
>= 66"``).  With ``at_end``, when the cards run out and nobody has claimed, a player whose claim
would be made claims it: the player who closed the stock first, then the winner of the last
trick, then the others in the direction of play.  Formulas read ``claimed`` and ``claim_made``
(this column claimed, and the claim was made) and ``played_out`` (every card was played).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekit.dsl.words import formula_words

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.phases.table import Table


@dataclass(frozen=True)
class ClaimSpec:
    """The ``claim:`` block.

    :ivar made_if: the condition a claim is judged by (a :class:`~rulekit.dsl.Formula` once the
        scoring is compiled; ``None`` before).
    :ivar when: ``lead`` (on lead, before leading) or ``turn`` (at any of his turns).
    :ivar at_end: when the cards run out unclaimed, a player whose claim is made claims it.
    """

    made_if: Any = None
    when: str = "lead"
    at_end: bool = False


def _column(state: Table, seat: int) -> int:
    v = state.variant
    return v.side_of[seat] if v.scoring.by_side else seat


def made(state: Table, spec: ClaimSpec, seat: int) -> bool:
    """Whether ``seat``'s claim holds now (``made_if`` on his column)."""
    if spec.made_if is None:
        return False
    return bool(spec.made_if(state.score_envs()[_column(state, seat)]))


def claim(state: Table, spec: ClaimSpec, data, seat: int) -> None:
    """``seat`` claims: the claim is judged now and play stops."""
    data.claim_made = made(state, spec, seat)
    data.claimer = seat
    state.hand.to_move = -1


def at_end(state: Table, spec: ClaimSpec, data, winner: int) -> None:
    """The cards have run out (``winner`` took the last trick): every card was played; with
    ``at_end``, the first player whose claim is made (the closer, the last trick's winner, the
    others in the direction of play) claims it."""
    data.played_out = True
    if not spec.at_end or data.claimer >= 0:
        return
    order = ([data.closed_by] if data.closed_by >= 0 else []) + [winner]
    s = winner
    for _ in range(state.variant.players - 1):
        s = state.next_seat(s)
        order.append(s)
    for s in dict.fromkeys(order):
        if made(state, spec, s):
            data.claimer, data.claim_made = s, True
            return


def compile_claim(c, p: dict, path: tuple) -> ClaimSpec:
    """The :class:`ClaimSpec` (its condition is compiled with the scoring: ``claim.made_if``)."""
    return ClaimSpec(None, p.get("when", "lead"), bool(p.get("at_end", False)))


def describe(spec: ClaimSpec, text: str) -> str:
    """The block in words (``text``: the condition as written)."""
    when = "on lead, before leading" if spec.when == "lead" else "at any of his turns"
    end = (" When the cards run out and nobody has claimed, a player whose claim would be made claims it "
           "(the player who closed the stock first, then the winner of the last trick)." if spec.at_end else "")
    return (f"A player may claim {when}: play stops at once, and the claim is made when "
            f"{formula_words(text)} (`{text}`) for him, else it fails.{end}")


SCHEMA = {
    'description': 'A player may stop the play by claiming (action `claim`): the claim is judged at once by '
                   '`made_if`. Formulas read `claimed`, `claim_made` and `played_out`.',
    'type': 'object', 'additionalProperties': False, 'required': ['made_if'],
    'properties': {
        'made_if': {'description': 'The condition over the scoring variables (of the claimer\'s column, at '
                                   'the moment of the claim) that makes the claim good, e.g. '
                                   '`"points + melds >= 66"`; `let` names may be used.',
                    'type': 'string'},
        'when': {'description': 'When a player may claim: `lead` (on lead, before leading; also right after '
                                'declaring a meld; default) or `turn` (at any of his turns).',
                 'enum': ['lead', 'turn']},
        'at_end': {'description': 'When the cards run out and nobody has claimed, a player whose claim '
                                  'would be made claims it: the player who closed the stock first, then the '
                                  'winner of the last trick, then the others.',
                   'type': 'boolean'}}}
