"""Phase kinds: one module each, registered by the ``kind`` word of the schema.

Each kind is a :class:`~rulekit.engine.phases.base.PhaseKind` (its schema block,
compile checks, ``start / legal / check / apply``, action words, label, what it
adds to an observation, ``describe()`` and a worked example).  Everything else
reads :data:`REGISTRY`: the schema (:func:`rulekit.schemas.composed_schema`), the
compiler, :class:`~rulekit.engine.state.State`, the bots, the CLI and the docs.

>>> kind_of("tricks").role
'play'
"""
from __future__ import annotations

from rulekit.engine.phases import (announce, auction, call_partner, contract_auction, deal, defence, domino,
                                   exchange, fixed_trump, list_auction, name_trump, order_up, pass_cards, pile,
                                   set_aside, split_choice, step_auction, trick_bids, tricks, turn_card, turn_up)
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.registry import REGISTRY, canonical, kind_of, kinds_with_role, register, unregister, version

for _m in (deal, auction, contract_auction, exchange, name_trump, turn_up, trick_bids, tricks, step_auction, announce,
           defence, list_auction, call_partner, set_aside, turn_card, pile, domino, split_choice,
           pass_cards, fixed_trump, order_up):
    register(_m.KIND)

__all__ = ["PhaseKind", "PhaseSpec", "REGISTRY", "canonical", "kind_of", "kinds_with_role", "register", "unregister",
           "version"]
