"""``rulekit score``: the scorepad of a table that plays with real cards."""
from __future__ import annotations

import csv
import io
import json
import random

import pytest
from typer.testing import CliRunner

from cli.app import app
from rulekit.engine import State
from rulekit.engine.scoring import hand_facts, player_envs
from rulekit.sheets.scorepad import DOUBLES, FactError, ScorePad
from rulekit.variant import builtin_ids, load_variant
from tests.helpers import preferans_start, runner, typed_pad


def _played(vid: str, seed: int, max_hands: int = 5, players=None) -> State:
    s = State(load_variant(vid, players=players), seed=seed, max_hands=max_hands)
    rng = random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    return s


def _thrown_in(v, h) -> bool:
    return h.void and h.contract is None and not h.tricks and v.auction() is not None


def _typed(pad: ScorePad, v, h) -> list:
    """The lines a scorer types for played hand ``h``: each answer to the pad's questions, read
    off the played hand (so the questions asked must be enough to score it)."""
    f = hand_facts(v, h)
    envs = player_envs(v, h)
    facts, lines = {}, []
    while (q := pad.next_question(facts)) is not None:
        if q.name == "contract":
            text = "pass" if f["contract"] is None else f["contract"].lower()
        elif q.name == "declarer":
            text = pad.names[f["declarer"]]
        elif q.name == "first_suit":
            text = f["first_suit"].lower()
        elif q.name == "partner":
            text = pad.names[f["partner"]] if f["partner"] >= 0 else "none"
        elif q.name == "trump":
            text = f["trump"].lower()
        elif q.name == "doubled":
            text = DOUBLES[f["doubled"]]
        elif q.name == "matadors":   # "with 2" / "without 1"
            text = f["matadors"]
        elif q.name.startswith("phase:"):
            text = f["phase"][q.name]
        elif q.name.startswith("value:"):   # a phase's own result (a pile's score, cards left)
            text = " ".join(str(e.vars[q.name[6:]]) for e in envs)
        elif q.name in ("tricks", "points"):
            keep = f[q.name] if "all of them" in q.help else f[q.name][:-1]  # the last is left out
            text = " ".join(str(x) for x in keep)
        elif q.name.count(":") == 1:   # who holds a one-card tally
            name = q.name.split(":")[1]
            text = next((pad.columns[c] for c, t in enumerate(f["tallies"]) if t[name]), "-")
        else:
            _, name, col = q.name.split(":")
            text = str(f["tallies"][int(col)][name])
        pad.answer(q, text, facts)
        lines.append(text)
    return facts, lines


def _rows(sheet) -> list:
    return [{k: val for k, val in r.as_dict().items() if k != "trick_winners"} for r in sheet.rows]


def _winning_columns(s: State) -> list:
    v = s.match_variant
    return sorted({v.side_of[x] for x in s.winners}) if v.scoring.by_side else sorted(s.winners)


# every shipped variant: ohhell (bids, hand sizes), euchre (order-up), spades (bids, bags) and
# king (a schedule of rounds, each asked by its own rules) too
CASES = [(vid, None) for vid in builtin_ids()] + [("rams", 3), ("rams-jacks", 3)]


@pytest.mark.parametrize("vid,players", CASES)
def test_entering_played_hands_gives_the_played_sheet(vid, players):
    """Property: for random played matches of every shipped variant, typing each
    hand's facts into the scorepad gives the identical sheet: entries, running totals, notes,
    parts, lines, game points and rubber rows, and the same winners."""
    for seed in (0, 1, 2):
        s = _played(vid, seed, players=players)
        v = s.match_variant   # a schedule of rounds: the match, not its last round
        pad = ScorePad(v, first_dealer=s.first_dealer)
        for h in s.hand_log:
            facts, _ = _typed(pad, s.rules_of(h.number), h)
            pad.add(facts)
        if s.end_reason.startswith("stopped"):
            pad.stop()
        assert _rows(pad.sheet) == _rows(s.sheet)
        assert pad.sheet.totals() == s.sheet.totals()
        assert pad.sheet.game_points() == s.sheet.game_points()
        assert sorted(pad.winners) == _winning_columns(s)


