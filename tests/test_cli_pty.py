"""``rulekit play`` in a real pseudo-terminal (pexpect, TERM=dumb): a few moves, Ctrl-C
saves the game, ``--resume`` continues it, Ctrl-D (end of input) saves again."""
from __future__ import annotations

import json
import os
import re
import sys

import pytest

from rulekit import records

pexpect = pytest.importorskip("pexpect")

PROMPT = r"\((bid|discard|trumps|play)\) > "
TIMEOUT = 30


def spawn(args, cwd):
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", COLUMNS="100", LINES="40", PYTHONIOENCODING="utf-8")
    return pexpect.spawn(sys.executable, ["-m", "rulekit.cli.app", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 100))


def legal_move(child) -> str:
    """Ask ``?`` at the prompt and pick the first legal action from the answer."""
    child.sendline("?")
    i = child.expect([r"legal: ([^\r\n]+)", r"e\.g\. (discard [^:]+):"])
    text = child.match.group(1).strip()
    move = text if i == 1 else text.split(",")[0].strip()
    child.expect(PROMPT)
    return move


def play_moves(child, n: int) -> list:
    moves = []
    for _ in range(n):
        move = legal_move(child)
        child.sendline(move)
        moves.append(move)
        child.expect(PROMPT)
    return moves


def test_pty_play_ctrl_c_then_resume(tmp_path):
    save = tmp_path / "game.json"
    child = spawn(["play", "fivehundred", "--players", "human,random,random", "--seed", "11",
                   "--save", str(save)], tmp_path)
    try:
        child.expect("your hand")
        child.expect(PROMPT)
        play_moves(child, 3)
        child.sendline("plya QS")                          # not an action: refused, asked again
        child.expect(r"refused: ")
        child.expect(PROMPT)
        child.sendintr()                                   # Ctrl-C at the prompt
        child.expect(r"interrupted: game saved to")
        child.expect(r"rulekit play --resume")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130, child.before
    rec = json.loads(save.read_text())
    human = [a for s, a in rec["actions"] if s == 0]
    assert len(human) >= 3
    assert records.replay(records.load(save)).history == [tuple(a) for a in rec["actions"]]
    before = len(rec["actions"])

    child = spawn(["play", "--resume", str(save)], tmp_path)
    try:
        child.expect(r"resumed .* (\d+) actions replayed")
        assert int(child.match.group(1)) == before
        child.expect(PROMPT)
        play_moves(child, 1)
        child.sendeof()                                    # Ctrl-D: end of input
        child.expect(r"input ended: game saved to")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 1
    rec2 = records.load(save)
    assert len(rec2["actions"]) > before
    assert rec2["actions"][:before] == rec["actions"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_pty_ctrl_c_while_bots_play_saves_a_replayable_record(tmp_path):
    """Ctrl-C during a bots-only game (sensible bots thinking) still saves a record that replays."""
    save = tmp_path / "auto.json"
    child = spawn(["play", "fivehundred", "--auto", "--seed", "2", "--save", str(save)], tmp_path)
    try:
        child.expect(r"Hand 1 — dealer")
        child.expect(r"trick +\d")
        child.sendintr()
        i = child.expect([r"interrupted: game saved to", r"wins? \("])
        child.expect(pexpect.EOF)
    finally:
        child.close()
    rec = records.load(save)
    state = records.replay(rec)
    assert state.history == [tuple(a) for a in rec["actions"]]
    if i == 0:
        assert child.exitstatus == 130
        assert not state.is_over
    assert re.search(r"rulekit", open(save, encoding="utf-8").read())
