"""The scorepads of ``rulekit serve``: ``rulekit score``'s pad (:class:`~rulekit.sheets.scorepad.ScorePad`)
behind a secret link, for a table that plays with real cards.

The page asks the pad's questions one after the other (each answer checked by the pad, a refusal
shown with its reason), takes back the last answer or the last hand (undo), stops the match,
and exports the sheet.  A pad is saved atomically after every finished hand, as ``rulekit score
--file`` saves it (the same pad data, in ``<folder>/pads/<id>.json``), and loaded again when the
server starts; as at the terminal, the answers of a hand not finished are not saved.
"""
from __future__ import annotations

import hmac
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from rulekit import records
from rulekit.errors import RulekitError
from rulekit.sheets import padfile
from rulekit.sheets.scorepad import FactError, ScorePad

#: what a pad file of the server says it is
PAD_FORMAT = "rulekit-web-pad-1"
_ID = re.compile(r"^[A-Za-z0-9_-]{6,64}$")


@dataclass
class Pad:
    """One scorepad at the server.

    :ivar facts: the answers of the hand being entered; ``answered`` the facts before each (undo).
    """

    id: str
    token: str
    pad: ScorePad
    facts: dict = field(default_factory=dict)
    answered: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def answer(self, text: str) -> None:
        """Answer the question asked now.

        :raises FactError: the pad refuses the answer (the reason), or the match is over.
        """
        q = None if self.pad.is_over else self.pad.next_question(self.facts)
        if q is None:
            raise FactError("the match is over: undo the last hand to change it")
        before = dict(self.facts)
        self.pad.answer(q, text, self.facts)
        self.answered.append((q.prompt, text.strip(), before))
        if self.pad.next_question(self.facts) is None:    # the hand is complete
            self.pad.add(self.facts)
            self.facts, self.answered = {}, []

    def undo(self) -> str:
        """Take back the last answer of this hand, else the last hand (or the stop); what was undone.

        :raises FactError: nothing to undo.
        """
        if self.answered:
            self.facts = self.answered.pop()[2]
            return "the last answer"
        last = self.pad.undo()
        return "the stop" if last.get("stop") else "the last hand"

    def stop(self) -> None:
        """End the match now (the best total wins)."""
        self.pad.stop()
        self.facts, self.answered = {}, []


class Pads:
    """The scorepads of one server, in ``folder`` (one file each).

    :param max_pads: the most pads at once.
    """

    def __init__(self, folder: Path, max_pads: int = 100):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.max_pads = max_pads
        self.pads: dict[str, Pad] = {}
        self.lock = threading.Lock()
        self.problems: list[str] = []

    def load(self) -> None:
        """Read every pad file of the folder (one that does not load is reported in :attr:`problems`)."""
        for p in sorted(self.folder.glob("*.json")):
            try:
                d = json.loads(records.read_bytes(p).decode("utf-8"))
                if not isinstance(d, dict) or d.get("format") != PAD_FORMAT or not _ID.match(str(d.get("id"))):
                    raise FactError("not a rulekit pad file of the server")
                data = d["pad"]
                v = padfile.variant_of(data, str(p))   # never a path the file names
                self.pads[d["id"]] = Pad(d["id"], str(d["token"]), ScorePad.from_dict(v, data, str(p)))
            except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError, RulekitError) as e:
                self.problems.append(f"{p}: {e}")

    def create(self, variant, dealer: str | None = None) -> Pad:
        """A new pad of ``variant``; ``dealer`` the first dealer's seat name or number.

        :raises FactError: too many pads, or no such seat.
        """
        pad = ScorePad(variant)
        if dealer:
            pad = ScorePad(variant, first_dealer=pad.seat(dealer))
        with self.lock:
            if len(self.pads) >= self.max_pads:
                raise FactError(f"this server holds {self.max_pads} scorepads already; try again later")
            p = Pad(secrets.token_urlsafe(9), secrets.token_urlsafe(18), pad)
            self.pads[p.id] = p
        self.save(p, new=True)
        return p

    def get(self, pid: str, token: str) -> Pad:
        """The pad ``pid`` if ``token`` is its secret (compared in constant time).

        :raises FactError: no such pad.
        """
        p = self.pads.get(pid) if _ID.match(pid) else None
        if p is None or not hmac.compare_digest(p.token.encode(), token.encode()):
            raise FactError("no such scorepad (the link may be mistyped)")
        return p

    def save(self, p: Pad, new: bool = False) -> None:
        """Write ``p``'s finished hands atomically (:func:`rulekit.records.save`)."""
        records.save(self.folder / f"{p.id}.json", {"format": PAD_FORMAT, "id": p.id, "token": p.token,
                                                   "pad": p.pad.as_dict()}, exclusive=new)
