"""``ladder_auction`` phase: ascending bids, last bidder standing declares
(rules/fivehundred.md [A1]-[A5]).

Bids rank by level then strain; ``extra_bids`` sit above the ladder and may
require a given bid to be the highest so far (``10T`` only over ``10NT``, [A4]).
With ``pass_is_final`` a player who passes is out ([A3]).  The auction ends
when all but one have passed and that one holds the highest bid, or when all
pass ([A5]).
"""
from __future__ import annotations

from rulekit.engine.phases.base import PhaseKind

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
    h = state.hand
    cache = action_tables(state.variant)["legal_calls"]   # built once per highest bid (issue 10)
    top = h.high.rank if h.high is not None else -1
    calls = cache.get(top)
    if calls is None:
        acts = state.bid_actions
        calls = cache[top] = (PASS,) + tuple(acts[b.text] for b in _legal_bids(state))
    return list(calls)


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
    passed = h.passed
    h.calls.append((seat, action.text))
    if action.kind == "pass":
        passed.add(seat)
    else:
        h.high = state.bid_by_text[action.bid]
        h.high_seat = seat
    active = [s for s in range(n) if s not in passed]
    if not active:
        return _all_passed(state)
    if len(active) == 1 and h.high is not None and active[0] == h.high_seat:
        h.contract = h.high
        h.declarer = h.high_seat
        if h.high.strain != "chosen":
            state.set_trump(h.high.strain)
        return True
    nxt = state.next_seat(seat)
    while nxt in passed and spec.pass_is_final:
        nxt = state.next_seat(nxt)
    h.to_move = nxt
    return False


def _all_passed(state) -> bool:
    """[A5] [N1]: no contract; play at no trump, or throw the hand in."""
    if state.current_phase.all_pass == "redeal":
        state.throw_in()
        return True
    state.set_trump("NT")
    return True


def compile_auction(c, name: str, p: dict, path: tuple):
    """The :class:`~rulekit.variant.model.AuctionSpec` of a ladder auction entry: its bids,
    levels from low to high and makeable, extra bids that are new and over a known bid."""
    from rulekit.variant.model import NT, AuctionSpec, Bid
    deck, deal = c.deck, c.deal
    has_name_trump = "name_trump" in c.kinds
    bids: list = []
    tricks = sum(st.count * st.repeat for st in deal.steps if not st.zone) if deal else None
    for s_i, s in enumerate(p["strains"]):
        if s != NT and s not in deck.suits:
            c.err(path + ("strains", s_i), f"unknown strain {s} (expected one of {' '.join(deck.suits)} or NT)")
    for i, lv in enumerate(p["levels"]):
        if i and lv <= p["levels"][i - 1]:
            c.err(path + ("levels", i), f"levels go from low to high (found {lv} after {p['levels'][i - 1]})")
        if tricks is not None and lv > tricks:
            c.err(path + ("levels", i), f"level {lv} cannot be made: a hand has {tricks} tricks "
                  f"(expected levels up to {tricks})")
    for lv in p["levels"]:
        for s in p["strains"]:
            bids.append(Bid(f"{lv}{s}", lv, s, len(bids)))
    texts = {b.text: b.rank for b in bids}
    for i, x in enumerate(p.get("extra_bids", [])):
        xp = path + ("extra_bids", i)
        over = -1
        if "only_over" in x:
            if x["only_over"] not in texts:
                c.err(xp + ("only_over",), f"unknown bid {x['only_over']!r}{c.close(x['only_over'], texts)} "
                      f"(expected one of the bids such as {bids[-1].text if bids else '?'})")
            else:
                over = texts[x["only_over"]]
        if x["call"] in texts or x["call"].lower() == "pass":
            c.err(xp + ("call",), f"bid {x['call']!r} is already defined (expected a new call)")
        if x["strain"] == "chosen" and not has_name_trump:
            c.err(xp + ("strain",), "strain `chosen` needs a name_trump phase (expected one in phases)")
        if x["strain"] not in (NT, "chosen") and x["strain"] not in deck.suits:
            c.err(xp + ("strain",), f"unknown strain {x['strain']} "
                  f"(expected one of {' '.join(deck.suits)}, NT or chosen)")
        if tricks is not None and x["level"] > tricks:
            c.err(xp + ("level",), f"level {x['level']} cannot be made: a hand has {tricks} tricks "
                  f"(expected at most {tricks})")
        b = Bid(x["call"], x["level"], x["strain"], len(bids), over)
        texts[b.text] = b.rank
        bids.append(b)
    return AuctionSpec("ladder_auction", path[-1], p.get("first", "eldest"), tuple(bids),
                       tuple(p["strains"]), bool(p.get("pass_is_final", True)), p.get("all_pass", "play"))


