"""The optional compiled trick kernel (rulekit.engine.kernel, numba) plays what the pure-Python
loops play, deal by deal.

Every installed variant: seeded matches are played by the random playout
(:func:`rulekit.engine.playout.random_hand`) once with the kernel and once with the Python
loop; both must draw the same uniforms (the generators end in the same state), and leave the
same history, trick winners, ``PlayedTricks`` bytes, cards and card points won, sheet and
result.  Each hand the kernel played is replayed through the checked ``apply()``, whose
``legal_play_mask()`` must equal the legal set the kernel used at every play.  The bot's
greedy playout (``sensible._plain_tricks``, one card or every candidate at once) leaves the
hand as the Python loop does from positions before and during trick play, and SensibleBots
make the same decisions with and without the kernel.  Without numba these tests are skipped;
the ones at the end (the core never imports numba, the Python loops play alone) always run.
"""
from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.bots import sensible
from rulekit.engine import State, kernel, playout
from rulekit.engine.phases import tricks as _tricks
from rulekit.variant import builtin_ids, load_variant
from tests.helpers import load_text

needs_numba = pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                                 reason="the compiled kernel needs numba: pip install rulekit[fast] "
                                        "(without it the pure-Python loops play every hand)")
HANDS = 4   # per match and seed


@pytest.fixture
def switch():
    """``switch(on)`` turns the kernel on or off; the default is restored afterwards."""
    yield kernel.use
    kernel.use(None)


def _finished(st: State) -> list:
    """What each finished hand keeps of its trick play: the tricks in their stored layout, the
    trick winners, tricks and cards won, the card points scored."""
    out = []
    for h in st.hand_log:
        t = h.tricks
        raw = (t._data, t._named) if isinstance(t, playout.PlayedTricks) else list(t)
        pts = st.variant.points_table(h.ctx)
        out.append((h.number, raw, list(h.trick_winners), list(h.won), list(h.won_cards),
                    [sum(pts[c] for c in range(st.variant.deck.size) if m >> c & 1) for m in h.won_cards],
                    list(h.failed), h.entries))
    return out


def _outcome(st: State) -> tuple:
    return (list(st.history), [r.as_dict() for r in st.sheet.rows], st.result(), st.hands_played, _finished(st))


