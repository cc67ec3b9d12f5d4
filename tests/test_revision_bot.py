"""``benchmarks/revision_bot.py``: the old side of ``bots.py --vs-old REV`` runs the code and the
files of its own revision, whatever rulekit is installed (an editable install maps
``rulekit.variants`` and ``rulekit.grammar`` to today's folders)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_old_side_loads_its_own_variants_and_grammar(tmp_path):
    """A tree laid out as ``checkout`` extracts it, whose whist file names itself differently:
    loaded through ``_use_tree``, the variant, the grammar and the code are the tree's."""
    tree = tmp_path / "tree"
    for part in ("rulekit", "variants", "grammar", "cli"):
        shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
    whist = tree / "variants" / "whist.yaml"
    whist.write_text(whist.read_text(encoding="utf-8").replace("name: Whist\n", "name: Old Whist\n", 1),
                     encoding="utf-8")
    code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
            "from revision_bot import _use_tree; _use_tree(Path(sys.argv[2])); "
            "import rulekit; from importlib.resources import files; from rulekit.variant import load_variant; "
            "print(load_variant('whist').name); print(files('rulekit.grammar')); print(files('rulekit.variants')); "
            "print(Path(rulekit.__file__).parent)")
    p = subprocess.run([sys.executable, "-c", code, str(ROOT / "benchmarks"), str(tree)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["Old Whist", str(tree / "grammar"), str(tree / "variants"), str(tree / "rulekit")]
