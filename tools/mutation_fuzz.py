"""Seeded mutation fuzz of the shipped variant files (issue 12 case 10, issue 13).

Each case takes one shipped file, applies one random change (delete a key, a
number made a float, negative, zero or huge, a string swapped for another of the
file, a boolean flipped), and then either

* ``validate`` refuses it with located messages (``FILE:LINE:COL``), or
* it validates and plays with random legal moves to its end within a hand cap.

Anything else is a failure: a traceback, a message without a position, an
exception in play, or a match still running after the cap.

    python tools/mutation_fuzz.py --cases 2000 --seed 1

prints the counts ``refused``, ``played``, ``failures`` and each failure.
"""
from __future__ import annotations

import argparse
import copy
import random
import sys
import tempfile
import traceback
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "variants").glob("*.yaml"))
#: Actions allowed per hand before a match counts as endless (a hand has at most a few hundred).
ACTIONS_PER_HAND = 2000


def _paths(v, path=()):
    """Every (path, value) of a document, parents before children."""
    yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


def mutate(doc: dict, rnd: random.Random) -> tuple[dict, str]:
    """One random single change of ``doc``; returns the new document and what changed."""
    doc = copy.deepcopy(doc)
    paths = [(p, v) for p, v in _paths(doc) if p]
    strings = sorted({v for _p, v in paths if isinstance(v, str)})
    path, value = rnd.choice(paths)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    where = ".".join(map(str, path))
    if isinstance(value, bool):
        choices = ["delete", "flip"]
    elif isinstance(value, int):
        choices = ["delete", "float", "negative", "zero", "huge", "plus_one"]
    elif isinstance(value, str):
        choices = ["delete", "swap", "number"]
    else:
        choices = ["delete"]
    how = rnd.choice(choices)
    if how == "delete":
        del parent[key]
    elif how == "flip":
        parent[key] = not value
    elif how == "float":
        parent[key] = float(value)
    elif how == "negative":
        parent[key] = -abs(value) - 1
    elif how == "zero":
        parent[key] = 0
    elif how == "huge":
        parent[key] = 10 ** rnd.choice((6, 9, 13, 25))
    elif how == "plus_one":
        parent[key] = value + 1
    elif how == "swap":
        parent[key] = rnd.choice(strings)
    elif how == "number":
        parent[key] = rnd.choice(("0", "1000000000000 * 1000000000000", "1 / 0", "true", "-1"))
    return doc, f"{how} {where}"


def run_case(source: Path, doc: dict, seed: int, folder: Path, max_hands: int) -> tuple[str, str]:
    """``("refused" | "played" | "failure", detail)`` for one mutated document."""
    from rulekit.engine.state import State
    from rulekit.errors import RulekitError
    from rulekit.variant import check_file, load_variant

    f = folder / source.name
    f.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    try:
        found = check_file(str(f))
    except Exception:
        return "failure", "validate raised:\n" + traceback.format_exc(limit=3)
    if found:
        bad = [d for d in found if d.line < 1 or d.column < 1 or not d.message]
        return ("failure", f"unlocated message: {bad[0]}") if bad else ("refused", str(found[0]))
    try:
        v = load_variant(str(f))
        s = State(v, seed=seed, max_hands=max_hands)
        rnd = random.Random(seed)
        for _ in range(ACTIONS_PER_HAND * max_hands):
            if s.is_over:
                return "played", s.end_reason
            s.apply(rnd.choice(s.legal_actions()))
        return "failure", f"no end after {ACTIONS_PER_HAND * max_hands} actions ({s.hands_played} hands)"
    except RulekitError as e:
        return "failure", f"{type(e).__name__} in play: {e}"
    except Exception:
        return "failure", "play raised:\n" + traceback.format_exc(limit=4)


def fuzz(cases: int, seed: int, max_hands: int = 200) -> dict:
    """Run ``cases`` mutations from ``seed``; returns counts and the failures (``(change, detail)``)."""
    rnd = random.Random(seed)
    docs = {p: yaml.safe_load(p.read_text()) for p in VARIANTS}
    out = {"refused": 0, "played": 0, "failures": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(cases):
            source = rnd.choice(VARIANTS)
            doc, change = mutate(docs[source], rnd)
            kind, detail = run_case(source, doc, seed + i, folder, max_hands)
            if kind == "failure":
                out["failures"].append((f"{source.name}: {change}", detail))
            else:
                out[kind] += 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-hands", type=int, default=200)
    a = ap.parse_args(argv)
    r = fuzz(a.cases, a.seed, a.max_hands)
    for change, detail in r["failures"]:
        print(f"FAILURE {change}\n  {detail}")
    print(f"cases: {a.cases}  refused: {r['refused']}  played: {r['played']}  failures: {len(r['failures'])}")
    return 1 if r["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
