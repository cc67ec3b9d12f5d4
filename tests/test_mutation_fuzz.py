"""Seeded mutation fuzz over the shipped variant files.

Three hundred single random changes (a key deleted, a number made a float, negative, zero or
huge, a string swapped, a boolean flipped): each mutated file is either refused by validate with
located messages, or validates and plays with random legal moves to its end within 200 hands.
The longer run is ``python tools/mutation_fuzz.py --cases N --seed S`` (counts in
docs/authoring.md).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mutation_fuzz", ROOT / "tools" / "mutation_fuzz.py")
mutation_fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutation_fuzz)


def test_every_mutation_is_refused_with_a_position_or_plays_to_its_end():
    """No traceback, no unlocated message, no exception in play, no endless match."""
    r = mutation_fuzz.fuzz(cases=300, seed=1, max_hands=200)
    assert r["failures"] == []
    assert r["refused"] + r["played"] == 300
    assert r["refused"] > 150 and r["played"] > 50  # both outcomes are exercised


def test_a_float_mutation_is_refused_at_its_position(tmp_path):
    """A float where a count is expected is refused at its position, before play."""
    import yaml
    src = ROOT / "variants" / "bridge.yaml"
    doc = yaml.safe_load(src.read_text())
    doc["dealer"]["first"] = {"seat": 0.0}
    kind, detail = mutation_fuzz.run_case(src, doc, 1, tmp_path, 5)
    assert kind == "refused" and "dealer.first.seat: wrong type: found number 0.0" in detail
