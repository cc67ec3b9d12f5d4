"""Score a finished hand and decide whether the match is over.

Scoring formulas are evaluated once per score column — each player, or each
side with ``scoring.by: side`` — with these variables (points are card
points, tricks are counts; a side's are its players' added up):

``players``, ``total_tricks``, ``tricks``, ``points``, ``seat`` (column index),
``is_declarer``, ``has_contract``, ``trump`` (``S``.. or ``NT``),
``vulnerable``, ``game_score`` (game points since the last line), and the match so far:
``total`` (the column's running total before the hand), ``deal_number`` (from 1),
``dealer`` (the dealer's seat) and ``is_dealer``; with a
contract also ``level``, ``strain`` (index of the strain in the auction's
strain list), ``declarer_tricks``, ``declarer_points``, ``doubled``,
``redoubled``, ``declarer_vulnerable``, and the hand's roles: ``is_partner`` (the
declarer's partner for this hand, :attr:`Hand.partner`), ``has_partner``, ``is_defender``,
``side_tricks`` (tricks of the declarer and his partner); plus each of ``scoring.tallies``.
A per-hand partner is scored with the declarer's formula.

Match end (``match:``), decided on score columns (seats, or sides):
``immediate_win`` (declarer context), ``target`` with ``ties`` (``declarer``;
``trick_order``: the tied column whose running total reached the target at the
earliest trick wins — rules/fivehundred.md [G3]; ``count_order``: the tied column
whose running total got there first with the hand's points counted in the order of
``match.count_order`` — All Fours' High, Low, Jack, Game; in a penalty game the target is
a limit that loses), ``lose_at``, or a fixed number of ``deals``.  Rubbers and
the ``max_hands`` cap are decided by :class:`~rulekit.engine.state.State`.
"""
from __future__ import annotations

import dataclasses
from collections import OrderedDict
from typing import Any

from rulekit.dsl import Env, Formula
from rulekit.engine.hand import Written
from rulekit.engine.phases import REGISTRY, PhaseKind, matadors
from rulekit.engine.phases import base as _phase_base
from rulekit.engine.tables import phase_variables
from rulekit.errors import RulekitError


def columns(variant) -> int:
    """Number of score columns: sides when scoring is by side, else seats."""
    return len(variant.sides) if variant.scoring.by_side else variant.players


def player_envs(variant, hand, upto: int | None = None, extra: dict | None = None) -> list:
    """One :class:`~rulekit.dsl.Env` per score column (seat or side) for ``hand``.

    :param upto: count only the first ``upto`` tricks (for [G3] trick order).
    :param extra: per-column lists for ``vulnerable`` and ``game_score`` (match progress);
        the match's ``totals``, ``deal_number`` and ``dealer`` default to the hand's own.
    """
    n = variant.players
    pts = variant.points_table(hand.ctx)
    won = [0] * n
    if upto is None:  # the whole hand: its winners, and the cards won (widow cards given to a winner too)
        for winner in _winners(hand):
            won[winner] += 1
        cards = hand.won_cards
    else:
        cards = [0] * n
        for _leader, played, winner, _named in hand.tricks[:upto]:
            won[winner] += 1
            for _s, c in played:
                cards[winner] |= 1 << c
    points = [mask_points(pts, m) for m in cards] if variant.has_card_points else [0] * n
    if hand.extra_points and upto is None:   # points moved outside the cards won (a kept card's exchange)
        points = [p + x for p, x in zip(points, hand.extra_points)]
    ex = dict(extra or {})
    if variant.scoring.tallies and ("tallies" not in ex or upto is not None):   # (score_played has them)
        ex["tallies"] = tallies(variant, hand, cards)
    ex.setdefault("doubled", getattr(hand, "doubled", 0))
    ex.setdefault("partner", getattr(hand, "partner", -1))
    ex.setdefault("low_wins", bool(hand.ctx is not None and hand.ctx.low))  # the order the hand was played in
    ex.setdefault("totals", hand.totals)
    ex.setdefault("deal_number", hand.number + 1)
    ex.setdefault("dealer", hand.dealer)
    envs = envs_for(variant, hand.contract, hand.declarer, hand.trump, won, points, ex)
    fixed = hand_variables(variant, hand)
    if fixed:  # what the phases fix for this hand (a schedule of hand sizes: this deal's tricks)
        for env in envs:
            env.vars.update(fixed)
    for kind, spec, _defaults in phase_variables(variant):  # the phases' own variables
        for env, values in zip(envs, kind.values(variant, hand, spec)):
            env.vars.update(values)
    if variant.scoring.matadors is not None:
        _set_matadors(variant, hand, envs)
    return envs


def _set_matadors(variant, hand, envs: list) -> None:
    """``matadors`` and ``with_matadors`` of the hand's declarer (``scoring.matadors``), the
    same in every column."""
    n, with_ = matadors.exact(variant, hand)
    for env in envs:
        env.vars["matadors"] = n
        env.vars["with_matadors"] = with_


def hand_variables(variant, hand) -> dict:
    """The shared formula variables that the phases of ``variant`` fix for the finished
    ``hand`` (:meth:`~rulekit.engine.phases.base.PhaseKind.hand_variables`: a deal's
    ``total_tricks`` from a schedule of hand sizes)."""
    fixers = variant.cache.get(FIXERS)
    if fixers is None:  # (read at every hand's end) the phases whose kinds have the hook
        fixers = variant.cached(FIXERS, lambda: tuple(
            (REGISTRY[p.kind], p) for p in variant.phases
            if type(REGISTRY[p.kind]).hand_variables is not PhaseKind.hand_variables))
    out: dict = {}
    for kind, spec in fixers:
        fixed = kind.hand_variables(spec, hand)
        if fixed:
            out.update(fixed)
    return out


def hand_envs(variant, hand, names: frozenset | None = None) -> list:
    """The scoring environments of ``hand`` so far, one per score column (``end_if`` and
    ``lead_if`` of trick play read them: :meth:`State.score_envs`).

    :param names: the variables the caller's formula reads (its ``Formula.names``), if known:
        when they are all the phases' own (:func:`phase_envs`), the environments hold only
        those, with the values the full ones would give."""
    if names is not None:
        envs = phase_envs(variant, hand, names)
        if envs is not None:
            return envs
    if variant.has_card_points or variant.scoring.tallies:
        return player_envs(variant, hand)
    # the hot path of bots' playouts: tricks counts only (what player_envs would give)
    extra = {"partner": hand.partner, "doubled": hand.doubled}
    if _fixed(variant)[2]:   # (a formula reads the match so far)
        extra.update(match_extra(hand))
    envs = envs_for(variant, hand.contract, hand.declarer, hand.trump, hand.won, [0] * hand.players, extra)
    for kind, spec, _d in phase_variables(variant):
        for env, values in zip(envs, kind.values(variant, hand, spec)):
            env.vars.update(values)
    if variant.scoring.matadors is not None:
        _set_matadors(variant, hand, envs)
    return envs


