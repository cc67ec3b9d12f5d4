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
TIMEOUT = 120   # seconds of silence before a pexpect wait fails: generous, as a loaded machine starts Python slowly


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
    # the record's name relative to the working folder: "resumed ... from FILE: ... actions replayed"
    # stays within the terminal's 100 columns wherever tmp_path is (a wrapped line is not matched)
    save = tmp_path / "game.json"
    child = spawn(["play", "fivehundred", "--players", "human,random,random", "--seed", "11",
                   "--save", save.name], tmp_path)
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
    assert json.loads(save.read_text())["seed"] is None   # a game in progress: sealed
    rec = records.load(save)
    human = [a for s, a in rec["actions"] if s == 0]
    assert len(human) >= 3
    assert records.replay(records.load(save)).history == [tuple(a) for a in rec["actions"]]
    before = len(rec["actions"])

    child = spawn(["play", "--resume", save.name], tmp_path)
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


def _clear_line(child, k: int) -> None:
    """Clears the typed line (Ctrl-U, not Ctrl-C: an interrupt racing a completion still running
    under load was lost) and waits for bash to run a command again (it prints 40+k, which the
    typed line does not hold)."""
    child.send("\x15")
    child.sendline(f"echo $((40+{k}))")
    child.expect(str(40 + k))


def test_pty_bash_completes_variant_ids_and_files(tmp_path):
    """In a real bash with `rulekit --show-completion bash` loaded, Tab completes an installed id
    (`fivehundred-mu` -> `fivehundred-must-trump `), lists the ids that share a start, and
    completes a .yaml file of the current folder."""
    import shutil
    from pathlib import Path
    rulekit_script = Path(sys.executable).with_name("rulekit")
    if shutil.which("bash") is None or not rulekit_script.exists():
        pytest.skip("needs bash and the installed rulekit script")
    (tmp_path / "my-house.yaml").write_text("extends: fivehundred\n")
    env = dict(os.environ, PATH=f"{rulekit_script.parent}{os.pathsep}{os.environ['PATH']}", TERM="dumb",
               PS1="$ ", INPUTRC="/dev/null", HOME=str(tmp_path))
    child = pexpect.spawn("bash", ["--norc", "--noprofile", "-i"], cwd=str(tmp_path), env=env,
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 200))
    try:
        child.expect(r"\$ ")
        child.sendline('eval "$(rulekit --show-completion bash)"; echo loaded')
        child.expect("loaded")
        child.expect(r"\$ ")
        child.send("rulekit explain fivehundred-mu\t")
        child.expect("fivehundred-must-trump ")             # one candidate: completed, with a space
        _clear_line(child, 1)
        child.send("rulekit compare fivehundred fivehundred-m\t\t")   # two: both listed
        child.expect("fivehundred-minus-500")
        child.expect("fivehundred-must-trump")
        _clear_line(child, 2)
        child.send("rulekit validate my-\t")
        child.expect("my-house.yaml ")
        _clear_line(child, 3)
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close()


def test_pty_explain_is_rendered_on_a_terminal(tmp_path):
    """On a terminal `explain` shows the rulebook rendered by rich (no Markdown marks, bold in
    colour codes); --plain, like a pipe, prints the Markdown text."""
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="40", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "rulekit.cli.app", "explain", "whist"], cwd=str(tmp_path),
                          env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 100))
    child.expect(pexpect.EOF)
    child.close()
    shown = child.before
    assert child.exitstatus == 0, shown
    assert "\x1b[" in shown and "Whist" in shown and "The cards" in shown
    assert "# Whist" not in shown and "## The cards" not in shown and "**4 players**" not in shown
    child = pexpect.spawn(sys.executable, ["-m", "rulekit.cli.app", "explain", "whist", "--plain"],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 100))
    child.expect(pexpect.EOF)
    child.close()
    assert child.before.startswith("# Whist\r\n") and "## The cards" in child.before
