"""A claim of the remaining tricks: proved, agreed by the opponents' bots, played out.

A player in trick play may claim every remaining trick for his side (his own tricks, his
partners', his dummy's).  The claim is judged in three steps:

1. **Proof** (:func:`prove`): every deal of the cards the claimer cannot see that fits his
   observation is listed (when there are at most :data:`MAX_DEALS`), and one search over all of
   them at once asks whether a single line of play of his — choosing each of his cards (and his
   dummy's) from what he sees, the earlier cards of the others included, never from which deal
   is the real one — takes every trick in every deal against every defence (each other seat,
   his partners too, plays any legal card, knowing all the cards).  The search plays the
   engine's own trick rules (``tricks.legal_mask``, ``tricks.play_card``), so every follow
   option and early end counts; it stops after :data:`BUDGET` cards played and then says
   nothing.
2. **The bots' agreement** (:func:`bot_accepts`), when the proof cannot decide: each opponent
   played by a bot looks for a defence in deals of its own sampling — deals of what the claimer
   cannot see (its own cards hidden too: the claimer does not see them) and deals of what the
   bot itself cannot see with the claimer's hand laid face up (as a claimer shows it) — and
   accepts only when one line of the claimer's takes every trick in all of them.
3. **The play-out** (:func:`play_out`): an accepted claim is played to the end on the real
   cards, each seat playing a card of a line in which the claimer's side takes every trick, so
   that the record holds every card and the hand is scored as if played.

Nothing here decides a bot's own play; nothing shown to a player depends on cards he cannot
see, except that a claim the opponents agreed to may prove impossible on the real cards
(:func:`play_out` returns ``None``; the CLI then says only that play goes on).
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases import tricks as _tricks
from rulekit.engine.scoring import column_of

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.hand import Hand
    from rulekit.engine.observation import Observation
    from rulekit.engine.state import State

#: most deals of the unseen cards :func:`prove` lists (more: the bots decide)
MAX_DEALS = 400
#: most cards a search plays (over all its deals) before it gives up
BUDGET = 200_000
#: deals each opponent's bot samples from each of the two views (:func:`bot_accepts`)
BOT_DEALS = 16


class _OutOfBudget(Exception):
    """The search played :data:`BUDGET` cards without deciding."""


@dataclass(frozen=True)
class Claim:
    """Who claims and with whom.

    :ivar seat: the claimer.
    :ivar side: the seats whose tricks count for him (his score column's seats, his partner for
        the hand, his dummy).
    :ivar mine: the seats whose cards he chooses (himself, his dummy).
    """

    seat: int
    side: frozenset
    mine: frozenset


def claim_of(state: State, seat: int) -> Claim:
    """The :class:`Claim` ``seat`` would make now: his side by the variant's score columns
    (partners scoring together), the declarer's partner for the hand, his dummy."""
    v = state.variant
    h = state.hand
    side = {s for s in range(v.players) if column_of(v, s) == column_of(v, seat)}
    if h.partner >= 0 and seat in (h.declarer, h.partner):
        side |= {h.declarer, h.partner}
    mine = {s for s in range(v.players) if state.controller(s) == seat}
    return Claim(seat, frozenset(side | mine), frozenset(mine))


def claim_problem(state: State, seat: int) -> str:
    """Why ``seat`` cannot claim now (``""`` when he can): only in trick play (a phase whose
    kind plays tricks by the engine's trick rules), at his own turn or his dummy's."""
    kind = state.kind
    if state.is_over or kind is None or kind is not _tricks.KIND:
        return "a claim is of the remaining tricks: make it during trick play"
    if state.controller(state.to_move) != seat:
        return "claim at your own turn to play"
    return ""


