"""Portable Bridge Notation (PBN): read a deal, write a played deal.

Reading takes the ``Deal``, ``Dealer`` and optional ``Vulnerable`` tags of the
first game in a file and tolerates what real files contain: ``;`` and ``{...}``
comments, ``[Tag "?"]`` or ``"-"`` for unknown values, voids written as ``-``
or left empty, ``T`` or ``10``.  Writing gives ``Deal``, ``Dealer``,
``Vulnerable``, ``Auction``, ``Contract``, ``Declarer``, ``Result``, ``Score``
and the ``Play`` section for one finished deal of a four-handed side-scored
variant whose seats are named N E S W.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulekit.errors import RulekitError

SEATS = "NESW"
PBN_SUITS = "SHDC"
#: the rank tokens PBN can write, high to low (``10`` is written ``T``).
_PBN_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
_TAG = re.compile(r'\[\s*(\w+)\s+"([^"]*)"\s*\]')
_VUL = {"NONE": "none", "LOVE": "none", "-": "none", "NS": "NS", "EW": "EW", "ALL": "both", "BOTH": "both"}


class PBNError(RulekitError):
    """A PBN file that cannot be used (with the line of the problem)."""


@dataclass
class PBNDeal:
    """One deal read from PBN.

    :ivar dealer: seat index (N=0, E=1, S=2, W=3).
    :ivar hands: seat index -> list of card texts (``AS``, ``10H``...).
    :ivar vulnerable: ``none``, ``NS``, ``EW`` or ``both`` (``None`` when not given).
    :ivar tags: every tag read (name -> value).
    """

    dealer: int
    hands: dict
    vulnerable: str | None
    tags: dict

    def deck_order(self) -> list:
        """The cards in dealing order for a one-card-at-a-time deal from the dealer's left."""
        order = []
        for i in range(13):
            for k in range(4):
                order.append(self.hands[(self.dealer + 1 + k) % 4][i])
        return order

    def vulnerability(self, side_names) -> list:
        """Vulnerability per side (in ``side_names`` order, e.g. ``("NS", "EW")``)."""
        v = self.vulnerable or "none"
        return [v == "both" or v == name for name in side_names]


def _strip_comments(text: str) -> str:
    text = re.sub(r"\{[^}]*\}", lambda m: "\n" * m.group(0).count("\n"), text)
    return "\n".join(line.split(";", 1)[0] if not line.lstrip().startswith("[") else line
                     for line in text.splitlines())


def read(text: str, source: str = "<pbn>") -> PBNDeal:
    """Read the first deal of a PBN text.

    :raises PBNError: no Deal tag, a malformed deal (with its line), or a deal that is
        not 52 distinct cards in four hands of 13.
    """
    tags: dict = {}
    lines: dict = {}
    for lineno, line in enumerate(_strip_comments(text).splitlines(), 1):
        for m in _TAG.finditer(line):
            name = m.group(1)
            if name in tags:  # only the first game of the file
                continue
            tags[name] = m.group(2).strip()
            lines[name] = lineno
    deal = tags.get("Deal")
    if not deal or deal == "?":
        raise PBNError(f"{source}: no [Deal \"...\"] tag (expected e.g. [Deal \"N:AKQ.JT9.876.5432 ...\"])")
    where = f"{source}:{lines['Deal']}"
    if len(deal) < 2 or deal[0].upper() not in SEATS or deal[1] != ":":
        raise PBNError(f"{where}: Deal must start with the first hand's seat and a colon, e.g. \"N:\"")
    first = SEATS.index(deal[0].upper())
    parts = deal[2:].split()
    if len(parts) != 4:
        raise PBNError(f"{where}: Deal needs 4 hands separated by spaces, found {len(parts)}")
    hands = {}
    seen = set()
    for k, part in enumerate(parts):
        seat = (first + k) % 4
        suits = part.split(".")
        if part == "-":
            raise PBNError(f"{where}: hand {SEATS[seat]} is unknown ('-'); every hand must be given")
        if len(suits) != 4:
            raise PBNError(f"{where}: hand {SEATS[seat]} needs 4 suits S.H.D.C separated by dots: {part!r}")
        cards = []
        for suit, ranks in zip(PBN_SUITS, suits):
            ranks = ranks.strip().upper().replace("10", "T")
            if ranks == "-":
                ranks = ""
            for r in ranks:
                if r not in "AKQJT98765432":
                    raise PBNError(f"{where}: {r!r} is not a rank (expected AKQJT98765432) in hand {SEATS[seat]}")
                card = ("10" if r == "T" else r) + suit
                if card in seen:
                    raise PBNError(f"{where}: {card} appears twice")
                seen.add(card)
                cards.append(card)
        if len(cards) != 13:
            raise PBNError(f"{where}: hand {SEATS[seat]} has {len(cards)} cards (expected 13)")
        hands[seat] = cards
    dealer_tag = tags.get("Dealer", "?").upper()
    if dealer_tag in ("", "?"):
        dealer = first
    elif dealer_tag in SEATS:
        dealer = SEATS.index(dealer_tag)
    else:
        raise PBNError(f"{source}:{lines['Dealer']}: Dealer must be N, E, S or W, not {tags['Dealer']!r}")
    vul_tag = tags.get("Vulnerable")
    vul = None
    if vul_tag not in (None, "", "?"):
        key = vul_tag.upper()
        if key not in _VUL:
            raise PBNError(f"{source}:{lines['Vulnerable']}: Vulnerable must be None, NS, EW or All, "
                           f"not {vul_tag!r}")
        vul = _VUL[key]
    return PBNDeal(dealer, hands, vul, tags)


