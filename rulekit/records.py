"""Game records: save, load and replay a match exactly (DESIGN.md "Records").

A record is JSON::

    {"format": "rulekit-record/1", "variant": "fivehundred", "variant_hash": "…",
     "settings": {"players": 3}, "seed": 1, "dealer": 0, "deals": [["7S", …], …] | null,
     "names": ["You", "Bot 1", "Bot 2"], "players": ["human", "bot", "bot"],
     "actions": [[1, "pass"], [2, "7H"], …], "sheet": {…}, "result": {…}}

Saving is atomic: the JSON goes to a temporary file in the same folder which
then replaces the target, so an interrupted save never leaves half a file.
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


def to_record(state: State, players: list | None = None, explicit_deals: bool = False) -> dict:
    """The JSON-ready record of ``state``.

    :param players: controller of each seat (``human``/``bot``...), informative.
    :param explicit_deals: also store every hand's deal (cards in dealing order).
    """
    v = state.variant
    deals = None
    if explicit_deals or state.deals:
        deals = [[v.deck.name(c) for c in h.deck_order] for h in state.hand_log + [state.hand]]
    return {
        "format": FORMAT, "variant": v.id, "variant_hash": v.hash, "settings": dict(v.settings),
        "seed": state.seed, "dealer": state.first_dealer, "deals": deals, "names": state.names,
        "players": players, "start": state.sheet.start,
        "actions": [[s, a] for s, a in state.history],
        "sheet": state.sheet.as_dict(), "result": state.result(),
    }


def save(path: str | Path, record: dict) -> None:
    """Write ``record`` to ``path`` atomically (temporary file, fsync, rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(path: str | Path) -> dict:
    """Read a record.

    :raises RecordError: unreadable file, bad JSON, or not a rulekit record.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise RecordError(f"{path}: cannot read the record: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        line = getattr(e, "lineno", 0)
        col = getattr(e, "colno", 0)
        raise RecordError(f"{path}:{line}:{col}: not valid JSON ({getattr(e, 'msg', e)})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path}: not a rulekit record (expected \"format\": \"{FORMAT}\")")
    for key in ("variant", "seed", "actions"):
        if key not in data:
            raise RecordError(f"{path}: the record has no {key!r}")
    return data


def replay(record: dict, upto: int | None = None, source: str = "record") -> State:
    """Rebuild the state of a record by re-applying its actions.

    :param upto: apply only the first ``upto`` actions.
    :raises RecordError: unknown variant, changed variant file, or an action that
        does not replay (with its index).
    """
    try:
        settings = record.get("settings") or {}
        v = load_variant(record["variant"], players=settings.get("players"))
    except RulekitError as e:
        raise RecordError(f"{source}: variant {record.get('variant')!r} cannot be loaded: {e}") from None
    if record.get("variant_hash") and record["variant_hash"] != v.hash:
        raise RecordError(f"{source}: the variant {v.id!r} has changed since this record was made "
                          f"(hash {record['variant_hash']} != {v.hash})")
    try:
        state = State(v, seed=int(record["seed"]), deals=record.get("deals"), dealer=record.get("dealer"),
                      scores=record.get("start"), names=record.get("names"))
    except (RulekitError, ValueError, TypeError) as e:
        raise RecordError(f"{source}: cannot start the match: {e}") from None
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for i, item in enumerate(actions):
        try:
            seat, text = item
        except (TypeError, ValueError):
            raise RecordError(f"{source}: action {i} is not a [seat, text] pair: {item!r}") from None
        if seat != state.to_move:
            raise RecordError(f"{source}: action {i} ({text}) is by seat {seat} but seat {state.to_move} is to move")
        try:
            state.apply(str(text))
        except ActionError as e:
            raise RecordError(f"{source}: action {i} ({text}) does not replay: {e}") from None
    return state
