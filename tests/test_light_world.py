"""Light sampled worlds: ``Observation.sample_world(rng, light=True)`` deals the same cards by
the same draws as the full world, keeping only its hand (DESIGN.md "An observation is a
value": both are drawn from the observation alone)."""
from __future__ import annotations

import importlib.util
import random

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.bots.sensible import calls_test
from rulekit.engine import State, kernel
from rulekit.engine.hand import Hand
from rulekit.engine.observation import LightWorld, _fill, _rules
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases.base import PhaseKind
from tests.test_fairplay_every_kind import _cases
from rulekit.variant import load_variant


def _slots(h: Hand) -> dict:
    """Every field of hand ``h`` (its kinds' data compare by value)."""
    return {name: getattr(h, name) for name in Hand.__slots__}


def _same_world(full: State, light, vid: str) -> None:
    """``light`` (a :class:`LightWorld` or a full world) is the world ``full``: the same hand in
    every field, the same seed of later deals; built up, the same match around it."""
    assert _slots(light.hand) == _slots(full.hand), vid
    assert light.seed == full.seed and light.max_hands == full.max_hands, vid
    if type(light) is LightWorld:
        assert light.variant is full.variant
        assert (light.progress.game_score, light.progress.games) == (full.progress.game_score, full.progress.games)
        built = light.state()
        assert built.hand is light.hand   # (the light world's hand itself, not a copy)
        for name, value in full.__dict__.items():
            if name not in ("hand", "record", "sheet", "progress", "markers"):
                assert built.__dict__[name] == value, (vid, name)
        assert built.sheet.totals() == full.sheet.totals() and built.record.open is built.hand
        assert built.progress.__dict__ == full.progress.__dict__, vid


@pytest.mark.parametrize("vid", _cases())
def test_a_light_world_deals_the_cards_of_the_full_world(vid):
    """At decisions of random matches of every installed variant (and made-up files using
    every phase kind), a light world drawn from a generator seeded alike holds the full
    world's hand field for field and its seed, leaves the generator where the full draw
    leaves it (so a bot's later draws are the same), with and without a test of the deals;
    where a kind re-derives facts from the cards dealt (a hidden partner), the full world
    itself comes back."""
    v = load_variant(vid)
    light_seen = 0
    for seed in range(2):
        s = State(v, seed=seed, max_hands=2)
        bots = [RandomBot(seed * 10 + i) for i in range(v.players)]
        step = 0
        while not s.is_over:
            seat = s.controller(s.to_move)
            obs = s.observation(seat)
            if step % 5 == 0:
                test = calls_test(obs)
                for k in range(2):
                    args = (test, 4) if test is not None and k else ()
                    ra, rb = random.Random(k), random.Random(k)
                    full = obs.sample_world(ra, *args)
                    light = obs.sample_world(rb, *args, light=True)
                    assert ra.getstate() == rb.getstate(), vid
                    _same_world(full, light, vid)
                    light_seen += type(light) is LightWorld
            s.apply(bots[seat].act(obs))
            step += 1
    resamples = any(type(REGISTRY[p.kind]).resample is not PhaseKind.resample for p in v.phases)
    assert light_seen or resamples, vid


def test_a_bot_decides_alike_with_light_worlds(monkeypatch):
    """SensibleBot's card play draws its later worlds light: its choices and notes are those
    of the bot that draws every world full (the same draws, the same playouts)."""
    v = load_variant("fivehundred")
    from rulekit.engine import observation
    full_only = observation.Observation.sample_world

    def never_light(self, rng, fits=None, tries=1, light=False):
        return full_only(self, rng, fits, tries)
    for seed in range(3):
        got = []
        for patch in (False, True):
            if patch:
                monkeypatch.setattr(observation.Observation, "sample_world", never_light)
            s = State(v, seed=seed)
            bots = [SensibleBot(seed=seed * 10 + i) for i in range(v.players)]
            notes: list = []
            while s.hands_played == 0 and not s.is_over:
                seat = s.controller(s.to_move)
                s.apply(bots[seat].decide(s.observation(seat), notes))
            got.append((list(s.history), [repr(n) for n in notes]))
            monkeypatch.undo()
        assert got[0] == got[1]


