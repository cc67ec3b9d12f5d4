"""Referee for Forty-Five, the four-player partnership game (docs/rules/fortyfive.md).

Written from the rules page alone, independent of rulekit (it must never import it): it is
the ground truth a rulekit variant is checked against. Rule ids in comments are the page's.

Cards: rank then suit, ranks ``A K Q J 10 9 8 7 6 5 4 3 2``, suits ``S H D C`` ("5H",
"10C", "AH"). Seats 0..3 clockwise; seat ``s + 1`` is on the left of seat ``s``. Sides:
0 = seats 0 and 2, 1 = seats 1 and 3. ``extra`` = ``{"turnup": [card], "stock": [31 cards]}``.

Actions (``legal()`` returns them sorted):
- ``play XX``: play card XX to the current trick.
- ``rob XX``: rob the turn-up, putting XX out face down and taking the turn-up into the hand
  [FF-X1][FF-X2]; the robber then still plays to the trick.
- ``pass``: the dealer declines to rob a turned-up ace [FF-X1].
No chance happens inside a deal. Options: ``best_trump_bonus`` (5; 0 scores tricks only).
"""
from __future__ import annotations

import random

SUITS = ("S", "H", "D", "C")
RED = ("H", "D")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
PACK = tuple(r + s for s in SUITS for r in RANKS)
TRICK_POINTS = 5  # [FF-S1]
BEST_TRUMP_POINTS = 5  # [FF-S2]
TARGET = 45  # [FF-G1]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def trump_order(t: str) -> list[str]:
    """The trumps of suit ``t``, highest first [FF-R1][FF-R2]."""
    top = ["5" + t, "J" + t, "AH"] + ([] if t == "H" else ["A" + t])
    low = ["10", "9", "8", "7", "6", "4", "3", "2"] if t in RED else ["2", "3", "4", "6", "7", "8", "9", "10"]
    return top + ["K" + t, "Q" + t] + [r + t for r in low]


