"""``rob`` phase: robbing the turned-up trump card (rules/fortyfive.md [FF-X1]-[FF-X3]).

After a ``turn_up`` that turns the top card of a zone (``from: talon``), the card may be
"robbed": the robber puts any one of his cards out face down (seen by nobody, counting for
nobody: ``Hand.out``) and takes the turned card into his hand (every seat then knows he holds
it).  When the turned card is of a rank of ``dealer`` (an ace), the dealer robs before the
opening lead (``rob CARD``) or declines (``pass``).  Otherwise the player holding the trump of
rank ``holder`` (the ace of trumps) may rob at his first turn to play in the first trick,
before playing his card: ``rob CARD`` is offered beside his plays (playing a card declines).
This second rule is an action of the trick play: the kind offers it through the in-play seam
(:meth:`~rulekit.engine.phases.base.PhaseKind.side_actions`), which trick play asks at every
turn of the first trick.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.cards import bits
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases import turn_up
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said
from rulekit.engine.phases.table import Table
from rulekit.errors import CardError, IllegalActionError

WORD = "rob"


@dataclass(frozen=True)
class RobSpec(PhaseSpec):
    """``rob`` phase: ``dealer``, the ranks of a turned card the dealer may rob before the lead;
    ``holder``, the rank of the trump whose holder may rob at his first turn to play (``""``:
    nobody)."""

    dealer: tuple = ()
    holder: str = ""


@dataclass
class RobData(KindData):
    """``rob``'s data for one hand: the turned ``card`` while it may still be robbed (-1 once it is
    taken, or when none was turned), the ``zone`` it lies in, and the ``robber`` (-1: nobody yet)."""

    card: int
    zone: str
    robber: int = -1


def rob_action(deck, card: int) -> Action:
    """``rob CARD``: put ``card`` out and take the turned card."""
    return Action(WORD, f"{WORD} {deck.name(card)}", cards=1 << card)


def start(state: Table) -> bool:
    """Find the turned card; the dealer decides now when its rank lets him, else the phase waits
    for trick play (its in-play action) and asks nothing now."""
    h = state.hand
    spec = KIND.spec(state)
    turned = turn_up.KIND.data_of(h)
    card = turned.card if turned is not None else -1
    zone = turned.zone if turned is not None else ""
    if card >= 0 and not (zone and h.zones.get(zone, 0) >> card & 1):
        card = -1   # (no longer on its zone)
    h.phase_state[KIND.name] = RobData(card, zone)
    if card >= 0 and state.variant.deck.rank_of(card) in spec.dealer:
        h.to_move = h.dealer
        return True
    return False


def legal(state: Table) -> list:
    """The dealer's choice: ``pass``, then ``rob CARD`` for each card he holds, in deck order."""
    h = state.hand
    deck = state.variant.deck
    return [PASS] + [rob_action(deck, c) for c in bits(h.hands[h.dealer])]


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: not ``pass``, or not ``rob`` one of his cards."""
    if action.kind == "pass":
        return
    h = state.hand
    if action.kind != WORD or action.cards.bit_count() != 1 or not action.cards & h.hands[h.dealer]:
        raise IllegalActionError(f"rob the turned card, putting out one of your cards (e.g. {WORD} "
                                 f"{state.variant.deck.name(next(bits(h.hands[h.dealer])))}), or pass")


def _take(state: Table, seat: int, out: int) -> None:
    """``seat`` puts the card ``out`` (a one-card mask) out of play and takes the turned card."""
    h = state.hand
    d = KIND.data(state) if KIND.name in h.phase_state else None
    assert d is not None and d.card >= 0
    h.hands[seat] = (h.hands[seat] & ~out) | 1 << d.card
    h.out[seat] |= out
    h.zones[d.zone] &= ~(1 << d.card)
    d.robber = seat
    d.card = -1


def apply(state: Table, action: Action) -> bool:
    """Rob (or decline); the phase is over either way."""
    if action.kind == WORD:
        _take(state, state.hand.dealer, action.cards)
    KIND.data(state).card = -1   # the dealer's chance was the only one
    return True


def compile_rob(c, name: str, p: dict, path: tuple):
    """The :class:`RobSpec`: ranks of the deck; a ``turn_up`` from a zone before it."""
    deck = c.deck
    dealer = tuple(str(r) for r in str(p.get("dealer", "")).split())
    holder = str(p.get("holder", ""))
    for key, ranks in (("dealer", dealer), ("holder", (holder,) if holder else ())):
        for r in ranks:
            if r not in deck.ranks:
                c.err(path + (key,), f"unknown rank {r}{c.close(r, deck.ranks)} (expected a rank of {' '.join(deck.ranks)})")
    before = c.kinds[:c.kinds.index(KIND.name)] if KIND.name in c.kinds else []
    if turn_up.KIND.name not in before:
        c.err(path + ("kind",), f"robbing takes a turned card: it needs a {turn_up.KIND.name} phase before it "
              f"(expected e.g. trumps: {{kind: {turn_up.KIND.name}, from: talon}})")
    return RobSpec(KIND.name, name, dealer, holder)


class RobKind(PhaseKind[RobSpec]):
    """The ``rob`` kind (see the module docstring)."""

    name = "rob"
    schema = {"description": "Robbing the turned-up trump card: a player puts one card out face down and "
                             "takes the turned card.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True,
                             "dealer": {"description": "Ranks of a turned card (`A`) that the dealer may rob "
                                                       "before the opening lead (`rob CARD`, or `pass`).",
                                        "type": "string"},
                             "holder": {"description": "The rank of the trump (`A`: the ace of trumps) whose "
                                                       "holder may rob at his first turn to play in the first "
                                                       "trick, before playing his card, when the dealer could "
                                                       "not.",
                                        "type": "string"}}}
    label = "rob"
    example = "rob: {kind: rob, dealer: A, holder: A}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    compile = staticmethod(compile_rob)
    in_play = True

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``rob CARD`` for every card of the pack (the card the robber puts out)."""
        return tuple(f"{WORD} {variant.deck.name(c)}" for c in range(variant.deck.size))

    def side_actions(self, state: Table, spec: RobSpec) -> list:
        """At his first turn to play in the first trick, the holder of the trump of rank
        ``holder`` may rob (``rob CARD`` for each card he holds) while the turned card is there."""
        h = state.hand
        d = self.data_of(h)
        if d is None or d.card < 0 or not spec.holder or h.tricks:
            return []
        seat = h.to_move
        deck = state.variant.deck
        c = deck.index.get(spec.holder + h.trump)
        if c is None or not h.hands[seat] & deck.copies_of(c) or any(s == seat for s, _c in h.trick):
            return []
        return [rob_action(deck, x) for x in bits(h.hands[seat])]

    def side_apply(self, state: Table, spec: RobSpec, action: Action) -> None:
        """Rob: the card named goes out, the turned card into his hand."""
        _take(state, state.hand.to_move, action.cards)

    def parse(self, text: str, state: Table) -> Action | None:
        """``rob CARD``."""
        words = text.split()
        if len(words) != 2 or words[0].lower() != WORD:
            return None
        try:
            return rob_action(state.variant.deck, state.variant.deck.parse(words[1]))
        except CardError:
            return None

    def side_parse(self, text: str, state: Table, spec: RobSpec) -> Action | None:
        """``rob CARD`` during trick play."""
        return self.parse(text, state)

    def private_text(self, text: str) -> str | None:
        """``rob``: the card put out is seen by nobody else."""
        return WORD if text.startswith(WORD + " ") else None

    def observe(self, state: Table, seat: int) -> dict:
        """``robber``: who robbed the turned card (public), -1 while nobody has."""
        d = self.data_of(state.hand)
        return {"robber": d.robber} if d is not None else {}

    def said(self, spec, hand, variant, seat: int, text: str, names: list) -> Said | None:
        """``robs the turned card``: the card put out is seen by nobody."""
        if not text.startswith(WORD + " "):
            return None
        return Said(seat, "robs the turned card, putting out a card face down",
                    "rob the turned card, putting out a card face down")

    def help_line(self, spec, variant) -> str:
        """``rob CARD``."""
        return f"{WORD} CARD: put CARD out face down and take the turned card (or pass)"

    def describe(self, spec) -> str:
        """One sentence per rule."""
        out = []
        if spec.dealer:
            out.append(f"When the turned card is {' or '.join('an ' + r if r in 'AE8' else 'a ' + r for r in spec.dealer)}, "
                       "the dealer may rob it before the opening lead: he puts out any card of his hand face down "
                       "(it counts for nobody) and takes the turned card.")
        if spec.holder:
            out.append(f"{'Otherwise the' if spec.dealer else 'The'} player who holds the {spec.holder} of trumps may rob it "
                       "at his first turn to play, before playing his card, putting out any card face down.")
        return " ".join(out) or "Nobody robs the turned card."


KIND = RobKind()
