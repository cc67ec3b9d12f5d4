"""The referees stay independent of the engine they check (tests/referees/README.md)."""
from __future__ import annotations

import ast
import pathlib


def test_no_referee_imports_rulekit():
    """No module in tests/referees imports rulekit, directly or through another tests module."""
    for path in sorted(pathlib.Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith("rulekit"), f"{path.name} imports {name}"
                if name.startswith("tests"):
                    assert name.startswith("tests.referees"), f"{path.name} imports {name}"
