"""``widow_exchange`` phase (rules/fivehundred.md [W1]).

The declarer takes the widow into his hand and discards as many cards face
down (any cards, including those just taken).  Discards score nothing unless trick play
gives them to a side (``discards_to``) and are seen by nobody else.  With ``show: true`` the
widow is shown to everyone as he takes it (every seat then knows those cards are in his hand
until played).  With ``hand: true`` he first says ``take`` (then discards as above) or
``hand``: he plays without the widow, which stays face down, unseen by all (Skat's hand game,
docs/rules/skat.md [SK-G1]); formulas read ``hand_game``, and a contract with ``hand: true``
may then only be announced in a hand game.

Restrictions (rules/tarot.md [TA-K3]): ``keep`` cards may never be discarded (kings, the
oudlers); ``last`` cards only when the others are not enough (trumps); ``shown`` cards are
shown to everyone when discarded (a discarded trump).
"""
from __future__ import annotations

from collections.abc import Sequence
import dataclasses
from dataclasses import dataclass
from itertools import combinations
from math import comb

from rulekit.cards import bit_list
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said, n_cards
from rulekit.engine.phases.table import Table
from rulekit.errors import CardError, IllegalActionError


@dataclass(frozen=True)
class ExchangeSpec(PhaseSpec):
    """``widow_exchange`` phase (rules/fivehundred.md [W1]): discard this many cards;
    ``show``: the widow is turned face up for everyone as the declarer takes it; ``keep``,
    ``last``, ``shown``: cards never discarded, discarded only when the others are not
    enough, shown to all when discarded (rules/tarot.md [TA-K3])."""

    discard: int
    zone: str
    show: bool = False
    keep: int = 0
    last: int = 0
    shown: int = 0
    hand: bool = False
    """The declarer may play ``hand``, without the widow ([SK-G1])."""


TAKE = Action("take", "take")
HAND = Action("hand", "hand")


@dataclass
class ExchangeData(KindData):
    """``widow_exchange``'s data: with ``hand``, ``choosing`` (he has not said ``take`` or
    ``hand`` yet) and ``hand_game`` (he plays hand); ``shown``, the discards every seat has seen
    (``shown`` cards discarded)."""

    choosing: bool = True
    hand_game: bool = False
    shown: int = 0


def start(state: Table) -> bool:
    """Applies only with a declarer; moves the widow into his hand (with ``hand``, he first
    chooses to take it or to play hand)."""
    h = state.hand
    if h.declarer < 0:
        return False
    if KIND.spec(state).hand:
        h.phase_state[KIND.name] = ExchangeData()
        h.to_move = h.declarer
        return True
    _take(state)
    return True


def _take(state: Table) -> None:
    """The declarer takes the widow into his hand (shown to all with ``show``)."""
    h = state.hand
    zone = KIND.spec(state).zone
    if KIND.spec(state).show:  # seen by all: observations place the dealt widow in his hand
        h.zone_up[zone] = True
    h.hands[h.declarer] |= h.zones.get(zone, 0)
    h.zones[zone] = 0
    h.to_move = h.declarer


def _choosing(state: Table) -> bool:
    d = KIND.data_of(state.hand)
    return d is not None and d.choosing


def takes(k: int, hand: int) -> int:
    """How many cards a phase asking for ``k`` takes from ``hand`` (a bitmask): ``k``, or all
    the hand holds when it holds fewer."""
    return min(k, hand.bit_count())


