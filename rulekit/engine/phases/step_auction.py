"""``step_auction`` phase: number bids in steps of exactly one, "hold" by the earlier seat,
and a blind bid (played without the talon) that beats every number
(rules/preferans.md [A1]-[A7], seed 004).

* Number calls are the contract levels (``2``, ``3``...), each exactly one above the last
  number said; the first number is the lowest level ([A2]).
* ``hold``: a player who has said a number, earlier in rotation than the holder of the
  highest number, claims that same number; the later player must then go one higher or
  pass ([A3]).  A pass is final ([A4]).
* The blind call (``blind.call``, e.g. ``igra``) and the blind contracts named at once
  (``blind.direct``, e.g. ``betl``) may be said only at a player's first turn; after a
  blind call no number may be said; a direct call must outrank every earlier blind call
  ([A5]).  Several blind callers name their contracts in turn, earliest first: a later
  caller names a strictly higher contract or concedes with ``pass`` ([A6]).
* All pass: the deal is thrown in ([A7]).

The contract list (``contracts``) is every contract played with the talon; each has a
blind twin, ``<blind call>-<call>`` (``igra-pik``), ranked above all talon contracts.  The
phase sets ``hand.declarer`` and, when the contract is already fixed (a direct blind call
or the naming round), ``hand.contract``; otherwise it leaves the choices for the
``announce`` phase in its data (``choices``) and skips the phases of ``blind.skips``
(the talon exchange) after a blind win.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.contracts import NT, Bid
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, check_phase_names
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class StepAuctionSpec(PhaseSpec):
    """A compiled ``step_auction`` entry.

    :ivar bids: every contract as a :class:`~rulekit.contracts.Bid` (talon contracts by
        level, then their blind twins); ``strains`` their strains; ``null`` the calls of
        contracts where the declarer must take no trick; ``blind`` rank of the first blind bid.
    :ivar levels: the number calls, low to high (each contract's level, once).
    :ivar blind_call: the blind word; ``direct`` the contract calls that may be said blind at
        once; ``skips`` phase names skipped after a blind win.
    """

    bids: tuple
    strains: tuple
    levels: tuple
    null: frozenset
    blind: int
    blind_call: str
    direct: tuple
    skips: tuple
    hold: bool
    all_pass: str = "redeal"


@dataclass
class StepAuctionData(KindData):
    """A step auction's data for one hand.

    :ivar level: the highest number called (0: none); ``holder`` its holder (-1: none).
    :ivar passed: seats out of the auction; ``spoken`` seats that have spoken; ``numbered``
        seats that called a number.
    :ivar blind: ``(seat, call)`` of the blind calls.
    :ivar naming: the naming round's turn (-1: not begun); ``best`` / ``best_seat`` the best
        contract named so far and its caller.
    :ivar choices: the contract texts left for the declarer to announce.
    :ivar order: the seats in speaking order.
    """

    order: list[int]
    level: int = 0
    holder: int = -1
    passed: list[int] = field(default_factory=list)
    spoken: list[int] = field(default_factory=list)
    numbered: list[int] = field(default_factory=list)
    blind: list[tuple[int, str]] = field(default_factory=list)
    naming: int = -1
    best: str = ""
    best_seat: int = -1
    choices: list[str] = field(default_factory=list)


def _blind_text(spec, call: str) -> str:
    return f"{spec.blind_call}-{call}"


def start(state: Table) -> bool:
    """The eldest hand speaks first ([A1])."""
    h = state.hand
    n = state.variant.players
    h.phase_state[KIND.name] = StepAuctionData([state.next_seat(h.eldest, k) for k in range(n)])
    h.to_move = h.eldest
    return True


def _d(state: Table) -> StepAuctionData:
    return KIND.data(state)


def _rank(spec, text: str) -> int:
    return next(b.rank for b in spec.bids if b.text == text)


def _earlier(d, a: int, b: int) -> bool:
    return d.order.index(a) < d.order.index(b)


def legal(state: Table) -> list:
    """``pass``, then the next number, ``hold``, the blind call and the direct blind calls
    allowed now; in the naming round, the blind contracts the caller may name."""
    spec = KIND.spec(state)
    d = _d(state)
    seat = state.hand.to_move
    if d.naming >= 0:
        return _naming_legal(state, spec, d, seat)
    acts = [PASS]
    blind = [c for _s, c in d.blind]
    first_turn = seat not in d.spoken
    if not blind:
        nxt = [lv for lv in spec.levels if lv > d.level]
        if d.holder != seat and nxt:
            acts.append(Action("bid", str(nxt[0]), bid=str(nxt[0])))
        if (spec.hold and d.holder >= 0 and d.holder != seat and seat in d.numbered
                and _earlier(d, seat, d.holder)):
            acts.append(Action("hold", "hold"))
    if first_turn and spec.blind < len(spec.bids):   # blind calls exist only with a `blind:` block
        top = max((_rank(spec, _blind_text(spec, c)) for c in blind if c != spec.blind_call), default=-1)
        if top < 0:
            acts.append(Action("blind", spec.blind_call))
        for c in spec.direct:
            if _rank(spec, _blind_text(spec, c)) > top:
                acts.append(Action("blind", c))
    return acts


def _naming_legal(state: Table, spec, d, seat) -> list:
    """[A6] [X2]: a plain blind caller names a suit contract (blind); a later one only a
    strictly higher one, or concedes."""
    best = _rank(spec, d.best) if d.best else -1
    plain = [b for b in spec.bids[spec.blind:] if b.text.split("-", 1)[1] not in spec.direct
             and b.rank > best]
    acts = [Action("bid", b.text, bid=b.text) for b in plain]
    return ([PASS] if d.best else []) + acts


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: with the rule broken ([A2] steps of one, [A3] hold, [A5] blind)."""
    if action in legal(state):
        return
    spec = KIND.spec(state)
    d = _d(state)
    seat = state.hand.to_move
    if d.naming >= 0:
        raise IllegalActionError(f"name your contract played without the talon ({state.expected_forms()})")
    blind = [c for _s, c in d.blind]
    if action.kind == "bid" and blind:
        raise IllegalActionError(f"no number may be bid after {blind[0]}")
    if action.kind == "bid":
        nxt = [lv for lv in spec.levels if lv > d.level]
        if d.holder == seat:
            raise IllegalActionError("you hold the highest number already")
        if not nxt:
            raise IllegalActionError("no number is left to bid")
        raise IllegalActionError(f"numbers go up by exactly one: the next is {nxt[0]}, not {action.text}")
    if action.kind == "hold":
        raise IllegalActionError("only a player who said a number, earlier in rotation than the one who "
                                 "overbid him, may hold")
    if action.kind == "blind":
        if seat in d.spoken:
            raise IllegalActionError(f"{action.text} may only be said at your first turn")
        raise IllegalActionError(f"{action.text} does not outrank the call said before it")
    raise IllegalActionError(f"{action.text} is not allowed now; {state.expected_forms()}")


def apply(state: Table, action: Action) -> bool:
    """Record the call; end the auction when one player is left (or all passed)."""
    h = state.hand
    spec = KIND.spec(state)
    d = _d(state)
    seat = h.to_move
    h.calls.append((seat, action.text))
    if d.naming >= 0:
        return _apply_naming(state, spec, d, seat, action)
    d.spoken.append(seat)
    if action.kind == "pass":
        d.passed.append(seat)
    elif action.kind == "bid":
        d.level = int(action.text)
        d.holder = seat
        d.numbered.append(seat)
    elif action.kind == "hold":
        d.holder = seat
    else:
        d.blind.append((seat, action.text))
    order = d.order
    blind_seats = [s for s, _c in d.blind]
    waiting = [s for s in order if s not in d.passed and s not in blind_seats]
    if d.blind:
        # after a blind call only those who have not spoken yet may still speak ([A5])
        todo = [s for s in waiting if s not in d.spoken]
        if todo:
            h.to_move = _next_of(state, seat, todo)
            return False
        return _blind_won(state, spec, d)
    if not waiting:
        state.throw_in()  # [A7] all passed
        return True
    if len(waiting) == 1 and d.holder == waiting[0]:
        return _number_won(state, spec, d, waiting[0])
    h.to_move = _next_of(state, seat, waiting)
    return False


def _next_of(state: Table, seat: int, candidates: list) -> int:
    n = state.variant.players
    for k in range(1, n + 1):
        s = state.next_seat(seat, k)
        if s in candidates:
            return s
    return candidates[0]


def _number_won(state: Table, spec, d, seat: int) -> bool:
    """[X1]: the declarer takes the talon and announces a contract of at least his level."""
    h = state.hand
    h.declarer = seat
    choices = [b for b in spec.bids[:spec.blind] if b.level >= d.level]
    h.high = choices[0]
    h.high_seat = seat
    d.choices = [b.text for b in choices]
    return True


def _blind_won(state: Table, spec, d) -> bool:
    h = state.hand
    callers = d.blind
    if len(callers) == 1:
        seat, call = callers[0]
        if call != spec.blind_call:
            return _fix(state, spec, seat, _blind_text(spec, call))
        return _blind_declarer(state, spec, d, seat)
    # [A6] the naming round among several blind callers, earliest first
    d.naming = 0
    direct = [(s, c) for s, c in callers if c != spec.blind_call]
    if direct:  # a contract said at once outranks what plain callers could name
        top = max(direct, key=lambda sc: _rank(spec, _blind_text(spec, sc[1])))
        return _fix(state, spec, top[0], _blind_text(spec, top[1]))
    h.to_move = callers[0][0]
    return False


def _apply_naming(state: Table, spec, d, seat, action) -> bool:
    h = state.hand
    if action.kind == "bid":
        d.best, d.best_seat = action.text, seat
    d.naming += 1
    callers = d.blind
    if d.naming < len(callers):
        h.to_move = callers[d.naming][0]
        return False
    return _fix(state, spec, d.best_seat, d.best)


def _blind_declarer(state: Table, spec, d, seat: int) -> bool:
    """[X2]: a single plain blind caller announces a suit contract later, without the talon."""
    h = state.hand
    h.declarer = seat
    choices = [b for b in spec.bids[spec.blind:] if b.text.split("-", 1)[1] not in spec.direct]
    h.high, h.high_seat = choices[0], seat
    d.choices = [b.text for b in choices]
    state.skip_phases(spec.skips)
    return True


def _fix(state: Table, spec, seat: int, text: str) -> bool:
    """The contract is known at the end of the auction (blind, direct or named)."""
    h = state.hand
    bid = next(b for b in spec.bids if b.text == text)
    h.declarer = seat
    h.high, h.high_seat = bid, seat
    _d(state).choices = [text]
    state.skip_phases(spec.skips)
    return True


def contract_values(spec, contract) -> dict:
    """``{"blind": 0|1, "null": 0|1}`` of ``contract`` (a Bid, or ``None``)."""
    if contract is None:
        return {"blind": 0, "null": 0}
    return {"blind": int(contract.rank >= spec.blind), "null": int(contract.text in spec.null)}


def compile_step_auction(c, name: str, p: dict, path: tuple):
    """The :class:`StepAuctionSpec` of a ``step_auction`` entry."""
    contracts = p["contracts"]
    bids: list = []
    seen: set = set()
    levels: list = []
    for i, x in enumerate(contracts):
        if x["strain"] != NT and x["strain"] not in c.deck.suits:
            c.err(path + ("contracts", i, "strain"), f"unknown strain {x['strain']} "
                  f"(expected one of {' '.join(c.deck.suits)} or NT)")
        if x["call"] in seen:
            c.err(path + ("contracts", i, "call"), f"contract {x['call']!r} is listed twice (expected each once)")
        if levels and x["level"] != levels[-1] + 1:
            c.err(path + ("contracts", i, "level"), f"levels go up by exactly one (found {x['level']} "
                  f"after {levels[-1]})")
        seen.add(x["call"])
        levels.append(x["level"])
        bids.append(Bid(x["call"], x["level"], x["strain"], len(bids)))
    blind = p.get("blind") or {}
    call = blind.get("call", "blind")
    direct = tuple(blind.get("direct", ()))
    for i, dc in enumerate(direct):
        if dc not in seen:
            c.err(path + ("blind", "direct", i), f"unknown contract {dc!r}{c.close(dc, seen)} "
                  f"(expected one of {', '.join(x['call'] for x in contracts)})")
    first_blind = len(bids)
    if blind:
        for b in list(bids):
            bids.append(Bid(f"{call}-{b.text}", b.level, b.strain, len(bids)))
    skips = tuple(blind.get("skips", ()))
    check_phase_names(c, path + ("blind", "skips"), skips)
    null = frozenset(x["call"] for x in contracts if x.get("null"))
    null |= frozenset(f"{call}-{x}" for x in null)
    return StepAuctionSpec("step_auction", name, tuple(bids), tuple(dict.fromkeys(b.strain for b in bids)),
                           tuple(levels), null, first_blind, call, direct, skips, bool(p.get("hold", True)))


class StepAuctionKind(PhaseKind[StepAuctionSpec]):
    """The ``step_auction`` kind (see the module docstring)."""

    name = "step_auction"
    schema = {
        "description": "Number bids in steps of exactly one, hold by the earlier seat, and a blind bid "
                       "(without the talon) that beats every number; all pass throws the deal in.",
        "type": "object", "additionalProperties": False, "required": ["kind", "contracts"],
        "properties": {
            "kind": True,
            "contracts": {"description": "The contracts, lowest first; each level is one above the last "
                                         "and is the number called for it.",
                          "type": "array", "minItems": 1,
                          "items": {"type": "object", "additionalProperties": False,
                                    "required": ["call", "level", "strain"],
                                    "properties": {
                                        "call": {"description": "Its name (pik).", "type": "string",
                                                 "pattern": "^[a-z][a-z0-9]*$"},
                                        "level": {"description": "Its number in the auction.",
                                                  "type": "integer", "minimum": 1, "maximum": 52},
                                        "strain": {"$ref": "#/$defs/strain"},
                                        "null": {"description": "The declarer must take no trick (betl).",
                                                 "type": "boolean"}}}},
            "hold": {"description": "A player earlier in rotation may hold the number that overbid him.",
                     "type": "boolean"},
            "blind": {"description": "The bid played without the talon: said only at a player's first "
                                     "turn, it beats every number.",
                      "type": "object", "additionalProperties": False, "required": ["call"],
                      "properties": {
                          "call": {"description": "Its word (igra).", "type": "string",
                                   "pattern": "^[a-z][a-z0-9]*$"},
                          "direct": {"description": "Contracts that may be named at once, blind.",
                                     "type": "array", "items": {"type": "string"}},
                          "skips": {"description": "Phases skipped after a blind win (the talon "
                                                   "exchange).",
                                    "type": "array", "items": {"type": "string"}}}}}}
    label = "bid"
    role = "auction"
    values_from_contract = True   # blind, null: from the contract's text
    example = ("bidding:\n  kind: step_auction\n  contracts:\n    - {call: low, level: 2, strain: S}\n"
               "    - {call: high, level: 3, strain: H}\n  blind: {call: blind, skips: [talon]}")
    compile = staticmethod(compile_step_auction)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def variables(self, spec) -> dict:
        """``blind``: the contract is played without the talon; ``null``: the declarer must take
        no trick."""
        return {"blind": (0, 1), "null": (0, 1)}

    def values(self, variant, hand, spec) -> list:
        """The same for every column, from the contract."""
        return [contract_values(spec, hand.contract)] * variant.players

    def pad_values(self, spec, variant, facts: dict, contract, won: list) -> list:
        """``blind`` and ``null`` from the contract typed (its blind twin says blind)."""
        return [contract_values(spec, contract)] * variant.players

    def plays_all_passed(self, spec) -> bool:
        """``all_pass: play``: a hand that all passed is played without a contract."""
        return spec.all_pass == "play"

    def contracts(self, spec) -> tuple:
        """Every contract (talon contracts by level, then their blind twins)."""
        return spec.bids

    def bid_tricks(self, spec, bid) -> int | None:
        """``None``: a level is the contract's number, not tricks to win."""
        return None

    def null_bid(self, spec, bid) -> bool:
        """A contract of ``null`` (the declarer must take no trick)."""
        return bid.text in spec.null

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass``, every number, ``hold``, the blind calls and every contract."""
        blind = (spec.blind_call, *spec.direct) if spec.blind < len(spec.bids) else ()
        return (("pass",) + tuple(str(lv) for lv in spec.levels) + (("hold",) if spec.hold else ())
                + blind + tuple(b.text for b in spec.bids))

    def parse(self, text: str, state: Table) -> Action | None:
        """Numbers, ``hold``, the blind word and direct calls; contract names in the naming round."""
        spec = KIND.spec(state)
        t = text.strip().lower()
        if t.isdigit():
            return Action("bid", str(int(t)), bid=str(int(t)))
        if t == "hold":
            return Action("hold", "hold")
        if _d(state).naming >= 0:
            for b in spec.bids[spec.blind:]:
                if t in (b.text, b.text.split("-", 1)[1]):
                    return Action("bid", b.text, bid=b.text)
        if t == spec.blind_call or t in spec.direct:
            return Action("blind", t)
        return None

    def help_line(self, spec, variant) -> str:
        """The call forms."""
        lv = spec.levels
        direct = ", ".join(spec.direct)
        return (f"pass, a number {lv[0]}..{lv[-1]} (one above the last), hold, {spec.blind_call}"
                + (f", {direct}" if direct else "") + " (blind: only at your first turn)")

    def choices_left(self, hand) -> list:
        """The contracts the auction left for its declarer to announce."""
        d = self.data_of(hand)
        return list(d.choices) if d is not None else []

    def observe(self, state: Table, seat: int) -> dict:
        """Public: the level, its holder, the blind calls."""
        d = _d(state)
        return {"level": d.level, "holder": d.holder, "blind": list(d.blind)}


KIND = StepAuctionKind()