def _kernel_deals_as_the_python_loop(v, switch, monkeypatch, seeds: int = 3) -> int:
    """Seeded random matches of ``v`` by the kernel and by the Python loop: the same draws and
    outcome (:func:`_outcome`), the kernel playing every hand the Python loop plays by its plain
    loop, its legal set the checked path's at every play of those hands and each card passing
    ``apply()``.  Returns the number of plays whose legal set a lead or first-trick rule cut."""
    kernel_hands: list = []
    python_hands = [0]
    real_kernel, real_loop = kernel.random_tricks, playout._plain_tricks

    def spy_kernel(state, h, ctx, rng):
        before, at = state.clone(), len(h.choices)
        done = real_kernel(state, h, ctx, rng)
        if done is not None:
            kernel_hands.append((before, done[4].tolist(), h.choices[at:]))
        return done

    def spy_loop(state, h, ctx, *rest):
        if not kernel.enabled() and kernel._pack(v, ctx) is not None:   # a hand the kernel can play
            python_hands[0] += 1
        return real_loop(state, h, ctx, *rest)
    monkeypatch.setattr(kernel, "random_tricks", spy_kernel)
    monkeypatch.setattr(playout, "_plain_tricks", spy_loop)
    for seed in range(seeds):
        fast, ref = State(v, seed=seed), State(v, seed=seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        for _ in range(HANDS):
            if ref.is_over:
                break
            switch(True)
            playout.random_hand(fast, r1)
            switch(False)
            playout.random_hand(ref, r2)
            assert r1.getstate() == r2.getstate(), (v.id, seed, ref.hands_played)
            assert _outcome(fast) == _outcome(ref), (v.id, seed, ref.hands_played)
    assert len(kernel_hands) == python_hands[0]   # the kernel played every such hand the plain loop played
    cut = 0
    for before, legal, log in kernel_hands:
        assert len(legal) == len(log)
        for mask, choice in zip(legal, log):
            assert before.legal_play_mask() == mask, (v.id, before.hand.number)
            assert choice in before.legal_choices(), (v.id, before.hand.number)
            cut += mask != _tricks.legal_mask_unrestricted(before, before.to_move)
            before.apply(before.choice_action(choice))   # checked: raises if the rules refuse the card
    return cut


@needs_numba
@pytest.mark.parametrize("vid", builtin_ids())
def test_random_kernel_deals_as_the_python_loop(vid, switch, monkeypatch):
    """Seeded random matches of every installed variant, by the kernel and by the Python loop:
    the same draws, history, tricks (``PlayedTricks``' bytes), winners, cards and card points
    won, sheet and result; at every play of the kernel's hands its legal set is the checked
    path's ``legal_play_mask()`` and its card passes ``apply()``; where lead rules hold
    (hearts not led until broken, the 2 of clubs leading the first trick and no point on it:
    rules/hearts.md; spades not led until broken), they cut some of those legal sets."""
    cut = _kernel_deals_as_the_python_loop(load_variant(vid), switch, monkeypatch)
    if vid in ("hearts", "spades"):
        assert cut > 0


LEAD_RULES = """id: toy
name: Toy (made up)
players: 4
deck:
  suits: [S, H, D, C]
  ranks: ["7", "8", "9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9 8 7"
phases:
  deal: {kind: deal, pattern: "4 4"}
  trumps: {kind: fixed_trump, suit: S}
  play: {kind: tricks, lead: eldest%s}
scoring:
  each: "tricks"
match: {deals: 6}
"""


@needs_numba
@pytest.mark.parametrize("play", [", lead_broken: [H]", ", lead_broken: [trump], must_trump: true",
                                  ", lead_never: [C]", ", first_trick: {lead: 7C}",
                                  ', first_trick: {no_lead: "AS AH D", no_play: "QS H"}',
                                  ', lead_broken: [H, trump], first_trick: {lead: 7C, no_play: "H QS"}'])
def test_the_kernel_applies_each_lead_and_first_trick_rule(play, switch, monkeypatch):
    """A made-up four-handed game with one lead or first-trick rule (a suit or the trumps not
    led until broken, a suit never led while the leader holds another, the first trick's lead
    card, cards not led or not played to the first trick, and several at once): the kernel plays
    its seeded deals as the Python loop and the checked path do, and the rule cuts legal sets."""
    v = load_text(LEAD_RULES % play)
    assert v.phases[-1].restricts
    assert _kernel_deals_as_the_python_loop(v, switch, monkeypatch, seeds=4) > 0


@needs_numba
def test_random_kernel_is_used_and_names_suits(switch):
    """Five Hundred's plain hands are played by the kernel, among them hands at no trump where a
    led joker names the suit to follow ([T4]: the draw after the lead): the named suits, the log's
    ``play JK X`` and the generator's state match the Python loop's."""
    v = load_variant("fivehundred")
    named = 0
    for seed in range(40):
        fast, ref = State(v, seed=seed), State(v, seed=seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        switch(True)
        playout.random_hand(fast, r1)
        switch(False)
        playout.random_hand(ref, r2)
        assert r1.getstate() == r2.getstate() and _outcome(fast) == _outcome(ref)
        named += sum(1 for _l, _p, _w, n in fast.hand_log[-1].tricks if n)
    assert named >= 1


@needs_numba
def test_random_kernel_from_a_hand_under_way(switch):
    """A hand whose first tricks were played through the checked API: the kernel plays the rest
    from the trick boundary as the Python loop does, keeping the tricks already played (and,
    for a suit not led until broken, reading the cards they hold: Hearts, Spades)."""
    broken = 0
    for vid in ("fivehundred", "bridge", "whist", "hearts", "spades"):
        v = load_variant(vid)
        for seed in range(4):
            states = []
            for on in (True, False):
                st = State(v, seed=seed)
                rng = random.Random(seed)
                while st.kind is None or st.kind.name != _tricks.KIND.name or len(st.hand.tricks) < 2 \
                        or st.hand.trick or _unbroken(st) and len(st.hand.tricks) < 8:
                    legal = st.legal_actions()
                    st.apply(legal[int(rng.random() * len(legal))])
                broken += bool(st.current_phase.lead_broken) and not _unbroken(st)
                switch(on)
                playout.random_hand(st, rng)
                states.append((st, rng.getstate()))
            (a, ra), (b, rb) = states
            assert ra == rb and _outcome(a) == _outcome(b), (vid, seed)
            assert len(a.hand_log[0].tricks) == len(a.hand_log[0].trick_winners)
    assert broken >= 8   # (hearts or spades played before the kernel's first lead)


def _unbroken(st: State) -> bool:
    """Whether the trick phase has a suit not led until broken, and none of its cards has been played."""
    rules = _tricks._lead_rules(st, st.current_phase) if st.current_phase.lead_broken else ()
    return bool(rules) and not any(_tricks.played_cards(st.hand.tricks) & mask for mask, _until, _why in rules)


def _play_positions(v, deals: int = 3) -> list:
    """Observations of the seat to move before the first lead and during trick play of a few
    random hands (random bots up to there)."""
    out = []
    for seed in range(deals):
        st = State(v, seed=seed)
        bots = [RandomBot(seed=seed * 10 + s) for s in range(v.players)]
        k = 0
        while st.hands_played == 0 and not st.is_over:
            seat = st.controller(st.to_move)
            if st.kind.role == "play":
                if k in (0, 2, 4, 9):
                    out.append(st.observation(seat))
                k += 1
            st.apply(bots[seat].act(st.observation(seat)))
    return out


def _hand_state(h) -> tuple:
    return (list(h.hands), list(h.failed), list(h.won), list(h.won_cards), list(h.tricks), list(h.trick_winners),
            list(h.trick), h.leader, h.led_group, h.named, h.to_move)


@needs_numba
@pytest.mark.parametrize("vid", builtin_ids())
def test_greedy_kernel_plays_as_the_bots_loop(vid, switch):
    """From sampled worlds before and during trick play of every installed variant whose rules
    are the plain ones there: the bot's one-loop playout by the kernel (each legal first card, and
    the greedy card) leaves the hand as the Python loop does, and ``greedy_each`` gives every
    candidate's outcome key (trick winners and cards won, or tricks and card points won) and
    hand alike in one call."""
    v = load_variant(vid)
    rng = random.Random(5)
    checked = 0
    for obs in _play_positions(v):
        world = sensible.capped(obs.sample_world(rng))
        h = world.hand
        switch(True)
        if not (sensible._quick(world) and sensible._plain(v.phases[h.phase], h.ctx)) or kernel.pack(v, h.ctx) is None:
            continue   # (the Python loop's alone: a deck past 63 cards)
        prefs = sensible.trick_preferences(world)
        legal = world.legal_play_mask()
        firsts = [c for c in range(v.deck.size) if legal >> c & 1]
        for first in firsts + [-1]:
            a, b = world.clone(light=True), world.clone(light=True)
            switch(False)
            sensible._plain_tricks(a, a.hand, prefs, first)
            switch(True)
            assert kernel.greedy_tricks(b, b.hand, prefs, first)
            assert _hand_state(b.hand) == _hand_state(a.hand), (vid, obs.seat, first)
            checked += 1
        switch(True)
        saved = sensible._save(h)
        pre = len(h.trick_winners)
        keys, put = kernel.greedy_each(world, h, prefs, firsts + [-1])   # (-1: the greedy card first)
        counts, _put = kernel.greedy_each(world, h, prefs, firsts + [-1], counts=True)
        assert _hand_state(h) == _hand_state(world.clone(light=True).hand)   # left as it was
        pts = v.points_table(h.ctx)
        for i, first in enumerate(firsts + [-1]):
            a = world.clone(light=True)
            switch(False)
            sensible._plain_tricks(a, a.hand, prefs, first)
            put(i)
            assert _hand_state(h) == _hand_state(a.hand), (vid, obs.seat, first)
            assert keys[i] == (tuple(a.hand.trick_winners[pre:]), tuple(a.hand.won_cards))
            assert counts[i] == (tuple(a.hand.won), tuple(sum(pts[c] for c in range(v.deck.size) if m >> c & 1)
                                                          for m in a.hand.won_cards))
            sensible._restore(h, saved)
    if vid in ("fivehundred", "fivehundred-six", "bridge", "whist", "euchre"):
        assert checked >= 20


@needs_numba
@pytest.mark.parametrize("vid", builtin_ids())
def test_a_batch_of_worlds_plays_as_each_world_alone_and_as_the_python_loop(vid, switch):
    """``greedy_batch`` plays the greedy playouts of many sampled worlds in one call (worlds of
    one position, and of positions before and during trick play mixed): each world's outcome
    keys (trick winners and cards won; tricks and card points won) are those ``greedy_each``
    gives it alone, and each candidate put back into its world leaves the hand (cards, tricks,
    winners, tricks and cards won, shown voids) as the bot's Python loop plays it."""
    v = load_variant(vid)
    rng = random.Random(7)
    switch(True)
    jobs = []
    for obs in _play_positions(v, deals=2):
        for _ in range(3):
            world = sensible.capped(obs.sample_world(rng))
            h = world.hand
            if not (sensible._quick(world) and sensible._plain(v.phases[h.phase], h.ctx)) or \
                    kernel.pack(v, h.ctx) is None:
                continue   # (the Python loop's alone)
            legal = world.legal_play_mask()
            jobs.append((world, h, sensible.trick_preferences(world), [c for c in range(v.deck.size) if legal >> c & 1]
                         + [-1]))
    if not jobs:
        return
    batch = kernel.greedy_batch(jobs)
    counted = kernel.greedy_batch(jobs, counts=True)
    pts = v.points_table
    for (world, h, prefs, cards), (keys, put), (counts, _put) in zip(jobs, batch, counted):
        alone = kernel.greedy_each(world, h, prefs, cards)
        assert alone is not None and alone[0] == keys
        assert kernel.greedy_each(world, h, prefs, cards, counts=True)[0] == counts
        saved = sensible._save(h)
        pre = len(h.trick_winners)
        for i, first in enumerate(cards):
            a = world.clone(light=True)
            switch(False)
            sensible._plain_tricks(a, a.hand, prefs, first)
            switch(True)
            put(i)
            assert _hand_state(h) == _hand_state(a.hand), (vid, first)
            assert keys[i] == (tuple(a.hand.trick_winners[pre:]), tuple(a.hand.won_cards))
            table = pts(h.ctx)
            assert counts[i] == (tuple(a.hand.won), tuple(sum(table[c] for c in range(v.deck.size) if m >> c & 1)
                                                          for m in a.hand.won_cards))
            sensible._restore(h, saved)
    if vid in ("fivehundred", "bridge", "whist", "euchre"):
        assert len(jobs) >= 12 and len({len(h.trick) for _w, h, _p, _c in jobs}) > 1   # (positions mixed)


@needs_numba
@pytest.mark.parametrize("vid", ["fivehundred", "fivehundred-six", "bidwhist"])
def test_the_bots_bid_outcomes_by_the_kernel_are_the_python_loops(vid, switch, monkeypatch):
    """The SensibleBot values a bid by playing each sampled world out: the tricks and card points
    each seat wins (and what else its score reads) are the same whether the kernel plays all the
    worlds of a decision in one call and returns only the counts, or the Python loop plays each
    world's tricks into its hand."""
    v = load_variant(vid)
    batches = []
    real = kernel.greedy_batch
    monkeypatch.setattr(kernel, "greedy_batch", lambda jobs, counts=False: batches.append(len(jobs)) or real(jobs, counts))
    st = State(v, seed=3)
    bot = SensibleBot(seed=1)
    obs = st.observation(st.to_move)
    spec = obs.phase_spec
    bids = [b for b in spec.bids if any(a.kind == "bid" and a.bid == b.text for a in obs.legal)][:6] \
        if hasattr(spec, "bids") else []
    assert bids, vid
    rng = random.Random(2)
    got: dict = {True: [], False: []}
    for _ in range(4):
        world = sensible.capped(obs.sample_world(rng))
        for on in (True, False):
            switch(on)
            pending = []
            for b in bids:
                w = world.clone(light=True)
                h = bot._contract(w, obs.seat, b)
                if h is not None:
                    pending.append((w, h, bot.preferences(w)))
            got[on] += sensible._outcomes(pending)
            if on:   # one by one, by the kernel too
                assert [bot._declare(world.clone(light=True), obs.seat, b) for b in bids if
                        bot._contract(world.clone(light=True), obs.seat, b) is not None] == got[on][-len(pending):]
    assert got[True] == got[False] and got[True], vid
    assert max(batches) >= 2   # (the kernel played several worlds in one call)


def _decisions(v, seed: int) -> list:
    """The actions of three or four SensibleBots over one hand."""
    st = State(v, seed=seed)
    bots = [SensibleBot(seed=seed + s, samples=4, bid_samples=6) for s in range(v.players)]
    out = []
    while st.hands_played == 0 and not st.is_over:
        seat = st.controller(st.to_move)
        a = bots[seat].act(st.observation(seat))
        out.append(a)
        st.apply(a)
    return out


@needs_numba
@pytest.mark.parametrize("vid", ["fivehundred", "fivehundred-six", "bridge", "euchre", "ohhell"])
def test_bots_decide_alike_with_and_without_the_kernel(vid, switch):
    """SensibleBots with the same seeds make the same bids and plays whether their playouts run in
    the kernel or in Python (equal strength by construction)."""
    v = load_variant(vid)
    for seed in (1, 2):
        switch(False)
        slow = _decisions(v, seed)
        switch(True)
        assert _decisions(v, seed) == slow, (vid, seed)


WIDE = """id: wide
name: Wide
players: 4
deck:
  suits: [S, H, D, C]
  ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", J, Q, K, A]
ranking:
  suit: "A K Q J 13 12 11 10 9 8 7 6 5 4 3 2"
phases:
  deal: {kind: deal, pattern: "8 8"}
  play: {kind: tricks, lead: eldest, must_trump: false}
scoring:
  each: "tricks"
match: {deals: 2}
"""


@needs_numba
def test_the_kernel_draws_from_the_callers_generator(switch):
    """The random kernel draws from the caller's ``random.Random`` itself: its uniforms are
    ``random()``'s to the bit (1,000 of them, across the regeneration of the generator's words)
    and leave the generator where those calls leave it; a generator of another class is not
    drawn from by the kernel (the Python loop plays the hand: the same deal)."""
    import numpy as np
    switch(True)
    one, two = random.Random(9), random.Random(9)
    got = np.empty(1000)
    kernel._jit.uniforms(kernel.generator(one), got)
    assert got.tolist() == [two.random() for _ in range(1000)]
    assert one.getstate() == two.getstate() and one.random() == two.random()

    class Mine(random.Random):
        pass
    assert kernel.generator(Mine(1)) is None
    v = load_variant("bridge")
    results = []
    for on, rng in ((True, Mine(4)), (False, random.Random(4))):
        switch(on)
        st = State(v, seed=4)
        playout.random_hand(st, rng)
        results.append((_outcome(st), rng.random()))
    assert results[0] == results[1]


@needs_numba
def test_a_deck_past_63_cards_is_played_by_the_python_loop(switch):
    """A card is a bit of the kernel's 64-bit masks: a deck of more than 63 cards is not packed,
    and its hands are played by the Python loop (the same deals as with the kernel off)."""
    v = load_text(WIDE)
    assert v.deck.size == 64 > kernel.MAX_CARDS
    switch(True)
    assert kernel.pack(v, next(iter(v.contexts.values()))) is None
    results = []
    for on in (True, False):
        switch(on)
        st, rng = State(v, seed=3), random.Random(3)
        playout.random_hand(st, rng)
        results.append(_outcome(st))
    assert results[0] == results[1]


def _run(code: str, env: dict) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, **env})
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


