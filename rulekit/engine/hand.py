"""The data of one hand in progress (plain fields, no rules).

Phase modules read and change a :class:`Hand`; :class:`~rulekit.engine.state.State`
strings hands into a match.  Card sets are int bitmasks.

What a hand keeps as its own slots is what several layers read by contract: the cards
(hands, zones, dealt, discards, out: the kinds, observations, scoring, records, the terminal),
the auction's outcome (calls, high, contract, declarer, doubled, partner: the auctions, scoring,
the bots, records and PBN), the trick play (trick, tricks, won, failed... : the tricks kind, the
fast playout loops of the engine and the bots, observations), the trump context (trump, ctx),
what is face up (turned, dummy, open_after: the kinds set them, observations show them), the
scoring's results (entries, parts, void, written) and the match's totals when it was dealt
(totals: the formula variable ``total``, for scoring, the bots and the scorepad).  Everything else a kind keeps for itself is
its own :class:`KindData` object in :attr:`Hand.phase_state`, read back through the kind
(:meth:`~rulekit.engine.phases.base.PhaseKind.data`), so no other layer depends on its layout.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from rulekit.contracts import Bid

if TYPE_CHECKING:  # pragma: no cover - for annotations only (rulekit.TYPE_ONLY)
    from rulekit.variant.model import Context

K = TypeVar("K", bound="KindData")


class KindData:
    """Base of a phase kind's own changing data for one hand.

    Each kind that keeps data defines a small dataclass deriving from this one in its own
    module, creates it in its ``start`` and keeps it in ``hand.phase_state[kind name]``; it reads
    it back with :meth:`PhaseKind.data <rulekit.engine.phases.base.PhaseKind.data>` (others, for a
    hand of any state, with ``data_of``).  :meth:`clone` copies the object and each list, dict
    or set it holds (one level: what those hold is replaced, never changed in place).
    """

    def clone(self: K) -> K:
        """An independent copy (see the class docstring)."""
        new = object.__new__(self.__class__)
        d = new.__dict__
        for k, v in self.__dict__.items():
            d[k] = v.copy() if v.__class__ in _MUTABLE else v
        return new


@dataclass(frozen=True)
class Written:
    """What the end of a hand wrote on the sheet besides its entries (read back by
    :func:`~rulekit.engine.scoring.hand_result`).

    :ivar against: entries written against another column, ``{column, target, value, part}``.
    :ivar marks: marker events (``{marker, column, state}``).
    :ivar note: the row's note when the hand was not scored (``passed out``), else ``""``.
    """

    against: tuple = ()
    marks: tuple = ()
    note: str = ""


class Hand:
    """One deal from shuffle to score.

    :ivar number: 0-based index of the hand in the match.
    :ivar dealer: seat of the dealer; ``eldest`` is the next seat after him in the direction
        of play (``step``: 1 clockwise, his left; -1 counter-clockwise, his right).
    :ivar deck_order: the cards in dealing order (list of card indices).
    :ivar hands: seat -> bitmask of cards held.
    :ivar zones: zone name (``widow``) -> bitmask of its cards.
    :ivar zone_up: zone name -> whether it lies face up.
    :ivar phase: index in ``variant.phases`` of the current phase.
    :ivar to_move: seat to act, or -1 when the hand is over.
    :ivar calls: auction calls as ``(seat, text)``.
    :ivar high: the highest :class:`~rulekit.contracts.Bid` so far (or None);
        ``high_seat`` its bidder.
    :ivar contract: the winning bid (None when all passed); ``declarer`` its seat or -1.
    :ivar trump: ``"S"``.. or ``"NT"``: the context of play; ``ctx`` its tables (``None`` until
        trumps are first set: the deal and the auction run without).
    :ivar discards: bitmask of the declarer's discards (seen by him only).
    :ivar out: seat -> bitmask of his cards laid face down out of play that no other seat
        sees: a partner's who sits the hand out, a discard of a player who is not the declarer.
    :ivar trick: ``(seat, card)`` pairs of the trick in progress; ``leader`` its leader;
        ``led_group`` the group to follow; ``named`` the suit named by a led top card.
    :ivar tricks: completed tricks as ``(leader, [(seat, card), ...], winner, named)``; once the
        hand is finished and kept in ``State.hand_log``, a read-only :class:`PlayedTricks` with
        the same items (plays as tuples), and ``deck_order`` bytes.
    :ivar won: seat -> tricks won; ``won_cards`` seat -> bitmask of cards in them.
    :ivar failed: seat -> bitmask of groups he failed to follow ([T4]).
    :ivar entries: score entries of each column once scored; ``void`` when voided;
        ``parts`` the entries split by part (``above``/``below``...) for side scoring.
    :ivar actions: the hand's actions other than card plays, as ``(seat, text)``.
    :ivar choices: every decision of the hand so far as its choice number, in order (the
        match's record, :mod:`rulekit.engine.record`).
    :ivar doubled: 0, 1 (doubled) or 2 (redoubled).
    :ivar turned: the turned-up trump card (or -1); ``turned_visible`` while it lies face up.
    :ivar dummy: the dummy's seat once play starts (or -1); exposed after the opening lead.
    :ivar partner: the declarer's partner for this hand only (a called partner), or -1;
        the other seats are the defenders (roles: :meth:`~rulekit.engine.state.State.role`).
    :ivar open_after: per seat, the number of finished tricks after which his hand lies face
        up for everyone (0: before the first lead, 1: after the first trick), or -1 (closed).
    :ivar phase_state: phase kind name -> that kind's own data for this hand (a
        :class:`KindData`, set by its ``start``; read through the kind).
    :ivar skips: names of later phases skipped this hand (``Table.skip_phases``).
    :ivar totals: the sheet's running totals per score column when the hand was dealt (a
        tuple; the formula variable ``total``).
    :ivar written: what the end of the hand wrote on the sheet besides its entries, or ``None``.
    :ivar extra_points: seat -> card points moved to him apart from the cards he won (a kept
        card's exchange: its owner's side gives a low card's worth to the trick's winner), or
        ``None`` while nothing was moved.
    """

    __slots__ = ("number", "dealer", "eldest", "deck_order", "hands", "zones", "zone_up", "phase",
                 "to_move", "calls", "high", "high_seat", "contract", "declarer", "trump",
                 "ctx", "discards", "trick", "leader", "led_group", "named", "tricks", "won",
                 "won_cards", "failed", "entries", "void", "dealt", "trick_winners", "actions",
                 "doubled", "turned", "dummy", "players", "phase_state", "parts", "vulnerable",
                 "partner", "open_after", "out", "skips", "written", "extra_points",
                 "choices", "totals")

    def __init__(self, number: int, dealer: int, players: int, step: int = 1):
        self.number = number
        self.dealer = dealer
        self.eldest = (dealer + step) % players
        self.players = players
        self.deck_order: list = []
        self.hands = [0] * players
        self.dealt = [0] * players
        self.zones: dict = {}
        self.zone_up: dict = {}
        self.phase = 0
        self.to_move = -1
        self.calls: list = []
        self.high: Bid | None = None
        self.high_seat = -1
        self.contract: Bid | None = None
        self.declarer = -1
        self.trump = "NT"
        # (None only before the hand's trumps are first set: the phases reading the tables run later)
        self.ctx: Context = None  # type: ignore[assignment]
        self.discards = 0
        self.trick: list = []
        self.leader = -1
        self.led_group = -1
        self.named = ""
        self.tricks: list = []
        self.trick_winners: list = []
        self.won = [0] * players
        self.won_cards = [0] * players
        self.failed = [0] * players
        self.entries: list | None = None
        self.void = False
        self.actions: list = []
        self.choices: list = []
        self.doubled = 0
        self.turned = -1
        self.dummy = -1
        self.phase_state: dict[str, KindData] = {}
        self.parts: dict | None = None
        self.vulnerable = [False] * players
        self.partner = -1
        self.open_after: list = [-1] * players
        self.out = [0] * players
        self.skips: frozenset[str] = frozenset()
        self.written: Written | None = None
        self.extra_points: list | None = None
        self.totals: tuple = ()

    @property
    def turned_visible(self) -> bool:
        """The turned-up trump card still lies face up: the dealer has not yet played
        to the first trick (rules/whist.md [K1])."""
        if self.turned < 0 or self.tricks:
            return False
        return all(s != self.dealer for s, _c in self.trick)

    def clone(self) -> "Hand":
        """A copy that can be changed without touching this one."""
        return _clone(self)


class PlayedTricks(Sequence):
    """The completed tricks of a finished hand, kept compactly in bytes (a long match keeps
    every hand; issue 10).  Reads as the list it replaces: ``(leader, ((seat, card), ...),
    winner, named)`` per trick, indexable, sliceable, iterable; read-only.

    :param tricks: the hand's tricks; every seat and card index must be below 256.
    """

    __slots__ = ("_data", "_named")

    def __init__(self, tricks):
        data = bytearray()
        add = data.append   # appending ints one by one: the cheapest build in CPython
        named = []
        for leader, plays, winner, name in tricks:
            add(leader)
            add(winner)
            add(len(plays))
            for seat, card in plays:
                add(seat)
                add(card)
            named.append(name)
        self._data = bytes(data)
        self._named = tuple(named) if any(named) else len(named)

    @classmethod
    def of(cls, data, named) -> "PlayedTricks":
        """The tricks already in this class's layout: ``data`` holds, per trick, the leader, the
        winner, the number of cards and each ``(seat, card)`` (bytes, or ints of any size);
        ``named`` the suit each trick's lead named, or ``""`` (a list), or the number of
        tricks when no lead named one."""
        t = cls.__new__(cls)
        t._data = data
        t._named = named if isinstance(named, int) else tuple(named) if any(named) else len(named)
        return t

    def _all(self) -> list:
        d = self._data
        named = self._named
        out: list = []
        i = 0
        while i < len(d):
            leader, winner, k = d[i], d[i + 1], d[i + 2]
            plays = tuple((d[j], d[j + 1]) for j in range(i + 3, i + 3 + 2 * k, 2))
            out.append((leader, plays, winner, named[len(out)] if isinstance(named, tuple) else ""))
            i += 3 + 2 * k
        return out

    def __len__(self) -> int:
        return self._named if isinstance(self._named, int) else len(self._named)

    def __getitem__(self, i):
        return self._all()[i]

    def __iter__(self):
        return iter(self._all())

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, tuple, PlayedTricks)) and self._all() == list(other)

    def __repr__(self) -> str:
        return repr(self._all())


def _copy(v):
    """A shallow copy of a list, dict or set; anything else as it is (immutable)."""
    return v.copy() if v.__class__ in _MUTABLE else v


_MUTABLE = (list, dict, set)
_PLAIN = {"number", "dealer", "eldest", "phase", "to_move", "high", "high_seat", "contract", "declarer",
          "trump", "ctx", "discards", "leader", "led_group", "named", "void", "doubled", "turned",
          "dummy", "players", "written", "skips", "totals"}  # slots that only ever hold immutable values


def _make_clone():
    """The body of :meth:`Hand.clone`, one line per slot (bots clone hands in their inner loop:
    a loop of getattr/setattr over the slots costs several times more)."""
    lines = ["def clone(self):", "    h = new(Hand)"]
    for k in Hand.__slots__:
        if k == "phase_state":   # each kind's data object copies itself
            lines.append("    h.phase_state = {k: d.clone() for k, d in self.phase_state.items()}")
        elif k in _PLAIN:
            lines.append(f"    h.{k} = self.{k}")
        else:   # _copy inlined (a call per slot is most of the cost)
            lines.append(f"    v = self.{k}")
            lines.append(f"    h.{k} = v.copy() if v.__class__ in mutable else v")
    lines.append("    return h")
    ns = {"new": Hand.__new__, "Hand": Hand, "mutable": _MUTABLE}
    exec("\n".join(lines), ns)  # noqa: S102 - generated from the class's own slot names
    return ns["clone"]


_clone = _make_clone()
