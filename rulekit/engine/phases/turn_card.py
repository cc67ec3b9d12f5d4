"""``turn_card`` phase: a chance event — a card turned from a second pack, shown to
everyone (rules/boston.md [D2]: its suit is the first suit this hand).

The turn is an action of the seat who turns (``turn 7H``), so the record stores it with
the other actions and a replay is exact; the card is drawn from the seed, and any card
of the pack is accepted when a record or a real table says which was turned.  With
``classes: colour`` the turned card's suit is class 1, the other suit of its colour class
2 and the suits of the other colour class 3 (``suit_classes``, read by a
``list_auction`` whose values depend on ``suit_class``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from rulekit.cards import SUIT_NAMES
from rulekit.contracts import Contract
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.errors import CardError, IllegalActionError


@dataclass(frozen=True)
class TurnCardSpec(PhaseSpec):
    """``turn_card`` phase: who turns (``by``) and how suits are classed (``classes``)."""

    by: str
    classes: str


@dataclass
class TurnCardData(KindData):
    """``turn_card``'s data for one hand: ``drawn``, the card the seed turns; ``card``, the card
    turned (-1: not yet); ``suit_classes``, suit -> its class (1, 2, 3) by that card."""

    drawn: int
    card: int = -1
    suit_classes: dict[str, int] = field(default_factory=dict)


def turner(state: Table) -> int:
    """The seat who turns: ``opposite`` the dealer, the ``dealer`` or the ``eldest``."""
    h = state.hand
    n = state.variant.players
    return {"dealer": h.dealer, "eldest": h.eldest, "opposite": (h.dealer + n // 2) % n}[KIND.spec(state).by]


def start(state: Table) -> bool:
    """Draw the card of the second pack from the seed; the turner is to act."""
    h = state.hand
    rng = state.chance_rng("turn")
    h.phase_state[KIND.name] = TurnCardData(rng.randrange(state.variant.deck.size))
    h.to_move = turner(state)
    return True


def turn_action(state: Table, card: int) -> Action:
    """``turn CARD``."""
    return Action("turn", f"turn {state.variant.deck.name(card)}", card=card)


def legal(state: Table) -> list:
    """The one card the seed turns."""
    return [turn_action(state, KIND.data(state).drawn)]


def legal_choices(state: Table) -> list:
    """The choice of :func:`legal`: the card the seed turns (a choice is a card of the pack)."""
    return [KIND.data(state).drawn]


def choice_action(state: Table, choice: int) -> Action:
    """``turn CARD`` of the card ``choice``."""
    return turn_action(state, choice)


def choice_of(state: Table, action: Action) -> int:
    """The card turned (any card of the pack is accepted: a record or a real table may say)."""
    return action.card


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: not ``turn CARD`` (any card of the pack: a record may say)."""
    if action.kind != "turn":
        raise IllegalActionError(f"turn the top card of the second pack now ({legal(state)[0].text})")


def classes_of(deck, suit: str | None, how: str) -> dict:
    """Suit -> class: ``colour``: the turned suit 1, its colour's other suits 2, the rest 3."""
    colour = deck.colours.get(suit)
    return {s: 1 if s == suit else 2 if deck.colours.get(s) == colour else 3 for s in deck.suits}


def apply(state: Table, action: Action) -> bool:
    """The card lies face up; the suit classes follow from it."""
    d = KIND.data(state)
    d.card = action.card
    deck = state.variant.deck
    d.suit_classes = classes_of(deck, deck.suit_of(action.card), KIND.spec(state).classes)
    return True


def _first_suit_help(variant) -> str:
    """The accepted answers to a scorepad's ``first suit`` question, in words."""
    return "the suit of the card turned from the second pack: one of " + ", ".join(variant.deck.suits)