# ---------------------------------------------------------------------- the search
class _Search:
    """Whether one line of the claimer's takes every trick in all of ``hands`` (deals of one
    position, played on ``state`` by putting each in turn as its hand)."""

    def __init__(self, state: State, claim: Claim, budget: int = BUDGET, cooperative: bool = False):
        self.state = state
        self.claim = claim
        self.budget = budget
        self.cooperative = cooperative   # every seat plays for the claimer (the play-out's line)
        self.memo: dict = {}

    def _options(self, h: Hand) -> list:
        """``(card, named suit)`` the seat to move may play in ``h``, strongest first."""
        st = self.state
        st.hand = h
        seat = h.to_move
        ctx = h.ctx
        keys = ctx.win_keys[h.led_group] if h.trick else ctx.strength
        out = []
        for c in sorted(bits(_tricks.legal_mask(st, seat)), key=lambda c: -keys[c]):
            if not h.trick and ctx.top_names_suit and ctx.group_of[c] == len(st.variant.deck.suits):
                out += [(c, s) for s in _tricks.nameable_suits(st, seat)]
            else:
                out.append((c, ""))
        return out

    def _play(self, h: Hand, c: int, suit: str) -> tuple:
        """Play ``(c, suit)`` in ``h``: ``(snapshot, done, lost)`` (lost: the trick it closed
        went to a seat off the claimer's side)."""
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        snap = _snapshot(h)
        tricks = len(h.tricks)
        self.state.hand = h
        done = _tricks.play_card(self.state, c, suit)
        lost = len(h.tricks) > tricks and h.tricks[-1][2] not in self.claim.side
        return snap, done, lost

    def sure(self, hands: list) -> bool:
        """True when the claimer's side takes every remaining trick in all of ``hands`` by one
        line of his; raises :class:`_OutOfBudget` when it cannot tell in time."""
        h0 = hands[0]
        if h0.to_move < 0:
            return True
        key = None
        if not h0.trick:
            if self._cashes(hands):
                return True
            key = (h0.to_move, h0.trump, tuple(h0.won), frozenset(tuple(h.hands) for h in hands))
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        seat = h0.to_move
        if self.cooperative or seat in self.claim.mine:
            result = False
            for c, suit in self._options(h0):
                if self._all(hands, c, suit):
                    result = True
                    break
        else:
            groups: dict = {}
            for h in hands:
                for opt in self._options(h):
                    groups.setdefault(opt, []).append(h)
            result = all(self._all(group, c, suit) for (c, suit), group in groups.items())
        if key is not None:
            self.memo[key] = result
        return result

    def _cashes(self, hands: list) -> bool:
        """True when the seat to lead (one of the claimer's side) holds only masters in every deal:
        each of his cards, led, beats every card any other seat (his partners too) holds in any of
        the deals, trumps included, and no other seat holds more cards than he does.  He then
        wins each trick and keeps the lead to the end (a shortcut of :meth:`sure`: the search of
        every defence to a claim of top cards grows with the tricks left).  Not at the first lead
        of a phase whose first card led makes trumps, nor for a top card that names a suit or a
        powerless card."""
        h0 = hands[0]
        seat = h0.to_move
        if seat not in self.claim.side:
            return False
        own = h0.hands[seat]
        size = own.bit_count()
        others = 0
        for h in hands:
            for s, m in enumerate(h.hands):
                if s != seat:
                    if m.bit_count() > size:
                        return False
                    others |= m
        return _masters(self.state.variant, h0, own, others)

    def _all(self, hands: list, c: int, suit: str) -> bool:
        """Play ``(c, suit)`` in each of ``hands``; true when the side loses no trick by it and
        :meth:`sure` holds after it."""
        played = []
        ok = True
        try:
            for h in hands:
                snap, done, lost = self._play(h, c, suit)
                played.append((h, snap))
                if lost:
                    ok = False
                    break
            if ok and not done:
                ok = self.sure(hands)
        finally:
            for h, snap in played:
                _restore(h, snap)
        return ok

    def line(self, hand: Hand) -> list | None:
        """A line ``[(seat, card, suit)]`` to the end of the phase in ``hand`` (one deal) in which
        the side takes every trick (with ``cooperative``, every seat helping), or ``None``."""
        out: list = []
        h = hand
        while h.to_move >= 0:
            seat = h.to_move
            for c, suit in self._options(h):
                snap, done, lost = self._play(h, c, suit)
                if not lost and (done or self.sure([h])):
                    out.append((seat, c, suit))
                    break
                _restore(h, snap)
            else:
                return None
            if done:
                break
        return out


