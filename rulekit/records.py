"""Game records: save, load and replay a match exactly (DESIGN.md "Records").

A record is JSON::

    {"format": "rulekit-record/2", "variant": "fivehundred", "variant_hash": "…",
     "variant_file": null | "house.yaml", "variant_text": null | "id: my-house\n…",
     "settings": {"players": 3}, "seed": 1, "dealer": 0, "deals": [["7S", …], …] | null,
     "names": ["You", "P1", "P2"], "players": ["human", "bot", "bot"], "start": [0, 0, 0],
     "actions": [[1, "pass"], [2, "7H"], …], "sheet": {…}, "result": {…}}

A record is untrusted input (players mail records to each other), so it never
makes rulekit open a path it names.  A game of an installed variant names its
id; a game of any other variant carries the variant it was played under:
``variant_text`` is the whole merged variant (``extends:`` already applied) and
must compile to ``variant_hash``.  ``variant_file`` is only the file's name; an
older record without ``variant_text`` is replayed with the file of that name
*beside the record*, else with the installed id.  The file is read only when it
is a regular file of at most :data:`MAX_RECORD_SIZE` bytes, and text fields
have bounded lengths (:data:`MAX_NAME`, :data:`MAX_TEXT`).

The format names how the deals follow from the seed (:mod:`rulekit.engine.shuffle`):
``rulekit-record/2``, one digest per deal (dealing scheme 2, what a game writes now), or
``rulekit-record/1``, records written before it (scheme 1: a seeded generator per deal and a
whole deck shuffled for the cut), which load and replay as they were made and are saved again
in their own format (a resumed game keeps its deals).  The two formats differ in nothing else.

The ``sheet`` and ``result`` are informative: replay recomputes them, and
:func:`sheet_mismatch` tells whether the stored sheet agrees.

Actions a player took back with ``undo`` (``rulekit play``) are kept, marked as taken back, in
an optional ``undone`` list: ``{"by": seat, "at": i, "actions": [[seat, action], ...]}`` for
each undo, the actions that stood at index ``i`` of ``actions`` (and after it) before the game
went on from there.  ``actions`` is the game as it was played to the end, so a replay gives the
same game; a reader sees every undo.  A record without the key has no undo.

A record saved while the match is in progress (:func:`save_game`) is *sealed*
(:mod:`rulekit.sealing`): its ``seed`` is ``null`` and ``"sealed"`` holds, encrypted with the key
of the ``NAME.json.key`` file beside it (mode 0600), the seed, the explicit deals, the actions of
the hand in progress, ``undone`` and ``chance``; the rest (the finished hands' actions, the
sheet) is plain.  :func:`load` unseals it with that key file; a finished match's record is plain.

Saving is atomic: the JSON goes to a temporary file in the same folder which
is flushed to disk and then replaces the target, so an interrupted save never
leaves half a file (the previous record stays intact).  A new record is
created exclusively (never over a file another process made meanwhile), and a
game holds :class:`RecordLock` on its record while it plays, so that two
processes never write one record.  A record reached through a symbolic link is
written to the link's target (the link stays).
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
from functools import lru_cache
from pathlib import Path

import yaml

from rulekit import sealing
from rulekit.engine import State
from rulekit.errors import ActionError, RecordError, RulekitError
from rulekit.text import MAX_ID, MAX_NAME, MAX_TEXT, name_problem
from rulekit.variant import builtin_ids, compile_variant, load_variant, resolve_text
from rulekit.variant.loader import MAX_FILE_SIZE

try:
    import fcntl
    _FLOCK = True
except ImportError:  # pragma: no cover - not POSIX: records are not locked there
    _FLOCK = False

FORMAT = "rulekit-record/2"
#: Every format a record may have -> the dealing scheme of its seed (rulekit.engine.shuffle).
FORMATS = {"rulekit-record/1": 1, "rulekit-record/2": 2}
#: ``external``: a bot file run in its own process (``--players bot:PATH``); a record never names
#: the file (replaying or resuming never runs a program a record points at).
CONTROLLERS = ("human", "bot", "random", "sensible", "external")
#: Largest record file read (bytes): a record of thousands of hands is well below.
MAX_RECORD_SIZE = 10_000_000
# MAX_NAME, MAX_ID, MAX_TEXT (rulekit.text): the longest player name, variant id and other text
# field of a record (hash, file name, an action), in characters; validate bounds a variant file
# by the same constants, so every game of a valid variant writes a record that loads.


@lru_cache(maxsize=None)
def _installed_hash(vid: str, players) -> str | None:
    """The hash of the installed variant ``vid`` for ``players`` (``None`` if it does not load)."""
    try:
        return load_variant(vid, players=players).hash
    except RulekitError:
        return None


def stored_text(v) -> str | None:
    """The whole merged document of ``v`` (``extends:`` applied) as YAML text, what a record or
    a scorepad stores to be read anywhere without opening a file; ``None`` when ``v`` is exactly
    an installed variant (its id is enough)."""
    if v.id in builtin_ids() and _installed_hash(v.id, v.settings.get("players")) == v.hash:
        return None
    return yaml.safe_dump(v.data, sort_keys=False, allow_unicode=True, width=100)


def embedded_variant(text: str, variant_hash: str | None, players: int | None, source: str,
                     what: str = "record"):
    """The variant stored as ``text`` in a record or a pad (``what`` names it in messages),
    compiled for ``players`` and checked against ``variant_hash``; its ``extends:`` may name
    installed variants only, so no path is ever opened.

    :raises RecordError: no hash, a text that does not load, or a text that does not compile
        to the hash (the file was altered).
    """
    if not variant_hash:
        raise RecordError(f"{source}: the {what} stores its variant but no \"variant_hash\" to check it by")
    r = resolve_text(f"{source} (variant_text)", text, embedded=True)
    v = _compiled(lambda n: compile_variant(r, {"players": n} if n is not None else {}), players,
                  source, f"the variant stored in the {what} does not load")
    if v.hash != variant_hash:
        raise RecordError(f"{source}: the variant stored in the {what} does not match its hash "
                          f"({variant_hash} != {v.hash}); the {what} was altered")
    return v


def to_record(state: State, players: list | None = None, explicit_deals: bool = False,
              undone: list | None = None) -> dict:
    """The JSON-ready record of ``state``.

    A variant that is not exactly an installed one is stored whole (``variant_text``,
    the merged document) so the record replays anywhere without opening any file.

    :param players: controller of each seat (``human``/``bot``...), informative.
    :param explicit_deals: also store every hand's deal (cards in dealing order).
    :param undone: the actions taken back by undo (see the module docstring), informative.
    """
    v = state.variant
    deals = None
    if explicit_deals or state.deals:
        deals = [[v.deck.name(c) for c in h.deck_order] for h in state.hand_log + [state.hand]]
    variant_file = None
    variant_text = stored_text(v)
    if variant_text is not None:
        files = getattr(v, "files", ()) or ()
        variant_file = Path(files[0]).name if files else None
    return {
        "format": next(f for f, d in FORMATS.items() if d == state.dealing), "variant": v.id, "variant_hash": v.hash, "variant_file": variant_file,
        "variant_text": variant_text, "settings": dict(v.settings),
        "seed": state.seed, "dealer": state.first_dealer, "deals": deals, "names": list(state.names),
        "players": list(players) if players is not None else None, "start": list(state.sheet.start),
        "vulnerable": state.first_vulnerable, "max_hands": state.max_hands,
        "actions": [[s, a] for s, a in state.history],
        "sheet": state.sheet.as_dict(), "result": state.result(),
        **({"chance": [list(e) for e in state.chance]} if state.chance else {}),
        **({"undone": [dict(u) for u in undone]} if undone else {}),
    }


def save_game(path: str | Path, record: dict, played: int | None, exclusive: bool = False) -> None:
    """Save a game's ``record`` (:func:`save`): sealed while the match is in progress (see the
    module docstring), with its key file beside it (created, or the one already there kept); plain
    once it is over (``played`` ``None``), its key file then removed.

    :param played: the actions of the finished hands (plain in the sealed record), or ``None``
        for a finished match.
    :raises FileExistsError, OSError, TypeError, ValueError: as :func:`save` (an ``exclusive``
        save over an existing record changes neither it nor its key file).
    """
    keyfile = sealing.key_path(path)
    if played is None:
        save(path, record, exclusive)
        try:
            keyfile.unlink()
        except FileNotFoundError:
            pass
        return
    if exclusive and os.path.lexists(path):
        raise FileExistsError(f"{path} exists")
    key = sealing.key_for(keyfile, str(path))
    save(path, sealing.seal(record, key, played), exclusive)


def save(path: str | Path, record: dict, exclusive: bool = False) -> None:
    """Write ``record`` to ``path`` atomically (temporary file, fsync, rename).

    A symbolic link at ``path`` is followed: its target is replaced, the link stays.

    :param exclusive: create a new record: fail if ``path`` exists, even if another
        process created it a moment ago (the check and the creation are one step).
    :raises FileExistsError: ``exclusive`` and ``path`` exists (nothing is written).
    :raises OSError: the folder does not exist or cannot be written; ``path`` is then unchanged.
    :raises TypeError, ValueError: ``record`` is not JSON data (nothing is written).
    """
    path = Path(os.path.realpath(path))
    text = json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False)
    mode = _file_mode(path)   # the folder must exist: a mistyped path must not create folders
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)   # made 0600
    try:
        try:
            if mode != PRIVATE:
                os.fchmod(fd, mode)
        except (AttributeError, OSError):  # not on every platform; the file stays private then
            pass
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            sealing.create_new(tmp, path)
        else:
            os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


class RecordInUse(RecordError):
    """Another rulekit process is playing into this record."""


class RecordLock:
    """An exclusive lock on a record for the length of a game (``fcntl.flock`` on
    ``.NAME.lock`` beside it), so two processes never write one record (``None``: a lock
    that holds nothing).

    Taking the lock also removes temporary files a killed save left behind (every
    writer of the record holds this lock, so such files belong to no live save).
    Release it with :meth:`release` (or use it as a context manager); the system
    releases it when the process ends, even on ``kill -9``.

    :raises RecordInUse: another process holds the lock.
    :raises OSError: the lock file cannot be created (e.g. a read-only folder).
    """

    def __init__(self, record_path: str | Path | None):
        self.fd = None
        if record_path is None or not _FLOCK:   # no record (``None``), or no flock on this system
            return
        target = Path(os.path.realpath(record_path))
        self.record = target
        self.path = target.parent / f".{target.name}.lock"
        for _ in range(100):  # another process may remove the lock file between our open and lock
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise RecordInUse(f"{record_path}: the record is in use by another rulekit process "
                                  f"(wait until that game ends, or choose another file)") from None
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self.fd = fd
                break
            os.close(fd)
        else:  # pragma: no cover - only under extreme contention
            raise RecordInUse(f"{record_path}: the record is in use by another rulekit process")
        self._remove_stale_temp_files()

    def _remove_stale_temp_files(self) -> None:
        prefix = f".{self.record.name}."
        try:
            names = [n for n in os.listdir(self.record.parent) if n.startswith(prefix) and n.endswith(".tmp")
                     and len(n) == len(prefix) + 8 + len(".tmp")]     # mkstemp's 8 random characters
        except OSError:
            return
        for n in names:
            try:
                os.unlink(self.record.parent / n)
            except OSError:
                pass

    def release(self) -> None:
        """Give up the lock and remove the lock file (safe: a waiting process re-checks it)."""
        if self.fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()


#: Permissions of a new record or pad (and of every temporary file of a save): the owner's only,
#: since a record in play holds the seed and every hidden card.
PRIVATE = 0o600


def _file_mode(path: Path) -> int:
    """The permissions the record should get: those of the file it replaces (its owner chose them),
    else :data:`PRIVATE`."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return PRIVATE


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