def phase_envs(variant, hand, names: frozenset) -> list | None:
    """One :class:`~rulekit.dsl.Env` per score column holding only the phases' own variables
    of ``hand`` (their defaults, then a contract record's attributes, then each phase kind's
    :meth:`~rulekit.engine.phases.base.PhaseKind.values`, in :func:`hand_envs`' order), when
    every name of ``names`` (a formula's) is such a variable that nothing later in
    :func:`envs_for` / :func:`player_envs` overrides (the match so far, markers, matadors, the
    variables a phase fixes for the hand: :func:`hand_variables`); else ``None``.  A condition
    such as ``lead_if: alone`` then costs a few dict updates instead of the whole hand's
    environments, and nothing for values already seen (the environments are then shared by
    the hands whose kinds' ``values_key`` are equal: read them, never change them)."""
    table = variant.cache.get(PHASE_ONLY)
    if table is None:
        table = variant.cached(PHASE_ONLY, dict)
    plan = table.get(names)
    if plan is None:
        plan = table[names] = _phase_only(variant, names)
    if not plan:
        return None
    defaults, cols, fixes = plan
    if fixes and names & hand_variables(variant, hand).keys():
        return None
    c = hand.contract
    attrs = c.variables() if c is not None and hasattr(c, "variables") else None  # a contract record's attributes
    kinds = phase_variables(variant)
    # the same values give the same environments: kept per variant by the kinds' values_key
    # (bounded), shared and read-only as the score cache's are
    seen = variant.cache.get(PHASE_ENVS)
    if seen is None:
        seen = variant.cached(PHASE_ENVS, dict)
    key: tuple | None = (names, tuple([kind.values_key(variant, hand, spec) for kind, spec, _d in kinds]),
                         tuple(attrs.items()) if attrs else ())
    try:
        envs = seen.get(key)
    except TypeError:   # (a kind's value that is no key: not hashable)
        envs = key = None
    if envs is not None:
        return envs
    if attrs:
        defaults = {**defaults, **attrs}
    envs = [Env(defaults.copy()) for _ in range(cols)]
    for kind, spec, _d in kinds:
        for env, values in zip(envs, kind.values(variant, hand, spec)):
            env.vars.update(values)
    for e in envs:
        e.everyone = envs
    if key is not None:
        if len(seen) >= MEMO_SIZE:
            seen.clear()
        seen[key] = envs
    return envs


def phase_defaults(variant) -> dict:
    """The phases' own formula variables of ``variant`` with their defaults, in
    :func:`~rulekit.engine.tables.phase_variables`' order, a later phase's default winning
    (built once per variant: read it, never change it)."""
    out = variant.cache.get(PHASE_DEFAULTS)
    if out is None:
        out = {}
        for _kind, _spec, d in phase_variables(variant):
            out.update(d)
        out = variant.cached(PHASE_DEFAULTS, lambda: out)
    return out


def _phase_only(variant, names: frozenset) -> tuple | bool:
    """What :func:`phase_envs` needs to give formulas reading ``names`` their full values:
    ``(the phases' defaults, score columns, whether player_envs' fixed variables apply)``, or
    ``False`` when it cannot."""
    defaults = dict(phase_defaults(variant))
    later = set(MATCH_NAMES) | {m.name for m in variant.scoring.markers} | {"matadors", "with_matadors"}
    if not names or not names <= defaults.keys() or names & later:
        return False
    return defaults, columns(variant), bool(variant.has_card_points or variant.scoring.tallies)


#: Outcomes a variant's score cache keeps (each about 3-5 KB of environments).
MEMO_SIZE = 2048
#: Hands a variant's score cache is tried on; it stays on if one in ``MEMO_HITS`` was found in it.
MEMO_TRIAL = 2048
MEMO_HITS = 4
#: keys of the tables this module keeps in :meth:`Variant.cached <rulekit.variant.model.Variant.cached>`
MEMO = "scoring.memo"
FIXERS = "scoring.hand_fixers"
TRUMP_MASKS = "scoring.tally_trump_masks"
FIXED = "scoring.fixed"
NAMES_READ = "scoring.names_read"
PHASE_ONLY = "scoring.phase_only"
PHASE_ENVS = "scoring.phase_envs"
PHASE_DEFAULTS = "scoring.phase_defaults"
#: the formula variables of the match so far (``match_variables``)
MATCH_NAMES = frozenset({"total", "declarer_total", "highest_other_total", "lowest_other_total", "deal_number",
                         "dealer", "is_dealer"})
#: the match variables made from the running totals
TOTAL_NAMES = frozenset({"total", "declarer_total", "highest_other_total", "lowest_other_total"})


class _Memo:
    """A variant's score cache (:func:`score_played`): the newest outcomes scored (at most
    :data:`MEMO_SIZE`), and what the key of an outcome must hold.

    :ivar bypass: some phase gives formula variables that the contract's text does not fix
        (:attr:`~rulekit.engine.phases.base.PhaseKind.values_from_contract`), or the scoring
        counts matadors (the cards dealt): the counts of the play alone do not fix the score
        (:func:`remembered`).
    :ivar keyed: ``(kind, spec)`` of the phases whose variables are not fixed by the contract's
        text: the key holds their values for the hand (and the contract's attributes).
    :ivar matadors: the scoring counts matadors: those hands are scored without the cache.
    :ivar reads: ``(vulnerability, game score, totals, deal number, dealer)``: whether some
        formula reads each.
    :ivar off: the cache is not used any more: its first :data:`MEMO_TRIAL` hands found less
        than one in :data:`MEMO_HITS` outcomes already scored (a game of many outcomes, such as
        each seat's card points or bids: building the key costs more than it saves);
        ``looked``, ``found``: hands looked up and found so far in the trial.
    """

    __slots__ = ("outcomes", "bypass", "keyed", "matadors", "reads", "off", "looked", "found", "sides", "points",
                 "tallied")

    def __init__(self, variant) -> None:
        self.outcomes: OrderedDict = OrderedDict()
        self.keyed = tuple((kind, spec) for kind, spec, _d in phase_variables(variant) if not kind.values_from_contract)
        self.matadors = variant.scoring.matadors is not None
        self.bypass = bool(self.keyed) or self.matadors
        self.reads = _reads_match_progress(variant)
        self.off = self.matadors
        self.looked = self.found = 0
        # what the key reads of the variant, found once: the sides (scoring by side), whether
        # cards count points, whether tallies are counted
        self.sides = variant.sides if variant.scoring.by_side else None
        self.points = bool(variant.has_card_points)
        self.tallied = bool(variant.scoring.tallies)


def _reads_match_progress(variant) -> tuple:
    """``(vulnerability, game score, totals, deal number, dealer)``: whether some formula of
    ``variant`` reads each, so that the score cache keys on it (a rubber's part-scores vary a
    lot and most games' formulas never read them).  The environments of a cached outcome are
    then shared by hands whose unread variable differs."""
    names = names_read(variant)
    return (bool(names & {"vulnerable", "declarer_vulnerable"}), "game_score" in names, bool(names & TOTAL_NAMES),
            "deal_number" in names, bool(names & {"dealer", "is_dealer"}))


def names_read(variant) -> frozenset:
    """Every variable name some formula of ``variant`` reads (its scoring, match and phase
    conditions, its rounds'), found once per variant by a walk of the compiled variant
    (``tests/test_fast_path.py`` checks it against the compiler's formulas)."""
    out = variant.cache.get(NAMES_READ)
    if out is None:
        out = variant.cached(NAMES_READ, lambda: frozenset(_walk_names(variant)))
    return out