def auction_help(spec, variant) -> str:
    """``pass, a bid from 6S to 10NT; 10T over 10NT`` (the bids as the refusals name them)."""
    # the ladder, then the bids that only go over one bid (10T over 10NT), not the last of
    # them as the top of the ladder (issue 12 case 20)
    bids = [b.text for b in spec.bids if b.only_over < 0]
    forms = [f"pass, a bid from {bids[0]} to {bids[-1]}" if len(bids) > 1 else f"pass, the bid {bids[0]}"]
    forms += [f"{b.text} over {spec.bids[b.only_over].text}" for b in spec.bids if b.only_over >= 0]
    return "; ".join(forms)


class LadderAuctionKind(PhaseKind):
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
                             'strains': {'description': 'Strains low to high: suit letters and NT.',
                                         'type': 'array',
                                         'minItems': 1,
                                         'uniqueItems': True,
                                         'items': {'$ref': '#/$defs/strain'}},
                             'pass_is_final': {'description': 'A player who passes may not bid again in this '
                                                              'auction.',
                                               'type': 'boolean'},
                             'extra_bids': {'description': 'Special bids placed above the ladder.',
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
                                                                                'pattern': '^(S|H|D|C|NT|chosen)$'},
                                                                     'only_over': {'description': 'Allowed only '
                                                                                                  'when this '
                                                                                                  'bid is the '
                                                                                                  'highest so '
                                                                                                  'far.',
                                                                                   'type': 'string'}}}},
                             'all_pass': {'description': 'When every player passes: `play` without a contract, '
                                                         'or `redeal`.',
                                          'enum': ['play', 'redeal']}}}
    label = "bid"
    role = "auction"
    example = ("bidding:\n  kind: ladder_auction\n  levels: [6, 7, 8, 9, 10]\n  strains: [S, C, D, H, NT]\n"
               "  pass_is_final: true\n  all_pass: redeal")
    compile = staticmethod(compile_auction)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    help_line = staticmethod(auction_help)

    def strains(self, spec, deck) -> set:
        """The strains of its bids."""
        return set(spec.strains)

    def describe(self, spec) -> str:
        """One sentence on the ladder and how it ends."""
        out = "drops out of the auction for good" if spec.pass_is_final else "may still bid later"
        end = ("the deal is thrown in and the next dealer deals" if spec.all_pass == "redeal"
               else "the hand is played without a contract, at no trump")
        first = "the dealer" if spec.first == "dealer" else "the eldest hand (left of the dealer)"
        ladder = [b.text for b in spec.bids if b.only_over < 0]
        extra = "".join(f"; {b.text} may be bid only over {spec.bids[b.only_over].text}"
                        for b in spec.bids if b.only_over >= 0)
        return (f"An auction, starting with {first} and going clockwise: each player passes or bids "
                f"higher than the last bid, a number of tricks (at least that many of the hand's tricks "
                f"to win) and a strain; the bids, lowest first, are {', '.join(ladder)}{extra}. A higher "
                f"number beats a lower one, and at the same number the later strain of "
                f"{', '.join(spec.strains)} is higher. A player who passes {out}; the last bidder becomes "
                f"the declarer and his bid the contract. When all pass, {end}.")


KIND = LadderAuctionKind()
