"""Files of a comparison (``rulekit compare --out DIR``): rows as CSV and JSON lines, the
dictionary of their columns, the summary as JSON, and PNG plots when matplotlib is installed
(the ``plots`` extra).

matplotlib is imported only inside :func:`write_plots`, so the rest of rulekit never needs it.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from rulekit.sim.compare import Comparison, metric_value, paired

#: Said instead of writing plots when matplotlib is missing.
NO_PLOTS = "plots skipped: matplotlib is not installed (pip install 'rulekit[plots]')"


def write_rows(result: Comparison, out: Path) -> list[Path]:
    """Write ``rows.csv`` (text cells that a spreadsheet would run as a formula get a leading
    apostrophe; a value that does not apply is an empty cell), ``columns.json`` (what each column
    of the rows means: :func:`columns`), ``rows.jsonl`` (one row per index and variant, for
    pandas; values as they are, ``null`` where none applies) and ``summary.json`` into ``out``
    (created when missing).  :returns: the files written.
    :raises OSError: when the folder cannot be written."""
    out.mkdir(parents=True, exist_ok=True)
    fields: list = []
    for r in result.rows:
        fields += [k for k in r if k not in fields]
    files = [out / "rows.csv", out / "columns.json", out / "rows.jsonl", out / "summary.json"]
    with open(files[0], "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows({k: _cell(v) for k, v in r.items()} for r in result.rows)
    files[1].write_text(json.dumps(columns(result.unit, fields), indent=2, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    with open(files[2], "w", encoding="utf-8") as f:
        for r in result.rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    files[3].write_text(json.dumps(result.summary(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return files


# What each column of the rows means, by unit: name (a regular expression with one group for the
# seat or score column) -> (description, unit, type). An empty cell (null in rows.jsonl) is a
# value that does not apply to that deal, as each description says.
_EVERY = {
    "index": ("number of the deal (or match) in the comparison, from 0: the rows of one index are paired",
              "", "integer"),
    "variant": ("the variant as named on the command line (a name given twice: NAME (2))", "", "string"),
    "seed": ("seed of the deal's State, derived from (--seed, index): the same cards under every variant",
             "", "integer"),
}
_DEALS = {
    "dealer": ("seat that dealt (0 is the variant's first seat)", "seat", "integer"),
    "contract": ("the contract as its bid is written; empty without a contract", "", "string"),
    "level": ("level of the contract; empty without a contract", "level", "integer"),
    "trump": ("trumps of the hand (a suit's letter, NT for none); empty when none was set", "", "string"),
    "declarer": ("seat of the declarer; empty without a contract", "seat", "integer"),
    "made": ("1 when the declarer made the contract (the variant's own made rule), else 0; empty without "
             "a contract", "", "0/1"),
    "all_pass": ("1 when the auction ended without a contract, else 0; empty in a game without an auction",
                 "", "0/1"),
    "declarer_tricks": ("tricks taken by the declarer (with his partner's when sides score); empty without "
                        "a contract", "tricks", "integer"),
    "declarer_score": ("the entry of the declarer's score column for the deal; empty without a contract",
                       "points", "number"),
    "decided_at": ("trick after which the contract was sure to be made or to fail; empty without a contract, "
                   "or when play stopped first", "trick", "integer"),
    r"score_(\d+)": ("entry of score column {} for the deal (a seat, or a side when sides score)", "points",
                     "number"),
    r"seat_score_(\d+)": ("entry of the seat {} places left of the dealer (0: the dealer, 1: the eldest hand)",
                          "points", "number"),
    "spread": ("best entry minus worst entry of the deal", "points", "number"),
    "decisions": ("actions in the hand: calls and cards played", "actions", "integer"),
    "tricks": ("tricks played in the hand", "tricks", "integer"),
    "void": ("1 when the deal did not count (thrown in), else 0", "", "0/1"),
}
_MATCHES = {
    "first_dealer": ("seat that dealt the first hand", "seat", "integer"),
    "hands": ("hands played in the match", "hands", "integer"),
    "stopped": ("1 when the match was cut at --max-hands before it ended, else 0", "", "0/1"),
    "winners": ("the winning seats, separated by spaces", "seat", "string"),
    "reason": ("how the match ended, in words", "", "string"),
    r"win_(\d+)": ("seat {}'s share of the win: 1 alone, 1/k when k seats share it (partners, a tie), else 0",
                   "share", "number"),
    "first_dealer_win": ("the first dealer's share of the win, as win_K", "share", "number"),
    r"total_(\d+)": ("final total of score column {}", "points", "number"),
    "spread": ("best final total minus worst", "points", "number"),
    "lead_changes": ("how often the leading score column changed from hand to hand", "changes", "integer"),
    "decided_at": ("share of the match played when the final winner took the lead for good (0 to 1); empty "
                   "when no single column leads at the end", "share", "number"),
}


def columns(unit: str, fields: list) -> dict:
    """``column -> {"description", "unit", "type"}`` for the columns ``fields`` of rows of
    ``unit`` (``deals`` or ``matches``), in their order; ``type`` is ``integer``, ``number``,
    ``string`` or ``0/1`` (an integer that is 1 for yes); ``unit`` is ``""`` for none.

    :raises KeyError: a column no entry describes (a new row field needs its words here).
    """
    known = {**_EVERY, **(_DEALS if unit == "deals" else _MATCHES)}
    out = {}
    for name in fields:
        for pattern, (words, u, t) in known.items():
            m = re.fullmatch(pattern, name)
            if m:
                out[name] = {"description": words.format(*m.groups()), "unit": u, "type": t}
                break
        else:
            raise KeyError(f"no description of the column {name!r} of {unit} rows")
    return out


def _cell(value):
    """A CSV cell that a spreadsheet cannot run: text starting with = + - @ (or a tab or carriage
    return) gets a leading apostrophe, as OWASP advises against CSV injection (a variant's id or
    a note comes from a file). Numbers are left as they are."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def headline(result: Comparison) -> tuple[str, str]:
    """The metric plotted against N: ``(key, label)`` of the difference with the largest
    ratio of difference to interval half-width (the clearest), else the declarer's success
    (deals) or seat 0's win rate (matches)."""
    def clarity(d):
        half = (d.hi - d.lo) / 2
        return abs(d.diff) / half if half > 0 else 0.0
    ranked = sorted((d for d in result.differences if d.lo is not None and d.hi is not None and d.hi > d.lo
                     and d.diff is not None), key=clarity, reverse=True)
    if ranked:
        return ranked[0].metric.key, ranked[0].metric.label
    return ("made", "declarer makes the contract") if result.unit == "deals" else ("win_0", "seat 0 wins")


