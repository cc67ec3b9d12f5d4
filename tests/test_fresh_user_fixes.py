"""Problems a fresh user found on main (helper O's list, "fixes-h"): each gives the right result
and message, never a traceback nor a silent wrong answer."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rulekit import records
from rulekit.cli.app import app
from rulekit.cli.game import Game
from rulekit.engine import State
from rulekit.variant import load_variant

RULEKIT = [sys.executable, "-c", "from rulekit.cli.app import main; main()"]
runner = CliRunner()


def _memory_cap():     # the child may not grow without bound even if the fix regresses
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


# ---------------------------------------------------------------------- 1: a line without end
def test_a_huge_line_without_newline_is_refused_not_read_whole(tmp_path):
    """case 1: `play < /dev/zero` grew to 10 GB reading one line; a typed line is capped at 1000
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
    """case 1: the rest of a refused line is discarded, and the next line is read as an action."""
    r = subprocess.run(RULEKIT + ["play", "fivehundred", "--seed", "1"], input=b"y" * 3000 + b"\nquit\n",
                       capture_output=True, timeout=120, cwd=tmp_path)
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr.decode()
    assert out.count("refused:") == 1 and "refused: a line of more than 1000 characters" in out
    assert "game saved" in r.stderr.decode()


# ---------------------------------------------------------------------- 2: hot seat
class _Typist(Console):
    """A console whose prompt answers Enter to pauses and the first legal action otherwise."""

    def __init__(self):
        super().__init__(file=io.StringIO(), width=120, color_system=None, force_terminal=True)
        self.game = None

    def input(self, prompt="", **kw):
        self.print(prompt, end="")
        if "press Enter" in str(prompt):
            self.print("")
            return ""
        text = self.game.state.legal_actions()[0].text
        self.print(text)
        return text


def test_hot_seat_clears_the_scrollback_and_hides_the_first_hand_too():
    """case 2: with two humans at one terminal, the first human to move also gets "Pass to X, press
    Enter" before any hand is shown, and each hand-over clears the screen AND the scrollback
    (ESC[2J ESC[3J) with the cursor home (ESC[H)."""
    st = State(load_variant("fivehundred"), seed=5, names=["P0", "P1", "P2"])
    con = _Typist()
    g = Game(st, ["human", "human", "bot"], con, None, pauses=True)
    con.game = g
    while len({s for s, _ in st.history if s < 2}) < 2:
        g.step()
    out = con.file.getvalue()
    first, second = [s for s, _ in st.history if s < 2]
    wipe = "\x1b[2J\x1b[3J\x1b[H"
    assert out.startswith(f"{wipe}Pass to {st.names[first]}, press Enter")
    assert out.index(f"Pass to {st.names[first]}, press Enter") < out.index("your hand")
    hand_off = out.index(f"{wipe}Pass to {st.names[second]}, press Enter")
    assert out[:hand_off].count("your hand") == 1
    assert out.count(wipe) == 2


def test_one_human_gets_no_hand_over_screen():
    """case 2: a single human at the terminal is never asked to pass it on."""
    st = State(load_variant("fivehundred"), seed=5, names=["You", "P1", "P2"])
    con = _Typist()
    g = Game(st, ["human", "bot", "bot"], con, None, pauses=True)
    con.game = g
    for _ in range(4):
        g.step()
    assert "Pass to" not in con.file.getvalue() and "\x1b[3J" not in con.file.getvalue()


# ---------------------------------------------------------------------- 3: resuming without the human
def _saved_human_game(tmp_path):
    f = tmp_path / "game.json"
    r = runner.invoke(app, ["play", "fivehundred", "--seed", "424242", "--save", str(f)], input="pass\nquit\n")
    assert r.exit_code == 0, r.output
    return f


def test_resuming_a_human_game_with_bots_is_refused_without_reveal(tmp_path):
    """case 3: a copy of an auto-saved game played out by bots would print the seed of a game in
    progress (every deal); refused (exit 2) with --auto or with --players that drops the human."""
    f = _saved_human_game(tmp_path)
    for extra in (["--auto"], ["--players", "bot,bot,bot"], ["--players", "random,bot,human"]):
        r = runner.invoke(app, ["play", "--resume", str(f), *extra])
        assert r.exit_code == 2, (extra, r.output)
        assert (f"{f} is a game in progress with a human at You; played out by bots it shows its seed and "
                "deals at the end. Add --reveal to do so") in " ".join(r.output.split())
        assert "424242" not in r.output


