"""Display fixes found by a tester (issue 14): the auction summary, the sheet layout, the
scorepad's winners, the exchange line and the help text read what the variant declares."""
from __future__ import annotations

import io

from rich.console import Console

from rulekit.engine import State
from rulekit.variant import load_variant
from tests.cli_helpers import Scripted

PREF = load_variant("preferans")


def _live(calls, names=("You", "P1", "P2")):
    """A live game (every seat typed) of preferans dealt by P2, so You (seat 0) speak first;
    ``calls`` are typed in turn; returns the game and what it printed."""
    st = State(PREF, seed=1, dealer=2, names=list(names))
    todo = list(calls)
    out = io.StringIO()
    g = Scripted(st, ["human"] * 3, Console(file=out, width=120), None,
                 policy=lambda g, s, seat: [todo.pop(0)])
    while todo:
        g.step()
    return g, out.getvalue()


def test_number_auction_summary_names_the_declarer():
    """issue 14 case 1 ([A2] [X1]): a number wins the auction; the summary reads the declarer
    and his number, not "all passed"."""
    _g, text = _live(["2", "pass", "pass"])
    line = next(ln for ln in text.splitlines() if ln.startswith("auction:"))
    assert line == "auction: You 2 · P1 pass · P2 pass  → 2 by You"


def test_hold_and_blind_summaries():
    """issue 14 case 1 ([A3] [A5]): a hold reads as the number held; a blind call as itself."""
    _g, text = _live(["2", "3", "pass", "hold", "pass"])
    assert text.splitlines()[-1].endswith("→ 3 by You")
    _g, text = _live(["igra", "pass", "pass"])
    assert "→ igra by You" in text
    assert "all passed" not in text


def _typed_pad(variant, answers):
    """A scorepad of ``variant`` with ``answers`` typed to its questions, hand after hand."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(variant)
    todo, facts = list(answers), {}
    while todo or facts:
        q = pad.next_question(facts)
        if q is None:
            pad.add(facts)
            facts = {}
            continue
        pad.answer(q, todo.pop(0), facts)
    return pad


def _text(renderable, width=160) -> str:
    con = Console(file=io.StringIO(), width=width, color_system=None, no_color=True, highlight=False)
    con.print(renderable)
    return con.file.getvalue()


def _pref_start(tmp_path, start: int):
    p = tmp_path / "pref.yaml"
    p.write_text(f"extends: preferans\nid: pref-start\nname: Preferans\nscoring: {{start: {start}}}\n")
    return load_variant(str(p))


def test_play_sheet_draws_the_declared_bula_layout(tmp_path):
    """issue 14 case 2 ([S1] [S6] [R3]): the sheet of ``play``/``replay`` (cli score_sheet) is
    the variant's declared layout, the one ``rulekit score`` draws: soup columns, the refe
    mark, a bula under the hat."""
    from types import SimpleNamespace

    from cli.render import score_sheet
    from rulekit.sheets.render import renderable
    v = _pref_start(tmp_path, 6)
    pad = _typed_pad(v, ["pass",                                           # all pass: a refe
                         "karo", "P1", "follow follow", "-", "2 6 2"])     # made at refe x2: 6 -> -6
    shown = _text(score_sheet(SimpleNamespace(sheet=pad.sheet, variant=v), title="Score sheet"))
    assert shown == _text(renderable(pad.sheet, v, we=None, title="Score sheet"))
    assert "P0>P1" in shown and "P1>P2" in shown   # the soup columns
    assert "—" in shown and "-/-" in shown           # the refe written, then played
    assert "│ 2 │" in shown and "^6 -/-" in shown      # -6 drawn under the hat


def test_scorepad_winners_by_the_final_results(tmp_path):
    """issue 14 case 3 (rules/preferans.md worked example 10, [S7] [S8]): the bulas add up to 0,
    the final results (lower is better) are A -6, B +12, C -6: A and C win, B loses, as the
    engine's match_result decides with the sheet."""
    v = _pref_start(tmp_path, 6)
    pad = _typed_pad(v, ["karo", "P0", "follow follow", "-", "6 2 2",       # A = P0, B = P1, C = P2
                         "karo", "P1", "follow follow", "-", "3 6 1",
                         "karo", "P2", "follow pass", "-", "2 0 8"])
    assert pad.is_over
    assert pad.winners == [0, 2]
    assert pad.end_reason == "the totals add up to 0, at or below 0"
