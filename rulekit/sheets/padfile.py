"""Pad files (``rulekit score --file``): read with the limits and checks of game records, written
atomically like them, and the sheet exported whole (CSV, JSON, text).

A pad file is untrusted input (players mail them to each other): it is read only as a regular
file of bounded size (:func:`rulekit.records.read_bytes`), its JSON with the record reader's
bounded integers, no ``NaN`` or infinities, bounded nesting, bounded texts and lists, only the
keys of :data:`KEYS`, and the types each field must have;
:meth:`~rulekit.sheets.scorepad.ScorePad.from_dict` then checks the version, the variant and its
hash, re-enters every hand and refuses a stored sheet that differs from the one the hands give
(a pad altered by hand).

Like a game record, a pad never makes rulekit open a path it names (:func:`variant_of`): a pad
of an installed variant names its id; a pad of any other variant (a file) stores the variant's
whole merged text (``variant_text``), which must compile to ``variant_hash``.  A pad written
before pads stored it (an id only) loads when the user names the variant's file.

Exports hold the whole sheet as one table, a row per sheet row (a deal, a bonus), then the
totals and the result: per score column its entry and running total, each part (``below`` /
``above``, a bula's parts), game points; whether a line was drawn; each soup written against
another column (``P1 against P0``: a soup); each marker event (a refe written, passed or failed); the
match's final results and winners.  Every text is escaped by :func:`rulekit.text.visible`, as on
the terminal: ESC is written as ``^[`` (a terminal escape sequence in a name cannot reach whoever opens the export).
"""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

from rulekit import records
from rulekit.errors import RulekitError
from rulekit.text import name_problem, visible
from rulekit.variant import builtin_ids, load_variant
from rulekit.variant.loader import MAX_FILE_SIZE

#: Versions of the pad format this rulekit reads.
VERSIONS = (1,)
#: Deepest nesting of a pad file (a pad's own data is 5 levels deep).
MAX_DEPTH = 12
#: Most items of a list or object in a pad file (hands, rows, facts).
MAX_ITEMS = 100_000
#: The keys of a pad file (:meth:`~rulekit.sheets.scorepad.ScorePad.as_dict`); any other is refused.
KEYS = ("kind", "version", "variant", "variant_hash", "variant_text", "players", "names", "first_dealer",
        "hands", "stopped", "sheet", "winners", "end_reason")


class PadFileError(RulekitError, ValueError):
    """A pad file that cannot be read, with the file and the reason."""


def _constant(name: str):
    raise ValueError(f"{name} is not a number a pad holds")


