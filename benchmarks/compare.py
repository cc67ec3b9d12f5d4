"""Speed of ``rulekit compare``: paired deals per second on 1 and 2 worker processes.

Usage::

    python benchmarks/compare.py [--deals 10000] [--sensible-deals 6] [--jobs 1,2] [--json]

Compares ``fivehundred`` with ``fivehundred-must-trump`` on ``--deals`` paired deals with
random players in every seat (each paired deal is two deals played: one per variant), then
on ``--sensible-deals`` with SensibleBots in every seat, once per worker count.  Prints
wall time, paired deals per second, the speed-up over one worker, the CPU time of this
process and its workers (less disturbed by other load than wall time), and checks that every
worker count gave the same numbers.  The goal of issue 9: 10^4 paired deals with random
players in under 10 s on 2 cores.  Wall time on a shared machine is noisy: run it alone.
Never used as a timed test.
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

from rulekit.sim.compare import compare  # noqa: E402

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


def main() -> None:
    ap = argparse.ArgumentParser(description="Paired deals per second of rulekit compare.")
    ap.add_argument("--deals", type=int, default=10_000, help="paired deals with random players")
    ap.add_argument("--sensible-deals", type=int, default=6, help="paired deals with SensibleBots (slow)")
    ap.add_argument("--jobs", default="1,2", help="worker counts, comma separated")
    ap.add_argument("--json", action="store_true", help="print JSON")
    a = ap.parse_args()
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
