"""The tables of ``rulekit serve``: matches with a secret link per human seat, bots in the others,
each saved atomically after every action and loaded again when the server starts.

A table file (``<folder>/<id>.json``, written by :func:`rulekit.records.save` as ``rulekit play
--save`` writes its record) holds the match record (:func:`rulekit.records.to_record`), the seat
tokens and the bots' seed; the match is rebuilt from it by :func:`rulekit.records.replay`.  The
files stay on the server: a browser never receives a record before the match is over, nor any
token but its own seat's.  While the match is in progress its record is sealed as ``rulekit play
--save`` seals one (:mod:`rulekit.sealing`: the seed, the deals and the hand in progress
encrypted, the key in ``<id>.json.key`` beside it, readable by the server's user only), so the
file's text shows no hidden card.
"""
from __future__ import annotations

import hmac
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from rulekit import records, sealing
from rulekit.bots import make_bot
from rulekit.cli.render import player_names
from rulekit.engine import State
from rulekit.errors import RulekitError

#: what a table file says it is
TABLE_FORMAT = "rulekit-table-1"
#: the controllers a seat may have
CONTROLLERS = ("human", "bot", "random")
#: the most actions the bots play in one go before the server answers (a whole match of bots
#: is played out in several requests, never in one)
MAX_BOT_STEPS = 5000
_ID = re.compile(r"^[A-Za-z0-9_-]{6,64}$")


class TableError(RulekitError):
    """A table that cannot be made or found (the message says why, for the page)."""


@dataclass
class Table:
    """One match at the server.

    :ivar id: the table's public name (in every seat's link).
    :ivar state: the match.
    :ivar controllers: ``human``/``bot``/``random`` per seat.
    :ivar tokens: per seat, the secret of its link (``None`` for a bot's seat).
    :ivar host: the secret of the page that lists the seats' links.
    :ivar bot_seed: seeds the bots before each decision (with the seat and the action index).
    :ivar version: grows with every action (pages poll it).
    """

    id: str
    state: State
    controllers: list
    tokens: list
    host: str
    bot_seed: int
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token`` (compared in constant time), or ``None``."""
        found = None
        for s, t in enumerate(self.tokens):
            if t is not None and hmac.compare_digest(t.encode(), token.encode()):
                found = s
        return found

    def is_host(self, token: str) -> bool:
        """True when ``token`` is the host's secret (compared in constant time)."""
        return hmac.compare_digest(self.host.encode(), token.encode())

    def decider(self) -> int:
        """The seat that decides now (the declarer for his dummy), -1 when the match is over."""
        st = self.state
        return st.controller(st.to_move) if st.to_move >= 0 and not st.is_over else -1

    def run_bots(self) -> None:
        """Let chance and the bots act until a human decides or the match ends (at most
        :data:`MAX_BOT_STEPS` actions)."""
        st = self.state
        for _ in range(MAX_BOT_STEPS):
            if st.is_over or st.to_move < 0:
                return
            kind = st.kind
            seat = st.controller(st.to_move)
            if kind is not None and kind.role == "chance":
                st.apply(st.legal_actions()[0])
            elif self.controllers[seat] == "human":
                return
            else:
                bot = make_bot(self.controllers[seat], seed=0)
                bot.rng.seed(f"rulekit-bot:{self.bot_seed}:{seat}:{st.actions_taken}")
                st.apply(bot.act(st.observation(seat)))
            self.version += 1

    def data(self) -> dict:
        """The table file's contents."""
        return {"format": TABLE_FORMAT, "id": self.id, "tokens": self.tokens, "host": self.host,
                "bot_seed": self.bot_seed, "version": self.version,
                "record": records.to_record(self.state, self.controllers)}


