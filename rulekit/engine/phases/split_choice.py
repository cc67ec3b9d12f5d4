"""``split_choice`` phase: a deal split by a decision (rules/king.md [K9]-[K12]).

The deal phase before it shuffles and assigns every card, but this phase hands out
only part of the deal first: the chooser (the eldest hand, so that the chooser rotates
with the deal and each player chooses once in as many rounds as there are players)
gets the first ``first`` cards dealt to him; every other card is held back.  He then
decides, by one of the ``options``:

* ``name`` - ``trump S``: he names the trump suit;
* ``ask`` - ``ask S``: he names a suit and his cards are turned one by one: the named
  suit is trumps as soon as one of them is of it, otherwise the suit of the highest;
* ``turn`` - ``turn``: his cards are turned and the suit of the highest is trumps (on
  equal ranks, the first turned).

Then the rest of the deal is handed out.  The turned cards are chance events: they are
shown to every seat, listed in the hand's actions and in :attr:`State.chance`.

Until then the rest of the deal is nobody's to see, the chooser's own later cards included:
each seat's part lies in a face-down zone (``to deal NAME``), which observations hide and a
bot's sampled worlds fill at random like any face-down zone; the hand as dealt
(``Hand.dealt``) holds only the cards handed out so far.  The order the chooser's first cards
were dealt in (the order they are turned) is kept as a permutation of his hand, which names
no card (rules/king.md [K9]; fair play: a sampled world never rebuilds the real deal).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.deal import deal_plan
from rulekit.errors import IllegalActionError

OPTIONS = ("name", "ask", "turn")


@dataclass(frozen=True)
class SplitChoiceSpec(PhaseSpec):
    """The compiled ``split_choice`` entry: cards shown first, the options offered."""

    first: int
    options: tuple


@dataclass
class SplitChoiceData(KindData):
    """``split_choice``'s data for one hand: the ``chooser``; the ``order`` his first cards were
    dealt in, as a permutation of his hand sorted (it names no card); the ``rest`` of the deal,
    ``(seat, zone)`` of the face-down zones holding each seat's later cards; the cards
    ``turned`` for the decision; ``how`` he decided (the action's text, ``""`` before)."""

    chooser: int
    order: list[int]
    rest: list[tuple[int, str]]
    turned: list[int] = field(default_factory=list)
    how: str = ""


def turn_action() -> Action:
    """The ``turn`` action (turn the cards; the highest names trumps)."""
    return Action("turn", "turn")


def ask_action(suit: str) -> Action:
    """The ``ask S`` action (turn the cards until one of suit ``S``)."""
    return Action("ask", f"ask {suit}", suit=suit)


def decide(order: list, strength, suit_of, asked: str = "") -> tuple:
    """``(trump suit, cards turned)`` for turning ``order`` (cards in dealing order): with
    ``asked``, stop at the first card of that suit; else the suit of the highest card
    (``strength``: card -> rank strength), the first turned on equal ranks."""
    turned = []
    for c in order:
        turned.append(c)
        if asked and suit_of(c) == asked:
            return asked, turned
    best = turned[0]
    for c in turned[1:]:
        if strength[c] > strength[best]:
            best = c
    return suit_of(best), turned


class SplitChoiceKind(PhaseKind[SplitChoiceSpec]):
    """The ``split_choice`` kind (see the module docstring)."""

    name = "split_choice"
    schema = {'description': "Part of the deal, then a decision, then the rest of the deal: the chooser "
                             "(the eldest hand, so the choice rotates with the deal) sees his first cards and "
                             "names trumps, or names a suit and has them turned, or has them turned.",
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind', 'first'],
              'properties': {'kind': True,
                             'first': {'description': 'Cards the chooser gets (the first dealt to him) before '
                                                      'he decides.',
                                       'type': 'integer', 'minimum': 1, 'maximum': 20},
                             'options': {'description': '`name` (trump S), `ask` (ask S: turned one by one, '
                                                        'the named suit if one is of it, else the highest\'s '
                                                        'suit), `turn` (turned: the highest\'s suit). Default: '
                                                        'all three.',
                                         'type': 'array', 'minItems': 1, 'uniqueItems': True,
                                         'items': {'enum': list(OPTIONS)}}}}
    label = "choose"
    example = "choose: {kind: split_choice, first: 3, options: [name, ask, turn]}"

    def compile(self, c, name: str, p: dict, path: tuple):
        """The chooser must be dealt at least ``first`` cards."""
        spec = SplitChoiceSpec(self.name, name, p["first"], tuple(p.get("options", OPTIONS)))
        return spec

    def finish(self, c, spec):
        """The deal must give the chooser ``first`` cards."""
        c.check_takes(("phases", spec.name, "first"), spec.first, "hands the chooser first")
        return spec

    def strains(self, spec, deck) -> set:
        """Any suit may become trumps."""
        return set(deck.suits)

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``trump S``, ``ask S`` for each suit, and ``turn``, as the options allow."""
        suits = variant.deck.suits
        return ((tuple(f"trump {s}" for s in suits) if "name" in spec.options else ())
                + (tuple(ask_action(s).text for s in suits) if "ask" in spec.options else ())
                + ((turn_action().text,) if "turn" in spec.options else ()))

    def describe(self, spec) -> str:
        """One sentence."""
        words = {"name": "names trumps", "ask": "names a suit and has them turned",
                 "turn": "has them turned for the highest's suit"}
        how = ", or ".join(words[o] for o in spec.options)
        return (f"The eldest hand gets his first {spec.first} cards and {how}; then the rest of the deal "
                f"is handed out.")

    # ------------------------------------------------------------------ rules
    def start(self, state: Table) -> bool:
        """Hold back every card but the chooser's first ones, face down (see the module docstring)."""
        h = state.hand
        spec = KIND.spec(state)
        n = h.players
        chooser = h.eldest
        deal = next(p for p in state.variant.phases if p.kind == "deal")
        plan = deal_plan(deal, n)
        first: list[int] = []
        for target, c in zip(plan, h.deck_order):
            if target.__class__ is int and state.next_seat(h.eldest, target) == chooser and len(first) < spec.first:
                first.append(c)
        mask = sum(1 << c for c in first)
        rest = []
        for s in range(n):
            held = h.hands[s] & ~(mask if s == chooser else 0)
            if held:
                zone = _zone(state, s)
                h.zones[zone], h.zone_up[zone] = held, False
                rest.append((s, zone))
        ordered = sorted(first)
        h.phase_state[self.name] = SplitChoiceData(chooser, [ordered.index(c) for c in first], rest)
        h.hands = [0] * n
        h.hands[chooser] = mask
        h.dealt = list(h.hands)
        h.to_move = chooser
        return True

    def legal(self, state: Table) -> list:
        """``trump S`` per suit, then ``ask S`` per suit, then ``turn`` (as the options allow)."""
        spec = KIND.spec(state)
        suits = state.variant.deck.suits
        out: list = []
        if "name" in spec.options:
            out += [Action.trump(s) for s in suits]
        if "ask" in spec.options:
            out += [ask_action(s) for s in suits]
        if "turn" in spec.options:
            out.append(turn_action())
        return out

    def check(self, state: Table, action: Action) -> None:
        """:raises IllegalActionError: not one of the offered decisions."""
        if action not in self.legal(state):
            forms = {"name": "trump SUIT", "ask": "ask SUIT", "turn": "turn"}
            raise IllegalActionError("choose trumps now: " + ", ".join(forms[o] for o in KIND.spec(state).options))

    def apply(self, state: Table, action: Action) -> bool:
        """Decide trumps, turn cards when asked (chance events), hand out the rest of the deal."""
        h = state.hand
        d = self.data(state)
        v = state.variant
        if action.kind == "trump":
            suit = action.suit
        else:
            strength = v.contexts["NT"].strength
            ordered = sorted(bits(h.hands[d.chooser]))
            first = [ordered[i] for i in d.order]
            suit, turned = decide(first, strength, v.deck.suit_of, action.suit if action.kind == "ask" else "")
            d.turned = turned
            text = "turned " + " ".join(v.deck.name(c) for c in turned)
            state.note_chance(d.chooser, text)
        d.how = action.text
        state.set_trump(suit)
        for s, zone in d.rest:   # the rest of the deal, to each seat
            cards = h.zones.pop(zone, 0)
            h.zone_up.pop(zone, None)
            h.hands[s] |= cards
            h.dealt[s] |= cards
        d.rest = []
        return True

    # ------------------------------------------------------------------ words and views
    def parse(self, text: str, state: Table):
        """``turn`` and ``ask S``."""
        words = text.split()
        if words and words[0].lower() == "turn" and len(words) == 1:
            return turn_action()
        if len(words) == 2 and words[0].lower() == "ask" and words[1].upper() in state.variant.deck.suits:
            return ask_action(words[1].upper())
        return None

    def help_line(self, spec, variant) -> str:
        """The decision's forms."""
        forms = {"name": "trump SUIT (name trumps)", "ask": "ask SUIT (turn the cards for that suit)",
                 "turn": "turn (the highest card turned names trumps)"}
        return "; ".join(forms[o] for o in spec.options)

    def observe(self, state: Table, seat: int) -> dict:
        """The chooser, the cards turned (face up: public) and the decision."""
        d = self.data_of(state.hand)
        if d is None:
            return {}
        return {"chooser": d.chooser, "turned": list(d.turned), "choice": d.how}


def _zone(state: Table, seat: int) -> str:
    """The face-down zone holding the cards still to be dealt to ``seat`` (``to deal E``)."""
    names = list(state.names)
    return f"to deal {names[seat]}" if names.count(names[seat]) == 1 else f"to deal seat {seat + 1}"


KIND = SplitChoiceKind()

__all__ = ["KIND", "SplitChoiceKind", "SplitChoiceSpec", "ask_action", "decide", "turn_action"]