def _walk_names(variant) -> set:
    names: set = set()
    seen: set = {id(variant.cache)}   # (the tables built from the variant hold none of its own)

    def walk(x) -> None:
        if isinstance(x, (int, float, str, bool, type(None))) or id(x) in seen:
            return
        seen.add(id(x))
        if isinstance(x, Formula):
            names.update(x.names)
        elif isinstance(x, dict):
            for k, y in x.items():
                walk(k)
                walk(y)
        elif isinstance(x, (list, tuple, set, frozenset)):
            for y in x:
                walk(y)
        elif dataclasses.is_dataclass(x):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif callable(x) and getattr(x, "__closure__", None):   # a formula a function closes over
            for cell in x.__closure__:
                walk(cell.cell_contents)
        else:   # any other object that may hold formulas
            for y in getattr(x, "__dict__", {}).values():
                walk(y)
            for slot in getattr(type(x), "__slots__", ()):
                walk(getattr(x, slot, None))
    walk(variant)
    return names


def _winners(hand) -> list:
    """The winner of each trick of ``hand``: its ``trick_winners`` (kept by trick play), else
    read from its tricks (a hand put together by hand, e.g. in a test, may lack them)."""
    winners = hand.trick_winners
    return winners if len(winners) == len(hand.tricks) else [t[2] for t in hand.tricks]


def score_played(variant, hand, extra: dict) -> tuple:
    """Score a finished played ``hand``: ``(envs, entries, void)``, as :func:`player_envs`
    then :func:`score_hand` (which also sets ``hand.parts``).

    The result depends only on the contract, the declarer's (and his partner's) score column,
    trump, doubling, tricks and card points per score column, the tallies, the phases' own
    variables (and the contract's attributes) when the contract's text does not fix them, the
    deal's size from a schedule, a refe's factor (``markers``) and the match facts in ``extra``
    some formula reads (vulnerability, game score...); it is remembered per variant by those
    (bounded), so that long simulations and bots' playouts, whose outcomes repeat, do not
    re-evaluate the formulas.  Only a scoring that counts matadors (the cards dealt) is never
    remembered.  (With ``scoring.by: side`` every variable is a side's, so the key holds sides,
    not seats.)  The environments returned may be shared between hands (then they come as a
    tuple): read them, never change them.
    """
    memo = variant.cache.get(MEMO)
    if memo is None:
        memo = variant.cached(MEMO, lambda: _Memo(variant))
    key = None if memo.off else _outcome_key(variant, hand, extra, memo)
    try:
        hit = memo.outcomes.get(key) if key is not None else None
    except TypeError:   # a phase's variable that is no key (not hashable)
        key = hit = None
    if key is None:
        fresh = player_envs(variant, hand, extra=extra)
        scored, void = score_hand(variant, hand, fresh)
        return fresh, scored, void
    if memo.looked < MEMO_TRIAL:   # (the trial: is the cache worth its keys?)
        memo.looked += 1
        memo.found += hit is not None
        if memo.looked == MEMO_TRIAL and memo.found * MEMO_HITS < MEMO_TRIAL:
            memo.off = True
            memo.outcomes.clear()
    if hit is None:
        tal = key[8]
        if tal:   # (the counts of the key, by name, for the environments)
            names = [t.name for t in variant.scoring.tallies]
            extra = dict(extra, tallies=[dict(zip(names, counts)) for counts in tal])
        fresh = player_envs(variant, hand, extra=extra)
        scored, void = score_hand(variant, hand, fresh)
        if memo.off:   # (the trial just ended against the cache)
            return fresh, scored, void
        if len(memo.outcomes) >= MEMO_SIZE:   # the oldest outcome goes
            memo.outcomes.popitem(last=False)
        parts = {k: tuple(x) for k, x in hand.parts.items()} if hand.parts is not None else None
        # (a tuple: the environments of a remembered outcome, shared and read-only)
        hit = memo.outcomes[key] = (tuple(fresh), tuple(scored), void, parts)
    envs, entries, void, parts = hit
    hand.parts = {k: list(x) for k, x in parts.items()} if parts is not None else None
    return envs, list(entries), void


def _outcome_key(variant, hand, extra: dict, memo: _Memo) -> tuple:
    """The key of ``hand``'s outcome in the score cache (:func:`score_played`; its ninth item is
    the tallies' counts per column)."""
    c = hand.contract
    count = _winners(hand).count
    points = ([mask_points(pts, m) for m in hand.won_cards] if memo.points and (pts := variant.points_table(hand.ctx))
              else [])
    if hand.extra_points and points:   # points moved outside the cards won (a kept card's exchange)
        points = [p + x for p, x in zip(points, hand.extra_points)]
    declarer = hand.declarer
    partner = hand.partner
    sides = memo.sides
    if sides is None:
        won = tuple([count(s) for s in range(variant.players)])
    else:   # what envs_for keeps of seats: their sides' sums
        won = tuple([sum([count(s) for s in seats]) for seats in sides])
        points = [sum([points[s] for s in seats]) for seats in sides] if points else []
        declarer = variant.side_of[declarer] if declarer >= 0 else -1
        partner = variant.side_of[partner] if partner >= 0 else -1
    tal = tuple(tally_counts(variant, hand, hand.won_cards)) if memo.tallied else ()
    vul, gs, tot, num, dealer = memo.reads
    own: tuple = ()   # what the phases (and the contract's attributes) give this hand beyond its text
    if memo.keyed:
        own = tuple([kind.values_key(variant, hand, spec) for kind, spec in memo.keyed])
        if c is not None and hasattr(c, "variables"):
            own += (tuple(c.variables().items()),)
    fixed = hand_variables(variant, hand)
    return (c.text if c is not None else None, declarer, hand.trump, hand.doubled, won,
            tuple(points), tuple(extra.get("vulnerable") or ()) if vul else (),
            tuple(extra.get("game_score") or ()) if gs else (), tal,
            tuple(extra.get("totals", hand.totals)) if tot else (), hand.number if num else -1,
            hand.dealer if dealer else -1, partner if c is not None else -1, own,
            tuple(fixed.items()) if fixed else (), tuple(extra["markers"].items()) if "markers" in extra else ())


def remembered(variant, hand, extra: dict, memo=None) -> bool:
    """Whether ``hand``'s score follows from the counts of its play and the facts fixed before
    it alone (the contract's text, the declarer's column, trump, doubling, tricks, card points
    and tallies per column, and the match facts in ``extra`` some formula reads), so that two
    plays of the same hand with the same counts score the same (bots key their playouts'
    values so).  Not when the hand has more: phase variables the contract's text does not fix,
    matadors, a refe's factor (``markers``), a partner for the hand, a deal size from a
    schedule."""
    if memo is None:
        memo = variant.cached(MEMO, lambda: _Memo(variant))
    return not (memo.bypass or "markers" in extra or hand.partner >= 0 or hand_variables(variant, hand))


