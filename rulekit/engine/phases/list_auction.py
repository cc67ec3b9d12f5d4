"""``list_auction`` phase: bidding from a list of contracts ranked by value, ties allowed
(rules/boston.md [A1]-[A3]).

Each contract is a record with attributes: its call, the tricks it undertakes, its trumps
(one contract per suit with ``trumps: each``, none for a null), its value, and whether it
is a null game, an open game, how many cards the declarer puts aside and whether he may
call a partner.  With ``once`` each player speaks exactly once (Auction Pitch); with
``dealer_holds`` the dealer may take the highest bid at its value ("hold"); with
``all_pass: dealer`` the dealer may not pass when all before him have (he must bid).  A value may depend on the suit's class this hand (``suit_class``: 1, 2
or 3, published by another phase such as ``turn_card``; 1 when none does), so the list
is valued anew at the start of every auction.  A bid must be worth MORE than the highest
so far: equal values cannot overcall each other.  The attributes are formula variables
(``value``, ``null``, ``open_game``, ``aside``, ``partner_allowed``).

With ``values`` the bids are numbers only (Skat's 18, 20, 22 ...): the winner is the
declarer at his bid (formula variable ``bid``) and names his game from ``contracts``
afterwards (the ``announce`` phase); whether the game reaches the bid is the scoring's
(an overbid game).  ``speaking: pairs`` is the order of Skat ([SK-B3]-[SK-B6]): the second
player speaks to the first, who holds (``hold``) or passes, the one who passes is out; the
next player then speaks to the survivor; when nobody named a value the survivor may bid
the lowest or pass.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import cast

from rulekit.contracts import Contract
from rulekit.dsl import Env, FormulaError, compile_expr
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, check_phase_names
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError

NT = "NT"
#: the trumps of a contract whose declarer names them after the auction (``trumps: chosen``)
CHOSEN = "chosen"


def _has_kind(c, kind: str) -> bool:
    """The variant being compiled has a phase of ``kind``."""
    phases = c.d.get("phases") if isinstance(c.d.get("phases"), dict) else {}
    return any(isinstance(e, dict) and e.get("kind") == kind for e in phases.values())


@dataclass(frozen=True)
class ListAuctionSpec(PhaseSpec):
    """``list_auction`` phase: the contracts (:class:`~rulekit.contracts.Contract`) in list order."""

    first: str
    bids: tuple
    strains: tuple
    pass_is_final: bool
    all_pass: str
    once: bool = False
    dealer_holds: bool = False
    games: tuple = ()
    """With ``values``: the contracts, named by the declarer after the auction (``bids`` then
    holds the value bids, then these)."""
    values: tuple = ()
    """The value bids (``values``): a :class:`~rulekit.contracts.Contract` per number, of
    no trumps and no tricks, worth the number; ``()``: the contracts are the bids."""
    speaking: str = "round"
    """``round`` (each in turn) or ``pairs`` (a speaker bids to a listener who holds or
    passes: [SK-B3]-[SK-B6])."""


HOLD = Action("hold", "hold")
RESERVE = Action("reservation", "reservation")


@dataclass
class ListAuctionData(KindData):
    """A list auction's data for one hand: ``bids``, the contracts valued for this hand's suit
    classes (with ``values``: the value bids); ``passed``, the seats out; ``spoken``, calls so
    far (an auction where each speaks once).  With ``values``: ``games``, the contracts
    valued for this hand, ``bid``, the declarer's bid (0 before the end).  With ``speaking:
    pairs``: ``listener`` and ``speaker`` of the pair now, ``queue`` the seats still to speak,
    ``last`` the survivor may bid the lowest value alone.  With ``speaking: reservations``:
    ``reserved`` the seats that made a reservation, ``naming`` they now name their games
    (``queue`` in turn), ``level`` the value named in this round (``None``: every value, a
    single reservation)."""

    bids: tuple
    passed: list[int] = field(default_factory=list)
    spoken: int = 0
    games: tuple = ()
    bid: int = 0
    listener: int = -1
    speaker: int = -1
    queue: list[int] = field(default_factory=list)
    last: bool = False
    reserved: list[int] = field(default_factory=list)
    naming: bool = False
    level: int | None = None


def suit_classes(state: Table) -> dict:
    """Suit -> class (1, 2, 3) published this hand by a phase (``suit_classes`` in its data),
    or ``{}``."""
    for d in state.hand.phase_state.values():
        classes = getattr(d, "suit_classes", None)   # (the data of the kind that publishes them)
        if classes is not None:
            return classes
    return {}


def hand_bids(state: Table, spec) -> tuple:
    """The contracts of ``spec`` (:class:`~rulekit.contracts.Contract`) valued for this
    hand's suit classes."""
    classes = suit_classes(state)
    return tuple(replace(b, value=b.values[classes.get(b.strain, 1) - 1])
                 for b in (spec.games or spec.bids))


def start(state: Table) -> bool:
    """Value the contracts for this hand; the first speaker is the eldest hand (or the dealer);
    in pairs, the next one speaks to him ([SK-B3])."""
    h = state.hand
    spec = KIND.spec(state)
    first = h.eldest if spec.first == "eldest" else h.dealer
    if spec.values:
        d = ListAuctionData(spec.values, games=hand_bids(state, spec))
    else:
        d = ListAuctionData(hand_bids(state, spec))
    h.phase_state[KIND.name] = d
    h.to_move = first
    if spec.speaking == "pairs":
        order = [state.next_seat(first, k) for k in range(state.variant.players)]
        d.listener, d.speaker, d.queue = order[0], order[1], order[2:]
        h.to_move = d.speaker
    elif spec.speaking == "reservations":
        d.queue = [state.next_seat(first, k) for k in range(state.variant.players)]
    return True


