"""Doppelkopf referee: one deal under the tournament rules (TSR) of the Deutscher Doppelkopf-Verband.

A plain, independent implementation of docs/rules/doppelkopf.md, written to be checked against
that page (rule ids such as [DK-A3] are cited in comments). It must never import rulekit.

Seats are 0..3 clockwise; forehand is the dealer's left neighbour [DK-D1].

Card notation: rank then suit, as rulekit writes cards: ``10H QC AS KD JH 9S``. The pack holds
every card twice, so a hand lists a card twice when it holds both copies.

Action notation (each action is one string):

* the reservation query [DK-R1]: ``healthy`` or ``reservation``;
* naming the reservation [DK-R2..R4]: ``solo diamonds`` / ``solo hearts`` / ``solo spades`` /
  ``solo clubs`` / ``solo queens`` / ``solo jacks`` / ``solo fleshless`` / ``marriage``, and in
  the rounds of several reservations ``no solo`` (only for the holder of both Q♣);
* during play, at one's turn and before one's card [DK-A1..A7]: ``re`` or ``kontra`` (the
  player's own party), ``no 90``, ``no 60``, ``no 30``, ``schwarz`` (each implies the lower ones);
* ``play QC``.

Options (a dict, all optional):

* ``owes_solo`` (list of 4 bools, default all False): seats that still owe their compulsory solo
  in this round [DK-R3]; ``forced_solo`` (seat or None): that seat is made to play it [DK-M2];
* ``second_dulle`` ("never" default, "always", "except_last"): house option, the second 10♥
  beats the first [DK-T5];
* ``extra_points`` (bool, default False): house option, Doppelkopf / Fuchs gefangen / Karlchen
  [DK-X1..X4];
* ``deals`` (int, default 28): deals of a match, for :func:`match_winner` [DK-M1].

There is no chance inside a deal: the cards are given.
"""
from __future__ import annotations

import random

SUITS = ["C", "S", "H", "D"]
RANKS = ["A", "10", "K", "Q", "J", "9"]
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}  # [DK-C2]
SOLOS = ["diamonds", "hearts", "spades", "clubs", "queens", "jacks", "fleshless"]
SUIT_OF = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}
ANNOUNCE = ["no 90", "no 60", "no 30", "schwarz"]  # absage levels 1..4 [DK-A3]
THRESHOLD = {1: 90, 2: 60, 3: 30}                  # the limit each absage promises


def deck() -> list[str]:
    """The 48 cards: every card of A 10 K Q J 9 in four suits, twice [DK-C1]."""
    return [r + s for s in SUITS for r in RANKS for _ in range(2)]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def points(cards: list[str]) -> int:
    return sum(POINTS[rank(c)] for c in cards)


def trumps(game: str) -> list[str]:
    """The trumps of a game, high to low [DK-T1..T4].

    ``game`` is "normal" (also marriage and the diamond solo) or a solo name.
    """
    top = ["10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"]
    if game in ("normal", "diamonds", "hearts", "spades", "clubs"):
        s = "D" if game == "normal" else SUIT_OF[game]
        return top + [r + s for r in ("A", "10", "K", "9") if r + s != "10H"]
    if game == "queens":
        return ["QC", "QS", "QH", "QD"]
    if game == "jacks":
        return ["JC", "JS", "JH", "JD"]
    return []  # fleshless


def plain_order(game: str) -> list[str]:
    """Ranks of a plain suit, high to low [DK-T1..T4]."""
    if game == "queens":
        return ["A", "10", "K", "J", "9"]
    if game == "jacks":
        return ["A", "10", "K", "Q", "9"]
    if game == "fleshless":
        return ["A", "10", "K", "Q", "J", "9"]
    return ["A", "10", "K", "9"]


def is_trump(card: str, game: str) -> bool:
    return card in trumps(game)


def follow_suit(card: str, game: str) -> str:
    """The suit a card follows: "T" for every trump, else its printed suit [DK-P2]."""
    return "T" if is_trump(card, game) else suit(card)