needs_numba = pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                                 reason="the compiled kernel needs numba: pip install rulekit[fast]")


def _fills_alike(places: list, rules: tuple, draws: int) -> int:
    """Seeded draws of ``rules`` over ``places`` by the kernel and by ``_fill`` agree, cards and
    generator state; the number of draws that got stuck (``None`` by both)."""
    tables = kernel.fill_tables(rules, places)
    if tables is None:   # (only a card beyond the kernel's 63: a 78-card deck)
        assert rules[0][-1] >= kernel.MAX_CARDS
        return 0
    stuck = 0
    for k in range(draws):
        ra, rb = random.Random(k), random.Random(k)
        want = _fill(ra, places, rules)
        assert kernel.fill(rb, tables) == want, k
        assert ra.getstate() == rb.getstate(), k
        stuck += want is None
    return stuck


@needs_numba
@pytest.mark.parametrize("vid", _cases())
def test_the_kernel_deals_hidden_cards_as_fill(vid):
    """At decisions of random matches of every installed variant (and made-up files using
    every phase kind), the compiled deal of the hidden cards gives ``_fill``'s cards and
    leaves the generator where it does, shown voids honoured or not (the constrained cards
    drawn one by one, the others as slices of the shuffle)."""
    kernel.use(True)
    try:
        v = load_variant(vid)
        s = State(v, seed=3, max_hands=2)
        bots = [RandomBot(30 + i) for i in range(v.players)]
        step = 0
        while not s.is_over:
            seat = s.controller(s.to_move)
            obs = s.observation(seat)
            if step % 4 == 0:
                ctx, _others, placed_all, pool, places, _p, _f, _a = obs._layout()
                for failed in (obs.failed, None):
                    _fills_alike(places, _rules(pool, places, obs.placed, placed_all, failed, ctx,
                                                obs.excluded or None), 6)
            s.apply(bots[seat].act(obs))
            step += 1
    finally:
        kernel.use(None)


@needs_numba
def test_the_kernel_deals_constrained_cards_and_gets_stuck_as_fill():
    """Placed cards, shown voids and a place too tight for them: the compiled deal agrees with
    ``_fill`` draw by draw, the draws that get stuck included."""
    kernel.use(True)
    try:
        ctx = load_variant("bridge").contexts["NT"]
        pool = (1 << 39) - 1
        places = [("hand", s, 13, s) for s in (1, 2, 3)]
        assert _fills_alike(places, _rules(pool, places, [0, 1 << 5, 0, 0], 1 << 5, [0, 0, 1, 0], ctx), 300) == 0
        # each hidden seat void in another of the three suits: drawn one by one, a suit's cards
        # may find both hands that may take them full, and the draw is stuck (about 4 in 10)
        tight = _rules(pool, places, [0] * 4, 0, [0, 0b001, 0b010, 0b100], ctx)
        assert 0 < _fills_alike(places, tight, 300) < 300
    finally:
        kernel.use(None)


@needs_numba
def test_worlds_of_one_observation_deal_alike_when_the_kernel_is_switched_off_between_them():
    """An observation keeps the kernel's arrays of its deal from its first world; switched off
    after that (``kernel.use(False)``), its next worlds are dealt by the Python function, and
    they are the worlds the kernel would have dealt."""
    v = load_variant("fivehundred")
    obs = State(v, seed=4).observation(1)
    kernel.use(True)
    try:
        obs.sample_world(random.Random(0))
        got = [obs.sample_world(random.Random(k)).hand.hands for k in range(5)]
        kernel.use(False)
        assert [obs.sample_world(random.Random(k)).hand.hands for k in range(5)] == got
    finally:
        kernel.use(None)
