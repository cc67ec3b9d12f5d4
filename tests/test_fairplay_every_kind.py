"""Fair play for every phase kind: an observation holds only what its seat may know, and the
worlds a bot samples from it never rebuild a hidden card the seat cannot infer.

The statistical test plays random matches of variants that together use every registered
phase kind; at decisions along the way it samples worlds for the seat to move and counts, for
each card hidden from that seat, how often a world puts it where it really is.  A fair
sampler does that about as often as the room of that place among the places the card may go
allows; a leak (a world rebuilt from the real deal) does it every time.
"""
from __future__ import annotations

import random

import pytest

from rulekit.bots import RandomBot
from rulekit.cards import bits
from rulekit.engine import State
from rulekit.engine.phases import REGISTRY, kind_of
from rulekit.variant import builtin_ids, load_variant


def _place_of(state, card: int):
    """Where ``card`` really is now: ``("hand", seat)``, ``("zone", name)``, ``("discards",)``,
    ``("out", seat)`` or ``None`` (played, or nowhere)."""
    h = state.hand
    for s, m in enumerate(h.hands):
        if m >> card & 1:
            return ("hand", s)
    for z, m in h.zones.items():
        if m >> card & 1:
            return ("zone", z)
    if h.discards >> card & 1:
        return ("discards",)
    for s, m in enumerate(h.out):
        if m >> card & 1:
            return ("out", s)
    return None


def _rooms(obs) -> dict:
    """The places a hidden card may go in ``obs``'s sampled worlds, with their room."""
    rooms = {}
    known = ({obs.seat} if not obs.blind else set()) | set(obs.open_seats) | ({obs.dummy} if obs.dummy_hand else set())
    for s in range(obs.variant.players):
        if s not in known:
            rooms[("hand", s)] = obs.hand_sizes[s] - (obs.exposed.bit_count() if s == obs.dealer else 0)
    for z, k in obs.hidden_zones.items():
        rooms[("zone", z)] = k
    if obs.hidden_discards:
        rooms[("discards",)] = obs.hidden_discards
    for s, k in enumerate(obs.out_sizes):
        if k and s != obs.seat:
            rooms[("out", s)] = k
    return rooms


def hits_and_chance(state, seat: int, action, worlds: int, rng) -> tuple:
    """``(hits, expected)`` for ``seat`` about to say ``action``: over ``worlds`` worlds sampled
    from his observation, each then given the same action, how often a card hidden from him
    (unseen and not placed by public facts) lies where it really is after the action, and how
    often a fair draw would put it there: its place's share of the room of the hidden places it
    may go to (0 for a card in no such place: a world that finds it anyway has read it)."""
    obs = state.observation(seat)
    rooms = _rooms(obs)
    total = sum(rooms.values())
    placed = 0
    for m in obs.placed:
        placed |= m
    for m in obs.zone_known.values():
        placed |= m
    hidden = list(bits(obs.unseen() & ~placed))
    after = state.clone()
    after.apply(action)
    if after.is_over or after.hand.number != state.hand.number:   # a new deal: nothing hidden carries over
        return 0, 0.0
    real = {c: _place_of(after, c) for c in hidden}
    share = sum(rooms.get(_place_of(state, c), 0) / total for c in hidden) if total > 0 else 0.0
    hits, expected = 0, 0.0
    for _ in range(worlds):
        w = obs.sample_world(rng)
        w.apply(action)
        hits += sum(real[c] is not None and _place_of(w, c) == real[c] for c in hidden)
        expected += share
    return hits, expected


def _kinds(v) -> set:
    rules = v.rounds or (v,)
    return {p.kind for r in rules for p in r.phases}


def _cases():
    """Every installed variant, and a made-up compendium whose rounds use every phase kind."""
    from pathlib import Path
    data = Path(__file__).parent / "data"
    return (list(builtin_ids()) + [str(data / "every-kind.yaml")] + sorted(str(p) for p in (data / "partners").glob("*.yaml"))
            + sorted(str(p) for p in (data / "values").glob("*.yaml")))


