"""The sheet seam: the engine emits hand results, the sheet layer builds sheets from
them alone, and the variant declares its sheet layout (``sheet.layout``)."""
from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from rulekit.engine import State
from rulekit.engine.scoring import hand_result
from rulekit.errors import VariantError
from rulekit.sheets.book import SheetBook, build_sheet
from rulekit.sheets.render import LAYOUTS, renderable, sheet_text
from rulekit.sheets.result import Against, HandResult
from rulekit.sheets.sheet import Sheet
from rulekit.variant import builtin_ids, load_variant
from tests.helpers import preferans_start, typed_pad


def _played(vid: str, seed: int, max_hands: int = 6, players=None) -> State:
    s = State(load_variant(vid, players=players), seed=seed, max_hands=max_hands)
    rng = random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("vid", builtin_ids())
def test_sheet_from_hand_results_is_the_played_sheet(vid):
    """A sheet built by SheetBook from the engine's hand results alone has exactly the
    rows of the played match (entries, totals, notes, parts, lines, games, rubber bonus rows)."""
    for seed in (1, 2):
        s = _played(vid, seed)
        results = [hand_result(s, h) for h in s.hand_log]
        assert all(isinstance(r, HandResult) for r in results)
        sheet = build_sheet(s.variant, s.sheet.columns, results)
        played = s.sheet.as_dict()
        if s.end_reason.startswith("stopped") and len(played["rows"]) == len(sheet.rows) + 1:
            played["rows"].pop()  # the unfinished-rubber bonus of a match stopped by the cap
        assert sheet.as_dict() == played


def test_default_layouts():
    """The layout defaults from what each variant draws today: WE/THEY above and below
    the line for sides with game parts, else one column per player or side."""
    assert {vid: load_variant(vid).sheet_layout for vid in ("fivehundred", "rams", "bridge", "bridge-duplicate",
                                                            "whist", "whist-english")} == {
        "fivehundred": "columns", "rams": "columns", "bridge": "we_they", "bridge-duplicate": "columns",
        "whist": "we_they", "whist-english": "we_they"}
    assert set(LAYOUTS) == {"columns", "we_they", "bula"}


def test_declared_layout_changes_the_drawing(tmp_path):
    """A house rule may declare ``sheet: {layout: columns}``: bridge's sheet is then one
    column per side with running totals instead of WE/THEY."""
    f = tmp_path / "plain.yaml"
    f.write_text("id: plain\nextends: bridge\nsheet:\n  layout: columns\n")
    v = load_variant(str(f))
    assert v.sheet_layout == "columns"
    s = _played("bridge", 3, max_hands=2)
    text = sheet_text(s.sheet, v)
    assert "total" in text and "═" not in text
    assert "═" in sheet_text(s.sheet, s.variant)  # the line of the WE/THEY sheet


def test_we_they_without_parts_is_refused(tmp_path):
    """A WE/THEY layout needs parts to put above and below the line."""
    f = tmp_path / "bad.yaml"
    f.write_text("id: bad\nextends: fivehundred\nsheet:\n  layout: we_they\n")
    with pytest.raises(VariantError) as e:
        load_variant(str(f))
    msg = str(e.value)
    assert "bad.yaml:4:" in msg and "we_they" in msg and "expected layout: columns" in msg


def test_unknown_layout_is_refused(tmp_path):
    """A layout that does not exist is a schema error with its position."""
    f = tmp_path / "bad.yaml"
    f.write_text("id: bad\nextends: fivehundred\nsheet:\n  layout: ledger\n")
    with pytest.raises(VariantError) as e:
        load_variant(str(f))
    assert "bad.yaml:4:11" in str(e.value)


def test_entries_against_another_player_reach_the_row():
    """An entry written in one column against another player (a preferans soup) is
    carried by the hand result onto the sheet row and its JSON, outside the column entries."""
    v = load_variant("rams", players=3)
    book = SheetBook(v, ["A", "B", "C"])
    r = HandResult(0, 0, entries=(0, 10, 0), note="test", against=(Against(0, 2, 6, "soup"),))
    row = book.add(r)[0]
    assert row.entries == [0, 10, 0] and row.totals == [0, 10, 0]
    assert row.against == [{"column": 0, "target": 2, "value": 6, "part": "soup"}]
    back = Sheet.from_dict(book.sheet.as_dict())
    assert back.rows[0].against == row.against


def test_renderable_is_the_variant_layout():
    """The rich renderable is drawn in the variant's layout (rich Table)."""
    s = _played("whist", 1, max_hands=3)
    t = renderable(s.sheet, s.variant, we=0)
    assert t.columns[0].header.startswith("WE (")


def _text(renderable, width=160) -> str:
    con = Console(file=io.StringIO(), width=width, color_system=None, no_color=True, highlight=False)
    con.print(renderable)
    return con.file.getvalue()


def test_play_sheet_draws_the_declared_bula_layout(tmp_path):
    """[S1] [S6] [R3]: the sheet of ``play``/``replay`` (cli score_sheet) is
    the variant's declared layout, the one ``rulekit score`` draws: soup columns, the refe
    mark, a bula under the hat."""
    from types import SimpleNamespace

    from cli.render import score_sheet
    from rulekit.sheets.render import renderable
    v = preferans_start(tmp_path, 6)
    pad = typed_pad(v, ["pass",                                           # all pass: a refe
                         "karo", "P1", "follow follow", "-", "2 6 2"])     # made at refe x2: 6 -> -6
    shown = _text(score_sheet(SimpleNamespace(sheet=pad.sheet, variant=v), title="Score sheet"))
    assert shown == _text(renderable(pad.sheet, v, we=None, title="Score sheet"))
    assert "P0>P1" in shown and "P1>P2" in shown   # the soup columns
    assert "—" in shown and "-/-" in shown           # the refe written, then played
    assert "│ 2 │" in shown and "^6 -/-" in shown      # -6 drawn under the hat
