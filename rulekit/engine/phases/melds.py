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

In a pack with copies (``deck.copies``) a plain card of an entry means any copy (``KS``: K♠:1
or K♠:2), ``copies: 2`` asks for every card twice (double aces) and ``times: 2`` lets one player
declare a combination again with other copies (a second marriage of spades).  One card serves in
one declaration of an entry, and with ``class`` in one declaration of that class (Pinochle's
run and royal marriage).  Declared cards are shown: every seat knows they are in his hand until
he plays them.  The points count at once, or (``count: after_trick``) only once the player has won a trick.
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
    :ivar combos: every combination of the entry in the deck: ``(mask, suit)``, ``mask`` its
        cards' first copies, ``suit`` the suit of its cards (``""``: several suits).
    :ivar trump_only: a combination counts only in the trump suit (``suit: trump``).
    :ivar points: its points; ``trump_points`` when its cards are trumps (``None``: ``points``).
    :ivar slots: per combination, ``(cards, n)`` pairs: ``n`` cards of the mask ``cards`` (the
        copies of one card, or one named copy) make it.
    :ivar times: most declarations of one combination by one player (``times``, default 1).
    :ivar cls: its ``class`` (``""``: none): entries of one class share no card in one player's
        declarations.
    """

    name: str
    combos: tuple
    trump_only: bool
    points: int
    trump_points: int | None
    slots: tuple = ()
    times: int = 1
    cls: str = ""

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


def shape(meld: Meld, mask: int) -> int:
    """The index of the combination of ``meld`` that the cards ``mask`` make (any copies where
    the entry names a plain card), or -1."""
    n = mask.bit_count()
    for j, slots in enumerate(meld.slots):
        cover = 0
        for g, k in slots:
            if (mask & g).bit_count() != k:
                break
            cover |= g
        else:
            if not mask & ~cover and sum(k for _g, k in slots) == n:
                return j
    return -1


def entry_of(ms: MeldsSpec, mask: int) -> tuple:
    """``(meld, combination index)`` of the entry the cards ``mask`` make, or ``(None, -1)``."""
    for m in ms.list:
        j = shape(m, mask)
        if j >= 0:
            return m, j
    return None, -1


def _pick(slots: tuple, free: int) -> int:
    """The lowest cards of ``free`` that fill every slot, or 0 when some slot cannot be filled."""
    out = 0
    for g, k in slots:
        have = free & g
        if have.bit_count() < k:
            return 0
        for _ in range(k):
            low = have & -have
            out |= low
            have ^= low
    return out


def available(state: Table, spec, data, seat: int) -> list:
    """``(entry index, mask, points)`` of each combination ``seat`` may declare now (held, of
    cards no declaration of his of the same entry or class uses, fewer than ``times`` times
    before, of trumps when it must be), in list order then suit order; ``mask`` the first
    copies he holds that are free."""
    ms = spec.melds
    h = state.hand
    hand = h.hands[seat]
    mine = [(i, m) for s, i, m, _p in data.melds if s == seat]
    out = []
    for i, meld in enumerate(ms.list):
        used = 0
        for i2, m2 in mine:
            if i2 == i or meld.cls and ms.list[i2].cls == meld.cls:
                used |= m2
        free = hand & ~used
        for j, (mask, suit) in enumerate(meld.combos):
            if meld.trump_only and suit != h.trump:
                continue
            if meld.times > 1 and sum(1 for i2, m2 in mine if i2 == i and shape(meld, m2) == j) >= meld.times:
                continue
            pick = mask if free & mask == mask else _pick(meld.slots[j], free)
            if pick:
                out.append((i, pick, meld.value(suit, h.trump)))
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
    m, _j = entry_of(spec.melds, mask)
    name = m.name if m is not None else "meld"
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
        copies = int(e.get("copies", 1))
        combos = []
        slotss = []
        if "cards" in e:
            want: dict = {}
            for w in str(e["cards"]).split():
                try:
                    x = deck.parse(w)
                except CardError as err:
                    c.err(epath + ("cards",), str(err))   # it says the cards expected
                    ok = False
                    continue
                g = deck.copies_of(x) if deck.normalise(w) == deck.base(x) else 1 << x
                want[g] = want.get(g, 0) + copies
            if any(g & g2 for g in want for g2 in want if g != g2):
                c.err(epath + ("cards",), "names a card both by its copy and plainly (expected AS:1 AS:2, "
                      "or AS AS: any copies)")
                ok = False
            elif want:
                slotss.append(tuple(want.items()))
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
                groups = [[r + s for r in ranks for s in deck.suits]] if suit == "all" else \
                    [[r + s for r in ranks] for s in (deck.suits if suit in ("each", "trump") else (suit,))]
                for cards in groups:
                    if suit == "all":
                        cards = [x for x in cards if x in deck.index]
                    if cards and all(x in deck.index for x in cards):
                        slotss.append(tuple((deck.copies_of(deck.index[x]), copies) for x in cards))
        short = [(g, k) for slots in slotss for g, k in slots if g.bit_count() < k * int(e.get("times", 1))]
        if ok and short:
            g, k = short[0]
            have = g.bit_count()
            what = deck.base(g.bit_length() - 1) if have > 1 else deck.name(g.bit_length() - 1)
            c.err(epath + ("times" if have >= k else "copies",),
                  f"needs {k * int(e.get('times', 1))} of {what} but the deck holds {have} "
                  f"(expected copies x times at most the deck's copies)")
            ok = False
        for slots in slotss:
            combos.append((_pick(slots, sum(g for g, _k in slots)), _suit_of(deck, slots)))
        if ok and not combos:
            c.err(epath, "no combination of these cards is in the deck (expected cards the deck holds)")
            ok = False
        for slots in slotss:
            key = frozenset(slots)
            if key in seen:
                mask = _pick(slots, sum(g for g, _k in slots))
                c.err(epath, f"the same cards as meld {seen[key]} "
                      f"({' '.join(deck.name(x) for x in _bits(mask))}): a declaration must name one meld "
                      f"(expected other cards; trump_points gives the trump suit's its own value)")
                ok = False
            seen.setdefault(key, name)
        entries.append(Meld(name, tuple(combos), e.get("suit") == "trump", int(e.get("points", 0)),
                            e.get("trump_points"), tuple(slotss), int(e.get("times", 1)), str(e.get("class", ""))))
    when = p.get("when", "lead")
    if p.get("lead_one") and when != "lead":
        c.err(path + ("lead_one",), f"lead_one makes the leader lead a card of his meld, but melds are "
              f"declared when: {when} (expected when: lead)")
        ok = False
    # a block with errors still gives its entries (those that name cards), so that the formulas
    # reading ``melds`` and ``melds_NAME`` are not refused besides: the errors above stand
    return MeldsSpec(tuple(entries), when, bool(p.get("lead_one", False)), p.get("count", "at_once") == "after_trick",
                     int(p.get("per_turn", 1)), bool(p.get("only_with_stock", False)))


def _slot_names(deck, slots: tuple) -> str:
    """``QS QS JD JD``: a combination's cards, a plain card for any copy, repeated ``n`` times."""
    out = []
    for g, k in slots:
        c = g.bit_length() - 1
        out += [deck.base(c) if g.bit_count() > 1 else deck.name(c)] * k
    return " ".join(out)


