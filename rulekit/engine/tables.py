"""Tables of immutable actions built once per variant (hot-path caches)."""
from __future__ import annotations

from rulekit.engine.actions import Action


def action_tables(variant) -> dict:
    """Per-variant tables of immutable actions, built once and kept on the variant:
    ``play`` (card -> ``play CARD``), ``play_pairs`` (seat -> card -> ``(seat, play CARD)``), ``bids`` (text -> bid action), ``bid_texts``,
    ``bid_by_text`` (text -> :class:`~rulekit.contracts.Bid`); ``legal_bids``, ``legal_calls``
    and ``contract_bids``: the auctions' caches of the bids (or calls) above each highest bid."""
    tables = variant.__dict__.get("_action_tables")
    if tables is None:
        auction = variant.auction()
        bids = auction.bids if auction else ()
        play = [Action.play(variant.deck, c) for c in range(variant.deck.size)]
        tables = {"play": play,
                  # (seat, play CARD) log entries, shared: a long match logs thousands of them
                  "play_pairs": tuple(tuple((s, a) for a in play) for s in range(variant.players)),
                  "bid_texts": tuple(b.text for b in bids),
                  "bids": {b.text: Action.make_bid(b.text) for b in bids},
                  "bid_by_text": {b.text: b for b in bids},
                  "legal_bids": {},
                  "legal_calls": {},
                  "contract_bids": {}}
        object.__setattr__(variant, "_action_tables", tables)
    return tables


def phase_variables(variant) -> tuple:
    """``(kind, spec, defaults)`` of each phase whose kind gives formula variables
    (:meth:`~rulekit.engine.phases.base.PhaseKind.variables`), built once per variant;
    ``defaults`` name -> the value used when no hand is at hand (0 when in range)."""
    out = variant.__dict__.get("_phase_variables")
    if out is None:
        from rulekit.engine.phases import REGISTRY
        out = []
        for spec in variant.phases:
            kind = REGISTRY[spec.kind]
            names = kind.variables(spec)
            if names:
                out.append((kind, spec, {k: min(max(0, lo), hi) for k, (lo, hi) in names.items()}))
        out = tuple(out)
        object.__setattr__(variant, "_phase_variables", out)
    return out