def beats(card: str, best: str, game: str, second_dulle: str = "never", last_trick: bool = False) -> bool:
    """Does ``card``, played after ``best``, beat it? [DK-P3][DK-T5]"""
    t = trumps(game)
    if card == best:                     # equal cards: the first wins, but see [DK-T5]
        return card == "10H" and card in t and (
            second_dulle == "always" or (second_dulle == "except_last" and not last_trick))
    if card in t or best in t:
        return card in t and (best not in t or t.index(card) < t.index(best))
    order = plain_order(game)
    return suit(card) == suit(best) and order.index(rank(card)) < order.index(rank(best))


def trick_winner(cards: list[str], game: str, second_dulle: str = "never", last_trick: bool = False) -> int:
    """Index, in play order, of the card winning a trick [DK-P3]."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], game, second_dulle, last_trick):
            best = i
    return best


def extra_points(tricks: list[tuple[list[tuple[int, str]], int]], party: dict[int, str]) -> dict[str, int]:
    """Doppelkopf, Fuchs gefangen, Karlchen per party, from (plays, winner) tricks [DK-X1..X3]."""
    extras = {"re": 0, "kontra": 0}
    for i, (plays, winner) in enumerate(tricks):
        p = party[winner]
        if points([c for _, c in plays]) >= 40:              # [DK-X1]
            extras[p] += 1
        for seat, c in plays:                                # [DK-X2]
            if c == "AD" and party[seat] != p:
                extras[p] += 1
        if i == len(tricks) - 1:                             # [DK-X3]
            if next(c for s, c in plays if s == winner) == "JC":
                extras[p] += 1
    return extras


class Deal:
    """One deal of Doppelkopf, from the reservations to the score [DK-*]."""

    def __init__(self, hands: list[list[str]], extra: dict[str, list[str]], dealer: int,
                 options: dict | None = None) -> None:
        if len(hands) != 4 or any(len(h) != 12 for h in hands):
            raise ValueError("[DK-D2] four hands of twelve cards")
        if sorted(sum(hands, [])) != sorted(deck()):
            raise ValueError("[DK-C1] the 48 cards, each twice")
        self.options = dict(options or {})
        self.owes = list(self.options.get("owes_solo") or [False] * 4)
        self.dealer = dealer
        self.fh = (dealer + 1) % 4
        self.hands = [list(h) for h in hands]
        self.dealt = [list(h) for h in hands]
        self.history: list[tuple[int, str]] = []
        # game finding [DK-R*]
        self.phase = "reservations"
        self.queue: list[int] = [(self.fh + i) % 4 for i in range(4)]
        self.reserved: list[int] = []
        self.round = ""                  # "single", "rounds" (several reservations) or "forced"
        self.game = "normal"             # trump set: "normal" or a solo name
        self.kind = "normal"             # normal / marriage / marriage solo / silent marriage / solo
        self.soloist = -1
        self.compulsory = False
        self.marriage_holder = -1
        self.partner = -1                # the holder's partner, once the marriage is clarified
        self.clarified_at = 0            # number of the clarifying trick of a marriage [DK-H2]
        forced = self.options.get("forced_solo")
        if forced is not None:           # [DK-M2] no query: the forced seat names his solo
            self.queue, self.round, self.phase = [forced], "forced", "naming"
        # play
        self.leader = self.fh
        self.current: list[tuple[int, str]] = []
        self.tricks: list[tuple[int, list[tuple[int, str]], int]] = []  # leader, plays, winner
        # announcements per party: said (re/kontra), first (as a timely first announcement),
        # level (absagen 0..4) [DK-A*]
        self.ann = {"re": {"said": False, "first": False, "level": 0},
                    "kontra": {"said": False, "first": False, "level": 0}}

    # ------------------------------------------------------------ parties

    def party(self, seat: int) -> str:
        """The seat's party as the rules define it (known to the seat itself) [DK-P5][DK-H2]."""
        if self.kind in ("solo", "silent marriage", "marriage solo"):
            return "re" if seat == self.soloist else "kontra"
        if self.kind == "marriage":
            return "re" if seat in (self.marriage_holder, self.partner) else "kontra"
        return "re" if "QC" in self.dealt[seat] else "kontra"

    # ------------------------------------------------------------ interface

    def to_move(self) -> int:
        if self.phase == "over":
            return -1
        if self.phase in ("reservations", "naming"):
            return self.queue[0]
        return (self.leader + len(self.current)) % 4

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal(self) -> list[str]:
        if self.phase == "reservations":
            return ["healthy", "reservation"]
        if self.phase == "naming":
            return sorted(self._naming_legal())
        if self.phase == "play":
            return sorted(self._announcements() + ["play " + c for c in set(self._playable())])
        return []

    def apply(self, action: str) -> None:
        if self.phase == "over":
            raise ValueError("the deal is over")
        if action not in self.legal():
            raise ValueError(self._why_illegal(action))
        seat = self.to_move()
        self.history.append((seat, action))
        if self.phase == "reservations":
            self._apply_reservation(seat, action)
        elif self.phase == "naming":
            self._apply_naming(seat, action)
        elif action.startswith("play"):
            self._apply_play(seat, action.split()[1])
        else:
            self._apply_announcement(seat, action)

    # ------------------------------------------------------------ reservations [DK-R*]

    def _both_queens(self, seat: int) -> bool:
        return self.dealt[seat].count("QC") == 2

    def _apply_reservation(self, seat: int, action: str) -> None:
        self.queue.pop(0)
        if action == "reservation":
            self.reserved.append(seat)
        if self.queue:
            return
        if not self.reserved:            # [DK-R1] all healthy
            holder = next((s for s in range(4) if self._both_queens(s)), -1)
            if holder >= 0:              # [DK-H4] silent marriage: played as a solo
                self.kind, self.soloist = "silent marriage", holder
            self._start_play()
        elif len(self.reserved) == 1:    # [DK-R2] he names it
            self.queue, self.round, self.phase = list(self.reserved), "single", "naming"
        else:                            # [DK-R3] compulsory solos first, then voluntary ones
            self.queue = [s for s in self.reserved if self.owes[s]]
            self.queue += [s for s in self.reserved if not self.owes[s]]
            self.round, self.phase = "rounds", "naming"

    def _naming_legal(self) -> list[str]:
        seat = self.queue[0]
        out = ["solo " + s for s in SOLOS]
        if self.round == "single" and self._both_queens(seat):
            out.append("marriage")       # [DK-H1]
        if self.round == "rounds" and self._both_queens(seat):
            out.append("no solo")        # his reservation was the marriage [DK-R3]
        return out

    def _apply_naming(self, seat: int, action: str) -> None:
        self.queue.pop(0)
        if action == "marriage":         # [DK-H1]
            self.kind, self.marriage_holder = "marriage", seat
            self._start_play()
        elif action == "no solo":
            if not self.queue:           # cannot happen: two reservations hold a solo [DK-R3]
                raise ValueError("[DK-R3] someone must name a solo")
        else:
            self.kind, self.soloist, self.game = "solo", seat, action.split()[1]
            self.compulsory = self.round == "forced" or self.owes[seat]  # [DK-R3][DK-M2]
            self._start_play()

    def _start_play(self) -> None:
        self.phase = "play"
        # [DK-P1] forehand leads, except the soloist of a compulsory solo
        self.leader = self.soloist if self.compulsory else self.fh

    # ------------------------------------------------------------ play [DK-P*][DK-T*]

    def _playable(self) -> list[str]:
        hand = self.hands[self.to_move()]
        if not self.current:
            return list(hand)
        led = follow_suit(self.current[0][1], self.game)
        same = [c for c in hand if follow_suit(c, self.game) == led]  # [DK-P2]
        return same or list(hand)

    def _apply_play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.current.append((seat, card))
        if len(self.current) < 4:
            return
        best = trick_winner([c for _, c in self.current], self.game,
                            self.options.get("second_dulle", "never"), len(self.tricks) == 11)
        winner = self.current[best][0]
        self.tricks.append((self.leader, self.current, winner))
        self.current = []
        self.leader = winner             # [DK-P4]
        if self.kind == "marriage" and self.partner < 0:
            if winner != self.marriage_holder:   # [DK-H2] the clarifying trick
                self.partner, self.clarified_at = winner, len(self.tricks)
            elif len(self.tricks) == 3:          # [DK-H3] he took the first three himself
                self.kind, self.soloist, self.clarified_at = "marriage solo", self.marriage_holder, 3
        if len(self.tricks) == 12:
            self.phase = "over"

    # ------------------------------------------------------------ announcements [DK-A*]

    def _shift(self) -> int:
        """Cards by which a marriage's clarifying trick moves every deadline [DK-H5]."""
        return max(self.clarified_at - 1, 0)

    def _needed(self, level: int) -> int:
        """Cards a player must still hold: re/kontra 11, no 90 10, ... schwarz 7 [DK-A2][DK-A3]."""
        return 11 - level - self._shift()

    def _announcements(self) -> list[str]:
        seat = self.to_move()
        if self.kind == "marriage" and self.partner < 0:
            return []                    # [DK-H5] nothing before the clarifying trick
        mine = self.party(seat)
        other = "kontra" if mine == "re" else "re"
        me, opp = self.ann[mine], self.ann[other]
        n = len(self.hands[seat])
        out = []
        if not me["said"]:
            reply_ok = opp["said"] and n >= self._needed(opp["level"]) - 1  # [DK-A5]
            if n >= self._needed(0) or reply_ok:
                out.append(mine)         # [DK-A2]
        may_raise = me["first"] or (not me["said"] and n >= self._needed(0))  # [DK-A4][DK-A6]
        if may_raise and me["level"] < 4 and n >= self._needed(me["level"] + 1):
            out += ANNOUNCE[me["level"]:]  # skipping: every skipped level is still in time [DK-A6]
        return out

    def _apply_announcement(self, seat: int, action: str) -> None:
        mine = self.party(seat)
        me = self.ann[mine]
        n = len(self.hands[seat])
        if not me["said"]:               # an absage includes the party's re/kontra [DK-A6]
            me["said"], me["first"] = True, n >= self._needed(0)
        if action in ANNOUNCE:
            me["level"] = max(me["level"], ANNOUNCE.index(action) + 1)

    def _why_illegal(self, action: str) -> str:
        if self.phase == "play" and action.startswith("play"):
            card = action.split()[1]
            if card not in self.hands[self.to_move()]:
                return "[DK-P2] %s is not in the hand" % card
            return "[DK-P2] must follow %s" % self.current[0][1]
        if self.phase == "play":
            return "[DK-A2..A6] %r is not allowed now (deadline, party or order)" % action
        if self.phase == "naming":
            return "[DK-R2][DK-H1] %r cannot be named now" % action
        return "[DK-R1] say healthy or reservation"

    # ------------------------------------------------------------ result [DK-W*][DK-V*][DK-X*]

    def result(self) -> dict:
        if self.phase != "over":
            raise ValueError("the deal is not over")
        seats = {"re": [s for s in range(4) if self.party(s) == "re"],
                 "kontra": [s for s in range(4) if self.party(s) == "kontra"]}
        won_cards = {p: [c for t in self.tricks if self.party(t[2]) == p for _, c in t[1]]
                     for p in seats}
        trick_count = {p: sum(1 for t in self.tricks if self.party(t[2]) == p) for p in seats}
        pts = {p: points(won_cards[p]) for p in seats}
        winner = winning_party(pts["re"], trick_count, self.ann)
        value, details = game_value(winner, pts, trick_count, self.ann, self.kind == "normal"
                                    or self.kind == "marriage")
        extras = {"re": 0, "kontra": 0}
        if self.options.get("extra_points") and self.kind in ("normal", "marriage"):
            extras = extra_points([(plays, w) for _, plays, w in self.tricks],
                                  {x: self.party(x) for x in range(4)})
        solo = self.kind in ("solo", "silent marriage", "marriage solo")
        if winner is None:               # [DK-W3] nobody wins: only the extra points count
            per_re = extras["re"] - extras["kontra"]
        else:
            loser = "kontra" if winner == "re" else "re"
            net = value + extras[winner] - extras[loser]  # [DK-X4]
            per_re = net if winner == "re" else -net
        scores = [0, 0, 0, 0]
        for s in range(4):
            sign = 1 if self.party(s) == "re" else -1
            scores[s] = sign * per_re * (3 if solo and s == self.soloist else 1)  # [DK-V4]
        return {
            "scores": scores, "kind": self.kind, "game": self.game, "soloist": self.soloist,
            "compulsory": self.compulsory, "same_dealer_next": self.compulsory
            and self.options.get("forced_solo") is None,   # [DK-M1]
            "re": seats["re"], "kontra": seats["kontra"], "partner": self.partner,
            "card_points": pts, "tricks": [sum(1 for t in self.tricks if t[2] == s) for s in range(4)],
            "party_tricks": trick_count, "winner": winner, "value": value, "value_details": details,
            "extra_points": extras,
            "announcements": {p: dict(a) for p, a in self.ann.items()},
        }


