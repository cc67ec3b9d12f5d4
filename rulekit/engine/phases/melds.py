"""Melds declared during trick play: combinations of cards shown for points.

The rules of the ``melds:`` block of a ``tricks`` phase (docs/rules/schnapsen.md [SN-M1]..
[SN-M3], sixtysix.md [SS-M1]..[SS-M3]; pagat.com Bezique for melds after a trick won).  The
variant lists its combinations by name; each entry gives its cards as ranks of one suit
(``suit: each``: one combination per suit, a marriage K Q; ``trump``: of the trump suit only,
a trump sequence; a suit letter), ranks in every suit (``suit: all``: four aces), or cards
(``cards: "QS JD"``, a bezique), with its ``points`` and, for a combination of trumps,
``trump_points``.  A player declares one at the moment ``when`` names (``meld KH QH``):

* ``lead``: on lead, before leading; with ``lead_one`` he must then lead one of its cards;
* ``after_trick``: on lead after winning the last trick (the draw has been made);
* ``first_trick``: at his turn in the first trick, before playing.

Declared cards are shown: every seat knows they are in his hand until he plays them.  The
points count at once, or (``count: after_trick``) only once the player has won a trick.
Formulas read ``melds`` (the points counted) and ``melds_NAME`` (how many of that name the
column declared).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulekit.errors import CardError

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.phases.table import Table

#: The ``suit:`` words of a meld entry.
SUIT_WORDS = ("each", "trump", "all")


@dataclass(frozen=True)
class Meld:
    """One entry of the list.

    :ivar name: its name in the file (formulas read ``melds_<name>``).
    :ivar combos: every combination of the entry in the deck: ``(mask, suit)``, ``suit`` the
        suit of its cards (``""``: several suits).
    :ivar trump_only: a combination counts only in the trump suit (``suit: trump``).
    :ivar points: its points; ``trump_points`` when its cards are trumps (``None``: ``points``).
    """

    name: str
    combos: tuple
    trump_only: bool
    points: int
    trump_points: int | None

    def value(self, suit: str, trump: str) -> int:
        """The points of a combination of ``suit`` when ``trump`` is trumps."""
        return self.trump_points if self.trump_points is not None and suit and suit == trump else self.points


@dataclass(frozen=True)
class MeldsSpec:
    """The ``melds:`` block (see the module docstring).

    :ivar list: the :class:`Meld` entries, in the file's order.
    :ivar when: ``lead``, ``after_trick`` or ``first_trick``.
    :ivar lead_one: with ``when: lead``, the leader must lead one of the meld's cards.
    :ivar after_trick: points count only once the player has won a trick (``count: after_trick``).
    :ivar per_turn: most melds a player declares at one turn (0: any number).
    :ivar with_stock: only while the stock is open (``only_with_stock``).
    """

    list: tuple
    when: str = "lead"
    lead_one: bool = False
    after_trick: bool = False
    per_turn: int = 1
    with_stock: bool = False


def counted(spec, hand, data, seat: int) -> int:
    """The meld points of ``seat`` that count now (``count: after_trick``: once he has won a
    trick, [SN-M2]); ``spec``: the trick phase's spec."""
    ms = getattr(spec, "melds", None)
    if ms is None or data is None:
        return 0
    if ms.after_trick and not hand.won[seat]:
        return 0
    return sum(p for s, _i, _m, p in data.melds if s == seat)


def available(state: Table, spec, data, seat: int) -> list:
    """``(entry index, mask, points)`` of each combination ``seat`` may declare now (held
    whole, not declared before by him, of trumps when it must be), in list order then
    suit order."""
    ms = spec.melds
    h = state.hand
    hand = h.hands[seat]
    done = {(i, m) for s, i, m, _p in data.melds if s == seat}
    out = []
    for i, meld in enumerate(ms.list):
        for mask, suit in meld.combos:
            if hand & mask != mask or (i, mask) in done:
                continue
            if meld.trump_only and suit != h.trump:
                continue
            out.append((i, mask, meld.value(suit, h.trump)))
    return out