def _masters(variant, h: Hand, own: int, others: int) -> bool:
    """Whether each card of ``own``, led in hand ``h``, beats every card of ``others`` by the
    trump context's win keys (trumps included); never at the first lead of a phase whose first
    card led makes trumps, nor for a top card that names a suit or a powerless card."""
    spec = variant.phases[h.phase]
    ctx = h.ctx
    if REGISTRY[spec.kind].lead_makes_trumps(spec) and not h.tricks:
        return False
    top = len(variant.deck.suits)
    for c in bits(own):
        g = ctx.group_of[c]
        if g == ctx.idle_group or (g == top and ctx.top_names_suit):
            return False
        keys = ctx.win_keys[g]
        k = keys[c]
        for x in bits(others):
            if keys[x] >= k:
                return False
    return True


_SLOTS = ("trick", "leader", "led_group", "to_move", "named", "trump", "ctx", "parts", "entries")


def _snapshot(h: Hand) -> tuple:
    """What ``tricks.play_card`` changes in ``h``."""
    return (h.hands[:], h.failed[:], h.won[:], h.won_cards[:], len(h.tricks), len(h.trick_winners),
            [getattr(h, k) for k in _SLOTS], h.trick[:])


def _restore(h: Hand, snap: tuple) -> None:
    hands, failed, won, won_cards, tricks, winners, slots, trick = snap
    h.hands[:] = hands
    h.failed[:] = failed
    h.won[:] = won
    h.won_cards[:] = won_cards
    del h.tricks[tricks:]
    del h.trick_winners[winners:]
    for k, x in zip(_SLOTS, slots):
        setattr(h, k, x)
    h.trick = trick[:]


def _sure(driver: State, claim: Claim, hands: list, budget: int) -> bool | None:
    """:meth:`_Search.sure` of ``hands`` on ``driver`` (its hand put back), ``None`` out of budget."""
    keep = driver.hand
    try:
        return _Search(driver, claim, budget).sure(hands)
    except _OutOfBudget:
        return None
    finally:
        driver.hand = keep


# ---------------------------------------------------------------------- the deals
def deals(obs: Observation, limit: int = MAX_DEALS) -> list | None:
    """Every way to give the cards ``obs``'s seat has not seen to the hands he does not see
    (their sizes, the suits each is known to lack, cards known to be with a seat), as
    ``{seat: bitmask}``; the cards left over lie out of play.  ``None`` when there are more than
    ``limit``."""
    v = obs.variant
    n = v.players
    known = ({obs.seat} if not obs.blind else set()) | set(obs.open_seats)
    if obs.dummy_hand:
        known.add(obs.dummy)
    others = [s for s in range(n) if s not in known and obs.hand_sizes[s]]
    pool = obs.unseen() & ~obs.exposed
    placed_all = 0
    for m in obs.placed:
        placed_all |= m
    pool |= placed_all & ~obs._visible()
    ctx = obs._view.hand.ctx
    sizes = {s: obs.hand_sizes[s] - (obs.exposed.bit_count() if s == obs.dealer else 0) for s in others}
    allowed = {}
    for s in others:
        ok = pool & ~(placed_all & ~obs.placed[s])
        for g in bits(obs.failed[s]):
            ok &= ~ctx.group_mask[g]
        allowed[s] = ok
    ways, room = 1, pool.bit_count()
    for s in others:                 # the count without the voids: far above the limit, no listing
        ways *= comb(room, sizes[s])
        room -= sizes[s]
    if ways > 50 * limit:
        return None
    out: list = []

    def fill(i: int, left: int, got: dict) -> None:
        if len(out) > limit:
            return
        if i == len(others):
            if not placed_all & left & ~_out_of_play(obs):
                out.append(dict(got))
            return
        s = others[i]
        for combo in combinations(list(bits(left & allowed[s])), sizes[s]):
            m = 0
            for c in combo:
                m |= 1 << c
            got[s] = m
            fill(i + 1, left & ~m, got)
            if len(out) > limit:
                return
    fill(0, pool, {})
    return None if len(out) > limit else out


def _out_of_play(obs: Observation) -> int:
    """Cards known to be with a seat that may lie among his cards out of play (his discards as
    declarer, his cards laid out) rather than in his hand: all, when he has any such place."""
    m = 0
    for s, placed in enumerate(obs.placed):
        if (s == obs.declarer and obs.hidden_discards) or (s < len(obs.out_sizes) and obs.out_sizes[s]):
            m |= placed
    return m


