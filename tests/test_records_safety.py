"""Records are untrusted input shared between players; saving never loses a game."""
from __future__ import annotations

import json
import os
from pathlib import Path
import random
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rulekit import pbn, records
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.errors import RecordError
from rulekit.variant import load_variant
from tests.helpers import runner

RULEKIT = [sys.executable, "-c", "from rulekit.cli.app import main; main()"]

ENV = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1", TERM="dumb", COLUMNS="200")

ROOT = Path(__file__).resolve().parent.parent

HOUSE = "id: my-house\nextends: fivehundred\nname: My house\nmatch:\n  target: 300\n"


def cli(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def random_state(variant, seed=1, actions=60, **kw):
    st = State(variant, seed=seed, **kw)
    rng = random.Random(seed)
    for _ in range(actions):
        if st.is_over:
            break
        legal = st.legal_actions()
        st.apply(legal[int(rng.random() * len(legal))])
    return st


def finished_record(tmp_path, name="g.json", seed=1) -> Path:
    """A short finished bot game of fivehundred saved to ``tmp_path / name``."""
    f = tmp_path / name
    r = cli("play", "fivehundred", "--auto", "--quiet", "--seed", seed, "--max-hands", 1, "--save", f)
    assert r.exit_code == 0, r.output
    return f


def test_record_does_not_open_the_path_it_names(tmp_path, monkeypatch):
    """A record's variant_file is never followed to another folder: a valid
    variant file elsewhere on the machine is not read, and the refusal does not name it."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "house.yaml").write_text(HOUSE)
    st = random_state(load_variant(str(elsewhere / "house.yaml")), seed=4, actions=30)
    rec = records.to_record(st)
    rec.pop("variant_text")
    rec["variant_file"] = str(elsewhere / "house.yaml")         # what older records held
    mailed = tmp_path / "inbox"
    mailed.mkdir()
    f = mailed / "g.json"
    f.write_text(json.dumps(rec))
    r = cli("replay", f)
    assert r.exit_code == 1
    assert "variant 'my-house' cannot be loaded: it is not installed" in r.output
    assert "elsewhere" not in r.output
    # /etc/shadow, /proc/self/environ as variant or variant_file: never opened
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: opened.append(str(p)) or real_open(p, *a, **k))
    for bad in ({"variant_file": "/etc/shadow"}, {"variant": "/proc/self/environ", "variant_file": None}):
        f.write_text(json.dumps(dict(rec, **bad)))
        r = cli("replay", f)
        assert r.exit_code == 1 and "not installed" in r.output
    assert not [p for p in opened if p.startswith(("/etc", "/proc"))]


def test_record_carries_its_variant_checked_by_hash(tmp_path):
    """A game of a variant file replays after the file is gone (the record holds
    the merged variant), and an altered variant text is refused by its hash."""
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE)
    f = tmp_path / "out" / "g.json"
    f.parent.mkdir()
    r = cli("play", house, "--auto", "--quiet", "--seed", 3, "--max-hands", 1, "--save", f)
    assert r.exit_code == 0, r.output
    house.unlink()
    rec = json.loads(f.read_text())
    assert rec["variant_file"] == "house.yaml" and "target: 300" in rec["variant_text"]
    r = cli("replay", f)
    assert r.exit_code == 0 and "My house" in r.output
    f.write_text(json.dumps(dict(rec, variant_text=rec["variant_text"].replace("target: 300", "target: 200"))))
    r = cli("replay", f)
    assert r.exit_code == 1 and "the variant stored in the record does not match its hash" in r.output


def test_embedded_variant_cannot_extend_a_file(tmp_path):
    """An extends: slipped into a record's variant text names installed ids only."""
    st = random_state(load_variant("fivehundred"), seed=2, actions=10)
    rec = dict(records.to_record(st), variant="x", variant_text="id: x\nextends: /etc/passwd\n")
    with pytest.raises(RecordError, match="does not load: .*'/etc/passwd' does not exist"):
        records.replay(rec)


def test_old_record_of_an_installed_variant_still_loads(tmp_path):
    """An older record with an absolute variant_file and an installed id replays
    with the installed variant; a file of that name beside the record is used when present."""
    f = finished_record(tmp_path)
    rec = json.loads(f.read_text())
    assert rec["variant_file"] is None and rec["variant_text"] is None   # installed: named by id
    del rec["variant_text"]
    f.write_text(json.dumps(dict(rec, variant_file="/somewhere/else/fivehundred.yaml")))
    assert cli("replay", f).exit_code == 0
    base = (Path(__file__).parent.parent / "variants" / "fivehundred.yaml").read_text()
    (tmp_path / "fivehundred.yaml").write_text(base + "\nhome_seat: 1\n")
    r = cli("replay", f)
    assert r.exit_code == 1 and "has changed since this record was made" in r.output


def test_tampered_start_scores_say_what_differs(tmp_path):
    """Start scores changed in a record: the message names the start scores and
    shows two different values."""
    f = finished_record(tmp_path)
    rec = json.loads(f.read_text())
    rec["start"] = [320, 0, 0]
    f.write_text(json.dumps(rec))
    r = cli("replay", f)
    assert r.exit_code == 1
    assert ("the replayed sheet differs from the sheet stored in the record (start scores: the stored sheet "
            "starts at [0, 0, 0], the replay at [320, 0, 0])") in r.output


def test_mismatch_names_the_field(fivehundred):
    """Totals, entries and winners are named when they differ."""
    st = random_state(fivehundred, seed=6, actions=80)
    rec = json.loads(json.dumps(records.to_record(st)))
    rec["sheet"]["rows"][0]["totals"][1] += 5
    t = st.sheet.rows[0].totals
    assert records.sheet_mismatch(rec, records.replay(rec)) == \
        f"hand 1 differs in its totals: stored {[t[0], t[1] + 5, t[2]]}, replayed {list(t)}"
    rec = json.loads(json.dumps(records.to_record(st)))
    rec["result"]["winners"] = [2]
    assert records.sheet_mismatch(rec, records.replay(rec)) == f"winners: stored [2], replayed {list(st.winners)}"


def test_pbn_board_numbers_after_a_redeal_by_the_same_dealer(tmp_path):
    """Chicago, all four pass on the first deal: the same dealer redeals the same
    board, so the later deals are boards 1, 2 (not 2, 3)."""
    v = load_variant("bridge-chicago")
    st = State(v, seed=11, dealer=0)
    for _ in range(4):
        st.apply("pass")
    assert st.hand.number == 1 and st.hand.dealer == 0          # redealt by the same dealer
    rng = random.Random(1)
    while len(st.hand_log) < 3:
        if st.phase_kind.endswith("auction"):                    # 1C, then three passes
            st.apply("pass" if st.hand.calls else "1C")
        else:
            legal = st.legal_actions()
            st.apply(legal[int(rng.random() * len(legal))])
    assert [pbn.board_number(st, h) for h in st.hand_log] == [1, 1, 2]
    f = tmp_path / "c.json"
    records.save(f, records.to_record(st))
    r = cli("replay", f, "--pbn")
    assert r.exit_code == 0, r.output
    import re
    assert re.findall(r'\[Board "(\d+)"\]', r.output) == ["1", "1", "2"]


def test_two_new_games_into_one_record_lose_nothing(tmp_path):
    """Two processes start games saved to one new file at once: exactly one
    succeeds and the other is refused (exit 2); the file holds the game that succeeded."""
    same = tmp_path / "same.json"
    procs = [subprocess.Popen(RULEKIT + ["play", "fivehundred", "--auto", "--seed", str(seed), "--quiet",
                                         "--max-hands", "1", "--save", str(same)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True)
             for seed in (1, 2)]
    outs = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    codes = sorted(o[2] for o in outs)
    assert codes == [0, 2], outs
    winner = [seed for seed, o in zip((1, 2), outs) if o[2] == 0][0]
    loser = [o for o in outs if o[2] == 2][0]
    assert "in use by another rulekit process" in loser[1] or "already exists" in loser[1], loser
    assert records.load(same)["seed"] == winner


def test_a_record_in_use_is_refused(tmp_path):
    """While one process holds a record (as a game does), a second `--save` to
    it or `--resume` of it is refused with a clear message and the record is unchanged."""
    f = finished_record(tmp_path)
    before = f.read_bytes()
    new = tmp_path / "new.json"
    with records.RecordLock(f), records.RecordLock(new):
        for args in (["play", "--resume", str(f), "--auto", "--quiet"],
                     ["play", "fivehundred", "--auto", "--quiet", "--seed", "2", "--save", str(new)]):
            r = subprocess.run(RULEKIT + args, capture_output=True, text=True, env=ENV, timeout=120)
            assert r.returncode == 2, r.stderr
            assert "the record is in use by another rulekit process" in r.stderr
    assert f.read_bytes() == before and not new.exists()
    assert not (tmp_path / ".g.json.lock").exists()      # released and removed


def test_two_resumes_of_one_record(tmp_path):
    """A second `--resume` of a record a human is playing is refused; the first
    keeps its move."""
    f = tmp_path / "g.json"
    r = cli("play", "fivehundred", "--seed", 1, "--players", "human,bot,bot", "--save", f, input="quit\n")
    assert r.exit_code == 0, r.output
    first = subprocess.Popen(RULEKIT + ["play", "--resume", str(f)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True)
    for line in first.stdout:           # the record is locked before this line is printed
        if line.startswith("resumed"):
            break
    second = subprocess.run(RULEKIT + ["play", "--resume", str(f)], input="pass\nquit\n",
                            capture_output=True, text=True, env=ENV, timeout=120)
    assert second.returncode == 2 and "in use by another rulekit process" in second.stderr
    before = records.replay(records.load(f))
    move = next(a.text for a in before.legal_actions() if a.text != "pass")
    out, err = first.communicate(f"{move}\nquit\n", timeout=120)
    assert first.returncode == 0, err
    assert records.load(f)["actions"][len(before.history)] == [before.to_move, move]


def test_exclusive_create_never_replaces_a_file():
    """records.save(..., exclusive=True) refuses an existing name and writes nothing."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "r.json"
        f.write_text("{}")
        with pytest.raises(FileExistsError):
            records.save(f, {"a": 1}, exclusive=True)
        assert f.read_text() == "{}" and os.listdir(d) == ["r.json"]
        records.save(Path(d) / "n.json", {"a": 1}, exclusive=True)
        assert json.loads((Path(d) / "n.json").read_text()) == {"a": 1}


@pytest.mark.parametrize("kind", ["device", "fifo", "large"])
def test_only_regular_files_of_bounded_size_are_read(tmp_path, kind):
    """/dev/zero, a FIFO (would block forever) and an oversized file are refused
    before they are read, by replay and by --resume: the first two are no regular file (a usage
    error, 2), the last a broken record (1)."""
    code = 2
    if kind == "device":
        f, want = Path("/dev/zero"), "/dev/zero: not a regular file (expected a record file written by rulekit)"
    elif kind == "fifo":
        f = tmp_path / "fifo.json"
        os.mkfifo(f)
        want = f"{f}: not a regular file (expected a record file written by rulekit)"
    else:
        code = 1
        f = tmp_path / "big.json"
        with open(f, "wb") as out:
            out.truncate(records.MAX_RECORD_SIZE + 1)
        want = f"{f}: the file has {records.MAX_RECORD_SIZE + 1} bytes (expected a record of at most " \
               f"{records.MAX_RECORD_SIZE})"
    for args in (["replay", f], ["play", "--resume", f, "--auto"]):
        r = cli(*args)
        assert r.exit_code == code and want in " ".join(r.output.split()), r.output


def test_long_names_are_refused(tmp_path):
    """A 100 kB player name is refused at load (it would be copied into every save)."""
    f = finished_record(tmp_path)
    rec = json.loads(f.read_text())
    rec["names"][1] = "x" * 100_000
    f.write_text(json.dumps(rec))
    r = cli("play", "--resume", f, "--auto")
    assert r.exit_code == 1
    assert f"{f}: names[1] is 100000 characters long (expected at most {records.MAX_NAME})" in \
        " ".join(r.output.split())
    with pytest.raises(RecordError, match="'variant' is 300 characters long"):
        records.load(f.write_text(json.dumps(dict(rec, names=None, variant="v" * 300))) and f)


@pytest.mark.parametrize("name, shown", [("Evil\nP0 wins", "Evil^JP0 wins"), ("\x1b[31mRed", "^[[31mRed"),
                                         ("Bell\x07", "Bell^G"), ("Rtl\u202e", "Rtl\\u202e")])
def test_names_with_control_characters_are_refused(tmp_path, name, shown):
    """A record's player name holding a control or format character (a newline that would print
    a forged line, ESC, BEL, a bidi override) is refused at load, as a pad's is, by replay and by
    resume alike; the file is left as it was."""
    f = finished_record(tmp_path)
    rec = json.loads(f.read_text())
    rec["names"][0] = name
    f.write_text(json.dumps(rec))
    before = f.read_bytes()
    for args in (["replay", f], ["play", "--resume", f, "--auto", "--quiet"]):
        r = cli(*args)
        assert r.exit_code == 1, r.output
        assert f"{f}: names[0] holds a control character ({shown})" in " ".join(r.output.split())
    assert f.read_bytes() == before


def test_lone_surrogate_in_a_name_is_refused_at_load(tmp_path):
    """JSON "\\ud800" in a name is refused when the record is read, not a crash at save."""
    f = finished_record(tmp_path)
    f.write_text(f.read_text().replace('"P1"', '"P\\ud800"', 1))
    r = cli("play", "--resume", f, "--auto", "--quiet")
    assert r.exit_code == 1, r.output
    assert "names[1]: character 2 is a lone UTF-16 surrogate ('\\ud800'), which is not text" in \
        " ".join(r.output.split())
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_resume_verifies_the_stored_sheet_like_replay(tmp_path):
    """A record with tampered totals is refused by --resume with replay's message,
    and it is not rewritten."""
    f = finished_record(tmp_path)
    rec = json.loads(f.read_text())
    rec["sheet"]["rows"][0]["totals"][0] += 100
    f.write_text(json.dumps(rec))
    before = f.read_bytes()
    replayed = cli("replay", f)
    resumed = cli("play", "--resume", f, "--auto", "--quiet")
    assert replayed.exit_code == resumed.exit_code == 1
    assert "the replayed sheet differs from the sheet stored in the record (hand 1 differs in its totals" \
        in resumed.output
    assert resumed.output == replayed.output
    assert f.read_bytes() == before


def test_stale_temp_files_are_removed_by_the_next_game(tmp_path):
    """Temporary files left by a save killed with -9 are removed when the record
    is next played (the game holds the record's lock, so they belong to no live save)."""
    f = finished_record(tmp_path)
    stale = [tmp_path / ".g.json.k9x_a1b2.tmp", tmp_path / ".g.json.zzzzzzzz.tmp"]
    for s in stale:
        s.write_text('{"half": ')
    other = tmp_path / ".other.json.abcdefgh.tmp"
    other.write_text("not ours")
    r = cli("play", "--resume", f, "--auto", "--quiet")
    assert r.exit_code == 0, r.output
    assert sorted(os.listdir(tmp_path)) == [".other.json.abcdefgh.tmp", "g.json"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_resume_through_a_symlink_writes_the_target(tmp_path):
    """--resume through a symbolic link keeps the link and updates its target."""
    (tmp_path / "real").mkdir()
    f = finished_record(tmp_path / "real")
    link = tmp_path / "link.json"
    link.symlink_to(f)
    rec = json.loads(f.read_text())
    rec["players"] = ["random", "random", "random"]
    records.save(link, rec)
    assert link.is_symlink() and json.loads(f.read_text())["players"] == ["random"] * 3
    r = cli("play", "--resume", link, "--auto", "--quiet")
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == str(f)
    assert json.loads(f.read_text())["players"] == ["bot"] * 3


# ---------------------------------------------------------------------- every stored field checked
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
    """Replay and --resume compare everything stored that the replay recomputes (result
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
    """The check refuses only what was changed."""
    f = tmp_path / "x.json"
    f.write_text(json.dumps(finished))
    r = runner.invoke(app, ["replay", str(f)])
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------------- --save targets
def test_save_into_a_missing_folder_is_refused(tmp_path):
    """--save in a folder that does not exist is refused (exit 2); no folder is created."""
    target = tmp_path / "no" / "dir" / "x.json"
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--save", str(target)])
    assert r.exit_code == 2
    assert f"error: --save {target}: folder {target.parent} does not exist" in " ".join(r.output.split())
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_save_to_a_fifo_or_device_says_not_a_regular_file(tmp_path, kind):
    """--save to a FIFO or /dev/full is "not a regular file", not "already exists; continue
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


@pytest.mark.parametrize("text", [(ROOT / "docs" / "examples" / "tiny.yaml").read_text(), '{"notes": 1}\n'],
                         ids=["variant file", "other json"])
def test_save_over_a_file_that_is_no_record_is_refused_without_suggesting_resume(tmp_path, text):
    """--save naming an existing file that is not a game record (a variant file, other JSON):
    refused (exit 2) without suggesting `--resume` of it, and the file is left as it was."""
    target = tmp_path / "house.yaml"
    target.write_text(text)
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--save", str(target)])
    assert r.exit_code == 2
    assert " ".join(r.output.split()) == (f"error: --save {target}: the file already exists and is not a game "
                                          f"record (saving would replace it); choose a new file name such as game.json")
    assert target.read_text() == text


# ---------------------------------------------------------------------- nits
@pytest.mark.parametrize("seed, words", [
    ("9" * 5000, "not valid JSON (an integer of 5000 digits; a record's numbers have at most 40)"),
    (str(2 ** 64), f"\"seed\" must be an integer from 0 to {2 ** 63 - 1}, not {2 ** 64}"),
    ("-3", f"\"seed\" must be an integer from 0 to {2 ** 63 - 1}, not -3"),
])
def test_a_record_seed_is_bounded(tmp_path, finished, seed, words):
    """A huge integer seed in a record gets a clear message, not Python's "Exceeds the
    limit (4300 digits) ... set_int_max_str_digits"."""
    f = tmp_path / "x.json"
    f.write_text(json.dumps(finished).replace('"seed": 1,', f'"seed": {seed},', 1))
    r = runner.invoke(app, ["replay", str(f)])
    assert r.exit_code == 1
    text = " ".join(r.output.split())
    assert f"error: {f}: {words}" in text and "4300" not in text


@pytest.mark.parametrize("edit", [lambda r: _edit_row(r, "note", "P0 10NT made (old wording)"),
                                  lambda r: r["result"].__setitem__("reason", "reached 500 points")])
def test_replay_accepts_a_record_worded_by_another_version(finished, edit):
    """A record whose words (a row's note, the end's reason) differ from what this version writes
    still loads: its numbers are checked, its wording is written anew by the replay, so a record
    saved by another version loses no data."""
    rec = json.loads(json.dumps(finished))
    edit(rec)
    assert records.sheet_mismatch(rec, records.replay(rec)) == ""