def score_key(result: Comparison) -> tuple[str, str]:
    """The score whose distribution is plotted: ``(key, label)``."""
    if result.unit == "deals":
        return "declarer_score", "declarer's entry (points)"
    return "spread", "spread of final totals (points)"


def _legend(ax) -> None:
    """A legend when something is labelled (no series, e.g. no deal with a score: no legend,
    rather than matplotlib's "No artists with labels" warning on stderr)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


def write_plots(result: Comparison, out: Path) -> list[Path] | str:
    """Write the plots (:func:`_write_plots`) with matplotlib's warnings kept off stderr: a glyph
    the font lacks (a suit symbol in a variant name) is drawn as a box, which needs no warning
    amid the command's output."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return _write_plots(result, out)


def _write_plots(result: Comparison, out: Path) -> list[Path] | str:
    """Write ``scores.png`` (the distribution of a score under each variant) and
    ``convergence.png`` (the paired difference of the headline metric, with its 95 %
    interval, against the number of deals) into ``out``.

    :returns: the files written, or :data:`NO_PLOTS` when matplotlib is not installed.
    """
    try:
        import matplotlib
    except ImportError:
        return NO_PLOTS
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    files = []
    key, label = score_key(result)
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=80)
    data = [[x for x in result.column(v, key) if x is not None] for v in result.variants]
    if any(data):
        lo = min(min(d) for d in data if d)
        hi = max(max(d) for d in data if d)
        bins = min(40, max(5, int(hi - lo) // 10 + 1))
        for v, d in zip(result.variants, data):
            ax.hist(d, bins=bins, range=(lo, hi + 1), histtype="step", linewidth=1.5, label=v)
    ax.set_xlabel(label)
    ax.set_ylabel(result.unit)
    ax.set_title(f"{label}, {result.n} {result.unit}")
    _legend(ax)
    fig.tight_layout()
    files.append(out / "scores.png")
    fig.savefig(files[-1])
    plt.close(fig)

    key, label = headline(result)
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=80)
    a = [metric_value(r, key) for r in result.rows if r["variant"] == result.variants[0]]
    steps = sorted({min(result.n, int(round(10 ** (k / 8)))) for k in range(8, 8 * 7)} | {result.n})
    steps = [s for s in steps if 2 <= s <= result.n]
    for other in result.variants[1:]:
        b = [metric_value(r, key) for r in result.rows if r["variant"] == other]
        pts = [(s, paired(a[:s], b[:s])) for s in steps]
        band = [(s, p.diff, p.lo, p.hi) for s, p in pts if p.diff is not None and p.lo is not None
                and p.hi is not None]
        if not band:
            continue
        xs = [s for s, *_ in band]
        ax.plot(xs, [d for _, d, _, _ in band], label=f"{other} - {result.variants[0]}")
        ax.fill_between(xs, [lo for _, _, lo, _ in band], [hi for *_, hi in band], alpha=0.25)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(f"{result.unit} (N)")
    ax.set_ylabel("difference (B - A)")
    ax.set_title(f"{label}: paired difference, 95% interval", fontsize=10)
    _legend(ax)
    fig.tight_layout()
    files.append(out / "convergence.png")
    fig.savefig(files[-1])
    plt.close(fig)
    return files


__all__ = ["NO_PLOTS", "columns", "headline", "score_key", "write_plots", "write_rows"]