def tallies(variant, hand, won_cards: list) -> list:
    """Per column, a dict of tally name -> count (rules/bridge.md [S7], whist.md [S2]):
    :func:`tally_counts` by name."""
    names = [t.name for t in variant.scoring.tallies]
    return [dict(zip(names, counts)) for counts in tally_counts(variant, hand, won_cards)]


def tally_counts(variant, hand, won_cards: list) -> list:
    """Per column, the count of each tally in the variant's order (a tuple).

    ``hand``: the most such cards in one dealt hand of the column's seats;
    ``side_hands``: in its dealt hands together; ``tricks``: in its won tricks (only the
    tricks picked by index, when the tally names some); with ``count: tricks``, the won
    tricks (of those picked) that hold one of its cards.  With ``pick``, only the highest
    (lowest) of its cards in play (dealt to the players) is counted, by the hand's ranking
    (rules of All Fours: High, "the highest trump in play", and Low).
    """
    deck = variant.deck
    own_cols = variant.sides if variant.scoring.by_side else tuple((s,) for s in range(variant.players))
    trump_masks = variant.cached(TRUMP_MASKS, dict)
    dealt = hand.dealt
    per_tally = []
    for t in variant.scoring.tallies:
        cols = _party_cols(variant, hand, t.party) if t.party else own_cols
        mask = t.mask
        if t.group:   # the trump group of the hand's tables (none at no trump)
            ctx = hand.ctx
            mask = ctx.group_mask[ctx.trump_group] if ctx is not None and ctx.trump_group is not None \
                and hand.trump in deck.suits else 0
        elif mask == -1:  # the ranks of the trump suit (none at no trump), built once per trump
            mask = trump_masks.get((t.name, hand.trump))
            if mask is None:
                mask = 0
                if hand.trump in deck.suits:
                    for r in t.ranks:
                        c = deck.index.get(r + hand.trump)   # a deck need not hold every rank in every suit
                        mask |= 0 if c is None else deck.copies_of(c)
                trump_masks[(t.name, hand.trump)] = mask
        if t.pick:
            mask = _pick(hand, mask, t.pick == "highest", t.where == "tricks")
        if t.where == "hand":
            per_tally.append([max([(dealt[s] & mask).bit_count() for s in seats]) for seats in cols])
        elif t.where == "side_hands":
            per_tally.append([(_union(dealt, seats) & mask).bit_count() for seats in cols])
        elif t.by_trick:   # in won tricks, picked or counted by the trick
            if t.worth or t.won_by or t.from_others:
                per_tally.append([_by_trick(variant, hand, t, mask, seats) for seats in cols])
                continue
            counts = []
            for seats in cols:
                n = 0
                for k, (_l, plays, winner, _n) in enumerate(hand.tricks):
                    if winner not in seats or (t.tricks and k not in t.tricks):
                        continue
                    m = 0
                    for _s, c in (plays[:1] if t.led else plays):
                        m |= 1 << c
                    n += bool(m & mask) if t.count == "tricks" else (m & mask).bit_count()
                counts.append(n)
            per_tally.append(counts)
        else:   # in won tricks, every card
            per_tally.append([(_union(won_cards, seats) & mask).bit_count() for seats in cols])
    return list(zip(*per_tally)) if per_tally else [() for _ in cols]


def _party_cols(variant, hand, which: str) -> tuple:
    """Per score column (a seat: partners by a card score by seat), the seats a party tally
    counts this hand: ``own``, the seat's party (the declaring party for its members, the
    others for the rest); ``declaring`` / ``others``, that party for every column."""
    from rulekit.engine.phases.base import declaring_party
    party = declaring_party(variant, hand)
    inside = tuple(s for s in range(variant.players) if party >> s & 1)
    outside = tuple(s for s in range(variant.players) if not party >> s & 1)
    if which != "own":
        return tuple(inside if which == "declaring" else outside for _s in range(variant.players))
    return tuple(inside if party >> s & 1 else outside for s in range(variant.players))


def _by_trick(variant, hand, t, mask: int, seats) -> int:
    """A tally of the tricks ``seats`` won, trick by trick, with the filters that look at a
    whole trick: its worth in card points (``worth``), the card that won it (``won_by``), the
    cards played by the other seats only (``from: others``); besides ``tricks``, ``led`` and
    ``count`` as in :func:`tally_counts`."""
    pts = variant.points_table(hand.ctx) if t.worth else None
    n = 0
    for k, (_l, plays, winner, _n) in enumerate(hand.tricks):
        if winner not in seats or (t.tricks and k not in t.tricks):
            continue
        if pts is not None and sum(pts[c] for _s, c in plays) < t.worth:
            continue
        if t.won_by and not any(s == winner and t.won_by >> c & 1 for s, c in plays):
            continue
        m = 0
        for s, c in (plays[:1] if t.led else plays):
            if not (t.from_others and s in seats):
                m |= 1 << c
        n += bool(m & mask) if t.count == "tricks" else (m & mask).bit_count()
    return n


def _union(masks: list, seats) -> int:
    m = 0
    for s in seats:
        m |= masks[s]
    return m


def _pick(hand, mask: int, highest: bool, played: bool = False) -> int:
    """The card of ``mask`` in play (dealt to a player; with ``played``, played to a trick)
    ranking highest (or lowest) in the hand's trump context, as a one-card mask; 0 when none
    is in play."""
    dealt = 0
    if played:
        for _l, plays, _w, _n in hand.tricks:
            for _s, c in plays:
                dealt |= 1 << c
    else:
        for m in hand.dealt:
            dealt |= m
    cards = list(_bits(mask & dealt))
    if not cards:
        return 0
    ctx = hand.ctx
    return 1 << (max if highest else min)(cards, key=lambda c: ctx.win_keys[ctx.group_of[c]][c])


def strain_index(auction, contract, trump: str) -> int:
    """The formula variable ``strain``: the place of the contract's strain in the auction's
    ``strains`` list, from 0.  A ladder bid with its own word (``6down``: ``{call: down,
    strain: chosen}``) is placed by its word whatever suit is named (user pass finding 5);
    an extra bid (Five Hundred's 10T, strain chosen) counts as the trump named."""
    from rulekit.variant.model import Bid
    calls = REGISTRY[auction.kind].strain_calls(auction)
    if type(contract) is Bid and calls:
        word = contract.text[len(str(contract.level)):]
        if word in calls:
            return calls.index(word)
    strains = auction.strains
    return strains.index(trump) if trump in strains else 0