# ---------------------------------------------------------------------- reservations
def _may_name(state: Table, seat: int, b: Contract) -> bool:
    """Whether ``seat`` holds the cards contract ``b`` asks (``holds``)."""
    from rulekit.engine.phases.partner_card import holds_all
    return holds_all(state.hand.hands[seat], b.holds)


def _reservation_legal(state: Table) -> list:
    """Asked: ``pass`` or ``reservation``.  Naming after a single reservation: every contract he
    may name; in a round of several: the contracts of the round's value, and ``pass`` only when
    he may name one of a lower value (his reservation was for it)."""
    d = KIND.data(state)
    if not d.naming:
        return [PASS, RESERVE]
    seat = state.hand.to_move
    mine = [b for b in d.bids if _may_name(state, seat, b)]
    acts = state.bid_actions
    if d.level is None:
        return [acts[b.text] for b in sorted(mine, key=lambda b: (b.value, b.rank))]
    now = [acts[b.text] for b in sorted(mine, key=lambda b: b.rank) if b.value == d.level]
    return ([PASS] if any(b.value < d.level for b in mine) else []) + now


def _reservation_refusal(state: Table, action: Action) -> str:
    """Why ``action`` is not allowed now in the reservations."""
    d = KIND.data(state)
    b = next((x for x in d.bids if x.text == action.bid), None) if action.kind == "bid" else None
    if b is not None and not _may_name(state, state.hand.to_move, b):
        deck = state.variant.deck
        need = " ".join(" ".join([deck.pretty((m & -m).bit_length() - 1).split(":")[0]] * n) for m, n in b.holds)
        return f"{b.text} needs {need} in your hand"
    if not d.naming:
        return "say pass (no reservation) or reservation"
    if action.kind == "pass":
        return ("you made a reservation: name your game" if d.level is None else
                f"you made a reservation and may name no game below {d.level}: name a game worth {d.level}")
    if b is not None and d.level is not None:
        return f"this round names the games worth {d.level} ({b.text} is worth {b.value})"
    return "name one of " + ", ".join(a.text for a in _reservation_legal(state))


def _apply_reservation(state: Table, action: Action) -> bool:
    """A reservation, a pass or a game named ([DK-R1]-[DK-R3]): after everyone was asked, no
    reservation plays without a contract (the trumps set before kept); one names any game he
    may; several name, round by round from the highest value down, in turn from the first
    speaker, and the first game named wins."""
    h = state.hand
    d = KIND.data(state)
    seat = h.to_move
    d.queue.pop(0)
    if not d.naming:
        if action == RESERVE:
            d.reserved.append(seat)
        if d.queue:
            h.to_move = d.queue[0]
            return False
        if not d.reserved:   # everyone passed: no contract
            if KIND.spec(state).all_pass == "redeal":
                state.throw_in()
            return True
        d.naming, d.queue = True, list(d.reserved)
        if len(d.reserved) > 1:
            d.level = max(b.value for b in d.bids)
        h.to_move = d.queue[0]
        return False
    if action.kind == "bid":
        h.high = next(b for b in d.bids if b.text == action.bid)
        h.high_seat = seat
        _win(state, seat)
        return True
    if not d.queue:   # all passed this round: the next lower value
        lower = [b.value for b in d.bids if d.level is not None and b.value < d.level]
        if not lower:
            state.throw_in()
            return True
        d.level, d.queue = max(lower), list(d.reserved)
    h.to_move = d.queue[0]
    return False


def _high(state: Table) -> Contract | None:
    """The highest bid so far: one of this auction's contracts."""
    return cast(Contract | None, state.hand.high)


def _top(state: Table) -> int:
    high = _high(state)
    return high.value if high is not None else -10 ** 9


def _holds(state: Table) -> bool:
    """The dealer speaks and may take the highest bid at its value (``dealer_holds``)."""
    h = state.hand
    return KIND.spec(state).dealer_holds and h.to_move == h.dealer and h.high is not None \
        and h.high_seat != h.dealer


def _must_bid(state: Table) -> bool:
    """The dealer speaks, nobody has bid and all the others have passed (``all_pass: dealer``)."""
    h = state.hand
    return (KIND.spec(state).all_pass == "dealer" and h.to_move == h.dealer and h.high is None
            and len(KIND.data(state).passed) >= state.variant.players - 1)


def _answers(state: Table) -> bool:
    """In pairs, the listener answers the speaker's value: ``hold`` or ``pass`` ([SK-B4])."""
    d = KIND.data(state)
    return KIND.spec(state).speaking == "pairs" and state.hand.to_move == d.listener and not d.last


