"""``ladder_auction`` phase: ascending bids, last bidder standing declares
(rules/fivehundred.md [A1]-[A5]).

Bids rank by level then strain; ``extra_bids`` sit above the ladder, or just above a
named bid (``above: 8S``), and may require a given bid to be the highest so far
(``10T`` only over ``10NT``, [A4]) or some bid at least as high (``only_after: 7S``).
An extra bid may be a null game (``null``: the declarer undertakes to win no trick),
open (``open``: his hand is laid face up, as a ``list_auction`` contract's), played
``alone`` (his partner sits the hand out, as after ``order_up``'s ``alone``) and carry
its own ``value`` (formula variable ``bid_value``; ``null`` and ``open_game`` too).
With ``pass_is_final`` a player who passes is out ([A3]).  The auction ends
when all but one have passed and that one holds the highest bid, or when all
pass ([A5]).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.contracts import NT, Bid, LadderBid
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.order_up import partners_sit_out
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class AuctionSpec(PhaseSpec):
    """``ladder_auction`` phase (rules/fivehundred.md [A1]-[A5])."""

    first: str
    bids: tuple
    strains: tuple
    pass_is_final: bool
    all_pass: str
    calls: tuple = ()
    """The strains' words in bid texts, low to high (``NT``, ``uptown``...)."""
    once: bool = False
    """The bidding goes round once (each player speaks once; the highest bid wins)."""
    book: int = 0
    """Levels count the tricks to win over this many (0: levels are tricks)."""


@dataclass
class LadderAuctionData(KindData):
    """A ladder auction's data for one hand: ``first_call``, the index in ``hand.calls`` of its
    first call (calls of earlier phases come before); ``passed``, the seats out of the auction."""

    first_call: int = 0
    passed: set[int] = field(default_factory=set)


#: per variant (:meth:`Variant.cached <rulekit.variant.model.Variant.cached>`): rank of the highest
#: bid so far -> the bids above it, and -> the legal calls (built once per highest bid, issue 10)
_BIDS_ABOVE = "ladder_auction.bids_above"
_CALLS_ABOVE = "ladder_auction.calls_above"
_TABLES = "ladder_auction.choices"   # the choices by number (_Tables)


def start(state: Table) -> bool:
    """The first speaker is the eldest hand (or the dealer)."""
    h = state.hand
    spec = KIND.spec(state)
    h.to_move = h.eldest if spec.first == "eldest" else h.dealer
    h.phase_state[KIND.name] = LadderAuctionData(len(h.calls))  # (calls of earlier phases)
    return True


def _legal_bids(state: Table) -> tuple:
    """The bids that outrank the highest so far (cached per highest bid)."""
    h = state.hand
    top = h.high.rank if h.high is not None else -1
    cache: dict[int, tuple[Bid, ...]] = state.variant.cached(_BIDS_ABOVE, dict)
    bids = cache.get(top)
    if bids is None:
        bids = cache[top] = tuple(b for b in KIND.spec(state).bids
                                  if b.rank > top and (b.only_over < 0 or b.only_over == top)
                                  and top >= getattr(b, "only_after", -1))
    return bids