def winning_party(re_points: int, tricks: dict[str, int], ann: dict) -> str | None:
    """Which party won, or None when neither reached its target [DK-W1..W3]."""
    ko_points = 240 - re_points
    got = {"re": re_points, "kontra": ko_points}

    def reaches(p: str) -> bool:
        other = "kontra" if p == "re" else "re"
        own, opp = ann[p]["level"], ann[other]["level"]
        if own:                          # bound by its own absage [DK-W2]
            return tricks[other] == 0 if own == 4 else got[other] < THRESHOLD[own]
        if opp:                          # the other side's absage lowers the bar [DK-W2]
            return tricks[p] > 0 if opp == 4 else got[p] >= THRESHOLD[opp]
        if ann["kontra"]["said"] and not ann["re"]["said"]:   # [DK-W1] only kontra said
            return got[p] >= (120 if p == "re" else 121)
        return got[p] >= (121 if p == "re" else 120)

    for p in ("re", "kontra"):
        if reaches(p):
            return p
    return None


def game_value(winner: str | None, pts: dict[str, int], tricks: dict[str, int], ann: dict,
               normal_game: bool) -> tuple[int, list[str]]:
    """The game points of the winning party, with their reasons [DK-V1..V3]."""
    if winner is None:
        return 0, []
    loser = "kontra" if winner == "re" else "re"
    why = ["won"]
    if normal_game and winner == "kontra":
        why.append("against the queens of clubs")      # gegen die Alten [DK-V1]
    for limit in (90, 60, 30):
        if pts[loser] < limit:
            why.append("under %d" % limit)
    if tricks[loser] == 0:
        why.append("schwarz")
    value = len(why)
    for p in ("re", "kontra"):                          # [DK-V2]
        if ann[p]["said"]:
            why.append("%s said" % p)
            value += 2
        for lvl in range(1, ann[p]["level"] + 1):
            why.append("%s %s" % (p, ANNOUNCE[lvl - 1]))
            value += 1
    for p, q in (("re", "kontra"), ("kontra", "re")):   # [DK-V3] reached against an absage
        for lvl, need in ((1, 120), (2, 90), (3, 60), (4, 30)):
            if ann[q]["level"] >= lvl and pts[p] >= need:
                why.append("%s %d against %s" % (p, need, ANNOUNCE[lvl - 1]))
                value += 1
    return value, why


def deal_random(rng: random.Random, dealer: int) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Shuffle and deal four rounds of three cards from the dealer's left [DK-D2]."""
    cards = deck()
    rng.shuffle(cards)
    hands: list[list[str]] = [[], [], [], []]
    pos = 0
    for _ in range(4):
        for i in range(4):
            hands[(dealer + 1 + i) % 4] += cards[pos:pos + 3]
            pos += 3
    return hands, {}


def match_winner(entries: list[list[int]], options: dict | None = None) -> list[int] | None:
    """The seats with the highest total once the round's deals are played [DK-M1].

    Returns None while deals remain; ties give several seats.
    """
    deals = (options or {}).get("deals", 28)
    if len(entries) < deals:
        return None
    totals = [sum(e[s] for e in entries) for s in range(4)]
    best = max(totals)
    return [s for s in range(4) if totals[s] == best]