def legal(state: Table) -> list:
    """``pass`` (unless the dealer must bid) then every contract worth more than the highest bid
    (or as much, when the dealer holds), by value (then list order).  In pairs the listener
    says ``pass`` or ``hold``; the survivor nobody bid to, ``pass`` or the lowest value."""
    if _answers(state):
        return [PASS, HOLD]
    if KIND.spec(state).speaking == "reservations":
        return _reservation_legal(state)
    d = KIND.data(state)
    if d.last:
        return [PASS, state.bid_actions[d.bids[0].text]]
    top = _top(state) - _holds(state)
    acts = state.bid_actions
    bids = sorted((b for b in KIND.data(state).bids if b.value > top and (not b.holds or _may_name(
        state, state.hand.to_move, b))), key=lambda b: (b.value, b.rank))
    return ([] if _must_bid(state) else [PASS]) + [acts[b.text] for b in bids]


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: a bid not worth more than the highest ([A2]); in pairs, a
    listener who bids, a speaker who holds ([SK-B4]); a game whose cards (``holds``) he does not
    hold; in the reservations, a call out of its round."""
    if KIND.spec(state).speaking == "reservations":
        if action not in _reservation_legal(state):
            raise IllegalActionError(_reservation_refusal(state, action))
        return
    if action.kind == "hold" or _answers(state) or KIND.data(state).last:
        if action not in legal(state):
            raise IllegalActionError(f"say one of {', '.join(a.text for a in legal(state))}"
                                     + (" (you listen: hold the value or pass)" if _answers(state) else ""))
        return
    if action.kind == "pass":
        if _must_bid(state):
            raise IllegalActionError("everyone else has passed: the dealer must bid")
        return
    bids = {b.text: b for b in KIND.data(state).bids}
    if action.kind != "bid" or action.bid not in bids:
        raise IllegalActionError(f"this is the auction: pass or bid a game of the list "
                                 f"(e.g. {next(iter(bids))})")
    b = bids[action.bid]
    if b.holds and not _may_name(state, state.hand.to_move, b):
        raise IllegalActionError(_reservation_refusal(state, action))
    high = _high(state)
    if high is not None and b.value <= high.value and not (_holds(state) and b.value == high.value):
        same = " (equal games cannot overcall each other)" if b.value == high.value else ""
        raise IllegalActionError(f"{b.text} ({b.value}) is not worth more than the highest bid "
                                 f"{high.text} ({high.value}){same}")


def apply(state: Table, action: Action) -> bool:
    """Record the call; the auction ends when all others have passed after a bid ([A3])."""
    h = state.hand
    d = KIND.data(state)
    n = state.variant.players
    seat = h.to_move
    h.calls.append((seat, action.text))
    if KIND.spec(state).speaking == "pairs":
        return _apply_pair(state, action)
    if KIND.spec(state).speaking == "reservations":
        return _apply_reservation(state, action)
    if action.kind == "pass":
        d.passed.append(seat)
    else:
        h.high = next(b for b in d.bids if b.text == action.bid)
        h.high_seat = seat
    spec = KIND.spec(state)
    if spec.once:  # one call each: after the last, the highest bid declares
        d.spoken += 1
        if d.spoken >= n:
            d.passed = [s for s in range(n) if s != h.high_seat]
    active = [s for s in range(n) if s not in d.passed]
    if not active or (h.high is None and len(d.passed) == n):
        if KIND.spec(state).all_pass == "redeal":
            state.throw_in()
        else:
            state.set_trump(NT)
        return True
    if h.high is not None and active == [h.high_seat]:
        _win(state, h.high_seat)
        return True
    nxt = state.next_seat(seat)
    while nxt in d.passed and KIND.spec(state).pass_is_final:
        nxt = state.next_seat(nxt)
    h.to_move = nxt
    return False


def _win(state: Table, seat: int) -> None:
    """``seat`` won at the highest bid: it is his contract, or with ``values`` his bid (he
    names the game later)."""
    h = state.hand
    d = KIND.data(state)
    high = cast(Contract, h.high)
    h.declarer = seat
    if KIND.spec(state).values:
        d.bid = high.value
        return
    h.contract = high
    if high.strain != CHOSEN:   # (else the declarer names trumps in a name_trump phase)
        state.set_trump(high.strain)
    own = _high(state)   # (one of this auction's contracts)
    if own is not None and own.skips:   # a contract played without some phase (the exchange)
        state.skip_phases(own.skips)


def _all_passed(state: Table) -> None:
    if KIND.spec(state).all_pass == "redeal":
        state.throw_in()
    else:
        state.set_trump(NT)


def _apply_pair(state: Table, action: Action) -> bool:
    """A call of ``speaking: pairs`` ([SK-B3]-[SK-B6]): the speaker bids to the listener, who
    holds or passes; who passes is out and the next seat speaks to the survivor."""
    h = state.hand
    d = KIND.data(state)
    seat = h.to_move
    if d.last:   # nobody named a value: the survivor bids the lowest or passes ([SK-B6])
        if action.kind == "pass":
            d.passed.append(seat)
            _all_passed(state)
        else:
            h.high, h.high_seat = d.bids[0], seat
            _win(state, seat)
        return True
    if action.kind == "bid":
        h.high = next(b for b in d.bids if b.text == action.bid)
        h.high_seat = seat
        h.to_move = d.listener
        return False
    if action.kind == "hold":   # the listener holds the value: the speaker goes higher or passes
        h.high_seat = seat
        h.to_move = d.speaker
        return False
    d.passed.append(seat)
    survivor = d.speaker if seat == d.listener else d.listener
    if d.queue:   # the next seat speaks to the survivor ([SK-B5])
        d.listener, d.speaker = survivor, d.queue.pop(0)
        h.to_move = d.speaker
        return False
    if h.high is None:
        d.last = True
        h.to_move = survivor
        return False
    _win(state, survivor)
    return True


def compile_list(c, name: str, p: dict, path: tuple):
    """The :class:`ListAuctionSpec`: one :class:`~rulekit.contracts.Contract` per entry (per suit with
    ``trumps: each``), values computed for each suit class, calls unique."""
    deck = c.deck
    bids: list = []
    tricks = sum(st.count * st.repeat for st in c.deal.steps if not st.zone) if c.deal else None
    for i, e in enumerate(p["contracts"]):
        ep = path + ("contracts", i)
        lv = e.get("tricks", 0)
        if tricks is not None and lv > tricks:
            c.err(ep + ("tricks",), f"{lv} tricks cannot be made: a hand has {tricks} tricks "
                  f"(expected at most {tricks})")
        tr = e.get("trumps", "none")
        suits = list(deck.suits) if tr == "each" else [NT] if tr == "none" else [tr]
        if tr not in ("each", "none", CHOSEN) and tr not in deck.suits:
            c.err(ep + ("trumps",), f"unknown suit {tr} (expected each, none, chosen or one of "
                  f"{' '.join(deck.suits)})")
            continue
        if tr == CHOSEN and not _has_kind(c, "name_trump"):
            c.err(ep + ("trumps",), "trumps: chosen lets the declarer name trumps after the auction: it needs "
                  "a name_trump phase (expected e.g. trumps: {kind: name_trump, choices: [S, H, D, C]} after it)")
            continue
        if tr != "each" and "call" not in e:
            c.err(ep, "a contract without trumps: each needs its call (expected call: ...)")
            continue
        skips = tuple(e.get("skips", ()))
        check_phase_names(c, ep + ("skips",), skips)
        value = e["value"]
        if isinstance(value, str):
            f = c.dsl(ep + ("value",), compile_expr, {"suit_class": "num", "tricks": "num"}, (), expect="num")
            if f is None:
                continue
            try:
                values = tuple(int(f(Env({"suit_class": k, "tricks": lv}))) for k in (1, 2, 3))
            except FormulaError as err:  # e.g. past the arithmetic bound: said at the formula
                c.err(ep + ("value",), str(err))
                continue
        else:
            values = (value,) * 3
        for su in suits:
            text = e["call"] if tr != "each" else e.get("call", str(lv)) + su
            if any(b.text == text for b in bids) or text.lower() == "pass":
                c.err(ep + ("call",), f"the call {text} is already in the list (expected each call once)")
            bids.append(Contract(text, lv, su, len(bids), -1, values[0], values, bool(e.get("null", False)),
                                 e.get("open", ""), e.get("aside", 0), bool(e.get("partner", False)),
                                 e.get("name", ""), skips, bool(e.get("hand", False)),
                                 tuple(e.get("promises", ())),
                                 _compile_holds(c, e, ep), _compile_partner_trick(c, e, ep, tricks),
                                 group=c.group_name(e.get("group", ""), ep + ("group",))))
        if e.get("hand") and not (p.get("values") and any(
                isinstance(x, dict) and x.get("kind") == "widow_exchange" and x.get("hand")
                for x in (c.d.get("phases") or {}).values())):
            c.err(ep + ("hand",), "a game only announced in a hand game needs an auction of values and a "
                  "widow_exchange with hand: true (expected both, or no hand here)")
    values, speaking = _compile_values(c, p, path, bids), p.get("speaking", "round")
    phases = c.d.get("phases") if isinstance(c.d.get("phases"), dict) else {}
    if values and phases and not any(isinstance(e, dict) and e.get("kind") == "announce" for e in phases.values()):
        c.err(path + ("values",), "the declarer of an auction of values names his game afterwards: it needs "
              "an announce phase (expected e.g. announce: {kind: announce} after it)")
    if speaking == "pairs":
        for k in ("once", "dealer_holds"):
            if p.get(k):
                c.err(path + (k,), f"{k} does not go with speaking: pairs (a speaker bids to a listener "
                      f"who holds or passes; expected speaking: round)")
        if not values:
            c.err(path + ("speaking",), "speaking: pairs bids numbers: it needs values (expected values: "
                  "[18, 20, ...])")
    if speaking == "reservations":
        for k in ("once", "dealer_holds", "values"):
            if p.get(k):
                c.err(path + (k,), f"{k} does not go with speaking: reservations (each says pass or "
                      f"reservation, then the reserved name their games; expected no {k})")
        for i, b in enumerate(bids):
            if b.text.lower() == "reservation":
                c.err(path + ("contracts", i, "call"), "reservation is the word of the first round "
                      "(expected another call)")
    strains = tuple(dict.fromkeys(b.strain for b in values + tuple(bids)))
    return ListAuctionSpec("list_auction", name, p.get("first", "eldest"), values + tuple(bids), strains,
                           bool(p.get("pass_is_final", True)), p.get("all_pass", "redeal"),
                           bool(p.get("once", False)), bool(p.get("dealer_holds", False)),
                           tuple(bids) if values else (), values, speaking)


def _compile_holds(c, e: dict, ep: tuple) -> tuple:
    """A contract's ``holds``: ``((mask of a card's copies, how many), ...)``, each card at
    most as often as the pack holds it."""
    from rulekit.engine.phases.partner_card import compile_held
    return compile_held(c, str(e.get("holds", "")), ep + ("holds",), "QC QC")[1]


def _compile_partner_trick(c, e: dict, ep: tuple, tricks: int | None) -> int:
    """A contract's ``partner_trick`` (tricks within which a partner is found), which needs a
    ``call_partner`` phase to hold the partnership, and no ``partner`` (an invitation) too."""
    n = int(e.get("partner_trick", 0))
    if not n:
        return 0
    if tricks is not None and n > tricks:
        c.err(ep + ("partner_trick",), f"a hand has {tricks} tricks (expected at most {tricks})")
    if e.get("partner"):
        c.err(ep + ("partner_trick",), "a partner found by a trick is not also called (expected partner or "
              "partner_trick, not both)")
    phases = c.d.get("phases") if isinstance(c.d.get("phases"), dict) else {}
    if not any(isinstance(x, dict) and x.get("kind") == "call_partner" for x in phases.values()):
        c.err(ep + ("partner_trick",), "the partnership lives in a call_partner phase (expected e.g. "
              "partner: {kind: call_partner} after the auction)")
    return n


def _compile_values(c, p: dict, path: tuple, games: list) -> tuple:
    """The value bids of ``values`` (a :class:`~rulekit.contracts.Contract` per number, call
    the number, no trumps, no tricks), rising, none a call of a game; ``()`` without them."""
    values = p.get("values") or []
    out: list = []
    calls = {b.text for b in games}
    for i, x in enumerate(values):
        if out and x <= out[-1].value:
            c.err(path + ("values", i), f"{x} is not above {out[-1].value}: the values rise (expected a "
                  f"number above {out[-1].value})")
            continue
        if str(x) in calls:
            c.err(path + ("values", i), f"{x} is also the call of a contract (expected calls apart from the "
                  f"values, e.g. call: g{x})")
            continue
        out.append(Contract(str(x), 0, NT, len(out), -1, x, (x, x, x), label=f"bid {x}"))
    return tuple(out)


class ListAuctionKind(PhaseKind[ListAuctionSpec]):
    """The ``list_auction`` kind (see the module docstring)."""

    name = "list_auction"
    schema = {
        "description": "An auction from a list of contracts ranked by value (equal values cannot overcall "
                       "each other); the last bidder standing declares.",
        "type": "object", "additionalProperties": False, "required": ["kind", "contracts"],
        "properties": {
            "kind": True,
            "first": {"description": "Who speaks first.", "enum": ["eldest", "dealer"]},
            "pass_is_final": {"description": "A player who passes may not bid again in this auction "
                                             "(default true).", "type": "boolean"},
            "all_pass": {"description": "When every player passes: `redeal` (the next dealer deals, the "
                                        "default), `play` without a contract at no trump, or `dealer`: the "
                                        "dealer may not pass when all the others have, he must bid.",
                         "enum": ["redeal", "play", "dealer"]},
            "once": {"description": "Each player speaks exactly once, in turn; then the highest bid "
                                    "declares.", "type": "boolean"},
            "dealer_holds": {"description": "The dealer may take the highest bid at its value, without "
                                            "bidding more (\"hold\").", "type": "boolean"},
            "values": {"description": "The bids are these numbers, rising (18, 20, 22 ...): the "
                                      "winner declares at his bid (formula variable `bid`) and names his game "
                                      "from `contracts` afterwards (an `announce` phase); the scoring says "
                                      "what a game worth less than the bid loses.",
                       "type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 1, "maximum": 100000}},
            "speaking": {"description": "`round` (the default): each in turn; `pairs` (with `values`): the "
                                        "second player bids to the first, who says `hold` (he holds the value) or "
                                        "passes, the one who passes is out and the next player bids to the "
                                        "survivor; when nobody named a value the survivor may bid the lowest one "
                                        "or pass; `reservations`: each player in turn says `pass` or "
                                        "`reservation`; a single reservation names any game of the list; "
                                        "several name theirs round by round, from the games of the highest "
                                        "value down, in turn from the first speaker, and the first game named "
                                        "wins (a `pass` is allowed only to one who may name a game of a lower "
                                        "value); when nobody reserves the hand is played without a contract, "
                                        "with the trumps a phase before set (`all_pass: redeal` throws it in).",
                         "enum": ["round", "pairs", "reservations"]},
            "contracts": {
                "description": "The contracts, each a record; with `trumps: each` one contract per suit.",
                "type": "array", "minItems": 1,
                "items": {
                    "type": "object", "additionalProperties": False, "required": ["value"],
                    "properties": {
                        "call": {"description": "Its call (with `trumps: each`: a prefix, the suit letter is "
                                                "added; default the number of tricks).",
                                 "type": "string", "pattern": "^[0-9A-Za-z]+$"},
                        "name": {"description": "A name for people (`little null`).", "type": "string"},
                        "tricks": {"description": "Tricks the declarer undertakes to win (0 for a null).",
                                   "type": "integer", "minimum": 0, "maximum": 52},
                        "trumps": {"description": "`each` (one contract per suit), `none` (no trumps, the "
                                                  "default), a suit letter, or `chosen`: the declarer names "
                                                  "trumps after the auction (a `name_trump` phase; Kaiser's "
                                                  "bid of a number, its trumps named by the bidder).",
                                   "type": "string"},
                        "value": {"description": "Its value: a number, or a formula of `suit_class` (1, 2 "
                                                 "or 3 this hand) and `tricks`.",
                                  "type": ["integer", "string"]},
                        "null": {"description": "The declarer undertakes to win no trick.", "type": "boolean"},
                        "open": {"description": "The declarer's hand is laid face up `before_lead` or "
                                                "`after_first_trick`.",
                                 "enum": ["before_lead", "after_first_trick"]},
                        "aside": {"description": "Cards the declarer puts aside face down before play "
                                                 "(`set_aside` phase).", "type": "integer", "minimum": 0},
                        "partner": {"description": "The declarer may call a partner (`call_partner` phase).",
                                    "type": "boolean"},
                        "group": {"description": "The contract group it plays with (`contract_groups`: its "
                                                 "ranking, card points, where the cards out of play go).",
                                  "type": "string", "pattern": "^[a-z_][a-z0-9_]*$"},
                        "skips": {"description": "Phases this contract skips, by name (e.g. `[exchange]`: "
                                                 "played without taking the widow).",
                                  "type": "array", "uniqueItems": True,
                                  "items": {"type": "string"}},
                        "holds": {"description": "Cards a player must hold to name it, space separated; a card "
                                                 "listed twice asks both copies (a marriage: `QC QC`).",
                                  "type": "string"},
                        "partner_trick": {"description": "The declarer's partner is the first other player to "
                                                         "win one of the first N tricks (public: who won it); "
                                                         "when he wins them all he plays alone.  Announcements "
                                                         "wait for it, and their card deadlines move one card "
                                                         "per trick after the first that it took.  Formulas "
                                                         "read the party (`in_party`, `party_size`) of the "
                                                         "`call_partner` phase it needs.",
                                          "type": "integer", "minimum": 1, "maximum": 52},
                        "hand": {"description": "With `values`: a game the declarer may only name when he plays "
                                                "hand (a `widow_exchange` with `hand: true`), e.g. a game "
                                                "announced to take every trick.", "type": "boolean"},
                        "promises": {"description": "What the declarer undertakes besides the contract, by name "
                                                    "(a game announced to take 90 card points: `[schneider]`): "
                                                    "formula variable `promised_NAME` is true for this contract "
                                                    "and false for the others (the scoring says what each "
                                                    "promise needs and is worth).",
                                     "type": "array", "uniqueItems": True,
                                     "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}}}}}}}
    label = "bid"
    role = "auction"
    example = ("bidding:\n  kind: list_auction\n  contracts:\n"
               "    - {tricks: 6, trumps: each, value: \"9 - suit_class\", partner: true}\n"
               "    - {call: N, name: little null, value: 15, null: true}\n"
               "    - {tricks: 7, trumps: each, value: \"14 - suit_class\"}")
    compile = staticmethod(compile_list)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def variables(self, spec) -> dict:
        """The contract's attributes (:meth:`~rulekit.contracts.Contract.variables`); with
        ``values``, ``bid`` too (the declarer's bid; 0 without one)."""
        games = spec.games or spec.bids
        values = [0] + [x for b in games for x in b.values]   # (no contract when every one was refused)
        out = {"value": (min(values), max(values)), "null": (0, 1), "open_game": (0, 1),
               "aside": (0, max([0] + [b.aside for b in games])), "partner_allowed": (0, 1)}
        out.update({"promised_" + p: (0, 1) for b in games for p in b.promises})
        if spec.values:
            out["bid"] = (0, spec.values[-1].value)
        return out

    def values(self, variant, hand, spec) -> list:
        """The attributes of the hand's contract, the same for every column (zeros without one);
        with ``values``, the declarer's ``bid``."""
        c = hand.contract
        vals = {k: 0 for k in self.variables(spec)}
        if hasattr(c, "variables"):
            vals.update(c.variables())
        if spec.values:
            d = self.data_of(hand)
            vals = {**vals, "bid": d.bid if d is not None else 0}
        return [dict(vals) for _ in range(len(variant.sides) if variant.scoring.by_side else variant.players)]

    def hand_bids(self, spec, hand) -> tuple | None:
        """This hand's contracts, valued by its suit classes (with ``values``: the value bids,
        then the games)."""
        d = self.data_of(hand)
        return None if d is None else d.bids + d.games if spec.values else d.bids

    def choices_left(self, hand) -> list:
        """With ``values``: every game of the list, for the declarer to name (``announce``)."""
        d = self.data_of(hand)
        return [b.text for b in d.games] if d is not None and d.bid else []

    def observe(self, state: Table, seat: int) -> dict:
        """This hand's contracts with their values (public: the suit classes are); in pairs, the
        listener and the speaker."""
        d = self.data(state)
        out = {"bids": d.bids, "passed": list(d.passed)}
        if d.games:   # (an auction of values)
            high = _high(state)
            out["high"] = high.value if high is not None else None
        if d.listener >= 0:   # (speaking in pairs)
            out.update(listener=d.listener, speaker=d.speaker)
        return out

    # ------------------------------------------------------------------ the scorepad
    def pad_question(self, spec, variant, facts: dict, names: list):
        """With ``values``, once a contract is named: the declarer's bid."""
        if not spec.values or facts.get("contract") is None or "bid" in facts:
            return None
        v = spec.values
        return ("bid", "bid", f"the declarer's bid: one of {v[0].text}, {v[1].text if len(v) > 1 else ''} ... "
                f"{v[-1].text}".replace(",  ...", " ..."))

    def pad_answer(self, spec, variant, fact: str, text: str, facts: dict, names: list) -> None:
        """The bid: one of the values.

        :raises ValueError: not a value of the list."""
        if fact != "bid":
            raise ValueError(f"{fact} is not a fact of this phase")
        t = text.strip()
        if t not in {b.text for b in spec.values}:
            raise ValueError(f"{t!r} is not a bid of this auction (expected one of "
                             f"{', '.join(b.text for b in spec.values)})")
        facts[fact] = int(t)

    def pad_values(self, spec, variant, facts: dict, contract, won: list) -> list:
        """With ``values``: the declarer's ``bid`` as typed."""
        if not spec.values:
            return []
        cols = len(variant.sides) if variant.scoring.by_side else variant.players
        return [{"bid": facts.get("bid", 0)} for _ in range(cols)]

    def pad_facts(self, spec, variant, hand) -> dict:
        """The declarer's bid, with ``values``."""
        d = self.data_of(hand)
        return {"bid": str(d.bid)} if spec.values and d is not None and d.bid and hand.contract is not None else {}

    def parse(self, text: str, state: Table):
        """``hold`` (a listener holds the value)."""
        speaking = getattr(KIND.spec(state), "speaking", "")
        t = text.strip().lower()
        if t == "reservation" and speaking == "reservations":
            return RESERVE
        return HOLD if t == "hold" and speaking == "pairs" else None

    def help_line(self, spec, variant) -> str:
        """``pass, or a game of the list (? shows each with its value)``."""
        if spec.values:
            v = spec.values
            return (f"pass, a value from {v[0].text} to {v[-1].text} (above the highest so far)"
                    + (", or hold (you listen: you hold the value)" if spec.speaking == "pairs" else ""))
        if spec.speaking == "reservations":
            return (f"pass or reservation; then, reserved, a game of the list such as {spec.bids[0].text} or "
                    f"{spec.bids[-1].text} (pass: no game of this round's value)")
        return (f"pass, or a game of the list such as {spec.bids[0].text} or {spec.bids[-1].text} "
                f"(? shows the games you may bid, with their values)")

    def plays_all_passed(self, spec) -> bool:
        """``all_pass: play``: a hand that all passed is played without a contract."""
        return spec.all_pass == "play"

    def bids_values(self, spec) -> bool:
        """With ``values``: the players bid those numbers and the declarer names his game later."""
        return bool(spec.values)

    def contracts(self, spec) -> tuple:
        """The contracts of the list (with ``values``: the games named after the auction, not
        the value bids)."""
        return spec.games or spec.bids

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass`` and every contract of the list (with ``values``: every value, then the games);
        ``hold`` when speaking in pairs."""
        return ("pass",) + (("hold",) if spec.speaking == "pairs" else ()) + (
            ("reservation",) if spec.speaking == "reservations" else ()) + tuple(b.text for b in spec.bids)

    def describe(self, spec, needs=None, trumps: bool = True, deck=None, worth=None) -> str:
        """The auction in one sentence, then the contracts of the list with their calls, tricks,
        trumps, values (by suit class when they differ) and attributes (null, open, cards put
        aside, partner).  ``needs(contract)``: what a contract of no tricks (not a null) needs
        to be made, in words, or ``None`` (see :meth:`describe_in`); ``trumps`` False: none says
        its trumps; ``deck`` names the cards of ``holds``."""
        end = {"redeal": "when all pass the deal is thrown in",
               "dealer": "when all the others pass the dealer must bid"}.get(
            spec.all_pass, "when all pass the hand is played at no trump")
        if spec.speaking == "reservations":
            return ("Reservations: each player in turn, from the first speaker, says pass or reservation. A single "
                    "reservation names any game of the list he may; several name theirs round by round, from the "
                    "games of the highest value down, in turn, and the first game named wins (only a player who "
                    "may name a game of a lower value may pass there); "
                    + ("when nobody reserves the deal is thrown in" if spec.all_pass == "redeal" else
                       "when nobody reserves the hand is played without a contract, with the trumps set before")
                    + ". The games: " + "; ".join(_contract_words(g, needs, trumps, deck) for g in _groups(spec.bids))
                    + ".")
        turn = ("each player speaks once, in turn, and the highest bidder declares" if spec.once
                else "the last bidder declares")
        hold = "; the dealer may take the highest bid at its value" if spec.dealer_holds else ""
        if spec.values:
            games = spec.games
            shown = ", ".join(b.text for b in spec.values[:8]) + (" ..." if len(spec.values) > 8 else "")
            order = ("the second player bids to the first, who holds the value or passes; the one who passes "
                     "is out and the next player bids to the survivor; when nobody named a value the survivor "
                     "may bid the lowest one or pass" if spec.speaking == "pairs"
                     else f"each bid is above the highest so far{hold}; the last bidder declares")
            return (f"An auction of values ({shown} up to {spec.values[-1].text}): {order}; {end}. The declarer "
                    f"then names his game, at his bid (formula variable bid), from {len(games)} games: "
                    + "; ".join(_contract_words(g, needs, trumps, deck, worth) for g in _groups(games)) + ".")
        return (f"An auction from a list of {len(spec.bids)} contracts ranked by value, where a bid must be "
                f"worth more than the highest so far (equal values cannot overcall each other){hold}; "
                f"{turn}, and {end}. The contracts, in the list's order: "
                + "; ".join(_contract_words(g, needs, trumps, deck, worth) for g in _groups(spec.bids)) + ".")

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe`, saying what a contract of no tricks needs from the scoring's ``made``
        (the contract's own attributes fixed: Skat's clubs, "made when the declarer's card
        points are at least 61 and not **overbid**"; nothing without a ``made``: its tricks are
        no requirement), and without "at no trump" when the first lead makes trumps."""
        sc = variant.data.get("scoring") or {}
        lets = sc.get("let") or {}
        promises = {"promised_" + p: False for b in spec.games or spec.bids for p in b.promises}
        from rulekit.dsl.words import folded_words

        def needs(b) -> str | None:
            """What contract ``b`` needs, said from the ``made`` let (``None``: no such let)."""
            return folded_words("made", {**promises, "level": b.level, **b.variables()}, lets) \
                if "made" in lets else None
        from rulekit.engine.phases.registry import REGISTRY
        lead_trumps = any(REGISTRY[p.kind].lead_makes_trumps(p) for p in variant.phases)
        from rulekit.engine.phases.base import WORTH_WORDS
        worth_words = WORTH_WORDS[0] if WORTH_WORDS else (lambda *_: None)

        def worth(b, value: int) -> str:
            """What the contract scores made at this value, as the prompt says it (trumps named
            later: the least; ``at least N`` where tallies can raise it)."""
            words = worth_words(variant, replace(b, value=value), 0)
            return str(value) if words is None else words   # (no figure: the prompt shows the value too)
        return self.describe(spec, needs=needs, trumps=not lead_trumps,
                             deck=variant.deck, worth=None if spec.values else worth)


def _groups(bids) -> list:
    """Runs of contracts alike but for their trump suit (one entry with ``trumps: each``)."""
    out: list = []
    for b in bids:
        last = out[-1][-1] if out else None
        if last is not None and b.strain != NT and last.strain != NT and (
                b.level, b.values, b.null, b.open, b.aside, b.partner, b.label, b.promises) == (
                last.level, last.values, last.null, last.open, last.aside, last.partner, last.label, last.promises):
            out[-1].append(b)
        else:
            out.append([b])
    return out


def _contract_words(group, needs=None, trumps: bool = True, deck=None, worth=None) -> str:
    """A run of contracts in words: ``LO (little open): no trick, at no trump, 1 card put aside,
    the hand face up before the lead, worth 35``; a contract of no tricks (not a null) says what
    ``needs(contract)`` says it needs (``made when ...``; nothing when it gives ``None``),
    ``trumps`` False leaves out the trumps.  ``worth(contract, value)``: what it scores
    made, in the prompt's words (``7``, ``at least 7``); when that is not its value, the value
    only ranks it (``worth 7 made, ranked 70``)."""
    b = group[0]
    calls = ", ".join(x.text for x in group) + (f" ({b.label})" if b.label else "")
    words = []
    if b.null:
        words.append("no trick (a null)")
    elif b.level:
        words.append(f"{b.level} trick{'s' if b.level != 1 else ''} or more")
    elif needs is not None and (need := needs(b)):
        words.append(f"made when {need}")
    if trumps:
        words.append("at no trump" if b.strain == NT else "trumps named by the declarer after the auction"
                     if b.strain == CHOSEN else ("the suit bid trumps" if len(group) > 1 else f"{b.strain} trumps"))
    if b.aside:
        words.append(f"{b.aside} card{'s' if b.aside > 1 else ''} put aside")
    if b.open:
        words.append("the hand face up " + ("before the lead" if b.open == "before_lead" else "after the first trick"))
    if b.partner:
        words.append("a partner may be called")
    if b.hand:
        words.append("only in a hand game")
    if b.promises:
        words.append("promising " + " and ".join(b.promises))
    if b.holds:
        cards = " ".join(" ".join([deck.pretty((m & -m).bit_length() - 1).partition(":")[0]] * n)
                         for m, n in b.holds) if deck is not None else "its cards"
        words.append(f"only for a player holding {cards}")
    if b.partner_trick:
        words.append(f"his partner the first other player to win one of the first {b.partner_trick} tricks "
                     f"(alone if he wins them all; announcements wait for that trick, and their deadlines are "
                     f"one card lower for each trick after the first it took)")
    v = b.values
    plain = [str(x) for x in v]
    made = [worth(b, x) for x in v] if worth is not None else plain
    bound = next((q for q in ("", "at least ", "at most ") if made == [q + x for x in plain]), None)
    if bound is not None:   # its value, or the least (the most) it scores where tallies move it
        words.append(f"worth {bound}{v[0]}" if len(set(v)) == 1 else
                     f"worth {bound}{v[0]}, {v[1]} or {v[2]} (suit class 1, 2, 3)")
    else:   # the formulas score it otherwise: its value only ranks it
        shown = [f"worth {m} made" for m in made]
        rank = f"ranked {v[0]}" if len(set(v)) == 1 else f"ranked {v[0]}, {v[1]} or {v[2]} (suit class 1, 2, 3)"
        words.append(", ".join(x for x in (shown[0] if len(set(made)) == 1 else
                                          " / ".join(shown), rank) if x))
    return f"{calls}: {', '.join(words)}"


KIND = ListAuctionKind()