def envs_for(variant, contract, declarer: int, trump: str, won: list, points: list,
             extra: dict | None = None) -> list:
    """Scoring environments from explicit trick and point counts (also for bots' what-ifs).

    :param contract: the :class:`~rulekit.variant.model.Bid` or ``None``.
    :param won: tricks per seat; ``points``: card points per seat.
    :param extra: ``vulnerable`` / ``game_score`` per column, ``doubled`` (0, 1, 2),
        ``tallies`` per column.
    :returns: one env per score column (sides when scoring is by side).
    """
    n = variant.players
    total, auction, with_match = _fixed(variant)
    ex = extra or {}
    by_side = variant.scoring.by_side
    if by_side:
        cols = len(variant.sides)
        won = [sum(won[s] for s in seats) for seats in variant.sides]
        points = [sum(points[s] for s in seats) for seats in variant.sides]
        dcol = variant.side_of[declarer] if declarer >= 0 else -1
    else:
        cols = n
        dcol = declarer
    vul = ex.get("vulnerable") or [False] * cols
    gs = ex.get("game_score") or [0] * cols
    # the match so far (total, deal_number, dealer, is_dealer): only for a variant that reads them
    match = match_variables(variant, ex, cols, dcol if contract is not None else -1) if with_match else None
    tal = ex.get("tallies") or ([{t.name: 0 for t in variant.scoring.tallies} for _ in range(cols)]
                                if variant.scoring.tallies else None)
    doubled = ex.get("doubled", 0)
    partner = ex.get("partner", -1)
    pcol = -1 if partner < 0 or contract is None else (variant.side_of[partner] if by_side else partner)
    # what every column shares, built once: the contract's facts, then (overriding, as they
    # come later) the phases' defaults, the markers' factors and a contract record's attributes
    if contract is not None:
        shared = dict(level=contract.level, strain=strain_index(auction, contract, trump),
                      low_wins=ex.get("low_wins", contract.wins == "low"),
                      declarer_tricks=won[dcol], declarer_points=points[dcol], doubled=doubled == 1,
                      redoubled=doubled == 2, declarer_vulnerable=bool(vul[dcol]),
                      has_partner=pcol >= 0, side_tricks=won[dcol] + (won[pcol] if pcol >= 0 and pcol != dcol else 0))
    else:
        shared = dict(level=0, strain=0, low_wins=False, declarer_tricks=0, declarer_points=0, doubled=False,
                      redoubled=False, declarer_vulnerable=False, has_partner=False, side_tricks=0)
    later = dict(phase_defaults(variant))
    for m in variant.scoring.markers:  # the declarer's marker factor, the same in every column
        later[m.name] = ex.get("markers", {}).get(m.name, 1)
    if variant.scoring.matadors is not None:   # (player_envs sets the hand's own)
        later["matadors"], later["with_matadors"] = ex.get("matadors", (0, False))
    if contract is not None and hasattr(contract, "variables"):  # a contract record's attributes
        later.update(contract.variables())
    has_contract = contract is not None
    envs = []
    for s in range(cols):
        v = {"players": n, "total_tricks": total, "tricks": won[s], "points": points[s], "seat": s,
             "is_declarer": s == dcol, "has_contract": has_contract, "trump": trump,
             "vulnerable": bool(vul[s]), "game_score": gs[s]}
        v.update(shared)
        v["is_partner"] = has_contract and s == pcol
        v["is_defender"] = has_contract and s != dcol and s != pcol
        if tal is not None:
            v.update(tal[s])
        if later:
            v.update(later)
        if match is not None:
            v.update(match[s])
        envs.append(Env(v))
    for e in envs:
        e.everyone = envs
    return envs


def _fixed(variant) -> tuple:
    """``(hand_size, auction spec, reads the match)`` of ``variant``, computed once (they scan
    the phases and the formulas; bots build environments in their inner loop)."""
    out = variant.cache.get(FIXED)
    if out is None:
        out = variant.cached(FIXED, lambda: (variant.hand_size, variant.auction(),
                                             bool(names_read(variant) & MATCH_NAMES)))
    return out


def match_variables(variant, extra: dict, cols: int, declarer: int = -1) -> list:
    """Per score column, the formula variables of the match so far: ``total`` (its running
    total before the hand: ``extra["totals"]``, zeros when not given), ``declarer_total`` (the
    declarer's column's, 0 without a declarer: ``declarer`` is his column), ``highest_other_total``
    and ``lowest_other_total`` (the highest and lowest of the other columns' totals),
    ``deal_number`` (the deal's number from 1), ``dealer`` (the dealer's seat) and ``is_dealer``
    (the column is the dealer's seat, or his side)."""
    totals = extra.get("totals") or (0,) * cols
    totals = [totals[s] if s < len(totals) else 0 for s in range(cols)]
    dealer = extra.get("dealer", 0)
    dealer = dealer if dealer is not None and dealer >= 0 else 0
    dcol = variant.side_of[dealer] if variant.scoring.by_side else dealer
    number = extra.get("deal_number", 1)
    dtotal = totals[declarer] if 0 <= declarer < cols else 0
    out = []
    for s in range(cols):
        others = totals[:s] + totals[s + 1:] or [0]
        out.append({"total": totals[s], "declarer_total": dtotal, "highest_other_total": max(others),
                    "lowest_other_total": min(others), "deal_number": number, "dealer": dealer,
                    "is_dealer": s == dcol})
    return out


def reads_match(variant) -> bool:
    """Whether some formula of ``variant`` reads the match so far (:data:`MATCH_NAMES`): then
    the bots' caches of outcomes key on it."""
    return _fixed(variant)[2]


def match_extra(hand) -> dict:
    """The match facts of ``hand`` that :func:`envs_for` reads as ``extra`` (a hand of a
    bot's world, or of a match: ``totals``, ``deal_number``, ``dealer``)."""
    return {"totals": hand.totals, "deal_number": hand.number + 1, "dealer": hand.dealer}


def mask_points(pts: tuple, m: int) -> int:
    """The card points of the cards of mask ``m`` by the table ``pts`` (card -> points, a tuple
    of :meth:`Variant.points_table <rulekit.variant.model.Variant.points_table>`): the sum of
    ``pts[c]`` over its cards, as each point value times the number of its cards in ``m``
    (:func:`_value_masks`, built once per table: a game has few values, two in Hearts, five to
    seven in Skat, Belote or Tarot), so that every hand's end adds up each player's won cards
    in a few mask operations."""
    hit = _VALUE_MASKS.get(id(pts))
    if hit is None or hit[0] is not pts:
        if len(_VALUE_MASKS) >= 256:   # (bounded: the tables of the variants in use)
            _VALUE_MASKS.clear()
        hit = _VALUE_MASKS[id(pts)] = (pts, _value_masks(pts))
    total = 0
    for value, cards in hit[1]:
        total += value * (m & cards).bit_count()
    return total


def _value_masks(pts: tuple) -> tuple:
    """``(value, mask of the cards worth it)`` for each point value other than 0 of table ``pts``."""
    out: dict = {}
    for c, value in enumerate(pts):
        if value:
            out[value] = out.get(value, 0) | 1 << c
    return tuple(out.items())


#: id of a points table -> (the table, kept so that its id is not another's, and its value masks)
_VALUE_MASKS: dict = {}


def _bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def entry_formulas(variant, hand) -> list:
    """The formula scoring each column for this hand."""
    return formulas_for(variant, hand.contract, hand.declarer, partner=getattr(hand, "partner", -1))


def formulas_for(variant, contract, declarer: int, spec=None, partner: int = -1) -> list:
    """The formula scoring each column, given the contract (or ``None``) and declarer.

    :param spec: an object with ``each``/``declarer``/``defender`` (a part); default the scoring.
    :param partner: the declarer's partner for this hand (scored like the declarer), or -1.
    """
    sc = spec or variant.scoring
    cols = columns(variant)
    if contract is None:
        f = getattr(sc, "no_contract", None) or sc.each
        return [f] * cols
    if sc.declarer is not None or sc.defender is not None:
        dcol = variant.side_of[declarer] if variant.scoring.by_side else declarer
        pcol = -1 if partner < 0 else column_of(variant, partner)
        # scoring.each stands in for a missing declarer or defender formula (docs/authoring.md)
        mine, theirs = sc.declarer or sc.each, sc.defender or sc.each
        return [mine if s == dcol or s == pcol else theirs for s in range(cols)]
    return [sc.each] * cols


