"""Loading time of large variant files: ``extends:`` files of many keys, near the size cap.

Usage::

    python benchmarks/loading.py [--keys 99990] [--shapes top,nested,let]

Each row makes one ``extends: fivehundred`` file of ``--keys`` keys of one shape and times
:func:`rulekit.variant.check` of :func:`~rulekit.variant.resolve_text` on its text (CPU seconds
of this process; the text is handed over directly, so a row may pass the 1 MB cap that
``read_text`` puts on a file):

``top``     ``k0: 0`` ... at the top level: every key unknown, so one located schema error each.
``nested``  the keys under one mapping the base has (``phases.k0: null`` ...): each a null that
            removes nothing, a warning each, through the merge's position bookkeeping.
``let``     ``scoring.let.k0: "0"`` ...: valid formulas, each compiled and checked against
            the names above it.

Loading is linear in a file's size (the ``extends:`` merge visits each key once and finds a
key's positions through an index, a ``let`` formula's unknown names are a view over the let
order): the ``per key`` column stays flat as ``--keys`` grows.  Never a timed test.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SHAPES = {
    "top": lambda n: "extends: fivehundred\n" + "".join(f"k{i}: {i}\n" for i in range(n)),
    "nested": lambda n: "extends: fivehundred\nphases:\n" + "".join(f"  k{i}: null\n" for i in range(n)),
    "let": lambda n: "extends: fivehundred\nscoring:\n  let:\n" + "".join(f'    k{i}: "{i}"\n' for i in range(n)),
}


def measure(shape: str, keys: int, folder: Path) -> tuple[int, float, int]:
    """``(bytes, CPU seconds, diagnostics)`` of checking one file of ``keys`` keys of ``shape``."""
    from rulekit.variant import check, resolve_text
    f = folder / f"{shape}-{keys}.yaml"
    text = SHAPES[shape](keys)
    t = time.process_time()
    found = check(resolve_text(str(f), text))
    return len(text.encode()), time.process_time() - t, len(found)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", default="99990", help="comma-separated key counts (a document holds at most "
                    "100,000 values: rulekit.variant.yamlpos.MAX_NODES)")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    a = ap.parse_args(argv)
    print(f"{'shape':8} {'keys':>8} {'bytes':>9} {'seconds':>8} {'per key':>9} {'diagnostics':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in a.shapes.split(","):
            for keys in map(int, a.keys.split(",")):
                size, secs, n = measure(shape, keys, Path(tmp))
                print(f"{shape:8} {keys:8} {size:9} {secs:8.2f} {secs / keys * 1e6:7.1f}µs {n:11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
