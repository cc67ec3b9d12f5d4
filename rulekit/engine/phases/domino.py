"""``domino`` phase: a layout of rows built up and down from starter cards (Sevens / Fan Tan /
Card Dominoes; rules/king.md [K8]).  Variant files may still say ``kind: layout``, its former name.

From the eldest hand, in turn, each player must add one card if he can: a card of a
``starts`` rank begins the row of its suit (one row per suit); otherwise the next
higher or next lower card (``order``, low to high) of a row's suit at that row's end.
A player who cannot play passes (``pass``); a player with no cards left is skipped.
The phase ends when ``end_when_out`` players have no cards left (default: all but
one), or when every player still holding cards has passed in a row (no one can
play).  Scoring formulas read ``cards_left`` (cards still held) and ``out_place``
(1 for the first player out, 2 for the next...; 0 for a player not out).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.cards import SUIT_SYMBOLS, bits
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, bare_card_play, next_holder, seat_name
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class DominoSpec(PhaseSpec):
    """The compiled ``domino`` entry.

    :ivar starts: bitmask of the cards that begin a row.
    :ivar up, down: card -> the card next above / below it in its suit's ``order`` (or -1).
    :ivar end_when_out: players out of cards that end the phase.
    :ivar order: the rank order, low to high (for messages).
    """

    starts: int
    up: tuple
    down: tuple
    end_when_out: int
    order: tuple


@dataclass
class DominoData(KindData):
    """``domino``'s data for one hand: ``rows``, suit -> ``(low card, high card)`` of its row, in
    the order started; ``order``, each turn in order as ``(seat, card laid)``, card -1 for a pass;
    ``out``, seats out of cards in the order they went out; ``passes``, passes in a row."""

    rows: dict[str, tuple[int, int]] = field(default_factory=dict)
    order: list[tuple[int, int]] = field(default_factory=list)
    out: list[int] = field(default_factory=list)
    passes: int = 0


def playable(spec: DominoSpec, rows: dict, deck) -> int:
    """Bitmask of the cards that may be laid now: starters of suits without a row, and the
    cards next to each row's ends (``rows``: suit -> ``(low card, high card)``)."""
    m = 0
    for c in bits(spec.starts):
        if deck.suit_of(c) not in rows:
            m |= 1 << c
    for low, high in rows.values():
        if spec.down[low] >= 0:
            m |= 1 << spec.down[low]
        if spec.up[high] >= 0:
            m |= 1 << spec.up[high]
    return m


