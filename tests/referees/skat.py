"""Skat referee: one deal of three-handed Skat under the International Skat Order (ISkO).

A plain, independent implementation of docs/rules/skat.md, written to be checked against that
page line by line (rule ids such as [SK-B3] are cited in comments). It must never import rulekit.

Seats are 0, 1, 2 clockwise. The dealer deals; forehand (FH) = dealer + 1, middlehand (MH) =
dealer + 2, rearhand (RH) = the dealer himself [SK-D1].

Card notation: rank then suit, as rulekit writes cards: ``AS 10H KC QD JC 9D 8H 7S``.
Suits: C clubs, S spades, H hearts, D diamonds.

Action notation (each action is one string):

* bidding [SK-B1..B7]: ``bid 18`` (a speaker names a value; forehand's lone ``bid 18`` when both
  others passed without a bid), ``yes`` (the listener holds the value), ``pass``;
* the declarer's choice [SK-G1]: ``hand`` or ``take skat``; after taking it,
  ``discard X Y`` (two cards, sorted as strings) [SK-G2];
* the game [SK-G3..G6]: ``game clubs`` / ``game spades`` / ``game hearts`` / ``game diamonds`` /
  ``game grand`` / ``game null`` / ``game null ouvert``; after ``hand`` a suit or grand game may add
  one announcement: ``game clubs schneider``, ``game clubs schwarz``, ``game clubs ouvert``;
* play [SK-P1..P4]: ``play JC``.

Options (a dict, all optional):

* ``seeger_fabian`` (bool, default False): the house option "Seeger-Fabian" scoring [SK-M3];
* ``deals`` (int, default 36): the number of deals of a match, for :func:`match_winner` [SK-M1].

There is no chance inside a deal: the cards are given.
"""
from __future__ import annotations

import itertools
import random

SUITS = ["C", "S", "H", "D"]
RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7"]
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}  # [SK-C2]
SUIT_NAMES = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
BASE = {"D": 9, "H": 10, "S": 11, "C": 12, "grand": 24}  # [SK-V2]
JACKS = ["JC", "JS", "JH", "JD"]  # high to low [SK-C3]
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}  # [SK-V6]


def deck() -> list[str]:
    """The 32 cards [SK-C1]."""
    return [r + s for s in SUITS for r in RANKS]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def points(cards: list[str]) -> int:
    return sum(POINTS[rank(c)] for c in cards)


def bid_values() -> list[int]:
    """Every value a game can have: the legal bids [SK-B2].

    Suit games: base 9..12 times a multiplier 2..18 (at most 11 matadors + 7 levels);
    grand: 24 times 2..11 (at most 4 matadors + 7 levels); the four null values.
    """
    values = {b * k for b in (9, 10, 11, 12) for k in range(2, 19)}
    values |= {24 * k for k in range(2, 12)}
    values |= set(NULL_VALUES.values())
    return sorted(v for v in values if v >= 18)


BID_VALUES = bid_values()


# ---------------------------------------------------------------- ranking and matadors

def trump_sequence(game: str) -> list[str]:
    """The trumps of a suit game or grand, high to low [SK-C3][SK-C4]."""
    if game == "grand":
        return list(JACKS)
    return JACKS + [r + game for r in ["A", "10", "K", "Q", "9", "8", "7"]]


def matadors(cards: list[str], game: str) -> tuple[int, bool]:
    """(n, with_) : "with n" when the J♣ is held, else "without n" [SK-V3].

    n counts the unbroken run from the J♣ down the trump sequence of ``game`` that the
    cards hold (with) or lack (without).
    """
    seq = trump_sequence(game)
    with_ = seq[0] in cards
    n = 0
    for c in seq:
        if (c in cards) != with_:
            break
        n += 1
    return n, with_


def is_trump(card: str, game: str) -> bool:
    """Jacks are trumps in suit games and grand; the trump suit's cards in suit games [SK-C3]."""
    if game == "null":
        return False
    if rank(card) == "J":
        return True
    return game in SUITS and suit(card) == game


