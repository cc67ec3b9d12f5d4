"""Bots in a process of their own: a third-party bot file sees only serialised observations.

A bot that runs in the player's process can reach the real :class:`~rulekit.engine.State`
through stack frames or the garbage collector, so it cannot be trusted at a table.  A
:class:`ProcessBot` runs the bot file in a child Python process (isolated mode, ``-I``) that
receives, for each decision, only :func:`plain_observation` (JSON: numbers, texts, lists and
mappings, no object of rulekit) and answers with one legal action's text.

The bot file (``--players bot:PATH``) is a Python file that defines either a function
``choose(observation: dict) -> str | int`` or a class ``Bot`` (built once with no arguments) with a
method ``choose(self, observation: dict) -> str | int``.  ``observation`` is the dictionary of
:func:`plain_observation`; the answer is one of ``observation["legal"]`` (an action's text) or its
index in that list.  What the bot prints goes nowhere (its standard output carries the protocol).

Each decision has a time limit (:data:`TIME_LIMIT` seconds, :class:`ProcessBot`'s
``time_limit``).  A bot that overruns it, crashes, cannot be loaded, or answers something that is
not a legal action is stopped (its process killed), the reason is said once through ``warn``, and
its seat is played by a :class:`~rulekit.bots.base.RandomBot` for the rest of the game (a
fallback, not a forfeit: the game always ends).
"""
from __future__ import annotations

import dataclasses
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from rulekit.bots.base import Bot, RandomBot

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.actions import Action
    from rulekit.engine.observation import Observation

#: Seconds a bot may take for one decision (and to load, before its first one).
TIME_LIMIT = 10.0
#: Longest answer line read from a bot (bytes): an action's text is far shorter.
MAX_ANSWER = 1 << 16
#: Fields of an :class:`~rulekit.engine.observation.Observation` that are not data of the seat's
#: view (the compiled variant with its closures, the engine's cache): never serialised.
NOT_DATA = ("variant", "phase_spec", "_view", "legal")


def plain(x: Any) -> Any:
    """``x`` as JSON data: tuples and sets as lists (a set sorted), dataclasses as mappings of
    their fields, mapping keys as texts.

    :raises TypeError: a value that is not plain data (an object with behaviour).
    """
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, (list, tuple)):
        return [plain(y) for y in x]
    if isinstance(x, (set, frozenset)):
        return sorted(plain(y) for y in x)
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    raise TypeError(f"{type(x).__name__} is not plain data")


def plain_observation(obs: Observation) -> dict:
    """What a seat sees now as plain JSON data: every data field of ``obs`` (card sets as
    bitmasks over the deck's cards), ``legal`` as the legal actions' texts, ``cards`` the deck's
    card names by index (bit ``i`` of a mask is ``cards[i]``) and ``variant`` its public facts
    (id, players, seat names).  Nothing of the compiled variant's code, nothing of the state.
    """
    out = {f.name: plain(getattr(obs, f.name)) for f in dataclasses.fields(obs) if f.name not in NOT_DATA}
    out["legal"] = [a.text for a in obs.legal]
    v = obs.variant
    if v is not None:
        out["cards"] = [v.deck.name(c) for c in range(v.deck.size)]
        out["variant"] = {"id": v.id, "players": v.players, "seat_names": list(v.seat_names)}
    return out


# The child's program: loads the bot file, then answers one JSON line per JSON line.  It imports
# no rulekit module (the bot may, but no state of the game exists in that process).
_CHILD = r"""
import json, os, runpy, sys, traceback
proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)                      # the bot's prints go where its errors go, never to the protocol
sys.stdout = sys.stderr
def send(x):
    proto.write(json.dumps(x) + "\n"); proto.flush()
try:
    ns = runpy.run_path(sys.argv[1], run_name="rulekit_bot")
    if callable(ns.get("Bot")):
        choose = ns["Bot"]().choose
    elif callable(ns.get("choose")):
        choose = ns["choose"]
    else:
        raise LookupError("the file defines neither a function choose(observation) nor a class Bot")
except BaseException as e:
    send({"error": "cannot load: " + "".join(traceback.format_exception_only(type(e), e)).strip()})
    sys.exit(1)
send({"ready": True})
for line in sys.stdin:
    try:
        answer = choose(json.loads(line))
        send({"action": answer if isinstance(answer, (int, str)) and not isinstance(answer, bool) else repr(answer)})
    except BaseException as e:
        send({"error": "".join(traceback.format_exception_only(type(e), e)).strip()})
        sys.exit(1)
"""


