"""Light sampled worlds: ``Observation.sample_world(rng, light=True)`` deals the same cards by
the same draws as the full world, keeping only its hand (DESIGN.md "An observation is a
value": both are drawn from the observation alone)."""
from __future__ import annotations

import random

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.bots.sensible import calls_test
from rulekit.engine import State
from rulekit.engine.hand import Hand
from rulekit.engine.observation import LightWorld
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
