"""`rulekit score` never loses a pad: it is locked before it is read, a failed save keeps the
hands and says how to retry, pad files are read with the limits and checks of game records
(tampering refused with its reason), exports are escaped, never written over the pad or an
existing file without --force, and hold the whole sheet in a table with a named header."""
from __future__ import annotations

import csv
import os
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from rulekit import records
from rulekit.sheets.scorepad import ScorePad
from rulekit.variant import load_variant

FIVE = ["8H", "P1", "1 8", "6S", "P0", "7 1"]    # two Five Hundred hands


def score(*args, lines=()):
    return CliRunner().invoke(app, ["score", *map(str, args)], input="\n".join(lines) + "\n")


@pytest.fixture
def pad_file(tmp_path):
    f = tmp_path / "pad.json"
    r = score("fivehundred", "--dealer", "0", "--file", f, lines=FIVE + ["quit"])
    assert r.exit_code == 0, r.output
    return f


def test_second_process_on_a_pad_is_refused_before_reading(pad_file):
    """While one `rulekit score` holds the pad, a second one is refused at once with a clear
    message and exit 2 (as a record in use), and the pad keeps its hands (the lock is taken before
    the pad is read)."""
    holder = records.RecordLock(pad_file)
    try:
        r = score("--file", pad_file, lines=["pass", "3 3", "quit"])
    finally:
        holder.release()
    assert r.exit_code == 2
    assert "the pad is in use by another rulekit process" in r.output
    assert len(json.loads(pad_file.read_text())["hands"]) == 2


def test_two_processes_at_once_lose_no_hand(tmp_path):
    """Two real `rulekit score` processes on one existing pad: one adds its hand, the other is
    refused (exit 2); never both exit 0 with one hand lost."""
    f = tmp_path / "pad.json"
    assert score("fivehundred", "--dealer", "0", "--file", f, lines=FIVE + ["quit"]).exit_code == 0
    cmd = [str(Path(sys.executable).with_name("rulekit")), "score", "--file", str(f)]
    procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for _ in range(2)]
    first = procs[0]
    # the first holds the pad while it waits for its answers; the second comes meanwhile
    out2, _ = procs[1].communicate(b"pass\n3 3\nquit\n", timeout=60)
    out1, _ = first.communicate(b"pass\n3 3\nquit\n", timeout=60)
    codes = sorted([first.returncode, procs[1].returncode])
    hands = len(json.loads(f.read_text())["hands"])
    assert (codes, hands) in (([0, 2], 3), ([0, 0], 4)), (codes, hands, out1, out2)


def test_failed_save_keeps_the_hand_and_says_how_to_retry(pad_file, monkeypatch):
    """A full disk: the save of the third hand fails; the pad says so and how to retry, keeps
    the hand in memory, and `save` once the disk has room writes it."""
    real = records.save
    state = {"full": True}

    def save(path, record, exclusive=False):
        if state["full"]:
            raise OSError(28, "No space left on device")
        return real(path, record, exclusive)

    monkeypatch.setattr(records, "save", save)
    runner = CliRunner()
    r = runner.invoke(app, ["score", "--file", str(pad_file)], input="pass\n3 3\nquit\nsave\nquit\n")
    assert r.exit_code == 0, r.output
    assert "not saved: cannot write" in r.output and "No space left on device" in r.output
    assert "type save" in r.output and "quit again to leave without saving" in r.output
    assert len(json.loads(pad_file.read_text())["hands"]) == 2      # the disk stayed full
    state["full"] = False
    r = runner.invoke(app, ["score", "--file", str(pad_file)], input="pass\n3 3\nquit\n")
    assert r.exit_code == 0 and len(json.loads(pad_file.read_text())["hands"]) == 3


def test_save_command_retries_after_a_failure(pad_file, monkeypatch):
    """`save` at any prompt tries again: the hand entered while the disk was full is written."""
    real = records.save
    calls = []

    def save(path, record, exclusive=False):
        calls.append(1)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        return real(path, record, exclusive)

    monkeypatch.setattr(records, "save", save)
    r = score("--file", pad_file, lines=["pass", "3 3", "save", "quit"])
    assert r.exit_code == 0, r.output
    assert f"saved to {pad_file}" in r.output
    assert len(json.loads(pad_file.read_text())["hands"]) == 3


def _tampered(pad_file, change):
    data = json.loads(pad_file.read_text())
    change(data)
    pad_file.write_text(json.dumps(data))