def read(path: str | Path) -> dict:
    """The data of the pad file ``path``, its shape checked (see the module docstring).

    :raises PadFileError: not a regular file, too large, not UTF-8 JSON, a huge integer, NaN,
        nesting too deep, a text or list too long, a field of the wrong type.
    """
    try:
        raw = records.read_bytes(path)
    except RulekitError as e:
        raise PadFileError(str(e).replace("a record file", "a scorepad file").replace("the record", "the pad")) \
            from None
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=records._bounded_int, parse_constant=_constant)
    except UnicodeDecodeError as e:
        raise PadFileError(f"{path}: not a scorepad file (not UTF-8 text: {e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise PadFileError(f"{path}:{e.lineno}:{e.colno}: not a scorepad file (not valid JSON: {e.msg})") from None
    except (ValueError, RecursionError) as e:
        raise PadFileError(f"{path}: not a scorepad file ({str(e) or 'nested too deeply'})") from None
    problem = shape_problem(data)
    if problem:
        raise PadFileError(f"{path}: {problem}")
    return data


def _walk_problem(data) -> str:
    """The first value of ``data`` past the limits (depth, items, text length, floats), or ``""``."""
    stack = [(data, 0, "the pad")]
    while stack:
        x, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return f"{where}: nested more than {MAX_DEPTH} levels deep (a pad is not)"
        if isinstance(x, float):
            return f"{where}: {x!r} is not a whole number (a pad holds whole numbers only)"
        if isinstance(x, str):
            limit = MAX_FILE_SIZE if where == "the pad.variant_text" else records.MAX_TEXT
            if len(x) > limit:
                return f"{where} is {len(x)} characters long (expected at most {limit})"
            found = records._not_text(x, where)
            if found:
                return found
        elif isinstance(x, (list, dict)):
            if len(x) > MAX_ITEMS:
                return f"{where} has {len(x)} items (expected at most {MAX_ITEMS})"
            items = x.items() if isinstance(x, dict) else enumerate(x)
            for k, y in items:
                if isinstance(k, str) and len(k) > records.MAX_TEXT:
                    return f"{where}: a key {len(k)} characters long (expected at most {records.MAX_TEXT})"
                stack.append((y, depth + 1, f"{where}[{k!r}]" if isinstance(k, int) else f"{where}.{k}"))
    return ""


def shape_problem(data) -> str:
    """The first problem with the shape of pad data, or ``""``."""
    from rulekit.sheets.scorepad import PAD_KIND
    if not isinstance(data, dict) or data.get("kind") != PAD_KIND:
        return "not a rulekit scorepad (expected a file written by `rulekit score`)"
    problem = _walk_problem(data)
    if problem:
        return problem.replace("the pad.", "", 1)
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        return (f"a scorepad of version {version!r}, which this rulekit does not read (expected "
                f"{' or '.join(str(x) for x in VERSIONS)})")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        return (f"{unknown[0]!r} is not a key of a scorepad (expected only {', '.join(KEYS)}); "
                f"remove it, or write the pad again with `rulekit score`")
    for key in ("variant", "variant_hash"):
        if not isinstance(data.get(key), str) or not data[key]:
            return f"{key!r} must be text"
    if data.get("variant_text") is not None and not isinstance(data["variant_text"], str):
        return "'variant_text' must be text (the variant's YAML) or null"
    names = data.get("names")
    if not isinstance(names, list) or not all(isinstance(x, str) and x.strip() for x in names) \
            or len(names) > 64:
        return "'names' must be a list of player names (texts)"
    for i, x in enumerate(names):
        problem = name_problem(x, f"names[{i}]")
        if problem:
            return problem
    if len({x.lower() for x in names}) != len(names):
        return "'names' names a player twice"
    for key in ("players", "first_dealer"):
        if not records._is_int(data.get(key)):
            return f"{key!r} must be a whole number"
    if not isinstance(data.get("stopped", False), bool):
        return "'stopped' must be true or false"
    hands = data.get("hands")
    if not isinstance(hands, list):
        return "'hands' must be a list of hands"
    for i, h in enumerate(hands):
        if not isinstance(h, dict):
            return f"hand {i + 1} is not an object of facts"
        for k, v in h.items():
            ok = v is None or isinstance(v, (str, int)) or (
                isinstance(v, list) and len(v) <= 64 and all(records._is_int(x) for x in v))
            if not ok or (isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10 ** 6):
                return f"hand {i + 1}: the fact {k!r} is {json.dumps(v)[:60]} (expected a text, a number or a list of numbers)"
    sheet = data.get("sheet")
    if not isinstance(sheet, dict) or not isinstance(sheet.get("rows"), list):
        return "'sheet' must be an object with 'rows'"
    return ""


def variant_of(data: dict, source: str, players: int | None = None):
    """The compiled variant of the pad ``data``, without opening any path the pad names: the
    variant text it stores, checked by its hash, else the installed variant of its id.

    :param source: names the pad in messages.
    :param players: the number of players (default the pad's own).
    :raises PadFileError: the data is not a pad's, its stored text does not load or does not
        match its hash, or its variant is no installed id and the pad does not store its text.
    """
    problem = shape_problem(data)
    if problem:
        raise PadFileError(f"{source}: {problem}")
    players = data["players"] if players is None else players
    vid = data["variant"]
    if data.get("variant_text"):
        try:
            return records.embedded_variant(data["variant_text"], data["variant_hash"], players, source, "pad")
        except RulekitError as e:
            raise PadFileError(str(e)) from None
    if vid in builtin_ids():
        try:
            return load_variant(vid, players=players)
        except RulekitError as e:
            raise PadFileError(f"{source}: variant {vid!r} cannot be loaded: {str(e).splitlines()[0]}") from None
    raise PadFileError(f"{source}: the pad names the variant {vid!r}, which is no installed id, and does not store "
                       f"the variant's text: name the variant's file (`rulekit score FILE.yaml --file {source}`); "
                       f"a pad never opens a path it names")


def escape(text) -> str:
    """``text`` (any value, as ``str``) as one line of an export, its control and format
    characters shown by :func:`rulekit.text.visible` (newlines too)."""
    return visible(str(text), newlines=False)


# ------------------------------------------------------------------ exports
def table(pad) -> tuple:
    """``(header, rows)``: the whole sheet of ``pad`` as one table (see the module docstring);
    every cell a number, a text or ``None`` (empty)."""
    from rulekit.engine.scoring import final_results
    v = pad.variant
    cols = [escape(c) for c in pad.columns]
    sheet = pad.sheet
    parts = [p.name for p in v.scoring.parts]
    games = any(p.game for p in v.scoring.parts)
    pairs = [(w, t) for w in range(len(cols)) for t in range(len(cols)) if w != t] \
        if v.scoring.against_declarer is not None else []
    markers = [m.name for m in v.scoring.markers]
    header = ["row", "hand", "note", "void"]
    for col in cols:
        header += [col, f"{col} total"] + [f"{col} {p}" for p in parts] + ([f"{col} games"] if games else [])
        header += [f"{col} {m}" for m in markers]
    header += (["line"] if games else []) + [f"{cols[w]} against {cols[t]}" for w, t in pairs]
    finals = final_results(v, sheet)
    header += [f"{c} result" for c in cols] if v.match.final is not None else []
    header += ["winner", "reason"]
    out = []

    def soups(row) -> list:
        got = {(a["column"], a["target"]): a["value"] for a in row.against}
        return [got.get(p) for p in pairs]

    for r in sheet.rows:
        cells: list = ["bonus" if r.bonus else "deal", r.hand + 1, escape(r.note or ("void" if r.void else "")),
                       int(r.void)]
        events = {(m["marker"], m["column"]): m["state"] for m in r.marks}
        for c in range(len(cols)):
            cells += [r.entries[c], r.totals[c]] + [(r.parts or {}).get(p, [None] * len(cols))[c] for p in parts]
            cells += [r.games[c]] if games else []
            cells += [events.get((m, c)) for m in markers]
        cells += ([int(r.line)] if games else []) + soups(r)
        cells += [None] * len(cols) if v.match.final is not None else []
        out.append(cells + [None, None])
    totals = sheet.totals()
    points = sheet.game_points()
    cells = ["total", None, None, None]
    for c in range(len(cols)):
        cells += [None, totals[c]] + [sum((r.parts or {}).get(p, [0] * len(cols))[c] for r in sheet.rows)
                                      for p in parts]
        cells += [points[c]] if games else []
        cells += [" ".join(m["state"] for r in sheet.rows for m in r.marks if m["marker"] == mk and m["column"] == c)
                  or None for mk in markers]
    cells += ([None] if games else []) + [sum(a["value"] for r in sheet.rows for a in r.against
                                              if (a["column"], a["target"]) == p) for p in pairs]
    cells += list(finals) if finals is not None else ([None] * len(cols) if v.match.final is not None else [])
    cells += [" and ".join(cols[c] for c in pad.winners) or None, escape(pad.end_reason) or None]
    out.append(cells)
    return header, out


def to_csv(pad) -> str:
    """The sheet as CSV: a header naming each column, then :func:`table`'s rows."""
    header, rows = table(pad)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow(["" if x is None else x for x in r])
    return buf.getvalue()


def to_json(pad) -> str:
    """The sheet as JSON: a list of objects, one per row of :func:`table`, keyed by its header."""
    header, rows = table(pad)
    return json.dumps([dict(zip(header, r)) for r in rows], indent=1, ensure_ascii=False) + "\n"


def write_export(text: str, out: Path, pad_file: Path | None, force: bool) -> None:
    """Write ``text`` to ``out`` atomically.

    :raises PadFileError: ``out`` is the pad file itself, or exists and ``force`` is false.
    :raises OSError: the folder cannot be written (``out`` is then unchanged).
    """
    target = Path(os.path.realpath(out))
    if pad_file is not None and (target == Path(os.path.realpath(pad_file))
                                 or (target.exists() and Path(pad_file).exists()
                                     and os.path.samefile(target, pad_file))):
        raise PadFileError(f"{out}: that is the pad itself: the export would destroy it (choose another file)")
    if target.exists() and not force:
        raise PadFileError(f"{out} exists: use --force to replace it, or choose another file")
    if target.exists() and not target.is_file():
        raise PadFileError(f"{out}: not a regular file")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
