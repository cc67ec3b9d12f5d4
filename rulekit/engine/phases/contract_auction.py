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

from dataclasses import dataclass

from rulekit.contracts import NT, Bid
from rulekit.engine.actions import DOUBLE, PASS, REDOUBLE, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class ContractAuctionSpec(PhaseSpec):
    """``contract_auction`` phase (rules/bridge.md [A1]-[A6]): bids, double, redouble."""

    first: str
    bids: tuple
    strains: tuple
    double: bool
    redouble: bool
    all_pass: str


@dataclass
class ContractAuctionData(KindData):
    """A contract auction's data for one hand: ``passes``, passes in a row so far ([A6])."""

    passes: int = 0


#: per variant: (phase, rank of the highest bid, doubling allowed) -> the legal calls
_CALLS_ABOVE = "contract_auction.calls_above"
_CHOICES_ABOVE = "contract_auction.choices_above"
_SAID = "contract_auction.said"   # seat -> choice -> the shared (seat, text) of the call
#: per variant: phase name -> bid text -> its strain
_STRAINS = "contract_auction.strains"


def start(state: Table) -> bool:
    """The dealer (or the eldest hand) calls first."""
    h = state.hand
    spec = KIND.spec(state)
    h.to_move = h.dealer if spec.first == "dealer" else h.eldest
    h.doubled = 0
    h.phase_state[KIND.name] = ContractAuctionData()
    return True


def _side(state: Table, seat: int):
    return state.variant.side_of[seat]


def legal(state: Table) -> list:
    """``pass``, the bids above the last one (low to high), then ``X`` / ``XX`` when allowed."""
    return list(_calls(state)[1])


def _calls(state: Table) -> tuple:
    """``(key, calls)``: the legal calls now, built once per highest bid and doubling (issue 10:
    not on every call), and the key they are cached by."""
    h = state.hand
    v = state.variant
    spec: ContractAuctionSpec = v.phases[h.phase]  # type: ignore[assignment]  # (its own: no cast, hot path)
    top = -1
    x = 0   # 1: double allowed, 2: redouble allowed
    if h.high is not None:
        top = h.high.rank
        mine = v.side_of[h.to_move] == v.side_of[h.high_seat]
        if spec.double and h.doubled == 0 and not mine:
            x = 1
        elif spec.redouble and h.doubled == 1 and mine:
            x = 2
    cache: dict[tuple[str, int, int], tuple[Action, ...]] = v.cached(_CALLS_ABOVE, dict)
    key = (spec.name, top, x)
    calls = cache.get(key)
    if calls is None:
        acts = state.bid_actions
        calls = cache[key] = ((PASS,) + tuple(acts[b.text] for b in spec.bids if b.rank > top)
                              + ((), (DOUBLE,), (REDOUBLE,))[x])
    return key, calls


def legal_choices(state: Table) -> tuple:
    """The choices of :func:`legal`, in its order: 0 for ``pass``, ``1 + rank`` for a bid,
    ``1 + number of bids`` for ``X`` and one more for ``XX`` (cached as the calls are)."""
    cache: dict[tuple, tuple[int, ...]] = state.variant.cached(_CHOICES_ABOVE, dict)
    key, calls = _calls(state)
    out = cache.get(key)
    if out is None:
        out = cache[key] = tuple(choice_of(state, a) for a in calls)
    return out


def choice_action(state: Table, choice: int) -> Action:
    """The call of ``choice`` (see :func:`legal_choices`)."""
    bids = KIND.spec(state).bids
    if choice == 0:
        return PASS
    if choice <= len(bids):
        return state.bid_actions[bids[choice - 1].text]
    return DOUBLE if choice == len(bids) + 1 else REDOUBLE


def choice_of(state: Table, action: Action) -> int:
    """The choice of a call (see :func:`legal_choices`)."""
    if action.kind == "pass":
        return 0
    if action.kind == "bid":
        return 1 + state.bid_by_text[action.bid].rank
    return len(KIND.spec(state).bids) + (1 if action.kind == "double" else 2)


def apply_choice(state: Table, choice: int) -> bool:
    """:func:`apply` of the call ``choice``, its ``(seat, text)`` a shared pair in the hand's
    actions (a long match makes thousands)."""
    said = state.variant.cache.get(_SAID)
    if said is None:
        n = len(KIND.spec(state).bids) + 3
        said = state.variant.cached(_SAID, lambda: tuple(
            tuple((s, choice_action(state, c).text) for c in range(n)) for s in range(state.variant.players)))
    state.hand.actions.append(said[state.hand.to_move][choice])
    return apply(state, choice_action(state, choice))


def check(state: Table, action: Action) -> None:
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


def apply(state: Table, action: Action) -> bool:
    """Record the call; at the end set contract, doubling and declarer."""
    h = state.hand
    v = state.variant
    spec: ContractAuctionSpec = v.phases[h.phase]  # type: ignore[assignment]  # (its own: no cast, hot path)
    n = v.players
    seat = h.to_move
    data: ContractAuctionData = h.phase_state[KIND.name]  # type: ignore[assignment]
    h.calls.append((seat, action.text))
    if action.kind == "pass":
        data.passes += 1
    else:
        data.passes = 0
        if action.kind == "bid":
            h.high = state.bid_by_text[action.bid]
            h.high_seat = seat
            h.doubled = 0
        elif action.kind == "double":
            h.doubled = 1
        else:
            h.doubled = 2
    if h.high is None and data.passes == n:
        if spec.all_pass == "play":
            state.set_trump("NT")
            return True
        state.throw_in(same_dealer=spec.all_pass == "redeal_same")
        return True
    if h.high is not None and data.passes == n - 1:
        side = _side(state, h.high_seat)
        strain = h.high.strain
        first = next(s for s, text in _bids_in_order(state, h.calls)
                     if _side(state, s) == side and _strain_of(state, spec, text) == strain)
        h.contract = h.high
        h.declarer = first
        state.set_trump(strain)
        return True
    h.to_move = (seat + v.step) % n
    return False


