"""Renderers for score sheets, drawn the way players draw them on paper.

* :func:`columns_table` — one column per player (Five Hundred, Rams): each hand's
  entry and the running total.
* :func:`we_they_table` — the WE/THEY sheet with the line (bridge, whist;
  rules/bridge.md [S2]): above-the-line entries stack upward from the line,
  below-the-line entries go down from it, and a rule is drawn under each game.

The variant declares its layout (``sheet.layout``); :data:`LAYOUTS` maps each layout
to its renderer, :func:`renderable` draws a sheet as a rich renderable and
:func:`sheet_text` as plain text.
"""
from __future__ import annotations

import io
import re

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rulekit.cards import SUIT_SYMBOLS


#: a bid or a card with a suit letter (``7C``, ``10H``, ``QS``), a trump suit in parentheses
#: (``10T (C)``) or after ``trumps`` (``trumps D``): the letters a note writes
_SUIT_WORDS = re.compile(r"\b(?:(\d{1,2}|[JQKA])([SHDC])\b|(?<=\()([SHDC])(?=\))|(?<=\btrumps )([SHDC])\b)")


def with_symbols(note: str) -> str:
    """A sheet note with its suit letters as the table shows them: ``P1 7C made`` ->
    ``P1 7♣ made``, ``10T (C)`` -> ``10T (♣)``, ``trumps D`` -> ``trumps ♦``; a seat or side
    named by letters (``S``, ``NS``) stays as it is."""
    def sub(m) -> str:
        if m.group(2):
            return m.group(1) + SUIT_SYMBOLS[m.group(2)]
        return SUIT_SYMBOLS[m.group(3) or m.group(4)]
    return _SUIT_WORDS.sub(sub, note)


def _split(row, game_parts: set) -> tuple[list, list]:
    """(above, below) entries per column of a row with parts."""
    n = len(row.entries)
    above, below = [0] * n, [0] * n
    for name, vals in (row.parts or {}).items():
        target = below if name in game_parts else above
        for c in range(n):
            target[c] += vals[c]
    return above, below


def we_they_table(sheet, game_parts, we: int = 0, title: str = "Score sheet") -> Table:
    """The WE/THEY sheet of a side-scored match.

    :param sheet: a :class:`~rulekit.sheets.sheet.Sheet` whose rows have ``parts``.
    :param game_parts: names of the parts that count toward games (drawn below the line).
    :param we: the column shown as WE (the human's side); the other is THEY.
    :returns: a rich :class:`~rich.table.Table` with above entries (newest at the top),
        the line, below entries with a rule under every game, and the totals.
    """
    game_parts = set(game_parts)
    n = len(sheet.columns)
    order = [we] + [c for c in range(n) if c != we]
    heads = [f"WE ({sheet.columns[c]})" if c == we else
             (f"THEY ({sheet.columns[c]})" if n == 2 else sheet.columns[c]) for c in order]
    t = Table(title=title, show_edge=True, show_lines=False, pad_edge=True)
    for h in heads:
        t.add_column(h, justify="right", min_width=12)
    above_rows, below_rows = [], []
    for r in sheet.rows:
        if r.void or r.parts is None:
            continue
        above, below = _split(r, game_parts)
        if any(above):
            above_rows.append([above[c] for c in order])
        if any(below) or r.line:
            below_rows.append(([below[c] for c in order], r.line))
    for vals in reversed(above_rows):
        t.add_row(*[str(v) if v else "" for v in vals])
    t.add_row(*[Text("═" * 12, style="bold") for _ in order])
    for i, (vals, line) in enumerate(below_rows):
        last = i == len(below_rows) - 1
        t.add_row(*[str(v) if v else "" for v in vals], end_section=line and not last)
    totals = sheet.totals()
    t.add_row(*[Text("─" * 12, style="dim") for _ in order])
    t.add_row(*[Text(str(totals[c]), style="bold") for c in order])
    gp = sheet.game_points()
    if any(gp):
        t.add_row(*[Text(f"{gp[c]} game pts", style="dim") for c in order])
    return t


def columns_table(sheet, title: str = "Score sheet", we: int | None = None) -> Table:
    """One column per player or side: each hand's entry and the running total (``+240  540``),
    then the totals.

    :param we: for a sheet of two sides, the column of the human's side: it comes first,
        headed ``WE (NS)``, the other ``THEY (EW)``.
    """
    order = list(range(len(sheet.columns)))
    heads = [str(name) for name in sheet.columns]
    if we is not None and 0 <= we < len(order):
        order = [we] + [c for c in order if c != we]
        heads = [f"WE ({sheet.columns[c]})" if c == we else f"THEY ({sheet.columns[c]})" for c in order]
    t = Table(title=title, show_lines=False)
    t.add_column("#", justify="right", style="dim")
    for head in heads:
        t.add_column(Text(head), justify="right")
    t.add_column("hand", style="dim")
    if any(sheet.start):
        t.add_row("", *[str(sheet.start[c]) for c in order], "start")
    for r in sheet.rows:
        if r.void:
            cells = ["—" for _ in order]
        else:
            cells = [f"{r.entries[c]:+d}  [bold]{r.totals[c]}[/]" if r.entries[c] else f"  [bold]{r.totals[c]}[/]"
                     for c in order]
        t.add_row(str(r.hand + 1), *cells, Text(with_symbols(r.note) or ("void" if r.void else "")))
    if sheet.rows:
        t.add_section()
        totals = sheet.totals()
        t.add_row("", *[f"[bold]{totals[c]}[/]" for c in order], "total")
    return t


