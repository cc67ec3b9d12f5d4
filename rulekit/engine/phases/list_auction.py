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
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import cast

from rulekit.contracts import Contract
from rulekit.dsl import Env, FormulaError, compile_expr
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError

NT = "NT"


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


@dataclass
class ListAuctionData(KindData):
    """A list auction's data for one hand: ``bids``, the contracts valued for this hand's suit
    classes; ``passed``, the seats out; ``spoken``, calls so far (an auction where each speaks
    once)."""

    bids: tuple
    passed: list[int] = field(default_factory=list)
    spoken: int = 0


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
    return tuple(replace(b, value=b.values[classes.get(b.strain, 1) - 1]) for b in spec.bids)


def start(state: Table) -> bool:
    """Value the contracts for this hand; the first speaker is the eldest hand (or the dealer)."""
    h = state.hand
    spec = KIND.spec(state)
    h.phase_state[KIND.name] = ListAuctionData(hand_bids(state, spec))
    h.to_move = h.eldest if spec.first == "eldest" else h.dealer
    return True


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


def legal(state: Table) -> list:
    """``pass`` (unless the dealer must bid) then every contract worth more than the highest bid
    (or as much, when the dealer holds), by value (then list order)."""
    top = _top(state) - _holds(state)
    acts = state.bid_actions
    bids = sorted((b for b in KIND.data(state).bids if b.value > top), key=lambda b: (b.value, b.rank))
    return ([] if _must_bid(state) else [PASS]) + [acts[b.text] for b in bids]


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: a bid not worth more than the highest ([A2])."""
    if action.kind == "pass":
        if _must_bid(state):
            raise IllegalActionError("everyone else has passed: the dealer must bid")
        return
    bids = {b.text: b for b in KIND.data(state).bids}
    if action.kind != "bid" or action.bid not in bids:
        raise IllegalActionError(f"this is the auction: pass or bid a game of the list "
                                 f"(e.g. {next(iter(bids))})")
    b = bids[action.bid]
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
        h.contract, h.declarer = h.high, h.high_seat
        state.set_trump(h.high.strain)
        return True
    nxt = state.next_seat(seat)
    while nxt in d.passed and KIND.spec(state).pass_is_final:
        nxt = state.next_seat(nxt)
    h.to_move = nxt
    return False


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
        if tr not in ("each", "none") and tr not in deck.suits:
            c.err(ep + ("trumps",), f"unknown suit {tr} (expected each, none or one of {' '.join(deck.suits)})")
            continue
        if tr != "each" and "call" not in e:
            c.err(ep, "a contract without trumps: each needs its call (expected call: ...)")
            continue
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
                                 e.get("name", "")))
    strains = tuple(dict.fromkeys(b.strain for b in bids))
    return ListAuctionSpec("list_auction", name, p.get("first", "eldest"), tuple(bids), strains,
                           bool(p.get("pass_is_final", True)), p.get("all_pass", "redeal"),
                           bool(p.get("once", False)), bool(p.get("dealer_holds", False)))


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
                                                  "default) or a suit letter.", "type": "string"},
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
                                    "type": "boolean"}}}}}}
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
        """The contract's attributes (:meth:`~rulekit.contracts.Contract.variables`)."""
        values = [0] + [x for b in spec.bids for x in b.values]   # (no contract when every one was refused)
        return {"value": (min(values), max(values)), "null": (0, 1), "open_game": (0, 1),
                "aside": (0, max([0] + [b.aside for b in spec.bids])), "partner_allowed": (0, 1)}

    def values(self, variant, hand, spec) -> list:
        """The attributes of the hand's contract, the same for every column (zeros without one)."""
        c = hand.contract
        vals = c.variables() if hasattr(c, "variables") else {k: 0 for k in self.variables(spec)}
        return [dict(vals) for _ in range(len(variant.sides) if variant.scoring.by_side else variant.players)]

    def hand_bids(self, spec, hand) -> tuple | None:
        """This hand's contracts, valued by its suit classes."""
        d = self.data_of(hand)
        return d.bids if d is not None else None

    def observe(self, state: Table, seat: int) -> dict:
        """This hand's contracts with their values (public: the suit classes are)."""
        d = self.data(state)
        return {"bids": d.bids, "passed": list(d.passed)}

    def help_line(self, spec, variant) -> str:
        """``pass, or a game of the list (? shows each with its value)``."""
        return (f"pass, or a game of the list such as {spec.bids[0].text} or {spec.bids[-1].text} "
                f"(? shows the games you may bid, with their values)")

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass`` and every contract of the list."""
        return ("pass",) + tuple(b.text for b in spec.bids)

    def describe(self, spec, tricks: bool = True, trumps: bool = True) -> str:
        """The auction in one sentence, then the contracts of the list with their calls, tricks,
        trumps, values (by suit class when they differ) and attributes (null, open, cards put
        aside, partner).  ``tricks``/``trumps`` False: a contract of level 0 says no tricks, and
        none says its trumps (see :meth:`describe_in`)."""
        end = {"redeal": "when all pass the deal is thrown in",
               "dealer": "when all the others pass the dealer must bid"}.get(
            spec.all_pass, "when all pass the hand is played at no trump")
        turn = ("each player speaks once, in turn, and the highest bidder declares" if spec.once
                else "the last bidder declares")
        hold = "; the dealer may take the highest bid at its value" if spec.dealer_holds else ""
        return (f"An auction from a list of {len(spec.bids)} contracts ranked by value, where a bid must be "
                f"worth more than the highest so far (equal values cannot overcall each other){hold}; "
                f"{turn}, and {end}. The contracts, in the list's order: "
                + "; ".join(_contract_words(g, tricks, trumps) for g in _groups(spec.bids)) + ".")

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe`, without "0 tricks or more" when the scoring never reads tricks (the
        bids are of points), and without "at no trump" when the first lead makes trumps."""
        sc = variant.data.get("scoring") or {}
        formulas = {k: x for k, x in sc.items() if k != "tallies"}   # a tally's `in: tricks` is no trick count
        reads = re.search(r"\b\w*tricks\b", str(formulas))
        lead_trumps = any(getattr(p, "first_lead_trump", False) for p in variant.phases)
        return self.describe(spec, tricks=bool(reads), trumps=not lead_trumps)


