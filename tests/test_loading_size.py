"""Loading large variant files: every per-key step of reading, merging (``extends:``) and
checking ``scoring.let`` takes time linear in the file's size, so a file at the size cap
(:data:`rulekit.variant.loader.MAX_FILE_SIZE`) is answered, never a hang.  Speed itself is
measured in ``benchmarks/loading.py``; these tests check the structure."""
from __future__ import annotations

import subprocess
import sys

import pytest

from rulekit.variant import check_file, load_variant
from rulekit.variant.loader import MAX_FILE_SIZE, _merge, _subtrees
from rulekit.variant.yamlpos import Pos


class CountingDict(dict):
    """A positions dict that counts the entries its iteration yields."""

    walked = 0

    def __iter__(self):
        for k in super().__iter__():
            CountingDict.walked += 1
            yield k

    def items(self):
        return ((k, self[k]) for k in self)


def _positions(doc, path=()):
    out = {path: Pos("f.yaml", 1, 1)}
    if isinstance(doc, dict):
        for k, v in doc.items():
            out[path + (k, "<key>")] = Pos("f.yaml", 1, 1)
            out.update(_positions(v, path + (k,)))
    return out


def test_the_merge_walks_each_position_once_however_many_keys_the_override_has():
    """Merging n keys reads each position of either file once (an index of subtrees), where a
    scan of every position per key read n * n."""
    n = 3000
    base = {"a": {"x": 1, "y": {"z": 2}}, "b": 1, "c": [1, 2]}
    over = {f"k{i}": i for i in range(n)} | {"a": {"y": None, "x": 5}, "b": {"m": 1}, "c": None}
    bpos, opos = CountingDict(_positions(base)), CountingDict(_positions(over))
    CountingDict.walked = 0
    merged = _merge(base, over, bpos, opos, ())
    assert CountingDict.walked <= len(bpos) + len(opos)
    assert merged["a"] == {"x": 5} and merged["b"] == {"m": 1} and "c" not in merged and merged["k7"] == 7
    assert ("a", "y") not in bpos and ("a", "y", "z") not in bpos and ("c",) not in bpos
    assert ("k7",) in bpos and ("k7", "<key>") in bpos and ("b", "m") in bpos


def test_the_subtree_index_links_ancestors_a_position_lacks():
    """A path whose parent has no position of its own is still found under its ancestors."""
    index = _subtrees({("a", "b", "c"): None, ("a", "<key>"): None})
    assert ("a", "b") in index[("a",)] and ("a", "b", "c") in index[("a", "b")]


def test_a_let_formula_still_refuses_itself_and_the_ones_below_it(tmp_path):
    """[scoring.let] a formula uses only the lets above it."""
    f = tmp_path / "lets.yaml"
    f.write_text('extends: fivehundred\nscoring:\n  let:\n    a: "1"\n    b: "a + c"\n    c: "c + 1"\n')
    found = [d.message for d in check_file(str(f))]
    assert any("unknown variable c: it is defined later in scoring.let" in m for m in found)
    assert any("unknown variable c: a let formula cannot use itself" in m for m in found)


def test_many_lets_each_see_the_ones_above(tmp_path):
    """A chain of 2,000 lets, each using the one above it, validates and computes."""
    f = tmp_path / "chain.yaml"
    lets = "".join(f'    k{i}: "k{i - 1} + 1"\n' if i else '    k0: "1"\n' for i in range(2000))
    f.write_text(f"extends: fivehundred\nscoring:\n  let:\n{lets}")
    assert check_file(str(f)) == []
    assert "k1999" in load_variant(str(f)).data["scoring"]["let"]


@pytest.mark.slow
def test_a_file_at_the_size_cap_is_answered(tmp_path):
    """A file of about MAX_FILE_SIZE bytes of keys (unknown ones, a located error each) is
    answered by validate; the timeout only catches a hang (minutes), never measures speed."""
    keys, body, i = [], 0, 0
    head = "extends: fivehundred\n"
    while body + len(head) < MAX_FILE_SIZE - 20:
        line = f"k{i}: {i}\n"
        keys.append(line)
        body += len(line)
        i += 1
    f = tmp_path / "big.yaml"
    f.write_text(head + "".join(keys))
    assert MAX_FILE_SIZE - 30 < f.stat().st_size <= MAX_FILE_SIZE
    run = subprocess.run([sys.executable, "-c", "from rulekit.cli.app import main; main()", "validate", str(f)], capture_output=True,
                         text=True, timeout=900)
    assert run.returncode != 0
    assert f"big.yaml:2:1: k0: unknown key 'k0'" in run.stdout + run.stderr
    assert f"unknown key 'k{i - 1}'" in run.stdout + run.stderr   # every key, to the last one
