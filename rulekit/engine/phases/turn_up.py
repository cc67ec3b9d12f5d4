"""``turn_up`` phase: trumps are the suit of the dealer's last card, turned face up
(rules/whist.md [K1]).

The card belongs to the dealer's hand but stays face up on the table, seen by
every seat, until the dealer plays to the first trick.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, card_place
from rulekit.engine.phases.table import Table
from rulekit.errors import CardError


@dataclass(frozen=True)
class TurnUpSpec(PhaseSpec):
    """``turn_up`` phase (rules/whist.md [K1]): trumps are the suit of the dealer's last card,
    or of the top card of a zone left undealt (``from: talon``; ``card: stock`` is ``from:
    stock``, the stock of a deal by hand sizes), no trumps when none is left.

    :ivar zone: the zone whose top card is turned (``""``: the dealer's last card).
    :ivar meaning: ``((cards, meaning), ...)``: what a turned card of those cards means instead
        of naming its suit: ``no_trump`` (a Jester: no trumps) or ``dealer_names`` (a Wizard:
        the dealer names trumps, ``trump S``).
    """

    card: str = "dealer_last"
    zone: str = ""
    meaning: tuple = ()


@dataclass
class TurnUpData(KindData):
    """``turn_up``'s data when a zone's card is turned or the dealer names trumps: ``card``, the
    card turned (-1: none); ``zone``, where it lies; ``namer``, the dealer while he is to name
    trumps (a turned card that lets him), else -1."""

    card: int = -1
    zone: str = ""
    namer: int = -1


def meaning_of(spec: TurnUpSpec, card: int) -> str:
    """What the turned ``card`` means: ``trumps`` (its suit is trumps), ``no_trump`` or
    ``dealer_names`` (``turn_up``'s ``meaning``)."""
    if card < 0:
        return "no_trump"
    for mask, what in spec.meaning:
        if mask >> card & 1:
            return what
    return "trumps"


def start(state: Table) -> bool:
    """Turn up the card and set trumps; the phase needs no action unless the card lets the
    dealer name trumps."""
    h = state.hand
    spec = KIND.spec(state)
    if spec.zone:  # the top card of a zone, seen by all
        zone = h.zones.get(spec.zone, 0)
        card = next((c for c in h.deck_order if zone >> c & 1), -1)
        data = h.phase_state[KIND.name] = TurnUpData(card, spec.zone)
    else:
        card = h.deck_order[-1]
        h.turned = card
        data = None
    what = meaning_of(spec, card)
    if what == "dealer_names":
        if data is None:
            data = h.phase_state[KIND.name] = TurnUpData(card)
        data.namer = h.dealer
        h.to_move = h.dealer
        state.set_trump("NT")
        return True
    suit = state.variant.deck.suit_of(card) if card >= 0 else None
    state.set_trump("NT" if what == "no_trump" or suit is None else suit)   # (a suitless card names no suit)
    return False


def legal(state: Table) -> list:
    """The dealer names trumps: ``trump S`` for each suit."""
    return [Action.trump(s) for s in state.variant.deck.suits]


def apply(state: Table, action: Action) -> bool:
    """Set the suit the dealer named as trumps."""
    state.set_trump(action.suit)
    KIND.data(state).namer = -1
    return True


def compile_turn_up(c, name: str, p: dict, path: tuple):
    """The :class:`TurnUpSpec`: the zone turned from (a deal must leave it), what turned cards mean."""
    deck = c.deck
    if "from" in p and "card" in p:
        c.err(path + ("from",), "from and card both say where the card comes from (expected one of them)")
    zone = p.get("from", "stock" if p.get("card") == "stock" else "")
    meaning = []
    for key, what in (p.get("meaning") or {}).items():
        word = str(key)
        try:
            if word in deck.ranks:
                mask = sum(1 << x for x in range(deck.size) if deck.rank_of(x) == word and not deck.is_special(x))
            elif any(sp.kind == word for sp in deck.specials):
                mask = sum(deck.copies_of(deck.index[sp.token]) for sp in deck.specials if sp.kind == word)
            else:
                mask = deck.named_mask(word)
        except CardError as e:
            c.err(path + ("meaning", key, "<key>"), f"{e} (expected a card, a rank or a suitless card's token)")
            continue
        meaning.append((mask, what))
    return TurnUpSpec("turn_up", name, p.get("card", "dealer_last"), zone, tuple(meaning))


class TurnUpKind(PhaseKind[TurnUpSpec]):
    """The ``turn_up`` kind (see the module docstring)."""

    name = "turn_up"
    schema = {'description': "Trumps are the suit of a turned card: the dealer's last card, which lies face "
                             'up until he plays to the first trick, or (`card: stock`) the top card of the '
                             'undealt stock.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind'],
              'properties': {'kind': True,
                             'card': {'description': '`dealer_last` (default): the dealer\'s last card; '
                                                     '`stock`: the top card of the undealt stock (deal '
                                                     'hand_sizes), no trumps when none is left.',
                                      'enum': ['dealer_last', 'stock']},
                             'from': {'description': 'The zone of the deal whose top card is turned (the '
                                                     'first of it in dealing order: "the next card is '
                                                     'turned face up on the pack"), e.g. `talon`; it stays '
                                                     'there, face up, unless taken (`rob`).',
                                      'type': 'string', 'pattern': '^[a-z]+$'},
                             'meaning': {'description': 'What a turned card means instead of naming its suit, '
                                                        'by card, rank or suitless card\'s token: `trumps` '
                                                        '(its suit, the default), `no_trump` (no trumps this '
                                                        'hand) or `dealer_names` (the dealer names trumps: '
                                                        '`trump S`), e.g. `{W: dealer_names, N: no_trump}`.',
                                         'type': 'object',
                                         'additionalProperties': {'enum': ['trumps', 'no_trump', 'dealer_names']}}}}
    label = "turn up"
    role = "trump"   # when the turned card lets the dealer name trumps, he chooses as a trump namer
    example = "trumps: {kind: turn_up}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    apply = staticmethod(apply)
    compile = staticmethod(compile_turn_up)

    def strains(self, spec, deck) -> set:
        """Any suit may be turned (and no trumps when the zone is empty or a card means none)."""
        return set(deck.suits) | ({"NT"} if spec.zone or spec.meaning else set())

    def finish(self, c, spec):
        """A zone turned from must be one the deal leaves."""
        deal = c.deal
        if spec is not None and deal is not None and spec.zone and spec.zone != "stock" and spec.zone not in deal.zones:
            c.err(("phases", spec.name, "from"), f"the deal leaves no {spec.zone} (expected a zone of its pattern"
                  + (f": {', '.join(deal.zones)})" if deal.zones else ", such as \"..., talon 32\")"))
        return spec

    def help_line(self, spec, variant) -> str:
        """``trump S`` when the turned card lets the dealer name trumps."""
        return "trump SUIT (e.g. trump H): the dealer names trumps" if spec.meaning else ""

    def observe(self, state: Table, seat: int) -> dict:
        """``turned``: the stock card turned for trumps (public), when there is one."""
        d = self.data_of(state.hand)
        return {"turned": d.card} if d is not None else {}

    def show(self, data, variant, names=None) -> list:
        """The stock card turned for trumps, public: ``turned  8♥`` as an order-up shows its own
        (user pass 2, finding 9); none when the stock was empty."""
        card = data.card
        return [("turned", variant.deck.pretty(card))] if card >= 0 else []

    def known_cards(self, state: Table) -> list:
        """The stock card turned for trumps lies face up on the stock (public)."""
        d = self.data_of(state.hand)
        return card_place(state, d.card) if d is not None else []

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: nobody acts."""
        return ()

    def describe(self, spec) -> str:
        """One sentence (and what a turned card means, when some card means something else)."""
        if spec.card == "stock":
            text = ("The top card of the undealt stock is turned face up; its suit is trumps for the hand "
                    "(when every card was dealt, the hand is played without trumps).")
        elif spec.zone:
            text = (f"The top card of the {spec.zone} is turned face up and stays there; its suit is trumps for "
                    f"the hand.")
        else:
            text = ("The dealer's last card is turned face up; its suit is trumps for the hand, and the dealer "
                    "takes the card into his hand when he plays to the first trick.")
        if any(w == "no_trump" for _m, w in spec.meaning):
            text += " Some turned cards mean no trumps (`meaning`)."
        if any(w == "dealer_names" for _m, w in spec.meaning):
            text += " Some let the dealer name trumps, after looking at his cards (`trump S`)."
        return text

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe`, naming the cards of ``meaning``."""
        text = self.describe(spec)
        deck = variant.deck
        for what, words in (("no_trump", "mean no trumps"), ("dealer_names", "let the dealer name trumps, "
                                                                              "after looking at his cards (`trump S`)")):
            cards = [deck.base(c) if not deck.is_special(c) or deck.special_name(c) == deck.name(c) else
                     f"{deck.special_name(c).removeprefix('the ')} ({deck.base(c)})"
                     for m, w in spec.meaning if w == what for c in range(deck.size) if m >> c & 1]
            if cards:
                shown = " ".join(dict.fromkeys(cards))
                text = text.replace(f" Some turned cards mean no trumps (`meaning`)." if what == "no_trump" else
                                    " Some let the dealer name trumps, after looking at his cards (`trump S`).",
                                    f" A turned {shown} {'means' if len(set(cards)) == 1 else 'mean'} "
                                    f"{words.removeprefix('mean ')}." if what == "no_trump" else
                                    f" A turned {shown} {words.replace('let ', 'lets ')}.")
        return text


KIND = TurnUpKind()
