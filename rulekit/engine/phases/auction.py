"""``ladder_auction`` phase: ascending bids, last bidder standing declares
(rules/fivehundred.md [A1]-[A5]).

Bids rank by level then strain; ``extra_bids`` sit above the ladder and may
require a given bid to be the highest so far (``10T`` only over ``10NT``, [A4]).
With ``pass_is_final`` a player who passes is out ([A3]).  The auction ends
when all but one have passed and that one holds the highest bid, or when all
pass ([A5]).
"""
from __future__ import annotations

from rulekit.engine.actions import PASS
from rulekit.engine.tables import action_tables
from rulekit.errors import IllegalActionError


def start(state) -> bool:
    """The first speaker is the eldest hand (or the dealer)."""
    h = state.hand
    spec = state.current_phase
    h.to_move = h.eldest if spec.first == "eldest" else h.dealer
    return True


def _legal_bids(state) -> tuple:
    """The bids that outrank the highest so far (cached per highest bid)."""
    h = state.hand
    top = h.high.rank if h.high is not None else -1
    cache = action_tables(state.variant)["legal_bids"]
    bids = cache.get(top)
    if bids is None:
        bids = cache[top] = tuple(b for b in state.current_phase.bids
                                  if b.rank > top and (b.only_over < 0 or b.only_over == top))
    return bids


def legal(state) -> list:
    """``pass`` then every bid that outranks the highest so far, lowest first."""
    acts = state.bid_actions
    return [PASS] + [acts[b.text] for b in _legal_bids(state)]


def check(state, action) -> None:
    """:raises IllegalActionError: a bid that does not outrank the highest ([A2], [A4])."""
    if action.kind == "pass":
        return
    spec = state.current_phase
    if action.kind != "bid":
        raise IllegalActionError(f"this is the auction: pass or bid (e.g. {spec.bids[0].text})")
    bid = state.bid_by_text.get(action.bid)
    if bid is None:
        raise IllegalActionError(f"{action.bid} is not a bid of this game")
    h = state.hand
    top = h.high.rank if h.high is not None else -1
    if bid.rank <= top or (bid.only_over >= 0 and bid.only_over != top):
        if bid.only_over >= 0 and top != bid.only_over:
            need = spec.bids[bid.only_over].text
            raise IllegalActionError(f"{bid.text} may only overcall {need}")
        raise IllegalActionError(f"{bid.text} does not outrank the highest bid {h.high.text}")


def apply(state, action) -> bool:
    """Record the call; end the auction and set the contract when it is over."""
    h = state.hand
    spec = state.current_phase
    n = state.variant.players
    seat = h.to_move
    h.calls.append((seat, action.text))
    if action.kind == "pass":
        h.passed.add(seat)
    else:
        h.high = state.bid_by_text[action.bid]
        h.high_seat = seat
    active = [s for s in range(n) if s not in h.passed]
    if not active:
        return _all_passed(state)
    if len(active) == 1 and h.high is not None and active[0] == h.high_seat:
        h.contract = h.high
        h.declarer = h.high_seat
        if h.high.strain != "chosen":
            state.set_trump(h.high.strain)
        return True
    nxt = (seat + 1) % n
    while nxt in h.passed and spec.pass_is_final:
        nxt = (nxt + 1) % n
    h.to_move = nxt
    return False


def _all_passed(state) -> bool:
    """[A5] [N1]: no contract; play at no trump, or throw the hand in."""
    if state.current_phase.all_pass == "redeal":
        state.throw_in()
        return True
    state.set_trump("NT")
    return True
