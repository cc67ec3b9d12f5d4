"""Records and pads are private: created 0600 (the owner's only) under any umask, their
temporary files too, since a record in play holds the seed and every hidden card."""
from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from rulekit import records
from rulekit.cli.app import app

runner = CliRunner()


@pytest.fixture
def open_umask():
    old = os.umask(0o000)    # the most open umask: nothing but the code keeps the files private
    yield
    os.umask(old)


def _mode(p) -> int:
    return p.stat().st_mode & 0o777


def test_a_saved_game_and_its_temporary_file_are_private(tmp_path, monkeypatch, open_umask):
    seen = []
    real = os.replace

    def replace(src, dst):
        seen.append(os.stat(src).st_mode & 0o777)
        return real(src, dst)

    monkeypatch.setattr(records.os, "replace", replace)
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--seed", "1", "--max-hands", "1", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    assert _mode(rec) == 0o600
    assert seen and set(seen) == {0o600}


def test_a_new_record_through_the_exclusive_path_is_private(tmp_path, open_umask):
    f = tmp_path / "new.json"
    records.save(f, {"x": 1}, exclusive=True)
    assert _mode(f) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["new.json"]


def test_a_scorepad_is_private(tmp_path, open_umask):
    pad = tmp_path / "pad.json"
    r = runner.invoke(app, ["score", "fivehundred", "--dealer", "0", "--file", str(pad)], input="8H\nP1\n1 8\nquit\n")
    assert r.exit_code == 0, r.output
    assert _mode(pad) == 0o600
