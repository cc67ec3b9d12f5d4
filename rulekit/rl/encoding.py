"""The tensor of what one seat may know: a flat ``float32`` vector in named segments.

The layout is generated from the compiled variant alone: the pack's size ``N``, the seats ``P``,
the suits ``S``, the score columns ``C``, the phases of every round and the action numbering
(:class:`~rulekit.rl.actions.ActionTable`, ``A`` numbers); never from a hand. The values are read
from ``State.observation(seat)`` (an :class:`~rulekit.engine.observation.Observation`, which holds
only what the seat may know) and from the actions the seat saw taken in the hand (another seat's
discard without its cards), nothing else. Seats are relative to the observing seat (0 is the
seat itself, 1 the next in the direction of play by seat number, ...); score columns likewise
start with the seat's own column. ``Encoding.segments`` lists each segment as ``(name, shape,
meaning)``; docs/rl.md prints them for a shipped variant.
"""
from __future__ import annotations

import numpy as np

from rulekit.cards import bits
from rulekit.errors import CardError
from rulekit.engine.observation import Observation
from rulekit.engine.scoring import column_of
from rulekit.rl.actions import ActionTable, rules_of_match

INF = np.float32(np.inf)


class Encoding:
    """The segments of one variant's observation vector (see the module docstring).

    :ivar segments: ``(name, shape, meaning)`` in vector order.
    :ivar size: the vector's length; ``low`` / ``high`` the bounds of each entry (for a
        Gymnasium ``Box``).
    """

    def __init__(self, variant, table: ActionTable) -> None:
        v = variant
        self.variant, self.table = v, table
        n, p, s = v.deck.size, v.players, len(v.deck.suits)
        self.columns = c = len(v.side_names) if v.scoring.by_side else p
        self.phase_names: tuple[str, ...] = tuple(dict.fromkeys(sp.name for r in rules_of_match(v) for sp in r.phases))
        a, f = table.size, len(self.phase_names)
        count, score = (0.0, float(n)), (-INF, INF)
        bit = (0.0, 1.0)
        segs = [
            ("hand", (n,), bit, "the seat's own cards (0 while it has not looked at them: a blind bid)"),
            ("seen", (p, n), bit, "per seat, the cards of its hand this seat sees now (own, an exposed dummy, hands laid open)"),
            ("face_up", (n,), bit, "cards lying face up in zones (a widow shown, a turned-up card)"),
            ("zone_known", (n,), bit, "cards every seat knows lie in a face-down zone (the card turned under a stock)"),
            ("laid_away", (n,), bit, "the seat's own discards (as declarer) and cards it laid out of play"),
            ("taken", (n,), bit, "the seat's own cards it was not dealt (taken from a widow, passed to it)"),
            ("placed", (p, n), bit, "per seat, cards every seat knows it holds (a face-up widow it took, a turned-up trump card)"),
            ("cards_named", (p, n), bit, "per seat, the cards named by its actions of this hand this seat knows of "
             "(Observation.actions: cards turned to decide trumps or turned from a second pack, its own discards)"),
            ("trick", (p, n), bit, "the card each seat has played to the trick in progress"),
            ("leader", (p,), bit, "the seat that led the trick in progress"),
            ("played", (p, n), bit, "cards each seat played to the completed tricks of this hand"),
            ("won", (p,), count, "tricks won by each seat this hand"),
            ("hand_sizes", (p,), count, "cards each seat holds now"),
            ("dealt_sizes", (p,), count, "cards each seat was dealt"),
            ("out_sizes", (p,), count, "cards each seat laid face down out of play"),
            ("failed", (p, s + 1), bit, "per seat, the groups (suits, then the top cards) it is known to lack"),
            ("to_move", (p,), bit, "the seat to act"),
            ("dealer", (p,), bit, "the dealer"),
            ("declarer", (p,), bit, "the declarer (none: all 0)"),
            ("partner", (p,), bit, "the declarer's partner for the hand (a called partner; none: all 0)"),
            ("dummy", (p,), bit, "the dummy (none: all 0)"),
            ("open", (p,), bit, "seats whose hand lies face up for everyone"),
            ("trump", (s + 1,), bit, "the trump suit, then no trump (not made yet: all 0)"),
            ("low", (1,), bit, "the low cards win this hand"),
            ("named", (s,), bit, "the suit the leader named to follow in the trick in progress"),
            ("contract", (a,), bit, "the contract, as the number of its word (a contract without one: the next entry)"),
            ("contract_other", (1,), bit, "a contract whose text is no action word"),
            ("phase", (f + 1,), bit, "the phase in progress by name (" + ", ".join(self.phase_names) + "), then over"),
            ("history", (p, a), (0.0, INF),
             "per seat, how often it took each action number in this hand: its calls, its cards played "
             "(in tricks, on a pile or a layout), the card of a chance event it turned, the cards of its own discards; "
             "another seat's discard is not seen"),
            ("picked", (n,), bit, "cards this seat has chosen so far for a discard it is making"),
            ("blind", (1,), bit, "the seat has not looked at its cards yet"),
            ("hidden", (2,), count, "face-down cards in zones; another seat's discards this seat has not seen"),
            ("totals", (c,), score, "the sheet's totals per score column, the seat's own column first"),
            ("game_score", (c,), score, "game-counting points since the last line, per score column"),
            ("games", (c,), count, "games won in the current rubber, per score column"),
            ("vulnerable", (c,), bit, "vulnerability, per score column"),
            ("hand_number", (1,), (0.0, INF), "the number of the deal in the match, from 0"),
        ]
        self.segments = [(name, shape, meaning) for name, shape, _b, meaning in segs]
        self.offset: dict[str, int] = {}
        low, high, at = [], [], 0
        for name, shape, (lo, hi), _m in segs:
            size = int(np.prod(shape))
            self.offset[name] = at
            low += [lo] * size
            high += [hi] * size
            at += size
        self.size = at
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/rl.md prints one): each segment's offset, shape
        and meaning."""
        rows = ["| offset | segment | shape | meaning |", "|---:|---|---|---|"]
        for name, shape, meaning in self.segments:
            rows.append(f"| {self.offset[name]} | `{name}` | {' × '.join(map(str, shape))} | {meaning} |")
        return "\n".join(rows) + "\n"

    def encode(self, obs: Observation, history: list, picked: int = 0) -> np.ndarray:
        """The vector of ``obs``.

        :param history: ``(seat, number)`` of each action of this hand the seat saw taken.
        :param picked: the cards it has chosen so far for a discard.
        """
        v, o = self.variant, self.offset
        n, p, s, a = v.deck.size, v.players, len(v.deck.suits), self.table.size
        me = obs.seat
        out = np.zeros(self.size, dtype=np.float32)

        def rel(seat: int) -> int:
            return (seat - me) % p

        def cards(at: int, mask: int) -> None:
            for c in bits(mask):
                out[at + c] = 1.0

        def one(name: str, seat: int) -> None:
            if seat >= 0:
                out[o[name] + rel(seat)] = 1.0

        cards(o["hand"], obs.hand)
        for seat, m in enumerate(obs.hands_seen):
            cards(o["seen"] + rel(seat) * n, m)
        cards(o["face_up"], obs.widow)
        known = 0
        for m in obs.zone_known.values():
            known |= m
        cards(o["zone_known"], known)
        cards(o["laid_away"], obs.discards | obs.out)
        cards(o["taken"], obs.taken)
        for seat, m in enumerate(obs.placed):
            cards(o["placed"] + rel(seat) * n, m | (obs.exposed if seat == obs.dealer else 0))
        for seat, text in obs.actions:
            for word in text.split()[1:]:
                try:
                    out[o["cards_named"] + rel(seat) * n + v.deck.parse(word)] = 1.0
                except CardError:
                    pass   # a word of the event that names no card
        for seat, c in obs.trick:
            out[o["trick"] + rel(seat) * n + c] = 1.0
        if obs.trick:
            one("leader", obs.trick[0][0])
        for _leader, plays, _w, _named in obs.tricks:
            for seat, c in plays:
                out[o["played"] + rel(seat) * n + c] = 1.0
        for seat in range(p):
            r = rel(seat)
            out[o["won"] + r] = obs.won[seat]
            out[o["hand_sizes"] + r] = obs.hand_sizes[seat]
            if obs.dealt_sizes:
                out[o["dealt_sizes"] + r] = obs.dealt_sizes[seat]
            if obs.out_sizes:
                out[o["out_sizes"] + r] = obs.out_sizes[seat]
            for g in bits(obs.failed[seat] & ((1 << (s + 1)) - 1)):
                out[o["failed"] + r * (s + 1) + g] = 1.0
        one("to_move", obs.to_move)
        one("dealer", obs.dealer)
        one("declarer", obs.declarer)
        one("partner", obs.partner)
        one("dummy", obs.dummy)
        for seat in obs.open_seats:
            one("open", seat)
        strains = (*v.deck.suits, "NT")
        if obs.trump in strains:
            out[o["trump"] + strains.index(obs.trump)] = 1.0
        out[o["low"]] = float(obs.low)
        if obs.named in v.deck.suits:
            out[o["named"] + v.deck.suits.index(obs.named)] = 1.0
        if obs.contract:
            k = self.table.word_number(obs.contract)
            if k is None:
                out[o["contract_other"]] = 1.0
            else:
                out[o["contract"] + k] = 1.0
        name = obs.phase_spec.name if obs.phase_spec is not None else None
        f = self.phase_names.index(name) if name in self.phase_names else len(self.phase_names)
        out[o["phase"] + f] = 1.0
        for seat, k in history:
            out[o["history"] + rel(seat) * a + k] += 1.0
        cards(o["picked"], picked)
        out[o["blind"]] = float(obs.blind)
        out[o["hidden"]] = sum(obs.hidden_zones.values())
        out[o["hidden"] + 1] = obs.hidden_discards
        cols, mine = self.columns, column_of(v, me)
        for col in range(cols):
            r = (col - mine) % cols
            out[o["totals"] + r] = obs.totals[col]
            if obs.game_score:
                out[o["game_score"] + r] = obs.game_score[col]
            if obs.games:
                out[o["games"] + r] = obs.games[col]
            if obs.vulnerable:
                out[o["vulnerable"] + r] = float(obs.vulnerable[col])
        out[o["hand_number"]] = obs.hand_number
        return out