def moment(state: Table, spec, data, seat: int) -> bool:
    """Whether ``seat``, to move, is at a moment the block's ``when`` allows (the number
    declared this turn and the stock's state considered)."""
    from rulekit.engine.phases import stock as _stock
    ms = spec.melds
    h = state.hand
    if ms.with_stock and not (spec.stock is not None and _stock.is_open(state, data)):
        return False
    key = (len(h.tricks), len(h.trick))
    if data.turn == key and (data.pending or ms.per_turn and data.count >= ms.per_turn):
        return False
    if ms.when == "first_trick":
        return not h.tricks
    if h.trick:
        return False
    if ms.when == "after_trick":
        return bool(h.tricks) and h.trick_winners[-1] == seat
    return True


def declare(state: Table, spec, data, seat: int, mask: int) -> None:
    """``seat`` declares the combination of cards ``mask`` (legal): its points are his, its
    cards shown; with ``lead_one`` his lead must be one of them."""
    h = state.hand
    i, _m, pts = next(x for x in available(state, spec, data, seat) if x[1] == mask)
    data.melds.append((seat, i, mask, pts))
    data.shown[seat] |= mask
    key = (len(h.tricks), len(h.trick))
    if data.turn != key:
        data.turn, data.count, data.pending = key, 0, 0
    data.count += 1
    if spec.melds.lead_one and not h.trick:
        data.pending = mask


def words(spec, variant, mask: int, points: int) -> str:
    """``K♥ Q♥ (marriage, 40)``."""
    name = next((m.name for m in spec.melds.list for c, _s in m.combos if c == mask), "meld")
    return f"{' '.join(variant.deck.pretty(c) for c in _bits(mask))} ({name.replace('_', ' ')}, {points})"


def _bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def compile_melds(c, p: dict, path: tuple) -> MeldsSpec | None:
    """The :class:`MeldsSpec` of a ``melds:`` block; unknown ranks, suits or cards, an entry with
    no combination in the deck and two entries with the same cards are errors at their
    file:line:col."""
    deck = c.deck
    entries = []
    seen: dict = {}
    ok = True
    for name, e in (p.get("list") or {}).items():
        epath = path + ("list", name)
        combos = []
        if "cards" in e:
            mask = 0
            for w in str(e["cards"]).split():
                try:
                    mask |= 1 << deck.parse(w)
                except CardError as err:
                    c.err(epath + ("cards",), str(err))   # it says the cards expected
                    ok = False
            suits = {deck.suit_of(x) for x in _bits(mask)}
            if mask:
                combos.append((mask, suits.pop() if len(suits) == 1 and None not in suits else ""))
        else:
            ranks = str(e.get("ranks", "")).split()
            bad = [r for r in ranks if r not in deck.ranks]
            for r in bad:
                c.err(epath + ("ranks",), f"unknown rank {r}{c.close(r, deck.ranks)} (expected ranks of "
                      f"{' '.join(deck.ranks)})")
                ok = False
            if not ranks:
                c.err(epath, "a meld needs its cards (expected ranks: \"K Q\" with a suit, or cards: \"QS JD\")")
                ok = False
            suit = str(e.get("suit", "each"))
            if suit not in SUIT_WORDS and suit not in deck.suits:
                c.err(epath + ("suit",), f"unknown suit {suit} (expected each, trump, all or one of "
                      f"{' '.join(deck.suits)})")
                ok = False
            elif not bad and ranks:
                if suit == "all":
                    mask = sum(1 << deck.index[r + s] for r in ranks for s in deck.suits if r + s in deck.index)
                    combos.append((mask, ""))
                else:
                    for s in (deck.suits if suit in ("each", "trump") else (suit,)):
                        cards = [r + s for r in ranks]
                        if all(x in deck.index for x in cards):
                            combos.append((sum(1 << deck.index[x] for x in cards), s))
        if ok and not combos:
            c.err(epath, "no combination of these cards is in the deck (expected cards the deck holds)")
            ok = False
        for mask, _s in combos:
            if mask in seen:
                c.err(epath, f"the same cards as meld {seen[mask]} "
                      f"({' '.join(deck.name(x) for x in _bits(mask))}): a declaration must name one meld "
                      f"(expected other cards; trump_points gives the trump suit's its own value)")
                ok = False
            seen.setdefault(mask, name)
        entries.append(Meld(name, tuple(combos), e.get("suit") == "trump", int(e.get("points", 0)),
                            e.get("trump_points")))
    when = p.get("when", "lead")
    if p.get("lead_one") and when != "lead":
        c.err(path + ("lead_one",), f"lead_one makes the leader lead a card of his meld, but melds are "
              f"declared when: {when} (expected when: lead)")
        ok = False
    # a block with errors still gives its entries (those that name cards), so that the formulas
    # reading ``melds`` and ``melds_NAME`` are not refused besides: the errors above stand
    return MeldsSpec(tuple(entries), when, bool(p.get("lead_one", False)), p.get("count", "at_once") == "after_trick",
                     int(p.get("per_turn", 1)), bool(p.get("only_with_stock", False)))