PLAY = """
import random, sys
{block}
from rulekit.engine import State, kernel
from rulekit.engine.playout import random_hand
from rulekit.bots import SensibleBot
from rulekit.variant import load_variant
import rulekit.cli.app
loaded = sys.modules.get('numba') is not None
st = State(load_variant('fivehundred'), seed=1)
random_hand(st, random.Random(1))
obs = st.observation(st.to_move)
SensibleBot(seed=1, samples=3, bid_samples=4).act(obs)
print(loaded, kernel.enabled(), sys.modules.get('numba') is not None, st.hands_played)
"""


def test_the_core_never_imports_numba_until_a_hand_is_played():
    """Importing rulekit (engine, bots, the command line) loads no numba; with ``RULEKIT_KERNEL=0``
    a random hand and a bot decision are played without it."""
    assert _run(PLAY.format(block=""), {"RULEKIT_KERNEL": "0"}) == "False False False 1"


def test_without_numba_the_python_loops_play():
    """When numba cannot be imported, the kernel reports itself off and the pure-Python loops
    play the hand and the bot's playouts."""
    block = "sys.modules['numba'] = None   # import numba fails"
    assert _run(PLAY.format(block=block), {"RULEKIT_KERNEL": ""}) == "False False False 1"


@needs_numba
def test_a_kernel_that_cannot_run_leaves_the_python_loops_in_charge():
    """numba installed but unable to run the kernel (here ``NUMBA_DISABLE_JIT=1``: its intrinsics
    need compiled code): a warning says the kernel is off, and the hand is played all the same."""
    out = subprocess.run([sys.executable, "-c", PLAY.format(block="")], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "RULEKIT_KERNEL": "1", "NUMBA_DISABLE_JIT": "1"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[1:] == ["False", "True", "1"]   # off, numba imported, the hand played
    assert "the compiled trick kernel is off" in out.stderr


@needs_numba
def test_with_numba_the_kernel_plays_after_the_warm_up():
    """With numba installed: ``RULEKIT_KERNEL=1`` plays with the kernel from the first hand; unset,
    the Python loops play the first :data:`~rulekit.engine.kernel.WARM` hands and playouts of the
    process (numba not even imported), then the kernel takes over."""
    assert _run(PLAY.format(block=""), {"RULEKIT_KERNEL": "1"}) == "False True True 1"
    assert _run(PLAY.format(block=""), {"RULEKIT_KERNEL": ""}) == "False False False 1"
    warm = "import rulekit.engine.kernel as k; k.WARM = 3"
    assert _run(PLAY.format(block=warm), {"RULEKIT_KERNEL": ""}) == "False True True 1"
