"""Random-playout speed of the generic engine, next to a hand-written Five Hundred.

Usage::

    python benchmarks/playout.py [--seconds 3] [--repeat 1] [--json] [--variants fivehundred,rams]

With ``--repeat N`` the rows are measured in N interleaved rounds (each row once per round)
and each keeps its best round, so that a change of load during the run touches all rows.

For each variant, complete deals are played with uniformly random legal decisions, one
process, one core, matches strung together (a new ``State`` when a match ends):

``api``   every decision through the public API: ``legal_actions()`` then ``apply(action)``
          (auction, widow exchange, trump naming, every card play).
``fast``  the auction and trump naming through ``legal_actions()``/``apply()``; the widow
          exchange as ``apply(Action.discard(deck, 3 random held cards))``; card play
          through ``legal_play_mask()`` and ``play_fast(card)``.
``fast/1-deal``  the same, but a fresh ``State(variant, seed=i)`` per deal (how single-deal
          simulations and ``bots.py --hands`` use the engine): adds the cost of ``State()``.
``choices``  every decision through the choices as numbers: ``legal_choices()`` then
          ``apply_choice(choice)`` (no action built).
``engine loop``  :func:`rulekit.engine.playout.random_hand` (what simulations use), with the
          compiled trick kernel loaded before any row is timed when numba is installed (a long
          simulation's steady state: ``kernel.enabled`` after ``kernel.WARM`` hands; unless
          ``RULEKIT_KERNEL=0``), so that its one-time load is in no row.
``openspiel``  where ``open_spiel`` is installed, the same game in OpenSpiel driven from Python
          (bridge, hearts, euchre, oh_hell, spades: random chance, calls and plays).

Random Five Hundred matches are very long (uniformly random bids fail, totals sink far
below zero; a match lasts ~2,000 deals on average), so ``api``/``fast`` also pay for a
match history that keeps growing (and for the garbage collector walking it).

and ``handwritten`` is ``benchmarks/handwritten500.py`` (plain per-card tuples and lists).
Rates are per second of this process's CPU time (``time.process_time``), which is less
disturbed than wall time when the machine is shared.  The ratio column is plays/s over the
hand-written Five Hundred's plays/s (for Rams it compares card-play throughput only: the
games differ).  Never used as a timed test (DESIGN.md "Speed where it matters").
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:  # an installed rulekit (pip install . or -e .) wins; else run from the checkout
    import rulekit.variants  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import handwritten500  # noqa: E402
from rulekit.engine import Action, State  # noqa: E402
from rulekit.errors import IllegalActionError  # noqa: E402
from rulekit.engine import kernel as _kernel  # noqa: E402
from rulekit.engine.playout import random_hand  # noqa: E402
from rulekit.variant import load_variant  # noqa: E402


def revision() -> str:
    """Short commit of the checkout, ``+dirty`` when rulekit/ or variants/ have local changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE.parent, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "rulekit", "variants"], cwd=HERE.parent,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return (head or "unknown") + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _clock():
    return time.process_time()


def _timed(variant, seconds: float, seed: int, step, one_deal: bool = False):
    """Matches ``State(variant, seed=i)`` played by ``step(state, rng)`` (one action; returns 1
    when it played a card, else 0) until ``seconds`` of CPU time have passed at a deal's end;
    ``(deals, plays, cpu seconds)``.

    :param one_deal: a fresh state for every deal instead of whole matches.
    """
    rng = random.Random(seed)
    deals = plays = 0
    match = 0
    start = _clock()
    end = start + seconds
    while True:
        st = State(variant, seed=match)
        match += 1
        done = 0
        while not st.is_over and not (one_deal and done):
            plays += step(st, rng)
            if st.hands_played != done:
                done = st.hands_played
                deals += 1
                if _clock() >= end:
                    return deals, plays, _clock() - start


def _api_step(st, rng) -> int:
    legal = st.legal_actions()
    a = legal[int(rng.random() * len(legal))]
    st.apply(a)
    return a.kind == "play"


def playout_api(variant, seconds: float, seed: int = 1):
    """Random playout through ``legal_actions()``/``apply()``; ``(deals, plays, cpu seconds)``."""
    return _timed(variant, seconds, seed, _api_step)