class TurnCardKind(PhaseKind[TurnCardSpec]):
    """The ``turn_card`` kind (see the module docstring)."""

    name = "turn_card"
    schema = {"description": "A chance event: a card is turned from a second pack and shown to everyone; "
                             "its suit classes the suits for this hand.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True,
                             "by": {"description": "Who turns it: the seat `opposite` the dealer (default), "
                                                   "the `dealer` or the `eldest`.",
                                    "enum": ["opposite", "dealer", "eldest"]},
                             "classes": {"description": "`colour`: the turned suit is class 1, the other suit "
                                                        "of its colour class 2, the others class 3.",
                                         "enum": ["colour"]}}}
    label = "turn"
    role = "chance"
    example = "second_pack: {kind: turn_card, by: opposite, classes: colour}"
    start = staticmethod(start)
    legal_choices = staticmethod(legal_choices)
    choice_action = staticmethod(choice_action)
    choice_of = staticmethod(choice_of)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def compile(self, c, name, p, path):
        """The spec."""
        return TurnCardSpec(self.name, name, p.get("by", "opposite"), p.get("classes", "colour"))

    def parse(self, text: str, state: Table):
        """``turn CARD``."""
        words = text.split()
        if len(words) == 2 and words[0].lower() == "turn":
            try:
                return turn_action(state, state.variant.deck.parse(words[1]))
            except CardError:
                return None
        return None

    def help_line(self, spec, variant) -> str:
        """The action form (the CLI turns the card by itself)."""
        return "turn CARD (the card turned from the second pack; done for you)"

    def hand_facts(self, spec, variant, hand) -> dict:
        """``first_suit``: the suit of the card turned (class 1), when one was."""
        d = self.data_of(hand)
        return {"first_suit": variant.deck.suit_of(d.card)} if d is not None and d.card >= 0 else {}

    def pad_contract_question(self, spec, variant, bids: tuple) -> tuple | None:
        """``first_suit``, the suit of the card turned, when some contract's value depends on
        its suit class."""
        if not any(isinstance(b, Contract) and len(set(b.values)) > 1 for b in bids):
            return None
        return "first_suit", "first suit", _first_suit_help(variant)

    def pad_answer(self, spec, variant, fact: str, text: str, facts: dict, names: list) -> None:
        """``first_suit``: a suit letter (any case).

        :raises ValueError: not a suit of the deck."""
        if fact != "first_suit":
            super().pad_answer(spec, variant, fact, text, facts, names)
        if text.strip().upper() not in variant.deck.suits:
            raise ValueError(f"{text.strip()!r} is not a suit (expected {_first_suit_help(variant)})")
        facts[fact] = text.strip().upper()

    def pad_contract(self, spec, variant, bid, facts: dict):
        """A contract of the list valued by the suit class of its trumps, given ``first_suit``."""
        if not facts.get("first_suit") or not isinstance(bid, Contract):
            return bid
        classes = classes_of(variant.deck, facts["first_suit"], spec.classes)
        return replace(bid, value=bid.values[classes.get(bid.strain, 1) - 1])

    def observe(self, state: Table, seat: int) -> dict:
        """Public: the turned card and the suit classes."""
        d = self.data(state)
        return {"turned_card": d.card, "suit_classes": dict(d.suit_classes)}

    def show(self, data, variant, names=None) -> list:
        """The turned card and the suit classes: ``second pack  6♠: first spades, ...``."""
        d = data
        if d.card < 0:
            return []
        deck = variant.deck
        by: dict[int, list] = {}
        for s, k in d.suit_classes.items():
            by.setdefault(k, []).append(SUIT_NAMES.get(s, s))
        words = {1: "first", 2: "second", 3: "third"}
        return [("second pack", f"{deck.pretty(d.card)}: " + ", ".join(
            f"{words.get(k, k)} {' and '.join(by[k])}" for k in sorted(by)))]

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: a chance event, which no player decides."""
        return ()

    def describe(self, spec) -> str:
        """One sentence."""
        who = {"opposite": "the player opposite the dealer", "dealer": "the dealer", "eldest": "the eldest hand"}
        return (f"A chance event: {who[spec.by]} turns the top card of a second pack, shown to everyone; "
                f"its suit is the first suit, the other suit of its colour the second, the others third.")


KIND = TurnCardKind()
