"""Shared helpers of the web tests: a ``rulekit serve`` app on a free port in a thread, and the
system's Chromium driven by Playwright (no browser is downloaded)."""
from __future__ import annotations

import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: the flags Chromium needs here: no sandbox as root, no GPU, no network of its own
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_server(folder: Path):
    """A uvicorn server of :func:`rulekit.web.app.create_app` over ``folder``; yields its base URL and its
    :class:`~rulekit.web.tables.Tables`."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install -e '.[web]'")
    from rulekit.web.app import create_app
    port = free_port()
    app = create_app(folder)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 60          # generous: a loaded machine starts the server slowly
    while not server.started:
        assert thread.is_alive() and time.monotonic() < end, "the test server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app.state.tables
    finally:
        server.should_exit = True
        thread.join(10)
