"""``order_up`` phase: an auction on a turned card (Euchre's "order up").

The top card of a zone (``from: widow``) is turned face up.  First round, from the eldest
hand: each player says ``pass`` or ``order`` (the turned card's suit is trumps); then the
dealer takes the turned card into his hand and discards one card face down (``discard X``).
If all pass, the card is turned down and a second round names trumps: ``trump H`` for any
suit but the turned one; with ``stick_dealer: true`` the dealer may not pass in it, else a
deal all passed twice is thrown in.  With ``alone: true`` a player may add ``alone`` to his
call (``order alone``, ``trump H alone``): his partner sits the hand out (his cards are put
aside; trick play skips a seat without cards), and the dealer does not pick the card up when
he is the one sitting out.

The caller is the hand's declarer (the "maker").  Formulas read, per score column, ``maker``
(1 when the column's player or side called trumps) and ``alone`` (1 when the caller plays
alone).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.cards import SUIT_NAMES, bits
from rulekit.engine.actions import Action
from rulekit.engine.phases.base import PhaseKind
from rulekit.engine.phases.exchange import DiscardChoices
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class OrderUpSpec:
    """``order_up`` phase: the zone the turned card comes from, the second round, going alone."""

    kind: str
    name: str
    zone: str
    second_round: bool
    stick_dealer: bool
    alone: bool


def start(state) -> bool:
    """Turn the top card of the zone; the eldest hand speaks first."""
    h = state.hand
    spec = state.current_phase
    zone = h.zones.get(spec.zone, 0)
    top = next((c for c in h.deck_order if zone >> c & 1), -1)
    h.phase_state[KIND.name] = {"turned": top, "suit": state.variant.deck.suit_of(top) if top >= 0 else "",
                                "round": 1, "passes": 0, "discard": False, "maker": -1, "alone": False}
    h.to_move = h.eldest
    return True


def legal(state) -> list:
    """``pass``/``order`` (round 1), ``pass``/``trump X`` (round 2), or the dealer's discard."""
    h = state.hand
    spec = state.current_phase
    d = h.phase_state[KIND.name]
    if d["discard"]:
        return list(DiscardChoices(state.variant.deck, h.hands[h.to_move], 1))
    out = []
    if not (d["round"] == 2 and spec.stick_dealer and h.to_move == h.dealer):
        out.append(Action.pass_())
    calls = ([("bid", "order", "")] if d["round"] == 1
             else [("trump", f"trump {s}", s) for s in state.variant.deck.suits if s != d["suit"]])
    for kind, text, suit in calls:
        out.append(Action(kind, text, suit=suit, bid=text))
        if spec.alone:
            out.append(Action(kind, text + " alone", suit=suit, bid=text + " alone"))
    return out


def check(state, action) -> None:
    """:raises IllegalActionError: an action not offered now (with what is)."""
    if action in legal(state):
        return
    d = state.hand.phase_state[KIND.name]
    if action.kind == "trump" and action.suit == d["suit"]:
        raise IllegalActionError(f"{SUIT_NAMES.get(action.suit, action.suit)} were turned down: name another suit")
    if action.kind == "pass" and d["round"] == 2:
        raise IllegalActionError("the dealer may not pass in the second round (stick the dealer): name trumps")
    raise IllegalActionError(f"{action.text} is not allowed now (expected one of "
                             f"{', '.join(a.text for a in legal(state)[:12])})")


def partners_sit_out(state, seat: int) -> None:
    """Every other seat of ``seat``'s side sits this hand out (``seat`` plays alone): their
    cards are put aside and trick play skips a seat without cards.  Also used by a ladder
    auction's lone bids."""
    h = state.hand
    v = state.variant
    for other in v.sides[v.side_of[seat]]:
        if other != seat:
            h.discards |= h.hands[other]
            h.hands[other] = 0


def apply(state, action) -> bool:
    """Record the call; ends with trumps set and the maker as declarer (or a throw-in)."""
    h = state.hand
    n = state.variant.players
    d = h.phase_state[KIND.name]
    spec = state.current_phase
    if d["discard"]:
        h.hands[h.to_move] &= ~action.cards
        h.discards |= action.cards
        return True
    h.calls.append((h.to_move, action.text))
    if action.kind == "pass":
        d["passes"] += 1
        if d["passes"] < n:
            h.to_move = state.next_seat(h.to_move)
            return False
        if d["round"] == 1 and spec.second_round:
            d["round"], d["passes"], h.to_move = 2, 0, h.eldest
            return False
        state.throw_in()
        return True
    seat = h.to_move
    d["maker"], d["alone"] = seat, action.text.endswith("alone")
    h.declarer = seat
    state.set_trump(d["suit"] if action.kind == "bid" else action.suit)
    if d["alone"]:
        partners_sit_out(state, seat)
    if action.kind == "bid" and h.hands[h.dealer]:  # the dealer picks the card up and discards
        h.zones[spec.zone] &= ~(1 << d["turned"])
        h.hands[h.dealer] |= 1 << d["turned"]
        d["discard"], h.to_move = True, h.dealer
        return False
    return True


