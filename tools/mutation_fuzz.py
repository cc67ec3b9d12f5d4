"""Seeded mutation fuzz of the shipped variant files and of the scorepad (issues 12, 13, 25).

Each case takes a shipped file (every one in turn) and one of three tests:

* **variant**: one random change of the file (delete a key, a number made a float, negative,
  zero or huge, a string swapped for another of the file, made very long or given control and
  bidi characters, a mapping given thousands of keys, a boolean flipped); then either
  ``validate`` refuses it with located messages (``FILE:LINE:COL``), or it validates and plays
  with random legal moves to its end within a hand cap, and its record saves and replays.
* **answers**: a scorepad of the variant fed answers drawn from its questions' words, seat names,
  numbers and junk (empty, huge, control characters); each is taken or refused (``FactError``),
  each finished hand is written, and the pad's file reads back to the same sheet.
* **pad file**: a saved pad with one random change, read back: it loads or is refused with a
  message (``PadFileError`` / ``FactError``).

Anything else is a failure: a traceback (an exception other than a refusal), a message without a
position, a match still running after the cap, or a hang (a case past ``--case-seconds``).

    python tools/mutation_fuzz.py --cases 10000 --seed 1
    python tools/mutation_fuzz.py --seconds 60

prints the counts per outcome, the tracebacks and hangs, and each failure.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "variants").glob("*.yaml"))
#: Actions allowed per hand before a match counts as endless (a hand has at most a few hundred).
ACTIONS_PER_HAND = 2000
#: Seconds one case may take before it counts as a hang.
CASE_SECONDS = 120.0
#: Answers one scorepad case types before it stops (each is taken or refused).
PAD_ANSWERS = 300
#: Strings put into a file: control sequences (clear screen, OSC 52, OSC 8), bidi overrides.
HOSTILE_TEXTS = ("\x1b[2J\x1b]52;c;b3duZWQ=\x07", "\u202eevil\u2066", "\x9b2J\x00\x7f", "")


class Hang(Exception):
    """A case ran past its time."""


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
        choices = ["delete", "swap", "number", "long", "hostile"]
    elif isinstance(value, dict):
        choices = ["delete", "many"]
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
    elif how == "long":
        parent[key] = value * (3000 // max(1, len(value)) + 1)
    elif how == "hostile":
        parent[key] = value + rnd.choice(HOSTILE_TEXTS)
    elif how == "many":
        sample = next(iter(value.values()), 1)
        value.update((f"k{i}", copy.deepcopy(sample)) for i in range(rnd.choice((100, 3000))))
    return doc, f"{how} {where}"


def run_case(source: Path, doc: dict, seed: int, folder: Path, max_hands: int) -> tuple[str, str]:
    """``("refused" | "played" | "failure", detail)`` for one mutated document."""
    from rulekit import records
    from rulekit.engine.state import State
    from rulekit.errors import RulekitError
    from rulekit.variant import check_file, load_variant

    f = folder / source.name
    f.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    try:
        found = check_file(str(f))
    except Hang:
        raise
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
                rec = folder / "game.json"
                records.save(rec, records.to_record(s))
                again = records.replay(records.load(rec))
                if again.history != s.history:
                    return "failure", "the saved record replays another game"
                return "played", s.end_reason
            s.apply(rnd.choice(s.legal_actions()))
        return "failure", f"no end after {ACTIONS_PER_HAND * max_hands} actions ({s.hands_played} hands)"
    except Hang:
        raise
    except RulekitError as e:
        return "failure", f"{type(e).__name__} in play: {e}"
    except Exception:
        return "failure", "play raised:\n" + traceback.format_exc(limit=4)


def _answers(pad, q, rnd: random.Random) -> str:
    """An answer to question ``q`` of ``pad``: words of its help, seat names, numbers, or junk."""
    words = [w.strip(",.;:()") for w in q.help.split()] + list(pad.names)
    size = max(1, pad.hand_size())
    pick = rnd.random()
    if pick < 0.5:
        return " ".join(rnd.choice(words) for _ in range(rnd.choice((1, 1, 2))))
    if pick < 0.85:
        return " ".join(str(rnd.randint(0, size)) for _ in range(rnd.randint(1, len(pad.columns) + 1)))
    return rnd.choice(("", "x" * 5000, "-1", "10" * 40, "1e9", "\x1b]0;x\x07", "\u202e5", "none", "0 0 0 0 0 0 0"))


def pad_case(source: Path, seed: int, folder: Path) -> tuple[str, str]:
    """``("pad", detail)`` or ``("failure", detail)``: a scorepad of ``source`` fed random answers;
    every finished hand is written, and the pad's file reads back to the same totals."""
    from rulekit import records
    from rulekit.sheets import padfile
    from rulekit.sheets.scorepad import FactError, ScorePad
    from rulekit.variant import load_variant

    rnd = random.Random(seed)
    v = load_variant(str(source))
    pad, facts, taken = ScorePad(v), {}, 0
    try:
        for _ in range(PAD_ANSWERS):
            if pad.is_over:
                break
            q = pad.next_question(facts)
            if q is None:
                pad.add(facts)
                facts = {}
                f = folder / "pad.json"
                records.save(f, pad.as_dict())
                back = ScorePad.from_dict(v, padfile.read(f), str(f))
                if back.sheet.totals() != pad.sheet.totals():
                    return "failure", f"the saved pad reads back other totals: {back.sheet.totals()}"
                continue
            try:
                pad.answer(q, _answers(pad, q, rnd), facts)
                taken += 1
            except FactError:
                pass
        return "pad", f"{len(pad.hands)} hands, {taken} answers taken"
    except Hang:
        raise
    except Exception:
        return "failure", "scorepad raised:\n" + traceback.format_exc(limit=4)