def follow_suit(card: str, game: str) -> str:
    """The suit a card belongs to for following: "T" for trumps [SK-P2]."""
    return "T" if is_trump(card, game) else suit(card)


def strength(card: str, game: str) -> int:
    """Order of cards within one suit (trumps form one suit); higher wins [SK-C3][SK-C5]."""
    if game == "null":
        return ["7", "8", "9", "10", "J", "Q", "K", "A"].index(rank(card))
    if rank(card) == "J":
        return 100 + ["JD", "JH", "JS", "JC"].index(card)
    return ["7", "8", "9", "Q", "K", "10", "A"].index(rank(card))


def trick_winner_index(cards: list[str], game: str) -> int:
    """Index (0..2, in play order) of the card that wins the trick [SK-P3]."""
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if follow_suit(c, game) == follow_suit(b, game):
            if strength(c, game) > strength(b, game):
                best = i
        elif follow_suit(c, game) == "T":
            best = i
    return best


# ---------------------------------------------------------------- the deal

class Deal:
    """One deal of Skat, from the auction to the score [SK-*]."""

    def __init__(self, hands: list[list[str]], extra: dict[str, list[str]], dealer: int,
                 options: dict | None = None) -> None:
        if len(hands) != 3 or any(len(h) != 10 for h in hands):
            raise ValueError("[SK-D2] three hands of ten cards")
        skat = list(extra.get("skat", []))
        if len(skat) != 2:
            raise ValueError("[SK-D2] the skat has two cards")
        if sorted(sum(hands, []) + skat) != sorted(deck()):
            raise ValueError("[SK-C1] the 32 cards, each once")
        self.options = dict(options or {})
        self.dealer = dealer
        self.fh, self.mh, self.rh = (dealer + 1) % 3, (dealer + 2) % 3, dealer  # [SK-D1]
        self.hands = [list(h) for h in hands]
        self.dealt = [list(h) for h in hands]
        self.skat = skat                     # the skat as dealt
        self.skat_pile: list[str] = list(skat)  # what scores for the declarer at the end [SK-S1]
        # auction [SK-B3..B7]
        self.phase = "bidding"
        self.bid = 0
        self.stage = 1                        # 1: MH to FH; 2: RH to the survivor; 3: FH alone
        self.speaker, self.listener = self.mh, self.fh
        self.awaiting = "speaker"
        self.history: list[tuple[int, str]] = []
        # declaration
        self.declarer = -1
        self.hand_game = False
        self.game = ""                        # "C" "S" "H" "D" "grand" "null"
        self.schneider_announced = False
        self.schwarz_announced = False
        self.ouvert = False
        self._best_matadors: dict[str, int] = {}  # hand game: best matadors over possible skats
        # play
        self.tricks: list[tuple[int, list[str], int]] = []  # (leader, cards, winner)
        self.current: list[str] = []
        self.leader = self.fh
        self.won: list[list[str]] = [[], [], []]
        self.thrown_in = False

    # ------------------------------------------------------------ interface

    def to_move(self) -> int:
        if self.phase == "over":
            return -1
        if self.phase == "bidding":
            return self.speaker if self.awaiting == "speaker" else self.listener
        if self.phase in ("skat", "discard", "declare"):
            return self.declarer
        return (self.leader + len(self.current)) % 3

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal(self) -> list[str]:
        if self.phase == "bidding":
            return sorted(self._bidding_legal())
        if self.phase == "skat":
            return ["hand", "take skat"]
        if self.phase == "discard":
            return sorted("discard " + " ".join(sorted(p))
                          for p in itertools.combinations(self.hands[self.declarer], 2))
        if self.phase == "declare":
            return sorted(self._declarations())
        if self.phase == "play":
            return sorted("play " + c for c in self._playable())
        return []

    def apply(self, action: str) -> None:
        if self.phase == "over":
            raise ValueError("the deal is over")
        if action not in self.legal():
            raise ValueError(self._why_illegal(action))
        seat = self.to_move()
        self.history.append((seat, action))
        if self.phase == "bidding":
            self._apply_bid(action)
        elif self.phase == "skat":
            if action == "hand":
                self.hand_game = True         # [SK-G1] the skat stays untouched
                self.phase = "declare"
            else:
                self.hands[self.declarer] += self.skat  # [SK-G2]
                self.phase = "discard"
        elif self.phase == "discard":
            cards = action.split()[1:]
            for c in cards:
                self.hands[self.declarer].remove(c)
            self.skat_pile = cards            # the discards score for the declarer [SK-S1]
            self.phase = "declare"
        elif self.phase == "declare":
            self._apply_declaration(action)
        else:
            self._apply_play(action.split()[1])

    # ------------------------------------------------------------ auction

    def _bidding_legal(self) -> list[str]:
        if self.stage == 3:                   # [SK-B6] FH alone after two passes without a bid
            return ["bid 18", "pass"]
        if self.awaiting == "listener":
            return ["yes", "pass"]            # [SK-B4]
        return ["pass"] + ["bid %d" % v for v in BID_VALUES if v > self.bid]  # [SK-B2][SK-B3]

    def _apply_bid(self, action: str) -> None:
        if self.stage == 3:
            if action == "pass":              # [SK-B7] all three passed
                self.thrown_in = True
                self.phase = "over"
            else:
                self._end_auction(self.fh, 18)
            return
        if action.startswith("bid"):
            self.bid = int(action.split()[1])
            self.awaiting = "listener"
        elif action == "yes":
            self.awaiting = "speaker"         # the listener holds; the speaker goes on
        elif self.awaiting == "listener":     # the listener passes: the speaker survives
            self._survivor(self.speaker)
        else:                                 # the speaker passes: the listener survives
            self._survivor(self.listener)

    def _survivor(self, seat: int) -> None:
        if self.stage == 1:                   # [SK-B5] RH now speaks to the survivor
            self.stage = 2
            self.speaker, self.listener = self.rh, seat
            self.awaiting = "speaker"
        elif self.bid == 0:                   # nobody named a value: FH may still play [SK-B6]
            self.stage = 3
            self.speaker = self.listener = self.fh
            self.awaiting = "speaker"
        else:
            self._end_auction(seat, self.bid)

    def _end_auction(self, seat: int, bid: int) -> None:
        self.declarer, self.bid = seat, bid
        self.phase = "skat"

    # ------------------------------------------------------------ declaration

    def _declarations(self) -> list[str]:
        """Every game the declarer may announce: its value can still reach the bid [SK-G6]."""
        out = []
        names = [(n, s) for n, s in SUIT_NAMES.items()] + [("grand", "grand")]
        for name, g in names:
            extras = ["", " schneider", " schwarz", " ouvert"] if self.hand_game else [""]
            for extra in extras:
                sch, schw, ouv = extra == " schneider", extra in (" schwarz", " ouvert"), extra == " ouvert"
                if self._max_value(g, sch, schw, ouv) >= self.bid:
                    out.append("game " + name + extra)
        for ouv in (False, True):
            if NULL_VALUES[(self.hand_game, ouv)] >= self.bid:
                out.append("game null" + (" ouvert" if ouv else ""))
        if not out:                           # [SK-G7] nothing reaches the bid: a suit or grand,
            out = ["game " + name for name, _ in names]  # lost as overbid [SK-V5]
        return out

    def _max_value(self, g: str, sch: bool, schw: bool, ouv: bool) -> int:
        """The highest value game ``g`` can reach for this declarer [SK-G6].

        The best case: schneider and schwarz reached; matadors from the 12 cards when the skat
        was taken, else the best count over every skat the declarer cannot rule out.
        """
        if not self.hand_game:             # his 12 cards: the discards still count [SK-V3]
            m, _ = matadors(self.dealt[self.declarer] + self.skat, g)
        elif g in self._best_matadors:
            m = self._best_matadors[g]
        else:
            own = self.hands[self.declarer]
            unseen = [c for c in deck() if c not in own]
            m = max(matadors(own + list(pair), g)[0] for pair in itertools.combinations(unseen, 2))
            self._best_matadors[g] = m
        levels = 1 + 1 + 1                    # game, schneider, schwarz reached
        if self.hand_game:
            levels += 1                       # hand
            levels += int(sch or schw)        # schneider announced (schwarz announces it too)
            levels += int(schw)               # schwarz announced
            levels += int(ouv)                # ouvert
        return BASE[g] * (m + levels)

    def _apply_declaration(self, action: str) -> None:
        words = action.split()[1:]
        name = words[0]
        self.game = "null" if name == "null" else ("grand" if name == "grand" else SUIT_NAMES[name])
        rest = words[1:]
        self.ouvert = "ouvert" in rest
        if self.game != "null":
            # [SK-G5] ouvert implies schwarz announced; schwarz implies schneider announced
            self.schwarz_announced = "schwarz" in rest or self.ouvert
            self.schneider_announced = "schneider" in rest or self.schwarz_announced
        self.phase = "play"
        self.leader = self.fh                 # [SK-P1]

    # ------------------------------------------------------------ play

    def _playable(self) -> list[str]:
        hand = self.hands[self.to_move()]
        if not self.current:
            return list(hand)
        led = follow_suit(self.current[0], self.game)
        same = [c for c in hand if follow_suit(c, self.game) == led]  # [SK-P2]
        return same or list(hand)

    def _apply_play(self, card: str) -> None:
        seat = self.to_move()
        self.hands[seat].remove(card)
        self.current.append(card)
        if len(self.current) < 3:
            return
        winner = (self.leader + trick_winner_index(self.current, self.game)) % 3  # [SK-P3]
        self.tricks.append((self.leader, self.current, winner))
        self.won[winner] += self.current
        self.current = []
        self.leader = winner                  # [SK-P4]
        if self.game == "null" and winner == self.declarer:
            self.phase = "over"               # [SK-P5] a null game is lost at the first trick
        elif len(self.tricks) == 10:
            self.phase = "over"

    # ------------------------------------------------------------ errors

    def _why_illegal(self, action: str) -> str:
        if self.phase == "bidding":
            if action.startswith("bid"):
                return "[SK-B2] a bid must be a game value above %d" % self.bid
            return "[SK-B4] the speaker bids or passes; the listener says yes or passes"
        if self.phase == "declare" and action.startswith("game"):
            return "[SK-G6] %r cannot reach the bid %d (or is not allowed here)" % (action, self.bid)
        if self.phase == "play" and action.startswith("play"):
            card = action.split()[-1]
            if card not in self.hands[self.to_move()]:
                return "[SK-P2] %s is not in the hand" % card
            return "[SK-P2] must follow the suit led (%s)" % self.current[0]
        return "not a legal action now: %r" % action

    # ------------------------------------------------------------ result

    def result(self) -> dict:
        """Scores per seat and the facts of the deal [SK-S*][SK-V*]."""
        if self.thrown_in:
            return {"scores": [0, 0, 0], "thrown_in": True, "declarer": -1}  # [SK-B7]
        if self.phase != "over":
            raise ValueError("the deal is not over")
        d = self.declarer
        tricks = [sum(1 for t in self.tricks if t[2] == s) for s in range(3)]
        decl_tricks = tricks[d]
        info: dict = {
            "declarer": d, "bid": self.bid, "hand": self.hand_game, "ouvert": self.ouvert,
            "game": {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}.get(self.game, self.game),
            "skat": list(self.skat), "skat_pile": list(self.skat_pile),
            "tricks": tricks, "thrown_in": False,
        }
        if self.game == "null":
            info.update(evaluate_null(self.hand_game, self.ouvert, decl_tricks, self.bid))
        else:
            declarer_points = points(self.won[d]) + points(self.skat_pile)  # [SK-S1]
            m, with_ = matadors(self.dealt[d] + self.skat, self.game)       # [SK-V3]
            info.update(matadors=m, with_=with_,
                        card_points={"declarer": declarer_points, "defenders": 120 - declarer_points})
            info.update(evaluate(self.game, self.bid, m, self.hand_game, self.schneider_announced,
                                 self.schwarz_announced, self.ouvert, declarer_points, decl_tricks))
        v = info["scored_value"]
        scores = [0, 0, 0]
        if self.options.get("seeger_fabian"):                        # [SK-M3]
            scores[d] = v + 50 if info["won"] else -2 * v - 50
            if not info["won"]:
                for s in range(3):
                    if s != d:
                        scores[s] = 40
        else:
            scores[d] = v if info["won"] else -2 * v                 # [SK-S5]
        info["scores"] = scores
        return info