def test_reveal_lets_bots_play_a_human_game_out(tmp_path):
    """case 3: with --reveal the bots play the game out and the seed is shown at the end."""
    f = _saved_human_game(tmp_path)
    r = runner.invoke(app, ["play", "--resume", str(f), "--auto", "--reveal"])
    assert r.exit_code == 0, r.output
    assert "seed 424242 (play these deals again with --seed 424242)" in r.output


# ---------------------------------------------------------------------- 4, 5: compare's options
@pytest.mark.parametrize("target", ["/dev/full", "file"])
def test_compare_checks_out_before_running(tmp_path, target):
    """case 4: --out that is no folder is refused (exit 2) before the comparison runs, not after."""
    out = tmp_path / "file" if target == "file" else target
    if target == "file":
        out.write_text("keep me")
    r = runner.invoke(app, ["compare", "whist", "whist", "--deals", "2", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert (f"error: --out {out}: not a folder (expected a folder for rows.csv, summary.json and the plots)"
            in " ".join(r.output.split()))
    assert "paired deals" not in r.output
    if target == "file":
        assert out.read_text() == "keep me"


def test_compare_out_folder_is_created_first(tmp_path):
    """case 4: a missing --out folder is created (with its parents) and the files written in it."""
    out = tmp_path / "a" / "b"
    r = runner.invoke(app, ["compare", "whist", "whist", "--deals", "2", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert (out / "rows.csv").is_file() and (out / "summary.json").is_file()


@pytest.mark.parametrize("args, option", [(["--matches", "2", "--max-hands", "0"], "--max-hands"),
                                          (["--matches", "2", "--max-hands", "-5"], "--max-hands"),
                                          (["--deals", "2", "--jobs", "-1"], "--jobs")])
def test_compare_refuses_bad_counts(args, option):
    """case 5: --max-hands must be at least 1 (as for play) and --jobs at least 0: a usage error (2)."""
    r = runner.invoke(app, ["compare", "whist", "whist", *args])
    assert r.exit_code == 2
    assert f"Invalid value for '{option}'" in r.output


# ---------------------------------------------------------------------- 6: diff's words
def test_diff_words_do_not_stop_at_e_g(tmp_path):
    """case 6: a description's first sentence does not end at "e.g." nor inside brackets: `seats`
    read "seat names clockwise from seat 0 (e.g: (not set) -> ..." before."""
    f = tmp_path / "c.yaml"
    f.write_text("extends: fivehundred\nid: fc\nname: Five hundred C\nseats: [A, B, C]\n")
    r = runner.invoke(app, ["diff", "fivehundred", str(f)])
    assert r.exit_code == 1, r.output
    assert ('- seat names clockwise from seat 0 (e.g. N E S W), for display and deal files: (not set) -> '
            '["A", "B", "C"] (seats)') in r.output


def test_diff_words_for_sides():
    """case 6: `sides` is said up to its first full stop outside brackets, "e.g. NS: [0, 2]" whole."""
    from rulekit.sim.diff import _meaning, _sentence
    data = load_variant("whist").data
    assert _meaning(("sides",), data) == ("partnerships: side name -> its seats (e.g. NS: [0, 2])", False)
    assert _meaning(("sides", "NS"), data) == ("partnerships: side name -> its seats: NS", False)
    assert _sentence("A rule (i.e. This one. And more), here. Then another.") == "a rule (i.e. This one. And more), here"


# ---------------------------------------------------------------------- 8: every stored field checked
@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    f = tmp_path_factory.mktemp("fin") / "g.json"
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--seed", "1", "--quiet", "--save", str(f)])
    assert r.exit_code == 0, r.output
    return json.loads(f.read_text())


def _edit_row(rec, key, value):
    rec["sheet"]["rows"][0][key] = value


@pytest.mark.parametrize("edit, words", [
    (lambda r: r["result"].__setitem__("totals", [0, 0, 1000]), "result.totals: stored [0, 0, 1000], replayed "),
    (lambda r: r.pop("sheet"), "the record of a finished game has no sheet"),
    (lambda r: r.pop("result"), "the record of a finished game has no result"),
    (lambda r: _edit_row(r, "trick_winners", [1] * 10), "hand 1 differs in its trick_winners: stored [1, 1, 1"),
    (lambda r: r["sheet"].__setitem__("columns", ["A", "B", "C"]),
     'sheet.columns: stored ["A", "B", "C"], replayed ["P0", "P1", "P2"]'),
])
def test_replay_refuses_every_edited_field(tmp_path, finished, edit, words):
    """case 8: replay and --resume compare everything stored that the replay recomputes (result
    totals, notes, trick winners, columns, the result block) and refuse a finished game without
    its sheet, naming the field that differs."""
    rec = json.loads(json.dumps(finished))
    words = words.replace("{note}", rec["sheet"]["rows"][0]["note"])   # as played by this version's bots
    edit(rec)
    f = tmp_path / "x.json"
    f.write_text(json.dumps(rec))
    for args in (["replay", str(f)], ["play", "--resume", str(f), "--auto"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 1, r.output
        text = " ".join(r.output.split())
        assert "the replayed sheet differs from the sheet stored in the record (" + words in text, text


def test_untouched_record_replays(tmp_path, finished):
    """case 8: the check refuses only what was changed."""
    f = tmp_path / "x.json"
    f.write_text(json.dumps(finished))
    r = runner.invoke(app, ["replay", str(f)])
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------------- 9: --save targets
def test_save_into_a_missing_folder_is_refused(tmp_path):
    """case 9: --save in a folder that does not exist is refused (exit 2); no folder is created."""
    target = tmp_path / "no" / "dir" / "x.json"
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--save", str(target)])
    assert r.exit_code == 2
    assert f"error: --save {target}: folder {target.parent} does not exist" in " ".join(r.output.split())
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_save_to_a_fifo_or_device_says_not_a_regular_file(tmp_path, kind):
    """case 9: --save to a FIFO or /dev/full is "not a regular file", not "already exists; continue
    that game with --resume" (which resume would refuse)."""
    import os
    target = tmp_path / "f" if kind == "fifo" else "/dev/full"
    if kind == "fifo":
        os.mkfifo(target)
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--save", str(target)])
    assert r.exit_code == 2
    assert (f"error: --save {target}: not a regular file (expected a file name such as game.json)"
            in " ".join(r.output.split()))
    assert "--resume" not in r.output


# ---------------------------------------------------------------------- 10: same words, same codes
@pytest.mark.parametrize("command", [["play"], ["compare", "whist"], ["diff", "whist"]])
def test_a_fifo_is_not_a_regular_file_for_every_command(tmp_path, command):
    """case 10: play, compare and diff say what validate says of a FIFO, and exit 2 (usage)."""
    import os
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    args = [command[0], str(fifo), *command[1:]]
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert f"error: {fifo}: not a regular file (expected a variant .yaml file)" in " ".join(r.output.split())
    r = runner.invoke(app, ["validate", str(fifo)])
    assert f"{fifo}:1:1: (document): not a regular file (expected a variant .yaml file)" in r.output


@pytest.mark.parametrize("command", [["play"], ["compare", "whist"], ["diff", "whist"]])
def test_a_missing_variant_file_exits_2_everywhere(tmp_path, command):
    """case 10: a missing variant file is a usage error (2) for compare as for play and diff
    (docs/cli.md's exit-code table); compare exited 1."""
    missing = tmp_path / "nope.yaml"
    r = runner.invoke(app, [command[0], str(missing), *command[1:]])
    assert r.exit_code == 2, r.output
    assert f"error: no such variant or file '{missing}'" in " ".join(r.output.split())


def test_a_broken_variant_file_exits_1_in_compare(tmp_path):
    """case 10: a file that exists but is broken stays exit 1 for compare (its content is wrong)."""
    f = tmp_path / "b.yaml"
    f.write_text("id: b\nname: B\nplayers: banana\n")
    r = runner.invoke(app, ["compare", str(f), "whist", "--deals", "2"])
    assert r.exit_code == 1, r.output
    assert f"{f}:" in r.output


# ---------------------------------------------------------------------- 11: --auto's words
def test_auto_help_says_what_auto_prints():
    """case 11: --auto prints one line per trick, not "a short summary per hand"; its help says so."""
    r = runner.invoke(app, ["play", "--help"])
    text = " ".join(r.output.replace("│", " ").split())
    assert "short summary per hand" not in text
    assert "Bots in every seat; print each hand as it is played (its auction, one line per trick, its score)." in text
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--seed", "1", "--max-hands", "1"])
    lines = r.output.splitlines()
    assert sum(1 for line in lines if line.strip().startswith("trick ")) == 10
    assert any(line.strip().startswith("auction") for line in lines)


# ---------------------------------------------------------------------- 12: extra bids explained
def test_help_explains_an_extra_bid():
    """case 12 (rules/fivehundred.md [A4]): `help` says what 10T is: ten tricks, trump named by the
    declarer later, only over 10NT, scored as a ten in the suit named (10S 440 .. 10H 500)."""
    r = runner.invoke(app, ["play", "fivehundred", "--seed", "1"], input="help\nquit\n")
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert ("10T 10 tricks, the declarer names the trump later; only over 10NT; worth 440 to 500 made, "
            "by the trump named") in text


def test_no_extra_bid_lines_without_extra_bids():
    """case 12: a ladder without extra bids adds no line."""
    from rulekit.cli.game import extra_bid_lines
    assert extra_bid_lines(State(load_variant("whist"), seed=1)) == []


# ---------------------------------------------------------------------- 13: nits
@pytest.mark.parametrize("seed, words", [
    ("9" * 5000, "not valid JSON (an integer of 5000 digits; a record's numbers have at most 40)"),
    (str(2 ** 64), f"\"seed\" must be an integer from 0 to {2 ** 63 - 1}, not {2 ** 64}"),
    ("-3", f"\"seed\" must be an integer from 0 to {2 ** 63 - 1}, not -3"),
])
def test_a_record_seed_is_bounded(tmp_path, finished, seed, words):
    """case 13: a huge integer seed in a record gets a clear message, not Python's "Exceeds the
    limit (4300 digits) ... set_int_max_str_digits"."""
    f = tmp_path / "x.json"
    f.write_text(json.dumps(finished).replace('"seed": 1,', f'"seed": {seed},', 1))
    r = runner.invoke(app, ["replay", str(f)])
    assert r.exit_code == 1
    text = " ".join(r.output.split())
    assert f"error: {f}: {words}" in text and "4300" not in text


def test_play_seed_range():
    """case 13: --seed takes 0..2**63-1, the range a record keeps."""
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--seed", "-1"])
    assert r.exit_code == 2 and "Invalid value for '--seed'" in r.output


@pytest.fixture(scope="module")
def small_comparison():
    from rulekit.sim.compare import compare
    return compare(["whist", "whist"], n=3, unit="deals", bots=["random"], seed=1, jobs=1)


def test_rows_csv_defuses_formulas(tmp_path, small_comparison):
    """case 13: rows.csv text cells starting with = + - @ get a leading apostrophe (CSV injection);
    numbers, negative ones included, and rows.jsonl keep their values."""
    import copy
    import csv
    from rulekit.sim.output import write_rows
    result = copy.deepcopy(small_comparison)
    result.rows[0].update(variant="=HYPERLINK(\"x\")", contract="+1", trump="@A", score_1=-14)
    write_rows(result, tmp_path)
    with open(tmp_path / "rows.csv", newline="", encoding="utf-8") as f:
        row = next(csv.DictReader(f))
    assert (row["variant"], row["contract"], row["trump"], row["score_1"]) == \
        ("'=HYPERLINK(\"x\")", "'+1", "'@A", "-14")
    first = json.loads((tmp_path / "rows.jsonl").read_text().splitlines()[0])
    assert first["variant"] == "=HYPERLINK(\"x\")"


def test_plots_leave_stderr_quiet(tmp_path, small_comparison):
    """case 13: no matplotlib warning ("No artists with labels found", a missing glyph) reaches
    stderr when the plots are written."""
    pytest.importorskip("matplotlib")
    import warnings
    from rulekit.sim.output import write_plots
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        files = write_plots(small_comparison, tmp_path)
    assert [f.name for f in files] == ["scores.png", "convergence.png"]
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("edit", [lambda r: _edit_row(r, "note", "P0 10NT made (old wording)"),
                                  lambda r: r["result"].__setitem__("reason", "reached 500 points")])
def test_replay_accepts_a_record_worded_by_another_version(finished, edit):
    """This stop: the words the engine writes (a row's note, the end's reason) changed for some
    games (a trick-bidding hand's note now gives the bids, a tie is said in words), and a record
    saved before refused to load ("hand 1 differs in its note"): its numbers are checked, its
    wording is written anew by the replay, so an older record still loads (no data lost)."""
    rec = json.loads(json.dumps(finished))
    edit(rec)
    assert records.sheet_mismatch(rec, records.replay(rec)) == ""