def _suit_of(deck, slots: tuple) -> str:
    """The one suit of a combination's cards, or ``""``."""
    suits = {deck.suit_of(g.bit_length() - 1) for g, _k in slots}
    return suits.pop() if len(suits) == 1 and None not in suits else ""


def describe(ms: MeldsSpec, variant=None) -> str:
    """The block in words."""
    items = []
    for m in ms.list:
        suit = ""
        if m.trump_only:
            suit = " of trumps"
        elif len(m.combos) > 1 and all(s for _c, s in m.combos):
            suit = " of a suit"
        cards = (_slot_names(variant.deck, m.slots[0]) if variant is not None and m.slots
                 and (len(m.combos) == 1 or not m.combos[0][1]) else "")
        what = f" ({cards})" if cards else ""
        if m.slots and not cards and m.slots[0][0][1] > 1:
            what = f" (each card {m.slots[0][0][1]} times)"
        pts = f"{m.points}" + (f", {m.trump_points} in trumps" if m.trump_points is not None and not m.trump_only else "")
        more = (f", up to {m.times} times with other copies" if m.times > 1 else "") + \
            (f", class {m.cls}" if m.cls else "")
        items.append(f"{m.name.replace('_', ' ')}{suit}{what}: {pts}{more}")
    when = {"lead": "on lead, before leading" + ("; he must then lead one of its cards" if ms.lead_one else ""),
            "after_trick": "on lead after winning a trick",
            "first_trick": "at his turn in the first trick"}[ms.when]
    count = " Their points count only once the player has won a trick." if ms.after_trick else ""
    stock = " Melds may be declared only while the stock is open." if ms.with_stock else ""
    many = "one meld" if ms.per_turn == 1 else "any number of melds" if not ms.per_turn else f"up to {ms.per_turn} melds"
    copies = (" A plain card means any of its copies; one card serves in one declaration of an entry"
              + (" and of a class (entries of one class share no card)" if any(m.cls for m in ms.list) else "")
              + "." if variant is not None and variant.deck.has_copies else
              " One card serves in one declaration of a class (entries of one class share no card)."
              if any(m.cls for m in ms.list) else "")
    return (f"A player may declare {many} {when}: {'; '.join(items)}.{copies} Declared cards are shown: everyone "
            f"knows they are in his hand until he plays them.{count}{stock}")


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
                                    'minimum': -10000, 'maximum': 10000},
                         'trump_points': {'description': 'Its points when its cards are of the trump suit '
                                                         '(a marriage of trumps: 40).', 'type': 'integer',
                                          'minimum': -10000, 'maximum': 10000},
                         'copies': {'description': 'In a pack with copies: how many copies of each of its '
                                                   'cards the combination holds (default 1; 2: double aces, '
                                                   'a double run, each card twice). A plain card (`KS`) means '
                                                   'any copy; `cards` may also repeat one (`"QS QS JD JD"`) or '
                                                   'name a copy (`QS:1`).',
                                    'type': 'integer', 'minimum': 1, 'maximum': 4},
                         'times': {'description': 'How many times one player may declare one combination of '
                                                  'the entry, each time with other copies of its cards '
                                                  '(default 1; 2 in a double pack: two marriages of spades, '
                                                  'both nines of trumps).',
                                   'type': 'integer', 'minimum': 1, 'maximum': 4},
                         'class': {'description': 'A class name: the declarations of one player of entries '
                                                  'of one class share no card (Pinochle: the royal marriage '
                                                  'inside a declared run is refused, as are aces around '
                                                  'beside double aces). Without it one card may serve in '
                                                  'entries of different names; never twice in one entry.',
                                   'type': 'string', 'pattern': '^[a-z][a-z0-9_]*$'}}}},
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