class DiscardChoices(Sequence):
    """Every set of ``k`` cards from ``hand``, as a lazy sequence of discard actions.

    The choices are ordered lexicographically by card index; item ``i`` is built on
    demand (combinatorial unranking), so a random choice costs one action, not C(n, k).
    """

    def __init__(self, deck, hand: int, k: int, fixed: int = 0):
        self.deck = deck
        self.hand = hand
        self.asked = k
        self.cards = bit_list(hand)
        self.fixed = fixed   # cards every choice holds besides the k chosen from ``hand``
        # a hand shorter than the count gives all it holds: never an empty choice, which would
        # leave the player unable to move (the compiler refuses such files; user pass finding 3)
        self.k = k = takes(k, hand)
        self.n = comb(len(self.cards), k)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        return Action.discard(self.deck, self.mask(i))

    def mask(self, i: int) -> int:
        """The cards of choice ``i`` (``0 <= i < len(self)``) as a bitmask: the ``i``-th set
        of ``k`` cards in lexicographic order (:func:`nth_set`), with the ``fixed`` cards
        every choice holds."""
        return nth_set(self.hand, self.k, i) | self.fixed

    def index(self, action, start: int = 0, stop: int | None = None) -> int:
        """The place of the discard ``action`` among the choices (combinatorial ranking).

        ``start``/``stop`` as :meth:`list.index` (a place outside them is not found).

        :raises ValueError: ``action`` is not one of them."""
        if action not in self:
            raise ValueError(f"{action} is not a choice")
        i = 0
        k = self.k
        cards = self.cards
        left = len(cards) - 1
        for j, c in enumerate(cards):
            if not k:
                break
            if action.cards >> c & 1:
                k -= 1
            else:
                i += comb(left - j, k - 1)
        if not start <= i < (self.n if stop is None else stop):
            raise ValueError(f"{action} is not a choice between {start} and {stop}")
        return i

    def __eq__(self, other):
        if isinstance(other, DiscardChoices):
            return self.cards == other.cards and self.k == other.k and self.fixed == other.fixed
        return list(self) == other

    __hash__ = None  # type: ignore[assignment]  # a mutable-looking sequence: unhashable like a list

    def __contains__(self, action) -> bool:
        # without this, ``x in choices`` would build every choice (C(13, 7) actions) to compare
        cards = getattr(action, "cards", 0)
        chosen = cards & ~self.fixed
        return (getattr(action, "kind", None) == "discard" and cards & self.fixed == self.fixed
                and chosen.bit_count() == self.k and not chosen & ~sum(1 << c for c in self.cards))

    def next_cards(self, picked: int) -> int:
        """The cards that may join ``picked`` (a bitmask) towards one of these discards, when
        they are chosen one at a time (``rulekit.rl``): any other card of the hand until ``k``
        are picked; 0 when ``picked`` is part of none."""
        pool = sum(1 << c for c in self.cards)
        if picked & ~pool or picked.bit_count() >= self.k:
            return 0
        return pool & ~picked

    def __iter__(self):
        for combo in combinations(self.cards, self.k):
            m = self.fixed
            for c in combo:
                m |= 1 << c
            yield Action.discard(self.deck, m)


def nth_set(cards: int, k: int, i: int) -> int:
    """The ``i``-th set of ``k`` of the ``cards`` of a bitmask (lowest card first) in
    lexicographic order of card index, as a bitmask (combinatorial unranking:
    ``0 <= i < comb(cards.bit_count(), k)``); the order of :class:`DiscardChoices`."""
    m = 0
    left = cards.bit_count() - 1   # cards after the one considered
    while k:   # the i-th k-set in lexicographic order: take the lowest card left or skip its sets
        low = cards & -cards
        c = comb(left, k - 1)
        if i < c:
            m |= low
            k -= 1
        else:
            i -= c
        cards ^= low
        left -= 1
    return m


def choices(state: Table) -> DiscardChoices:
    """The declarer's discards: ``discard`` cards, none of ``keep``, cards of ``last`` only as
    many as the others fall short (then every other allowed card is discarded); should even those
    be too few, cards of ``keep`` make up the count (a rule no hand can keep)."""
    return choices_of(state.variant.deck, *_pool(state))


def _pool(state: Table) -> tuple[int, int, int]:
    """``(cards, k, fixed)`` of :func:`choices`: the declarer discards ``k`` of ``cards`` besides
    the ``fixed`` cards."""
    h = state.hand
    spec: ExchangeSpec = state.variant.phases[h.phase]  # type: ignore[assignment]  # (its own)
    hand = h.hands[h.declarer]
    need = spec.discard
    fixed = 0
    for tier in (hand & ~spec.keep & ~spec.last, hand & ~spec.keep & spec.last, hand & spec.keep):
        if tier.bit_count() >= need:
            return tier, need, fixed
        fixed |= tier
        need -= tier.bit_count()
    return 0, 0, fixed


