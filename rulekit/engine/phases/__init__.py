"""Phase kinds: one module each, registered by the ``kind`` word of the schema.

A phase module provides ``start(state) -> bool`` (False: the phase does not
apply to this hand and is skipped), ``legal(state) -> list[Action]``,
``check(state, action)`` (raises :class:`~rulekit.errors.IllegalActionError`
with the rule broken) and ``apply(state, action) -> bool`` (True when the
phase is over).
"""
from rulekit.engine.phases import auction, contract_auction, deal, exchange, name_trump, tricks, turn_up

REGISTRY = {
    "deal": deal,
    "ladder_auction": auction,
    "widow_exchange": exchange,
    "name_trump": name_trump,
    "tricks": tricks,
    "contract_auction": contract_auction,
    "turn_up": turn_up,
}
