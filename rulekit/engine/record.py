"""The columnar record of a match: every choice made, written once per deal into compact arrays.

A match is its starting facts (variant, seed or explicit deals, first dealer, start scores,
names, vulnerability, cap; :class:`~rulekit.engine.state.State` keeps them) and the choices its
players made, in order (:meth:`~rulekit.engine.phases.base.PhaseKind.legal_choices`: a card
played is its index, a call ``1 + rank``...).  The hand in progress collects its choices in
``Hand.choices``; when the hand ends, :meth:`MatchRecord.add` appends them to one array of the
whole match and notes where the deal's choices end, so a long match keeps two or four bytes
per decision and no object per deal (no finished :class:`~rulekit.engine.hand.Hand`, no action,
no text).  Everything else a record, a resume, PBN export or a test reads of earlier hands (the
``(seat, text)`` history, each finished hand) is rebuilt on demand by replaying the choices
(``State.history``, ``State.hand_log``): the engine is deterministic given those facts.
"""
from __future__ import annotations

from array import array


class MatchRecord:
    """The choices of a match's finished deals.

    :ivar codes: every choice of the finished deals, in order (an ``array``: unsigned 16-bit,
        widened to 64-bit when a choice needs it).
    :ivar ends: per finished deal (thrown-in deals too), the number of choices made up to its end.
    :ivar stops: the number of choices made when the match was stopped by :meth:`State.stop
        <rulekit.engine.state.State.stop>` (players agreeing to stop), for a replay.
    :ivar open: the :class:`~rulekit.engine.hand.Hand` in progress while its choices are not
        yet added (``None`` once the match's last hand has ended).
    """

    __slots__ = ("codes", "ends", "stops", "open")

    def __init__(self) -> None:
        self.codes = array("H")
        self.ends = array("I")
        self.stops: list[int] = []
        self.open: object = None   # the hand in progress, until its choices are added

    def add(self, choices: list) -> None:
        """Append the choices of a deal that just ended (a list)."""
        try:
            self.codes.fromlist(choices)   # (all or none: the array is unchanged on an error)
        except OverflowError:   # a choice past 65,535 (a set of cards from a long hand)
            self.codes = array("Q", self.codes)
            self.codes.fromlist(choices)
        self.ends.append(len(self.codes))

    def deal(self, k: int) -> array:
        """The choices of finished deal ``k`` (0-based)."""
        return self.codes[self.ends[k - 1] if k else 0:self.ends[k]]

    def clone(self) -> "MatchRecord":
        """An independent copy."""
        r = MatchRecord.__new__(MatchRecord)
        r.codes = array(self.codes.typecode, self.codes)
        r.ends = array("I", self.ends)
        r.stops = list(self.stops)
        r.open = self.open
        return r

    def nbytes(self) -> int:
        """Bytes its arrays hold."""
        return self.codes.itemsize * len(self.codes) + self.ends.itemsize * len(self.ends)