def pad_file_case(source: Path, seed: int, folder: Path) -> tuple[str, str]:
    """``("pad_file", detail)`` or ``("failure", detail)``: a pad with a few hands, one random change
    of its saved data, read back: loaded, or refused with a message."""
    from rulekit.errors import RulekitError
    from rulekit.sheets import padfile
    from rulekit.sheets.scorepad import ScorePad
    from rulekit.variant import load_variant

    rnd = random.Random(seed)
    v = load_variant(str(source))
    pad, facts = ScorePad(v), {}
    for _ in range(PAD_ANSWERS):     # a few hands, from answers the pad takes
        if pad.is_over or len(pad.hands) >= 2:
            break
        q = pad.next_question(facts)
        if q is None:
            pad.add(facts)
            facts = {}
            continue
        try:
            pad.answer(q, _answers(pad, q, rnd), facts)
        except RulekitError:
            pass
    data, change = mutate(pad.as_dict(), rnd)
    f = folder / "pad.json"
    f.write_text(json.dumps(data, ensure_ascii=rnd.random() < 0.5))
    try:
        ScorePad.from_dict(v, padfile.read(f), str(f))
        return "pad_file", f"{change}: loaded"
    except Hang:
        raise
    except RulekitError as e:
        return "pad_file", f"{change}: refused ({str(e)[:80]})"
    except Exception:
        return "failure", f"pad file ({change}) raised:\n" + traceback.format_exc(limit=4)


def _on_alarm(signum, frame):
    raise Hang()


def fuzz(cases: int, seed: int, max_hands: int = 200, seconds: float | None = None,
         case_seconds: float = CASE_SECONDS, pads: float = 0.2) -> dict:
    """Run ``cases`` cases from ``seed`` (or as many as fit in ``seconds``), the variants in turn;
    a share ``pads`` of them scorepad cases (answers and pad files, half each).

    :returns: ``{"cases", "refused", "played", "pad", "pad_file", "tracebacks", "hangs",
        "failures": [(case, detail)]}``.
    """
    rnd = random.Random(seed)
    docs = {p: yaml.safe_load(p.read_text()) for p in VARIANTS}
    out = {"cases": 0, "refused": 0, "played": 0, "pad": 0, "pad_file": 0, "tracebacks": 0, "hangs": 0,
           "failures": []}
    end = None if seconds is None else time.monotonic() + seconds
    old = signal.signal(signal.SIGALRM, _on_alarm)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            i = 0
            while (end is None and i < cases) or (end is not None and time.monotonic() < end and i < cases):
                source = VARIANTS[i % len(VARIANTS)]
                pick = rnd.random()
                doc, change = mutate(docs[source], rnd)
                signal.setitimer(signal.ITIMER_REAL, case_seconds)
                try:
                    if pick < pads / 2:
                        change = "scorepad answers"
                        kind, detail = pad_case(source, seed + i, folder)
                    elif pick < pads:
                        change = "pad file"
                        kind, detail = pad_file_case(source, seed + i, folder)
                    else:
                        kind, detail = run_case(source, doc, seed + i, folder, max_hands)
                except Hang:
                    kind, detail = "failure", f"hang: more than {case_seconds:g} s"
                    out["hangs"] += 1
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                if kind == "failure":
                    out["tracebacks"] += "raised" in detail
                    out["failures"].append((f"{source.name}: {change}", detail))
                else:
                    out[kind] += 1
                i += 1
            out["cases"] = i
    finally:
        signal.signal(signal.SIGALRM, old)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=500, help="cases to run (with --seconds: at most)")
    ap.add_argument("--seconds", type=float, default=None, help="run for this long instead")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-hands", type=int, default=200)
    ap.add_argument("--case-seconds", type=float, default=CASE_SECONDS, help="a case past this is a hang")
    ap.add_argument("--pads", type=float, default=0.2, help="share of scorepad cases")
    a = ap.parse_args(argv)
    cases = a.cases if a.seconds is None or "--cases" in (argv or sys.argv) else 10 ** 9
    r = fuzz(cases, a.seed, a.max_hands, a.seconds, a.case_seconds, a.pads)
    for change, detail in r["failures"]:
        print(f"FAILURE {change}\n  {detail}")
    print(f"cases: {r['cases']}  refused: {r['refused']}  played: {r['played']}  scorepad answers: {r['pad']}  "
          f"pad files: {r['pad_file']}  failures: {len(r['failures'])}  tracebacks: {r['tracebacks']}  "
          f"hangs: {r['hangs']}")
    return 1 if r["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