class OrderUpKind(PhaseKind):
    """The ``order_up`` kind (see the module docstring)."""

    name = "order_up"
    schema = {"description": "An auction on a turned card: order it up (the dealer takes it and discards), "
                             "or in a second round name another suit; optionally alone.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True,
                             "from": {"description": "The zone whose top card is turned (default `widow`).",
                                      "type": "string", "pattern": "^[a-z_]+$"},
                             "second_round": {"description": "After all pass, a second round names another "
                                                             "suit (default true).", "type": "boolean"},
                             "stick_dealer": {"description": "The dealer may not pass in the second round "
                                                             "(default false: all passing twice throws the "
                                                             "deal in).", "type": "boolean"},
                             "alone": {"description": "A caller may play alone: his partner sits the hand "
                                                      "out (default false).", "type": "boolean"}}}
    label = "order up"
    example = "making: {kind: order_up, alone: true}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`OrderUpSpec`; the zone must exist and ``alone`` needs sides."""
        zone = p.get("from", "widow")
        if not c.any_zone():
            c.err(path, f"order_up turns the top card of the {zone}, but the deal puts no cards aside "
                        f"(expected a deal pattern with a {zone})")
        if p.get("alone") and not c.has_sides:
            c.err(path + ("alone",), "playing alone sits the partner out: it needs sides "
                                     "(expected a top-level sides: block)")
        return OrderUpSpec(self.name, name, zone, bool(p.get("second_round", True)),
                           bool(p.get("stick_dealer", False)), bool(p.get("alone", False)))

    def strains(self, spec, deck) -> set:
        """Any suit may become trumps."""
        return set(deck.suits)

    def variables(self, spec) -> dict:
        """``maker`` and ``alone`` (0 or 1)."""
        return {"maker": (0, 1), "alone": (0, 1)}

    def values(self, variant, hand, spec) -> list:
        """Per score column: whether it holds the maker, and whether he went alone."""
        d = hand.phase_state.get(self.name) or {}
        maker, alone = d.get("maker", -1), int(bool(d.get("alone")))
        cols = variant.sides if variant.scoring.by_side else tuple((s,) for s in range(variant.players))
        return [{"maker": int(maker in seats), "alone": alone} for seats in cols]

    def describe(self, spec) -> str:
        """One paragraph."""
        second = (" If all pass, the card is turned down and each in turn may name another suit as trumps or "
                  "pass" + ("; the dealer may not pass then (stick the dealer)." if spec.stick_dealer
                            else "; if all pass again the deal is thrown in.")) if spec.second_round else \
            " If all pass, the deal is thrown in."
        alone = (" A player who calls trumps may say he plays alone: his partner lays his cards aside and "
                 "sits the hand out." if spec.alone else "")
        return (f"The top card of the {spec.zone} is turned face up. Each player in turn from the eldest hand "
                f"passes or orders it up: its suit becomes trumps, and the dealer takes the card into his hand "
                f"and discards one card face down.{second}{alone} The player who called trumps is the maker.")

    def parse(self, text: str, state) -> Action | None:
        """``order``, ``order alone``, ``trump H [alone]``."""
        t = " ".join(text.lower().split())
        for a in legal(state) if state.hand.phase_state.get(self.name) else []:
            if a.text.lower() == t:
                return a
        return None

    def help_line(self, spec, variant) -> str:
        """The action forms."""
        return "pass, order" + (" [alone]" if spec.alone else "") + "; in the second round trump X" + \
            (" [alone]" if spec.alone else "") + "; the dealer: discard CARD"

    def observe(self, state, seat: int) -> dict:
        """``turned`` (public), ``round``, ``maker`` and ``alone``."""
        d = state.hand.phase_state.get(self.name)
        if not d:
            return {}
        return {"turned": d["turned"], "round": d["round"], "maker": d["maker"], "alone": d["alone"]}

    def bot_act(self, bot, obs):
        """Call a suit holding three trumps or more (bowers counted), else pass; discard the
        weakest card."""
        v = obs.variant
        if obs.legal[0].kind == "discard":
            ctx = v.contexts.get(obs.trump) or v.contexts["NT"]
            return min(obs.legal, key=lambda a: ctx.strength[next(iter(bits(a.cards)))])
        best, count = None, 2
        for a in obs.legal:
            if a.kind == "pass" or a.text.endswith("alone"):
                continue
            suit = a.suit or v.deck.suit_of(obs.phase_data.get("turned", -1))
            ctx = v.contexts[suit]
            k = (obs.hand & ctx.group_mask[ctx.trump_suit_group]).bit_count()
            if k > count:
                best, count = a, k
        if best is not None:
            return best
        return next((a for a in obs.legal if a.kind == "pass"), obs.legal[0])


KIND = OrderUpKind()