def _fast_step(st, rng) -> int:
    kind = st.phase_kind
    if kind == "tricks":
        mask = st.legal_play_mask()
        k = int(rng.random() * mask.bit_count())
        while k:                      # drop the k lowest set bits
            mask &= mask - 1
            k -= 1
        st.play_fast((mask & -mask).bit_length() - 1)
        return 1
    if kind == "widow_exchange":
        deck = st.variant.deck
        h = st.hand
        held = [c for c in range(deck.size) if h.hands[h.declarer] >> c & 1]
        m = 0
        for c in rng.sample(held, st.current_phase.discard):
            m |= 1 << c
        try:
            st.apply(Action.discard(deck, m))
        except IllegalActionError:   # a discard the rules restrict (Tarot: no king, no trump): pick a legal one
            legal = st.legal_actions()
            st.apply(legal[int(rng.random() * len(legal))])
        return 0
    legal = st.legal_actions()
    st.apply(legal[int(rng.random() * len(legal))])
    return 0


def playout_fast(variant, seconds: float, seed: int = 1, one_deal: bool = False):
    """Random calls via the API, random discards, plays via ``legal_play_mask``/``play_fast``.

    :param one_deal: a fresh ``State(variant, seed=i)`` for every deal (as simulations of
        single deals and ``benchmarks/bots.py --hands`` do) instead of whole matches.
    """
    return _timed(variant, seconds, seed, _fast_step, one_deal)


def _choice_step(st, rng) -> int:
    choices = st.legal_choices()
    played = st.kinds[st.hand.phase].role == "play"
    st.apply_choice(choices[int(rng.random() * len(choices))])
    return played


def playout_choices(variant, seconds: float, seed: int = 1):
    """Random playout through the choices as numbers (``legal_choices()``/``apply_choice()``)."""
    return _timed(variant, seconds, seed, _choice_step)


def playout_engine(variant, seconds: float, seed: int = 1):
    """Whole matches through the engine's own random playout loop
    (:func:`rulekit.engine.playout.random_hand`), as simulations use it."""
    rng = random.Random(seed)
    deals = plays = 0
    match = 0
    start = _clock()
    end = start + seconds
    while True:
        st = State(variant, seed=match)
        match += 1
        while not st.is_over:
            plays += random_hand(st, rng)
            deals += 1
            if deals % 16 == 0 and _clock() >= end:
                return deals, plays, _clock() - start


def memory_per_deal(deals: int = 5000, seed: int = 7) -> dict:
    """Bytes a match keeps per deal: one random Five Hundred match of ``deals`` deals
    (``fivehundred-long.yaml``: no end before then) through ``random_hand``, measured with
    ``tracemalloc`` after a full collection: what the live ``State`` holds (hand log, log,
    sheet), ``bytes_per_deal``, and with the variant's bounded score cache (up to 2,048
    outcomes, shared by every match of the process) as well, ``with_cache_per_deal``."""
    import gc
    import tracemalloc
    v = load_variant(str(HERE / "fivehundred-long.yaml"))
    rng = random.Random(seed)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    st = State(v, seed=seed, max_hands=deals)
    n = 0
    while not st.is_over:
        random_hand(st, rng)
        n += 1
    gc.collect()
    with_cache = tracemalloc.get_traced_memory()[0] - base
    memo = v.cache.get("scoring.memo")   # (rulekit.engine.scoring.MEMO)
    if memo is not None:
        memo.outcomes.clear()
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return {"deals": n, "bytes": used, "bytes_per_deal": used / n, "with_cache_per_deal": with_cache / n}


#: rulekit variant -> (OpenSpiel game, its parameters): the games issue 20 compares
OPENSPIEL = {"bridge": ("bridge", {"use_double_dummy_result": False}), "hearts": ("hearts", {}),
             "euchre": ("euchre", {}), "ohhell": ("oh_hell", {}), "spades": ("spades", {})}