def test_cli_typed_input_gives_the_played_sheet(tmp_path):
    """Property through the CLI: a bridge rubber typed line by line into
    `rulekit score bridge` gives the played sheet, saved in the pad file."""
    s = _played("bridge", 4, max_hands=8)
    v = s.variant
    shadow = ScorePad(v, first_dealer=s.first_dealer)
    lines = []
    for h in s.hand_log:
        facts, typed = _typed(shadow, v, h)
        shadow.add(facts)
        lines += typed
    lines.append("stop" if s.end_reason.startswith("stopped") else "quit")
    pad_file = tmp_path / "pad.json"
    dealer = s.names[s.first_dealer]
    r = CliRunner().invoke(app, ["score", "bridge", "--file", str(pad_file), "--dealer", dealer],
                           input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    data = json.loads(pad_file.read_text())
    assert data["sheet"]["rows"] == [dict(x, trick_winners=[]) for x in _rows(s.sheet)]
    assert "Score sheet" in r.output or "score sheet" in r.output


def test_asks_only_what_the_scoring_reads():
    """The questions come from the compiled file: Five Hundred asks contract, declarer
    and tricks (and trumps only for 10T); Rams asks tricks and card points, no contract; whist
    asks trumps, tricks and pictures; bridge asks doubling, and honours only when they can count."""
    def names(vid, answers, players=None):
        pad = ScorePad(load_variant(vid, players=players))
        facts, asked = {}, []
        while (q := pad.next_question(facts)) is not None:
            asked.append(q.name)
            pad.answer(q, answers[q.name.split(":")[0]], facts)
        return asked
    a = {"contract": "8H", "declarer": "P1", "tricks": "2 8", "trump": "S", "points": "30 40 30",
         "doubled": "-", "tally": "0"}
    assert names("fivehundred", a) == ["contract", "declarer", "tricks"]
    assert names("fivehundred", dict(a, contract="10T", tricks="0 10")) == ["contract", "declarer", "trump", "tricks"]
    assert names("rams", dict(a, tricks="2 2 2", points="30 40 30 20"), players=4) == ["tricks", "points"]
    # every trump honour ends in a won trick: the second column's pictures are the rest of the five
    assert names("whist", dict(a, tricks="7")) == ["trump", "tricks", "tally:pictures:0"]
    b = dict(a, contract="4S", declarer="N", tricks="10")
    assert names("bridge", b) == ["contract", "declarer", "doubled", "tricks", "tally:honours:0", "tally:honours:1",
                                  "tally:aces:0", "tally:aces:1"][:6]  # aces count only at no trump
    assert names("bridge", dict(b, contract="3NT", tricks="9")) == [
        "contract", "declarer", "doubled", "tricks", "tally:aces:0", "tally:aces:1"]
    assert names("bridge-duplicate", b) == ["contract", "declarer", "doubled", "tricks"]


@pytest.mark.parametrize("vid,question,answer,facts,reason", [
    ("fivehundred", "contract", "11H", {}, "'11H' is not a contract of fivehundred (expected a bid from 6S to 10T, or pass)"),
    ("fivehundred", "declarer", "P7", {"contract": "8H"}, "there is no seat 'P7' (expected P0, P1, P2)"),
    ("fivehundred", "tricks", "5 4 3", {"contract": "8H", "declarer": 1}, "tricks add up to 12, but a hand has 10"),
    ("fivehundred", "tricks", "11", {"contract": "8H", "declarer": 1},
     "tricks: 1 number, but there are 3 columns (P0 P1 P2; the last may be left out)"),
    ("bridge", "tricks", "14", {"contract": "4S", "declarer": 0, "doubled": 0},
     "tricks add up to 14, but a hand has 13"),
    ("bridge", "tricks", "-1", {"contract": "4S", "declarer": 0, "doubled": 0},
     "tricks cannot be negative (expected 2 numbers adding up to 13)"),
    ("bridge", "doubled", "XXX", {"contract": "4S", "declarer": 0}, "'XXX' is not a doubling (expected one of -, X, XX (- not doubled))"),
    ("rams", "points", "60 60 60", {"tricks": [2, 2, 2, 2]}, "points add up to 180, but a hand has 120"),
    ("whist", "trump", "NT", {}, "'NT' is not a trump here (expected one of C, D, H, S)"),
])
def test_impossible_entries_are_refused_with_the_reason(vid, question, answer, facts, reason):
    """Impossible entries are refused with the reason: a contract or seat that does not
    exist, tricks or card points that do not add up to the hand's."""
    pad = ScorePad(load_variant(vid))
    given = dict(facts)
    q = pad.next_question(given)
    assert q.name == question
    with pytest.raises(FactError) as e:
        pad.answer(q, answer, given)
    assert str(e.value) == reason


def test_honours_beyond_the_pack_are_refused():
    """Honours held by both sides cannot exceed the honours in the pack."""
    pad = ScorePad(load_variant("bridge"))
    facts = {}
    for q_name, text in (("contract", "4S"), ("declarer", "N"), ("doubled", "-"), ("tricks", "10"),
                         ("tally:honours:0", "1")):
        q = pad.next_question(facts)
        assert q.name == q_name
        pad.answer(q, text, facts)
    q = pad.next_question(facts)
    assert q.help == "a number from 0 to 4"
    with pytest.raises(FactError, match=r"honours: 6 in all, but the pack has only 5"):
        pad.answer(q, "5", facts)
    with pytest.raises(FactError) as e:   # the refusal names the question, not an internal key
        pad.answer(q, "4S", facts)
    assert str(e.value) == "honours EW: '4S' is not a number"


def test_add_refuses_missing_and_wrong_facts():
    """The library refuses a hand whose facts are missing or impossible, like the prompt."""
    pad = ScorePad(load_variant("fivehundred"))
    with pytest.raises(FactError, match="the declarer is missing"):
        pad.add({"contract": "8H"})
    with pytest.raises(FactError, match="tricks add up to 9"):
        pad.add({"contract": "8H", "declarer": 1, "tricks": [1, 8, 0]})
    assert pad.sheet.rows == []


def test_undo_save_resume_and_exports(tmp_path):
    """`undo` removes the last hand, the pad is saved after every hand and resumed from
    its file, and the sheet exports as CSV, JSON and text."""
    pad_file = tmp_path / "pad.json"
    runner = CliRunner()
    r = runner.invoke(app, ["score", "fivehundred", "--dealer", "0", "--file", str(pad_file)],
                      input="8H\nP1\n1 8\n6S\nP0\n7 1\nundo\nquit\n")
    assert r.exit_code == 0, r.output
    assert "undone: the last hand" in r.output
    data = json.loads(pad_file.read_text())
    assert [row["entries"] for row in data["sheet"]["rows"]] == [[10, 300, 10]]
    # resume: the next hand is hand 2, dealt by P1
    r = runner.invoke(app, ["score", "--file", str(pad_file)], input="pass\n3 3\nquit\n")
    assert r.exit_code == 0, r.output
    assert "hand 2, P1 deals" in r.output
    data = json.loads(pad_file.read_text())
    assert [row["totals"] for row in data["sheet"]["rows"]] == [[10, 300, 10], [40, 330, 50]]
    out = tmp_path / "sheet.csv"
    r = runner.invoke(app, ["score", "--export", str(out), "--file", str(pad_file)])
    assert r.exit_code == 0, r.output
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert rows[0] == ["row", "hand", "note", "void", "P0", "P0 total", "P1", "P1 total", "P2", "P2 total",
                       "winner", "reason"]
    assert rows[1] == ["deal", "1", "P1 8H made (8 tricks)", "0", "10", "10", "300", "300", "10", "10", "", ""]
    assert rows[-1] == ["total", "", "", "", "", "40", "", "330", "", "50", "", ""]
    out = tmp_path / "sheet.json"
    runner.invoke(app, ["score", "--export", str(out), "--file", str(pad_file)])
    assert [r["P1 total"] for r in json.loads(out.read_text())] == [300, 330, 330]
    out = tmp_path / "sheet.txt"
    runner.invoke(app, ["score", "--export", str(out), "--file", str(pad_file)])
    text = out.read_text()
    assert "P1 8♥ made (8 tricks)" in text and "330" in text and "\x1b" not in text


def test_cli_refuses_and_asks_again(tmp_path):
    """At the prompt an impossible entry is refused with its reason and asked again."""
    r = CliRunner().invoke(app, ["score", "fivehundred", "--dealer", "0"], input="9Z\n8H\nP9\nP1\n5 4 3\n2 8\nquit\n")
    assert r.exit_code == 0, r.output
    assert "refused: '9Z' is not a contract of fivehundred" in r.output
    assert "refused: there is no seat 'P9'" in r.output
    assert "refused: tricks add up to 12, but a hand has 10" in r.output
    assert "P1 8♥ made (8 tricks)" in r.output


def test_match_end_and_bad_export(tmp_path):
    """The pad ends the match by the variant's rules (Five Hundred's 10NT made wins at
    once, rules/fivehundred.md [G2]); an export needs an existing pad and a known suffix."""
    pad = ScorePad(load_variant("fivehundred"))
    pad.add({"contract": "10NT", "declarer": 2, "tricks": [0, 0, 10]})
    assert pad.winners == [2] and "wins at once" in pad.end_reason
    with pytest.raises(FactError, match="the match is over"):
        pad.add({"contract": None, "tricks": [3, 3, 4]})
    pad.undo()
    assert not pad.is_over and pad.sheet.rows == []
    r = CliRunner().invoke(app, ["score", "--export", str(tmp_path / "x.pdf"), "--file", str(tmp_path / "p.json")])
    assert r.exit_code == 2 and "expected .csv, .json or .txt" in r.output
    r = CliRunner().invoke(app, ["score", "--export", str(tmp_path / "x.csv"), "--file", str(tmp_path / "p.json")])
    assert r.exit_code == 2 and "no such file" in r.output


def test_resume_refuses_another_variant_or_a_damaged_pad(tmp_path):
    """A pad resumes only with its own variant; a file that is not a pad is refused."""
    pad_file = tmp_path / "pad.json"
    runner = CliRunner()
    r = runner.invoke(app, ["score", "rams", "--dealer", "0", "--players", "3", "--file", str(pad_file)], input="4 3 3\n40 40 40\nquit\n")
    assert r.exit_code == 0, r.output
    assert json.loads(pad_file.read_text())["sheet"]["rows"][0]["void"] is True  # all equal points: void ([S3])
    r = runner.invoke(app, ["score", "whist", "--dealer", "0", "--file", str(pad_file)], input="quit\n")
    assert r.exit_code == 1 and "a scorepad of 'rams', not of 'whist'" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    r = runner.invoke(app, ["score", "whist", "--dealer", "0", "--file", str(bad)], input="quit\n")
    assert r.exit_code == 1 and "not a rulekit scorepad" in r.output
    r = runner.invoke(app, ["score", "whist", "--dealer", "Q"], input="quit\n")
    assert r.exit_code == 2 and "there is no seat 'Q' (expected N, E, S, W)" in r.output   # a bad option value


def test_scorepad_tie_is_a_tie():
    """Equal totals at the end of a scorepad are a tie (not ``NS and EW win``), as ``rulekit play``
    says it."""
    r = runner.invoke(app, ["score", "spades", "--dealer", "0"], input="stop\nquit\n")
    assert "A tie: NS and EW (stopped)." in r.output
    assert "NS and EW win" not in r.output


def test_scorepad_question_mark_is_help_and_quit_says_nothing_saved(tmp_path):
    """``?`` is help on the scorepad (never "'?' is not a contract"); ``quit`` before the first hand
    is finished says that nothing was saved."""
    r = runner.invoke(app, ["score", "spades", "--dealer", "0"], input="?\n3 3 3 3\nquit\n")
    assert ("bids N E S W > 4 bids in seat order (N E S W), each 0 (or nil) to 13, blind for blind nil; "
            "or undo") in r.output
    assert ("hand 1 was not finished: its answers are not saved; nothing was saved "
            "(use --file PAD.json to keep the pad).") in r.output
    pad = tmp_path / "pad.json"
    r = runner.invoke(app, ["score", "spades", "--dealer", "0", "--file", str(pad)], input="quit\n")
    assert r.output.rstrip().endswith("nothing was saved (no hand was finished).")
    assert not pad.exists()
    r = runner.invoke(app, ["score", "pitch", "--dealer", "0"], input="?\nquit\n")
    assert "is not a contract" not in r.output


def test_scorepad_winners_by_the_final_results(tmp_path):
    """rules/preferans.md worked example 10, [S7] [S8]: the bulas add up to 0,
    the final results (lower is better) are A -6, B +12, C -6: A and C win, B loses, as the
    engine's match_result decides with the sheet."""
    v = preferans_start(tmp_path, 6)
    pad = typed_pad(v, ["karo", "P0", "follow follow", "-", "6 2 2",       # A = P0, B = P1, C = P2
                         "karo", "P1", "follow follow", "-", "3 6 1",
                         "karo", "P2", "follow pass", "-", "2 0 8"])
    assert pad.is_over
    assert pad.winners == [0, 2]
    assert pad.end_reason == "the totals add up to 0, at or below 0"


def _three_tricks(tmp_path, first: str) -> str:
    """A made-up 3-player game of plain tricks (8 each, a point a trick) whose first dealer is ``first``."""
    f = tmp_path / "three.yaml"
    f.write_text(f"""id: three-tricks
name: Three Tricks
players: 3
deck: {{suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}}
ranking: {{suit: "A K Q J 10 9"}}
dealer: {{first: {first}, rotation: left}}
phases:
  deal: {{kind: deal, pattern: "4 x 2"}}
  play: {{kind: tricks, lead: eldest}}
scoring: {{each: "tricks"}}
match: {{deals: 6}}
""")
    return str(f)


def test_the_pad_asks_who_won_the_cut_for_the_first_deal(tmp_path):
    """[D1]-style `first: {cut: low}`: a new pad asks who deals first (the table cuts with its
    own cards) before the first hand; a seat that does not exist is refused and asked again,
    `?` says which cut wins, `undo` asks it again; the deal then passes on from that seat, and
    the pad keeps it."""
    v, f = _three_tricks(tmp_path, "{cut: low}"), tmp_path / "pad.json"
    r = CliRunner().invoke(app, ["score", v, "--file", str(f)], input="?\nP9\nP2\nundo\nP1\n3 3 2\nquit\n")
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    assert "first dealer (who won the cut) >" in out
    assert "the player who cut the lowest card: one of P0, P1, P2" in out
    assert "refused: there is no seat 'P9' (expected P0, P1, P2)" in out
    assert "undone: the first dealer" in out
    assert "hand 1, P0 deals" not in out   # nobody deals before the cut is said
    assert out.index("hand 1, P2 deals") < out.index("undone: the first dealer") < out.index("hand 1, P1 deals")
    assert "hand 2, P2 deals" in out
    assert json.loads(f.read_text())["first_dealer"] == 1
    r = CliRunner().invoke(app, ["score", "--file", str(f)], input="quit\n")   # resumed: not asked again
    assert "who won the cut" not in r.output and "hand 2, P2 deals" in r.output


def test_the_cut_is_not_asked_with_a_dealer_or_a_fixed_first_seat(tmp_path):
    """`--dealer` answers the cut; a variant whose first dealer is a fixed seat never asks."""
    r = CliRunner().invoke(app, ["score", _three_tricks(tmp_path, "{cut: high}"), "--dealer", "P2"],
                           input="quit\n")
    assert "who won the cut" not in r.output and "hand 1, P2 deals" in r.output
    r = CliRunner().invoke(app, ["score", _three_tricks(tmp_path, "{seat: 1}")], input="quit\n")
    assert "who won the cut" not in r.output and "hand 1, P1 deals" in r.output


def test_input_ending_before_the_match_exits_1_after_saving(tmp_path):
    """The input ending (end of file) at a prompt before the match is over exits 1, as `play`
    does, after saving the finished hands and saying so; once the match is over it exits 0."""
    v, f = _three_tricks(tmp_path, "{seat: 0}"), tmp_path / "pad.json"
    r = CliRunner().invoke(app, ["score", v, "--file", str(f)], input="3 3 2\n")
    assert r.exit_code == 1, r.output
    assert (f"input ended before the match did; the pad is saved in {f} (go on with `rulekit score --file {f}`)."
            in " ".join(r.output.split()))
    assert len(json.loads(f.read_text())["hands"]) == 1
    r = CliRunner().invoke(app, ["score", v], input="3 3 2\n")
    assert r.exit_code == 1
    assert ("input ended before the match did; nothing was saved (use --file PAD.json to keep the pad)."
            in " ".join(r.output.split()))
    r = CliRunner().invoke(app, ["score", v], input="stop\n")   # the match is over: the input may end
    assert r.exit_code == 0, r.output
