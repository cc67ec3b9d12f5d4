"""``pass_cards`` phase: each player passes some cards face down to another before play.

The direction follows a schedule by deal (``directions: [left, right, across, hold]``,
repeating): deal ``k`` uses entry ``k mod len``; ``hold`` skips the passing.  ``left`` is the
next player in the direction of play (``Variant.next_seat``, as the deal's ``rotation``), so it is
the player on the right in a counter-clockwise game; ``right`` is the other way.  Each player in
turn from the eldest hand chooses his cards (``pass 2C 3D 4H``: they leave his hand at
once); when all have chosen, every player receives the cards passed to him.  Nobody sees
the cards passed to him before choosing his own.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said, n_cards
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.exchange import choices_of, nth_set, takes
from rulekit.errors import CardError, IllegalActionError, InvalidActionError

#: turns after the passer in the direction of play (``across`` needs an even table).
_STEP = {"left": 1, "right": -1, "across": 0, "hold": 0}


@dataclass(frozen=True)
class PassCardsSpec(PhaseSpec):
    """``pass_cards`` phase: ``count`` cards each, ``directions`` by deal (repeating)."""

    count: int
    directions: tuple


@dataclass
class PassCardsData(KindData):
    """``pass_cards``' data for one hand: ``direction`` of this deal; per seat the cards it
    ``passed`` and ``received`` (bitmasks); ``count``: seats that passed so far."""

    direction: str
    passed: list[int]
    received: list[int]
    count: int = 0


def direction(spec, number: int) -> str:
    """The direction of deal ``number`` (0-based)."""
    return spec.directions[number % len(spec.directions)]


def target(variant, d: str, seat: int) -> int:
    """The seat that receives ``seat``'s cards when passing ``d``, counted in the variant's
    direction of play (:meth:`~rulekit.variant.model.Variant.next_seat`)."""
    return variant.next_seat(seat, variant.players // 2 if d == "across" else _STEP[d])


def physical_side(d: str, variant) -> str:
    """The side at the table (``left``/``right``) of the file's direction ``d`` (``left``: the
    next player in the direction of play): swapped in a counter-clockwise game (user pass 2,
    finding 7); ``across`` and ``hold`` unchanged."""
    if variant is not None and variant.step == -1 and d in ("left", "right"):
        return "right" if d == "left" else "left"
    return d


def _side_words(d: str, variant) -> str:
    """``to the left``, ``to the right``, ``across``: the side at the table of direction ``d``."""
    return "across" if d == "across" else f"to the {physical_side(d, variant)}"


def _pass_target(spec, number: int, variant, seat: int, names: list) -> str:
    """``to the left (to P2)``: where ``seat``'s passed cards go in deal ``number``."""
    d = direction(spec, number)
    return f"{_side_words(d, variant)} (to {names[target(variant, d, seat)]})"


def start(state: Table) -> bool:
    """Applies unless this deal's direction is ``hold``."""
    h = state.hand
    spec = KIND.spec(state)
    d = direction(spec, h.number)
    if d == "hold":
        return False
    h.phase_state[KIND.name] = PassCardsData(d, [0] * state.variant.players, [0] * state.variant.players)
    h.to_move = h.eldest
    return True


def legal(state: Table):
    """Every choice of ``count`` cards of the player's hand (lazy ``discard`` actions)."""
    h = state.hand
    return choices_of(state.variant.deck, h.hands[h.to_move], KIND.spec(state).count)


def legal_choices(state: Table) -> range:
    """The choices of :func:`legal`: the place of each set of cards in its (lexicographic)
    order, counted without building them."""
    h = state.hand
    hand = h.hands[h.to_move]
    return range(comb(hand.bit_count(), takes(KIND.spec(state).count, hand)))


def apply_choice(state: Table, choice: int) -> bool:
    """:func:`apply` of ``choice``: its cards found by unranking (:func:`nth_set`, the order of
    :func:`legal`), its ``(seat, "discard ...")`` in the hand's actions (no DiscardChoices built)."""
    h = state.hand
    hand = h.hands[h.to_move]
    m = nth_set(hand, takes(KIND.spec(state).count, hand), choice)
    h.actions.append((h.to_move, Action.discard(state.variant.deck, m).text))
    return _pass(state, m)


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: not exactly ``count`` of his own cards."""
    h = state.hand
    k = takes(KIND.spec(state).count, h.hands[h.to_move])
    deck = state.variant.deck
    if action.kind != "discard":
        raise IllegalActionError(f"pass {k} card{'s' if k > 1 else ''} now ({pass_form(k)})")
    if action.cards & ~h.hands[h.to_move]:
        raise IllegalActionError(f"you do not hold {' '.join(deck.names_of(action.cards & ~h.hands[h.to_move]))}")
    if action.cards.bit_count() != k:
        raise IllegalActionError(f"pass exactly {k} card{'s' if k > 1 else ''} (found {action.cards.bit_count()})")


def pass_form(k: int) -> str:
    """How ``k`` passed cards are typed: ``pass CARD CARD CARD``."""
    return "pass " + " ".join(["CARD"] * k) if k <= 4 else f"pass CARD ... ({k} cards)"


def parse_pass(text: str, state: Table) -> Action | None:
    """``pass 2C 3C 4C`` or the bare cards ``2C 3C 4C``: the ``discard`` action of those cards
    (user pass 2, finding 3); ``None`` for other text (``pass`` alone is the shared pass, refused
    with what to type)."""
    words = text.split()
    if words and words[0].lower() == "pass":
        words = words[1:]
        if not words:
            return None
    deck = state.variant.deck
    mask = 0
    for w in words:
        try:
            c = deck.parse_mask(deck.names_of(mask) + [w]) & ~mask   # a plain text again: the next copy
        except CardError:
            return None
        if not c:
            raise InvalidActionError(f"{w} is named twice")
        mask |= c
    return Action.discard(deck, mask) if mask else None


def apply(state: Table, action: Action) -> bool:
    """The cards leave the passer's hand; after the last passer everyone receives his."""
    return _pass(state, action.cards)


