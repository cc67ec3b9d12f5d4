"""`rulekit score preferans` (issue 8): the scorepad asks the facts phase kinds give formulas
(the defence's decisions and kontra, through PhaseKind.pad_question), writes soups and
refes as a played match does, and gives rules/preferans.md worked example 10."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.app import app
from rulekit.sheets.scorepad import FactError, ScorePad
from rulekit.engine.scoring import final_results
from rulekit.variant import load_variant

V = load_variant("preferans")


def _pad_file(tmp_path, start: int):
    p = tmp_path / "pref.yaml"
    p.write_text(f"extends: preferans\nid: pref-start\nname: Preferans\nscoring: {{start: {start}}}\n")
    return p


def test_example_10_typed_into_rulekit_score(tmp_path):
    """Example 10 [S7] [S8]: bulas 6/6/6; A makes karo 6-2-2, B karo 6-3-1 (A 3, C 1), C karo
    with A alone taking 2: typed into `rulekit score`, the match ends and the final result
    reads A -6, B +12, C -6."""
    pad = tmp_path / "pad.json"
    typed = ["karo", "P0", "follow follow", "-", "6 2 2",       # A = P0, B = P1, C = P2
             "karo", "P1", "follow follow", "-", "3 6 1",
             "karo", "P2", "follow pass", "-", "2 0 8", "quit"]
    variant = _pad_file(tmp_path, 6)
    r = CliRunner().invoke(app, ["score", str(variant), "--file", str(pad)], input="\n".join(typed) + "\n",
                           terminal_width=200)
    assert r.exit_code == 0, r.output
    final = r.output[r.output.rindex("Final result"):]
    assert "lower is better  │ -6 │ +12 │ -6" in final
    assert "the totals add up to 0" in final
    loaded = ScorePad.from_dict(load_variant(str(variant)), __import__("json").loads(pad.read_text()))
    assert loaded.sheet.totals() == [0, 0, 0]
    assert final_results(loaded.variant, loaded.sheet) == [-6, 12, -6]


def _facts(pad, **kw):
    return pad.check(kw)


def test_questions_follow_the_defence():
    """[F1] [F2] [F5]: the pad asks who defended, then the doubling and who said it; at betl it
    does not ask who plays; when both pass it asks no tricks (the hand was not played)."""
    pad = ScorePad(V)
    f = {"contract": "herc", "declarer": 0}
    q = pad.next_question(f)
    assert (q.name, q.prompt) == ("phase:defence:roles", "defence P1 P2")
    pad.answer(q, "follow follow", f)
    assert pad.next_question(f).prompt == "doubling"
    pad.answer(pad.next_question(f), "rekontra", f)
    q = pad.next_question(f)
    assert q.prompt == "kontra by"
    with pytest.raises(FactError, match="not an opponent of the declarer"):
        pad.answer(q, "P0", f)
    pad.answer(q, "P2", f)
    assert pad.next_question(f).name == "tricks"
    g = {"contract": "betl", "declarer": 0}
    assert pad.next_question(g).prompt == "doubling" and g["phase:defence:roles"] == "follow follow"
    h = {"contract": "herc", "declarer": 0, "phase:defence:roles": "pass pass"}
    assert pad.next_question(h) is None


@pytest.mark.parametrize("contract,answer,reason", [
    ("herc", "follow", "expected 2 words"),
    ("herc", "invited pass", "called by the other opponent"),
    ("betl", "follow pass", "every opponent plays"),
])
def test_impossible_defence_refused(contract, answer, reason):
    """[F1] [F4]: impossible defences are refused with the reason."""
    pad = ScorePad(V)
    f = {"contract": contract, "declarer": 0}
    if contract == "betl":
        from rulekit.sheets.scorepad import Question
        q = Question("phase:defence:roles", "defence", "")
    else:
        q = pad.next_question(f)
    with pytest.raises(FactError, match=reason):
        pad.answer(q, answer, f)


def test_scorepad_kontra_invite_and_refe():
    """Example 6 [F4]: herc, 7 tricks, invited: A -8, B writes 24 and fails +8; then [A7] [R1]
    all pass writes a refe for everyone; [R2] example 7: A's karo 6-2-2 with his refe is -12,
    soups 24 each, the refe marked passed; [F5] kontra doubles: herc 6-2-2 with kontra by C is
    -16 and C, with 4 tricks together where kontra needs 5, writes 64 and fails +16."""
    pad = ScorePad(V)
    pad.add({"contract": "herc", "declarer": "P0", "phase:defence:roles": "follow invited",
             "phase:defence:kontra": "-", "tricks": [7, 1, 2]})
    assert pad.sheet.rows[-1].entries == [-8, 8, 0]
    assert [(a["column"], a["value"]) for a in pad.sheet.rows[-1].against] == [(1, 24)]
    pad.add({"contract": None})
    assert [m["state"] for m in pad.sheet.rows[-1].marks] == ["new"] * 3
    pad.add({"contract": "karo", "declarer": "P0", "phase:defence:roles": "follow follow",
             "phase:defence:kontra": "-", "tricks": [6, 2, 2]})
    row = pad.sheet.rows[-1]
    assert row.entries == [-12, 0, 0] and [a["value"] for a in row.against] == [24, 24]
    assert row.marks == [{"marker": "refe", "column": 0, "state": "passed"}]
    pad.add({"contract": "herc", "declarer": "P0", "phase:defence:roles": "follow follow",
             "phase:defence:kontra": "kontra", "phase:defence:kontra_by": "P2", "tricks": [6, 2, 2]})
    row = pad.sheet.rows[-1]
    assert row.entries == [-16, 0, 16] and [(a["column"], a["value"]) for a in row.against] == [(2, 64)]
