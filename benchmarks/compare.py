"""Speed of ``rulekit compare``: paired deals per second on 1 and 2 worker processes.

Usage::

    python benchmarks/compare.py [--deals 10000] [--sensible-deals 6] [--jobs 1,2] [--json]
    python benchmarks/compare.py --detect [--jobs 2]     # issue 20's target: time to detect must-trump
    python benchmarks/compare.py --memory                 # bytes a compare row keeps

Compares ``fivehundred`` with ``fivehundred-must-trump`` on ``--deals`` paired deals with
random players in every seat (each paired deal is two deals played: one per variant), then
on ``--sensible-deals`` with SensibleBots in every seat, once per worker count.  Prints
wall time, paired deals per second, the speed-up over one worker, the CPU time of this
process and its workers (less disturbed by other load than wall time), and checks that every
worker count gave the same numbers.  The goal of issue 9: 10^4 paired deals with random
players in under 10 s on 2 cores.  Wall time on a shared machine is noisy: run it alone.
Never used as a timed test.

``--detect``: the default players (SensibleBots) play paired deals in order, as ``rulekit
compare fivehundred fivehundred-must-trump`` does (the same seeds, chunks and rows), on ``--jobs``
worker processes; after every ``--step`` deals the paired comparison of "declarer makes the
contract" is made, and the run stops when it is detectable (McNemar's exact p < 0.05 and
Newcombe's 95 % interval excluding 0, as ``compare`` marks it).  Prints the deals and the wall
and CPU time it took, against issue 20's goal (<= 30 s wall on a quiet 2-core machine).

``--memory``: bytes per row of a comparison's rows (its arrays, ``Rows.nbytes``, and tracemalloc's
count of building them), against issue 20's goal of 0.5 KB.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

try:  # an installed rulekit (pip install . or -e .) wins; else run from the checkout
    import rulekit.variants  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulekit.sim.compare import ALPHA, DEFAULT_BOTS, Task, compare, paired, run_chunk  # noqa: E402
from rulekit.sim.rows import Rows  # noqa: E402

PAIR = ["fivehundred", "fivehundred-must-trump"]


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(n: int, bots: str, jobs: int, seed: int = 1) -> dict:
    """One comparison; its wall and CPU time, rates and a fingerprint of its numbers."""
    t0, c0 = time.perf_counter(), _cpu()
    r = compare(PAIR, n=n, bots=[bots], seed=seed, jobs=jobs)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    numbers = [(d.metric.key, d.diff, d.lo, d.hi) for d in r.differences]
    return {"bots": bots, "deals": n, "jobs": jobs, "wall_s": round(wall, 3), "paired_deals_per_s": round(n / wall, 1),
            "cpu_s": round(cpu, 3), "paired_deals_per_cpu_s": round(n / cpu, 1),
            "numbers": numbers}


def detect(jobs: int, step: int, limit: int, seed: int = 1) -> dict:
    """Paired deals with the default players until must-trump's effect on the declarer's success
    is detectable (or ``limit`` deals); the deals, wall and CPU seconds, and the difference."""
    from concurrent.futures import ProcessPoolExecutor
    t0, c0 = time.perf_counter(), _cpu()
    chunk = 4   # compare's chunk for thinking players
    made: dict = {PAIR[0]: {}, PAIR[1]: {}}
    done = 0
    found = None
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending = {}
        nxt = 0

        def submit() -> None:
            nonlocal nxt
            task = Task(variants=PAIR, labels=PAIR, bots=[DEFAULT_BOTS] * 3, seed=seed, unit="deals",
                        max_hands=1, players=None, start=nxt, stop=nxt + chunk)
            pending[pool.submit(run_chunk, task)] = nxt
            nxt += chunk
        for _ in range(jobs * 2):
            submit()
        while pending and found is None:
            f = next(iter(pending))
            for g in list(pending):   # the oldest chunk first: deals are read in order
                if pending[g] < pending[f]:
                    f = g
            start = pending.pop(f)
            for r in f.result():
                made[r["variant"]][r["index"]] = r["made"]
            done = start + chunk
            if done % step == 0 or done >= limit:
                st = paired([made[PAIR[0]][i] for i in range(done)], [made[PAIR[1]][i] for i in range(done)])
                if (st.p is not None and st.p < ALPHA and st.lo is not None and st.hi is not None
                        and (st.lo > 0 or st.hi < 0)):
                    found = st
                elif done >= limit:
                    break
            if nxt < limit:
                submit()
        for g in pending:
            g.cancel()
    wall, cpu = time.perf_counter() - t0, _cpu() - c0   # (after the pool's end: its workers' CPU counted)
    st = found or paired([made[PAIR[0]][i] for i in range(done)], [made[PAIR[1]][i] for i in range(done)])
    return {"deals": done, "detected": found is not None, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "made_a": st.mean_a, "made_b": st.mean_b, "diff": st.diff, "ci95": [st.lo, st.hi], "p": st.p, "pairs": st.n, "jobs": jobs}


def memory(n: int = 2000, matches: int = 100) -> dict:
    """Bytes per row of a comparison of ``n`` random paired deals and of ``matches`` random
    matches (none: 0)."""
    import tracemalloc
    out = {}
    for unit, k in (("deals", n), ("matches", matches)):
        if not k:
            continue
        r = compare(PAIR, n=k, unit=unit, bots=["random"], seed=1, jobs=1)
        rows = list(r.rows)
        tracemalloc.start()
        kept = Rows(rows)
        traced, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        tracemalloc.start()
        dicts = [dict(x) for x in rows]   # the values shared: what a list of rows adds
        as_dicts, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out[unit] = {"rows": len(kept), "fields": len(kept.fields), "array_bytes_per_row": round(kept.nbytes() / len(kept)),
                     "traced_bytes_per_row": round(traced / len(kept)),
                     "as_dicts_bytes_per_row": round(as_dicts / len(dicts))}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description="Paired deals per second of rulekit compare.")
    ap.add_argument("--deals", type=int, default=10_000, help="paired deals with random players")
    ap.add_argument("--sensible-deals", type=int, default=6, help="paired deals with SensibleBots (slow)")
    ap.add_argument("--jobs", default="1,2", help="worker counts, comma separated")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--detect", action="store_true", help="time to detect must-trump with the default players")
    ap.add_argument("--step", type=int, default=20, help="with --detect: deals between two looks")
    ap.add_argument("--limit", type=int, default=3000, help="with --detect: give up after this many deals")
    ap.add_argument("--memory", action="store_true", help="bytes per compare row")
    a = ap.parse_args()
    if a.memory:
        m = memory()
        if a.json:
            print(json.dumps(m, indent=2))
            return
        for unit, f in m.items():
            print(f"compare row ({unit}, {f['fields']} fields): {f['traced_bytes_per_row']} bytes per row kept "
                  f"(arrays {f['array_bytes_per_row']}; as dicts it would be {f['as_dicts_bytes_per_row']} more)"
                  f"  goal <= 512: {'met' if f['traced_bytes_per_row'] <= 512 else 'NOT met'}")
        return
    if a.detect:
        jobs = int(a.jobs.split(",")[-1])
        d = detect(jobs, a.step, a.limit)
        if a.json:
            print(json.dumps(d, indent=2))
            return
        lo, hi = d["ci95"]
        said = (f"detected after {d['deals']} paired deals" if d["detected"]
                else f"NOT detected in {d['deals']} paired deals")
        print(f"{PAIR[0]} vs {PAIR[1]}, default players ({DEFAULT_BOTS}), {jobs} workers: must-trump's effect on "
              f"the declarer's success {said}: {100 * (d['made_a'] or 0):.1f}% -> {100 * (d['made_b'] or 0):.1f}%, "
              f"{100 * (d['diff'] or 0):+.1f} points (95% CI "
              f"{100 * (lo or 0):+.1f}..{100 * (hi or 0):+.1f}, p {d['p']:.3g}, {d['pairs']} pairs with a contract)")
        print(f"  wall {d['wall_s']:.1f} s, CPU {d['cpu_s']:.1f} s  goal <= 30 s wall on a quiet 2-core machine: "
              f"{'met' if d['detected'] and d['wall_s'] <= 30 else 'NOT met'} (wall time here: "
              f"{os.cpu_count()} CPUs seen, shared with other work)")
        return
    jobs = [int(j) for j in a.jobs.split(",")]
    results = []
    for bots, n in (("random", a.deals), ("sensible", a.sensible_deals)):
        if n <= 0:
            continue
        runs = [run(n, bots, j) for j in jobs]
        same = all(r["numbers"] == runs[0]["numbers"] for r in runs)
        for r in runs:
            r["speedup"] = round(runs[0]["wall_s"] / r["wall_s"], 2)
            r["same_numbers"] = same
            results.append(r)
    if a.json:
        print(json.dumps([{k: v for k, v in r.items() if k != "numbers"} for r in results], indent=2))
        return
    print(f"{PAIR[0]} vs {PAIR[1]}; {os.cpu_count()} CPUs seen; wall time (noisy on a shared machine)")
    for r in results:
        print(f"  {r['bots']:8} {r['deals']:>6} paired deals, {r['jobs']} worker{'s' if r['jobs'] > 1 else ' '}: "
              f"{r['wall_s']:7.2f} s  {r['paired_deals_per_s']:8.1f} paired deals/s  x{r['speedup']:.2f}  "
              f"(CPU {r['cpu_s']:.2f} s: {r['paired_deals_per_cpu_s']:.0f} paired deals per CPU-second)"
              f"{'' if r['same_numbers'] else '  NUMBERS DIFFER'}")


if __name__ == "__main__":
    main()