def entries_for(variant, contract, declarer: int, envs: list, partner: int = -1) -> list:
    """Entries per column for a hypothetical outcome (parts added up); for bots' what-ifs."""
    sc = variant.scoring
    cols = len(envs)
    specs = sc.parts or (None,)
    out = [0] * cols
    for spec in specs:
        fs = formulas_for(variant, contract, declarer, spec, partner)
        for c in range(cols):
            if fs[c] is not None:
                out[c] += int(fs[c](envs[c]))
    return out


def made_worth(variant, bid, seat: int, vulnerable: tuple = (), tallies: list | None = None) -> int | None:
    """What ``bid`` (a contract with a suit, or ``NT``) brings ``seat``'s column when made
    exactly: the entry (all score parts, not doubled) for the fewest tricks that give a positive
    entry, the other tricks to an opponent; ``None`` when no count does or a formula fails.  The
    prompt's ``(worth N)`` and ``explain``'s words for a list contract both say this.

    A game with card points has no such figure (the score depends on the cards taken, not on
    the tricks alone): ``None`` there too.

    :param vulnerable: per side, this hand's vulnerability (empty: none).
    :param tallies: per score column, each tally's count (``{name: count}``) to score that same
        outcome with (the tricks are still the fewest giving a positive entry with no tallies):
        how far counted cards (Bridge's honours [S7]) move the figure; default none."""
    v = variant
    if v.has_card_points:
        return None
    total = v.hand_size
    other = next((x for x in range(v.players) if v.side_of[x] != v.side_of[seat]), (seat + 1) % v.players) \
        if v.scoring.by_side else (seat + 1) % v.players
    trump = bid.strain if bid.strain in v.contexts else "NT"
    vul = list(vulnerable)
    extra = {"vulnerable": vul[:len(v.side_names)]} if v.scoring.by_side and any(vul) else None
    try:
        for tricks in range(total + 1):
            won = [0] * v.players
            won[seat], won[other] = tricks, total - tricks
            entry = entries_for(v, bid, seat, envs_for(v, bid, seat, trump, won, [0] * v.players, extra))[
                column_of(v, seat)]
            if entry > 0:
                if tallies is None:
                    return entry
                return entries_for(v, bid, seat, envs_for(v, bid, seat, trump, won, [0] * v.players,
                                                          dict(extra or {}, tallies=tallies)))[column_of(v, seat)]
    except (RulekitError, ArithmeticError, ValueError, TypeError, IndexError, KeyError):
        return None
    return None


def worth_words(variant, bid, seat: int, vulnerable: tuple = ()) -> str | None:
    """:func:`made_worth` as the prompt and ``explain`` say it: ``160``; ``at least 20`` when the
    scoring also reads counts of cards (tallies: Bridge's honours [S7]) that the figure takes as
    none and that can only raise it (the least it is worth), ``at most N`` when they can only lower
    it; for a contract whose trumps are named later (``strain: chosen``), the least it is worth in
    a suit; ``None`` when there is no figure.

    :param vulnerable: per side, this hand's vulnerability (empty: none)."""
    v = variant
    if bid.strain == "chosen":
        ws = [w for w in (made_worth(v, dataclasses.replace(bid, strain=x), seat, vulnerable) for x in v.deck.suits)
              if w is not None]
        return str(min(ws)) if ws else None
    w = made_worth(v, bid, seat, vulnerable)
    if w is None:
        return None
    sc = v.scoring
    names = {t.name for t in sc.tallies}
    formulas = [f for part in (sc.parts or (sc,)) for f in (part.declarer, part.each) if f is not None]
    if not names or not any(names & f.names for f in formulas) or (bid.strain not in v.contexts and bid.strain != "NT"):
        return str(w)
    col = column_of(v, seat)
    cols = len(v.sides) if sc.by_side else v.players
    high = [{t.name: (t.most if c == col else 0) for t in sc.tallies} for c in range(cols)]
    most = made_worth(v, bid, seat, vulnerable, tallies=high)
    return str(w) if most is None or most == w else f"at least {w}" if most > w else f"at most {w}"


_phase_base.WORTH_WORDS[:] = [worth_words]   # the kinds' words say what a contract scores made


def column_of(variant, seat: int) -> int:
    """The score column of ``seat``: its side's index when scoring is by side."""
    return variant.side_of[seat] if variant.scoring.by_side else seat


def score_hand(variant, hand, envs=None) -> tuple[list, bool]:
    """Entries (points per column) of a finished hand, and whether it is void.

    With ``scoring.parts`` the entries are the sums of the parts, and
    ``hand.parts`` keeps each part's entries (``{"below": [..], "above": [..]}``).

    :param envs: the hand's :func:`player_envs`, when already built.
    :returns: ``(entries, void)``; a void hand has all-zero entries ([S3] of rams.md).
    """
    envs = envs or player_envs(variant, hand)
    sc = variant.scoring
    cols = len(envs)
    if sc.void_if is not None and sc.void_if(envs[0]):
        return [0] * cols, True
    if sc.parts:
        parts = {}
        for part in sc.parts:
            fs = formulas_for(variant, hand.contract, hand.declarer, part, getattr(hand, "partner", -1))
            parts[part.name] = [int(fs[c](envs[c])) if fs[c] is not None else 0 for c in range(cols)]
        hand.parts = parts
        return [sum(p[c] for p in parts.values()) for c in range(cols)], False
    fs = entry_formulas(variant, hand)   # (a column no formula scores gets 0, as with parts)
    return [int(f(envs[s])) if (f := fs[s]) is not None else 0 for s in range(cols)], False


def against_entries(variant, declarer: int, envs: list) -> list:
    """Entries written against the declarer (``scoring.against_declarer``, a soup of
    rules/preferans.md [S3] [S5]), as ``{column, target, value, part}`` dicts, zeros left out."""
    f = variant.scoring.against_declarer
    if f is None or declarer < 0:
        return []
    target = column_of(variant, declarer)
    out = []
    for c, env in enumerate(envs):
        value = int(f(env))
        if value and c != target:
            out.append({"column": c, "target": target, "value": value, "part": None})
    return out


def final_results(variant, sheet) -> list | None:
    """Each column's final result by ``match.final`` (rules/preferans.md [S8]), balanced to add
    up to zero (the mean taken off; a remainder of the division goes to the first columns),
    or ``None`` without one.  ``written``: the points a column wrote against the others;
    ``against``: the points written against it; ``total``: its total."""
    f = variant.match.final
    if f is None:
        return None
    n = len(sheet.columns)
    written, against = [0] * n, [0] * n
    for r in sheet.rows:
        for a in r.against:
            written[a["column"]] += a["value"]
            against[a["target"]] += a["value"]
    totals = sheet.totals()
    raw = [int(f(Env({"total": totals[c], "written": written[c], "against": against[c], "players": n})))
           for c in range(n)]
    excess = sum(raw)
    share, rest = divmod(excess, n)
    return [raw[c] - share - (1 if c < rest else 0) for c in range(n)]