def plain_order(s: str) -> list[str]:
    """A plain (non-trump) suit, highest first: highest in red, lowest in black [FF-R3]."""
    if s in RED:
        cards = [r + s for r in ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")]
        return [c for c in cards if c != "AH"]  # the A of hearts is always a trump [FF-R1]
    return [r + s for r in ("K", "Q", "J", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]


class Deal:
    """One deal of Forty-Five, from the hands as dealt to the score of both sides."""

    def __init__(self, hands: list[list[str]], extra: dict[str, list[str]], dealer: int,
                 options: dict | None = None):
        self.options = dict(options or {})
        self.hands = [list(h) for h in hands]
        self.dealer = dealer
        self.turnup: str | None = extra["turnup"][0]
        self.stock = list(extra.get("stock", []))
        self.trump = suit(self.turnup)  # [FF-D2]
        self.order = trump_order(self.trump)
        self.ace = "A" + self.trump  # the ace of trumps (the A of hearts when hearts are trumps)
        self.discard: list[str] = []  # the card put out by a robber, seen by nobody [FF-X3]
        self.robbed_by: int | None = None
        self.tricks: list[list[tuple[int, str]]] = []  # completed tricks, (seat, card) in play order
        self.trick: list[tuple[int, str]] = []
        self.leader = (dealer + 1) % 4  # eldest leads to the first trick [FF-T1]
        # [FF-X1]: a turned-up ace lets the dealer rob before the opening lead.
        self.dealer_to_decide = rank(self.turnup) == "A"

    # ------------------------------------------------------------------ ranking
    def is_trump(self, card: str) -> bool:
        return suit(card) == self.trump or card == "AH"  # [FF-R1]

    def trump_rank(self, card: str) -> int:
        """Higher is better."""
        return len(self.order) - self.order.index(card)

    def renegeable(self, card: str, led: str) -> bool:
        """[FF-T3]: the 5, J and A of hearts need not be played to a lower trump led."""
        return card in self.order[:3] and self.trump_rank(card) > self.trump_rank(led)

    # ------------------------------------------------------------------ turn order
    def to_move(self) -> int:
        if self.is_over():
            return -1
        if self.dealer_to_decide:
            return self.dealer
        return (self.leader + len(self.trick)) % 4

    def is_over(self) -> bool:
        return len(self.tricks) == 5

    def may_rob(self, seat: int) -> bool:
        """[FF-X2]: the holder of the ace of trumps, at his first turn to play, before playing."""
        return (self.turnup is not None and not self.tricks and self.ace in self.hands[seat]
                and all(s != seat for s, _ in self.trick))

    def legal_cards(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if not self.trick:
            return list(hand)  # [FF-T1]: any card may be led
        led = self.trick[0][1]
        trumps = [c for c in hand if self.is_trump(c)]
        if self.is_trump(led):
            # [FF-T3]: a trump lead must be followed with a trump, except that a top trump
            # higher than the card led may be kept back.
            if any(not self.renegeable(c, led) for c in trumps):
                return trumps
            return list(hand)
        # [FF-T2]: a plain lead: follow suit or trump; a player void in the suit plays anything.
        follow = [c for c in hand if not self.is_trump(c) and suit(c) == suit(led)]
        if follow:
            return follow + trumps
        return list(hand)

    def legal(self) -> list[str]:
        seat = self.to_move()
        if seat < 0:
            return []
        if self.dealer_to_decide:
            return sorted(["pass"] + ["rob " + c for c in self.hands[seat]])
        acts = ["play " + c for c in self.legal_cards(seat)]
        if self.may_rob(seat):
            acts += ["rob " + c for c in self.hands[seat]]
        return sorted(acts)

    # ------------------------------------------------------------------ acting
    def apply(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r} for seat {self.to_move()}: "
                             f"legal are {self.legal()} [FF-T2][FF-T3][FF-X1][FF-X2]")
        seat = self.to_move()
        word, _, card = action.partition(" ")
        if word == "pass":
            self.dealer_to_decide = False
        elif word == "rob":
            self.hands[seat].remove(card)
            self.discard.append(card)
            assert self.turnup is not None
            self.hands[seat].append(self.turnup)
            self.turnup = None
            self.robbed_by = seat
            self.dealer_to_decide = False
        else:
            self.hands[seat].remove(card)
            self.trick.append((seat, card))
            if len(self.trick) == 4:
                self.leader = self.trick_winner(self.trick)  # [FF-T5]
                self.tricks.append(self.trick)
                self.trick = []

    def trick_winner(self, trick: list[tuple[int, str]]) -> int:
        """[FF-T4]: the highest trump, else the highest card of the suit led."""
        trumps = [(s, c) for s, c in trick if self.is_trump(c)]
        if trumps:
            return max(trumps, key=lambda sc: self.trump_rank(sc[1]))[0]
        led = suit(trick[0][1])
        order = plain_order(led)
        same = [(s, c) for s, c in trick if suit(c) == led]
        return min(same, key=lambda sc: order.index(sc[1]))[0]

    # ------------------------------------------------------------------ result
    def result(self) -> dict:
        assert self.is_over()
        winners = [self.trick_winner(t) for t in self.tricks]
        tricks = [winners.count(s) for s in range(4)]
        side_tricks = [tricks[0] + tricks[2], tricks[1] + tricks[3]]
        points = [TRICK_POINTS * n for n in side_tricks]  # [FF-S1]
        played = [(i, c) for i, t in enumerate(self.tricks) for _, c in t if self.is_trump(c)]
        best = best_side = None
        if played:  # [FF-S2]: the trick holding the highest trump played earns 5 more
            i, best = max(played, key=lambda ic: self.trump_rank(ic[1]))
            best_side = winners[i] % 2
            points[best_side] += self.options.get("best_trump_bonus", BEST_TRUMP_POINTS)
        return {
            "scores": [points[s % 2] for s in range(4)],
            "side_points": points,
            "tricks": tricks,
            "side_tricks": side_tricks,
            "trick_winners": winners,
            "trump": self.trump,
            "best_trump": best,
            "best_trump_side": best_side,
            "robbed_by": self.robbed_by,
            "discard": list(self.discard),
            "partners": [(0, 2), (1, 3)],
        }


def deal_random(rng: random.Random, dealer: int) -> tuple[list[list[str]], dict[str, list[str]]]:
    """[FF-D1][FF-D2]: 3 then 2 cards to each player from the dealer's left, then the turn-up."""
    pack = list(PACK)
    rng.shuffle(pack)
    hands: list[list[str]] = [[] for _ in range(4)]
    for packet in (3, 2):
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            hands[seat] += [pack.pop() for _ in range(packet)]
    turnup = pack.pop()
    return hands, {"turnup": [turnup], "stock": pack}


def match_winner(entries: list[list[int]], options: dict | None = None) -> int | None:
    """The winning side (0: seats 0 and 2, 1: seats 1 and 3) or None while the game goes on.

    [FF-G1][FF-G2]: totals are checked after each deal; a side at ``target`` (45) or more
    wins; if both reach it on the same deal the higher total wins, and equal totals play on.
    """
    target = (options or {}).get("target", TARGET)
    totals = [0, 0]
    for e in entries:
        totals = [totals[0] + e[0], totals[1] + e[1]]
        over = [side for side in (0, 1) if totals[side] >= target]
        if len(over) == 1:
            return over[0]
        if len(over) == 2 and totals[0] != totals[1]:
            return 0 if totals[0] > totals[1] else 1
    return None