class DominoKind(PhaseKind[DominoSpec]):
    """The ``domino`` kind (see the module docstring)."""

    name = "domino"
    aliases = ("layout",)
    schema = {'description': 'A domino layout: rows started by given cards, one per suit, built up or down by '
                             'rank order at either end; a player who cannot play passes; no tricks.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind', 'starts', 'order'],
              'properties': {'kind': True,
                             'starts': {'description': 'Ranks whose cards begin the row of their suit.',
                                        'type': 'array', 'minItems': 1,
                                        'items': {'type': ['string', 'integer']}},
                             'order': {'description': 'The rank order rows are built in, low to high '
                                                      '(e.g. "7 8 9 10 J Q K A").',
                                       'type': 'string'},
                             'end_when_out': {'description': 'The phase ends when this many players have no '
                                                             'cards left (default: all but one).',
                                              'type': 'integer', 'minimum': 1, 'maximum': 8}}}
    label = "lay"
    position = "last"
    stands_for = "tricks"
    example = 'layout: {kind: domino, starts: [J], order: "7 8 9 10 J Q K A", end_when_out: 3}'

    # ------------------------------------------------------------------ compile time
    def compile(self, c, name: str, p: dict, path: tuple):
        """Every rank known; the order lists each rank of the deck once."""
        deck = c.deck
        order = tuple(str(p["order"]).split())
        ok = True
        gaps = [r + s for s in deck.suits for r in deck.ranks if r + s not in deck.index]
        if deck.has_copies or gaps:
            c.err(path + ("kind",), "rows are built from one card of every rank in every suit (expected a pack "
                  "without copies " + (f"that holds {', '.join(gaps[:4])}" if gaps else "of its cards") + ")")
            return None
        for r in order:
            if r not in deck.ranks:
                c.err(path + ("order",), f"unknown rank {r}{c.close(r, deck.ranks)} "
                      f"(expected ranks of {' '.join(deck.ranks)})")
                ok = False
        if ok and sorted(order) != sorted(deck.ranks):
            c.err(path + ("order",), f"the order must list every rank once (expected {' '.join(deck.ranks)} "
                  f"in building order)")
            ok = False
        starts = 0
        for i, r in enumerate(p["starts"]):
            if str(r) not in deck.ranks:
                c.err(path + ("starts", i), f"unknown rank {r}{c.close(str(r), deck.ranks)} "
                      f"(expected one of {' '.join(deck.ranks)})")
                ok = False
                continue
            for s in deck.suits:
                starts |= 1 << deck.index[str(r) + s]
        n = c.player_count
        out = p.get("end_when_out", n - 1)
        if out > n:
            c.err(path + ("end_when_out",), f"{out} players cannot run out of cards: there are {n}")
            ok = False
        if not ok:
            return None
        up, down = [-1] * deck.size, [-1] * deck.size
        for s in deck.suits:
            cards = [deck.index[r + s] for r in order]
            for lo, hi in zip(cards, cards[1:]):
                up[lo], down[hi] = hi, lo
        return DominoSpec(self.name, name, starts, tuple(up), tuple(down), out, order)

    def variables(self, spec) -> dict:
        """``cards_left`` and ``out_place`` per player."""
        return {"cards_left": (0, 52), "out_place": (0, 8)}

    def pad_result(self, spec, variant, name: str, facts: dict) -> tuple:
        """``cards_left``: 0 to the cards of a hand; ``out_place``: 0 (not out) to the players
        who run out before the end."""
        if name == "cards_left":
            return 0, facts.get("cards", 52), ""
        return 0, spec.end_when_out, ""

    def pad_refuse(self, spec, variant, facts: dict, values: list) -> str:
        """The layout ends when ``end_when_out`` players are out of cards, or when nobody can
        lay a card, which cannot happen while every card of the pack is in play (each row's
        next card is held by someone); places out are 1, 2... one each."""
        left = [v["cards_left"] for v in values if "cards_left" in v]
        places = sorted(p for v in values if (p := v.get("out_place", 0)))
        every = facts.get("cards", 0) * variant.players >= variant.deck.size
        if left:
            out = left.count(0)
            if out > spec.end_when_out or (every and out != spec.end_when_out):
                return (f"cards left: {' '.join(str(x) for x in left)}: {out} player{'' if out == 1 else 's'} "
                        f"out of cards, but the layout ends when {spec.end_when_out} "
                        f"{'are' if spec.end_when_out > 1 else 'is'}"
                        + ("" if not every else " (with every card in play someone can always lay one)"))
        if places and places != list(range(1, len(places) + 1)):
            return f"out place: {' '.join(str(p) for p in places)} are not 1, 2... one player each"
        if left and places and sorted(i for i, v in enumerate(values) if v.get("out_place", 0)) != \
                sorted(i for i, x in enumerate(left) if x == 0):
            return "out place: the players out of cards are those with no cards left"
        return ""

    def values(self, variant, hand, spec) -> list:
        """Per seat: cards still held, and the place in which he ran out (0: not out)."""
        d = self.data_of(hand)
        out = d.out if d is not None else []
        return [{"cards_left": hand.hands[s].bit_count(), "out_place": out.index(s) + 1 if s in out else 0}
                for s in range(variant.players)]

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass`` (its plays are cards)."""
        return ("pass",)

    def describe(self, spec) -> str:
        """One sentence."""
        return (f"Cards are laid in rows, one per suit, built up and down in the order {' '.join(spec.order)} "
                f"from the cards that start them; a player who cannot lay a card passes; the round ends when "
                f"{spec.end_when_out} players are out of cards.")

    # ------------------------------------------------------------------ rules
    def start(self, state: Table) -> bool:
        """No rows yet; the eldest hand plays first."""
        h = state.hand
        h.phase_state[self.name] = DominoData()
        h.to_move = h.eldest
        return any(h.hands)

    def _can(self, state: Table) -> int:
        h = state.hand
        return h.hands[h.to_move] & playable(KIND.spec(state), self.data(state).rows, state.variant.deck)

    def legal(self, state: Table) -> list:
        """``play CARD`` for each card that may be laid, in deck order; else ``pass``."""
        m = self._can(state)
        return [state.play_action(c) for c in bits(m)] if m else [PASS]

    def check(self, state: Table, action: Action) -> None:
        """:raises IllegalActionError: a pass while able to lay a card, or a card that fits no row."""
        deck = state.variant.deck
        h = state.hand
        m = self._can(state)
        if action.kind == "pass":
            if m:
                raise IllegalActionError(f"you must lay a card when you can: you may lay "
                                         f"{' '.join(deck.pretty(c) for c in bits(m))}")
            return
        if action.kind != "play" or action.suit:
            raise IllegalActionError("lay a card now (play CARD), or pass when you cannot")
        c = action.card
        if not h.hands[h.to_move] >> c & 1:
            raise IllegalActionError(f"you do not hold {deck.pretty(c)}")
        if not m >> c & 1:
            why = ("it does not start a row and fits no row's end" if deck.suit_of(c) in self.data(state).rows
                   or not KIND.spec(state).starts >> c & 1 else "its suit's row is already started")
            shown = " ".join(deck.pretty(x) for x in bits(m)) if m else "none: pass"
            raise IllegalActionError(f"{deck.pretty(c)} cannot be laid: {why} (you may lay {shown})")

    def apply(self, state: Table, action: Action) -> bool:
        """Lay the card (or pass); True when enough players are out or nobody can play."""
        h = state.hand
        spec = KIND.spec(state)
        d = self.data(state)
        seat = h.to_move
        if action.kind == "pass":
            d.passes += 1
            d.order.append((seat, -1))
        else:
            c = action.card
            suit = state.variant.deck.suit_of(c)
            h.hands[seat] ^= 1 << c
            row = d.rows.get(suit)   # (a new tuple each time: a world's copy shares none)
            if row is None:
                d.rows[suit] = (c, c)
            elif spec.down[row[0]] == c:
                d.rows[suit] = (c, row[1])
            else:
                d.rows[suit] = (row[0], c)
            d.order.append((seat, c))
            d.passes = 0
            if not h.hands[seat]:
                d.out.append(seat)
        holding = sum(1 for m in h.hands if m)
        if len(d.out) >= spec.end_when_out or holding == 0 or d.passes >= holding:
            h.to_move = -1
            return True
        h.to_move = next_holder(state, seat)
        return False

    # ------------------------------------------------------------------ words and views
    def parse(self, text: str, state: Table):
        """A bare card (``QS``) is a play."""
        return bare_card_play(text, state)

    def help_line(self, spec, variant) -> str:
        """Lay a card, or pass."""
        return "play CARD or just CARD (e.g. JH) to lay it on a row; pass when you cannot"

    def observe(self, state: Table, seat: int) -> dict:
        """The rows (public): ``layout_rows`` as ``(suit, low card, high card)`` in the order started."""
        d = self.data_of(state.hand)
        if d is None:
            return {}
        rows = [(s, lo, hi) for s, (lo, hi) in d.rows.items()]
        return {"layout_rows": rows, "layout_out": list(d.out)}

    def show(self, data, variant, names=None) -> list:
        """One row per layout row, low to high (``("row ♠", "8♠ 9♠ 10♠ J♠")``), then the last
        round of turns, who laid what and who passed (``("last turns", "N laid 8♥ · E passed ·
        S laid 10♣")``), and who is out of cards, in the order they went out."""
        spec = next(p for p in variant.phases if p.kind == self.name)
        deck = variant.deck
        out = []
        for suit, (lo, hi) in data.rows.items():
            cards, c = [lo], lo
            while c != hi:
                c = spec.up[c]
                cards.append(c)
            out.append((f"row {SUIT_SYMBOLS.get(suit, suit)}", " ".join(deck.pretty(x) for x in cards)))
        if not out:
            out.append(("layout", "no rows yet"))
        turns = [f"{seat_name(variant, names, s)} " + (f"laid {deck.pretty(c)}" if c >= 0 else "passed")
                 for s, c in data.order[-variant.players:]]
        if turns:
            out.append(("last turns", " · ".join(turns)))
        if data.out:
            out.append(("out of cards", ", ".join(seat_name(variant, names, s) for s in data.out)))
        return out


KIND = DominoKind()

__all__ = ["KIND", "DominoKind", "DominoSpec", "playable"]