def _card_text(deck, card: int) -> str:
    """A card as PBN writes it in the play section: suit, then rank (``SK``, ``HT``)."""
    rank = deck.rank_of(card)
    return f"{deck.suit_of(card)}{'T' if rank == '10' else rank}"


def _play_lines(deck, hand) -> list[str]:
    """The play section of the finished ``hand`` (PBN 2.1, 3.6): the opening leader's seat, then
    one line per trick with a column per seat in seat order from the opening leader (N E S W
    clockwise), so a column is always the same player's, whoever led the trick.  A seat that
    played no card to a trick (one that sat it out) has ``-``; when play stopped before every
    card was played (a tricks phase's ``end_if``), ``*`` ends the section.  Empty when no card
    was played.
    """
    tricks = hand.tricks
    if not tricks:
        return []
    first = tricks[0][0]
    seats = [(first + k) % 4 for k in range(4)]
    lines = [f'[Play "{SEATS[first]}"]']
    played = 0
    for _leader, plays, _winner, _named in tricks:
        by_seat = dict(plays)
        played += len(by_seat)
        lines.append(" ".join(_card_text(deck, by_seat[s]) if s in by_seat else "-" for s in seats))
    if played < sum(bin(m).count("1") for m in hand.dealt):
        lines.append("*")
    return lines


def _hand_text(deck, mask: int) -> str:
    out = []
    for suit in PBN_SUITS:
        ranks = [deck.rank_of(c) for c in range(deck.size) if mask >> c & 1 and deck.suit_of(c) == suit]
        order = "AKQJ1098765432"
        ranks.sort(key=lambda r: order.index(r[0]))
        out.append("".join("T" if r == "10" else r for r in ranks))
    return ".".join(out)


def board_number(state, hand) -> int:
    """The 1-based board number of ``hand``: a deal thrown in and redealt by the same dealer
    (``all_pass: redeal_same``, Chicago) is not a board of its own, so it and its redeal
    share one number.  Such a deal is the one that left no row on the sheet."""
    scored = {r.hand for r in state.sheet.rows}
    return 1 + sum(1 for h in state.hand_log if h.number < hand.number and (h.number in scored or not h.void))


def write(state, hand) -> str:
    """PBN text of a finished ``hand`` of ``state`` (tags Event..Score, the auction, the play).

    :raises PBNError: when the variant is not four-handed with sides, or its deck has ranks PBN
        cannot write (11, 12, 13).
    """
    v = state.variant
    if v.players != 4 or not v.scoring.by_side:
        raise PBNError("PBN export needs a four-handed game with sides (seats N E S W)")
    deck = v.deck
    if sorted(deck.suits) != sorted(PBN_SUITS) or deck.has_copies:
        raise PBNError("PBN export needs a pack of the four suits S H D C, each card once "
                       f"(this pack has {' '.join(deck.suits)}{', in copies' if deck.has_copies else ''})")
    beyond = [r for r in deck.ranks if r not in _PBN_RANKS]
    if beyond:  # PBN writes one character a rank: 11, 12, 13 have none
        raise PBNError(f"PBN export needs ranks of {' '.join(_PBN_RANKS)} (this deck has {' '.join(beyond)})")
    d = hand.dealer
    deal = f"{SEATS[d]}:" + " ".join(_hand_text(deck, hand.dealt[(d + k) % 4]) for k in range(4))
    vul = hand.vulnerable
    ns, ew = (bool(vul[0]), bool(vul[1])) if len(vul) >= 2 else (False, False)
    vul_text = "All" if ns and ew else "NS" if ns else "EW" if ew else "None"
    tags = [("Event", "rulekit"), ("Site", "-"), ("Board", str(board_number(state, hand))), ("Dealer", SEATS[d]),
            ("Vulnerable", vul_text), ("Deal", deal)]
    if hand.contract is None:
        tags += [("Declarer", ""), ("Contract", "Pass"), ("Result", ""), ("Score", "")]
    else:
        c = hand.contract.text + ("", "X", "XX")[hand.doubled]
        side = v.side_of[hand.declarer]
        won = sum(hand.won[s] for s in v.sides[side])
        score = (hand.entries or [0, 0])
        ns_score = score[0] - score[1]
        tags += [("Declarer", SEATS[hand.declarer]), ("Contract", c), ("Result", str(won)),
                 ("Score", f"NS {ns_score}" if ns_score >= 0 else f"EW {-ns_score}")]
    lines = [f'[{k} "{val}"]' for k, val in tags]
    lines.append(f'[Auction "{SEATS[d]}"]')
    calls = [("Pass" if t == "pass" else t) for _s, t in hand.calls]
    if calls:
        for i in range(0, len(calls), 4):
            lines.append(" ".join(calls[i:i + 4]))
    if hand.contract is not None:
        lines += _play_lines(deck, hand)
    return "\n".join(lines) + "\n"