def _pass(state: Table, cards: int) -> bool:
    """The passer's ``cards`` leave his hand; after the last passer everyone receives his."""
    h = state.hand
    n = state.variant.players
    d = KIND.data(state)
    d.passed[h.to_move] = cards
    h.hands[h.to_move] &= ~cards
    d.count += 1
    if d.count < n:
        h.to_move = state.next_seat(h.to_move)
        return False
    for seat, passed in enumerate(d.passed):
        to = target(state.variant, d.direction, seat)
        h.hands[to] |= passed
        d.received[to] = passed
    return True


class PassCardsKind(PhaseKind[PassCardsSpec]):
    """The ``pass_cards`` kind (see the module docstring)."""

    name = "pass_cards"
    schema = {"description": "Each player passes cards face down to another before play, the direction "
                             "changing from deal to deal.",
              "type": "object", "additionalProperties": False, "required": ["kind", "count"],
              "properties": {"kind": True,
                             "count": {"description": "Cards each player passes.",
                                       "type": "integer", "minimum": 1, "maximum": 26},
                             "directions": {"description": "The direction of deal 1, 2, ... (repeating): `left` "
                                                           "(the next player in the direction of play), "
                                                           "`right`, `across` (even tables) or `hold` (no passing); "
                                                           "default [left].",
                                            "type": "array", "minItems": 1,
                                            "items": {"enum": ["left", "right", "across", "hold"]}}}}
    label = "pass"
    example = "passing: {kind: pass_cards, count: 3, directions: [left, right, across, hold]}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    legal_choices = staticmethod(legal_choices)
    apply_choice = staticmethod(apply_choice)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`PassCardsSpec`; ``across`` needs an even number of players."""
        dirs = tuple(p.get("directions") or ("left",))
        for i, d in enumerate(dirs):
            if d == "across" and any(n % 2 for n in c.choices()):
                c.err(path + ("directions", i), "across needs an even number of players (expected left, right or hold)")
        return PassCardsSpec(self.name, name, int(p["count"]), dirs)

    def finish(self, c, spec):
        """Every hand must hold the cards passed (user pass finding 1)."""
        c.check_takes(("phases", spec.name, "count"), spec.count, "passes")
        return spec

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe` with the sides at the table of ``variant``."""
        return self.describe(spec, variant)

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: the cards passed are cards."""
        return ()

    def passes_sideways(self, spec) -> bool:
        """A pass to the ``left`` or ``right`` among its directions."""
        return bool(set(spec.directions) & {"left", "right"})

    def describe(self, spec, variant=None) -> str:
        """One paragraph; with ``variant`` the directions are the sides at the table
        (:func:`physical_side`)."""
        words = {"left": "to the left", "right": "to the right", "across": "across", "hold": "not at all (hold)"}
        sched = ", ".join(words[physical_side(d, variant)] for d in spec.directions)
        rep = (f"In deal 1, 2, ... the cards go {sched}, and then again in that order"
               if len(spec.directions) > 1 else f"The cards go {sched} in every deal")
        rep = rep.replace(", and then again", " and then again")
        n = spec.count
        return (f"Before play each player chooses {n} card{'s' if n > 1 else ''} and passes "
                f"{'them' if n > 1 else 'it'} face down to another player, before looking at the cards he "
                f"receives. {rep}.")

    def help_line(self, spec, variant) -> str:
        """The action form."""
        return f"{pass_form(spec.count)} (or just the cards)"

    def header(self, spec, hand, variant) -> list[str]:
        """``passing to the left`` (the side at the table), or ``no passing (hold)``."""
        d = direction(spec, hand.number)
        return ["no passing (hold)" if d == "hold" else f"passing {_side_words(d, variant)}"]

    def discards(self, spec, hand, variant) -> int:
        """One pass per player, none in a deal that holds."""
        return variant.players if self.name in hand.phase_state else 0

    def said(self, spec, hand, variant, seat: int, text: str, names: list) -> Said | None:
        """``passes 3 cards to the left (to P2)``."""
        if not text.startswith("discard "):
            return None
        n, to = n_cards(len(text.split()) - 1), _pass_target(spec, hand.number, variant, seat, names)
        return Said(seat, f"passes {n} {to}", f"pass {n} {to}")

    def seat_rows(self, obs, names: list) -> list[tuple[str, str]]:
        """``passing  to the left (to P2)``: where the observing seat's cards go."""
        return [("passing", _pass_target(obs.phase_spec, obs.hand_number, obs.variant, obs.seat, names))]

    def discard_word(self, state: Table) -> str:
        """``pass``: the cards go to another player."""
        return "pass"

    def parse(self, text: str, state: Table) -> Action | None:
        """``pass CARD ...`` or the bare cards (:func:`parse_pass`)."""
        return parse_pass(text, state)

    def observe(self, state: Table, seat: int) -> dict:
        """``direction`` (public), ``passed``/``received``: the seat's own cards only."""
        d = self.data_of(state.hand)
        if d is None:
            return {}
        return {"direction": d.direction, "passed": d.passed[seat], "received": d.received[seat]}


KIND = PassCardsKind()