def match_result(variant, hand, before: list, after: list, hands_played: int, envs=None, names=None,
                 sheet=None):
    """Decide whether the match ends after ``hand``.

    Totals are per score column (seat, or side with ``scoring.by: side``); the winners
    returned are columns too.  In order: ``immediate_win`` (the declarer's column);
    ``target`` reached (by a column for which ``target_if`` holds on this hand, when given) — with ``lower_is_better`` the limit of a penalty game, which ends
    the match with the lowest total winning, else the first to reach it wins, ties broken
    by ``ties`` (rules/fivehundred.md [G1] [G3]) even when someone fell to ``lose_at`` on
    the same hand; ``lose_at`` (the best other total wins, [G4]); a number of ``deals``.

    :param before: totals before this hand; ``after``: totals after it.
    :param envs: the hand's :func:`player_envs`, when already built.
    :param names: score column names for the reason (default ``column N``).
    :param sheet: the sheet so far, for ``final`` results (``sum_at_most``: the totals add up to
        that or less, rules/preferans.md [S7]; the best final result wins).
    :returns: ``None`` when play goes on, else ``(winning columns, reason)``.
    """
    m = variant.match
    if m.sum_at_most is not None and sum(after) <= m.sum_at_most:
        finals = final_results(variant, sheet) if sheet is not None else None
        score = finals if finals is not None else after
        best = min(score) if variant.scoring.lower_is_better else max(score)
        return ([c for c, x in enumerate(score) if x == best],
                f"the totals add up to {sum(after)}, at or below {m.sum_at_most}")
    cols = range(len(after))
    low = variant.scoring.lower_is_better

    def name(c: int) -> str:
        return names[c] if names else f"column {c}"

    if hand.contract is not None and m.immediate_win is not None and not hand.void:
        envs = envs or player_envs(variant, hand)
        dcol = column_of(variant, hand.declarer)
        if envs[dcol].once(m.immediate_win):
            return [dcol], f"{name(dcol)} made {hand.contract.text} and wins at once"
    if m.target is not None and max(after) >= m.target:
        reached = [c for c in cols if after[c] >= m.target]
        if m.target_if is not None:   # the target counts only on a hand where target_if holds
            envs = envs or player_envs(variant, hand)
            reached = [c for c in reached if envs[c].once(m.target_if)]
        if reached and low:  # a penalty limit: reaching it loses, the lowest total wins
            return (_best(variant, hand, before, after, cols),
                    f"{name(reached[0])} reached the limit of {m.target}; the lowest total wins")
        if reached:
            # the tie rules first ([G3]: the declarer wins even with the lower total), then
            # the higher total; columns still equal share a declared tie
            cands = _break_ties(variant, hand, before, reached)
            top = max(after[c] for c in cands)
            best = [c for c in cands if after[c] == top]
            if len(best) > 1 and "play_on" in m.ties:
                return None   # equal totals at the target: another deal (rules/fortyfive.md [FF-G2])
            return best, f"reached {m.target}" + (f", and {m.target_if.text}" if m.target_if is not None else "")
    if m.lose_at is not None:
        losers = [c for c in cols if after[c] <= m.lose_at]
        if losers:
            # the best total among the others wins; if everyone fell, the best total of all
            # (user pass finding 4: never "everyone wins"), equal ones by the tie rules
            rest = [c for c in cols if c not in losers] or list(cols)
            who = " and ".join(name(c) for c in losers)
            fell = ", ".join(str(after[c]) for c in losers) if len({after[c] for c in losers}) > 1 \
                else str(after[losers[0]])
            return _best(variant, hand, before, after, rest), f"{who} fell to {fell}, at or below {m.lose_at}"
    if m.deals is not None and hands_played >= m.deals:
        return _best(variant, hand, before, after, cols), f"{m.deals} deal{'' if m.deals == 1 else 's'} played"
    return None


def _best(variant, hand, before: list, after: list, cands) -> list:
    """The columns of ``cands`` with the best total (lowest with ``lower_is_better``), equal
    ones settled by ``match.ties`` when the variant has tie rules; several left: a tie."""
    top = (min if variant.scoring.lower_is_better else max)(after[c] for c in cands)
    best = [c for c in cands if after[c] == top]
    return _break_ties(variant, hand, before, best) if len(best) > 1 else best


def _break_ties(variant, hand, before, reached) -> list:
    """The columns of ``reached`` that win by ``match.ties`` ([G3]): the declarer's column,
    then the one whose running total reached the target at the earliest trick."""
    m = variant.match
    cands = list(reached)
    for rule in m.ties:
        if len(cands) <= 1:
            break
        if m.target is None and rule != "declarer":
            continue  # the order of reaching a target breaks no tie without one
        dcol = column_of(variant, hand.declarer) if hand.declarer >= 0 else -1
        if rule == "declarer" and dcol in cands:
            cands = [dcol]
        elif rule == "trick_order":
            first = {c: len(hand.tricks) + 1 for c in cands}
            for t in range(1, len(hand.tricks) + 1):
                envs = player_envs(variant, hand, upto=t)
                entries = entries_for(variant, hand.contract, hand.declarer, envs)
                for c in cands:
                    if first[c] > t and before[c] + entries[c] >= m.target:
                        first[c] = t
            early = min(first.values())
            cands = [c for c in cands if first[c] == early]
        elif rule == "count_order":  # the hand's points counted one by one, in the given order
            envs = player_envs(variant, hand)
            step = {}
            for c in cands:
                run, step[c] = before[c], len(m.count_order)
                for i, f in enumerate(m.count_order):
                    run += int(f(envs[c]))
                    if run >= m.target:
                        step[c] = i
                        break
            early = min(step.values())
            cands = [c for c in cands if step[c] == early]
    return cands


def carry_counters(variant, counts: dict, envs: list, entries: list, columns: list) -> str:
    """Add a scored hand to the counters carried across deals (``scoring.counters``, e.g.
    bags): ``counts`` maps each counter's name to its count per score column and is updated
    in place; each time a count reaches the counter's ``every`` it drops by ``every`` and the
    column's entry in ``entries`` (in place) gets the counter's ``score``.  Used by a played
    match and the scorepad alike.

    :returns: a note for the hand's row (``"; bags 10 to NS (-100)"``), or ``""``."""
    notes = []
    for spec in variant.scoring.counters:
        if spec.add is None:
            continue
        row = counts.setdefault(spec.name, [0] * len(envs))
        for col, env in enumerate(envs):
            row[col] += int(spec.add(env))
            while spec.every and row[col] >= spec.every:
                row[col] -= spec.every
                entries[col] += spec.score
                notes.append(f"{spec.name} {spec.every} to {columns[col]} ({spec.score:+d})")
    return "".join("; " + n for n in notes)