class BotProcessError(Exception):
    """A bot process overran its time, crashed, or answered badly; the message says which."""


class ProcessBot(Bot):
    """A bot file run in a child process (see the module docstring for the file's signature).

    :param path: the bot's Python file.
    :param seed: seeds the fallback :class:`RandomBot` (the child gets no seed: it has its own).
    :param time_limit: seconds per decision (and for loading).
    :param warn: called once with a message when the bot is stopped (default: standard error).
    :raises FileNotFoundError: ``path`` is not a file.
    """

    name = "process"

    def __init__(self, path: str | Path, seed: int = 0, time_limit: float = TIME_LIMIT,
                 warn: Callable[[str], None] | None = None):
        super().__init__(seed)
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"{self.path}: no such bot file")
        self.time_limit = time_limit
        self.warn = warn or (lambda msg: print(msg, file=sys.stderr))
        self.fallback = RandomBot(seed)
        self.stopped = ""           # why the bot was stopped ("" while it plays)
        self.proc: subprocess.Popen | None = None
        self._buffer = b""

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-I", "-c", _CHILD, str(self.path)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=str(self.path.parent))
        answer = self._read()
        if answer.get("ready") is not True:
            raise BotProcessError(str(answer.get("error", "did not start")))

    def _read(self) -> dict:
        """The next JSON line of the child within the time limit."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        end = time.monotonic() + self.time_limit
        while b"\n" not in self._buffer:
            left = end - time.monotonic()
            if left <= 0:
                raise BotProcessError(f"took more than {self.time_limit:g} s for one decision")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                raise BotProcessError(f"its process ended (exit code {self.proc.wait()})")
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER:
                raise BotProcessError(f"answered more than {MAX_ANSWER} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            data = json.loads(line)
        except ValueError:
            raise BotProcessError("answered something that is not a JSON line") from None
        if not isinstance(data, dict):
            raise BotProcessError("answered something that is not a JSON object")
        return data

    def act(self, obs: Observation) -> Action:
        """The bot's answer to ``obs`` (one of ``obs.legal``), or the fallback's once it is stopped."""
        if self.stopped:
            return self.fallback.act(obs)
        try:
            if self.proc is None:
                self._start()
            assert self.proc is not None and self.proc.stdin is not None
            try:
                self.proc.stdin.write(json.dumps(plain_observation(obs)).encode() + b"\n")
                self.proc.stdin.flush()
            except OSError:
                raise BotProcessError(f"its process ended (exit code {self.proc.wait()})") from None
            answer = self._read()
            if "error" in answer:
                raise BotProcessError(f"raised {answer['error']}")
            return self._legal(obs, answer.get("action"))
        except BotProcessError as e:
            self._stop(str(e))
            return self.fallback.act(obs)

    def _legal(self, obs: Observation, answer) -> Action:
        texts = [a.text for a in obs.legal]
        if isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(texts):
            return obs.legal[answer]
        if isinstance(answer, str) and answer in texts:
            return obs.legal[texts.index(answer)]
        shown = repr(answer)
        raise BotProcessError(f"answered {shown[:60]}, which is not a legal action "
                              f"(expected one of observation['legal'] or its index)")

    def _stop(self, why: str) -> None:
        self.stopped = why
        self.close()
        self.warn(f"bot {self.path.name}: {why}; a random bot plays its seat from now on")

    def close(self) -> None:
        """Stop the child process (also done when the bot is stopped, and at exit)."""
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    if f is not None:
                        f.close()
                except OSError:
                    pass
            self.proc = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


__all__ = ["BotProcessError", "ProcessBot", "TIME_LIMIT", "plain", "plain_observation"]