def legal(state: Table) -> Sequence:
    """Every set of ``discard`` cards the declarer may put away (a lazy :class:`DiscardChoices`);
    with ``hand``, first ``take`` and ``hand``."""
    if _choosing(state):
        return [TAKE, HAND]
    return choices(state)


def choices_of(deck, hand: int, k: int, fixed: int = 0) -> DiscardChoices:
    """``DiscardChoices(deck, hand, k, fixed)``, the last one built reused (a decision asks for
    its choices, then applies one: the same sets twice)."""
    last = _LAST[0]
    if (last is not None and last.hand == hand and last.asked == k and last.fixed == fixed
            and last.deck is deck):
        return last
    last = _LAST[0] = DiscardChoices(deck, hand, k, fixed)
    return last


_LAST: list = [None]   # the last DiscardChoices built (immutable)


def one_card_discards(variant) -> tuple:
    """The shared ``discard X`` action of each card of ``variant``'s deck, by card index (built
    once per variant: a discard of one card is the same action in every hand)."""
    deck = variant.deck
    return variant.cached(_ONE_CARD, lambda: tuple(Action.discard(deck, 1 << c) for c in range(deck.size)))


_ONE_CARD = "widow_exchange.one_card"   # card -> its shared one-card discard (one_card_discards)


def legal_choices(state: Table) -> range:
    """The choices of :func:`legal`: the place of each set of cards in its order (counted:
    no :class:`DiscardChoices` is built)."""
    if _choosing(state):
        return range(2)
    cards, k, _fixed = _pool(state)
    n = cards.bit_count()
    return range(comb(n, min(k, n)))   # (DiscardChoices' length: takes(k, cards) of n)


def choice_action(state: Table, choice: int) -> Action:
    """The ``discard`` of ``choice``."""
    return legal(state)[choice]


def choice_of(state: Table, action: Action) -> int:
    """The choice of a ``discard`` (its place among the sets of cards)."""
    return legal(state).index(action)


