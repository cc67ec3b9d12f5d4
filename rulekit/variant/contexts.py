"""Rankings compiled into trick tables: one :class:`~rulekit.variant.model.Context` per
contract group and trump choice.

A variant's ``ranking`` block is the base group (``""``).  Every entry of
``contract_groups`` is a group of its own, whose ``ranking`` overlays the base one (keys
replace the base's, ``null`` removes one) and which may bring its own card points; a
contract names its group (``group: null``), and ``ranking.low`` is the group ``low`` that a
low-wins contract selects.  For each group and each trump choice the game can reach, this
module ranks every card (plain suits by suit, by colour or for all; the trump suit; the
cards above the suits at no trump; suitless cards by their own rules), then writes the
tables trick play reads: groups, strengths, win keys, and the masks of the cards with rules
of their own (``ranking.special``: played whatever was led, always or never winning, kept
by their owner), of the cards that follow any lead (``top_follows``) and of the top trumps
that may renege (``renege``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.cards import Deck, bits
from rulekit.contracts import LOW
from rulekit.dsl import RankItem, compile_ranking, word_kind
from rulekit.errors import CardError
from rulekit.variant.model import NT, Context

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.variant.compiler import _Compiler

#: Keys of a ranking mapping (``ranking.suit: {red: ..., black: ...}``) besides suit letters
#: and colours: the suits no other key names.
OTHERS = "others"

#: The ranking keys whose values are card orders (DSL strings, or mappings of them).
ORDER_KEYS = ("suit", "trump", "top", "powerless")


def _item_text(it) -> str:
    return f"{it.value}:{it.ref}" if it.kind == "relative" else it.value


class Rankings:
    """The rankings of one variant being compiled, by contract group (see the module docstring).

    :param c: the variant compiler (its ``err``/``err_in``/``dsl`` report at file:line:column).
    :param deck: the variant's deck.
    """

    def __init__(self, c: _Compiler, deck: Deck) -> None:
        self.c = c
        self.deck = deck
        self.parsed: dict[tuple, list | None] = {}
        self.ok = True
        rk = c.d.get("ranking") or {}
        self.docs: dict[str, dict[str, tuple]] = {"": {k: (("ranking", k), v) for k, v in rk.items()
                                                       if k not in ("low",)}}
        if rk.get("low"):   # ranking.low: the group of a low-wins contract
            low = dict(self.docs[""])
            low.pop("trump", None)   # its trump order defaults to its own suit order
            for k, v in rk["low"].items():
                low[k] = (("ranking", "low", k), v)
            self.docs[LOW] = low
        for g, entry in (c.d.get("contract_groups") or {}).items():
            doc = dict(self.docs[""])
            for k, v in ((entry or {}).get("ranking") or {}).items():
                if v is None:
                    doc.pop(k, None)
                else:
                    doc[k] = (("contract_groups", g, "ranking", k), v)
            self.docs[g] = doc
        for g, doc in self.docs.items():   # parse and check every order once
            if "suit" not in doc:
                where = ("contract_groups", g, "ranking") if g not in ("", LOW) else ("ranking",)
                self.c.err(where, "a ranking needs suit (expected the order of a plain suit, e.g. "
                           "suit: \"A K Q J 10 9 8 7\")")
                self.ok = False
            for key in ORDER_KEYS:
                if key in doc:
                    for path, _text in self.texts(doc[key]):
                        if self.items(path, key) is None:
                            self.ok = False

    # ------------------------------------------------------------------ reading the orders
    def texts(self, entry: tuple) -> list:
        """``(path, text)`` of each order of a ranking key: one for a string, one per key of
        a mapping by suit or colour (its keys checked)."""
        path, value = entry
        if isinstance(value, str):
            return [(path, value)]
        out = []
        colours = {x for x in self.deck.colours.values() if x}
        for k, text in value.items():
            if k not in self.deck.suits and k not in colours and k != OTHERS:
                self.c.err(path + (k, "<key>"), f"{k} is not a suit or a colour of this deck (expected a suit "
                           f"letter ({' '.join(self.deck.suits)}), a colour ({' '.join(sorted(colours)) or 'none'}) "
                           f"or {OTHERS})")
                continue
            out.append((path + (k,), text))
        return out

    def pick(self, entry: tuple | None, suit: str | None) -> tuple:
        """``(path, items)`` of the order a ranking key gives ``suit``: the string itself, or the
        mapping's entry for the suit letter, else its colour, else ``others``; ``(None, None)``
        when it gives none (or the key is absent)."""
        if entry is None:
            return None, None
        path, value = entry
        if isinstance(value, str):
            return path, self.parsed.get(path)
        keys = (suit, self.deck.colours.get(suit) if suit else None, OTHERS)
        for k in keys:
            if k is not None and k in value:
                return path + (k,), self.parsed.get(path + (k,))
        return None, None

    def items(self, path: tuple, key: str) -> list | None:
        """The checked items of the order at ``path`` (``None`` after an error), parsed once."""
        if path in self.parsed:
            return self.parsed[path]
        raw = self.c.dsl(path, compile_ranking)
        items = None if raw is None else [self.word(it) for it in raw]
        if items is not None and not self.check(path, key, items):
            items = None
        self.parsed[path] = items
        return items

    def word(self, it: RankItem) -> RankItem:
        """The item with its kind read from this deck (a knight ``C`` is a rank, ``21T`` a card,
        ``EX`` a suitless card)."""
        if it.kind == "relative":
            return it
        deck = self.deck
        value = it.value
        specials = {s.token for s in deck.specials} | {s.kind for s in deck.specials}
        kind = word_kind(value, deck.ranks, deck.index, specials, deck.suits)
        return RankItem(kind, value, "", it.line, it.column)

    def problem(self, key: str, it: RankItem) -> str | None:
        """What is wrong with ranking item ``it`` of ranking key ``key``, or ``None``."""
        deck = self.deck
        ranks = " ".join(deck.ranks)
        close = self.c.close
        if it.kind == "joker":
            if key == "suit":
                return (f"{it.value} has no suit: it cannot rank inside every plain suit (expected it in "
                        f"ranking.trump or ranking.top, or rules of its own in ranking.special)")
            return None
        if it.kind in ("card", "unknown"):
            if it.value not in deck.index:
                if it.kind == "unknown" or len(it.value) < 2:
                    tokens = [s.token for s in deck.specials]
                    if it.value.startswith("JK") and not deck.jokers:
                        return f"{it.value}: this deck has no joker (expected deck.jokers: 1 to use JK)"
                    return (f"unknown rank or card {it.value}{close(it.value, list(deck.ranks) + tokens)} "
                            f"(expected a rank of {ranks}, a card such as A{deck.suits[0]}"
                            + (f", or {' '.join(tokens)}" if tokens else "") + ")")
                rank, suit = it.value[:-1], it.value[-1]
                if rank not in deck.ranks:
                    return (f"unknown card {it.value}: this deck has no rank {rank}{close(rank, deck.ranks)} "
                            f"(expected a rank of {ranks})")
                if suit not in deck.suits:
                    return f"unknown card {it.value}: this deck has no suit {suit} (expected a suit of {' '.join(deck.suits)})"
                return f"unknown card {it.value}: the deck leaves it out (expected a card of this deck)"
            if key == "suit":
                return (f"a single card ({it.value}) cannot rank inside every plain suit "
                        f"(expected ranks here; put single cards in ranking.trump or ranking.top)")
            return None
        if it.kind == "suit":
            return (f"a suit letter ({it.value}) cannot stand in a card ranking "
                    f"(expected a rank, a card such as A{it.value}, or JK)")
        if it.value not in deck.ranks:
            return f"unknown rank {it.value}{close(it.value, deck.ranks)} (expected one of {ranks})"
        if it.kind == "relative" and key != "trump":
            return f"{_item_text(it)} names a card of the trump suit (expected it only in ranking.trump)"
        if it.kind == "rank" and key in ("top", "powerless"):
            what = "rises to the top" if key == "top" else "is powerless"
            return (f"a bare rank ({it.value}) does not say which card {what} "
                    f"(expected cards such as {it.value}{deck.suits[0]}, or JK)")
        return None

    def check(self, path: tuple, key: str, items: list) -> bool:
        """Report every item of the order at ``path`` that names nothing in this deck, or twice."""
        seen: dict = {}
        ok = True
        for it in items:
            msg = self.problem(key, it)
            ident = (it.kind, it.value, it.ref)
            if msg is None and ident in seen:
                msg = f"{_item_text(it)} is listed twice (first at column {seen[ident]} of the text; expected each once)"
            if msg:
                self.c.err_in(path, it.line, it.column, msg)
                ok = False
            seen.setdefault(ident, it.column)
        return ok

    def resolve(self, item: RankItem, path, suit: str | None, trump: str | None) -> int:
        """The cards (every copy) a checked item names in this context, as a mask (0: none)."""
        deck = self.deck
        if item.kind in ("joker", "card"):
            if item.kind == "joker" and item.value not in deck.index:   # the kind of several specials
                return sum(deck.copies_of(deck.index[s.token]) for s in deck.specials
                           if s.kind == item.value and s.token in deck.index)
            c = deck.index.get(item.value)
            return deck.copies_of(c) if c is not None else 0
        if item.kind == "suit" or item.value not in deck.ranks:
            return 0
        if item.kind == "relative":
            if trump is None:
                return 0
            target = trump if item.ref == "trump" else self.sister(trump)
            if target is None:
                self.c.err_in(path, item.line, item.column,
                              f"{_item_text(item)}: the trump suit {trump} has no sister suit of the same colour "
                              f"(expected exactly one other suit of its colour in deck.colours)")
                return 0
            c = deck.index.get(item.value + target)
        else:
            c = deck.index.get(item.value + suit) if suit else None
        return deck.copies_of(c) if c is not None else 0

    def sister(self, suit: str) -> str | None:
        deck = self.deck
        colour = deck.colours.get(suit)
        same = [s for s in deck.suits if s != suit and colour and deck.colours.get(s) == colour]
        return same[0] if len(same) == 1 else None

    # ------------------------------------------------------------------ cards with rules of their own
    def special(self, group: str) -> dict:
        """``ranking.special`` of ``group``: card -> its rules (``follows``, ``wins``, ``led``,
        ``kept``, ``exchange``, ``slam``, ``equal``), every copy of a card named."""
        entry = self.docs[group].get("special")
        out: dict[int, dict] = {}
        if entry is None:
            return out
        path, rules = entry
        for name, r in (rules or {}).items():
            try:
                mask = self.named(name)
            except CardError as e:
                self.c.err(path + (name, "<key>"), f"{e} (expected a card of this deck, or a suitless card's token)")
                continue
            r = dict(r or {})
            if group == "" or path[0] == "contract_groups":   # (each text checked once: where it is written)
                self.rules_problem(path + (name,), name, mask, r)
            for c in bits(mask):
                out[c] = r
        return out

    def rules_problem(self, path: tuple, name: str, mask: int, r: dict) -> None:
        """Report rules that cannot apply to the cards ``mask`` named ``name``."""
        deck = self.deck
        if "exchange" in r and not r.get("kept"):
            self.c.err(path + ("exchange",), "an exchange is given for a card its owner keeps "
                       "(expected kept: always or not_last beside it)")
        if "led" in r and not all(deck.is_special(c) for c in bits(mask)):
            self.c.err(path + ("led",), f"{name} has a suit: a led one asks its suit to be followed "
                       f"(expected led only for a suitless card, such as a token of deck.specials)")
        if r.get("wins") == "always" and r.get("led") == "next":
            self.c.err(path + ("led",), f"{name} wins any trick it is played to, so a led one cannot leave "
                       f"the suit to the next card (expected led: free, or wins: never)")

    def named(self, name: str) -> int:
        """The cards a card text names (every copy; a suitless card's kind names its copies)."""
        deck = self.deck
        tokens = [s.token for s in deck.specials if s.kind == name and s.token != name]
        if tokens:
            return sum(deck.copies_of(deck.index[t]) for t in tokens)
        return deck.named_mask(name)

    def always_trumps(self, doc: dict) -> list:
        """The cards (every copy) that the trump order of every suit names by card (Ombre's
        black aces, the A♥ of Forty-Five), highest first by the first suit's trump order: at no
        trump, where no order ranks them, they are the top cards, in that order."""
        deck = self.deck
        common = -1
        first: list = []
        for s in deck.suits:
            path, items = self.pick(doc.get("trump"), s)
            if not items:
                return []
            cards = [x for it in items if it.kind in ("card", "joker") for x in bits(self.resolve(it, path, s, s))]
            common &= sum(1 << x for x in cards)
            first = first or cards
        return [x for x in first if common >> x & 1]

    # ------------------------------------------------------------------ the tables
    def context(self, group: str, name: str, extra: dict) -> Context | None:
        """The tables of trump choice ``name`` in contract group ``group``.

        :param extra: what trick play adds to the tables: ``top_follows`` (a top card follows
            any lead at no trump), ``renege`` (items of the top trumps that may renege), and
            ``points`` (``(card points, trump points)`` of the group).
        """
        c = self.c
        deck = self.deck
        doc = self.docs[group]
        ns = len(deck.suits)
        top_g, idle_g, free_g = ns, ns + 1, ns + 2
        trump = None if name == NT else name
        grp = [-1] * deck.size
        strength = [0] * deck.size

        def assign(path, items, g, s_of, suit) -> None:
            if not items:
                return
            named = 0   # cards a card item places: a rank item naming one of them leaves it there
            for it in items:
                if it.kind in ("card", "joker"):
                    named |= self.resolve(it, path, suit, trump)
            mine: dict[int, Any] = {}   # card -> the item that placed it
            for i, it in enumerate(items):
                m = self.resolve(it, path, suit, trump)
                if not m or (it.kind in ("rank", "relative") and m & named):
                    continue
                low = (m & -m).bit_length() - 1
                if low in mine:
                    other = mine[low]
                    c.err_in(path, it.line, it.column,
                             f"{_item_text(it)} is the same card as {_item_text(other)} "
                             f"({deck.base(low)}{' when trumps are ' + trump if trump else ''}; "
                             f"expected each card once)")
                    continue
                for x in bits(m):
                    mine[x] = it
                    if grp[x] == -1:
                        grp[x] = g
                        strength[x] = s_of(i)
        if trump is not None:
            path, items = self.pick(doc.get("trump") or doc.get("suit"), trump)
            if items:
                assign(path, items, deck.suits.index(trump), lambda i, n=len(items): 100 + n - i, trump)
        elif doc.get("top"):
            path, items = self.pick(doc["top"], None)
            if items:
                assign(path, items, top_g, lambda i, n=len(items): 100 + n - i, None)
        for si, s in enumerate(deck.suits):
            path, items = self.pick(doc.get("suit"), s)
            if items:
                assign(path, items, si, lambda i, n=len(items): n - i, s)
        rules = self.special(group)
        for x, r in rules.items():   # suitless cards no order places: by their own rules
            if grp[x] != -1 or not deck.is_special(x):
                continue
            led = r.get("led") or ("free" if r.get("wins") == "always" else "next" if r.get("wins") == "never" else "")
            if led:
                grp[x] = idle_g if led == "next" else free_g
        powerless = 0   # ranking.powerless: no power where no order ranks them
        if doc.get("powerless"):
            path, items = self.pick(doc["powerless"], None)
            for it in items or ():
                for x in bits(self.resolve(it, path, None, trump)):
                    if grp[x] == -1:
                        grp[x] = idle_g
                        powerless |= 1 << x
        if trump is None and doc.get("trump"):   # cards always trump stay trumps at no trump
            order = [x for x in self.always_trumps(doc) if grp[x] == -1]
            for i, x in enumerate(order):
                grp[x] = top_g
                strength[x] = 200 + len(order) - i
        missing = [x for x in range(deck.size) if grp[x] == -1]
        if missing:
            base = doc["suit"][0][:-1] if "suit" in doc else ("ranking",)
            where = "when trumps are " + name if trump else "at no trump"
            names = list(dict.fromkeys(deck.base(x) for x in missing))
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            verb = "is" if len(names) == 1 else "are"
            pre = ".".join(str(x) for x in base)
            what = {LOW: " in a low-wins contract", "": ""}.get(group, f" in contract group {group}")
            c.err(base, f"{shown} {verb} not ranked {where}{what} (expected every card in {pre}.suit, "
                  f"{pre}.trump or {pre}.top, or rules of its own in {pre}.special)")
            return None
        ng = ns + 3
        gmask = [0] * ng
        for x in range(deck.size):
            gmask[grp[x]] |= 1 << x
        tg = deck.suits.index(trump) if trump else (top_g if gmask[top_g] else None)
        always = never = free = unfailed = kept = kept_all = slam = last = 0
        equal_last = doc.get("equal", (None, "first"))[1] == "last"
        exchange = 0
        for x, r in rules.items():
            bit = 1 << x
            if r.get("wins") == "always":
                always |= bit
            elif r.get("wins") == "never":
                never |= bit
            if r.get("follows") == "any":
                free |= bit
            if r.get("kept"):
                kept |= bit
                if r["kept"] == "always":
                    kept_all |= bit
                exchange = max(exchange, r.get("exchange", 0))
            if r.get("slam"):
                slam |= bit
            if r.get("equal", "last" if equal_last else "first") == "last":
                last |= bit
        if equal_last:
            last |= deck.full_mask & ~sum(1 << x for x, r in rules.items() if r.get("equal") == "first")
        if extra.get("top_follows") and trump is None and gmask[top_g]:
            unfailed |= gmask[top_g]
        renege = 0
        if trump is not None and extra.get("renege"):
            path, items = extra["renege"]
            for it in items:
                renege |= self.resolve(it, path, trump, trump)
            renege &= gmask[deck.suits.index(trump)]
        order = sorted(range(deck.size), key=lambda x: (0 if grp[x] == tg else 1, grp[x], -strength[x]))

        def key(x: int, lg: int) -> int:
            if always >> x & 1:
                return 3000 + strength[x]
            if never >> x & 1:
                return -1
            if grp[x] == tg:
                return 1000 + strength[x]
            return strength[x] if grp[x] == lg and lg != idle_g else -1
        win_keys = tuple(tuple(key(x, lg) for x in range(deck.size)) for lg in range(ng))
        names_suit = trump is None and doc.get("top_led", (None, ""))[1] == "name_suit"
        # must_trump plays the trump group: the trump suit, or at no trump a top group of
        # permanent trumps; top cards that name a suit when led are wild cards, not trumps
        must = tg if trump or not names_suit else None
        points = list(extra["points"][0])
        if trump is not None:  # the trump suit's cards count by trump_points
            for r, v in extra["points"][1].items():
                cc = deck.index.get(r + trump)
                if cc is not None:
                    for x in bits(deck.copies_of(cc)):
                        points[x] = v
        special = bool(always or never & ~powerless or free or unfailed or kept or slam or renege
                       or gmask[free_g] or (last and deck.has_copies) or (last and rules))
        return Context(name, tuple(grp), tuple(strength), tuple(gmask), tg, must, names_suit,
                       tuple(order), win_keys, tuple(points), group == LOW, idle_g if gmask[idle_g] else -1,
                       group=group, free_group=free_g if gmask[free_g] else -1, special=special or bool(gmask[idle_g]),
                       free=free, free_unfailed=unfailed, last_wins=last, kept=kept, kept_always=kept_all,
                       exchange=exchange, slam=slam, renege=renege, widow_to=extra.get("widow_to", ""),
                       discards_to=extra.get("discards_to", ""))


__all__ = ["LOW", "OTHERS", "Rankings"]
