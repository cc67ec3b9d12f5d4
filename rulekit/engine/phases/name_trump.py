"""``name_trump`` phase: a player names trumps.

* ``by: declarer`` — the declarer of a contract whose strain is ``chosen``
  (rules/fivehundred.md [A4]: ten with trump, named after the widow).
* ``by: dealer`` — the dealer names trumps before play, or with
  ``partner_may_name`` passes and lets his partner name them (rules/whist.md [K2]).
* ``by: eldest`` — the same for the eldest hand, the player after the dealer in the
  direction of play (Schieber Jass's forehand, at the dealer's right, who may "shove" the
  choice to his partner: pagat.com/jass/schieber.html).

A contract whose bid leaves the order open (``wins: chosen``, e.g. Bid Whist's no
trump) also makes its declarer say ``high`` or ``low``: whether the highest or the
lowest cards win (``ranking.low``), after naming trumps when he names them too.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from rulekit.cards import SUIT_NAMES
from rulekit.contracts import NT
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class NameTrumpSpec(PhaseSpec):
    """``name_trump`` phase: the declarer of a ``chosen`` strain names trumps ([A4]),
    or the dealer (who may leave it to his partner) before play."""

    choices: tuple
    by: str = "declarer"
    partner_may_name: bool = False
    asks_order: bool = False
    """Some bid leaves the order of the cards to the declarer (``wins: chosen``): he then
    also says ``high`` or ``low``."""


@dataclass
class NameTrumpData(KindData):
    """``name_trump``'s data for one hand: ``namer``, who names now; ``named``, trumps are named
    and the declarer is to say the order (``high`` / ``low``) of a ``wins: chosen`` bid."""

    namer: int
    named: bool = False


HIGH, LOW = Action("wins", "high"), Action("wins", "low")
"""The declarer's choice of order for a ``wins: chosen`` contract."""


def start(state: Table) -> bool:
    """Applies to a ``chosen`` contract (by declarer) or always (by dealer); and to a
    contract whose bid leaves the order of the cards to its declarer (``wins: chosen``)."""
    h = state.hand
    spec = KIND.spec(state)
    if spec.by in ("dealer", "eldest"):
        first = _first_namer(state, spec)
        h.phase_state[KIND.name] = NameTrumpData(first)
        h.to_move = first
        return True
    if h.contract is None or (h.contract.strain != "chosen" and _wins(h) != "chosen"):
        return False
    h.phase_state[KIND.name] = NameTrumpData(h.declarer, h.contract.strain != "chosen")
    h.to_move = h.declarer
    return True


def _first_namer(state: Table, spec: NameTrumpSpec) -> int:
    """The seat who names first when trumps are named before play: the dealer or the eldest."""
    return state.hand.eldest if spec.by == "eldest" else state.hand.dealer


def _wins(h) -> str:
    return getattr(h.contract, "wins", "high") if h.contract is not None else "high"


def _order_now(state: Table) -> bool:
    """The declarer is to say ``high`` or ``low`` now (trumps are named, the order is open)."""
    data = KIND.data_of(state.hand)
    return data is not None and data.named and _wins(state.hand) == "chosen"


def _may_pass(state: Table) -> bool:
    h = state.hand
    spec = KIND.spec(state)
    return spec.by != "declarer" and spec.partner_may_name and KIND.data(state).namer == _first_namer(state, spec)


