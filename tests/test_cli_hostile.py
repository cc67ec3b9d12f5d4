"""Hostile files and streams at the terminal."""
from __future__ import annotations

import json
from pathlib import Path
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rulekit.cli.app import app
from tests.test_cli_table import ZONES

runner = CliRunner()

RULEKIT = [sys.executable, "-c", "from rulekit.cli.app import main; main()"]


def test_escape_sequences_from_files_are_shown_visibly(tmp_path):
    """A variant name written with YAML escapes (clear screen, OSC window title, BEL) reaches
    the screen as ``^[``, never raw; a seat name with them is refused (a name is typed)."""
    f = tmp_path / "esc.yaml"
    f.write_text(ZONES.replace("name: Zones", 'name: "\\e[2J\\e]0;owned\\a\\e]52;c;b3duZWQ=\\a"'))
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["play", str(f), "--auto", "--seed", "1", "--max-hands", "1", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "\x07" not in r.output
    assert "^[[2J^[]0;owned" in r.output and "^[]52;c;b3duZWQ=" in r.output
    g = tmp_path / "seat.yaml"
    g.write_text(ZONES + 'seats: ["\\e]52;c;b3duZWQ=\\a", B, C]\n')
    r = runner.invoke(app, ["validate", str(g)])
    assert r.exit_code == 1 and "seats.0: the seat name '\\x1b]52;c;b3duZWQ=\\x07' holds a control" in r.output
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "^[[2J^[]0;owned" in r.output


def test_a_newline_in_a_variant_name_stays_on_one_line(tmp_path):
    """A variant name holding a newline and BEL prints as one line of what it reads (``^J``,
    ``^G``) in the headers of play, replay and score: it cannot forge a line of its own."""
    f = tmp_path / "nl.yaml"
    f.write_text(ZONES.replace("name: Zones", 'name: "Zo\\nFORGED\\a"'))
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["play", str(f), "--auto", "--seed", "1", "--max-hands", "1", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].startswith("Zo^JFORGED^G — 3 players (")
    assert "\nFORGED" not in r.output and "\x07" not in r.output
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code == 0 and r.output.splitlines()[0].startswith("Zo^JFORGED^G — seed 1, replayed"), r.output
    r = runner.invoke(app, ["score", str(f), "--dealer", "0", "--file", str(tmp_path / "pad.json")], input="quit\n")
    assert "Zo^JFORGED^G scorepad — " in r.output and "\nFORGED" not in r.output, r.output


def test_validate_shows_a_file_name_on_one_line(tmp_path):
    """A newline in a file's name is shown as ``^J``, so each problem stays one
    FILE:LINE:COL line (an editor's parser reads it whole)."""
    f = tmp_path / "ev\nil.yaml"
    f.write_text(ZONES.replace("players: 3", "players: three"))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 1
    assert r.output.splitlines()[0].startswith(f"{tmp_path}/ev^Jil.yaml:3:10: players: "), r.output


def test_full_disk_is_a_message_not_a_traceback():
    """`rulekit play fivehundred --auto > /dev/full` and `rulekit list > /dev/full`."""
    if not Path("/dev/full").exists():
        return
    for args in (["play", "fivehundred", "--auto", "--seed", "1", "--max-hands", "1"], ["list"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run(RULEKIT + args, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        assert p.returncode == 1, p.stderr
        assert "Traceback" not in p.stderr
        assert "error: cannot write the output (No space left on device)" in p.stderr


def test_closed_stdin_saves_the_game_and_exits_1(tmp_path):
    """A human game whose stdin is closed (`<&-`) ends as at the end of the input."""
    rec = tmp_path / "g.json"
    p = subprocess.run(RULEKIT + ["play", "fivehundred", "--seed", "1", "--save", str(rec)],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                       preexec_fn=lambda: __import__("os").close(0))
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr
    assert "input ended: game saved to" in p.stderr and rec.exists()


def test_file_line_100_is_not_an_emoji(tmp_path):
    """A problem on line 100 is printed as FILE:100:COL, not FILE💯COL."""
    f = tmp_path / "bad.yaml"
    lines = ZONES.splitlines()
    f.write_text("\n".join(lines[:-2] + ["#"] * (99 - len(lines) + 2) + ["match: {deals: -1}"]) + "\n")
    r = runner.invoke(app, ["play", str(f), "--auto"])
    assert r.exit_code == 1
    out = r.output + (r.stderr if r.stderr_bytes is not None else "")
    assert f"{f}:100:" in out and "💯" not in out


def test_validate_messages_never_carry_raw_control_characters(monkeypatch, tmp_path):
    """`validate` quotes file text in its messages; whatever a check quotes
    reaches the terminal with its control characters made visible (text) or escaped (JSON)."""
    from rulekit.errors import Diagnostic
    import rulekit.cli.app as cli_app
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text("id: v\n")
    bad = Diagnostic("v.yaml", 3, 7, "name", "found '\x1b]0;owned\x07\x9b2J'", "")
    monkeypatch.setattr(cli_app, "check_file", lambda *a, **k: [bad])
    r = runner.invoke(app, ["validate", "v.yaml"])
    assert r.exit_code == 1 and "v.yaml:3:7: name: found '^[]0;owned^G\\x9b2J'" in r.output
    r = runner.invoke(app, ["validate", "--format", "json", "v.yaml"])
    assert "\x1b" not in r.output and "\x9b" not in r.output and "\\u001b]0;owned\\u0007\\u009b2J" in r.output


def _memory_cap():     # the child may not grow without bound even if the fix regresses
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


# ---------------------------------------------------------------------- a line without end
def test_a_huge_line_without_newline_is_refused_not_read_whole(tmp_path):
    """`play < /dev/zero` grew to 10 GB reading one line; a typed line is capped at 1000
    characters: 5 MB of 'x' and no newline is refused, then the end of the input saves the game."""
    r = subprocess.run(RULEKIT + ["play", "fivehundred", "--seed", "1"], input=b"x" * 5_000_000,
                       capture_output=True, timeout=120, cwd=tmp_path, preexec_fn=_memory_cap)
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 1, err
    assert "refused: a line of more than 1000 characters" in out
    assert "xxxxxxxxxx" not in out and "Traceback" not in err
    assert "input ended: game saved to rulekit-fivehundred.json" in err
    assert (tmp_path / "rulekit-fivehundred.json").is_file()


def test_a_long_line_is_skipped_up_to_its_newline(tmp_path):
    """The rest of a refused line is discarded, and the next line is read as an action."""
    r = subprocess.run(RULEKIT + ["play", "fivehundred", "--seed", "1"], input=b"y" * 3000 + b"\nquit\n",
                       capture_output=True, timeout=120, cwd=tmp_path)
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr.decode()
    assert out.count("refused:") == 1 and "refused: a line of more than 1000 characters" in out
    assert "game saved" in r.stderr.decode()


# ---------------------------------------------------------------------- same words, same codes
@pytest.mark.parametrize("command", [["play"], ["compare", "whist"], ["diff", "whist"]])
def test_a_fifo_is_not_a_regular_file_for_every_command(tmp_path, command):
    """Play, compare, diff and validate say the same of a FIFO, and exit 2 (usage)."""
    import os
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    args = [command[0], str(fifo), *command[1:]]
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert f"error: {fifo}: not a regular file (expected a variant .yaml file)" in " ".join(r.output.split())
    r = runner.invoke(app, ["validate", str(fifo)])
    assert r.exit_code == 2, r.output
    assert f"error: {fifo}: not a regular file (expected a variant .yaml file)" in " ".join(r.output.split())


@pytest.mark.parametrize("command", [["play"], ["compare", "whist"], ["diff", "whist"]])
def test_a_missing_variant_file_exits_2_everywhere(tmp_path, command):
    """A missing variant file is a usage error (2) for compare as for play and diff
    (docs/cli.md's exit-code table); compare exited 1."""
    missing = tmp_path / "nope.yaml"
    r = runner.invoke(app, [command[0], str(missing), *command[1:]])
    assert r.exit_code == 2, r.output
    assert f"error: no such variant or file '{missing}'" in " ".join(r.output.split())


#: YAML escapes of ESC, BEL, CR, DEL, a C1 CSI, a bidi override, zero-width space and joiner, a
#: soft hyphen, the line separator and a tag character; RAW: the characters they stand for
HOSTILE = "\\e[2J\\a\\r\\x7f\\x9b\\u202e\\u200b\\u200d\\xad\\u2028\\U000e0041"
RAW = "\x1b[2J\x07\r\x7f\x9b\u202e\u200b\u200d\xad\u2028\U000e0041"
SHOWN = "^[[2J^G^M^?\\x9b\\u202e\\u200b\\u200d\\xad\\u2028\\U000e0041"


def _raw_unsafe(text: str) -> list:
    import unicodedata
    from rulekit.text import UNSAFE_CATEGORIES
    return [hex(ord(c)) for c in text if unicodedata.category(c) in UNSAFE_CATEGORIES and c != "\n"]


def test_every_output_of_validate_explain_and_diff_shows_a_hostile_file_safely(tmp_path):
    """A variant's name, source and omitted rules holding control, bidi, zero-width and separator
    characters, and a phase named with them (refused: a key holds printable text only): validate
    (text and JSON), explain and diff (text and JSON) print none of them raw; the text output
    shows them (``^[``, ``\\u202e``), the JSON escapes them as JSON does and reads back as the file."""
    good = tmp_path / "good.yaml"
    good.write_text(ZONES.replace("name: Zones", f'name: "Zo{HOSTILE}nes"\nsource: "src{HOSTILE}"\n'
                                                 f'omitted: ["left{HOSTILE}out"]'))
    bad = tmp_path / "bad.yaml"
    bad.write_text(ZONES.replace("  play:\n", f'  "pl{HOSTILE}ay":\n'))
    outputs = {}
    for key, args in {"validate": ["validate", str(bad)], "validate json": ["validate", "--format", "json", str(bad)],
                      "explain": ["explain", str(good)], "diff": ["diff", str(tmp_path / "plain.yaml"), str(good)],
                      "diff json": ["diff", "--format", "json", str(tmp_path / "plain.yaml"), str(good)]}.items():
        (tmp_path / "plain.yaml").write_text(ZONES)
        r = runner.invoke(app, args)
        assert r.exit_code == (0 if key == "explain" else 1), (key, r.output)
        assert _raw_unsafe(r.output) == [], key
        outputs[key] = r.output
    line = outputs["validate"].splitlines()[0]
    assert f"bad.yaml:16:3: phases.pl{SHOWN}ay: the key 'pl\\x1b[2J\\x07\\r\\x7f\\x9b" in line
    assert line.endswith("ay' holds a control or format character (expected printable text: a name)")
    found = json.loads(outputs["validate json"])
    assert [d["path"] for d in found] == [f"phases.pl{RAW}ay"]
    assert f"# Zo{SHOWN}nes\n" in outputs["explain"] and f"Source: src{SHOWN}." in outputs["explain"]
    assert f"- left{SHOWN}out\n" in outputs["explain"]
    assert "\\u202e\\u200b\\u200d\\xad\\u2028\\x9b" not in outputs["diff"] and "\\u2028" in outputs["diff"]
    changes = json.loads(outputs["diff json"])["changes"]
    assert [c["new"] for c in changes if c["path"] == "omitted"] == [[f"left{RAW}out"]]


def test_json_text_escapes_what_a_terminal_would_act_on_and_keeps_the_rest():
    """``json_text``: ESC, DEL, a C1 control, a bidi override, a zero-width space, U+2028 and a
    character beyond the BMP of the unsafe kind are JSON escapes (a surrogate pair for the last);
    a suit symbol and an accent stay; the data reads back the same."""
    from rulekit.text import json_text
    data = {"k\u202e": ["\x1b\x7f\x9b\u200b\u2028\U000e0041", "10♥ é"]}
    text = json_text(data, indent=None)
    assert text == '{"k\\u202e": ["\\u001b\\u007f\\u009b\\u200b\\u2028\\udb40\\udc41", "10♥ é"]}'
    assert json.loads(text) == data
