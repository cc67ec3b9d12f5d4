"""``widow_exchange`` phase (rules/fivehundred.md [W1]).

The declarer takes the widow into his hand and discards as many cards face
down (any cards, including those just taken).  Discards score nothing and are
seen by nobody else.  With ``show: true`` the widow is shown to everyone as he takes it
(every seat then knows those cards are in his hand until played).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from rulekit.cards import bit_list
from rulekit.engine.actions import Action
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


def start(state: Table) -> bool:
    """Applies only with a declarer; moves the widow into his hand."""
    h = state.hand
    if h.declarer < 0:
        return False
    zone = KIND.spec(state).zone
    if KIND.spec(state).show:  # seen by all: observations place the dealt widow in his hand
        h.zone_up[zone] = True
    h.hands[h.declarer] |= h.zones.get(zone, 0)
    h.zones[zone] = 0
    h.to_move = h.declarer
    return True


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
    """Every set of ``discard`` cards from the declarer's hand (a lazy :class:`DiscardChoices`)."""
    h = state.hand
    return DiscardChoices(state.variant.deck, h.hands[h.declarer], KIND.spec(state).discard)


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: wrong kind, wrong count or a card not held."""
    h = state.hand
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
    """Remove the discards from the declarer's hand."""
    h = state.hand
    h.hands[h.declarer] &= ~action.cards
    h.discards |= action.cards
    return True


def compile_exchange(c, name: str, p: dict, path: tuple):
    """The :class:`ExchangeSpec`; the count is checked in :meth:`finish`."""
    return ExchangeSpec("widow_exchange", name, p.get("discard", -1), "widow", bool(p.get("show", False)))


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
            spec = type(spec)(spec.kind, spec.name, spec.discard, zone, spec.show)
        if spec.discard < 0:
            return type(spec)(spec.kind, spec.name, size, zone, spec.show)
        if spec.discard != size:
            hand = sum(st.count * st.repeat for st in deal.steps if not st.zone)
            c.err(("phases", spec.name, "discard"), f"discarding {spec.discard} after taking the "
                  f"{size}-card {zone} leaves the declarer {hand + size - spec.discard} cards and the "
                  f"others {hand} (expected discard: {size})")
        return spec

    def discards(self, spec, hand, variant) -> int:
        """The declarer's one discard."""
        return 1

    def said(self, spec, hand, variant, seat: int, text: str, names: list) -> Said | None:
        """``takes the talon and discards 2 cards``: the phase's own name for what it takes
        (``talon``), unless that name only says the act (``exchange``), then its zone."""
        if not text.startswith("discard "):
            return None
        pile = spec.zone if spec.name in ("exchange", "discard", spec.kind) else spec.name
        n = n_cards(len(text.split()) - 1)
        return Said(seat, f"takes the {pile} and discards {n}", f"take the {pile} and discard {n}")

    def help_line(self, spec, variant) -> str:
        """``discard CARD CARD CARD (e.g. discard 7C 8C 9D)``."""
        return "discard " + " ".join(["CARD"] * spec.discard) + " (e.g. discard 7C 8C 9D)"

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: its discards are cards."""
        return ()

    def describe(self, spec) -> str:
        """One sentence."""
        return (f"The declarer takes the {spec.zone} into his hand and then discards any {spec.discard} cards "
                f"face down; the discards take no further part in the hand.")


KIND = ExchangeKind()