def read_bytes(path: str | Path, limit: int = MAX_RECORD_SIZE) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    A FIFO, a device (``/dev/zero``), a folder or a larger file is refused before it
    is read (the file is opened without blocking and checked before reading).

    :raises RecordError: naming the file and what is wrong.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError:
        raise RecordError(f"{path}: is a folder, not a record file") from None
    except (OSError, ValueError) as e:
        raise RecordError(f"{path}: cannot read the record: {getattr(e, 'strerror', None) or e}") from None
    st = os.fstat(fd)
    problem = ("is a folder, not a record file" if stat.S_ISDIR(st.st_mode) else
               "not a regular file (expected a record file written by rulekit)" if not stat.S_ISREG(st.st_mode)
               else f"the file has {st.st_size} bytes (expected a record of at most {limit})"
               if st.st_size > limit else "")
    if problem:
        os.close(fd)
        raise RecordError(f"{path}: {problem}")
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise RecordError(f"{path}: cannot read the record: {e.strerror or e}") from None
    if len(data) > limit:                       # it grew while we read it
        raise RecordError(f"{path}: the file has more than {limit} bytes (expected a record of at most {limit})")
    return data


def load(path: str | Path) -> dict:
    """Read a record and check its shape (not yet whether it replays: see :func:`replay`).

    :raises RecordError: not a regular file, too large, unreadable, bad JSON, not a
        rulekit record, or a field of the wrong type or length (the message names the
        file and the field).
    """
    raw = read_bytes(path)
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=_bounded_int)
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not a rulekit record (not UTF-8 text: {e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        hint = " (the file is empty)" if not raw.strip() else ""
        raise RecordError(f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}){hint}") from None
    except (ValueError, RecursionError) as e:  # e.g. an integer with too many digits, absurd nesting
        raise RecordError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise RecordError(f"{path}: not a rulekit record (expected \"format\": \"{FORMAT}\", or an older "
                          f"{' or '.join(repr(f) for f in FORMATS if f != FORMAT)})")
    if "sealed" in data:   # a game in progress: its secret part with the key file beside it
        data = sealing.unseal(data, sealing.read_key(sealing.key_path(path), str(path)), str(path))
    problem = shape_problem(data)
    if problem:
        raise RecordError(f"{path}: {problem}")
    return data


def is_record(path: str | Path) -> bool:
    """True when the file at ``path`` is a rulekit record (JSON with a known ``"format"``), of a
    finished game or of one in progress, whether or not it replays; False for any other file
    (a variant file, other JSON, unreadable or too large). Never raises."""
    try:
        data = json.loads(read_bytes(path).decode("utf-8"), parse_int=_bounded_int)
    except (RecordError, OSError, ValueError, RecursionError):   # JSONDecodeError, UnicodeDecodeError are ValueErrors
        return False
    return isinstance(data, dict) and data.get("format") in FORMATS


MAX_SEED = 2 ** 63 - 1   # seeds are 0..MAX_SEED (``play --seed`` takes the same range)


def _bounded_int(text: str) -> int:
    """A JSON integer of at most 40 digits (no number in a record is near it); a longer one is
    refused with its length, before Python's own digit limit speaks of set_int_max_str_digits."""
    digits = len(text.lstrip("-"))
    if digits > 40:
        raise ValueError(f"an integer of {digits} digits; a record's numbers have at most 40")
    return int(text)


def _not_text(value, where: str = "") -> str:
    """Where ``value`` holds a string that is not text (a lone UTF-16 surrogate such as
    JSON ``"\\ud800"``, which cannot be written back as UTF-8), else ``""``."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            return f"{where or 'a text'}: character {e.start + 1} is a lone UTF-16 surrogate " \
                   f"({value[e.start]!r}), which is not text (expected UTF-8 text)"
        return ""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        found = _not_text(k, where) if isinstance(k, str) else ""
        found = found or _not_text(v, f"{where}[{k!r}]" if isinstance(k, int) else f"{where}.{k}".lstrip("."))
        if found:
            return found
    return ""


def _too_long(text: str, key: str, limit: int) -> str:
    return f"{key!r} is {len(text)} characters long (expected at most {limit})" if len(text) > limit else ""


def shape_problem(data: dict) -> str:
    """The first problem with the fields of a record, or ``""`` when its shape is right."""
    for key in ("variant", "seed", "actions"):
        if key not in data:
            return f"the record has no {key!r}"
    if not isinstance(data["variant"], str) or not data["variant"]:
        return "\"variant\" must be a variant id (text)"
    if not _is_int(data["seed"]) or not 0 <= data["seed"] <= MAX_SEED:
        return f"\"seed\" must be an integer from 0 to {MAX_SEED}, not {data['seed']!r}"
    for key in ("variant_hash", "variant_file", "variant_text"):
        if data.get(key) is not None and not isinstance(data[key], str):
            return f"{key!r} must be text"
    problem = _not_text(data)
    if problem:
        return problem
    for key, limit in (("variant", MAX_ID), ("variant_hash", MAX_TEXT), ("variant_file", MAX_TEXT),
                       ("variant_text", MAX_FILE_SIZE)):
        problem = _too_long(data.get(key) or "", key, limit)
        if problem:
            return problem
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
        if v is not None and len(v) > 64:
            return f"{key!r} lists {len(v)} seats (expected at most 64)"
        for i, x in enumerate(v or ()):
            problem = name_problem(x, f"{key}[{i}]")
            if problem:
                return problem
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
        if len(item[1]) > MAX_TEXT:
            return f"action {i} is {len(item[1])} characters long (expected at most {MAX_TEXT})"
    sheet = data.get("sheet")
    if sheet is not None and (not isinstance(sheet, dict) or not isinstance(sheet.get("rows", []), list)):
        return "\"sheet\" must be an object with \"rows\""
    return _undone_problem(data.get("undone"), len(actions))


def _undone_problem(undone, n_actions: int) -> str:
    """The first problem with a record's ``undone`` list (``""``: none, or no list)."""
    if undone is None:
        return ""
    if not isinstance(undone, list):
        return "\"undone\" must be a list of the undos made (objects with by, at, actions)"
    for k, u in enumerate(undone):
        if not (isinstance(u, dict) and _is_int(u.get("by")) and _is_int(u.get("at"))
                and isinstance(u.get("actions"), list)):
            return f"undone[{k}] must be an object with a seat \"by\", an index \"at\" and a list \"actions\""
        if not 0 <= u["at"] <= n_actions:
            return f"undone[{k}].at must be an index of the record's actions, not {u['at']!r}"
        for i, item in enumerate(u["actions"]):
            if not (isinstance(item, list) and len(item) == 2 and _is_int(item[0]) and isinstance(item[1], str)
                    and len(item[1]) <= MAX_TEXT):
                return f"undone[{k}] action {i} is not a [seat, \"action\"] pair: {json.dumps(item)[:60]}"
    return ""


def dealing_of(record: dict) -> int:
    """The dealing scheme of ``record``'s seed: by its ``format`` (a record built in memory
    without one: the current scheme).

    :raises RecordError: a format that is not a rulekit record's."""
    fmt = record.get("format", FORMAT)
    if fmt not in FORMATS:
        raise RecordError(f"not a rulekit record (expected \"format\": \"{FORMAT}\", found {fmt!r})")
    return FORMATS[fmt]


def load_record_variant(record: dict, source: str = "record", folder: str | Path | None = None,
                        variant=None):
    """The compiled variant of ``record``, without opening any path the record names.

    In order: ``variant`` when the caller gives one (a file the user named); the
    ``variant_text`` stored in the record; the file named ``variant_file`` (its name
    only) in ``folder``, the record's own folder; the installed variant ``variant``.

    :param source: names the record in messages.
    :param folder: the folder of the record file (``None``: no file beside it is read).
    :raises RecordError: the variant cannot be loaded, or it is not the one the record
        was made with (its hash differs).
    """
    settings = record.get("settings") or {}
    players = settings.get("players")
    vid = record["variant"]
    if variant is not None:
        v = variant
    elif record.get("variant_text"):
        v = embedded_variant(record["variant_text"], record.get("variant_hash"), players, source)
    else:
        v = _variant_beside(record, folder, players, source)
        if v is None:
            if vid not in builtin_ids():
                raise RecordError(f"{source}: variant {vid!r} cannot be loaded: it is not installed "
                                  f"(installed: {', '.join(builtin_ids())}) and the record does not "
                                  f"carry its text")
            v = _compiled(lambda n: load_variant(vid, players=n), players, source,
                          f"variant {vid!r} cannot be loaded")
    if record.get("variant_hash") and record["variant_hash"] != v.hash:
        raise RecordError(f"{source}: the variant {v.id!r} has changed since this record was made "
                          f"(hash {record['variant_hash']} != {v.hash}); it cannot be replayed exactly")
    return v


def _variant_beside(record: dict, folder, players, source: str):
    """The variant of an older record from the file of its ``variant_file``'s *name* in the
    record's folder (a ``.yaml`` regular file), or ``None`` when there is none."""
    name = Path(record.get("variant_file") or "").name
    if folder is None or not name.endswith((".yaml", ".yml")):
        return None
    f = Path(folder) / name
    try:
        if not stat.S_ISREG(os.stat(f).st_mode):
            return None
    except (OSError, ValueError):
        return None
    return _compiled(lambda n: load_variant(str(f), players=n), players, source, f"variant file {f} cannot be loaded")


def _or_list(items: list) -> str:
    words = [str(x) for x in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _compiled(load, players, source: str, failed: str):
    """``load(players)``, the variant of a record for its ``settings.players``.

    :raises RecordError: ``failed`` and the first problem; when the variant loads with its own
        player count but ``players`` is none of its choices, the record's field is named.
    """
    try:
        return load(players)
    except RulekitError as e:
        problem = str(e).splitlines()[0]
    if players is not None:
        try:
            choices = load(None).player_choices
        except RulekitError:
            choices = [players]
        if players not in choices:
            raise RecordError(f"{source}: \"settings\": {{\"players\": {players}}} is not a number of players "
                              f"the variant offers (expected {_or_list(choices)})")
    raise RecordError(f"{source}: {failed}: {problem}")


def replay(record: dict, upto: int | None = None, source: str = "record", folder: str | Path | None = None,
           variant=None) -> State:
    """Rebuild the state of a record by re-applying its actions.

    :param upto: apply only the first ``upto`` actions.
    :param folder, variant: where the variant comes from (:func:`load_record_variant`).
    :raises RecordError: unknown variant, changed variant file, a malformed
        record, or an action that does not replay (with its index).
    """
    problem = shape_problem(record) if isinstance(record, dict) else "not a record"
    if problem:
        raise RecordError(f"{source}: {problem}")
    v = load_record_variant(record, source, folder, variant)
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
                      names=names, vulnerable=vul, max_hands=max_hands, dealing=dealing_of(record))
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
        except ActionError as e:   # the engine's words speak to the player at the prompt ("you ...")
            who = state.names[seat]
            raise RecordError(f"{source}: action {i} ({text} by {who}, seat {seat}) does not replay: "
                              f"{who} would be told \"{e}\"") from None
        except Exception as e:  # noqa: BLE001 - an engine failure on odd input is still a bad record
            raise RecordError(f"{source}: action {i} ({text}) does not replay "
                              f"({type(e).__name__}: {e})") from None
    return state


# Words the engine writes about a hand or a match's end (a row's note, the end's reason): a
# replay writes them anew, so a record saved by a version that worded them differently still
# loads (what a record's numbers say is checked; its wording is not data).
WORDS = ("note", "reason")


def sheet_mismatch(record: dict, state: State) -> str:
    """``""`` when everything the record stores that the replay recomputes (the sheet: its
    columns, start scores, rows with their entries, totals and trick winners; the result:
    totals, winners...) equals the replay, else what differs, naming the field and both
    values; the words of :data:`WORDS` are not compared. A finished game's record must have its
    sheet and result; a game in progress may omit them."""
    mine = json.loads(json.dumps({"sheet": state.sheet.as_dict(), "result": state.result()}))
    record = json.loads(json.dumps({k: record.get(k) for k in ("sheet", "result") if k in record}))
    for block in (record.get("sheet"), mine["sheet"]):
        for row in (block or {}).get("rows") or ():
            if isinstance(row, dict):
                for w in WORDS:
                    row.pop(w, None)
    for block in (record.get("result"), mine["result"]):
        if isinstance(block, dict):
            for w in WORDS:
                block.pop(w, None)
    for block in ("sheet", "result"):
        if block not in record or record[block] is None:
            if state.is_over:
                return f"the record of a finished game has no {block}"
            continue
        problem = first_difference(record[block], mine[block], block)
        if problem:
            return problem
    return ""


def first_difference(stored, replayed, where: str) -> str:
    """The first field where ``stored`` differs from ``replayed`` (JSON values), named by its
    path (``sheet.rows[3].note``, hand numbers counted from 1 in the words), or ``""``."""
    if isinstance(replayed, dict):
        if not isinstance(stored, dict):
            return f"{where}: stored {_short(stored)}, replayed an object"
        for key in list(replayed) + [k for k in stored if k not in replayed]:
            if key not in stored:
                return f"{where}.{key} is missing (replayed {_short(replayed[key])})"
            if key not in replayed:
                return f"{where}.{key} is stored but not replayed (stored {_short(stored[key])})"
            problem = first_difference(stored[key], replayed[key], f"{where}.{key}")
            if problem:
                return problem
        return ""
    if where.endswith(".rows") and isinstance(replayed, list):
        if not isinstance(stored, list):
            return "the stored sheet has no list of rows"
        if len(stored) != len(replayed):
            return f"the stored sheet has {len(stored)} rows, the replay {len(replayed)}"
        for a, b in zip(stored, replayed):
            if not isinstance(a, dict):
                return f"hand {b['hand'] + 1}: the stored row is not an object"
            for key in list(b) + [k for k in a if k not in b]:
                if a.get(key) != b.get(key):
                    return (f"hand {b['hand'] + 1} differs in its {key}: stored {_short(a.get(key))}, "
                            f"replayed {_short(b.get(key))}")
        return ""
    if stored == replayed:
        return ""
    if where == "sheet.start":
        return f"start scores: the stored sheet starts at {_short(stored)}, the replay at {_short(replayed)}"
    return f"{where.replace('result.winners', 'winners')}: stored {_short(stored)}, replayed {_short(replayed)}"


def _short(value) -> str:
    """``value`` as JSON, at most 80 characters (a record's text is quoted in a message)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def verify(record: dict, state: State, source: str = "record") -> None:
    """Refuse a record whose stored sheet disagrees with its replay (a tampered record).

    ``rulekit replay`` and ``rulekit play --resume`` both call this, so they accept the same records.

    :raises RecordError: ``SOURCE: the replayed sheet differs from the sheet stored in the
        record (WHAT)``.
    """
    problem = sheet_mismatch(record, state)
    if problem:
        raise RecordError(f"{source}: the replayed sheet differs from the sheet stored in the record ({problem})")