def evaluate(game: str, bid: int, matadors_n: int, hand: bool, schneider_announced: bool,
             schwarz_announced: bool, ouvert: bool, declarer_points: int, declarer_tricks: int) -> dict:
    """Value and outcome of a suit game or grand [SK-V1..V5][SK-S2][SK-S3].

    ``declarer_points`` includes the skat; ``declarer_tricks`` is out of 10.
    Returns value, multiplier, levels, overbid, won and scored_value (the value the score is
    made of: the value, or for an overbid game the least multiple of the base reaching the bid).
    """
    schneider = declarer_points >= 90 or declarer_points <= 30 or schneider_announced
    schwarz = declarer_tricks in (0, 10) or schwarz_announced
    levels = {"game": 1, "hand": int(hand), "schneider": int(schneider),
              "schneider announced": int(schneider_announced),
              "schwarz": int(schwarz), "schwarz announced": int(schwarz_announced),
              "ouvert": int(ouvert)}                                   # [SK-V4]
    multiplier = matadors_n + sum(levels.values())
    base = BASE[game]
    value = base * multiplier                                          # [SK-V1]
    overbid = value < bid                                              # [SK-V5]
    won = (declarer_points >= 61 and not overbid                       # [SK-S2][SK-S3]
           and (not schneider_announced or declarer_points >= 90)
           and (not schwarz_announced or declarer_tricks == 10))
    scored = -(-bid // base) * base if overbid else value              # [SK-V5]
    return {"levels": levels, "multiplier": multiplier, "value": value, "overbid": overbid,
            "won": won, "scored_value": scored}


def evaluate_null(hand: bool, ouvert: bool, declarer_tricks: int, bid: int) -> dict:
    """Value and outcome of a null game: fixed values, won without a trick [SK-V6][SK-S4]."""
    value = NULL_VALUES[(hand, ouvert)]
    return {"value": value, "won": declarer_tricks == 0, "overbid": value < bid,
            "scored_value": value}


def deal_random(rng: random.Random, dealer: int) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Shuffle and deal 3 - skat 2 - 4 - 3, forehand first [SK-D2]."""
    cards = deck()
    rng.shuffle(cards)
    hands: list[list[str]] = [[], [], []]
    order = [(dealer + 1 + i) % 3 for i in range(3)]
    pos = 0
    skat: list[str] = []
    for packet in (3, "skat", 4, 3):
        if packet == "skat":
            skat, pos = cards[pos:pos + 2], pos + 2
            continue
        for seat in order:
            hands[seat] += cards[pos:pos + packet]
            pos += packet
    return hands, {"skat": skat}


def match_winner(entries: list[list[int]], options: dict | None = None) -> list[int] | None:
    """The seats with the highest total after the match's fixed number of deals [SK-M1][SK-M2].

    ``entries`` holds each deal's score list (thrown-in deals included: they count as deals).
    Returns None while deals remain; ties give several seats.
    """
    deals = (options or {}).get("deals", 36)
    if len(entries) < deals:
        return None
    totals = [sum(e[s] for e in entries) for s in range(3)]
    best = max(totals)
    return [s for s in range(3) if totals[s] == best]
