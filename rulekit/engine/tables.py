"""Tables of immutable actions and phase variables, built once per variant (hot-path caches
kept in :meth:`Variant.cached <rulekit.variant.model.Variant.cached>`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.engine.actions import Action
from rulekit.engine.phases import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.phases.base import PhaseKind, PhaseSpec
    from rulekit.variant.model import Variant

ACTIONS = "tables.actions"
PHASE_VARIABLES = "tables.phase_variables"


def action_tables(variant: Variant) -> dict[str, Any]:
    """Per-variant tables: ``play`` (card -> ``play CARD``), ``play_pairs`` (seat -> card -> what
    the match's record writes for that play: its choice, the card), ``bids`` (text -> bid action),
    ``bid_texts``, ``bid_by_text`` (text -> :class:`~rulekit.contracts.Bid`), ``kinds`` (the
    :class:`~rulekit.engine.phases.base.PhaseKind` of each phase, in order), ``legal_choices``
    and ``apply_choice`` (each phase's kind's, as read from the kind once: a kind's
    staticmethod read from it costs each call as much again as a plain function's)."""
    tables = variant.cache.get(ACTIONS)
    if tables is None:
        tables = variant.cached(ACTIONS, lambda: _action_tables(variant))
    return tables


def _action_tables(variant: Variant) -> dict[str, Any]:
    auction = variant.auction()
    bids = auction.bids if auction is not None else ()
    play = [Action.play(variant.deck, c) for c in range(variant.deck.size)]
    return {"play": play,
            # what the record writes for each (seat, card): the card (playout loops index it so)
            "play_pairs": tuple(tuple(range(variant.deck.size)) for _s in range(variant.players)),
            "kinds": tuple(REGISTRY[p.kind] for p in variant.phases),
            "legal_choices": tuple(REGISTRY[p.kind].legal_choices for p in variant.phases),
            "apply_choice": tuple(REGISTRY[p.kind].apply_choice for p in variant.phases),
            "bid_texts": tuple(b.text for b in bids),
            "bids": {b.text: Action.make_bid(b.text) for b in bids},
            "bid_by_text": {b.text: b for b in bids}}


def phase_variables(variant: Variant) -> tuple[tuple[PhaseKind, PhaseSpec, dict[str, int]], ...]:
    """``(kind, spec, defaults)`` of each phase whose kind gives formula variables
    (:meth:`~rulekit.engine.phases.base.PhaseKind.variables`), built once per variant;
    ``defaults`` name -> the value used when no hand is at hand (0 when in range)."""
    out = variant.cache.get(PHASE_VARIABLES)
    if out is None:
        out = variant.cached(PHASE_VARIABLES, lambda: _phase_variables(variant))
    return out


def _phase_variables(variant: Variant) -> tuple[tuple[PhaseKind, PhaseSpec, dict[str, int]], ...]:
    out = []
    for spec in variant.phases:
        kind = REGISTRY[spec.kind]
        names = kind.variables(spec)
        if names:
            out.append((kind, spec, {k: min(max(0, lo), hi) for k, (lo, hi) in names.items()}))
    return tuple(out)
