"""Referee for French Tarot, four players, FFT rules (docs/rules/tarot.md).

Written from the rules page alone, independent of rulekit (it must never import it): it is
the ground truth a rulekit variant is checked against. Rule ids in comments are the page's.

Cards: the four suits ``S H D C``, ranks high to low ``K Q C J 10 9 8 7 6 5 4 3 2 A`` where
``C`` is the knight (cavalier) and ``A`` the ace (the "1", lowest): "KS", "CH" (knight of
hearts), "10D", "AC". Trumps ``T1``..``T21``; the Excuse ``EX``. Seats 0..3 are numbered in
the order of play (Tarot goes counter-clockwise: seat ``s + 1`` sits on the right of seat ``s``
and plays after him). ``extra`` = ``{"dog": [6 cards]}``.

Card points are kept in half points (an oudler or king 9, queen 7, knight 5, jack 3, any
other card 1): 182 halves = 91 points [TA-C2].

Actions (``legal()`` returns them sorted):
- ``pass``, ``bid prise``, ``bid garde``, ``bid garde sans``, ``bid garde contre`` [TA-B1..4];
- ``discard XX``: the taker puts one card into his discard (six times) [TA-K2][TA-K3];
- ``chelem`` / ``pass``: the taker announces a slam, or not, before the first lead [TA-M1];
- ``poignee simple|double|triple``: at a player's first card, he shows 10/13/15 trumps [TA-H1];
- ``play XX``.
No chance happens inside a deal. Options: ``poignee`` (True), ``chelem_announce`` (True).
"""
from __future__ import annotations

import random