def describe(ms: MeldsSpec, variant=None) -> str:
    """The block in words."""
    items = []
    for m in ms.list:
        suit = ""
        if m.trump_only:
            suit = " of trumps"
        elif len(m.combos) > 1 and all(s for _c, s in m.combos):
            suit = " of a suit"
        cards = (" ".join(variant.deck.name(x) for x in _bits(m.combos[0][0])) if variant is not None
                 and (len(m.combos) == 1 or not m.combos[0][1]) else "")
        what = f" ({cards})" if cards else ""
        pts = f"{m.points}" + (f", {m.trump_points} in trumps" if m.trump_points is not None and not m.trump_only else "")
        items.append(f"{m.name.replace('_', ' ')}{suit}{what}: {pts}")
    when = {"lead": "on lead, before leading" + ("; he must then lead one of its cards" if ms.lead_one else ""),
            "after_trick": "on lead after winning a trick",
            "first_trick": "at his turn in the first trick"}[ms.when]
    count = " Their points count only once the player has won a trick." if ms.after_trick else ""
    stock = " Melds may be declared only while the stock is open." if ms.with_stock else ""
    many = "one meld" if ms.per_turn == 1 else "any number of melds" if not ms.per_turn else f"up to {ms.per_turn} melds"
    return (f"A player may declare {many} {when}: {'; '.join(items)}. Declared cards are shown: everyone knows "
            f"they are in his hand until he plays them.{count}{stock}")


SCHEMA = {
    'description': 'Combinations of cards declared during trick play for points (a marriage K Q, a '
                   'sequence, four of a kind), with the action `meld CARDS` (e.g. `meld KH QH`). Formulas '
                   'read `melds` (the points counted) and `melds_NAME` (how many of an entry were declared).',
    'type': 'object', 'additionalProperties': False, 'required': ['list'],
    'properties': {
        'list': {'description': 'The combinations by name: each gives its cards (`ranks` of a `suit`, or '
                                '`cards`) and its `points`.',
                 'type': 'object', 'minProperties': 1,
                 'propertyNames': {'pattern': '^[a-z][a-z0-9_]*$'},
                 'additionalProperties': {
                     'type': 'object', 'additionalProperties': False, 'required': ['points'],
                     'properties': {
                         'ranks': {'description': 'Ranks of the combination, e.g. `"K Q"` (with `suit`).',
                                   'type': 'string'},
                         'suit': {'description': '`each` (one combination per suit, default), `trump` (of the '
                                                 'trump suit only), `all` (the ranks in every suit: four of a '
                                                 'kind) or a suit letter.',
                                  'type': 'string'},
                         'cards': {'description': 'The cards of the combination, e.g. `"QS JD"` '
                                                  '(instead of `ranks`).', 'type': 'string'},
                         'points': {'description': 'Its points.', 'type': 'integer',
                                    'minimum': -1000, 'maximum': 1000},
                         'trump_points': {'description': 'Its points when its cards are of the trump suit '
                                                         '(a marriage of trumps: 40).', 'type': 'integer',
                                          'minimum': -1000, 'maximum': 1000}}}},
        'when': {'description': 'When a player declares: `lead` (on lead, before leading; default), '
                                '`after_trick` (on lead after winning the last trick) or `first_trick` '
                                '(at his turn in the first trick).',
                 'enum': ['lead', 'after_trick', 'first_trick']},
        'lead_one': {'description': 'With `when: lead`: after declaring, the leader must lead one of the '
                                    'meld\'s cards.', 'type': 'boolean'},
        'count': {'description': 'When the points count: `at_once` (default) or `after_trick` (only once '
                                 'the player has won a trick; a meld declared before counts from then).',
                  'enum': ['at_once', 'after_trick']},
        'per_turn': {'description': 'Most melds a player declares at one turn (default 1; 0: any number).',
                     'type': 'integer', 'minimum': 0, 'maximum': 20},
        'only_with_stock': {'description': 'Melds may be declared only while the stock is open (not once it '
                                           'is closed or exhausted).', 'type': 'boolean'}}}