def legal(state: Table) -> list:
    """``trump X`` for each choice (then ``pass`` when the dealer may leave it to his partner);
    ``high`` and ``low`` when the declarer says which cards win."""
    if _order_now(state):
        return [HIGH, LOW]
    acts = [Action.trump(s) for s in KIND.spec(state).choices]
    return acts + [PASS] if _may_pass(state) else acts


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: not a trump call, or not one of the choices; not ``high`` or
    ``low`` when the declarer must say which cards win."""
    choices = KIND.spec(state).choices
    if _order_now(state):
        if action not in (HIGH, LOW):
            raise IllegalActionError("say which cards win this hand: high (the highest) or low (the lowest)")
        return
    if action.kind == "pass" and _may_pass(state):
        return
    if action.kind != "trump" or action.suit not in choices:
        extra = " or pass (your partner names them)" if _may_pass(state) else ""
        raise IllegalActionError(f"name trumps now: one of {', '.join('trump ' + c for c in choices)}{extra}")


def apply(state: Table, action: Action) -> bool:
    """Set the trump context (then, for a ``wins: chosen`` contract, ask the order), or pass the
    choice to the partner."""
    h = state.hand
    if action.kind == "wins":
        state.set_trump(h.trump, low=action is LOW or action.text == "low")
        return True
    if action.kind == "pass":
        h.to_move = KIND.data(state).namer = state.partner_of(_first_namer(state, KIND.spec(state)))
        return False
    state.set_trump(action.suit)
    if _wins(h) == "chosen" and KIND.spec(state).by == "declarer":
        KIND.data(state).named = True
        return False
    return True


def compile_name_trump(c, name: str, p: dict, path: tuple):
    """The :class:`NameTrumpSpec`: known suits, sides for a partner."""
    deck = c.deck
    for i, s in enumerate(p["choices"]):
        if s != NT and s not in deck.suits:
            c.err(path + ("choices", i), f"unknown suit {s}{c.close(s, deck.suits)} "
                  f"(expected one of {' '.join(deck.suits)} or NT)")
    spec = NameTrumpSpec("name_trump", name, tuple(p["choices"]), p.get("by", "declarer"),
                         bool(p.get("partner_may_name", False)))
    if p.get("partner_may_name") and not c.has_sides:
        c.err(path + ("partner_may_name",), "a partner needs sides (expected a top-level sides: block)")
    return spec


class NameTrumpKind(PhaseKind[NameTrumpSpec]):
    """The ``name_trump`` kind (see the module docstring)."""

    name = "name_trump"
    schema = {'description': "The declarer names the trump suit when his contract's strain is `chosen`.",
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind', 'choices'],
              'properties': {'kind': True,
                             'choices': {'description': 'Strains he may name.',
                                         'type': 'array',
                                         'minItems': 1,
                                         'items': {'$ref': '#/$defs/strain'}},
                             'by': {'description': "Who names: `declarer` (when the contract's strain is "
                                                   '`chosen`), `dealer` (before play) or `eldest` (before '
                                                   'play: the player after the dealer in the direction of '
                                                   "play, at the dealer's right in a counter-clockwise game).",
                                    'enum': ['declarer', 'dealer', 'eldest']},
                             'partner_may_name': {'description': 'The dealer (or the eldest, with `by: eldest`) '
                                                                 'may pass and let his partner name trumps.',
                                                  'type': 'boolean'}}}
    label = "trumps"
    role = "trump"
    example = "trumps: {kind: name_trump, choices: [S, H, D, C, NT], by: dealer, partner_may_name: true}"
    compile = staticmethod(compile_name_trump)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def finish(self, c, spec):
        """Note whether some bid leaves the order of the cards to the declarer (``wins: chosen``)."""
        asks = any(getattr(b, "wins", "high") == "chosen" for sp in c.phase_specs if sp is not None
                   for b in getattr(sp, "bids", ()))
        return replace(spec, asks_order=asks) if asks else spec

    def acts_for_declarer(self, p: dict) -> bool:
        """By the declarer (the default)."""
        return p.get("by", "declarer") == "declarer"

    def strains(self, spec, deck) -> set:
        """The choices."""
        return set(spec.choices)

    def pad_trump_choices(self, spec, variant, contract) -> tuple | None:
        """The choices, in their order: for a contract whose strain is ``chosen``, or every hand
        of a variant without an auction; ``None`` for another contract (its strain stands)."""
        if (contract.strain == "chosen") if contract is not None else variant.auction() is None:
            return tuple(spec.choices)
        return None

    def no_effect(self, c, p: dict, path: tuple) -> None:
        """``partner_may_name`` unless by the dealer."""
        if "partner_may_name" in p and p.get("by", "declarer") == "declarer":
            c.warn(path + ("partner_may_name",), "has no effect unless by: dealer or eldest (only the one "
                   "who names before play may leave the choice to his partner)")

    def help_line(self, spec, variant) -> str:
        """``trump SUIT (e.g. trump H)``, ``or pass`` when the partner may name them; ``high`` or
        ``low`` when some bid leaves the order of the cards to the declarer."""
        text = "trump SUIT (e.g. trump H)" + (" or pass" if spec.partner_may_name else "")
        return text + ("; high or low (which cards win)" if spec.asks_order else "")

    def parse(self, text: str, state: Table) -> Action | None:
        """``high`` / ``low``: the declarer's choice of which cards win."""
        word = text.strip().lower()
        return {"high": HIGH, "low": LOW}.get(word)

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``trump X`` for each choice, ``pass``, ``high`` and ``low``."""
        return tuple(f"trump {s}" for s in spec.choices) + ("pass", HIGH.text, LOW.text)

    def describe(self, spec) -> str:
        """One sentence (two when a bid leaves the order of the cards to the declarer)."""
        first = {"dealer": "The dealer", "eldest": "The eldest hand (left of the dealer)"}.get(spec.by)
        who = (first + " names trumps" + (" or lets his partner name them" if spec.partner_may_name else "")
               if first else "The declarer of a contract without a suit names trumps")
        names = [{"NT": "no trump"}.get(c, SUIT_NAMES.get(c, c)) for c in spec.choices]
        text = f"{who}: {', '.join(names[:-1]) + ' or ' + names[-1] if len(names) > 1 else names[0]}."
        if spec.asks_order:
            text += (" The declarer of a contract whose bid leaves the order of the cards open then says "
                     "`high` (the highest cards win) or `low` (the lowest win, in the low order).")
        return text

    def prompt_label(self, state: Table) -> str:
        """``trumps`` while trumps are named; ``high or low`` when the declarer says which cards
        win."""
        return "high or low" if _order_now(state) else self.label

    def trump_words(self, spec, hand) -> str | None:
        """``trumps not named yet``: a contract whose declarer names trumps, before he does."""
        if (hand.contract is not None and getattr(hand.contract, "strain", "") == "chosen"
                and not any(a.startswith("trump ") for _s, a in hand.actions)):
            return "trumps not named yet"
        return None

    def said(self, spec, hand, variant, seat: int, text: str, names: list) -> Said | None:
        """``chooses low: the lowest cards win`` (a contract that left the order open)."""
        if text not in (HIGH.text, LOW.text):
            return None
        said = f" {text}: the {'highest' if text == HIGH.text else 'lowest'} cards win"
        return Said(seat, "chooses" + said, "choose" + said)

    def observe(self, state: Table, seat: int) -> dict:
        """``namer``: the seat who names trumps now (public)."""
        data = self.data_of(state.hand)
        return {"namer": data.namer} if data is not None else {}


KIND = NameTrumpKind()