@pytest.mark.parametrize("change,reason", [
    (lambda d: d.update(version=99), "a scorepad of version 99, which this rulekit does not read"),
    (lambda d: d.update(variant_hash="0" * 64), "the variant 'fivehundred' has changed since this pad was written"),
    (lambda d: d["sheet"]["rows"][0]["totals"].__setitem__(1, 999),
     "the sheet stored in the pad differs from the sheet its hands give (hand 1 differs in its totals"),
    (lambda d: d["names"].__setitem__(0, "x" * 3_000_000), "characters long (expected at most 2000)"),
    (lambda d: d["names"].__setitem__(0, "A\x1b[31m"), "names[0] holds a control character (A^[[31m)"),
    (lambda d: d["hands"][0].update(declarer="P1"), None),   # a name for a seat is an answer as typed
    (lambda d: d["hands"][0].update(declarer=[1.5]), "hands[0].declarer[0]: 1.5 is not a whole number"),
    (lambda d: d["hands"][0].update(tricks="many"), "hand 1: tricks: 'many' is not a number"),
    (lambda d: d.update(first_dealer="P0"), "'first_dealer' must be a whole number"),
])
def test_tampered_pads_are_refused_with_the_reason(pad_file, change, reason):
    """A pad is read as a record is: a version it does not know, another variant hash, a stored
    sheet that its hands do not give, a text past the limits or with control characters, a
    fact of the wrong type: refused with the reason (exit 1), in `score` and `score --export`."""
    _tampered(pad_file, change)
    for args in (["--file", pad_file], ["--file", pad_file, "--export", pad_file.parent / "out.csv"]):
        r = score(*args, lines=["quit"])
        if reason is None:
            assert r.exit_code == 0, r.output
            continue
        assert r.exit_code == 1, r.output
        assert reason in r.output.replace("\n", " ") or reason in r.output, r.output
        assert "Traceback" not in r.output


@pytest.mark.parametrize("text,reason", [
    ('{"kind": "rulekit-scorepad", "version": 1, "n": ' + "9" * 5000 + "}", "an integer of 5000 digits"),
    ("[" * 100_000 + "]" * 100_000, "not a scorepad file"),
    ('{"kind": "rulekit-scorepad", "version": NaN}', "NaN is not a number a pad holds"),
    ('{"kind": "rulekit-scorepad", "version": 1, "x": ' + "[" * 50 + "]" * 50 + "}", "nested more than 12 levels"),
    ("\xff\xfe", "not UTF-8"),
])
def test_hostile_pad_files_give_a_message_not_a_traceback(tmp_path, text, reason):
    """A 5,000-digit integer, JSON nested 100,000 deep, NaN, deep nesting, bytes that are not
    UTF-8: a message and exit 1 in `score` and `score --export`, never a traceback."""
    f = tmp_path / "pad.json"
    f.write_bytes(text.encode("utf-8", "surrogateescape") if text != "\xff\xfe" else b"\xff\xfe")
    for args in (["--file", f], ["--file", f, "--export", tmp_path / "out.csv"]):
        r = score(*args, lines=["quit"])
        assert r.exit_code == 1 and reason in r.output and "Traceback" not in r.output, r.output


def test_export_never_writes_over_the_pad_or_an_existing_file(pad_file):
    """`--export` onto the pad itself is refused (exit 2) and the pad kept; onto another existing
    file only with --force."""
    before = pad_file.read_bytes()
    r = score("--file", pad_file, "--export", pad_file.with_suffix(".json"))
    assert r.exit_code == 2 and "that is the pad itself" in r.output
    r = score("--file", pad_file, "--export", pad_file, "--force")
    assert r.exit_code == 2 and pad_file.read_bytes() == before
    other = pad_file.parent / "sheet.csv"
    other.write_text("keep me")
    r = score("--file", pad_file, "--export", other)
    assert r.exit_code == 2 and "exists: use --force" in r.output and other.read_text() == "keep me"
    r = score("--file", pad_file, "--export", other, "--force")
    assert r.exit_code == 0 and other.read_text().startswith("row,hand,note")


def _preferans_pad(tmp_path):
    """A preferans pad (bulas of 6) with refes, soups and the end of the match."""
    v = tmp_path / "pref.yaml"
    v.write_text("extends: preferans\nid: pref-six\nname: Preferans\nscoring: {start: 6}\n")
    f = tmp_path / "pad.json"
    typed = ["pass", "karo", "P0", "follow follow", "-", "6 2 2", "karo", "P1", "follow follow", "-", "3 6 1", "quit"]
    r = score(v, "--dealer", "0", "--file", f, lines=typed)
    assert r.exit_code == 0, r.output
    return v, f


