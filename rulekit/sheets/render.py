"""Renderers for score sheets, drawn the way players draw them on paper.

* :func:`columns_table` — one column per player (Five Hundred, Rams): each hand's
  entry and the running total.
* :func:`we_they_table` — the WE/THEY sheet with the line (bridge, whist;
  rules/bridge.md [S2]): above-the-line entries stack upward from the line,
  below-the-line entries go down from it, and a rule is drawn under each game.
"""
from __future__ import annotations

from rich.table import Table
from rich.text import Text


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


def columns_table(sheet, title: str = "Score sheet") -> Table:
    """One column per player: each hand's entry and the running total (``+240  540``)."""
    t = Table(title=title, show_lines=False)
    t.add_column("#", justify="right", style="dim")
    for name in sheet.columns:
        t.add_column(name, justify="right")
    t.add_column("hand", style="dim")
    if any(sheet.start):
        t.add_row("", *[str(x) for x in sheet.start], "start")
    for r in sheet.rows:
        if r.void:
            cells = ["—" for _ in r.entries]
        else:
            cells = [f"{e:+d}  [bold]{tot}[/]" if e else f"  [bold]{tot}[/]" for e, tot in zip(r.entries, r.totals)]
        t.add_row(str(r.hand + 1), *cells, r.note or ("void" if r.void else ""))
    return t


def sheet_renderable(state, we: int = 0, title: str = "Score sheet"):
    """The right layout for ``state``'s sheet: WE/THEY when parts count toward games
    (above and below the line), else one column per player or side."""
    v = state.variant
    game_parts = [p.name for p in v.scoring.parts if p.game]
    if v.scoring.by_side and game_parts:
        return we_they_table(state.sheet, game_parts, we=we, title=title)
    return columns_table(state.sheet, title)
