"""The shared core of the Schnapsen and Sixty-Six referees (docs/rules/schnapsen.md, sixtysix.md).

Both pages number their rules alike, so a comment ``[T5]`` means ``[SN-T5]`` and ``[SS-T5]``;
where the games differ the difference is a field of ``Rules``, named after the rule. Written
from the rules pages alone, independent of rulekit (it must never import it).

Cards: rank then suit, ranks ``A 10 K Q J`` (and ``9`` in Sixty-Six), suits ``S H D C``.
Seats 0 and 1; the dealer's opponent leads first. ``extra`` = ``{"stock": [face-down cards,
top first], "trump": [the turn-up]}``; the turn-up is the last card of the talon.

Actions (``legal()`` returns them sorted):
- ``play XX``: lead or follow with XX.
- ``meld KX QX``: the leader declares the marriage of suit X [M1]; he must then lead one of
  the two cards, or claim.
- ``exchange``: the leader swaps the trump jack (nine) for the turn-up [X1].
- ``close``: the leader closes the talon [C1].
- ``claim``: the leader says "I have 66": the deal ends and is scored as made or failed [G1].
No chance happens inside a deal: the stock order is given. Option ``late_exchange`` (True):
False forbids the exchange and closing when the talon holds only the turn-up and one card.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

SUITS = ("S", "H", "D", "C")
VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}  # [P2]
TARGET = 66  # [G1]


@dataclass(frozen=True)
class Rules:
    """What one game of the family says where the two pages differ."""

    prefix: str  # the rule-id prefix of its page, for error messages
    ranks: tuple[str, ...]  # high to low [P1]
    packets: tuple[tuple[str, int], ...]  # the deal: ("N" non-dealer | "D" dealer | "T" turn-up, n)
    low_trump: str  # the rank exchanged for the turn-up [X1]
    exchange_needs_trick: bool  # [X1]
    melds_when_strict: bool  # marriages allowed once the talon is closed or exhausted [M3]
    last_trick_bonus: int  # [S6]
    last_trick_wins: bool  # [S5]: played out with no claim, the last trick decides

    def pack(self) -> list[str]:
        return [r + s for s in SUITS for r in self.ranks]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def game_points(opp_tricks: int, opp_points: int) -> int:
    """[S1]: 3 if the loser took no trick, 2 if he has fewer than 33 points, else 1."""
    if opp_tricks == 0:
        return 3
    return 2 if opp_points < 33 else 1


class Deal:
    """One deal of a two-hand trick-and-draw marriage game, from the deal to the game points."""

    rules: Rules

    def __init__(self, hands: list[list[str]], extra: dict[str, list[str]], dealer: int,
                 options: dict | None = None):
        self.options = dict(options or {})
        self.hands = [list(h) for h in hands]
        self.stock = list(extra["stock"])
        self.turnup: str | None = extra["trump"][0]
        self.trump = suit(self.turnup)  # [D1]
        self.dealer = dealer
        self.leader = 1 - dealer  # [T1]
        self.trick: list[tuple[int, str]] = []
        self.won: list[list[str]] = [[], []]  # cards won in tricks
        self.tricks = [0, 0]
        self.melds: list[list[tuple[str, int]]] = [[], []]  # (suit, 20 or 40) [M1]
        self.pending: str | None = None  # the suit of a marriage just declared [M1]
        self.bonus = [0, 0]  # the last trick's points [S6]
        self.closed_by: int | None = None
        self.at_close: tuple[int, int] | None = None  # the opponent's (tricks, points) [C3]
        self.last_winner: int | None = None
        self.trick_winners: list[int] = []
        self.exchanged_by: int | None = None
        self.draws: list[tuple[int, str]] = []  # (seat, card) in drawing order [T4]
        self.outcome: dict | None = None

    # ------------------------------------------------------------------ state
    def talon_open(self) -> bool:
        """Cards remain to be drawn and nobody has closed [T4][C2]."""
        return self.turnup is not None and self.closed_by is None

    def late(self) -> bool:
        """The house option that forbids exchanging and closing in the talon's last round."""
        return not self.options.get("late_exchange", True) and len(self.stock) < 2

    def strict(self) -> bool:
        """[T5]: the talon is exhausted or closed."""
        return not self.talon_open()

    def points(self, seat: int) -> int:
        """[P2][M2][S6]: card points won, marriages once a trick is won, the last trick."""
        melds = sum(v for _, v in self.melds[seat]) if self.tricks[seat] else 0
        return sum(VALUES[rank(c)] for c in self.won[seat]) + melds + self.bonus[seat]

    def to_move(self) -> int:
        if self.outcome is not None:
            return -1
        return (self.leader + len(self.trick)) % 2

    def is_over(self) -> bool:
        return self.outcome is not None

    # ------------------------------------------------------------------ legal actions
    def legal_follow(self, seat: int) -> list[str]:
        """[T2]: any card while the talon is open; [T5]: strict rules after."""
        hand = self.hands[seat]
        if not self.strict():
            return list(hand)
        led = self.trick[0][1]
        same = [c for c in hand if suit(c) == suit(led)]
        heading = [c for c in same if self.beats(c, led)]
        trumps = [c for c in hand if suit(c) == self.trump]
        return heading or same or trumps or list(hand)

    def may_exchange(self, seat: int) -> bool:
        """[X1]: on lead, talon open, holding the low trump (and, in Sixty-Six, a trick won)."""
        low = self.rules.low_trump + self.trump
        return (self.talon_open() and not self.late() and low in self.hands[seat]
                and (self.tricks[seat] > 0 or not self.rules.exchange_needs_trick))

    def marriages(self, seat: int) -> list[str]:
        """[M1][M3]: the suits whose K and Q the leader holds, when melding is allowed."""
        if self.strict() and not self.rules.melds_when_strict:
            return []
        return [s for s in SUITS if "K" + s in self.hands[seat] and "Q" + s in self.hands[seat]]

    def legal(self) -> list[str]:
        seat = self.to_move()
        if seat < 0:
            return []
        if self.trick:
            return sorted("play " + c for c in self.legal_follow(seat))
        if self.pending:  # [M1]: lead one of the marriage, or claim at once
            return sorted(["claim", "play K" + self.pending, "play Q" + self.pending])
        acts = ["play " + c for c in self.hands[seat]] + ["claim"]
        acts += [f"meld K{s} Q{s}" for s in self.marriages(seat)]
        if self.may_exchange(seat):
            acts.append("exchange")
        if self.talon_open() and not self.late():  # [C1]
            acts.append("close")
        return sorted(acts)

    # ------------------------------------------------------------------ acting
    def apply(self, action: str) -> None:
        p = self.rules.prefix
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r} for seat {self.to_move()}: legal are "
                             f"{self.legal()} [{p}-T2][{p}-T5][{p}-X1][{p}-C1][{p}-M1][{p}-M3]")
        seat = self.to_move()
        word, _, arg = action.partition(" ")
        if word == "play":
            self.pending = None
            self.hands[seat].remove(arg)
            self.trick.append((seat, arg))
            if len(self.trick) == 2:
                self.finish_trick()
        elif word == "meld":
            s = suit(arg)
            self.melds[seat].append((s, 40 if s == self.trump else 20))  # [M1]
            self.pending = s
        elif word == "exchange":
            low = self.rules.low_trump + self.trump
            assert self.turnup is not None
            self.hands[seat].remove(low)
            self.hands[seat].append(self.turnup)
            self.turnup = low
            self.exchanged_by = seat
        elif word == "close":
            self.closed_by = seat
            other = 1 - seat
            self.at_close = (self.tricks[other], self.points(other))  # [C3]
        else:
            self.end_by_claim(seat)

    def beats(self, card: str, led: str) -> bool:
        """[T3]: a higher card of the suit led, or a trump to a plain lead."""
        if suit(card) == suit(led):
            return self.rules.ranks.index(rank(card)) < self.rules.ranks.index(rank(led))
        return suit(card) == self.trump

    def finish_trick(self) -> None:
        (lead_seat, led), (follow_seat, followed) = self.trick
        winner = follow_seat if self.beats(followed, led) else lead_seat
        self.won[winner] += [led, followed]
        self.tricks[winner] += 1
        self.trick = []
        self.leader = self.last_winner = winner  # [T1]
        self.trick_winners.append(winner)
        if self.talon_open():  # [T4]: the winner draws first; the turn-up is drawn last
            for s in (winner, 1 - winner):
                card = self.stock.pop(0) if self.stock else self.turnup
                if not self.stock and card == self.turnup:
                    self.turnup = None
                assert card is not None
                self.hands[s].append(card)
                self.draws.append((s, card))
        if not self.hands[0] and not self.hands[1]:
            self.end_of_play()

    # ------------------------------------------------------------------ scoring
    def end_by_claim(self, seat: int) -> None:
        """[G1][S1]..[S3]: a claim is scored as made (66 or more) or failed, there and then."""
        other = 1 - seat
        made = self.points(seat) >= TARGET
        if self.closed_by is None:
            if made:
                self.finish(seat, game_points(self.tricks[other], self.points(other)), "claim made", seat, True)
            else:  # [S2]
                self.finish(other, 3 if self.tricks[other] == 0 else 2, "claim failed", seat, False)
            return
        assert self.at_close is not None
        closer, non_closer = self.closed_by, 1 - self.closed_by
        close_failed = 3 if self.at_close[0] == 0 else 2  # [S3]
        if seat == closer:
            if made:
                self.finish(closer, game_points(*self.at_close), "closer's claim made", seat, True)
            else:
                self.finish(non_closer, close_failed, "closer's claim failed", seat, False)
        elif made:
            self.finish(non_closer, close_failed, "opponent of the closer made 66", seat, True)
        else:  # [S2]
            self.finish(closer, 3 if self.tricks[closer] == 0 else 2, "claim failed", seat, False)

    def end_of_play(self) -> None:
        """[S4][S5][S6]: all cards played and nobody claimed."""
        assert self.last_winner is not None
        w = self.last_winner
        if self.closed_by is not None:  # [S4]: the closer has to reach 66
            if self.points(self.closed_by) >= TARGET:
                self.end_by_claim(self.closed_by)
            else:
                assert self.at_close is not None
                self.finish(1 - self.closed_by, 3 if self.at_close[0] == 0 else 2, "closer fell short", None, None)
            return
        self.bonus[w] += self.rules.last_trick_bonus  # [S6]
        for seat in (w, 1 - w):  # [S5]: a player with 66 still claims, the last trick's winner first
            if self.points(seat) >= TARGET:
                self.end_by_claim(seat)
                return
        if self.rules.last_trick_wins:
            self.finish(w, 1, "last trick", None, None)
        else:
            self.finish(None, 0, "no player reached 66", None, None)

    def finish(self, winner: int | None, points: int, reason: str, claimer: int | None,
               made: bool | None) -> None:
        scores = [0, 0]
        if winner is not None:
            scores[winner] = points
        self.outcome = {"scores": scores, "winner": winner, "game_points": points, "reason": reason,
                        "claimer": claimer, "claim_made": made}

    def result(self) -> dict:
        assert self.outcome is not None
        return {
            **self.outcome,
            "points": [self.points(0), self.points(1)],
            "card_points": [sum(VALUES[rank(c)] for c in w) for w in self.won],
            "tricks": list(self.tricks),
            "trick_winners": list(self.trick_winners),
            "last_trick_points": list(self.bonus),
            "exchanged_by": self.exchanged_by,
            "marriages": [list(m) for m in self.melds],
            "closed_by": self.closed_by,
            "trump": self.trump,
            "dealer": self.dealer,
            "draws": list(self.draws),
        }


def deal_random(rules: Rules, rng: random.Random, dealer: int) -> tuple[list[list[str]], dict[str, list[str]]]:
    """[D1][D2]: packets to the dealer's opponent and to the dealer, the turn-up, the stock."""
    pack = rules.pack()
    rng.shuffle(pack)
    hands: list[list[str]] = [[], []]
    turnup = []
    for who, n in rules.packets:
        cards = [pack.pop() for _ in range(n)]
        if who == "T":
            turnup = cards
        else:
            hands[1 - dealer if who == "N" else dealer] += cards
    return hands, {"stock": pack, "trump": turnup}


def match_winner(entries: list[list[int]], options: dict | None = None) -> int | None:
    """[B1]: the first player whose game points reach 7 (one Bummerl), or None."""
    target = (options or {}).get("target", 7)
    totals = [0, 0]
    for e in entries:
        totals = [totals[0] + e[0], totals[1] + e[1]]
        for seat in (0, 1):
            if totals[seat] >= target:
                return seat
    return None
