"""Seeded mutation fuzz over the shipped variant files and the scorepad.

Single random changes (a key deleted, a number made a float, negative, zero or huge, a string
swapped, made long or hostile, a mapping given thousands of keys, a boolean flipped): each mutated
file is either refused by validate with located messages, or validates, plays with random legal
moves to its end within 200 hands and replays from its saved record; scorepads take or refuse
random answers and read their files back; altered pad files load or are refused. The longer run
is ``python tools/mutation_fuzz.py --cases N --seed S`` (counts in docs/authoring.md).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mutation_fuzz", ROOT / "tools" / "mutation_fuzz.py")
mutation_fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutation_fuzz)


def test_every_mutation_is_refused_with_a_position_or_plays_to_its_end():
    """No traceback, no unlocated message, no exception in play, no endless match, no hang;
    every shipped variant is mutated (they are taken in turn)."""
    n = 2 * len(mutation_fuzz.VARIANTS) + 4
    r = mutation_fuzz.fuzz(cases=n, seed=1, max_hands=200, pads=0.2)
    assert r["failures"] == [] and r["tracebacks"] == 0 and r["hangs"] == 0
    assert r["cases"] == n and r["refused"] + r["played"] + r["pad"] + r["pad_file"] == n
    assert r["refused"] > 10 and r["played"] > 5 and r["pad"] + r["pad_file"] > 0


def test_scorepad_answers_and_pad_files_are_taken_or_refused(tmp_path):
    """Random answers to a scorepad's questions are each taken or refused, finished hands are
    written and read back to the same totals; an altered pad file loads or is refused."""
    src = ROOT / "variants" / "fivehundred.yaml"
    kind, detail = mutation_fuzz.pad_case(src, 3, tmp_path)
    assert kind == "pad" and not detail.startswith("0 hands"), detail
    for seed in range(4):
        kind, detail = mutation_fuzz.pad_file_case(src, seed, tmp_path)
        assert kind == "pad_file" and (detail.endswith(": loaded") or ": refused (" in detail), detail


def test_a_run_for_a_fixed_time_stops_and_a_case_past_its_time_is_a_hang(monkeypatch):
    """--seconds bounds a run; a case that runs past --case-seconds is counted as a hang."""
    import time
    r = mutation_fuzz.fuzz(cases=10 ** 6, seed=2, seconds=0.5)
    assert 1 <= r["cases"] < 10 ** 6 and r["failures"] == []

    def slow(*a):
        time.sleep(5)
    monkeypatch.setattr(mutation_fuzz, "run_case", slow)
    r = mutation_fuzz.fuzz(cases=1, seed=2, case_seconds=0.2, pads=0)
    assert r["hangs"] == 1 and r["failures"][0][1] == "hang: more than 0.2 s"


def test_a_float_mutation_is_refused_at_its_position(tmp_path):
    """A float where a count is expected is refused at its position, before play."""
    import yaml
    src = ROOT / "variants" / "bridge.yaml"
    doc = yaml.safe_load(src.read_text())
    doc["dealer"]["first"] = {"seat": 0.0}
    kind, detail = mutation_fuzz.run_case(src, doc, 1, tmp_path, 5)
    assert kind == "refused" and "dealer.first.seat: wrong type: found number 0.0" in detail
