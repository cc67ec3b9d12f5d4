"""``widow_exchange`` phase (rules/fivehundred.md [W1]).

The declarer takes the widow into his hand and discards as many cards face
down (any cards, including those just taken).  Discards score nothing and are
seen by nobody else.  With ``show: true`` the widow is shown to everyone as he takes it
(every seat then knows those cards are in his hand until played).  With ``hand: true`` he
first says ``take`` (then discards as above) or ``hand``: he plays without the widow, which
stays face down, unseen by all (Skat's hand game, docs/rules/skat.md [SK-G1]); formulas read
``hand_game``, and a contract with ``hand: true`` may then only be announced in a hand game.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from rulekit.cards import bit_list
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said, n_cards
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class ExchangeSpec(PhaseSpec):
    """``widow_exchange`` phase (rules/fivehundred.md [W1]): discard this many cards;
    ``show``: the widow is turned face up for everyone as the declarer takes it."""

    discard: int
    zone: str
    show: bool = False
    hand: bool = False
    """The declarer may play ``hand``, without the widow ([SK-G1])."""


TAKE = Action("take", "take")
HAND = Action("hand", "hand")


@dataclass
class ExchangeData(KindData):
    """``widow_exchange`` with ``hand``: ``choosing`` (he has not said ``take`` or ``hand``
    yet) and ``hand_game`` (he plays hand)."""

    choosing: bool = True
    hand_game: bool = False


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

    def __init__(self, deck, hand: int, k: int):
        self.deck = deck
        self.cards = bit_list(hand)
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
        m = 0
        k = self.k
        cards = self.cards
        left = len(cards) - 1   # cards after the one considered
        j = 0
        while k:   # the i-th k-set in lexicographic order: take card j or skip its sets
            c = comb(left - j, k - 1)
            if i < c:
                m |= 1 << cards[j]
                k -= 1
            else:
                i -= c
            j += 1
        return Action.discard(self.deck, m)

    def __eq__(self, other):
        if isinstance(other, DiscardChoices):
            return self.cards == other.cards and self.k == other.k
        return list(self) == other

    __hash__ = None  # type: ignore[assignment]  # a mutable-looking sequence: unhashable like a list

    def __contains__(self, action) -> bool:
        # without this, ``x in choices`` would build every choice (C(13, 7) actions) to compare
        cards = getattr(action, "cards", 0)
        return (getattr(action, "kind", None) == "discard" and cards.bit_count() == self.k
                and not cards & ~sum(1 << c for c in self.cards))

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
            m = 0
            for c in combo:
                m |= 1 << c
            yield Action.discard(self.deck, m)


def legal(state: Table) -> Sequence:
    """Every set of ``discard`` cards from the declarer's hand (a lazy :class:`DiscardChoices`);
    with ``hand``, first ``take`` and ``hand``."""
    h = state.hand
    if _choosing(state):
        return [TAKE, HAND]
    return DiscardChoices(state.variant.deck, h.hands[h.declarer], KIND.spec(state).discard)


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


def apply(state: Table, action: Action) -> bool:
    """Remove the discards from the declarer's hand; ``take`` takes the widow, ``hand`` ends
    the phase with the widow untouched."""
    h = state.hand
    if _choosing(state):
        d = KIND.data(state)
        d.choosing = False
        if action.kind == "hand":
            d.hand_game = True
            return True
        _take(state)
        return False
    h.hands[h.declarer] &= ~action.cards
    h.discards |= action.cards
    return True


def compile_exchange(c, name: str, p: dict, path: tuple):
    """The :class:`ExchangeSpec`; the count is checked in :meth:`finish`."""
    return ExchangeSpec("widow_exchange", name, p.get("discard", -1), "widow", bool(p.get("show", False)),
                        bool(p.get("hand", False)))


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
        zone = next((z for z in ("widow", "kitty", "talon") if z in deal.zones), None)
        if zone is None:
            c.err(("phases", spec.name), "a widow_exchange needs a widow in the deal pattern "
                  "(expected e.g. \"..., widow 3 up\", or a kitty or talon)")
            return spec
        size = deal.zones[zone][0]
        if zone != spec.zone:
            spec = type(spec)(spec.kind, spec.name, spec.discard, zone, spec.show, spec.hand)
        if spec.discard < 0:
            return type(spec)(spec.kind, spec.name, size, zone, spec.show, spec.hand)
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

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe`, saying the discards count for the declarer with a trick phase's
        ``widow_to: declarer``."""
        text = self.describe(spec)
        if any(getattr(p, "widow_to", "") == "declarer" for p in variant.phases):
            text = text.replace("the discards take no further part in the hand",
                                "the discards count for him at the end of play")
        return text

    def help_line(self, spec, variant) -> str:
        """``discard CARD CARD CARD (e.g. discard 7C 8C 9D)``."""
        if spec.hand:
            return "take or hand; after take, discard " + " ".join(["CARD"] * spec.discard)
        return "discard " + " ".join(["CARD"] * spec.discard) + " (e.g. discard 7C 8C 9D)"

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``take`` and ``hand`` with ``hand``; else none (its discards are cards)."""
        return ("take", "hand") if spec.hand else ()

    def describe(self, spec) -> str:
        """One sentence."""
        hand = (f"The declarer either plays hand (the {spec.zone} stays face down, unseen; formula variable "
                f"hand_game) or takes it: " if spec.hand else "")
        return (hand + f"{'he' if spec.hand else 'The declarer'} takes the {spec.zone} into his hand and then "
                f"discards any {spec.discard} cards face down; the discards take no further part in the hand.")


KIND = ExchangeKind()
