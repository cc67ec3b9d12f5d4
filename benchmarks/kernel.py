"""The compiled trick kernel (rulekit.engine.kernel, ``pip install rulekit[fast]``) against the
pure-Python loops it replaces, in paired rounds, with the goals of issue 20.

Usage::

    python benchmarks/kernel.py [--seconds 2] [--rounds 3] [--variants fivehundred,bridge]
                                [--bot-deals 8] [--json] [--no-first-call]

Rows (each measured once per round with the kernel on and once with it off, the rounds
interleaved so that a change of load touches both alike; the ratio is the best round's):

``random deals``  whole random deals through :func:`rulekit.engine.playout.random_hand`
                  (auction, exchange, trump naming, the tricks, scoring, the next deal), of
                  which the kernel plays only the plain trick play: the row also prints the
                  share of hands whose tricks it plays and the share of the Python loops' time
                  those tricks take, which bounds the ratio (Amdahl: 1 / (1 - share)).
``trick play``    the random playout's plain trick loop alone (``playout._plain_tricks``) from
                  the first lead of seeded deals (lead rules included: Hearts, Spades): what the
                  kernel replaces.  The row also prints how long the compiled loop itself takes
                  of a hand's kernel time (the rest is Python: the hand's state into an array,
                  the results back into the hand and its record), and the ratio a loop taking
                  no time would give: what bounds the row.
``greedy playouts`` the SensibleBot's valuation of sampled worlds: from the first lead of the
                  same deals, every legal first card played out by the greedy policy, the
                  outcome's key (trick winners, cards won) read; the Python loop
                  (``sensible._plain_tricks``) plays each on the world's hand and puts it back,
                  the kernel plays ``--batch`` worlds' candidates in one call
                  (``kernel.greedy_batch``: 3, as the bot's first worlds of a card decision);
                  per second of playouts (one candidate of one world).
``bot decisions`` SensibleBots in every seat of ``--bot-deals`` Five Hundred hands, CPU time
                  of ``act`` per decision; the decisions are checked equal (the same
                  strength by construction).  The paired strength interval over 150 deals
                  against another revision is ``bots.py --vs-old main --goal 2``.

Then the first-call costs, each in a fresh process: importing numba and loading the kernel
(its functions run once on a made-up hand: the machine code cached on disk is loaded, or
compiled when nothing is cached: a fresh ``NUMBA_CACHE_DIR``, what a machine pays once), then
the first random hand and the first bot decision.  Rates are per CPU
second of this process (``time.process_time``).  Never used as a timed test.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:  # an installed rulekit wins; else run from the checkout
    import rulekit.variants  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent))

from rulekit.bots import SensibleBot  # noqa: E402
from rulekit.engine import State, kernel, playout  # noqa: E402
from rulekit.engine.phases import tricks as _tricks  # noqa: E402
from rulekit.engine.tables import action_tables  # noqa: E402
from rulekit.variant import load_variant  # noqa: E402

GOALS = {"random deals": 10.0, "trick play": 10.0, "greedy playouts": 10.0, "bot decisions": 2.0}


def random_deals(v, seconds: float, seed: int = 1) -> float:
    """Random deals per CPU second through ``random_hand``, matches strung together."""
    rng = random.Random(seed)
    deals = match = 0
    start = time.process_time()
    while True:
        st = State(v, seed=match)
        match += 1
        while not st.is_over:
            playout.random_hand(st, rng)
            deals += 1
            if deals % 16 == 0 and time.process_time() - start >= seconds:
                return deals / (time.process_time() - start)


def trick_share(v, seconds: float) -> tuple:
    """``(share, played)``: the share of the Python loops' random-deal time (CPU) spent in the
    plain trick loop (``playout._plain_tricks``, what the kernel replaces), and the share of
    hands whose trick play the kernel then plays, over 200 hands (the others: the per-card path
    of lead restrictions, claims, stocks...; or no trick play, a hand all passed).
    1 / (1 - share) bounds the ``random deals`` ratio, however fast the kernel is."""
    real_loop, real_kernel = playout._plain_tricks, kernel.random_tricks
    spent = [0.0]
    played = [0, 0]

    def timed(*args):
        t = time.process_time()
        try:
            return real_loop(*args)
        finally:
            spent[0] += time.process_time() - t

    def counted(*args):
        got = real_kernel(*args)
        hit[0] = hit[0] or got is not None
        return got
    hit = [False]
    try:
        playout._plain_tricks = timed
        kernel.use(False)
        t0 = time.process_time()
        random_deals(v, seconds)
        share = spent[0] / (time.process_time() - t0)
        playout._plain_tricks = real_loop
        kernel.random_tricks = counted
        kernel.use(True)
        rng = random.Random(1)
        for seed in range(50):
            st = State(v, seed=seed)
            for _ in range(4):
                if st.is_over:
                    break
                hit[0] = False
                playout.random_hand(st, rng)
                played[0] += hit[0]
                played[1] += 1
    finally:
        playout._plain_tricks, kernel.random_tricks = real_loop, real_kernel
    return share, played[0] / max(played[1], 1)


def trick_starts(v, count: int = 300) -> list:
    """States at the first lead of seeded random deals whose trick play is plain
    (:func:`~rulekit.engine.phases.tricks.plain_rules`)."""
    out = []
    seed = 0
    while len(out) < count and seed < 20 * count:
        st = State(v, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while st.kind is not None and st.kind.name != _tricks.KIND.name:
            legal = st.legal_actions()
            st.apply(legal[int(rng.random() * len(legal))])
        h = st.hand
        if st.kind is not None and _tricks.plain_rules(v.phases[h.phase], h.ctx, h.hands):
            out.append(st)
    return out


def trick_play(v, starts: list, seconds: float) -> float:
    """Hands of plain trick play per CPU second (``playout._plain_tricks`` from each start)."""
    pairs = action_tables(v)["play_pairs"]
    rng = random.Random(3)
    hands = 0
    spent = 0.0
    while spent < seconds:
        copies = [s.clone() for s in starts]   # (outside the clock)
        t = time.process_time()
        for s in copies:
            h = s.hand
            playout._plain_tricks(s, h, h.ctx, rng.random, h.choices.append, pairs, rng)
        spent += time.process_time() - t
        hands += len(copies)
    return hands / spent


def compiled_share(v, starts: list, rounds: int = 30) -> float:
    """The share of the kernel's time per hand of :func:`trick_play` spent in the compiled loop
    itself (``kernel_jit.random_tricks``, timed around each call; the rest is the Python
    around it): the best pass of ``rounds`` over the starts for each (wall clock: a pass is
    short, and a loaded machine stretches some passes; the best of each is the least disturbed)."""
    jit = kernel._jit
    real = jit.random_tricks
    inner = [0.0]

    def timed(*args):
        t = time.perf_counter()
        try:
            return real(*args)
        finally:
            inner[0] += time.perf_counter() - t
    pairs = action_tables(v)["play_pairs"]
    rng = random.Random(3)
    best_inner = best_all = float("inf")
    kernel.use(True)
    jit.random_tricks = timed
    try:
        for _ in range(rounds):
            copies = [s.clone() for s in starts]
            inner[0] = 0.0
            t = time.perf_counter()
            for s in copies:
                h = s.hand
                playout._plain_tricks(s, h, h.ctx, rng.random, h.choices.append, pairs, rng)
            best_all = min(best_all, time.perf_counter() - t)
            best_inner = min(best_inner, inner[0])
    finally:
        jit.random_tricks = real
    return best_inner / best_all


def greedy_playouts(v, starts: list, seconds: float, batch: int) -> float:
    """Greedy playouts per CPU second of the SensibleBot's world valuation from each start: every
    legal first card, the outcome's key read (by ``kernel.greedy_batch`` over ``batch`` worlds at
    once when the kernel is on, else by the Python loop, each card played and put back)."""
    from rulekit.bots import sensible
    jobs = []
    for st in starts:
        w = st.clone()
        legal = w.legal_play_mask()
        jobs.append((w, w.hand, sensible.trick_preferences(w), [c for c in range(v.deck.size) if legal >> c & 1]))
    on = kernel.enabled()
    plays = 0
    spent = 0.0
    while spent < seconds:
        t = time.process_time()
        if on:
            for i in range(0, len(jobs), batch):
                for keys, _put in kernel.greedy_batch(jobs[i:i + batch]):
                    plays += len(keys)
        else:
            for w, h, prefs, cards in jobs:
                saved = sensible._save(h)
                for c in cards:
                    sensible._plain_tricks(w, h, prefs, c)
                    (tuple(h.trick_winners), tuple(h.won_cards))   # (the key the bot reads)
                    sensible._restore(h, saved)
                plays += len(cards)
        spent += time.process_time() - t
    return plays / spent


def bot_decisions(v, deals: int) -> tuple:
    """``(ms per decision, actions)`` of SensibleBots in every seat of ``deals`` hands."""
    t = 0.0
    n = 0
    acts = []
    for seed in range(deals):
        st = State(v, seed=seed)
        bots = [SensibleBot(seed=seed * 7 + s) for s in range(v.players)]
        while st.hands_played == 0 and not st.is_over:
            seat = st.controller(st.to_move)
            obs = st.observation(seat)
            t0 = time.process_time()
            a = bots[seat].act(obs)
            t += time.process_time() - t0
            n += 1
            acts.append(a)
            st.apply(a)
    return 1000 * t / max(n, 1), acts


FIRST = """
import time, random
t0 = time.perf_counter()
from rulekit.engine import State, kernel
from rulekit.engine.playout import random_hand
from rulekit.variant import load_variant
v = load_variant('fivehundred')
t1 = time.perf_counter()
kernel.use(True)
t2 = time.perf_counter()
random_hand(State(v, seed=1), random.Random(1))
t3 = time.perf_counter()
from rulekit.bots.sensible import SensibleBot
st = State(v, seed=2)
SensibleBot(seed=1).act(st.observation(st.to_move))
t4 = time.perf_counter()
print(t2 - t1, t3 - t2, t4 - t3, kernel.enabled())
"""


def first_call(fresh: bool) -> dict:
    """Wall seconds, in a new process: importing numba and loading the kernel, then the first
    random hand and the first bot decision; ``fresh``: with an empty numba cache."""
    env = dict(os.environ, RULEKIT_KERNEL="")
    with tempfile.TemporaryDirectory() as tmp:
        if fresh:
            env["NUMBA_CACHE_DIR"] = tmp
        out = subprocess.run([sys.executable, "-c", FIRST], capture_output=True, text=True, env=env,
                             cwd=str(HERE.parent), timeout=600)
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1:]}
    imp, hand, bot, on = out.stdout.split()
    return {"import_s": float(imp), "first_hand_s": float(hand), "first_bot_decision_s": float(bot),
            "kernel": on == "True"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="The compiled trick kernel against the Python loops.")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement (default 2)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds, best kept (default 3)")
    ap.add_argument("--variants", default="fivehundred,bridge", help="comma-separated variant ids")
    ap.add_argument("--bot-deals", type=int, default=8, help="Five Hundred hands of bot play (default 8; 0 skips)")
    ap.add_argument("--batch", type=int, default=3, help="worlds per kernel call in the greedy playouts row (default 3)")
    ap.add_argument("--no-first-call", action="store_true", help="skip the first-call costs")
    ap.add_argument("--json", action="store_true", help="print JSON")
    a = ap.parse_args(argv)
    kernel.use(True)
    if not kernel.enabled():
        print("the kernel is not available (pip install rulekit[fast]: numba)")
        return 1
    jobs = []
    shares: dict = {}
    compiled: dict = {}
    for vid in a.variants.split(","):
        v = load_variant(vid.strip())
        shares[v.id] = trick_share(v, a.seconds)
        starts = trick_starts(v)
        compiled[v.id] = compiled_share(v, starts) if starts else None
        jobs.append((v.id, "random deals", lambda v=v: random_deals(v, a.seconds)))
        if starts:
            jobs.append((v.id, "trick play", lambda v=v, s=starts: trick_play(v, s, a.seconds)))
            jobs.append((v.id, "greedy playouts", lambda v=v, s=starts[:60]: greedy_playouts(v, s, a.seconds, a.batch)))
        playout.random_hand(State(v, seed=0), random.Random(0))   # (tables packed, code loaded: off the clock)
    best: dict = {}
    for _ in range(a.rounds):
        for vid, row, fn in jobs:
            for on in (False, True):
                kernel.use(on)
                r = fn()
                key = (vid, row, on)
                best[key] = max(best.get(key, 0.0), r)
    rows = [{"variant": vid, "row": row, "python": best[vid, row, False], "kernel": best[vid, row, True],
             "ratio": best[vid, row, True] / best[vid, row, False], "goal": GOALS[row], "unit": "per s"}
            for vid, row, _fn in jobs]
    for r in rows:
        if r["row"] == "random deals":
            share, played = shares[r["variant"]]
            r.update(trick_share=share, ceiling=1 / max(1 - share, 1e-9), kernel_hands=played)
        if r["row"] == "trick play" and compiled.get(r["variant"]) is not None:
            c = compiled[r["variant"]]   # (the ratio if the compiled loop took no time: the Python around it)
            r.update(compiled_share=c, glue_ceiling=r["ratio"] / max(1 - c, 1e-9))
    if a.bot_deals:
        v = load_variant("fivehundred")
        kernel.use(True)
        bot_decisions(v, 1)   # (packed tables, loaded code)
        ms: dict = {False: [], True: []}
        same = True
        for _ in range(a.rounds):
            got = {}
            for on in (False, True):
                kernel.use(on)
                t, acts = bot_decisions(v, a.bot_deals)
                ms[on].append(t)
                got[on] = acts
            same = same and got[False] == got[True]
        rows.append({"variant": "fivehundred", "row": "bot decisions", "python": min(ms[False]),
                     "kernel": min(ms[True]), "ratio": min(ms[False]) / min(ms[True]), "goal": GOALS["bot decisions"],
                     "unit": "ms", "same_decisions": same})
    kernel.use(None)
    first = {} if a.no_first_call else {"cached": first_call(False), "fresh cache": first_call(True)}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if a.json:
        print(json.dumps({"rows": rows, "first_call": first, "loadavg": load, "seconds": a.seconds,
                          "rounds": a.rounds}, indent=2))
        return 0
    print(f"compiled trick kernel vs the Python loops, {a.seconds:g} CPU s per measurement, best of {a.rounds} "
          f"interleaved rounds{'' if load is None else f', load avg {load:.1f}'}")
    print(f"{'variant':<12} {'row':<15} {'python':>12} {'kernel':>12} {'ratio':>7}  goal")
    for r in rows:
        unit = "ms/decision" if r["unit"] == "ms" else "/s"
        print(f"{r['variant']:<12} {r['row']:<15} {r['python']:>12,.2f} "
              f"{r['kernel']:>12,.2f} {r['ratio']:>6.2f}x  >= {r['goal']:g}x: "
              f"{'met' if r['ratio'] >= r['goal'] else 'NOT met'} ({unit})"
              + (f"; same decisions: {'yes' if r['same_decisions'] else 'NO'}" if "same_decisions" in r else "")
              + (f"; the kernel plays the tricks of {r['kernel_hands']:.0%} of the hands, {r['trick_share']:.0%} "
                 f"of the Python time: at most {r['ceiling']:.2f}x" if "ceiling" in r else "")
              + (f"; the compiled loop is {r['compiled_share']:.0%} of the kernel's time a hand, the rest "
                 f"Python around it: at most {r['glue_ceiling']:.1f}x with a loop of no time"
                 if "compiled_share" in r else ""))
    for name, f in first.items():
        if "error" in f:
            print(f"first call ({name}): failed: {f['error']}")
            continue
        print(f"first call ({name} numba cache, wall): import numba and load the kernel (each function run once) "
              f"{f['import_s']:.2f} s, then the first random hand {f['first_hand_s']:.3f} s, the first bot "
              f"decision {f['first_bot_decision_s']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