def _columns(sheet, variant, we, title):
    side_we = we if variant.scoring.by_side and len(sheet.columns) == 2 else None
    return columns_table(sheet, title, we=side_we)


def _we_they(sheet, variant, we, title):
    return we_they_table(sheet, [p.name for p in variant.scoring.parts if p.game], we=we or 0, title=title)


def bula_table(sheet, variant, title: str = "Score sheet"):
    """The bula sheet as players draw it (rules/preferans.md [S1] [S6] [R3]): for each player
    three columns, his running soup against the left opponent, his total (the bula) in the
    middle and his soup against the right opponent; a marker written is a short line ``—``,
    played ``-/-`` (made, crossed half) or ``-X-`` (failed, crossed full); a total below zero is
    drawn under the hat, without its sign (``^12``); then the final results, lower is better,
    with the higher-is-better reading.

    :returns: a rich :class:`~rich.console.Group` of the sheet table and the results table.
    """
    from rich.console import Group
    from rulekit.engine.scoring import final_results
    n = len(sheet.columns)
    t = Table(title=title, show_lines=False)
    t.add_column("#", justify="right", style="dim")
    for c in range(n):
        left, right = sheet.columns[(c + 1) % n], sheet.columns[(c - 1) % n]
        t.add_column(Text(f"{sheet.columns[c]}>{left}"), justify="right", style="dim")
        t.add_column(Text(f"{sheet.columns[c]}"), justify="right")
        t.add_column(Text(f"{sheet.columns[c]}>{right}"), justify="right", style="dim")
    soups = [[0] * n for _ in range(n)]
    shown = {"new": "—", "passed": "-/-", "failed": "-X-"}

    def bula(x: int) -> str:
        return f"^{-x}" if x < 0 else str(x)  # under the hat: no sign
    t.add_row("", *[x for c in range(n) for x in ("", bula(sheet.start[c]), "")])
    for r in sheet.rows:
        for a in r.against:
            soups[a["column"]][a["target"]] += a["value"]
        marks: dict[int, list[str]] = {}
        for m in r.marks:
            marks.setdefault(m["column"], []).append(shown.get(m["state"], "?"))
        cells = []
        for c in range(n):
            mid = bula(r.totals[c]) if r.entries[c] else ""
            if c in marks:
                mid = (mid + " " if mid else "") + " ".join(marks[c])
            cells += [str(soups[c][(c + 1) % n] or ""), mid, str(soups[c][(c - 1) % n] or "")]
        t.add_row(str(r.hand + 1), *cells)
    finals = final_results(variant, sheet)
    if finals is None:
        return t
    low = variant.scoring.lower_is_better
    res = Table(title="Final result", show_lines=False)
    res.add_column("")
    for c in range(n):
        res.add_column(Text(sheet.columns[c]), justify="right")
    res.add_row("lower is better" if low else "higher is better", *[f"{x:+d}" for x in finals])
    if low:
        res.add_row("higher is better", *[f"{-x:+d}" for x in finals])
    return Group(t, res)


def _bula(sheet, variant, we, title):
    return bula_table(sheet, variant, title)


#: Sheet layouts (the variant's ``sheet.layout``) -> renderer ``(sheet, variant, we, title)``
#: returning a rich renderable.  A new layout is one function and one entry here (and its
#: name in the schema's ``sheet.layout`` enum).
LAYOUTS = {"columns": _columns, "we_they": _we_they, "bula": _bula}


def renderable(sheet, variant, we: int | None = 0, title: str = "Score sheet"):
    """``sheet`` drawn in ``variant``'s layout (``variant.sheet_layout``) as a rich renderable.

    :param we: the column of the human's side (shown as WE), when sides score.
    """
    return LAYOUTS[variant.sheet_layout](sheet, variant, we, title)


def sheet_text(sheet, variant, width: int = 100, title: str = "Score sheet") -> str:
    """``sheet`` in ``variant``'s layout as plain text (no colours, no styles), e.g. for
    ``rulekit score --export sheet.txt``."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False,
                      no_color=True, highlight=False, emoji=False)
    console.print(renderable(sheet, variant, we=None, title=title))
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines()) + "\n"


def sheet_renderable(state, we: int = 0, title: str = "Score sheet"):
    """``state``'s sheet in its variant's layout (:func:`renderable`)."""
    return renderable(state.sheet, state.variant, we=we, title=title)
