"""Game records: save, load and replay a match exactly (DESIGN.md "Records").

A record is JSON::

    {"format": "rulekit-record/1", "variant": "fivehundred", "variant_hash": "…",
     "variant_file": null | "/abs/path/house.yaml",
     "settings": {"players": 3}, "seed": 1, "dealer": 0, "deals": [["7S", …], …] | null,
     "names": ["You", "P1", "P2"], "players": ["human", "bot", "bot"], "start": [0, 0, 0],
     "actions": [[1, "pass"], [2, "7H"], …], "sheet": {…}, "result": {…}}

``variant_file`` is set when the variant was read from a file rather than
installed; replay reads that file (and falls back to the installed id).
The ``sheet`` and ``result`` are informative: replay recomputes them, and
:func:`sheet_mismatch` tells whether the stored sheet agrees.

Saving is atomic: the JSON goes to a temporary file in the same folder which
is flushed to disk and then replaces the target, so an interrupted save never
leaves half a file (the previous record stays intact).
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from rulekit.engine import State
from rulekit.errors import ActionError, RecordError, RulekitError
from rulekit.variant import load_variant

FORMAT = "rulekit-record/1"
CONTROLLERS = ("human", "bot", "random", "sensible")


def to_record(state: State, players: list | None = None, explicit_deals: bool = False) -> dict:
    """The JSON-ready record of ``state``.

    :param players: controller of each seat (``human``/``bot``...), informative.
    :param explicit_deals: also store every hand's deal (cards in dealing order).
    """
    v = state.variant
    deals = None
    if explicit_deals or state.deals:
        deals = [[v.deck.name(c) for c in h.deck_order] for h in state.hand_log + [state.hand]]
    files = getattr(v, "files", ()) or ()
    variant_file = None
    if files and not str(files[0]).startswith("variants/"):
        variant_file = str(Path(files[0]).resolve())
    return {
        "format": FORMAT, "variant": v.id, "variant_hash": v.hash, "variant_file": variant_file,
        "settings": dict(v.settings),
        "seed": state.seed, "dealer": state.first_dealer, "deals": deals, "names": list(state.names),
        "players": list(players) if players is not None else None, "start": list(state.sheet.start),
        "vulnerable": state.first_vulnerable, "max_hands": state.max_hands,
        "actions": [[s, a] for s, a in state.history],
        "sheet": state.sheet.as_dict(), "result": state.result(),
    }


def save(path: str | Path, record: dict) -> None:
    """Write ``record`` to ``path`` atomically (temporary file, fsync, rename).

    :raises OSError: the folder cannot be created or written; ``path`` is then unchanged.
    :raises TypeError, ValueError: ``record`` is not JSON data (nothing is written).
    """
    path = Path(path)
    text = json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _file_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:
            os.fchmod(fd, mode)
        except (AttributeError, OSError):  # not on every platform; the file stays private then
            pass
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


def _file_mode(path: Path) -> int:
    """The permissions the record should get: those of the file it replaces, else 0o666 less the umask."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_dir(folder: Path) -> None:
    """Best effort: make the rename itself durable (POSIX only)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def load(path: str | Path) -> dict:
    """Read a record and check its shape (not yet whether it replays: see :func:`replay`).

    :raises RecordError: unreadable file, bad JSON, not a rulekit record, or a
        field of the wrong type (the message names the file and the field).
    """
    try:
        raw = Path(path).read_bytes()
    except IsADirectoryError:
        raise RecordError(f"{path}: is a folder, not a record file") from None
    except OSError as e:
        raise RecordError(f"{path}: cannot read the record: {e.strerror or e}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not a rulekit record (not UTF-8 text: {e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        hint = " (the file is empty)" if not raw.strip() else ""
        raise RecordError(f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}){hint}") from None
    except (ValueError, RecursionError) as e:  # e.g. an integer with too many digits, absurd nesting
        raise RecordError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path}: not a rulekit record (expected \"format\": \"{FORMAT}\")")
    problem = shape_problem(data)
    if problem:
        raise RecordError(f"{path}: {problem}")
    return data


def shape_problem(data: dict) -> str:
    """The first problem with the fields of a record, or ``""`` when its shape is right."""
    for key in ("variant", "seed", "actions"):
        if key not in data:
            return f"the record has no {key!r}"
    if not isinstance(data["variant"], str) or not data["variant"]:
        return "\"variant\" must be a variant id (text)"
    if not _is_int(data["seed"]):
        return f"\"seed\" must be an integer, not {data['seed']!r}"
    for key in ("variant_hash", "variant_file"):
        if data.get(key) is not None and not isinstance(data[key], str):
            return f"{key!r} must be text"
    settings = data.get("settings")
    if settings is not None:
        if not isinstance(settings, dict):
            return "\"settings\" must be an object such as {\"players\": 3}"
        if settings.get("players") is not None and not _is_int(settings["players"]):
            return "\"settings.players\" must be an integer"
    if data.get("dealer") is not None and not _is_int(data["dealer"]):
        return "\"dealer\" must be a seat number"
    for key in ("names", "players"):
        v = data.get(key)
        if v is not None and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
            return f"{key!r} must be a list of texts"
    if data.get("players") is not None:
        bad = [p for p in data["players"] if p not in CONTROLLERS]
        if bad:
            return f"\"players\": {bad[0]!r} is not a controller (expected one of {', '.join(CONTROLLERS)})"
    start = data.get("start")
    if start is not None and (not isinstance(start, list) or not all(_is_int(x) for x in start)):
        return "\"start\" must be a list of integer scores"
    deals = data.get("deals")
    if deals is not None:
        if not isinstance(deals, list) or not all(isinstance(d, list) and all(isinstance(c, (str, int))
                                                                              and not isinstance(c, bool)
                                                                              for c in d) for d in deals):
            return "\"deals\" must be null or a list of deals, each a list of cards"
    actions = data["actions"]
    if not isinstance(actions, list):
        return "\"actions\" must be a list of [seat, action] pairs"
    for i, item in enumerate(actions):
        if not (isinstance(item, list) and len(item) == 2 and _is_int(item[0]) and isinstance(item[1], str)):
            return f"action {i} is not a [seat, \"action\"] pair: {json.dumps(item)[:60]}"
    sheet = data.get("sheet")
    if sheet is not None and (not isinstance(sheet, dict) or not isinstance(sheet.get("rows", []), list)):
        return "\"sheet\" must be an object with \"rows\""
    return ""


def load_record_variant(record: dict, source: str = "record"):
    """The compiled variant of ``record`` (its file if it names one, else the installed id).

    :raises RecordError: the variant cannot be loaded, or it changed since the record was made.
    """
    settings = record.get("settings") or {}
    players = settings.get("players")
    candidates = []
    if record.get("variant_file"):
        candidates.append(record["variant_file"])
    candidates.append(record["variant"])
    first_error = None
    v = None
    for name in candidates:
        try:
            v = load_variant(name, players=players)
            break
        except RulekitError as e:
            first_error = first_error or e
    if v is None:
        msg = str(first_error).splitlines()[0] if first_error else "not found"
        raise RecordError(f"{source}: variant {record.get('variant')!r} cannot be loaded: {msg}")
    if record.get("variant_hash") and record["variant_hash"] != v.hash:
        raise RecordError(f"{source}: the variant {v.id!r} has changed since this record was made "
                          f"(hash {record['variant_hash']} != {v.hash}); it cannot be replayed exactly")
    return v


def replay(record: dict, upto: int | None = None, source: str = "record") -> State:
    """Rebuild the state of a record by re-applying its actions.

    :param upto: apply only the first ``upto`` actions.
    :raises RecordError: unknown variant, changed variant file, a malformed
        record, or an action that does not replay (with its index).
    """
    problem = shape_problem(record) if isinstance(record, dict) else "not a record"
    if problem:
        raise RecordError(f"{source}: {problem}")
    v = load_record_variant(record, source)
    n = v.players
    columns = len(v.side_names) if v.scoring.by_side else n
    names, start, dealer = record.get("names"), record.get("start"), record.get("dealer")
    vul, max_hands = record.get("vulnerable"), record.get("max_hands")
    if names is not None and len(names) != n:
        raise RecordError(f"{source}: {len(names)} names for a game of {n} players")
    if start is not None and len(start) != columns:
        raise RecordError(f"{source}: {len(start)} starting scores for {columns} score columns")
    if dealer is not None and not 0 <= dealer < n:
        raise RecordError(f"{source}: dealer {dealer} is not a seat (0..{n - 1})")
    if vul is not None and (not isinstance(vul, list) or len(vul) != columns
                            or not all(isinstance(x, bool) for x in vul)):
        raise RecordError(f"{source}: \"vulnerable\" must be a list of {columns} true/false values")
    if max_hands is not None and (not isinstance(max_hands, int) or isinstance(max_hands, bool) or max_hands < 1):
        raise RecordError(f"{source}: \"max_hands\" must be a positive integer")
    try:
        state = State(v, seed=record["seed"], deals=record.get("deals"), dealer=dealer, scores=start,
                      names=names, vulnerable=vul, max_hands=max_hands)
    except RulekitError as e:
        raise RecordError(f"{source}: cannot start the match: {e}") from None
    except Exception as e:  # noqa: BLE001 - a malformed record must give a message, not a traceback
        raise RecordError(f"{source}: cannot start the match ({type(e).__name__}: {e})") from None
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for i, (seat, text) in enumerate(actions):
        if state.is_over:
            raise RecordError(f"{source}: action {i} ({text}) comes after the end of the match")
        if seat != state.to_move:
            raise RecordError(f"{source}: action {i} ({text}) is by seat {seat} but seat {state.to_move} is to move")
        try:
            state.apply(text)
        except ActionError as e:
            raise RecordError(f"{source}: action {i} ({text}) does not replay: {e}") from None
        except Exception as e:  # noqa: BLE001 - an engine failure on odd input is still a bad record
            raise RecordError(f"{source}: action {i} ({text}) does not replay "
                              f"({type(e).__name__}: {e})") from None
    return state


def sheet_mismatch(record: dict, state: State) -> str:
    """``""`` when the sheet stored in ``record`` (if any) equals the replayed one, else what differs."""
    stored = record.get("sheet")
    if not isinstance(stored, dict) or "rows" not in stored:
        return ""
    mine = state.sheet.as_dict()["rows"]
    theirs = stored.get("rows")
    if not isinstance(theirs, list):
        return "the stored sheet has no list of rows"
    if len(theirs) != len(mine):
        return f"the stored sheet has {len(theirs)} rows, the replay {len(mine)}"
    for a, b in zip(theirs, mine):
        if not isinstance(a, dict) or a.get("entries") != b["entries"] or a.get("totals") != b["totals"]:
            return f"hand {b['hand'] + 1} differs: stored {a.get('entries') if isinstance(a, dict) else a!r}, " \
                   f"replayed {b['entries']}"
    result = record.get("result")
    if isinstance(result, dict) and "winners" in result and result["winners"] != list(state.winners):
        return f"the stored winners {result['winners']} differ from the replayed {list(state.winners)}"
    return ""