def apply_choice(state: Table, choice: int) -> bool:
    """:func:`apply` of the discard ``choice``, its ``(seat, text)`` appended to the hand's actions
    (the cards' text, without an :class:`Action`)."""
    h = state.hand
    if _choosing(state):
        a = legal(state)[choice]
        h.actions.append((h.to_move, a.text))
        return apply(state, a)
    pool, k, fixed = _pool(state)
    cards = nth_set(pool, takes(k, pool), choice) | fixed
    h.actions.append((h.to_move, "discard " + " ".join(state.variant.deck.names_of(cards))))
    return _discard(state, cards)


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: wrong kind, wrong count or a card not held."""
    h = state.hand
    if _choosing(state):
        if action not in (TAKE, HAND):
            raise IllegalActionError("say take (the widow into your hand, then discard) or hand (play "
                                     "without it)")
        return
    if action.kind in ("take", "hand"):
        raise IllegalActionError("the widow is taken: discard now")
    n = takes(KIND.spec(state).discard, h.hands[h.declarer])
    if action.kind != "discard":
        raise IllegalActionError(f"the declarer must discard {n} cards now (e.g. discard "
                                 f"{' '.join(state.variant.deck.names_of(h.hands[h.declarer])[:n])})")
    if action.cards.bit_count() != n:
        raise IllegalActionError(f"discard exactly {n} cards, not {action.cards.bit_count()}")
    extra = action.cards & ~h.hands[h.declarer]
    if extra:
        raise IllegalActionError(f"you do not hold {' '.join(state.variant.deck.names_of(extra))}")
    spec = KIND.spec(state)
    deck = state.variant.deck
    if (spec.keep or spec.last) and action not in choices(state):
        if action.cards & spec.keep:
            raise IllegalActionError(f"{' '.join(deck.pretty(c) for c in bit_list(action.cards & spec.keep))} may "
                                     f"not be discarded")
        raise IllegalActionError(f"{' '.join(deck.pretty(c) for c in bit_list(action.cards & spec.last))} may be "
                                 f"discarded only when you have not enough other cards to discard")


def apply(state: Table, action: Action) -> bool:
    """Remove the discards from the declarer's hand (the ``shown`` ones shown to all); ``take``
    takes the widow, ``hand`` ends the phase with the widow untouched."""
    h = state.hand
    if _choosing(state):
        d = KIND.data(state)
        d.choosing = False
        if action.kind == "hand":
            d.hand_game = True
            return True
        _take(state)
        return False
    return _discard(state, action.cards)


def _discard(state: Table, cards: int) -> bool:
    """The declarer puts ``cards`` away (the ``shown`` ones shown to all); the phase is over."""
    h = state.hand
    h.hands[h.declarer] &= ~cards
    h.discards |= cards
    shown = cards & KIND.spec(state).shown
    if shown:
        d = KIND.data_of(h)
        if d is None:
            d = h.phase_state[KIND.name] = ExchangeData(choosing=False)
        d.shown = shown
    return True


def compile_exchange(c, name: str, p: dict, path: tuple):
    """The :class:`ExchangeSpec`; the count is checked in :meth:`finish`; the cards of ``keep``,
    ``last`` and ``shown`` are ranks, suits, cards or suitless tokens of the deck."""
    masks = {key: cards_named(c, p.get(key, ""), path + (key,)) for key in ("keep", "last", "shown")}
    return ExchangeSpec("widow_exchange", name, p.get("discard", -1), "widow", bool(p.get("show", False)),
                        masks["keep"], masks["last"], masks["shown"], bool(p.get("hand", False)))


def cards_named(c, text: str, path: tuple) -> int:
    """The cards a space-separated text names: ranks (every card of the rank), suit letters (a
    whole suit), cards, suitless cards' tokens (every copy); a word that names nothing is
    reported at ``path``."""
    deck = c.deck
    m = 0
    for w in str(text).split():
        if w in deck.ranks:
            m |= sum(1 << x for x in range(deck.size) if deck.rank_of(x) == w and not deck.is_special(x))
        elif w in deck.suits:
            m |= deck.suit_mask(w)
        elif any(sp.kind == w for sp in deck.specials):
            m |= sum(deck.copies_of(deck.index[sp.token]) for sp in deck.specials if sp.kind == w)
        else:
            try:
                m |= deck.named_mask(w)
            except CardError as e:
                c.err(path, f"{e} (expected ranks, suit letters or cards)")
    return m


class ExchangeKind(PhaseKind[ExchangeSpec]):
    """The ``widow_exchange`` kind (see the module docstring)."""

    name = "widow_exchange"
    schema = {'description': 'The declarer takes the widow into his hand and discards as many cards face down.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind'],
              'properties': {'kind': True,
                             'discard': {'description': "Cards to discard (default: the widow's size).",
                                         'type': 'integer',
                                         'minimum': 0},
                             'show': {'description': 'The widow is turned face up for everyone as the '
                                                     'declarer takes it (default: taken unseen).',
                                      'type': 'boolean'},
                             'keep': {'description': 'Cards that may never be discarded: ranks (`K`), suit '
                                                     'letters, cards, suitless tokens, space separated '
                                                     '(`"K 1T 21T EX"`: kings and the oudlers).',
                                      'type': 'string'},
                             'last': {'description': 'Cards that may be discarded only when the declarer has '
                                                     'not enough other cards to discard (`"T"`: trumps), '
                                                     'as `keep`.',
                                      'type': 'string'},
                             'shown': {'description': 'Cards shown to every player when discarded (`"T"`: a '
                                                      'discarded trump is shown), as `keep`.',
                                       'type': 'string'},
                             'hand': {'description': 'The declarer first says `take` (he takes the widow and '
                                                     'discards) or `hand`: he plays without it, the widow '
                                                     'staying face down (a hand game); formula variable '
                                                     '`hand_game`; a contract with `hand: true` may then only '
                                                     'be announced in a hand game.',
                                      'type': 'boolean'}}}
    label = "discard"
    role = "exchange"
    example = "exchange: {kind: widow_exchange}"
    compile = staticmethod(compile_exchange)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    legal_choices = staticmethod(legal_choices)
    choice_action = staticmethod(choice_action)
    choice_of = staticmethod(choice_of)
    apply_choice = staticmethod(apply_choice)

    def acts_for_declarer(self, p: dict) -> bool:
        """The declarer takes the widow."""
        return True

    def finish(self, c, spec):
        """The deal must put a widow aside, and the discard match its size."""
        deal = c.deal
        if deal is None or spec is None:
            return spec
        if deal.sizes:  # a schedule of hand sizes deals no widow: the rest is the stock
            c.err(("phases", spec.name), "a widow_exchange needs a widow, but the deal follows hand_sizes "
                  "and leaves the undealt cards as the stock (expected a deal pattern with a widow, "
                  "and no hand_sizes)")
            return spec
        # the cards dealt aside under the name the game gives them (a widow, a kitty, a talon)
        zone = next((z for z in ("widow", "kitty", "talon", "dog", "skat") if z in deal.zones), None)
        if zone is None:
            c.err(("phases", spec.name), "a widow_exchange needs a widow in the deal pattern "
                  "(expected e.g. \"..., widow 3 up\", or a kitty or talon)")
            return spec
        size = deal.zones[zone][0]
        if zone != spec.zone:
            spec = dataclasses.replace(spec, zone=zone)
        if spec.discard < 0:
            return dataclasses.replace(spec, discard=size)
        if spec.discard != size:
            hand = sum(st.count * st.repeat for st in deal.steps if not st.zone)
            c.err(("phases", spec.name, "discard"), f"discarding {spec.discard} after taking the "
                  f"{size}-card {zone} leaves the declarer {hand + size - spec.discard} cards and the "
                  f"others {hand} (expected discard: {size})")
        return spec

    def variables(self, spec) -> dict:
        """With ``hand``: ``hand_game``, the declarer plays without the widow."""
        return {"hand_game": (0, 1)} if spec.hand else {}

    def values(self, variant, hand, spec) -> list:
        """``hand_game``, the same for every column."""
        if not spec.hand:
            return []
        d = self.data_of(hand)
        cols = len(variant.sides) if variant.scoring.by_side else variant.players
        return [{"hand_game": bool(d is not None and d.hand_game)} for _ in range(cols)]

    def parse(self, text: str, state: Table):
        """``take`` or ``hand``."""
        t = text.strip().lower()
        return {"take": TAKE, "hand": HAND}.get(t) if getattr(KIND.spec(state), "hand", False) else None

    def observe(self, state: Table, seat: int) -> dict:
        """Public: whether the declarer plays hand."""
        d = self.data_of(state.hand)
        return {"hand_game": d.hand_game} if d is not None else {}

    # ------------------------------------------------------------------ the scorepad
    def pad_question(self, spec, variant, facts: dict, names: list):
        """With ``hand``, once a declarer is known: did he play hand?"""
        if not spec.hand or facts.get("declarer", -1) < 0 or "hand" in facts:
            return None
        return ("hand", "hand game", "yes (the declarer played without the widow) or no")

    def pad_answer(self, spec, variant, fact: str, text: str, facts: dict, names: list) -> None:
        """``yes`` or ``no``.

        :raises ValueError: another answer."""
        t = text.strip().lower()
        if fact != "hand" or t not in ("yes", "no", "y", "n"):
            raise ValueError(f"{text!r}: expected yes or no")
        facts[fact] = "yes" if t.startswith("y") else "no"

    def pad_values(self, spec, variant, facts: dict, contract, won: list) -> list:
        """``hand_game`` as typed."""
        if not spec.hand:
            return []
        cols = len(variant.sides) if variant.scoring.by_side else variant.players
        return [{"hand_game": facts.get("hand") == "yes"} for _ in range(cols)]

    def pad_facts(self, spec, variant, hand) -> dict:
        """``yes`` / ``no`` for a hand with a declarer."""
        d = self.data_of(hand)
        return {"hand": "yes" if d.hand_game else "no"} if spec.hand and d is not None else {}

    def discards(self, spec, hand, variant) -> int:
        """The declarer's one discard."""
        return 1

    def shown_out(self, state: Table) -> int:
        """The discards shown to everyone (``shown``)."""
        d = self.data_of(state.hand)
        return d.shown if d is not None else 0

    def said(self, spec, hand, variant, seat: int, text: str, names: list) -> Said | None:
        """``takes the talon and discards 2 cards``: the phase's own name for what it takes
        (``talon``), unless that name only says the act (``exchange``), then its zone."""
        if text == "hand":
            return Said(seat, "plays hand", "play hand")
        if not text.startswith("discard "):
            return None
        pile = spec.zone if spec.name in ("exchange", "discard", spec.kind) else spec.name
        n = n_cards(len(text.split()) - 1)
        return Said(seat, f"takes the {pile} and discards {n}", f"take the {pile} and discard {n}")

    def help_line(self, spec, variant) -> str:
        """``discard CARD CARD CARD (e.g. discard 7C 8C 9D)``."""
        if spec.hand:
            return "take or hand; after take, discard " + " ".join(["CARD"] * spec.discard)
        return "discard " + " ".join(["CARD"] * spec.discard) + " (e.g. discard 7C 8C 9D)"

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``take`` and ``hand`` with ``hand``; else none (its discards are cards)."""
        return ("take", "hand") if spec.hand else ()

    def describe(self, spec) -> str:
        """One sentence (with ``hand``, the choice first), then the restrictions on the discards."""
        shown = " as everyone sees it" if spec.show else ""
        hand = (f"The declarer either plays hand (the {spec.zone} stays face down, unseen; formula variable "
                f"hand_game) or takes it: " if spec.hand else "")
        text = (hand + f"{'he' if spec.hand else 'The declarer'} takes the {spec.zone} into his hand{shown} and "
                f"then discards "
                f"{'any ' if not (spec.keep or spec.last) else ''}{spec.discard} cards face down; the discards take "
                f"no further part in the play.")
        for key, mask, words in (("keep", spec.keep, "may never be discarded"),
                                 ("last", spec.last, "may be discarded only when he has not enough other cards "
                                                     "to discard"),
                                 ("shown", spec.shown, "are shown to everyone when discarded")):
            if mask:
                text += f" Some cards {words} (`{key}`)."
        return text

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe` naming the cards of the restrictions, saying the discards count for
        the declarer with a trick phase's ``widow_to: declarer``."""
        deck = variant.deck
        text = self.describe(spec)
        if any(getattr(p, "discards_to", "") == "declarer" for p in variant.phases):
            text = text.replace("the discards take no further part in the play",
                                "the discards count for him at the end of play")
        for key in ("keep", "last", "shown"):
            mask = getattr(spec, key)
            if mask:
                text = text.replace("Some cards", _cards_words(deck, mask), 1)
        return text


def _cards_words(deck, mask: int) -> str:
    """``Kings, the 1T, the 21T and the EX``: whole suits and ranks by name, other cards by face."""
    words = []
    for s in deck.suits:
        m = deck.suit_mask(s)
        if m and mask & m == m:
            words.append(deck.suit_name(s)[:1].upper() + deck.suit_name(s)[1:])
            mask &= ~m
    for r in deck.ranks:
        m = sum(1 << x for x in range(deck.size) if deck.rank_of(x) == r and not deck.is_special(x))
        if m and mask & m == m and m.bit_count() > 1:
            words.append({"K": "Kings", "Q": "Queens", "J": "Jacks", "A": "Aces"}.get(r, f"The {r}s"))
            mask &= ~m
    words += [f"the {deck.pretty(c)}" for c in bit_list(mask) if deck.copies_of(c) & -deck.copies_of(c) == 1 << c]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


KIND = ExchangeKind()