def legal(state: Table) -> list:
    """``pass`` then every bid that outranks the highest so far, lowest first."""
    h = state.hand
    cache: dict[int, tuple[Action, ...]] = state.variant.cached(_CALLS_ABOVE, dict)
    top = h.high.rank if h.high is not None else -1
    calls = cache.get(top)
    if calls is None:
        acts = state.bid_actions
        calls = cache[top] = (PASS,) + tuple(acts[b.text] for b in _legal_bids(state))
    return list(calls)


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: a bid that does not outrank the highest ([A2], [A4])."""
    if action.kind == "pass":
        return
    spec = KIND.spec(state)
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
        raise IllegalActionError(f"{bid.text} does not outrank the highest bid "
                                 f"{h.high.text if h.high is not None else '-'}")
    after = getattr(bid, "only_after", -1)   # (an extra bid's)
    if top < after:
        raise IllegalActionError(f"{bid.text} may only be bid after a bid of {spec.bids[after].text} "
                                 f"or higher")


def apply(state: Table, action: Action) -> bool:
    """Record the call; end the auction and set the contract when it is over."""
    bid = None if action.kind == "pass" else state.bid_by_text[action.bid]
    return _call(state, bid, (state.hand.to_move, action.text))


def legal_choices(state: Table) -> tuple:
    """The choices of :func:`legal`: 0 for ``pass``, ``1 + rank`` for a bid (cached per highest bid)."""
    h = state.hand
    t = state.variant.cache.get(_TABLES) or _tables(state)
    top = h.high.rank if h.high is not None else -1
    choices = t.choices.get(top)
    if choices is None:
        choices = t.choices[top] = (0,) + tuple(1 + b.rank for b in _legal_bids(state))
    return choices


def choice_action(state: Table, choice: int) -> Action:
    """``pass`` (0) or the bid of rank ``choice - 1``."""
    return PASS if choice == 0 else state.bid_actions[KIND.spec(state).bids[choice - 1].text]


def choice_of(state: Table, action: Action) -> int:
    """0 for ``pass``, ``1 + rank`` for a bid."""
    return 0 if action.kind == "pass" else 1 + state.bid_by_text[action.bid].rank


def apply_choice(state: Table, choice: int) -> bool:
    """:func:`apply` of the call ``choice``, without its action (its ``(seat, text)`` a shared
    pair in the hand's actions and calls: a long match makes thousands)."""
    t = state.variant.cache.get(_TABLES) or _tables(state)
    h = state.hand
    said = t.said[h.to_move][choice]
    h.actions.append(said)
    return _call(state, t.bids[choice - 1] if choice else None, said)


class _Tables:
    """A ladder auction's choices by number, built once per variant: ``choices`` (rank of the
    highest bid -> the legal choices), ``bids`` (the spec's), ``said`` (seat -> choice -> the
    shared ``(seat, text)`` of the call)."""

    __slots__ = ("choices", "bids", "said")

    def __init__(self, spec, players: int):
        self.choices: dict[int, tuple[int, ...]] = {}
        self.bids = spec.bids
        self.said = tuple(((s, "pass"),) + tuple((s, b.text) for b in spec.bids) for s in range(players))


def _tables(state: Table) -> _Tables:
    return state.variant.cached(_TABLES, lambda: _Tables(KIND.spec(state), state.variant.players))


def _call(state: Table, bid, said: tuple) -> bool:
    """The call ``bid`` (``None``: a pass) of the seat to move, ``said`` its ``(seat, text)``."""
    h = state.hand
    v = state.variant
    spec: AuctionSpec = v.phases[h.phase]  # type: ignore[assignment]  # (its own: no cast, hot path)
    n = v.players
    seat = h.to_move
    d: LadderAuctionData = h.phase_state[KIND.name]  # type: ignore[assignment]
    passed = d.passed
    h.calls.append(said)
    if bid is None:
        passed.add(seat)
    else:
        h.high = bid
        h.high_seat = seat
    left = n - len(passed)   # players still in the auction
    round_over = spec.once and len(h.calls) - d.first_call == n
    if not left or round_over and h.high is None:
        return _all_passed(state)
    high = h.high   # (never None here once the round is over: all passing ended it above)
    if high is not None and (left == 1 and h.high_seat not in passed or round_over):
        h.contract = high
        h.declarer = h.high_seat
        if high.strain != "chosen":
            state.set_trump(high.strain, low=high.wins == "low")
        elif high.wins == "low":  # trumps named later, in the low order the bid says
            state.set_trump(h.trump, low=True)
        if getattr(high, "alone", False):  # a lone declarer's partners sit out
            partners_sit_out(state, h.declarer)
        return True
    step = v.step
    nxt = (seat + step) % n
    while nxt in passed and spec.pass_is_final:
        nxt = (nxt + step) % n
    h.to_move = nxt
    return False


def _all_passed(state: Table) -> bool:
    """[A5] [N1]: no contract; play at no trump, or throw the hand in."""
    if KIND.spec(state).all_pass == "redeal":
        state.throw_in()
        return True
    state.set_trump("NT")
    return True


def compile_auction(c, name: str, p: dict, path: tuple):
    """The :class:`AuctionSpec` of a ladder auction entry: its bids in
    auction order (``rank`` = index), levels from low to high and makeable, extra bids that
    are new, placed above a known bid (or the whole ladder) and over known bids."""
    deck, deal = c.deck, c.deal
    has_name_trump = "name_trump" in c.kinds
    tricks = sum(st.count * st.repeat for st in deal.steps if not st.zone) if deal else None
    # a strain is a suit letter or NT, or {call, strain, wins}: its own word in bid texts
    strains = [x if isinstance(x, dict) else {"call": x, "strain": x} for x in p["strains"]]
    for s_i, x in enumerate(strains):
        s = x["strain"]
        if s == "chosen" and not has_name_trump or x.get("wins") == "chosen" and not has_name_trump:
            c.err(path + ("strains", s_i), f"{x['call']} leaves a choice to the declarer (strain or wins "
                  f"chosen), so it needs a name_trump phase (expected one in phases)")
        elif s not in (NT, "chosen") and s not in deck.suits:
            c.err(path + ("strains", s_i), f"unknown strain {s} (expected one of {' '.join(deck.suits)}, NT"
                  f"{' or chosen' if isinstance(p['strains'][s_i], dict) else ''})")
    calls = [x["call"] for x in strains]
    for s_i, w in enumerate(calls):
        if w in calls[:s_i]:
            c.err(path + ("strains", s_i, "call"), f"the word {w} is used by two strains (expected each once)")
    for i, lv in enumerate(p["levels"]):
        if i and lv <= p["levels"][i - 1]:
            c.err(path + ("levels", i), f"levels go from low to high (found {lv} after {p['levels'][i - 1]})")
        if tricks is not None and lv > tricks:
            c.err(path + ("levels", i), f"level {lv} cannot be made: a hand has {tricks} tricks "
                  f"(expected levels up to {tricks})")
    # the order as (text, extra entry or None, (level, strain entry) of a ladder bid); ranks come last
    order: list = [(f"{lv}{x['call']}", None, (lv, x)) for lv in p["levels"] for x in strains]
    ladder_top = order[-1][0] if order else "?"
    for i, x in enumerate(p.get("extra_bids", [])):
        xp = path + ("extra_bids", i)
        texts = [t for t, _x, _p in order]
        if x["call"] in texts or x["call"].lower() == "pass":
            c.err(xp + ("call",), f"bid {x['call']!r} is already defined (expected a new call)")
            continue
        if x["strain"] == "chosen" and not has_name_trump:
            c.err(xp + ("strain",), "strain `chosen` needs a name_trump phase (expected one in phases)")
        if x["strain"] not in (NT, "chosen") and x["strain"] not in deck.suits:
            c.err(xp + ("strain",), f"unknown strain {x['strain']} "
                  f"(expected one of {' '.join(deck.suits)}, NT or chosen)")
        if tricks is not None and x["level"] > tricks:
            c.err(xp + ("level",), f"level {x['level']} cannot be made: a hand has {tricks} tricks "
                  f"(expected at most {tricks})")
        if x.get("alone") and not c.has_sides:
            c.err(xp + ("alone",), "a lone bid sits the partner out: it needs sides "
                                   "(expected a top-level sides: block)")
        for key in ("only_over", "only_after", "above"):
            if key in x and x[key] not in texts:
                c.err(xp + (key,), f"unknown bid {x[key]!r}{c.close(x[key], texts)} "
                      f"(expected one of the bids such as {ladder_top})")
        at = len(order)
        if x.get("above") in texts:  # just above that bid, after the extra bids already placed there
            at = texts.index(x["above"]) + 1
            while at < len(order) and order[at][1] is not None and order[at][1].get("above") == x["above"]:
                at += 1
        order.insert(at, (x["call"], x, None))
    rank = {t: i for i, (t, _x, _p) in enumerate(order)}
    bids: list = []
    for i, (text, x, ladder) in enumerate(order):
        if x is None:
            bids.append(Bid(text, ladder[0], ladder[1]["strain"], i, wins=ladder[1].get("wins", "high"),
                            group=c.group_name(ladder[1].get("group", ""), path + ("strains", strains.index(ladder[1]),
                                                                                   "group"))))
            continue
        bids.append(LadderBid(text, x["level"], x["strain"], i, rank.get(x.get("only_over", ""), -1),
                              rank.get(x.get("only_after", ""), -1), bool(x.get("null", False)),
                              x.get("open", ""), bool(x.get("alone", False)), x.get("value", 0),
                              group=c.group_name(x.get("group", ""), path + ("extra_bids", p["extra_bids"].index(x),
                                                                            "group"))))
    return AuctionSpec("ladder_auction", path[-1], p.get("first", "eldest"), tuple(bids),
                       tuple(x["strain"] for x in strains), bool(p.get("pass_is_final", True)),
                       p.get("all_pass", "play"), tuple(calls), bool(p.get("once", False)), p.get("book", 0))


def auction_help(spec, variant) -> str:
    """``pass, a bid from 6S to 10NT; 10T over 10NT`` (the bids as the refusals name them)."""
    # the ladder, then the bids that only go over one bid (10T over 10NT), not the last of
    # them as the top of the ladder (issue 12 case 20)
    bids = [b.text for b in spec.bids if not isinstance(b, LadderBid)]
    forms = [f"pass, a bid from {bids[0]} to {bids[-1]}" if len(bids) > 1 else f"pass, the bid {bids[0]}"]
    for b in spec.bids:
        if b.only_over >= 0:
            forms.append(f"{b.text} over {spec.bids[b.only_over].text}")
        elif isinstance(b, LadderBid):  # a bid placed in the ladder (MIS, above 8S)
            where = [f"above {spec.bids[b.rank - 1].text}" if b.rank else "lowest"]
            if b.only_after >= 0:
                where.append(f"after {spec.bids[b.only_after].text} or higher")
            forms.append(f"{b.text} ({', '.join(where)})")
    return "; ".join(forms)


class LadderAuctionKind(PhaseKind[AuctionSpec]):
    """The ``ladder_auction`` kind (see the module docstring)."""

    name = "ladder_auction"
    schema = {'description': 'An auction of ascending bids (level and strain); the last bidder standing '
                             'declares.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind', 'levels', 'strains'],
              'properties': {'kind': True,
                             'first': {'description': 'Who speaks first.', 'enum': ['eldest', 'dealer']},
                             'levels': {'description': 'Bid levels (tricks to win), low to high.',
                                        'type': 'array',
                                        'minItems': 1,
                                        'items': {'type': 'integer', 'minimum': 0, 'maximum': 52}},
                             'strains': {'description': 'Strains low to high: suit letters and NT, or '
                                                        'strains with a word of their own: {call: downtown, '
                                                        'strain: chosen, wins: low}.',
                                         'type': 'array',
                                         'minItems': 1,
                                         'uniqueItems': True,
                                         'items': {'anyOf': [
                                             {'$ref': '#/$defs/strain'},
                                             {'type': 'object',
                                              'additionalProperties': False,
                                              'required': ['call', 'strain'],
                                              'properties': {
                                                  'call': {'description': 'Its word in bid texts '
                                                                          '(`4downtown`).',
                                                           'type': 'string',
                                                           'pattern': '^[A-Za-z]+$'},
                                                  'strain': {'description': 'A strain, or `chosen`: the '
                                                                            'declarer names the trump '
                                                                            'later (name_trump phase).',
                                                             'type': 'string',
                                                             'pattern': '^([A-Z]|NT|chosen)$'},
                                                  'wins': {'description': 'Which cards win tricks: `high` '
                                                                          '(the ranking, default), `low` '
                                                                          '(ranking.low: a low-wins '
                                                                          'contract) or `chosen` (the '
                                                                          'declarer says which, in the '
                                                                          'name_trump phase).',
                                                           'enum': ['high', 'low', 'chosen']},
                                                  'group': {'description': 'The contract group its bids '
                                                                           'play with (`contract_groups`: '
                                                                           'its ranking, card points, '
                                                                           'card destinations).',
                                                            'type': 'string',
                                                            'pattern': '^[a-z_][a-z0-9_]*$'}}}]}},
                             'pass_is_final': {'description': 'A player who passes may not bid again in this '
                                                              'auction.',
                                               'type': 'boolean'},
                             'book': {'description': 'Levels count the tricks to win over this many (the '
                                                     'book), as in bids of 3 to 7 over the first six; '
                                                     'formulas still read the bid number as `level`.',
                                      'type': 'integer',
                                      'minimum': 1,
                                      'maximum': 52},
                             'once': {'description': 'The bidding goes round once: each player speaks once, in '
                                                     'turn (a pass or a higher bid); the highest bid then wins.',
                                      'type': 'boolean'},
                                                          'extra_bids': {'description': 'Special bids placed above the ladder (or `above` a bid), '
                                                           'e.g. a misère.',
                                            'type': 'array',
                                            'items': {'type': 'object',
                                                      'additionalProperties': False,
                                                      'required': ['call', 'level', 'strain'],
                                                      'properties': {'call': {'description': 'Its text, e.g. '
                                                                                             '10T.',
                                                                              'type': 'string',
                                                                              'pattern': '^[0-9A-Za-z]+$'},
                                                                     'level': {'description': 'Tricks to win.',
                                                                               'type': 'integer',
                                                                               'minimum': 0,
                                                                               'maximum': 52},
                                                                     'strain': {'description': 'A strain, or '
                                                                                               '`chosen`: the '
                                                                                               'declarer names '
                                                                                               'the trump later '
                                                                                               '(name_trump '
                                                                                               'phase).',
                                                                                'type': 'string',
                                                                                'pattern': '^([A-Z]|NT|chosen)$'},
                                                                     'group': {'description': 'The contract '
                                                                                              'group it plays '
                                                                                              'with '
                                                                                              '(`contract_groups`).',
                                                                               'type': 'string',
                                                                               'pattern': '^[a-z_][a-z0-9_]*$'},
                                                                     'only_over': {'description': 'Allowed only '
                                                                                                  'when this '
                                                                                                  'bid is the '
                                                                                                  'highest so '
                                                                                                  'far.',
                                                                                   'type': 'string'},
                                                                     'only_after': {'description': 'Allowed only '
                                                                                    'when the highest bid so far '
                                                                                    'is this bid or higher (a '
                                                                                    'misère only after a 7 bid: '
                                                                                    '`7S`).',
                                                                                    'type': 'string'},
                                                                     'above': {'description': 'Its place in the '
                                                                               'bidding order: just above this '
                                                                               'bid (default: above the whole '
                                                                               'ladder).',
                                                                               'type': 'string'},
                                                                     'null': {'description': 'The declarer '
                                                                              'undertakes to win no trick '
                                                                              '(a misère; formula variable '
                                                                              '`null`).',
                                                                              'type': 'boolean'},
                                                                     'open': {'description': "The declarer's "
                                                                              'hand is laid face up '
                                                                              '`before_lead` or '
                                                                              '`after_first_trick` (formula '
                                                                              'variable `open_game`).',
                                                                              'enum': ['before_lead',
                                                                                       'after_first_trick']},
                                                                     'alone': {'description': "The declarer's "
                                                                               'partner sits the hand out, his '
                                                                               'cards put aside (needs sides).',
                                                                               'type': 'boolean'},
                                                                     'value': {'description': 'Its own value, '
                                                                               'the formula variable '
                                                                               '`bid_value` (0 for the other '
                                                                               'bids).',
                                                                               'type': 'integer'}}}},
                             'all_pass': {'description': 'When every player passes: `play` without a contract, '
                                                         'or `redeal`.',
                                          'enum': ['play', 'redeal']}}}
    label = "bid"
    role = "auction"
    values_from_contract = True   # null, open_game, bid_value: the contract's own
    example = ("bidding:\n  kind: ladder_auction\n  levels: [6, 7, 8, 9, 10]\n  strains: [S, C, D, H, NT]\n"
               "  pass_is_final: true\n  all_pass: redeal")
    compile = staticmethod(compile_auction)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    legal_choices = staticmethod(legal_choices)
    choice_action = staticmethod(choice_action)
    choice_of = staticmethod(choice_of)
    apply_choice = staticmethod(apply_choice)
    help_line = staticmethod(auction_help)

    def strains(self, spec, deck) -> set:
        """The strains of its bids (an extra bid's too, unless chosen later)."""
        return set(spec.strains) | {b.strain for b in spec.bids if b.strain != "chosen"}

    def variables(self, spec) -> dict:
        """``null``, ``open_game`` (0 or 1) and ``bid_value`` of the contract, from its extra bid's
        attributes (0 for a ladder bid or without a contract)."""
        values = [getattr(b, "value", 0) for b in spec.bids]
        return {"null": (0, 1), "open_game": (0, 1), "bid_value": (min(0, *values), max(0, *values))}

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe`, saying when the declarer of an extra bid with trumps named later
        (``strain: chosen``) names them: after taking the widow when the exchange comes first."""
        kinds = [p.kind for p in variant.phases]
        when = "later"
        if "widow_exchange" in kinds and "name_trump" in kinds and \
                kinds.index("widow_exchange") < kinds.index("name_trump"):
            when = f"after taking the {variant.phases[kinds.index('widow_exchange')].zone}"
        return self.describe(spec, when)

    def plays_all_passed(self, spec) -> bool:
        """``all_pass: play``: a hand that all passed is played without a contract."""
        return spec.all_pass == "play"

    def strain_calls(self, spec) -> tuple:
        """Its strains' words in the bids' texts (``calls``), when it has any."""
        return spec.calls

    def bid_path(self, spec, bid) -> tuple:
        """A bid of the ladder is written under its strain (``strains``, level by level)."""
        return ("strains", bid.rank % len(spec.calls)) if spec.calls else ()

    def contracts(self, spec) -> tuple:
        """Every bid of the ladder (its level and strain bids, then its extra bids), low to high."""
        return spec.bids

    def bid_tricks(self, spec, bid) -> int | None:
        """Its level over the book (``book`` + level: levels over a book of six)."""
        return spec.book + bid.level

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass`` and every bid."""
        return ("pass",) + tuple(b.text for b in spec.bids)

    def describe(self, spec, when: str = "later") -> str:
        """One sentence on the ladder and how it ends; ``when``: when the declarer of an extra
        bid whose trumps are chosen names them."""
        out = "drops out of the auction for good" if spec.pass_is_final else "may still bid later"
        end = ("the deal is thrown in and the next dealer deals" if spec.all_pass == "redeal"
               else "the hand is played without a contract, at no trump")
        first = "the dealer" if spec.first == "dealer" else "the eldest hand (left of the dealer)"
        ladder = [b.text for b in spec.bids if b.only_over < 0]
        # extra bids placed inside the ladder (a misère between 8S and 8C) rank where listed
        inside = [b.text for b in spec.bids[:-1] if b.only_over < 0 and hasattr(b, "null")]
        placed = f" ({', '.join(inside)} rank where they stand in that list)" if inside else ""
        extra = "".join(f"; {b.text} may be bid only over {spec.bids[b.only_over].text}"
                        for b in spec.bids if b.only_over >= 0)
        calls = spec.calls or spec.strains
        words = []  # what a strain with a word of its own means
        for call, strain, b in zip(calls, spec.strains, [b for b in spec.bids if not hasattr(b, "null")]):  # the first level's bids, in order
            if call == strain and b.wins == "high":
                continue
            trump = {"chosen": "the declarer names trumps", "NT": "no trump"}.get(strain, f"{strain} trumps")
            wins = {"high": "", "low": ", the lowest cards win (the low order)",
                    "chosen": ", the declarer says whether the highest or the lowest cards win"}[b.wins]
            words.append(f"{call}: {trump}{wins}")
        meaning = f" ({'; '.join(words)})" if words else ""
        ends = ("The bidding goes round once: each player speaks once, and the highest bidder becomes the "
                "declarer and his bid the contract" if spec.once else
                f"A player who passes {out}; the last bidder becomes the declarer and his bid the contract")
        number = (f"a number (the tricks to win over the first {spec.book}, the book)" if spec.book else
                  "a number of tricks (at least that many of the hand's tricks to win)")
        extra += "".join(f"; {b.text} may be bid only after a bid of {spec.bids[b.only_after].text} or higher"
                         for b in spec.bids if getattr(b, "only_after", -1) >= 0)
        return (f"An auction, starting with {first} and going clockwise: each player passes or bids "
                f"higher than the last bid, {number} and a strain; the bids, lowest first, are {', '.join(ladder)}{extra}. A higher "
                f"number beats a lower one, and at the same number the later strain of "
                f"{', '.join(calls)} is higher{meaning}{placed}. {ends}. When all pass, {end}."
                + "".join(" " + _describe_extra(b) for b in spec.bids if getattr(b, "null", False)
                          or getattr(b, "open", "") or getattr(b, "alone", False))
                + "".join(f" {b.text} is a bid to win at least {b.level} tricks, the declarer naming trumps "
                          f"{when}; it is worth as much as {b.level} in the suit named." for b in spec.bids
                          if b.strain == "chosen" and "chosen" not in spec.strains
                          and not (getattr(b, "null", False) or getattr(b, "open", "") or getattr(b, "alone", False))))


def _describe_extra(b) -> str:
    """One sentence on a null, open or lone extra bid: ``MIS is a misère: ...``."""
    trump = {"NT": "at no trump", "chosen": "in the trump he names"}.get(b.strain, f"with {b.strain} trumps")
    aim = "to win no trick" if b.null else f"to win at least {b.level} tricks"
    how = []
    if b.alone:
        how.append("the bidder's partner lays his cards aside and sits the hand out")
    if b.open:
        how.append("the bidder's hand is laid face up " + ("before the opening lead" if b.open == "before_lead"
                                                   else "after the first trick"))
    worth = f", worth {b.value}" if b.value else ""
    return (f"{b.text} is a bid {aim}, played {trump}{worth}" + (f"; {', and '.join(how)}" if how else "") + ".")


KIND = LadderAuctionKind()