SUITS = ("S", "H", "D", "C")
RANKS = ("K", "Q", "C", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
TRUMPS = tuple(f"T{n}" for n in range(1, 22))
EXCUSE = "EX"
PACK = tuple(r + s for s in SUITS for r in RANKS) + TRUMPS + (EXCUSE,)
OUDLERS = ("T1", "T21", EXCUSE)  # [TA-C3]
BIDS = ("prise", "garde", "garde sans", "garde contre")  # low to high [TA-B2]
MULTIPLIER = {"prise": 1, "garde": 2, "garde sans": 4, "garde contre": 6}  # [TA-S3]
THRESHOLD = {0: 56, 1: 51, 2: 41, 3: 36}  # [TA-S1]
POIGNEE = {"simple": (10, 20), "double": (13, 30), "triple": (15, 40)}  # [TA-H1] trumps, bonus
TAKER, DEFENCE = 0, 1


def is_trump(card: str) -> bool:
    return card.startswith("T")


def trump_no(card: str) -> int:
    return int(card[1:])


def suit_of(card: str) -> str:
    """The suit a card makes a player follow: S H D C, "T" for trumps, "" for the Excuse."""
    if card == EXCUSE:
        return ""
    return "T" if is_trump(card) else card[-1]


def halves(card: str) -> int:
    """[TA-C2]: the card's value in half points."""
    if card in OUDLERS:
        return 9
    if is_trump(card):
        return 1
    return {"K": 9, "Q": 7, "C": 5, "J": 3}.get(card[:-1], 1)


def petit_sec(hand: list[str]) -> bool:
    """[TA-D3]: the Petit is the only trump, without the Excuse."""
    return [c for c in hand if is_trump(c)] == ["T1"] and EXCUSE not in hand


def score(contract: str, taker_points: float, oudlers: int, petit_au_bout: int | None = None,
          poignees: tuple[str, ...] = (), chelem_announced: bool = False,
          chelem_by: int | None = None) -> int:
    """[TA-S1]..[TA-S7]: what each defender pays the taker (negative: receives).

    ``petit_au_bout`` and ``chelem_by`` are sides (TAKER or DEFENCE) or None; ``poignees``
    lists the kinds shown by anyone ("simple", ...). The taker scores three times this.
    """
    diff = taker_points - THRESHOLD[oudlers]
    made = diff >= 0  # [TA-S1]
    sign = 1 if made else -1
    pab = {TAKER: 10, DEFENCE: -10, None: 0}[petit_au_bout]  # [TA-S4]
    base = (sign * (25 + abs(diff)) + pab) * MULTIPLIER[contract]  # [TA-S2][TA-S3]
    bonus = sign * sum(POIGNEE[p][1] for p in poignees)  # [TA-S5]: to the winning side
    if chelem_announced:  # [TA-S6]
        bonus += 400 if chelem_by == TAKER else -200
    elif chelem_by == TAKER:
        bonus += 200
    if chelem_by == DEFENCE:
        bonus -= 200
    total = base + bonus
    return int(total) if float(total).is_integer() else total  # type: ignore[return-value]


class Deal:
    """One deal of four-player French Tarot, from the hands as dealt to the score sheet entry."""

    def __init__(self, hands: list[list[str]], extra: dict[str, list[str]], dealer: int,
                 options: dict | None = None):
        self.options = {"poignee": True, "chelem_announce": True, **(options or {})}
        self.hands = [list(h) for h in hands]
        self.dog = list(extra["dog"])
        self.dealer = dealer
        self.first = (dealer + 1) % 4  # first to bid and to lead [TA-B1][TA-P1]
        self.calls: list[tuple[int, str]] = []
        self.taker: int | None = None
        self.contract: str | None = None
        self.ecart: list[str] = []
        self.chelem_announced = False
        self.poignees: list[tuple[int, str]] = []
        self.tricks: list[tuple[list[tuple[int, str]], int]] = []  # (cards in play order, winner)
        self.trick: list[tuple[int, str]] = []
        self.leader = self.first
        self.annulled = any(petit_sec(h) for h in self.hands)  # [TA-D3]
        self.phase = "over" if self.annulled else "bid"

    # ------------------------------------------------------------------ helpers
    def side(self, seat: int) -> int:
        return TAKER if seat == self.taker else DEFENCE

    def has_played(self, seat: int) -> bool:
        return bool(self.tricks) or any(s == seat for s, _ in self.trick)

    def led_suit(self) -> str | None:
        """[TA-P3]: the first card that is not the Excuse sets the suit to follow."""
        for _, c in self.trick:
            if c != EXCUSE:
                return suit_of(c)
        return None

    # ------------------------------------------------------------------ turn order
    def to_move(self) -> int:
        if self.phase == "over":
            return -1
        if self.phase == "bid":
            return (self.first + len(self.calls)) % 4
        if self.phase in ("discard", "announce"):
            assert self.taker is not None
            return self.taker
        return (self.leader + len(self.trick)) % 4

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_cards(self, seat: int) -> list[str]:
        """[TA-P2]..[TA-P4]: follow suit; else trump, over-trumping if able; the Excuse any time."""
        hand = self.hands[seat]
        led = self.led_suit()
        if led is None:
            return list(hand)
        excuse = [EXCUSE] if EXCUSE in hand else []
        if led != "T":
            follow = [c for c in hand if suit_of(c) == led]
            if follow:
                return follow + excuse
        trumps = [c for c in hand if is_trump(c)]
        if not trumps:
            return list(hand)
        high = max([trump_no(c) for _, c in self.trick if is_trump(c)], default=0)
        over = [c for c in trumps if trump_no(c) > high]
        return (over or trumps) + excuse

    def legal_discards(self) -> list[str]:
        """[TA-K3]: never a king or an oudler; a trump only when nothing else is left to put."""
        assert self.taker is not None
        hand = self.hands[self.taker]
        plain = [c for c in hand if not is_trump(c) and c != EXCUSE and not c.startswith("K")]
        if len(plain) >= 6 - len(self.ecart):
            return plain
        return plain + [c for c in hand if is_trump(c) and c not in OUDLERS]

    def legal(self) -> list[str]:
        seat = self.to_move()
        if seat < 0:
            return []
        if self.phase == "bid":
            best = max((BIDS.index(b) for _, b in self.calls if b != "pass"), default=-1)
            return sorted(["pass"] + ["bid " + b for b in BIDS[best + 1:]])  # [TA-B2]
        if self.phase == "discard":
            return sorted("discard " + c for c in self.legal_discards())
        if self.phase == "announce":
            return ["chelem", "pass"]
        acts = ["play " + c for c in self.legal_cards(seat)]
        if self.options["poignee"] and not self.has_played(seat) and all(s != seat for s, _ in self.poignees):
            count = sum(1 for c in self.hands[seat] if is_trump(c) or c == EXCUSE)  # [TA-H2]
            acts += ["poignee " + k for k, (n, _) in POIGNEE.items() if count >= n]
        return sorted(acts)

    # ------------------------------------------------------------------ acting
    def apply(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r} for seat {self.to_move()} in the {self.phase}: "
                             f"legal are {self.legal()} [TA-B2][TA-K3][TA-P2][TA-P3][TA-P4][TA-H1]")
        seat = self.to_move()
        word, _, arg = action.partition(" ")
        if self.phase == "bid":
            self.calls.append((seat, arg if word == "bid" else "pass"))
            if len(self.calls) == 4:
                self.end_auction()
        elif self.phase == "discard":
            self.hands[seat].remove(arg)
            self.ecart.append(arg)
            if len(self.ecart) == 6:
                self.start_play()
        elif self.phase == "announce":
            self.chelem_announced = word == "chelem"
            if self.chelem_announced:
                assert self.taker is not None
                self.leader = self.taker  # [TA-M1]: the announcer leads
            self.phase = "play"
        elif word == "poignee":
            self.poignees.append((seat, arg))
        else:
            self.hands[seat].remove(arg)
            self.trick.append((seat, arg))
            if len(self.trick) == 4:
                winner = self.trick_winner(self.trick)
                self.tricks.append((self.trick, winner))
                self.trick = []
                self.leader = winner  # [TA-P6]
                if len(self.tricks) == 18:
                    self.phase = "over"

    def end_auction(self) -> None:
        bids = [(BIDS.index(b), s) for s, b in self.calls if b != "pass"]
        if not bids:  # [TA-B3]: everybody passed
            self.phase = "over"
            return
        _, self.taker = max(bids)
        self.contract = BIDS[max(bids)[0]]
        if self.contract in ("prise", "garde"):  # [TA-K1]: the dog is shown and taken
            self.hands[self.taker] += self.dog
            self.phase = "discard"
        else:
            self.start_play()

    def start_play(self) -> None:
        self.phase = "announce" if self.options["chelem_announce"] else "play"

    def trick_winner(self, trick: list[tuple[int, str]]) -> int:
        """[TA-P5]; [TA-E3]: an Excuse led to the last trick by a side that won all the others wins."""
        leader, first = trick[0]
        if (first == EXCUSE and len(self.tricks) == 17
                and all(self.side(w) == self.side(leader) for _, w in self.tricks)):
            return leader
        cards = [(s, c) for s, c in trick if c != EXCUSE]
        trumps = [(s, c) for s, c in cards if is_trump(c)]
        if trumps:
            return max(trumps, key=lambda sc: trump_no(sc[1]))[0]
        led = suit_of(cards[0][1])
        same = [(s, c) for s, c in cards if suit_of(c) == led]
        return min(same, key=lambda sc: RANKS.index(sc[1][:-1]))[0]

    # ------------------------------------------------------------------ result
    def piles(self) -> tuple[list[list[str]], list[int]]:
        """Each side's cards and its half-point adjustment from the Excuse exchange [TA-E2]."""
        piles: list[list[str]] = [[], []]
        adjust = [0, 0]
        for i, (cards, winner) in enumerate(self.tricks):
            for seat, c in cards:
                if c == EXCUSE and i < 17 and self.side(seat) != self.side(winner):
                    # [TA-E2]: the owner keeps the Excuse and gives a half-point card for it
                    piles[self.side(seat)].append(c)
                    adjust[self.side(seat)] -= 1
                    adjust[self.side(winner)] += 1
                else:  # [TA-E3]: on the last trick the Excuse goes with the trick
                    piles[self.side(winner)].append(c)
        # [TA-K4]: the discard (prise, garde) and the dog (garde sans) count for the taker,
        # the dog counts for the defence at garde contre.
        if self.contract in ("prise", "garde"):
            piles[TAKER] += self.ecart
        else:
            piles[DEFENCE if self.contract == "garde contre" else TAKER] += self.dog
        return piles, adjust

    def result(self) -> dict:
        assert self.is_over()
        if self.taker is None:  # annulled or passed out: nothing is scored [TA-D3][TA-B3]
            return {"scores": [0, 0, 0, 0], "annulled": self.annulled, "passed": not self.annulled,
                    "taker": None, "contract": None}
        piles, adjust = self.piles()
        side_halves = [sum(halves(c) for c in p) + a for p, a in zip(piles, adjust)]
        taker_points = side_halves[TAKER] / 2
        oudlers = sum(1 for c in piles[TAKER] if c in OUDLERS)
        winners = [w for _, w in self.tricks]
        pab = None  # [TA-S4]
        last_cards = [c for _, c in self.tricks[17][0]]
        if "T1" in last_cards:
            pab = self.side(winners[17])
        elif last_cards[0] == EXCUSE and winners[17] == self.tricks[17][0][0][0] \
                and "T1" in [c for _, c in self.tricks[16][0]]:
            pab = self.side(winners[16])  # [TA-S4]: at a slam with the Excuse led last
        sides = {self.side(w) for w in winners}
        chelem_by = sides.pop() if len(sides) == 1 else None
        per_defender = score(self.contract or "", taker_points, oudlers, pab,
                             tuple(k for _, k in self.poignees), self.chelem_announced, chelem_by)
        return {
            "scores": [3 * per_defender if s == self.taker else -per_defender for s in range(4)],
            "taker": self.taker,
            "contract": self.contract,
            "taker_points": taker_points,
            "defence_points": side_halves[DEFENCE] / 2,
            "side_halves": side_halves,
            "oudlers": oudlers,
            "threshold": THRESHOLD[oudlers],
            "made": taker_points >= THRESHOLD[oudlers],
            "petit_au_bout": {TAKER: "taker", DEFENCE: "defence", None: None}[pab],
            "poignees": list(self.poignees),
            "chelem_announced": self.chelem_announced,
            "chelem": {TAKER: "taker", DEFENCE: "defence", None: None}[chelem_by],
            "tricks": [winners.count(s) for s in range(4)],
            "trick_winners": winners,
            "ecart": list(self.ecart),
            "annulled": False,
            "passed": False,
        }


def deal_random(rng: random.Random, dealer: int) -> tuple[list[list[str]], dict[str, list[str]]]:
    """[TA-D1][TA-D2]: packets of 3 from the dealer's right; 6 single cards to the dog, never
    the first or last card of the pack."""
    pack = list(PACK)
    rng.shuffle(pack)
    hands: list[list[str]] = [[] for _ in range(4)]
    dog: list[str] = []
    dog_after = set(rng.sample(range(23), 6))  # the packets (not the last) a dog card follows
    for packet in range(24):
        seat = (dealer + 1 + packet) % 4
        hands[seat] += [pack.pop() for _ in range(3)]
        if packet in dog_after:
            dog.append(pack.pop())
    assert not pack
    return hands, {"dog": dog}


def match_winner(entries: list[list[int]], options: dict | None = None) -> tuple[int, ...] | None:
    """[TA-G1]: after the agreed number of deals (``options["deals"]``), the highest total wins
    (all tied leaders are returned); None before that."""
    deals = (options or {}).get("deals", 4)
    if len(entries) < deals:
        return None
    totals = [sum(e[s] for e in entries) for s in range(4)]
    return tuple(s for s in range(4) if totals[s] == max(totals))