def _hands_of(obs: Observation, dealt: list, rng: random.Random) -> tuple:
    """A driver world of ``obs`` and one :class:`Hand` per deal of ``dealt`` (``{seat: cards}``)."""
    driver = obs.sample_world(rng)
    hands = []
    for d in dealt:
        h = driver.hand.clone()
        for s, m in d.items():
            h.hands[s] = m | (obs.exposed if s == obs.dealer else 0)   # a card turned up stays his
        hands.append(h)
    return driver, hands


# ---------------------------------------------------------------------- the three steps
def prove(state: State, claim: Claim, limit: int = MAX_DEALS, budget: int = BUDGET) -> bool | None:
    """Step 1: True when the claim holds in every deal of the cards the claimer cannot see,
    against every defence (one line of his for all of them); False when some deal and defence
    beat every line; ``None`` when the deals are too many or the search runs out of budget."""
    obs = state.observation(claim.seat)
    if _cashes_anyhow(state, claim, obs):
        return True
    dealt = deals(obs, limit)
    if dealt is None:
        return None
    if not dealt:        # (a hand-made state whose public facts cannot all hold)
        return None
    driver, hands = _hands_of(obs, dealt, random.Random(0))
    return _sure(driver, claim, hands, budget)


def _cashes_anyhow(state: State, claim: Claim, obs: Observation) -> bool:
    """:meth:`_Search._cashes` in every deal at once, without listing them: the claimer (or his
    dummy) leads and each of his cards beats every card not yet played that he does not hold,
    seen or not; no hand holds more cards than his (the sizes are public)."""
    h = state.hand
    seat = h.to_move
    if h.trick or seat not in claim.mine:
        return False
    own = h.hands[seat]
    if any(k > own.bit_count() for k in obs.hand_sizes):
        return False
    gone = own
    for _l, plays, _w, _n in obs.tricks:
        for _s, c in plays:
            gone |= 1 << c
    return _masters(state.variant, h, own, state.variant.deck.full_mask & ~gone)


def _views(state: State, claim: Claim, seat: int, rng: random.Random, n: int) -> Iterator:
    """Worlds for ``seat``'s check: ``n`` deals of what the claimer cannot see, and ``n`` of what
    ``seat`` cannot see with the claimer's hand (and his dummy's) laid face up."""
    shown = state.clone(light=True)
    for s in claim.mine:
        shown.lay_open(s, 0)
    theirs = state.observation(claim.seat)
    own = shown.observation(seat)
    for _ in range(n):
        yield theirs.sample_world(rng)
        yield own.sample_world(rng)


def bot_accepts(state: State, claim: Claim, seat: int, rng: random.Random, samples: int = BOT_DEALS,
                budget: int = BUDGET) -> tuple[bool, str]:
    """Step 2 for the opponent at ``seat`` (a bot): ``(accepted, reason)``; it accepts when one
    line of the claimer's takes every trick in all the deals it samples (:func:`_views`)."""
    worlds = list(_views(state, claim, seat, rng, samples))
    driver = worlds[0]
    result = _sure(driver, claim, [w.hand for w in worlds], budget)
    if result is None:
        return False, "too many lines of play to check now"
    if not result:
        return False, "it finds a defence that takes a trick in the deals it sampled"
    return True, ""


def play_out(state: State, claim: Claim, budget: int = BUDGET) -> list | None:
    """Step 3: the actions that play the rest of the phase on the real cards in a line where the
    claimer's side takes every trick (against every defence when such a line exists, else with
    the defence conceding), or ``None`` when no such line exists."""
    world = state.clone(light=True)
    world.max_hands = world.hand.number + 1
    deck = state.variant.deck
    for cooperative in (False, True):
        search = _Search(world, claim, budget, cooperative)
        h = world.hand.clone()
        try:
            line = search.line(h)
        except _OutOfBudget:
            line = None
        finally:
            world.hand = h
        if line is not None:
            return [Action.play(deck, c, suit) if suit else state.play_action(c) for _s, c, suit in line]
    return None