# ------------------------------------------------------------------ scoring from facts
@dataclasses.dataclass
class HandFacts:
    """A hand known only by the facts a table writes down (the scorepad, ``rulekit score``): what
    :func:`score_facts` scores, and what :func:`~rulekit.engine.state.describe_under` and
    :func:`match_result` read of a hand (``won``, ``tricks``, ``void``...).

    :ivar contract: the :class:`~rulekit.variant.model.Bid`, or ``None`` (no contract).
    :ivar declarer: the declarer's seat, or -1; ``partner`` his partner for this hand, or -1.
    :ivar trump: ``"S"``.. or ``"NT"``: the strain the hand was played in.
    :ivar column_tricks: tricks won per score column (seat, or side with ``scoring.by: side``).
    :ivar points: card points per score column (``None``: zeros).
    :ivar doubled: 0, 1 (doubled) or 2 (redoubled).
    :ivar tallies: per column, a dict tally name -> count (``None``: zeros).
    :ivar vulnerable, game_score: per column, the match's progress before the hand.
    :ivar totals: per column, the running totals before the hand (``None``: zeros);
        ``number`` the hand's number from 0, ``dealer`` its dealer's seat (the formula
        variables ``total``, ``deal_number``, ``dealer``, ``is_dealer``).
    :ivar markers: marker name -> the declarer's factor (``scoring.markers``; ``None``: 1).
    :ivar phase_values: per column, phase kinds' formula variables read from the facts
        (:meth:`~rulekit.engine.phases.base.PhaseKind.pad_values`).
    :ivar won: tricks per seat (a side's on its first seat); set by :func:`score_facts` when empty.
    :ivar tricks: the tricks in play order: none are known (a tie by trick order finds none).
    :ivar void: the hand counts for nothing (set by :func:`score_facts`).
    :ivar parts: the entries split by part, or ``None`` (set by :func:`score_facts`).
    """

    contract: Any = None
    declarer: int = -1
    trump: str = "NT"
    column_tricks: list = dataclasses.field(default_factory=list)
    points: list | None = None
    doubled: int = 0
    tallies: list | None = None
    vulnerable: list | None = None
    game_score: list | None = None
    partner: int = -1
    markers: dict | None = None
    phase_values: list | None = None
    won: list = dataclasses.field(default_factory=list)
    tricks: tuple = ()
    void: bool = False
    parts: dict | None = None
    totals: list | None = None
    number: int = 0
    dealer: int = 0


def seat_values(variant, per_column: list) -> list:
    """Per-seat values whose column sums are ``per_column`` (a side's value on its first seat),
    so that :func:`envs_for`, which adds a side's seats up, sees the column values."""
    if not variant.scoring.by_side:
        return list(per_column)
    out = [0] * variant.players
    for c, seats in enumerate(variant.sides):
        out[seats[0]] = per_column[c]
    return out


def score_facts(variant, hand: HandFacts) -> tuple:
    """Score a hand known only by its facts (the scorepad, ``rulekit score``), through the same
    :func:`envs_for` and :func:`score_hand` a played hand goes through.

    :param hand: the :class:`HandFacts`; its ``won`` (when empty), ``void`` and ``parts`` are set.
    :returns: ``(entries, parts, void, envs)``: points per column, the entries split by part
        (or ``None``), whether the hand is void, and the scoring environments.
    """
    cols = columns(variant)
    tricks = hand.column_tricks or [0] * cols
    if not hand.won:
        hand.won = seat_values(variant, tricks)
    extra = {"doubled": hand.doubled, "vulnerable": hand.vulnerable or [False] * cols,
             "game_score": hand.game_score or [0] * cols, "partner": hand.partner,
             "totals": hand.totals or [0] * cols, "deal_number": hand.number + 1, "dealer": hand.dealer}
    if hand.tallies is not None:
        extra["tallies"] = hand.tallies
    if hand.markers:
        extra["markers"] = hand.markers
    envs = envs_for(variant, hand.contract, hand.declarer, hand.trump, seat_values(variant, tricks),
                    seat_values(variant, hand.points or [0] * cols), extra)
    for env, values in zip(envs, hand.phase_values or ()):
        env.vars.update(values)
    entries, hand.void = score_hand(variant, hand, envs)
    return entries, hand.parts, hand.void, envs


def hand_facts(variant, hand) -> dict:
    """The facts of a finished played ``hand`` that a table would write down: ``contract``
    (bid text or ``None``), ``declarer``, ``trump``, ``doubled``, and per score column
    ``tricks``, ``points`` and ``tallies``, and ``phase``: phase kinds' facts as typed
    (JSON-ready; what :func:`score_facts` and the scorepad take), with the kinds' own facts
    (:meth:`~rulekit.engine.phases.base.PhaseKind.hand_facts`, e.g. ``first_suit``)."""
    envs = player_envs(variant, hand)
    names = [t.name for t in variant.scoring.tallies]
    facts = {"contract": hand.contract.text if hand.contract is not None else None,
             "declarer": hand.declarer, "partner": hand.partner, "trump": hand.trump,
             "doubled": hand.doubled,
             "tricks": [e.vars["tricks"] for e in envs], "points": [e.vars["points"] for e in envs],
             "tallies": [{n: e.vars[n] for n in names} for e in envs], "phase": _phase_facts(variant, hand)}
    if variant.scoring.matadors is not None and hand.declarer >= 0:   # as typed: ``with 2``
        n, with_ = matadors.exact(variant, hand)
        facts["matadors"] = f"{'with' if with_ else 'without'} {n}"
    for spec in variant.phases:   # the kinds' own (``first_suit``)
        facts.update(REGISTRY[spec.kind].hand_facts(spec, variant, hand))
    return facts


def _phase_facts(variant, hand) -> dict:
    """Phase kinds' facts of ``hand`` as a scorer types them: ``phase:NAME:FACT`` -> text."""
    return {f"phase:{spec.name}:{k}": text for spec in variant.phases
            for k, text in REGISTRY[spec.kind].pad_facts(spec, variant, hand).items()}


def hand_result(state, hand, envs=None):
    """The :class:`~rulekit.sheets.result.HandResult` of a finished ``hand`` of ``state``'s
    match (what the engine hands to the sheet layer; :func:`hand_facts` are its facts).

    A deal thrown in (all passed) is ``thrown_in``; redealt by the same dealer it is not
    ``counted`` (no row, no board).
    """
    from rulekit.sheets.result import HandResult
    v = state.variant
    auction = v.auction()
    if hand.void and hand.contract is None and not hand.tricks and auction is not None:
        return HandResult(hand.number, hand.dealer, thrown_in=True, void=True,
                          counted=not REGISTRY[auction.kind].redeals_same(auction), entries=tuple(hand.entries or ()),
                          marks=hand.written.marks if hand.written is not None else ())
    envs = envs or player_envs(v, hand, extra={"vulnerable": hand.vulnerable})
    facts = hand_facts(v, hand)
    facts["vulnerable"] = list(hand.vulnerable)
    from rulekit.sheets.result import Against
    written = hand.written or Written()
    return HandResult(hand.number, hand.dealer, facts["contract"], hand.declarer, facts,
                      tuple(hand.entries), hand.parts,
                      tuple(Against(a["column"], a["target"], a["value"], a["part"]) for a in written.against),
                      hand.void, note=written.note or state.describe_hand(hand, envs), trick_winners=tuple(hand.trick_winners),
                      marks=written.marks)