def test_csv_export_holds_the_whole_sheet(tmp_path):
    """The CSV holds every column of the bula sheet ([S1]-[S8]): entries and totals, each
    soup written against another player, refe marks, the final results and the winner, with
    a header naming each column; a rectangular table any CSV reader (pandas too) reads."""
    v, f = _preferans_pad(tmp_path)
    out = tmp_path / "sheet.csv"
    r = score(v, "--file", f, "--export", out)
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    header = next(csv.reader(io.StringIO(out.read_text())))
    assert {"P0 refe", "P1 against P0", "P0 result", "winner"} <= set(header)
    assert len(set(header)) == len(header)
    assert all(len(r) == len(header) for r in csv.reader(io.StringIO(out.read_text())))
    assert [r["row"] for r in rows] == ["deal", "deal", "deal", "total"]   # [S7] over after the third deal
    assert [r["P0 refe"] for r in rows[:2]] == ["new", "passed"]            # [R1] [R2]
    assert rows[1]["P1 against P0"] == "24" and rows[1]["P2 against P0"] == "24"   # 2 tricks x 6 x 2 (refe)
    total = rows[-1]
    assert [total["P0 result"], total["P1 result"], total["P2 result"]] == ["-28", "-16", "44"]   # [S8]
    assert total["P0 refe"] == "new passed" and total["P1 against P0"] == "24"
    assert total["winner"] == "P0" and total["reason"] == "the totals add up to -6, at or below 0"
    try:
        import pandas   # noqa: F401  (not a dependency: checked when installed)
    except ImportError:
        return
    frame = pandas.read_csv(out)
    assert list(frame.columns) == header and len(frame) == 4


def test_json_export_is_the_same_table(tmp_path):
    """The JSON export is one object per row of the same table, keyed by the header."""
    v, f = _preferans_pad(tmp_path)
    out_csv, out_json = tmp_path / "s.csv", tmp_path / "s.json"
    score(v, "--file", f, "--export", out_csv)
    score(v, "--file", f, "--export", out_json)
    header = next(csv.reader(io.StringIO(out_csv.read_text())))
    rows = json.loads(out_json.read_text())
    assert [list(r) for r in rows] == [header] * len(rows)
    assert rows[1]["P1 against P0"] == 24 and rows[0]["P0 refe"] == "new"


def test_bridge_export_has_parts_games_and_the_line(tmp_path):
    """A rubber's export holds each side's below- and above-the-line entries, game points and
    whether a line was drawn ([S2] [S8])."""
    f = tmp_path / "pad.json"
    assert score("bridge", "--file", f, "--dealer", "N", lines=["4S", "N", "-", "10", "0", "0", "quit"]).exit_code == 0
    out = tmp_path / "s.csv"
    score("--file", f, "--export", out)
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert rows[0]["NS below"] == "120" and rows[0]["line"] == "1" and rows[0]["NS games"] != ""


def test_exports_escape_control_characters(tmp_path):
    """A name with an escape sequence (a pad made elsewhere) is written escaped in every export,
    never as the raw control character."""
    v = load_variant("fivehundred")
    pad = ScorePad(v, names=["A\x1b[2J", "B", "C"])
    pad.add({"contract": "8H", "declarer": 1, "tricks": [1, 8, 1]})
    for text in (pad.export_csv(), pad.export_json(), pad.export_text()):
        assert "\x1b" not in text and "A^[[2J" in text


def test_a_refused_answer_is_asked_again_and_undo_takes_back_one_answer(tmp_path):
    """Boston [B5]: naming the declarer as his own partner is refused and asked again; the next
    answers are taken (no exit, nothing lost); `undo` at the tricks takes back exactly one
    answer (the partner, asked again), and the hand is saved as entered."""
    f = tmp_path / "pad.json"
    lines = ["s", "5H", "N", "N", "S", "undo", "S", "4 2 4 3", "quit"]
    r = score("boston", "--file", f, "--dealer", "W", lines=lines)
    assert r.exit_code == 0, r.output
    assert "refused: the declarer cannot be his own partner" in r.output
    assert "undone: the last answer" in r.output
    assert r.output.count("partner > ") == 3 and r.output.count("tricks N E S W > ") == 2
    hand = json.loads(f.read_text())["hands"][0]
    assert hand["partner"] == 2 and hand["tricks"] == [4, 2, 4, 3]
    assert json.loads(f.read_text())["sheet"]["rows"][0]["entries"] == [1, 0, 1, 0]   # 8 with a partner: 3 - 2 x 0


@pytest.mark.parametrize("sig, code, said", [(signal.SIGINT, 130, "interrupted"),
                                             (signal.SIGTERM, 143, "stopped by signal 15")])
