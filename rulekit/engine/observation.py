"""What one seat may see: its hand, face-up cards, the public history.

Bots act only on an :class:`Observation`.  :meth:`Observation.sample_world`
builds a full :class:`~rulekit.engine.state.State` whose hidden cards (the
other hands, a face-down widow, another player's discards) are re-dealt at
random consistently with what the seat has seen (hand sizes and the groups
each player is known to lack), for Monte Carlo bots.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from rulekit.cards import bits


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
    :ivar contract: contract text or ``""``; ``declarer`` seat or -1; ``trump`` ``S``.. / ``NT``.
    :ivar trick: ``(seat, card)`` of the trick in progress.
    :ivar tricks: completed tricks ``(leader, plays, winner, named)``.
    :ivar won: tricks won by each seat.
    :ivar failed: per seat, bitmask of groups he is known to lack.
    :ivar totals: sheet totals.
    :ivar legal: legal actions when this seat decides now (its own turn, or its dummy's)
        else ``[]``.
    :ivar dummy: the dummy's seat (-1 if none); ``dummy_hand`` its cards once exposed
        (after the opening lead), else 0.
    :ivar exposed: other face-up cards in players' hands (a turned-up trump card).
    :ivar vulnerable: vulnerability per score column.
    :ivar variant: the compiled variant (public knowledge); ``phase_spec`` the current phase's spec.
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
    exposed: int = 0
    vulnerable: list = field(default_factory=list)
    variant: object = field(repr=False, compare=False, default=None)
    phase_spec: object = field(repr=False, compare=False, default=None)
    _state: object = field(repr=False, compare=False, default=None)

    def unseen(self) -> int:
        """Bitmask of cards this seat has not seen (held by others or hidden)."""
        st = self._state
        seen = self.hand | self.widow | self.discards | self.dummy_hand | self.exposed
        for _l, plays, _w, _n in self.tricks:
            for _s, c in plays:
                seen |= 1 << c
        for _s, c in self.trick:
            seen |= 1 << c
        return st.variant.deck.full_mask & ~seen

    def sample_world(self, rng: random.Random):
        """A full state consistent with this observation (hidden cards re-dealt at random)."""
        st = self._state
        world = st.clone(light=True)
        h = world.hand
        n = st.variant.players
        ctx = h.ctx or st.variant.contexts.get("NT")
        known = {self.seat}
        if self.dummy_hand:
            known.add(self.dummy)
        others = [s for s in range(n) if s not in known]
        exposed = {s: h.hands[s] & self.exposed for s in others}
        need = {s: h.hands[s].bit_count() - exposed[s].bit_count() for s in others}
        hidden_zones = {z: m.bit_count() for z, m in h.zones.items() if m and not (self.widow & m)}
        hidden_discards = h.discards.bit_count() if h.declarer != self.seat else 0
        pool = list(bits(self.unseen()))
        for _ in range(50):
            rng.shuffle(pool)
            assign = _deal_constrained(pool, others, need, self.failed, ctx, rng)
            if assign is not None:
                break
        else:
            assign = _deal_constrained(pool, others, need, [0] * n, ctx, rng)
        rest = assign.pop(None)
        for s in others:
            h.hands[s] = assign[s] | exposed[s]
        i = 0
        for z, k in hidden_zones.items():
            m = 0
            for c in rest[i:i + k]:
                m |= 1 << c
            h.zones[z] = m
            i += k
        if hidden_discards:
            m = 0
            for c in rest[i:i + hidden_discards]:
                m |= 1 << c
            h.discards = m
        return world


def _deal_constrained(pool, others, need, failed, ctx, rng):
    """Give each seat ``need[s]`` cards of ``pool`` avoiding groups in ``failed[s]``; None if stuck."""
    out = {s: 0 for s in others}
    left = list(pool)
    order = sorted(others, key=lambda s: -bin(failed[s]).count("1"))
    for s in order:
        if ctx is None or not failed[s]:
            ok = left
        else:
            ok = [c for c in left if not failed[s] >> ctx.group_of[c] & 1]
        if len(ok) < need[s]:
            return None
        take = ok[:need[s]]
        taken = set(take)
        for c in take:
            out[s] |= 1 << c
        left = [c for c in left if c not in taken]
    out[None] = left
    return out


def observe(state, seat: int) -> Observation:
    """Build the :class:`Observation` of ``seat`` from ``state``."""
    h = state.hand
    widow = 0
    for z, m in h.zones.items():
        if h.zone_up.get(z):
            widow |= m
    legal = state.legal_actions() if state.to_move >= 0 and state.controller(state.to_move) == seat else []
    dummy_up = h.dummy >= 0 and (h.tricks or h.trick)
    exposed = (1 << h.turned) if h.turned_visible and h.hands[h.dealer] >> h.turned & 1 else 0
    return Observation(
        seat=seat, phase=state.phase_kind, to_move=state.to_move, dealer=h.dealer, hand=h.hands[seat],
        hand_sizes=[m.bit_count() for m in h.hands], widow=widow,
        discards=h.discards if h.declarer == seat else 0, calls=list(h.calls),
        contract=h.contract.text if h.contract else "", declarer=h.declarer, trump=h.trump,
        trick=list(h.trick), tricks=list(h.tricks), won=list(h.won), failed=list(h.failed),
        totals=state.sheet.totals(), legal=legal, hand_number=h.number, dummy=h.dummy,
        dummy_hand=h.hands[h.dummy] if dummy_up else 0, exposed=exposed, vulnerable=list(h.vulnerable),
        variant=state.variant, phase_spec=None if state.is_over else state.current_phase, _state=state)