class Tables:
    """The tables of one server, kept in ``folder`` (one file each).

    :param folder: where table files are written and read back (created if missing).
    :param max_tables: the most tables at once; a new one beyond it is refused.
    """

    def __init__(self, folder: Path, max_tables: int = 100):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        self.problems: list[str] = []

    def load(self) -> None:
        """Read every table file of the folder (a file that does not load is reported in
        :attr:`problems` and left as it is)."""
        for p in sorted(self.folder.glob("*.json")):
            try:
                d = json.loads(records.read_bytes(p).decode("utf-8"))
                if not isinstance(d, dict) or d.get("format") != TABLE_FORMAT or not _ID.match(str(d.get("id"))):
                    raise TableError("not a rulekit table file")
                rec = d["record"]
                if isinstance(rec, dict) and "sealed" in rec:   # a match in progress
                    rec = sealing.unseal(rec, sealing.read_key(sealing.key_path(p), str(p)), str(p))
                state = records.replay(rec, source=str(p))
                t = Table(d["id"], state, list(rec["players"]), list(d["tokens"]), str(d["host"]),
                          int(d["bot_seed"]), int(d.get("version", 0)))
                if len(t.controllers) != state.variant.players or len(t.tokens) != state.variant.players:
                    raise TableError("its seats do not match its variant")
                self.tables[t.id] = t
            except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError, RulekitError) as e:
                self.problems.append(f"{p}: {e}")

    def create(self, variant, controllers: list, seed: int | None = None) -> Table:
        """A new table of ``variant`` with ``controllers`` (one per seat), saved, the bots having
        played until a human's turn.

        :raises TableError: too many tables, a wrong number of seats, no human seat or an unknown
            controller (a bot file, ``bot:PATH``, among them: docs/web.md says why the web table
            offers none).
        """
        if len(controllers) != variant.players:
            raise TableError(f"{variant.name} is played by {variant.players} players, not {len(controllers)}")
        if "human" not in controllers:
            raise TableError("a table needs at least one human seat")
        bad = [c for c in controllers if c not in CONTROLLERS]
        if bad and str(bad[0]).lower().startswith("bot:"):
            raise TableError(f"{str(bad[0])[:80]!r}: a bot file plays only at the terminal (rulekit play "
                             f"--players bot:PATH); expected {', '.join(CONTROLLERS)}")
        if bad:
            raise TableError(f"unknown player {bad[0]!r} (expected {', '.join(CONTROLLERS)})")
        names = player_names(controllers, variant)
        seed = secrets.randbits(31) if seed is None else seed
        with self.lock:
            if len(self.tables) >= self.max_tables:
                raise TableError(f"this server holds {self.max_tables} tables already; try again later")
            tid = secrets.token_urlsafe(9)
            t = Table(tid, State(variant, seed=seed, names=names), list(controllers),
                      [secrets.token_urlsafe(18) if c == "human" else None for c in controllers],
                      secrets.token_urlsafe(18), secrets.randbits(31))
            self.tables[tid] = t
        with t.lock:
            t.run_bots()
            self.save(t, new=True)
        return t

    def get(self, tid: str) -> Table:
        """The table ``tid``.

        :raises TableError: no such table.
        """
        t = self.tables.get(tid) if _ID.match(tid) else None
        if t is None:
            raise TableError("no such table (the link may be mistyped)")
        return t

    def path(self, t: Table) -> Path:
        """The file of table ``t``."""
        return self.folder / f"{t.id}.json"

    def save(self, t: Table, new: bool = False) -> None:
        """Write ``t`` atomically (:func:`rulekit.records.save`), its record sealed while the
        match is in progress (its key file created once, then kept); ``new``: its file is created
        and must not exist."""
        path = self.path(t)
        data = t.data()
        keyfile = sealing.key_path(path)
        if t.state.is_over:
            records.save(path, data, exclusive=new)
            keyfile.unlink(missing_ok=True)
            return
        if new and path.exists():
            raise FileExistsError(f"{path} exists")
        key = sealing.key_for(keyfile, str(path))
        data["record"] = sealing.seal(data["record"], key, len(t.state.record.codes))
        records.save(path, data, exclusive=new)

    def act(self, t: Table, seat: int, text: str) -> None:
        """``seat`` takes the action ``text``; then chance and the bots act; the table is saved.

        :raises RulekitError: the action is no action, or the engine refuses it (the message
            gives the rule), or it is not ``seat``'s turn.
        """
        with t.lock:
            st = t.state
            if st.is_over:
                raise TableError("the match is over")
            if t.decider() != seat:
                who = st.names[st.to_move] if st.to_move >= 0 else "nobody"
                raise TableError(f"it is not your turn ({who} to move)")
            action = st.parse_action(text)
            st.check(action)
            before = st.actions_taken
            st.apply(action)
            t.version += 1
            try:
                t.run_bots()
            finally:
                if st.actions_taken != before:
                    self.save(t)
