"""``contract_auction`` phase: calls with double and redouble, passes that do not
exclude (rules/bridge.md [A1]-[A6]).

A call is ``pass``, a bid (level and strain, higher than the last bid), ``X``
(double the last bid, made by an opponent and not yet doubled) or ``XX``
(redouble one's own side's doubled bid).  A new bid cancels any double.  The
auction ends after three passes in a row that follow a call; four passes at
the start throw the deal in (``all_pass``).  The declarer is the player of the
contracting side who first named the strain of the final contract.
"""
from __future__ import annotations

from rulekit.engine.actions import DOUBLE, PASS, REDOUBLE
from rulekit.errors import IllegalActionError


def start(state) -> bool:
    """The dealer (or the eldest hand) calls first."""
    h = state.hand
    spec = state.current_phase
    h.to_move = h.dealer if spec.first == "dealer" else h.eldest
    h.doubled = 0
    h.passes = 0
    return True


def _side(state, seat):
    return state.variant.side_of[seat]


def legal(state) -> list:
    """``pass``, the bids above the last one (low to high), then ``X`` / ``XX`` when allowed."""
    h = state.hand
    spec = state.current_phase
    top = h.high.rank if h.high is not None else -1
    acts = state.bid_actions
    out = [PASS] + [acts[b.text] for b in spec.bids if b.rank > top]
    if h.high is not None:
        mine = _side(state, h.to_move) == _side(state, h.high_seat)
        if spec.double and h.doubled == 0 and not mine:
            out.append(DOUBLE)
        if spec.redouble and h.doubled == 1 and mine:
            out.append(REDOUBLE)
    return out


def check(state, action) -> None:
    """:raises IllegalActionError: a bid not above the last, or a double/redouble not allowed now."""
    h = state.hand
    if action.kind == "pass":
        return
    if action.kind == "bid":
        bid = state.bid_by_text.get(action.bid)
        if bid is None:
            raise IllegalActionError(f"{action.bid} is not a bid of this game")
        if h.high is not None and bid.rank <= h.high.rank:
            raise IllegalActionError(f"{bid.text} is not higher than the last bid {h.high.text}")
        return
    if action.kind in ("double", "redouble"):
        if action not in legal(state):
            if h.high is None:
                raise IllegalActionError("there is no bid to double yet")
            mine = _side(state, h.to_move) == _side(state, h.high_seat)
            if action.kind == "double":
                why = ("you cannot double your own side's bid" if mine else
                       "the last bid is already doubled")
            elif h.doubled == 0:
                why = "there is no double to redouble"
            else:
                why = ("only the side whose bid was doubled may redouble" if not mine else
                       "the bid is already redoubled")
            raise IllegalActionError(why)
        return
    raise IllegalActionError("this is the auction: pass, a bid such as 1H, X (double) or XX (redouble)")


def apply(state, action) -> bool:
    """Record the call; at the end set contract, doubling and declarer."""
    h = state.hand
    spec = state.current_phase
    n = state.variant.players
    seat = h.to_move
    h.calls.append((seat, action.text))
    if action.kind == "pass":
        h.passes += 1
    else:
        h.passes = 0
        if action.kind == "bid":
            h.high = state.bid_by_text[action.bid]
            h.high_seat = seat
            h.doubled = 0
        elif action.kind == "double":
            h.doubled = 1
        else:
            h.doubled = 2
    if h.high is None and h.passes == n:
        if spec.all_pass == "play":
            state.set_trump("NT")
            return True
        state.throw_in(same_dealer=spec.all_pass == "redeal_same")
        return True
    if h.high is not None and h.passes == n - 1:
        side = _side(state, h.high_seat)
        strain = h.high.strain
        first = next(s for s, text in _bids_in_order(state, h.calls)
                     if _side(state, s) == side and _strain_of(spec, text) == strain)
        h.contract = h.high
        h.declarer = first
        state.set_trump(strain)
        return True
    h.to_move = (seat + 1) % n
    return False


def _bids_in_order(state, calls):
    for s, text in calls:
        if text not in ("pass", "X", "XX"):
            yield s, text


def _strain_of(spec, text):
    return next(b.strain for b in spec.bids if b.text == text)