def test_a_signal_saves_the_pad_and_exits_128_plus_its_number(tmp_path, sig, code, said):
    """Ctrl-C (or TERM) at a prompt of `rulekit score` exits 128 + the signal, as `play` does,
    after saying what is kept: the finished hands are in the pad, an unfinished one is not."""
    f = tmp_path / "pad.json"
    cmd = [str(Path(sys.executable).with_name("rulekit")), "score", "fivehundred", "--dealer", "0", "--file", str(f)]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    p.stdin.write("\n".join(FIVE[:3] + ["6S"]) + "\n")   # hand 1, and the contract of hand 2
    p.stdin.flush()
    seen = []
    while not any(line.startswith("hand 2") for line in seen):
        line = p.stdout.readline()
        assert line, "".join(seen)
        seen.append(line)
    time.sleep(1)   # at the next prompt
    p.send_signal(sig)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == code, "".join(seen) + out
    assert said in out
    assert f"hand 2 was not finished: its answers are not saved; the pad is saved in {f}." in " ".join(out.split())
    assert len(json.loads(f.read_text())["hands"]) == 1


def test_a_signal_while_the_pad_changes_is_held_to_the_next_prompt():
    """A signal that comes while a hand is added or saved does not stop that work: it is held
    and stops the pad at the next prompt."""
    from cli.game import Stopped
    from cli.score import _Signals
    stop = _Signals()
    stop.handler(signal.SIGTERM, None)      # not at a prompt: held
    assert stop.pending == signal.SIGTERM
    with pytest.raises(Stopped) as e:
        stop.ask(None, "contract > ")
    assert e.value.signum == signal.SIGTERM
    stop = _Signals()
    stop.waiting = True
    with pytest.raises(Stopped):          # at the prompt: at once
        stop.handler(signal.SIGINT, None)


TINY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "tiny.yaml"


def _opened(monkeypatch) -> list:
    """Every path this process opens from now on (``open``, ``io.open``, ``os.open``)."""
    import builtins
    import io as _io
    import os
    seen: list = []
    real_open, real_os_open = builtins.open, os.open

    def spy(file, *a, **k):
        seen.append(os.path.abspath(os.fsdecode(file)) if isinstance(file, (str, bytes, os.PathLike)) else file)
        return real_open(file, *a, **k)

    def os_spy(path, *a, **k):
        seen.append(os.path.abspath(os.fsdecode(path)))
        return real_os_open(path, *a, **k)

    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setattr(_io, "open", spy)
    monkeypatch.setattr(os, "open", os_spy)
    return seen


def _tiny_pad(tmp_path) -> Path:
    f = tmp_path / "pad.json"
    r = score(TINY, "--dealer", "1", "--file", f, lines=["3 3 2", "quit"])
    assert r.exit_code == 0, r.output
    return f


@pytest.mark.parametrize("named", ["/etc/passwd", "../secret.yaml", "ABSOLUTE"])
def test_a_pad_never_opens_a_path_it_names(tmp_path, monkeypatch, named):
    """A pad is untrusted like a record: its "variant" is an installed id or the pad's own stored
    text, never a path. A pad naming /etc/passwd, ../secret.yaml or an absolute path of a valid
    variant file is refused in `score` and `score --export` with the reason (exit 1), the file is
    never opened and nothing of it is printed."""
    work = tmp_path / "work"
    work.mkdir()
    secret = tmp_path / "secret.yaml"
    secret.write_text(TINY.read_text().replace("name: Tiny Tricks", "name: SECRET-CONTENT"))
    target = str(secret) if named == "ABSOLUTE" else named
    f = _tiny_pad(work)
    data = json.loads(f.read_text())
    data.update(variant=target, variant_text=None)
    f.write_text(json.dumps(data))
    monkeypatch.chdir(work)
    seen = _opened(monkeypatch)
    for args in (["--file", f], ["--file", f, "--export", work / "out.csv"]):
        r = score(*args, lines=["quit"])
        assert r.exit_code == 1, r.output
        said = " ".join(r.output.split())
        assert f"the pad names the variant {target!r}, which is no installed id" in said
        assert "a pad never opens a path it names" in said
        assert "SECRET" not in r.output and "root:" not in r.output
    opened = {os.path.abspath(target), str(secret), "/etc/passwd"}
    assert not opened & {str(x) for x in seen}, seen
    assert not (work / "out.csv").exists()