def _bids_in_order(state: Table, calls):
    for s, text in calls:
        if text not in ("pass", "X", "XX"):
            yield s, text


def _strain_of(state: Table, spec, text):
    """The strain of the bid ``text`` of ``spec`` (a table built once per variant, not a scan of
    every bid per call)."""
    strains: dict[str, dict[str, str]] = state.variant.cached(_STRAINS, dict)
    of = strains.get(spec.name)
    if of is None:
        of = strains[spec.name] = {b.text: b.strain for b in spec.bids}
    return of[text]


def compile_contract_auction(c, name: str, p: dict, path: tuple):
    """The :class:`ContractAuctionSpec` of an entry: known strains,
    sides when doubling is allowed."""
    deck = c.deck
    for s_i, s in enumerate(p["strains"]):
        if s != NT and s not in deck.suits:
            c.err(path + ("strains", s_i), f"unknown strain {s} (expected one of {' '.join(deck.suits)} or NT)")
    bids: list = []
    for lv in p["levels"]:
        for s in p["strains"]:
            bids.append(Bid(f"{lv}{s}", lv, s, len(bids)))
    if (p.get("double", True) or p.get("redouble", True)) and not c.has_sides:
        c.err(path, "doubling needs sides (expected a top-level sides: block, or double: false)")
    return ContractAuctionSpec("contract_auction", path[-1], p.get("first", "dealer"), tuple(bids),
                               tuple(p["strains"]), bool(p.get("double", True)),
                               bool(p.get("redouble", True)), p.get("all_pass", "redeal"))


class ContractAuctionKind(PhaseKind[ContractAuctionSpec]):
    """The ``contract_auction`` kind (see the module docstring)."""

    name = "contract_auction"
    schema = {'description': 'An auction of calls: bids (level and strain, each higher than the last), double '
                             'and redouble; a pass does not exclude; three passes after a call end it.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind', 'levels', 'strains'],
              'properties': {'kind': True,
                             'first': {'description': 'Who calls first.', 'enum': ['dealer', 'eldest']},
                             'levels': {'description': 'Bid levels, low to high (tricks above the book).',
                                        'type': 'array',
                                        'minItems': 1,
                                        'items': {'type': 'integer', 'minimum': 0, 'maximum': 52}},
                             'strains': {'description': 'Strains low to high: suit letters and NT.',
                                         'type': 'array',
                                         'minItems': 1,
                                         'uniqueItems': True,
                                         'items': {'$ref': '#/$defs/strain'}},
                             'double': {'description': 'X doubles the last bid if an opponent made it (default '
                                                       'true).',
                                        'type': 'boolean'},
                             'redouble': {'description': "XX redoubles one's own side's doubled bid (default "
                                                         'true).',
                                          'type': 'boolean'},
                             'all_pass': {'description': 'When all pass at the start: `redeal` (thrown in, the '
                                                         'next dealer deals), `redeal_same` (the same dealer '
                                                         'deals again) or `play` (at no trump without a '
                                                         'contract).',
                                          'enum': ['redeal', 'redeal_same', 'play']}}}
    label = "bid"
    role = "auction"
    example = ("auction:\n  kind: contract_auction\n  levels: [1, 2, 3, 4, 5, 6, 7]\n"
               "  strains: [C, D, H, S, NT]\n  first: dealer")
    compile = staticmethod(compile_contract_auction)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    legal_choices = staticmethod(legal_choices)
    choice_action = staticmethod(choice_action)
    choice_of = staticmethod(choice_of)
    apply_choice = staticmethod(apply_choice)

    def no_effect(self, c, p: dict, path: tuple) -> None:
        """``redouble`` without ``double``."""
        if p.get("redouble") and p.get("double") is False:
            c.warn(path + ("redouble",), "has no effect with double: false (only a doubled bid is redoubled)")

    def help_line(self, spec, variant) -> str:
        """The bids, then double and redouble when allowed."""
        bids = [b.text for b in spec.bids]
        out = f"pass, a bid from {bids[0]} to {bids[-1]}" if len(bids) > 1 else f"pass, the bid {bids[0]}"
        return out + "; X or double, XX or redouble"

    def plays_all_passed(self, spec) -> bool:
        """``all_pass: play``: a hand that all passed is played without a contract."""
        return spec.all_pass == "play"

    def redeals_same(self, spec) -> bool:
        """``all_pass: redeal_same``: a deal all passed is dealt again by the same dealer."""
        return spec.all_pass == "redeal_same"

    def doubles(self, spec) -> int:
        """``double`` (1) and ``redouble`` (2; no redouble without a double)."""
        return 0 if not spec.double else 2 if spec.redouble else 1

    def contracts(self, spec) -> tuple:
        """Every bid of the ladder, low to high."""
        return spec.bids

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass``, every bid, ``X`` and ``XX``."""
        return ("pass",) + tuple(b.text for b in spec.bids) + ("X", "XX")

    def describe(self, spec) -> str:
        """One sentence on the calls and how the auction ends."""
        dbl = ", doubles and redoubles" if spec.double else ""
        return (f"An auction of bids from {spec.bids[0].text} to {spec.bids[-1].text}{dbl}; passes do not "
                f"exclude, all but one passing in a row after a call ends it, and the first of the winning "
                f"side to name the final strain declares.")

    def observe(self, state: Table, seat: int) -> dict:
        """``passes``: passes in a row so far (public)."""
        data = self.data_of(state.hand)
        return {"passes": data.passes} if data is not None else {}


KIND = ContractAuctionKind()
