"""``deal`` phase: cards go out by the variant's pattern (rules/fivehundred.md [D3] [D4]).

The deal needs no decision: it happens in :func:`start` from the hand's
``deck_order`` (a shuffled deck, or an explicit deal from a record).
"""
from __future__ import annotations

from rulekit.engine.phases.base import PhaseKind


def deal_plan(spec, players: int) -> tuple:
    """Where each position of the dealing order goes: a player offset from the eldest
    hand (0 = eldest) or a zone name.  Built once per pattern."""
    plan = []
    for step in spec.steps:
        if step.zone:
            plan += [step.zone] * step.count
            continue
        for _ in range(step.repeat):
            for k in range(players):
                plan += [k] * step.count
    return tuple(plan)


_PLANS: dict = {}


def deal_cards(spec, hand, players: int) -> None:
    """Give out ``hand.deck_order`` by ``spec.steps``, clockwise from the eldest hand.

    Player packets go to every seat in turn starting with ``hand.eldest``;
    zone steps (``widow 3 up``) put cards in that zone.
    """
    key = (id(spec), players)
    plan = _PLANS.get(key)
    if plan is None or plan[0] is not spec:
        plan = _PLANS[key] = (spec, deal_plan(spec, players))
    eldest = hand.eldest
    hands = hand.hands
    zones = hand.zones
    for target, c in zip(plan[1], hand.deck_order):
        if target.__class__ is int:
            seat = (eldest + target) % players
            hands[seat] |= 1 << c
        else:
            zones[target] = zones.get(target, 0) | 1 << c
    for name, (_size, up) in spec.zones.items():
        hand.zone_up[name] = up
    hand.dealt = list(hands)


def start(state) -> bool:
    """Deal the hand; the phase needs no action."""
    deal_cards(state.current_phase, state.hand, state.variant.players)
    return False


def legal(state):  # pragma: no cover - never to move
    return []


def compile_deal_phase(c, name: str, p: dict, path: tuple):
    """The :class:`~rulekit.variant.model.DealSpec` of a deal entry (pattern checks)."""
    from rulekit.dsl import compile_deal
    from rulekit.variant.model import DealSpec
    pat = p["pattern"]
    ppath = path + ("pattern",)
    players = c.player_count
    if isinstance(pat, dict):
        offered = c.choices()
        for key in pat:
            if int(key) not in offered:
                c.err(ppath + (key, "<key>"), f"a pattern for {key} players, but this variant is for "
                      f"{' or '.join(map(str, offered))} (expected keys {', '.join(repr(str(o)) for o in offered)})")
        key = str(players)
        if key not in pat:
            c.err(ppath, f"no dealing pattern for {players} players (expected a key {key!r})")
            return None
        ppath = ppath + (key,)
    steps = c.dsl(ppath, compile_deal)
    if steps is None:
        return None
    zones: dict = {}
    each = 0
    for st in steps:
        if st.zone:
            size, up = zones.get(st.zone, (0, st.face_up))
            zones[st.zone] = (size + st.count, up)
        else:
            each += st.count * st.repeat
    total = each * players + sum(z[0] for z in zones.values())
    if each == 0:
        c.err(ppath, "the pattern deals no cards to the players (expected packets such as \"3 3 2\")")
    elif total != c.deck.size:
        parts = [f"{players} players x {each}"] + [f"{z} {n}" for z, (n, _up) in zones.items()]
        c.err(ppath, f"the deal gives out {total} cards ({' + '.join(parts)}) but the deck has "
              f"{c.deck.size} (expected the pattern to use every card once)")
    return DealSpec("deal", path[-1], steps, zones)


class DealKind(PhaseKind):
    """The ``deal`` kind (see the module docstring)."""

    name = "deal"
    schema = {'description': 'Shuffle and deal by a pattern (DSL deal string), from the eldest hand clockwise.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind', 'pattern'],
              'properties': {'kind': True,
                             'pattern': {'description': 'The dealing pattern, or a mapping from the number of '
                                                        'players to one.',
                                         'oneOf': [{'type': 'string',
                                                    'description': 'e.g. "3 3 3 1, widow 3 up"'},
                                                   {'type': 'object',
                                                    'propertyNames': {'pattern': '^[2-8]$'},
                                                    'additionalProperties': {'type': 'string',
                                                                             'description': 'a pattern for this '
                                                                                            'many players'}}]}}}
    label = "deal"
    role = "deal"
    required = True
    position = "first"
    example = 'deal: {kind: deal, pattern: "3 3 4 3, widow 3"}'
    compile = staticmethod(compile_deal_phase)
    start = staticmethod(start)
    legal = staticmethod(legal)

    def describe(self, spec) -> str:
        """``Deals 10 cards to each player and 3 to the widow.``"""
        each = sum(s.count * s.repeat for s in spec.steps if not s.zone)
        zones = "".join(f", and {n} to the {z} ({'face up' if up else 'face down'})"
                        for z, (n, up) in spec.zones.items())
        return (f"The dealer shuffles and deals {each} cards to each player, clockwise from the eldest hand "
                f"(left of the dealer){zones}.")


KIND = DealKind()
