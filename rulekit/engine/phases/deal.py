"""``deal`` phase: cards go out by the variant's pattern (rules/fivehundred.md [D3] [D4]).

The deal needs no decision: it happens in :func:`start` from the hand's
``deck_order`` (a shuffled deck, or an explicit deal from a record).
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

from rulekit.cards import bits
from rulekit.dsl import Env, Formula, FormulaError, compile_deal, compile_expr
from rulekit.dsl.words import formula_words
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.errors import DSLError


@dataclass(frozen=True)
class DealSpec(PhaseSpec):
    """``deal`` phase: the dealing pattern for the chosen number of players.

    :ivar steps: :class:`~rulekit.dsl.compile.DealStep` sequence.
    :ivar zones: zone name -> (size in cards, dealt face up).
    :ivar sizes: cards per player of deal 1, 2, ... (repeated); ``()``: the pattern's.
    :ivar sizes_at: the document path of the ``hand_sizes`` list in force (the player count's
        entry of a mapping); ends with ``"hand_sizes"`` for a schedule text.
    :ivar throw_in_if: a condition over the scoring variables (tallies of the cards dealt),
        checked on every score column once the cards are dealt: when it holds for one, the deal
        is thrown in unscored and the next dealer deals (rules/tarot.md [TA-D3], the petit sec).
    """

    steps: tuple
    zones: dict
    sizes: tuple = ()
    throw_in_if: Formula | None = None
    sizes_at: tuple = ()


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


#: per variant (:meth:`Variant.cached <rulekit.variant.model.Variant.cached>`): (phase name, eldest
#: hand) -> the deal's targets with their getters, built once
_PLANS = "deal.plans"
_BIT = (1).__lshift__   # card -> its bit


def _targets(spec, players: int, step: int, eldest: int) -> tuple:
    """``(seat or zone, getter)`` pairs: the getter takes a deck order and returns the cards
    of that seat or zone (their positions in the order are fixed by the pattern)."""
    where: dict = {}
    for i, t in enumerate(deal_plan(spec, players)):
        where.setdefault(t if t.__class__ is not int else (eldest + step * t) % players, []).append(i)
    out: list = []
    for target, pos in where.items():
        if len(pos) == 1:   # (itemgetter of one position returns the card, not a tuple)
            out.append((target, lambda order, i=pos[0]: (order[i],)))
        else:
            out.append((target, itemgetter(*pos)))
    return tuple(out)


def deal_cards(spec, hand, variant) -> None:
    """Give out ``hand.deck_order`` by ``spec.steps``, in the direction of play of ``variant``
    (``step``: 1 clockwise, -1 counter-clockwise) from the eldest hand.

    Player packets go to every seat in turn starting with ``hand.eldest``;
    zone steps (``widow 3 up``) put cards in that zone.
    """
    plans = variant.cache.get(_PLANS) or variant.cached(_PLANS, dict)
    key = (spec.name, hand.eldest)
    plan = plans.get(key)
    if plan is None:   # the plan with seats for this eldest hand, built once
        plan = plans[key] = _targets(spec, variant.players, variant.step, hand.eldest)
    hands = hand.hands
    zones = hand.zones
    order = hand.deck_order
    bit = _BIT
    for target, cards_of in plan:   # (each card once: the sum of their bits is their mask)
        if target.__class__ is int:
            hands[target] = sum(map(bit, cards_of(order)))
        else:
            zones[target] = sum(map(bit, cards_of(order)))
    if spec.zones:
        zone_up = hand.zone_up
        for name, (_size, up) in spec.zones.items():
            zone_up[name] = up
    hand.dealt = list(hands)


def start(state: Table) -> bool:
    """Deal the hand; the phase needs no action."""
    spec = KIND.spec(state)
    if spec.sizes:
        deal_schedule(spec, state.hand, state.variant.players, state.variant.step)
    else:
        deal_cards(spec, state.hand, state.variant)
    if spec.throw_in_if is not None and any(spec.throw_in_if(e) for e in state.score_envs()):
        state.throw_in(note="thrown in: " + spec.throw_in_if.text)
        return True   # (the next deal has begun: nothing more of this one)
    return False


def legal(state: Table):  # pragma: no cover - never to move
    return []


def compile_deal_phase(c, name: str, p: dict, path: tuple):
    """The :class:`DealSpec` of a deal entry (pattern checks)."""
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
    sizes, at = hand_sizes(c, p, path)
    if sizes and max(sizes) * players > c.deck.size:
        c.err(at, f"{max(sizes)} cards to each of {players} players need "
              f"{max(sizes) * players} cards but the deck has {c.deck.size} (expected at most "
              f"{c.deck.size // players})")
    return DealSpec("deal", path[-1], steps, zones, sizes, sizes_at=at)


def hand_sizes(c, p: dict, path: tuple) -> tuple:
    """``(sizes, path)``: the ``hand_sizes`` schedule for the compiler's player count and the
    document path it comes from.  A list; a mapping from the number of players to a list (as
    ``pattern``); or a text of runs ``"1 .. 60 / players"``, ``"10 .. 1, 2 .. 10"``, each end a
    formula of ``players`` (rounded down).  A missing player count, a formula that is not one of
    ``players`` and an empty run are errors at the field."""
    raw = p.get("hand_sizes")
    at = path + ("hand_sizes",)
    players = c.player_count
    if not raw:
        return (), at
    if isinstance(raw, dict):
        offered = c.choices()
        for key in raw:
            if int(key) not in offered:
                c.err(at + (key, "<key>"), f"hand sizes for {key} players, but this variant is for "
                      f"{' or '.join(map(str, offered))} (expected keys {', '.join(repr(str(o)) for o in offered)})")
        if str(players) not in raw:
            c.err(at, f"no hand sizes for {players} players (expected a key {str(players)!r})")
            return (), at
        return tuple(raw[str(players)]), at + (str(players),)
    if isinstance(raw, list):
        return tuple(raw), at
    out: list = []
    for run in str(raw).split(","):
        ends = []
        for term in run.split(".."):
            try:
                f = compile_expr(term.strip(), {"players": "num"}, (), expect="num")
                ends.append(int(f(Env({"players": players}))))
            except (DSLError, FormulaError) as e:
                c.err(at, f"{term.strip()!r}: {e.message} (expected runs of numbers or formulas of players, "
                      f"\"1 .. 60 / players\")")
                return (), at
        if len(ends) > 2 or min(ends) < 1:
            c.err(at, f"{run.strip()!r} for {players} players is no run of hand sizes (expected \"A .. B\", "
                  f"each at least 1)")
            return (), at
        a, b = ends[0], ends[-1]
        out += range(a, b + 1) if a <= b else range(a, b - 1, -1)
    return tuple(out), at


def cards_each(spec, number: int) -> int:
    """Cards each player gets in deal ``number`` (0-based) by the schedule ``spec.sizes``
    (the list repeats)."""
    return spec.sizes[number % len(spec.sizes)]


def deal_schedule(spec, hand, players: int, step: int = 1) -> None:
    """Deal ``spec.sizes[hand.number % len]`` cards to each player one at a time, in the
    direction of play (``step``) from the eldest hand; the rest of the pack is the face-down ``stock``."""
    n = cards_each(spec, hand.number)
    order = hand.deck_order
    dealt = n * players
    for i in range(min(players, dealt)):   # the i-th card and every players-th after it (distinct bits)
        hand.hands[(hand.eldest + step * i) % players] |= sum(map(_BIT, order[i:dealt:players]))
    rest = sum(map(_BIT, order[dealt:]))
    if rest:
        hand.zones["stock"] = rest
        hand.zone_up["stock"] = False
    hand.dealt = list(hand.hands)


class DealKind(PhaseKind[DealSpec]):
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
                                                                                            'many players'}}]},
                             'hand_sizes': {'description': 'Cards to each player, one at a time, in deal 1, 2, '
                                                           '... (the list repeats); the undealt rest is the '
                                                           'stock. The pattern then only checks the deck. A '
                                                           'list, a mapping from the number of players to a '
                                                           'list (as `pattern`), or runs whose ends may be '
                                                           'formulas of `players`: `"1 .. 60 / players"` '
                                                           '(Wizard: 1 to 20 cards at 3 players, 1 to 10 at 6), '
                                                           '`"10 .. 1, 2 .. 10"`.',
                                            'oneOf': [{'type': 'array', 'minItems': 1,
                                                       'items': {'type': 'integer', 'minimum': 1, 'maximum': 52}},
                                                      {'type': 'object',
                                                       'propertyNames': {'pattern': '^[2-8]$'},
                                                       'additionalProperties': {
                                                           'type': 'array', 'minItems': 1,
                                                           'description': 'the hand sizes for this many players',
                                                           'items': {'type': 'integer', 'minimum': 1,
                                                                     'maximum': 52}}},
                                                      {'type': 'string', 'minLength': 1,
                                                       'description': 'runs, e.g. "1 .. 60 / players"'}]},
                             'throw_in_if': {'description': 'A condition over the scoring variables (tallies '
                                                            'with `in: hand` count the cards dealt), checked on '
                                                            'every score column as soon as the cards are dealt: '
                                                            'when it holds for one, the deal is thrown in '
                                                            'unscored and the next dealer deals (a hand whose only '
                                                            'trump is the Petit: `"trumps == 1 and petit == 1 and '
                                                            'excuse == 0"`).',
                                             'type': 'string'}}}
    label = "deal"
    role = "deal"
    required = True
    position = "first"
    example = 'deal: {kind: deal, pattern: "3 3 4 3, widow 3"}'
    conditions = ("throw_in_if",)
    compile = staticmethod(compile_deal_phase)
    start = staticmethod(start)
    legal = staticmethod(legal)

    def deals_aside(self, spec) -> bool:
        """A zone step (``widow 3``) deals cards away from the players."""
        return any(st.zone for st in spec.steps)

    def header(self, spec, hand, variant) -> list[str]:
        """The cards dealt face up, per zone: ``widow K♦ A♦ 10♥`` (a zone dealt face down is
        nobody's to see)."""
        up: dict = {}
        for target, c in zip(deal_plan(spec, variant.players), hand.deck_order):
            if target.__class__ is str and hand.zone_up.get(target):
                up[target] = up.get(target, 0) | 1 << c
        return [f"{z} " + " ".join(variant.deck.pretty(c) for c in bits(m)) for z, m in up.items()]

    def zone_dealt(self, spec, hand, variant, name: str) -> int:
        """The cards dealt to zone ``name`` this hand (a bitmask; 0 for a zone it does not
        deal), whatever has become of them since: rebuilt from the deck order, as :meth:`header`."""
        if spec.sizes:   # (a schedule of hand sizes: the stock is the undealt rest)
            n = cards_each(spec, hand.number) * variant.players
            return sum(1 << c for c in hand.deck_order[n:]) if name == "stock" else 0
        out = 0
        for target, c in zip(deal_plan(spec, variant.players), hand.deck_order):
            if target == name:
                out |= 1 << c
        return out

    def hand_size(self, spec, number: int) -> int | None:
        """The cards of deal ``number`` by ``hand_sizes`` (:func:`cards_each`), when it has them."""
        return cards_each(spec, number) if spec.sizes else None

    def hand_variables(self, spec, hand) -> dict:
        """``total_tricks``: the cards each player was dealt this hand, with ``hand_sizes``."""
        return {"total_tricks": cards_each(spec, hand.number)} if spec.sizes else {}

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: nobody acts in a deal."""
        return ()

    def describe(self, spec) -> str:
        """``Deals 10 cards to each player and 3 to the widow.``; when a dealt hand throws the deal
        in, says so."""
        text = self._dealt(spec)
        if spec.throw_in_if is not None:
            text += (f" The deal is thrown in unscored, and the next dealer deals, when "
                     f"{formula_words(spec.throw_in_if.text)} for a player (`{spec.throw_in_if.text}`).")
        return text

    def _dealt(self, spec) -> str:
        if spec.sizes:
            sizes = " ".join(str(n) for n in spec.sizes)
            return (f"The dealer shuffles and deals cards one at a time clockwise from the eldest hand (left of the "
                    f"dealer); the number of cards each player gets changes from deal to deal: {sizes} "
                    f"(then again from the start). The undealt cards are the stock.")
        each = sum(s.count * s.repeat for s in spec.steps if not s.zone)
        # cards dealt "aside" are out of the hand: say so rather than name a zone
        zones = "".join(f"; the other {n} cards are set aside, unused" if z == "aside"
                        else f", and {n} to the {z} ({'face up' if up else 'face down'})"
                        for z, (n, up) in spec.zones.items())
        return (f"The dealer shuffles and deals {each} cards to each player, clockwise from the eldest hand "
                f"(left of the dealer){zones}.")


KIND = DealKind()