def openspiel_bridge(seconds: float, seed: int = 1, variant: str = "bridge"):
    """OpenSpiel's game of ``variant`` (:data:`OPENSPIEL`; bridge's cards played out:
    ``use_double_dummy_result=False``) driven from Python, random chance and random calls and
    plays, or ``None`` when ``open_spiel`` is not installed (``pip install open_spiel``)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    name, params = OPENSPIEL[variant]
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    deals = plays = 0
    start = _clock()
    end = start + seconds
    while _clock() < end:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                s.apply_action(outs[int(rng.random() * len(outs))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.random() * len(legal))])
                plays += 1
        deals += 1
    return deals, plays, _clock() - start


def bot_speed(variant_id: str, deals: int, seed: int = 0) -> dict:
    """CPU milliseconds per decision of today's SensibleBot, in every seat of ``deals`` single
    hands (``bots.py --vs-old REV`` compares it with the bot of another revision, speed and
    strength, on the same deals)."""
    import bots
    t = n = 0
    for i in range(deals):
        r = bots.play_table((variant_id, seed, i, ("new",) * load_variant(variant_id).players, "", ""))
        t += r["cpu"]["new"][0]
        n += r["cpu"]["new"][1]
    return {"new": {"ms_per_decision": 1000 * t / max(n, 1), "decisions": n}}


def handwritten(seconds: float, seed: int = 1, record: bool = False):
    """The hand-written Five Hundred, timed on the same clock (``record``: keeping the match's
    record as the engine does, :func:`handwritten500.run`)."""
    return handwritten500.run(seconds, seed, record)


def measure(fn, repeat: int, *args):
    """Best of ``repeat`` runs (highest plays/s)."""
    best = None
    for _ in range(repeat):
        deals, plays, el = fn(*args)
        r = (deals / el, plays / el, deals, plays, el)
        if best is None or r[1] > best[1]:
            best = r
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Random-playout deals/s and plays/s (one core).")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement (default 3)")
    ap.add_argument("--repeat", type=int, default=1, help="take the best of N runs (default 1)")
    ap.add_argument("--variants", default="fivehundred,rams,bridge,whist", help="comma-separated variant ids")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--gc", choices=("default", "batch"), default="default",
                    help="garbage collector: Python's default thresholds, or `batch` "
                         "(gc.set_threshold(100000, 50, 100), as a simulation worker would set; "
                         "applied to every row, the hand-written one included)")
    ap.add_argument("--bot-deals", type=int, default=12,
                    help="hands played by SensibleBots for the time per decision (default 12; 0 skips)")
    ap.add_argument("--memory-deals", type=int, default=5000,
                    help="deals of the match whose memory per deal is measured (default 5000; 0 skips)")
    a = ap.parse_args(argv)
    # a long simulation's steady state: the compiled kernel (if numba is installed and
    # RULEKIT_KERNEL is not 0) loaded before any row is timed, as after kernel.WARM hands;
    # else its one-time load (about 0.9 CPU s) fell in whichever row played hand 20,001
    kernel_on = _kernel.enabled(_kernel.WARM + 1)
    if a.gc == "batch":
        import gc
        gc.set_threshold(100_000, 50, 100)

    # every row is measured once per round and the rounds interleave the rows, so that a change
    # in the machine's load during the run touches every row alike; each row keeps its best round
    jobs = [("fivehundred", "handwritten", handwritten, (a.seconds,)),
            ("fivehundred", "handwritten+record", handwritten, (a.seconds, 1, True))]
    for vid in a.variants.split(","):
        v = load_variant(vid.strip())
        jobs += [(v.id, "api", playout_api, (v, a.seconds)), (v.id, "fast", playout_fast, (v, a.seconds)),
                 (v.id, "choices", playout_choices, (v, a.seconds)),
                 (v.id, "engine loop", playout_engine, (v, a.seconds)),
                 (v.id, "fast/1-deal", playout_fast, (v, a.seconds, 1, True))]
    spiel_there = openspiel_bridge(0.01) is not None
    for vid in a.variants.split(","):
        if spiel_there and vid.strip() in OPENSPIEL:
            jobs.append((vid.strip(), "openspiel", openspiel_bridge, (a.seconds, 1, vid.strip())))
    best: dict = {}
    for _ in range(a.repeat):
        for vid, path, fn, args in jobs:
            r = measure(fn, 1, *args)
            if (vid, path) not in best or r[1] > best[vid, path][1]:
                best[vid, path] = r
    rows = [{"variant": vid, "path": path, "deals_per_s": best[vid, path][0], "plays_per_s": best[vid, path][1],
             "deals": best[vid, path][2], "plays": best[vid, path][3], "cpu_s": best[vid, path][4]}
            for vid, path, _fn, _args in jobs]
    base = rows[0]["plays_per_s"]
    hw_deals = rows[0]["deals_per_s"]
    for r in rows:
        r["ratio"] = r["plays_per_s"] / base
        r["deal_ratio"] = r["deals_per_s"] / hw_deals
    memory = memory_per_deal(a.memory_deals) if a.memory_deals else None
    row_bytes = None
    if a.memory_deals:
        import compare as compare_bench   # benchmarks/compare.py
        row_bytes = compare_bench.memory(1000, matches=0)["deals"]["traced_bytes_per_row"]
    bot = bot_speed("fivehundred", a.bot_deals) if a.bot_deals else None
    goals = []
    by = {(r["variant"], r["path"]): r for r in rows}
    if ("fivehundred", "engine loop") in by:
        goals.append(("issue 20: Five Hundred deals/s, engine loop (random_hand) / hand-written", 1.0,
                      by[("fivehundred", "engine loop")]["deal_ratio"]))
    if ("fivehundred", "choices") in by:
        goals.append(("issue 20: Five Hundred deals/s, legal_choices()/apply_choice() / hand-written", 0.7,
                      by[("fivehundred", "choices")]["deal_ratio"]))
    if ("fivehundred", "api") in by:
        goals.append(("issue 10: Five Hundred deals/s, legal_actions()/apply() / hand-written", 0.7,
                      by[("fivehundred", "api")]["deal_ratio"]))
    for vid in OPENSPIEL:
        if (vid, "openspiel") in by and (vid, "engine loop") in by:
            goals.append((f"issue 20: {vid} deals/s, engine loop / OpenSpiel from Python", 1.0 if vid == "bridge" else 0.8,
                          by[(vid, "engine loop")]["deals_per_s"] / by[(vid, "openspiel")]["deals_per_s"]))

    meta = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
            "python": platform.python_version(), "revision": revision(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "loadavg": os.getloadavg() if hasattr(os, "getloadavg") else None,
            "seconds": a.seconds, "repeat": a.repeat, "gc": a.gc, "kernel": kernel_on}
    if a.json:
        print(json.dumps({"meta": meta, "rows": rows, "memory": memory, "compare_row_bytes": row_bytes, "bot": bot,
                          "goals": [{"goal": g, "target": t, "ratio": x} for g, t, x in goals]}, indent=2))
        return 0
    load = f", load avg {meta['loadavg'][0]:.1f}" if meta["loadavg"] else ""
    print(f"random playout, one core, {a.seconds:g} CPU s per measurement, best of {a.repeat}, gc {a.gc}, "
          f"kernel {'on' if kernel_on else 'off'} (Python {meta['python']}, rulekit {meta['revision']}{load})")
    print(f"{'variant':<12} {'path':<18} {'deals/s':>10} {'plays/s':>12} {'ratio':>7}")
    for r in rows:
        print(f"{r['variant']:<12} {r['path']:<18} {r['deals_per_s']:>10,.0f} {r['plays_per_s']:>12,.0f} "
              f"{r['ratio']:>6.2f}x")
    print("ratio = plays/s / hand-written Five Hundred plays/s")
    if not spiel_there:
        print("openspiel: skipped (open_spiel is not installed: pip install open_spiel); issue 20's goals: "
              "bridge engine loop >= 1.0x OpenSpiel from Python, hearts, euchre, ohhell, spades >= 0.8x")
    if memory is not None:
        print(f"memory: {memory['bytes_per_deal']:,.0f} bytes per deal kept by one random Five Hundred match "
              f"of {memory['deals']:,} deals ({memory['with_cache_per_deal']:,.0f} with the score cache; tracemalloc)")
    if row_bytes is not None:
        print(f"memory: {row_bytes} bytes per compare row (a Five Hundred deal; issue 20's goal <= 512: "
              f"{'met' if row_bytes <= 512 else 'NOT met'}); benchmarks/compare.py --memory for matches")
    print("issue 20: time for `rulekit compare fivehundred fivehundred-must-trump` with the default players to "
          "detect must-trump (goal <= 30 s wall, 2 quiet cores): python benchmarks/compare.py --detect")
    if bot is not None:
        print(f"bot: SensibleBot {bot['new']['ms_per_decision']:.2f} ms per decision ({a.bot_deals} Five Hundred "
              f"hands, every seat; against another revision's: bots.py --vs-old REV)")
    for g, target, x in goals:
        print(f"goal: {g}: {x:.2f}x (target >= {target:.1f}x: {'met' if x >= target else 'NOT met'})")
    if ("fivehundred", "engine loop") in by and ("fivehundred", "api") in by:
        rec = by[("fivehundred", "handwritten+record")]["deals_per_s"]
        print(f"for reference (no goal): Five Hundred deals/s / the hand-written playout keeping the same record: "
              f"engine loop {by[('fivehundred', 'engine loop')]['deals_per_s'] / rec:.2f}x, "
              f"legal_actions()/apply() {by[('fivehundred', 'api')]['deals_per_s'] / rec:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
