"""Display fixes found by a tester (a second fresh-user pass): the auction summary, the sheet layout, the
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
    """user pass case 1 ([A2] [X1]): a number wins the auction; the summary reads the declarer
    and his number, not "all passed"."""
    _g, text = _live(["2", "pass", "pass"])
    line = next(ln for ln in text.splitlines() if ln.startswith("auction:"))
    assert line == "auction: You 2 · P1 pass · P2 pass  → 2 by You"


def test_hold_and_blind_summaries():
    """user pass case 1 ([A3] [A5]): a hold reads as the number held; a blind call as itself."""
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
    """user pass case 2 ([S1] [S6] [R3]): the sheet of ``play``/``replay`` (cli score_sheet) is
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
    """user pass case 3 (rules/preferans.md worked example 10, [S7] [S8]): the bulas add up to 0,
    the final results (lower is better) are A -6, B +12, C -6: A and C win, B loses, as the
    engine's match_result decides with the sheet."""
    v = _pref_start(tmp_path, 6)
    pad = _typed_pad(v, ["karo", "P0", "follow follow", "-", "6 2 2",       # A = P0, B = P1, C = P2
                         "karo", "P1", "follow follow", "-", "3 6 1",
                         "karo", "P2", "follow pass", "-", "2 0 8"])
    assert pad.is_over
    assert pad.winners == [0, 2]
    assert pad.end_reason == "the totals add up to 0, at or below 0"


def test_exchange_text_uses_the_phase_name_and_plural():
    """user pass case 4 ([X1]): the exchange line says the variant's own name for what is taken
    (preferans's ``talon`` phase; Five Hundred's ``exchange`` phase takes the ``widow``), puts
    cards aside for a ``set_aside`` phase, and counts "1 card"."""
    from cli.render import exchange_text
    g, _t = _live(["2", "pass", "pass"])
    st = g.state
    disc = st.legal_actions()[0]
    st.apply(disc)
    line = exchange_text(st, st.hand, disc.text, 0, reveal=False)
    assert line.plain == "You take the talon and discard 2 cards"
    fh = load_variant("fivehundred")
    spec = next(p for p in fh.phases if p.kind == "widow_exchange")
    fst = State(fh, seed=1, names=["You", "P1", "P2"])
    assert exchange_text(fst, fst.hand, "discard 7S 8S 9S", 1, False, spec=spec).plain == \
        "P1 takes the widow and discards 3 cards"
    bos = load_variant("boston")
    aside = next(p for p in bos.phases if p.kind == "set_aside")
    bst = State(bos, seed=1, names=["You", "P1", "P2", "P3"])
    assert exchange_text(bst, bst.hand, "discard 7S", 2, False, spec=aside).plain == "P2 puts 1 card aside"


def test_help_lists_contracts_without_false_trick_counts():
    """user pass case 5 ([C1]): a step auction's levels are contract numbers, not tricks; a null
    contract (preferans betl, Boston's nulls) is "take no trick"."""
    from cli.game import help_text
    text = help_text(PREF, State(PREF, seed=1))
    assert "  pik      number 2, S trumps\n" in text
    assert "  betl     number 6, take no trick, no trump\n" in text
    assert "tricks" not in text.split("\n", 1)[1].split("Commands")[0]
    bos = load_variant("boston")
    assert "  LN       take no trick, no trump; worth 15 made" in help_text(bos, State(bos, seed=1))


def test_round_objective_stands_on_its_own_line_in_full():
    """User pass (King [K2]): the round's objective was cut at the terminal's width inside the
    hand's rule; it now stands whole on a line of its own under the header."""
    from typer.testing import CliRunner
    from rulekit.cli.app import app
    r = CliRunner().invoke(app, ["play", "king", "--auto", "--seed", "1", "--max-hands", "2"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "Hand 2 — dealer" in text and "— no hearts" in text
    assert load_variant("king").rounds[1].objective in text


def test_trick_bids_are_public_calls_shown_in_the_hand():
    """User pass: the bids of a trick_bids phase (Oh Hell) never appeared, so '+10' could not be
    checked; they are now public calls, in observations, on screen and in the record."""
    from typer.testing import CliRunner
    from rulekit.cli.app import app
    st = State(load_variant("ohhell"), seed=1)
    first = st.to_move
    st.apply(st.legal_actions()[0])
    assert st.hand.calls == [(first, "bid 0")]
    assert st.observation((first + 2) % 4).calls == [(first, "bid 0")]
    r = CliRunner().invoke(app, ["play", "ohhell", "--auto", "--seed", "1", "--max-hands", "1"])
    assert r.exit_code == 0 and "auction   P1 bid 0 · P2 bid 0 · P3 bid 1 · P0 bid 1" in r.output, r.output