def test_the_cases_use_every_phase_kind():
    """The shipped variants together use every registered phase kind, so the test below covers
    each (a kind registered later without a variant using it fails here)."""
    used = set()
    for vid in _cases():
        used |= _kinds(load_variant(vid))
    assert set(REGISTRY) - used == set()


@pytest.mark.parametrize("vid", _cases())
def test_sampled_worlds_place_hidden_cards_by_chance_only(vid):
    """Fair play, every phase kind: at decisions of random matches, the worlds sampled for
    the seat to move put his hidden cards where they really are no more often than the room
    of their places allows (a rebuilt deal would put every one there)."""
    v = load_variant(vid)
    rng = random.Random(11)
    hits = expected = 0.0
    worst = None
    for seed in range(3):
        s = State(v, seed=seed, max_hands=len(v.rounds) or 3)
        bots = [RandomBot(seed * 10 + i) for i in range(v.players)]
        step = 0
        while not s.is_over:
            seat = s.controller(s.to_move)
            action = bots[seat].act(s.observation(seat))
            if step % 7 == 0 or REGISTRY[s.phase_kind].role != "play":
                h, e = hits_and_chance(s, seat, action, 4, rng)
                hits += h
                expected += e
                if h > 2 * e + 12:   # one decision whose worlds know too much
                    worst = worst or (s.hand.number, s.phase_kind, seat, h, e)
            s.apply(action)
            step += 1
    assert expected > 0 and worst is None, worst
    # voids shown by play (a card may go to fewer places) raise the rate a little, never to a leak
    assert hits <= 1.5 * expected + 30, (hits, expected)


def _at_trump_choice(seed: int) -> State:
    """A King match played at random up to the chooser's decision of the first trump round."""
    s = State(load_variant("king"), seed=seed)
    rng = random.Random(seed)
    while s.phase_kind != "split_choice":
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_k9_the_choosers_worlds_deal_the_rest_at_random():
    """rules/king.md [K9]: the chooser sees only his first 3 cards; the rest of the deal is
    still in the dealer's hands.  His observation holds none of those cards, and the worlds he
    samples, once he has chosen, deal them at random: the 29 undealt cards land where they
    really go about a quarter of the time (all of them, every time, when a world copies the
    real deal), and his own five later cards are not the real ones."""
    s = _at_trump_choice(3)
    chooser = s.to_move
    o = s.observation(chooser)
    assert o.hand.bit_count() == 3 and sum(o.hidden_zones.values()) == 29
    real = s.clone()
    real.apply("trump S")
    rng = random.Random(1)
    same = copied = 0
    for _ in range(30):
        w = o.sample_world(rng)
        w.apply("trump S")
        same += sum((w.hand.hands[p] & real.hand.hands[p]).bit_count() for p in range(4) if p != chooser)
        same += (w.hand.hands[chooser] & real.hand.hands[chooser] & ~o.hand).bit_count()
        copied += w.hand.hands == real.hand.hands
    assert copied == 0
    assert same < 30 * 29 * 0.4      # a quarter expected; a copied deal gives all 870


def test_layout_rows_of_a_copy_are_its_own():
    """A domino layout ([K8]) laid in a copy of a match (a bot's world) leaves the rows of the
    match itself as they were."""
    s = State(load_variant("king"), seed=2)
    rng = random.Random(2)
    while not (s.phase_kind == "domino" and kind_of("domino").data_of(s.hand).rows):
        s.apply(rng.choice(s.legal_actions()))
    rows = dict(kind_of("domino").data_of(s.hand).rows)
    rows = {k: tuple(x) for k, x in rows.items()}
    c = s.clone()
    for _ in range(6):
        if c.phase_kind != "domino":
            break
        c.apply(c.legal_actions()[0])
    assert {k: tuple(x) for k, x in kind_of("domino").data_of(s.hand).rows.items()} == rows