def _groups(bids) -> list:
    """Runs of contracts alike but for their trump suit (one entry with ``trumps: each``)."""
    out: list = []
    for b in bids:
        last = out[-1][-1] if out else None
        if last is not None and b.strain != NT and last.strain != NT and (
                b.level, b.values, b.null, b.open, b.aside, b.partner, b.label) == (
                last.level, last.values, last.null, last.open, last.aside, last.partner, last.label):
            out[-1].append(b)
        else:
            out.append([b])
    return out


def _contract_words(group, tricks: bool = True, trumps: bool = True) -> str:
    """A run of contracts in words: ``LO (little open): no trick, at no trump, 1 card put aside,
    the hand face up before the lead, worth 35``; ``tricks`` False leaves out a level 0's
    "0 tricks or more", ``trumps`` False the trumps."""
    b = group[0]
    calls = ", ".join(x.text for x in group) + (f" ({b.label})" if b.label else "")
    words = []
    if b.null:
        words.append("no trick (a null)")
    elif b.level or tricks:
        words.append(f"{b.level} trick{'s' if b.level != 1 else ''} or more")
    if trumps:
        words.append("at no trump" if b.strain == NT else ("the suit bid trumps" if len(group) > 1
                                                           else f"{b.strain} trumps"))
    if b.aside:
        words.append(f"{b.aside} card{'s' if b.aside > 1 else ''} put aside")
    if b.open:
        words.append("the hand face up " + ("before the lead" if b.open == "before_lead" else "after the first trick"))
    if b.partner:
        words.append("a partner may be called")
    v = b.values
    words.append(f"worth {v[0]}" if len(set(v)) == 1 else f"worth {v[0]}, {v[1]} or {v[2]} (suit class 1, 2, 3)")
    return f"{calls}: {', '.join(words)}"


KIND = ListAuctionKind()
