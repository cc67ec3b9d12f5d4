"""``undo`` at the prompt against bots: back to the human's own last decision of the hand, the
bots' replies after it taken back too; the record keeps what was taken back (``undone``) while
its actions replay the game as played; refused, with the reason, when there is nothing of his to
take back or when another person's decision would go."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from rulekit import records
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.errors import RecordError
from rulekit.variant import load_variant

runner = CliRunner()


def test_undo_takes_back_ones_call_and_the_bots_replies(tmp_path):
    """Five Hundred, seed 3: You pass, the bots bid to 10♦ and P2 leads; ``undo`` takes back the
    pass and the seven actions after it and asks the call again; You bid 6♠ instead.  The record's
    actions are the game as played (6♠ first) and ``undone`` holds the eight actions taken back;
    the record replays, and ``rulekit replay`` says an undo happened."""
    save = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "fivehundred", "--players", "human,random,random", "--seed", "3",
                            "--save", str(save)], input="pass\nundo\nundo\n6S\nquit\n")
    assert r.exit_code == 0, r.output
    assert "taken back: pass and the 7 actions after it (the record keeps them, marked as taken back)" in r.output
    assert ("refused: nothing of yours to take back in this hand (undo goes back to your own last action of the "
            "hand being played)") in r.output
    rec = records.load(save)
    assert rec["actions"][0] == [0, "6S"]
    [u] = rec["undone"]
    assert (u["by"], u["at"], u["actions"][0], len(u["actions"])) == (0, 0, [0, "pass"], 8)
    assert u["actions"][-1][1].startswith("play ")
    state = records.replay(rec)
    assert state.history == [tuple(a) for a in rec["actions"]]
    shown = runner.invoke(app, ["replay", str(save)])
    assert shown.exit_code == 0 and "undo by You: 8 actions taken back at action 1" in shown.output


def test_the_same_choice_after_an_undo_gives_the_same_bot_replies(tmp_path):
    """Bots decide again after an undo, seeded by the action's place in the match: the same call
    again brings the same replies as before."""
    save = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "fivehundred", "--players", "human,bot,bot", "--seed", "3",
                            "--save", str(save)], input="pass\nundo\npass\nquit\n")
    assert r.exit_code == 0, r.output
    rec = records.load(save)
    again = rec["actions"]
    assert rec["undone"][0]["actions"] == again[:len(rec["undone"][0]["actions"])]


def test_undo_is_refused_when_another_persons_decision_would_go(tmp_path):
    """Two people at one table: once the other has answered, undo would take his decision back
    too: refused, with whose."""
    r = runner.invoke(app, ["play", "fivehundred", "--players", "human,human,random", "--seed", "3",
                            "--save", str(tmp_path / "g.json")], input="6S\n7S\nundo\nquit\n")
    assert r.exit_code == 0, r.output
    assert "refused: undo would take back the decisions of P1 too (undo is for games against bots)" in r.output


def test_a_resumed_game_keeps_its_undos(tmp_path):
    """``--resume`` carries the record's undos on, and a new one is added after them."""
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "fivehundred", "--players", "human,random,random", "--seed", "3",
                        "--save", str(save)], input="pass\nundo\nquit\n")
    r = runner.invoke(app, ["play", "--resume", str(save)], input="pass\nundo\nquit\n")
    assert r.exit_code == 0, r.output
    assert [u["at"] for u in records.load(save)["undone"]] == [0, 0]


def test_records_without_undos_load_and_a_bad_undone_list_is_refused(tmp_path):
    """A record without ``undone`` (every record before undo existed) loads; an ``undone`` that is
    not a list of undos is refused with the field."""
    s = State(load_variant("fivehundred"), seed=1)
    s.apply("pass")
    rec = records.to_record(s)
    assert "undone" not in rec
    f = tmp_path / "r.json"
    f.write_text(json.dumps(rec))
    assert records.load(f)["actions"] == [[s.history[0][0], "pass"]]
    f.write_text(json.dumps(dict(rec, undone=[{"by": 0, "at": 7, "actions": []}])))
    try:
        records.load(f)
    except RecordError as e:
        assert "undone[0].at must be an index of the record's actions, not 7" in str(e)
    else:
        raise AssertionError("a bad undone list was accepted")
    f.write_text(json.dumps(dict(rec, undone=[{"by": 0, "at": 0, "actions": [[0, "pass"]]}])))
    assert records.load(f)["undone"][0]["actions"] == [[0, "pass"]]
