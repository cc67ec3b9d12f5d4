"""``rulekit serve`` at the command line: without the web extra it says what to install (exit 2);
the core and the rest of the CLI never import the web extra's packages."""
from __future__ import annotations

import subprocess
import sys

from tests.helpers import runner
from rulekit.cli.app import app


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch):
    """With uvicorn missing, ``rulekit serve`` exits 2 naming the extra to install."""
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    r = runner.invoke(app, ["serve"])
    assert r.exit_code == 2
    assert "pip install 'rulekit[web]'" in " ".join(r.output.split())


def test_the_core_and_the_cli_do_not_import_the_web_extra():
    """Loading the engine, the bots and the whole CLI app imports neither starlette, uvicorn nor
    playwright (``rulekit serve`` imports them when it runs)."""
    code = ("import sys, rulekit.engine.state, rulekit.bots, rulekit.cli.app\n"
            "print(sorted(m for m in ('starlette', 'uvicorn', 'playwright', 'rulekit.web') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
