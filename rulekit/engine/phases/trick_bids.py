"""``trick_bids`` phase: every player in turn bids the number of tricks he expects to take.

Once round the table from the eldest hand, each player says ``bid N`` (0 to the hand's
tricks).  With ``hook: true`` the last to bid (the dealer) may not make the bids add up
to the number of tricks (the "dealer's hook": someone must fail).  No contract and no
declarer: scoring reads the bids through the formula variables this kind gives
(:meth:`TrickBidsKind.variables`), per score column (a seat, or a side's seats added):

``bid`` the column's bid (a side: its non-zero bids added), ``bid_tricks`` the tricks of
the column's players who bid more than 0, ``nil_bids`` how many of its players bid 0,
``nil_made`` how many of them took no trick, ``nil_failed`` how many took one or more.
So an exact bid is ``tricks == bid``, a made side contract ``bid_tricks >= bid``.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.engine.actions import Action
from rulekit.engine.phases.base import PhaseKind
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class TrickBidsSpec:
    """Compiled ``trick_bids`` entry: ``hook`` forbids the last bid that makes the sum equal
    the tricks of the hand; ``nil`` allows a bid of 0; ``most`` caps a bid (``None``: the
    hand's tricks)."""

    kind: str
    name: str
    hook: bool
    nil: bool
    least: int
    most: int | None


def tricks_in_hand(state) -> int:
    """Cards each player holds now (the tricks of the hand)."""
    return state.hand.hands[state.hand.to_move].bit_count()


def _action(n: int) -> Action:
    return Action("bid", f"bid {n}", bid=str(n))


def start(state) -> bool:
    h = state.hand
    h.phase_state["trick_bids"] = {"bids": [-1] * state.variant.players, "count": 0,
                                   "tricks": h.hands[h.eldest].bit_count()}
    h.to_move = h.eldest
    return True


def legal(state) -> list:
    """``bid N`` for each allowed N, lowest first."""
    spec = state.current_phase
    d = state.hand.phase_state["trick_bids"]
    total = d["tricks"]
    top = total if spec.most is None else min(total, spec.most)
    out = sorted(set(range(spec.least, top + 1)) | ({0} if spec.nil else set()))
    if spec.hook and d["count"] == state.variant.players - 1:
        so_far = sum(b for b in d["bids"] if b > 0)
        out = [n for n in out if so_far + n != total]
    return [_action(n) for n in out]


def check(state, action) -> None:
    """:raises IllegalActionError: not a bid, or one the rules forbid (with why)."""
    if action in legal(state):
        return
    d = state.hand.phase_state["trick_bids"]
    if action.kind == "bid" and action.bid.isdigit():
        n = int(action.bid)
        so_far = sum(b for b in d["bids"] if b > 0)
        if state.current_phase.hook and d["count"] == state.variant.players - 1 and so_far + n == d["tricks"]:
            raise IllegalActionError(f"bid {n} is not allowed: the bids would add up to the {d['tricks']} tricks "
                                     f"of the hand (the last bidder must make someone fail)")
    allowed = ", ".join(a.text for a in legal(state))
    raise IllegalActionError(f"{action.text} is not allowed now (expected one of {allowed})")


def apply(state, action) -> bool:
    h = state.hand
    d = h.phase_state["trick_bids"]
    d["bids"][h.to_move] = int(action.bid)
    h.calls.append((h.to_move, action.text))   # public: the table and the record show every bid
    d["count"] += 1
    if d["count"] == state.variant.players:
        return True
    h.to_move = state.next_seat(h.to_move)
    return False


class TrickBidsKind(PhaseKind):
    """The ``trick_bids`` kind (see the module docstring)."""

    name = "trick_bids"
    schema = {"description": "Each player in turn from the eldest hand bids the number of tricks he will "
                             "take (bid N); scoring reads bid, bid_tricks, nil_bids, nil_made, nil_failed.",
              "type": "object",
              "additionalProperties": False,
              "required": ["kind"],
              "properties": {"kind": True,
                             "hook": {"description": "The last bidder (the dealer) may not bid so that the bids "
                                                     "add up to the tricks of the hand.",
                                      "type": "boolean"},
                             "nil": {"description": "A bid of 0 (nil) is allowed even when least is above 0 (default true).",
                                     "type": "boolean"},
                             "least": {"description": "The lowest bid other than nil (default 0).",
                                       "type": "integer", "minimum": 0, "maximum": 52},
                             "most": {"description": "The highest bid (default: the tricks of the hand).",
                                      "type": "integer", "minimum": 0, "maximum": 52}}}
    label = "bid"
    example = "bidding: {kind: trick_bids, hook: true}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`TrickBidsSpec`."""
        least, most = p.get("least", 0), p.get("most")
        if most is not None and most < least:
            c.err(path + ("most",), f"most {most} is below least {least} (expected most >= least)")
        return TrickBidsSpec("trick_bids", name, bool(p.get("hook", False)), bool(p.get("nil", True)), least, most)

    def variables(self, spec) -> dict:
        """``bid``, ``bid_tricks``, ``nil_bids``, ``nil_made``, ``nil_failed`` (see the module)."""
        return {"bid": (0, 52), "bid_tricks": (0, 52), "nil_bids": (0, 8), "nil_made": (0, 8), "nil_failed": (0, 8)}

    def values(self, variant, hand, spec) -> list:
        """Per score column, from the bids and the tricks won."""
        d = hand.phase_state.get("trick_bids")
        cols = variant.sides if variant.scoring.by_side else tuple((s,) for s in range(variant.players))
        out = []
        for seats in cols:
            bids = [d["bids"][s] if d else 0 for s in seats]
            out.append({"bid": sum(b for b in bids if b > 0),
                        "bid_tricks": sum(hand.won[s] for s, b in zip(seats, bids) if b > 0),
                        "nil_bids": sum(1 for b in bids if b == 0),
                        "nil_made": sum(1 for s, b in zip(seats, bids) if b == 0 and hand.won[s] == 0),
                        "nil_failed": sum(1 for s, b in zip(seats, bids) if b == 0 and hand.won[s] > 0)})
        return out

    def describe(self, spec) -> str:
        """One paragraph."""
        rng = f"from {spec.least}" + (f" to {spec.most}" if spec.most is not None
                                      else " up to the number of tricks in the hand")
        nil = " or nil (0)" if spec.nil and spec.least > 0 else ""
        hook = (" The dealer, bidding last, may not bid the number that would make the bids add up to the "
                "tricks of the hand, so that someone must fail." if spec.hook else "")
        return (f"Each player in turn, starting with the eldest hand, bids how many tricks he will take, "
                f"{rng}{nil}.{hook}")

    def parse(self, text: str, state) -> Action | None:
        """``bid N`` (or just ``N``)."""
        w = text.split()
        if len(w) == 2 and w[0].lower() == "bid" and w[1].isdigit():
            return _action(int(w[1]))
        if len(w) == 1 and w[0].isdigit():
            return _action(int(w[0]))
        return None

    def help_line(self, spec, variant) -> str:
        """The bid form."""
        return "bid N (the tricks you will take)"

    def observe(self, state, seat: int) -> dict:
        """``bids``: the bids so far, -1 for not yet (public)."""
        d = state.hand.phase_state.get("trick_bids")
        return {"bids": list(d["bids"])} if d else {}


KIND = TrickBidsKind()