def test_a_pad_of_a_variant_file_resumes_and_exports_alone(tmp_path, monkeypatch):
    """A pad of a variant loaded from a file keeps the variant's whole text and hash, so
    `rulekit score --file PAD` alone resumes it (the next dealer, the totals) and exports it,
    without opening the variant file again (it may be gone)."""
    f = _tiny_pad(tmp_path)
    data = json.loads(f.read_text())
    assert data["variant"] == "tiny" and "Tiny Tricks" in data["variant_text"]
    seen = _opened(monkeypatch)
    r = score("--file", f, lines=["2 2 4", "quit"])
    assert r.exit_code == 0, r.output
    assert "hand 2, P2 deals" in r.output
    assert [row["totals"] for row in json.loads(f.read_text())["sheet"]["rows"]] == [[5, 5, 2], [7, 7, 8]]
    out = tmp_path / "sheet.csv"
    r = score("--file", f, "--export", out)
    assert r.exit_code == 0, r.output
    assert out.read_text().splitlines()[-1] == "total,,,,,7,,7,,8,,"
    assert str(TINY) not in {str(x) for x in seen}
    # naming the file again still works
    assert score(TINY, "--file", f, lines=["quit"]).exit_code == 0


@pytest.mark.parametrize("change,reason", [
    (lambda d: d.update(variant_text=d["variant_text"].replace("2 * players", "3 * players")),
     "the variant stored in the pad does not match its hash"),
    (lambda d: d.update(variant_text="extends: /etc/passwd\n"),
     "extends: base variant '/etc/passwd' does not exist"),
    (lambda d: d.update(variant_text=7), "'variant_text' must be text"),
    (lambda d: d.update(extra_top=1), "'extra_top' is not a key of a scorepad"),
])
def test_a_pad_with_an_altered_variant_text_or_an_unknown_key_is_refused(tmp_path, change, reason):
    """The stored variant text must compile to the stored hash (an edited text is refused, and its
    `extends:` names installed variants only); a key a pad does not have is refused by its name."""
    f = _tiny_pad(tmp_path)
    _tampered(f, change)
    for args in (["--file", f], ["--file", f, "--export", tmp_path / "out.csv"]):
        r = score(*args, lines=["quit"])
        assert r.exit_code == 1, r.output
        assert reason in " ".join(r.output.split()), r.output
    assert "root:" not in r.output


def test_a_fact_no_question_asks_is_named_and_ignored(pad_file):
    """A hand holding a fact none of its questions asks loads with a warning naming it (the
    score is the hands' own), and the pad saved again no longer holds it."""
    _tampered(pad_file, lambda d: d["hands"][0].update(bogus=1))
    r = score("--file", pad_file, lines=["pass", "3 3", "quit"])
    assert r.exit_code == 0, r.output
    assert f"warning: {pad_file}: hand 1: 'bogus' is not a fact this hand asks: ignored" in " ".join(r.output.split())
    assert "bogus" not in json.loads(pad_file.read_text())["hands"][0]


def test_a_pad_of_an_installed_variant_stores_no_text(pad_file):
    """An installed variant is named by its id only (older pads, id only, still load)."""
    data = json.loads(pad_file.read_text())
    assert data["variant"] == "fivehundred" and data["variant_text"] is None
    del data["variant_text"]
    pad_file.write_text(json.dumps(data))
    r = score("--file", pad_file, "--export", pad_file.parent / "o.csv")
    assert r.exit_code == 0, r.output


def test_a_server_pad_file_naming_a_path_is_not_opened(tmp_path, monkeypatch):
    """`rulekit serve` loads its saved pads by the same rule: a pad file of its folder whose
    variant names a path is reported as a problem, and the path is never opened."""
    from rulekit.web.pads import PAD_FORMAT, Pads
    secret = tmp_path / "secret.yaml"
    secret.write_text(TINY.read_text())
    data = json.loads(_tiny_pad(tmp_path).read_text())
    data.update(variant=str(secret), variant_text=None)
    folder = tmp_path / "pads"
    folder.mkdir()
    (folder / "abcdef.json").write_text(json.dumps({"format": PAD_FORMAT, "id": "abcdef", "token": "t" * 24,
                                                    "pad": data}))
    seen = _opened(monkeypatch)
    pads = Pads(folder)
    pads.load()
    assert not pads.pads
    assert len(pads.problems) == 1 and "a pad never opens a path it names" in pads.problems[0]
    assert str(secret) not in {str(x) for x in seen}


def test_players_that_do_not_match_a_resumed_pad_are_refused(tmp_path):
    """`--players` with a pad of another number of players is refused with both numbers."""
    f = _tiny_pad(tmp_path)
    r = score("--file", f, "--players", "4", lines=["quit"])
    assert r.exit_code == 1 and f"{f}: a pad of 3 players, not 4 (--players)" in " ".join(r.output.split())
