"""What one seat may see: its hand, face-up cards, the public history.

Bots act only on an :class:`Observation`.  An observation is a value: its fields
are plain data (ints, bitmasks, lists, tuples; the compiled variant, which is
public), with no reference back to the :class:`~rulekit.engine.state.State` it was
taken from.  For Monte Carlo bots it also keeps a private, *redacted* copy of the
match (``_view``): the seat's own cards and every public fact, with every hidden
card removed and the shuffle seed, the explicit deals, the deck order and the match's
record of choices dropped.  :meth:`Observation.sample_world` copies that view and deals the
hidden cards at random consistently with the public facts (hand sizes, groups a
player is known to lack, cards known to be with a player such as a face-up widow
the declarer took or the turned-up trump card in the dealer's hand), re-derives
each hand as dealt (so honours are counted from the world's own cards) and draws a
fresh seed for later deals (DESIGN.md "An observation is a value").
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rulekit.cards import bit_list, bits
from rulekit.engine import kernel as _kernel
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases import deal as _deal
from rulekit.engine.phases.base import PhaseKind, own_hand_hidden, partner_hidden
from rulekit.engine.shuffle import shuffled


@dataclass
class Observation:
    """The view of one seat.

    :ivar seat: the observing seat.
    :ivar phase: current phase kind (``ladder_auction``, ``tricks``, ``over``...).
    :ivar to_move: seat to act.
    :ivar hand: bitmask of the seat's cards.
    :ivar hand_sizes: cards held by each seat.
    :ivar widow: bitmask of face-up zone cards visible to all (0 when hidden or taken).
    :ivar discards: the seat's own discards (0 unless it declared).
    :ivar calls: auction calls ``(seat, text)``.
    :ivar contract: contract text or ``""``; ``declarer`` seat or -1; ``trump`` ``S``.. / ``NT``;
        ``low``: low cards win this hand (a low-wins contract, ``ranking.low``); ``group`` the
        contract group whose tables the hand is played in (``""``: the base ranking).
    :ivar trick: ``(seat, card)`` of the trick in progress.
    :ivar tricks: completed tricks ``(leader, plays, winner, named)``.
    :ivar won: tricks won by each seat.
    :ivar failed: per seat, bitmask of groups he is known to lack.
    :ivar totals: sheet totals.
    :ivar legal: legal actions when this seat decides now (its own turn, or its dummy's)
        else ``[]``.
    :ivar partner: the declarer's partner for this hand (a called partner), or -1; the other
        seats are defenders.
    :ivar open_hands: cards of other seats' hands lying face up now (an open game);
        ``open_seats`` those seats.
    :ivar dummy: the dummy's seat (-1 if none); ``dummy_hand`` its cards once exposed
        (after the opening lead), else 0.
    :ivar exposed: other face-up cards in players' hands (a turned-up trump card).
    :ivar vulnerable: vulnerability per score column.
    :ivar placed: per seat, cards every seat knows that seat holds (in hand, or among his
        discards) though they no longer lie face up: a face-up widow the declarer took
        (rules/fivehundred.md [W1]), the turned-up trump card after the first trick until
        the dealer plays it (rules/whist.md [K1]).
    :ivar widow_taken: cards of a face-up zone that the declarer took into his hand.
    :ivar hidden_zones: zone name -> number of face-down cards in it now (those of
        ``zone_known`` not counted).
    :ivar zone_known: zone name -> bitmask of its cards every seat knows are there (a card
        turned up on the talon: :meth:`~rulekit.engine.phases.base.PhaseKind.known_cards`).
    :ivar hidden_discards: number of discards the seat has not seen (another's);
        ``shown_discards`` the discards every seat has seen (a discard shown to all).
    :ivar out: the seat's own cards laid face down out of play (``Hand.out``: he sat the hand
        out, or discarded without being the declarer); ``out_sizes`` how many each seat laid
        so (public), whose cards no other seat sees.
    :ivar dealt_sizes: cards each seat was dealt.
    :ivar game_score: per score column, game-counting points since the last line
        (part-scores); ``games`` games won in the current rubber.
    :ivar variant: the compiled variant (public knowledge); ``phase_spec`` the current phase's spec.
    :ivar phase_data: what the hand's phase kinds add for this seat
        (:meth:`~rulekit.engine.phases.base.PhaseKind.observe`), merged in phase order:
        plain data such as ``{"passed": [1, 2]}``.
    :ivar blind: the seat has not looked at its own cards yet (a blind bid still open): its
        ``hand`` is shown as 0 and sampled worlds deal its cards at random too.
    :ivar zones: every zone holding cards, in the hand's order -> its cards when they lie face
        up, else 0 (how many lie face down: ``hidden_zones``).
    :ivar hands_seen: per seat, the cards of its hand this seat sees now: its own (0 while
        ``blind``), the dummy's once exposed, hands laid open; 0 for the others.
    :ivar taken: the seat's own cards it was not dealt (taken from the widow, passed to it).
    :ivar named: the suit the leader named to follow in the trick in progress, or ``""``.
    :ivar excluded: per seat, cards every seat knows that seat does not hold (he followed the
        first lead of a called card's suit with another card: :meth:`PhaseKind.inferences`);
        ``holds_some``: ``(seat, mask)`` pairs, that seat holds at least one card of ``mask``
        (he announced the side of the holders of a card).  Sampled worlds honour both.
    :ivar actions: the hand's actions other than trick plays, as ``(seat, text)`` in order
        (calls, trump choices, pile and layout plays, chance events), another seat's discard
        said ``discard`` without its cards.
    """

    seat: int
    phase: str
    to_move: int
    dealer: int
    hand: int
    hand_sizes: list
    widow: int
    discards: int
    calls: list
    contract: str
    declarer: int
    trump: str
    trick: list
    tricks: list
    won: list
    failed: list
    totals: list
    legal: list
    hand_number: int
    dummy: int = -1
    dummy_hand: int = 0
    partner: int = -1
    open_hands: int = 0
    open_seats: list = field(default_factory=list)
    exposed: int = 0
    vulnerable: list = field(default_factory=list)
    placed: list = field(default_factory=list)
    widow_taken: int = 0
    hidden_zones: dict = field(default_factory=dict)
    zone_known: dict = field(default_factory=dict)
    hidden_discards: int = 0
    shown_discards: int = 0
    out: int = 0
    out_sizes: list = field(default_factory=list)
    low: bool = False
    group: str = ""
    dealt_sizes: list = field(default_factory=list)
    game_score: list = field(default_factory=list)
    games: list = field(default_factory=list)
    phase_data: dict = field(default_factory=dict)
    blind: bool = False
    zones: dict = field(default_factory=dict)
    hands_seen: list = field(default_factory=list)
    taken: int = 0
    named: str = ""
    excluded: list = field(default_factory=list)
    holds_some: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    variant: Any = field(repr=False, compare=False, default=None)
    phase_spec: Any = field(repr=False, compare=False, default=None)
    _view: Any = field(repr=False, compare=False, default=None)

    def _visible(self) -> int:
        """Cards this seat sees now: its own, face-up ones, played ones."""
        seen = self.hand | self.widow | self.discards | self.out | self.dummy_hand | self.exposed | self.open_hands
        for m in self.zone_known.values():
            seen |= m
        for _l, plays, _w, _n in self.tricks:
            for _s, c in plays:
                seen |= 1 << c
        for _s, c in self.trick:
            seen |= 1 << c
        return seen

    def unseen(self) -> int:
        """Bitmask of cards this seat has not seen and cannot place (held by others or hidden)."""
        placed = 0
        for m in self.placed:
            placed |= m
        return self.variant.deck.full_mask & ~self._visible() & ~placed

    def sample_world(self, rng: random.Random, fits=None, tries: int = 1, light: bool = False):
        """A full :class:`~rulekit.engine.state.State` consistent with this observation.

        Built from the redacted view only: every hidden card (other hands, face-down
        zones, another player's discards) is dealt at random among the cards this seat
        has not seen, honouring hand sizes, shown voids and :attr:`placed` cards; each
        hand as dealt is re-derived from the world's own cards; later deals are
        shuffled from a seed drawn from ``rng``.

        :param rng: the bot's own random source (never the deal's).
        :param fits: optional test of the hidden seats' hands as dealt (``{seat: bitmask}``,
            cards taken from face-down zones included); a deal it refuses is drawn again, up
            to ``tries`` draws in all, and the last one is kept.  Testing before the world
            is built makes a refused draw cheap (bots draw thousands of worlds).
        :param light: a :class:`LightWorld` instead (the same draws, so the same cards: only
            the world's hand, no copy of the match around it) when nothing of the hand is
            re-derived from the cards dealt (:meth:`PhaseKind.resample`); else the full world.
        """
        h = self._sample_hand(rng, fits, tries)
        seed = rng.getrandbits(64)
        _ctx, others, _pa, _pool, _places, played, _fixed, _at = self._layout()
        self._redeal(h, others, rng, played)
        kinds = self.__dict__.get("_resample")   # (the view's kinds, the same in every world)
        if kinds is None:
            kinds = self.__dict__["_resample"] = [k for name in h.phase_state if (k := REGISTRY.get(name)) is not None
                                                  and type(k).resample is not PhaseKind.resample]
        if light and not kinds:
            return LightWorld(h, seed, self._view)
        world = self._view.clone(light=True, hand=h)
        world.seed = seed
        for k in kinds:   # what follows from the cards dealt (a hidden partner)
            k.resample(world)
        return world

    def _sample_hand(self, rng: random.Random, fits, tries: int):
        """The hand of a world of :meth:`sample_world`: a copy of the view's with the hidden
        cards dealt (its hands as dealt not yet re-derived: :meth:`_redeal`)."""
        n = self.variant.players
        ctx, others, placed_all, pool, places, played, fixed, at = self._layout()
        keep = ~self.widow_taken
        out: list | None = None
        excluded = self.excluded or [0] * n
        cache = self.__dict__.setdefault("_rules_cache", {})
        for _ in range(max(tries, 1)):
            for voids in (True,) * 40 + (False,):
                failed = self.failed if voids else None
                placed, more = self._some(rng, pool, others, excluded, failed, ctx)
                if more:
                    rules, tables = _rules(pool, places, placed, placed_all | more, failed, ctx, excluded), None
                else:   # (the same for every world of this observation, and the kernel's arrays of them)
                    got = cache.get(voids)
                    if got is None:
                        rules = _rules(pool, places, placed, placed_all, failed, ctx, excluded)
                        got = cache[voids] = (rules, _kernel.fill_tables(rules, places))
                    rules, tables = got
                out = _fill(rng, places, rules) if tables is None else _kernel_fill(rng, places, rules, tables)
                if out is not None:
                    break
            if out is None:  # the public facts cannot all hold (hand-made state): ignore them
                out = _fill(rng, places, _rules(pool, places, [0] * n, 0, None, ctx))
            if fits is None:
                break
            discards = out[at] if at is not None else 0
            if fits({key: (out[p] | more | (discards if decl else 0)) & keep for p, key, more, decl in fixed}):
                break
        assert out is not None  # the last draw has no constraints: it always deals every card
        h = self._view.hand.clone()
        for (kind, key, _k, _o), m in zip(places, out):
            if kind == "hand":
                h.hands[key] = m | (self.exposed if key == self.dealer else 0)
            elif kind == "zone":
                h.zones[key] = m
            elif kind == "discards":
                h.discards = m | self.shown_discards
            elif kind == "out":
                h.out[key] = m
        for z, m in self.zone_known.items():  # known cards stay in their zone
            h.zones[z] = h.zones.get(z, 0) | m
        return h

    def _layout(self) -> tuple:
        """What every world of :meth:`sample_world` shares, a function of this observation
        only (worked out once per observation: bots draw thousands of worlds from one):
        ``(ctx, others, placed_all, pool, places, played, fixed, at)``."""
        got = self.__dict__.get("_layout_cache")
        if got is not None:
            return got
        n = self.variant.players
        ctx = self._view.hand.ctx or self.variant.contexts.get("NT")
        known = ({self.seat} if not self.blind else set()) | set(self.open_seats)
        if self.dummy_hand:
            known.add(self.dummy)
        others = [s for s in range(n) if s not in known]
        placed_all = 0
        for m in self.placed:
            placed_all |= m
        pool = self.variant.deck.full_mask & ~self._visible()
        # the places hidden cards go to: (kind, key, count, seat whose placed cards may go
        # there); the face-up turned card stays where it is, in the dealer's hand
        places: list[tuple[str, Any, int, int]] = [("hand", s, self.hand_sizes[s] - (self.exposed.bit_count() if s == self.dealer else 0), s)
                  for s in others]
        places += [("zone", z, k, -1) for z, k in self.hidden_zones.items() if k]
        if self.hidden_discards:
            places.append(("discards", None, self.hidden_discards, self.declarer))
        places += [("out", s, k, s) for s, k in enumerate(self.out_sizes) if k and s != self.seat]
        pool &= ~self.exposed
        spare = pool.bit_count() - sum(k for _kind, _key, k, _o in places)
        if spare > 0:  # cards nobody was dealt (a stub): they stay out of play
            places.append(("stub", None, spare, -1))
        played = self._played()
        # what each hidden hand as dealt holds besides its cards now (for ``fits``)
        fixed = [(p, key, played.get(key, 0) | (self.exposed if key == self.dealer else 0),
                  key == self.declarer) for p, (kind, key, _k, _o) in enumerate(places) if kind == "hand"]
        at = next((p for p, pl in enumerate(places) if pl[0] == "discards"), None)
        got = (ctx, others, placed_all, pool, places, played, fixed, at)
        self.__dict__["_layout_cache"] = got   # (not a field: ``dataclasses.replace`` starts afresh)
        return got

    def _some(self, rng, pool: int, others: list, excluded: list, failed, ctx) -> tuple:
        """``(placed, more)``: :attr:`placed` with, for each ``(seat, mask)`` of
        :attr:`holds_some` whose seat is hidden, one card of ``mask`` still unseen drawn for
        that seat (one he may hold: not excluded, not of a suit he showed he lacks); ``more``
        the cards drawn so."""
        if not self.holds_some:
            return self.placed, 0
        placed = list(self.placed)
        more = 0
        for seat, m in self.holds_some:
            if seat not in others:
                continue
            m &= pool & ~excluded[seat] & ~more
            if failed is not None and ctx is not None:
                for g in bits(failed[seat]):
                    m &= ~ctx.group_mask[g]
            if m & placed[seat]:
                continue
            cards = list(bits(m))
            if cards:
                c = cards[int(rng.random() * len(cards))]
                placed[seat] |= 1 << c
                more |= 1 << c
        return placed, more

    def _played(self) -> dict:
        """Per seat, the bitmask of the cards it played this hand."""
        played: dict = {}
        for _l, plays, _w, _n in self.tricks:
            for s, c in plays:
                played[s] = played.get(s, 0) | 1 << c
        for s, c in self.trick:
            played[s] = played.get(s, 0) | 1 << c
        return played

    def _redeal(self, h, others, rng, played: dict) -> None:
        """Re-derive the hands as dealt of the hidden seats from the cards of a world's hand
        ``h`` (for tallies such as honours held in one hand); ``played``: :meth:`_played`."""
        for s in others:
            m = h.hands[s] | played.get(s, 0) | (h.discards if s == self.declarer else 0) | h.out[s]
            m &= ~self.widow_taken
            extra = m.bit_count() - self.dealt_sizes[s]
            if extra > 0:  # he took face-down cards too: which ones nobody knows
                drop = rng.sample(list(bits(m)), extra)
                for c in drop:
                    m &= ~(1 << c)
            h.dealt[s] = m


class LightWorld:
    """A world of :meth:`Observation.sample_world` kept light (``light=True``): its hand, dealt
    by the same draws as the full world's (the same cards, hands as dealt and seed), without
    the copy of the match around it, for bots whose playouts need the hand alone (the compiled
    kernel's).  ``variant``, ``progress`` and ``markers`` are the observation's redacted view's,
    shared: read them, never change them.  :meth:`state` builds the full world.

    :ivar hand: the world's :class:`~rulekit.engine.hand.Hand` (its own: change it freely).
    :ivar seed: the seed of the world's later deals.
    :ivar max_hands: the full world's ``max_hands`` (a bot caps it).
    """

    __slots__ = ("hand", "seed", "max_hands", "variant", "progress", "markers", "_view")

    def __init__(self, hand, seed: int, view) -> None:
        self.hand = hand
        self.seed = seed
        self.max_hands = view.max_hands
        self.variant = view.variant
        self.progress = view.progress
        self.markers = view.markers
        self._view = view

    def state(self):
        """The full :class:`~rulekit.engine.state.State` of this world, holding :attr:`hand`
        itself (the world :meth:`Observation.sample_world` would have returned)."""
        world = self._view.clone(light=True, hand=self.hand)
        world.seed = self.seed
        world.max_hands = self.max_hands
        return world


def _rules(pool: int, places: list, placed: list, placed_all: int, failed, ctx, excluded=None) -> tuple:
    """What :func:`_fill` deals by: ``(cards, free, options)``, the cards of ``pool`` (lowest
    first), the mask of those any place may take, and for each other card the places that may
    take it.  A card in ``placed[s]`` may only go to a place of seat ``s``; with ``failed``, a
    player's hand gets no card of a group he is known to lack; with ``excluded``, a player's
    hand gets none of ``excluded[s]`` (cards known not to be his).  (A function of its
    arguments only: :meth:`Observation.sample_world` keeps it for the worlds of one
    observation.)"""
    allowed = []
    for kind, key, _k, owner in places:
        ok = ~placed_all
        if 0 <= owner < len(placed):
            ok |= placed[owner]
        if kind == "hand" and failed is not None and ctx is not None:
            for g in bits(failed[key]):
                ok &= ~ctx.group_mask[g]
        if kind == "hand" and excluded is not None:
            ok &= ~excluded[key]
        allowed.append(ok)
    free = pool
    for ok in allowed:
        free &= ok
    cards = bit_list(pool)
    options = {c: [i for i, ok in enumerate(allowed) if ok >> c & 1] for c in cards if not free >> c & 1}
    return cards, free, options


def _kernel_fill(rng, places: list, rules: tuple, tables: tuple):
    """:func:`_fill` by the compiled kernel (:func:`rulekit.engine.kernel.fill`: the same draws
    from ``rng``, the same cards), or by :func:`_fill` when the kernel cannot draw from ``rng``."""
    out = _kernel.fill(rng, tables)
    return _fill(rng, places, rules) if out is False else out


def _fill(rng, places: list, rules: tuple):
    """Deal the cards of ``rules`` (:func:`_rules`) over ``places`` (each takes exactly its
    count), each card to a place that may take it.  Most constrained cards go first, each
    to a random allowed place weighted by its free room; the cards that may go anywhere then
    fill the room left.

    :returns: one bitmask per place, or ``None`` when the random choices got stuck.
    """
    cards, free, opts = rules
    cards = [cards[j] for j in shuffled(rng, len(cards))]   # rng.shuffle(cards), inlined
    room = [k for _kind, _key, k, _o in places]
    out = [0] * len(places)
    if opts:
        # some card may not go everywhere: the most constrained first
        tied = [c for c in cards if not free >> c & 1]
        tied.sort(key=lambda c: len(opts[c]))
        for c in tied:   # (a hot loop: no list of the places with room built per card)
            places_of = opts[c]
            total = 0
            for i in places_of:
                total += room[i]
            if not total:
                return None
            r = rng.random() * total
            j = -1   # the place drawn: weighted by its room (the last with room if rounding ran past)
            for i in places_of:
                k = room[i]
                if k > 0:
                    j = i
                    r -= k
                    if r < 0:
                        break
            out[j] |= 1 << c
            room[j] -= 1
        cards = [c for c in cards if free >> c & 1]
    # the cards that may go everywhere (bots draw thousands of worlds): each place takes the
    # next slice of the shuffled cards, the same law as drawing a place for each card in turn
    # with probability proportional to its free room
    if sum(room) < len(cards):
        return None
    i = 0
    for p, k in enumerate(room):
        m = 0
        for c in cards[i:i + k]:
            m |= 1 << c
        out[p] |= m
        i += k
    return out


def _face_up_dealt(state) -> int:
    """Cards dealt this hand into face-up zones (seen by every seat)."""
    h = state.hand
    if not any(h.zone_up.values()):
        return 0
    spec = next((p for p in state.variant.phases if p.kind == _deal.KIND.name), None)
    if spec is None:
        return 0
    m = 0
    for target, c in zip(_deal.deal_plan(spec, state.variant.players), h.deck_order):
        if target.__class__ is not int and h.zone_up.get(target):
            m |= 1 << c
    return m


def _redacted(state, seat: int, hidden_seats: list, hidden_zones: list, hide_discards: bool, partner: int,
              shown: int = 0):
    """A light copy of ``state`` holding only what ``seat`` may know (see module doc);
    ``partner``: the declarer's partner as the seat knows him (-1 while hidden); ``shown``: cards
    out of play shown to all."""
    view = state.clone(light=True)
    view.hand.partner = partner
    view.seed = None
    view.deals = []
    view.cut = list(state.cut)
    view.names = list(state.names)
    h = view.hand
    h.deck_order = []
    for s in hidden_seats:
        h.hands[s] = 0
        h.dealt[s] = 0
    for z in hidden_zones:
        h.zones[z] = 0
    h.out = [m if s == seat else 0 for s, m in enumerate(h.out)]
    if hide_discards:
        h.discards &= shown   # (the discards shown to all stay)
    # the text of another seat's discard names cards he alone saw (the declarer sees his own
    # discards, not those of a dealer who discarded for him)
    kinds = [k for p in state.variant.phases if (k := REGISTRY.get(p.kind)) is not None
             and type(k).private_text is not PhaseKind.private_text]   # (the kinds with private words)

    def hidden(s: int, t: str) -> str:
        if s == seat:
            return t
        if t.startswith("discard"):
            return "discard"
        for k in kinds:
            own = k.private_text(t)
            if own is not None:
                return own
        return t
    h.actions = [(s, hidden(s, t)) for s, t in h.actions]
    h.choices = []   # (a discard's choice is the place of its cards among the hand's: hidden)
    return view


def _phase_data(state, seat: int) -> dict:
    """The observations of the kinds that keep data in this hand, merged."""
    out: dict = {}
    for name in state.hand.phase_state:
        kind = REGISTRY.get(name)  # (a kind unregistered since: a test's toy kind)
        if kind is not None:
            out.update(kind.observe(state, seat))
    return out


def observe(state, seat: int) -> Observation:
    """Build the :class:`Observation` of ``seat`` from ``state``."""
    h = state.hand
    v = state.variant
    n = v.players
    widow = 0
    for z, m in h.zones.items():
        if h.zone_up.get(z):
            widow |= m
    legal = state.legal_actions() if state.to_move >= 0 and state.controller(state.to_move) == seat else []
    dummy_up = bool(h.dummy >= 0 and (h.tricks or h.trick))
    exposed = (1 << h.turned) if h.turned_visible and h.hands[h.dealer] >> h.turned & 1 else 0
    visible = h.hands[seat] | widow | (h.discards if h.declarer == seat else 0) | exposed | h.out[seat]
    if dummy_up:
        visible |= h.hands[h.dummy]
    done = len(h.tricks)
    open_seats = [s for s in range(n) if s != seat and 0 <= h.open_after[s] <= done]
    open_hands = 0
    for s in open_seats:                                  # open games: face up for everyone
        open_hands |= h.hands[s]
    visible |= open_hands
    for _l, plays, _w, _n in h.tricks:
        for _s, c in plays:
            visible |= 1 << c
    for _s, c in h.trick:
        visible |= 1 << c
    placed = [0] * n
    if h.turned >= 0:                                     # [K1] the dealer holds it until he plays it
        placed[h.dealer] |= 1 << h.turned
    taken = _face_up_dealt(state) & ~widow if h.declarer >= 0 else 0
    if taken:                                             # [W1] only the declarer takes a widow
        placed[h.declarer] |= taken                       # (less those played, below)
    zone_known: dict = {}
    shown = 0   # cards out of play shown to all (a discard shown)
    for name in h.phase_state:   # public cards whose place everyone knows (a turned card)
        kind = REGISTRY.get(name)
        if kind is not None:
            shown |= kind.shown_out(state)
        for place, m in (kind.known_cards(state) if kind is not None else ()):
            if isinstance(place, str):
                zone_known[place] = zone_known.get(place, 0) | m
            else:
                placed[place] |= m
    visible |= shown
    placed = [m & ~visible for m in placed]
    excluded = [0] * n                                    # what public facts say is not in a hand
    holds_some: list = []
    for name in h.phase_state:
        kind = REGISTRY.get(name)
        for s, m, how in (kind.inferences(state) if kind is not None else ()):
            if how == "none":
                excluded[s] |= m
            else:
                holds_some.append((s, m))
    partner = -1 if h.partner >= 0 and partner_hidden(state, seat) else h.partner
    blind = own_hand_hidden(state, seat)                  # he has not looked at his cards yet
    if blind:
        visible &= ~h.hands[seat]
    known = ({seat} if not blind else set()) | ({h.dummy} if dummy_up else set()) | set(open_seats)
    hidden_seats = [s for s in range(n) if s not in known]
    hidden_zones = [z for z, m in h.zones.items() if m and not h.zone_up.get(z)]
    hide_discards = h.declarer != seat
    view = _redacted(state, seat, hidden_seats, hidden_zones, hide_discards, partner, shown)
    return Observation(
        seat=seat, phase=state.phase_kind, to_move=state.to_move, dealer=h.dealer,
        hand=0 if blind else h.hands[seat], blind=blind,
        hand_sizes=[m.bit_count() for m in h.hands], widow=widow,
        discards=h.discards if h.declarer == seat else 0, calls=list(h.calls),
        contract=h.contract.text if h.contract else "", declarer=h.declarer, trump=h.trump,
        low=h.ctx is not None and h.ctx.low, group=h.ctx.group if h.ctx is not None else "",
        trick=list(h.trick), tricks=list(h.tricks), won=list(h.won), failed=list(h.failed),
        totals=state.sheet.totals(), legal=legal, hand_number=h.number, dummy=h.dummy,
        dummy_hand=h.hands[h.dummy] if dummy_up else 0, partner=partner, open_hands=open_hands,
        open_seats=open_seats, exposed=exposed, vulnerable=list(h.vulnerable),
        placed=placed, widow_taken=taken, zone_known=zone_known,
        hidden_zones={z: (h.zones[z] & ~zone_known.get(z, 0)).bit_count() for z in hidden_zones},
        hidden_discards=(h.discards & ~shown).bit_count() if hide_discards else 0,
        shown_discards=h.discards & shown,
        out=h.out[seat], out_sizes=[m.bit_count() for m in h.out],
        dealt_sizes=[m.bit_count() for m in h.dealt],
        game_score=list(state.progress.game_score), games=list(state.progress.games),
        phase_data=_phase_data(state, seat),
        zones={z: m if h.zone_up.get(z) else 0 for z, m in h.zones.items() if m},
        hands_seen=[h.hands[s] if s in known else 0 for s in range(n)],
        taken=0 if blind else h.hands[seat] & ~h.dealt[seat], named=h.named,
        excluded=excluded, holds_some=holds_some,
        actions=list(view.hand.actions), variant=v, phase_spec=None if state.is_over else state.current_phase,
        _view=view)
