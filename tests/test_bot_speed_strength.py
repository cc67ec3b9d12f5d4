"""The SensibleBot's own playout loop.

Speed and strength are measured by ``benchmarks/bots.py --vs-old REV`` (never timed here).
These tests pin what the speed-up must not change: the bot's quick playouts
(``_play_out``: the common trick rules in one loop, the hand scored by ``score_played``
without moving the world on) take the same tricks, cards and entries as the engine's own
playout (``playout``: ``legal_play_mask``/``play_fast`` and the engine's end of hand) in
every shipped variant; and a bot's decisions depend only on its seed and observations.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.bots.sensible import (_plain, _plain_tricks, _play_out, _quick, _restore, _save, _score, playout,
                                   trick_preferences)
from rulekit.engine import State
from rulekit.variant import load_variant

VARIANTS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "variants").glob("*.yaml"))


def _play_positions(v, deals: int = 3):
    """Observations of the seat to move at the start of and during trick play of a few
    random hands (random bots up to there)."""
    out = []
    for seed in range(deals):
        st = State(v, seed=seed)
        bots = [RandomBot(seed=seed * 10 + s) for s in range(v.players)]
        stops = {0, 4, 9}
        k = 0
        while st.hands_played == 0 and not st.is_over:
            seat = st.controller(st.to_move)
            if st.kind.role == "play":
                if k in stops:
                    out.append(st.observation(seat))
                k += 1
            st.apply(bots[seat].act(st.observation(seat)))
    return out


@pytest.mark.parametrize("vid", VARIANTS)
def test_quick_playout_scores_as_the_engine(vid):
    """In each shipped variant, from sampled worlds at several points of trick play,
    the bot's quick playout and the engine's playout (same greedy policy) give the same
    tricks won per seat, trick winners, cards won and entries of the hand."""
    v = load_variant(vid)
    rng = random.Random(7)
    checked = 0
    for obs in _play_positions(v):
        for _ in range(2):
            world = obs.sample_world(rng)
            world.max_hands = world.hand.number + 1
            prefs = trick_preferences(world)
            a, b = world.clone(light=True), world.clone(light=True)
            ha, hb = a.hand, b.hand
            playout(a, prefs, ha)
            _play_out(b, prefs, hb)
            done = a.hand_log[-1]
            assert list(done.won) == list(hb.won)
            assert list(done.trick_winners) == list(hb.trick_winners)
            assert list(done.won_cards) == list(hb.won_cards)
            assert list(done.entries) == list(hb.entries), (vid, obs.seat)
            checked += 1
    if vid in ("fivehundred", "bridge", "whist", "spades", "hearts"):
        assert checked >= 6


def test_the_plain_loop_is_used_where_the_rules_are_the_common_ones():
    """Five Hundred, bridge and whist trick play go through the one-loop playout;
    hearts (first-trick restrictions) and a variant with an early end (Boston's null ends when
    the declarer takes a trick) through the engine's own trick rules."""
    for vid, plain in (("fivehundred", True), ("bridge", True), ("whist", True), ("hearts", False)):
        v = load_variant(vid)
        obs = _play_positions(v, 1)[0]
        w = obs.sample_world(random.Random(1))
        assert _quick(w) and _plain(v.phases[w.hand.phase], w.hand.ctx) is plain
    boston = load_variant("boston")
    specs = [p for p in boston.phases if p.kind == "tricks"]
    assert specs and any(p.end_if is not None for p in specs)
    ctx = boston.contexts["NT"]
    assert not all(_plain(p, ctx) for p in specs)


def _decisions(v, seed: int, junk: bool) -> list:
    """The actions of SensibleBots over one hand; with ``junk``, observations are made and
    dropped between decisions (freed objects whose ids later observations may reuse)."""
    st = State(v, seed=seed)
    bots = [SensibleBot(seed=seed + s, samples=4, bid_samples=6) for s in range(v.players)]
    out = []
    while st.hands_played == 0 and not st.is_over:
        seat = st.controller(st.to_move)
        if junk:
            for s in range(v.players):
                st.observation(s)
        a = bots[seat].act(st.observation(seat))
        out.append(a)
        st.apply(a)
    return out


def test_decisions_depend_on_seed_and_observations_only():
    """The bot kept the calls test of its last observation by ``id()``; a later
    observation given the freed one's id reused a stale test, so the same seeded hand could
    be played differently from run to run.  Now the same seeds give the same decisions
    whatever else is allocated between them."""
    v = load_variant("bridge")
    for seed in (1, 2):
        assert _decisions(v, seed, False) == _decisions(v, seed, True)


def test_calls_test_follows_the_observation():
    """The calls test is rebuilt for each new observation (held by the object
    itself, not its id)."""
    v = load_variant("bridge")
    st = State(v, seed=4)
    bot = SensibleBot(seed=1)
    o1 = st.observation(st.to_move)
    bot.sample(o1)
    assert bot._fits[0] is o1
    st.apply(RandomBot(seed=2).act(o1))
    o2 = st.observation(st.to_move)
    bot.sample(o2)
    assert bot._fits[0] is o2


def test_a_candidate_played_on_the_hand_leaves_it_as_it_was():
    """The bot plays each candidate on the sampled world's own hand and puts it back
    (``_save``/``_restore``): afterwards the hand's cards, tricks, winners, voids and trick under
    way equal a copy taken before, so the next candidate starts from the same position, and it
    scores as a playout on a copy would."""
    v = load_variant("fivehundred")
    rng = random.Random(3)
    for obs in _play_positions(v, 2):
        w = obs.sample_world(rng)
        w.max_hands = w.hand.number + 1
        h = w.hand
        prefs = trick_preferences(w)
        before = h.clone()
        saved = _save(h)
        for card in (c for c in range(v.deck.size) if w.legal_play_mask() >> c & 1):
            copy = w.clone(light=True)
            _plain_tricks(copy, copy.hand, prefs, card)
            _score(copy, copy.hand)
            _plain_tricks(w, h, prefs, card)
            _score(w, h)
            assert list(h.entries) == list(copy.hand.entries) and list(h.won) == list(copy.hand.won)
            _restore(h, saved)
            for k in ("hands", "failed", "won", "won_cards", "tricks", "trick_winners", "trick", "leader",
                      "led_group", "to_move", "named", "entries"):
                assert getattr(h, k) == getattr(before, k), k
