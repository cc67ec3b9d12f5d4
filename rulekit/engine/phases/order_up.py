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

With ``deal_rest: {maker: M, others: K}`` the dealer does not pick the card up: the maker
takes it (in either round), and the rest of the zone is dealt, M cards to the maker and K to
each other player, from the eldest hand in the direction of play (the cards each player
holds are then the pattern's plus K).

With ``word: take`` the first round's call is said ``take`` (Belote's "prendre") instead of
``order`` (``take alone``...).

The turned card is public: every seat's observation has it (``turned``), the terminal shows it.

The caller is the hand's declarer (the "maker").  Formulas read, per score column, ``maker``
(1 when the column's player or side called trumps) and ``alone`` (1 when the caller plays
alone).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.cards import SUIT_NAMES, SUIT_SYMBOLS, bit_list
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said, card_place
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.exchange import one_card_discards
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class OrderUpSpec(PhaseSpec):
    """``order_up`` phase: the zone the turned card comes from, the second round, going alone."""

    zone: str
    second_round: bool
    stick_dealer: bool
    alone: bool
    deal_rest: tuple = ()
    word: str = "order"

    @property
    def later_cards(self) -> int:
        """Cards each player gets after this phase (``deal_rest``), 0 without it."""
        return self.deal_rest[1] if self.deal_rest else 0


@dataclass
class OrderUpData(KindData):
    """``order_up``'s data for one hand: the ``turned`` card (-1: none) and its ``suit``; the
    ``round`` (1: order it up, 2: name another suit) and ``passes`` in it; ``discard``: the
    dealer is to discard; the ``maker`` (-1: none yet) and whether he plays ``alone``."""

    turned: int
    suit: str | None
    round: int = 1
    passes: int = 0
    discard: bool = False
    maker: int = -1
    alone: bool = False


def start(state: Table) -> bool:
    """Turn the top card of the zone; the eldest hand speaks first."""
    h = state.hand
    spec = KIND.spec(state)
    zone = h.zones.get(spec.zone, 0)
    top = -1
    for c in h.deck_order:   # the zone's first card in dealing order
        if zone >> c & 1:
            top = c
            break
    h.phase_state[KIND.name] = OrderUpData(top, state.variant.deck.suit_of(top) if top >= 0 else "")
    h.to_move = h.eldest
    return True


def legal(state: Table) -> list:
    """``pass``/``order`` (round 1), ``pass``/``trump X`` (round 2), or the dealer's discard
    (one card, in deck order)."""
    h = state.hand
    if KIND.data(state).discard:
        one = one_card_discards(state.variant)
        return [one[c] for c in bit_list(h.hands[h.to_move])]
    return list(_calls(state))


def _calls(state: Table) -> tuple:
    """The calls open now, in :func:`legal`'s order (built once per variant, phase, round, turned
    suit and whether the dealer may pass)."""
    h = state.hand
    d: OrderUpData = h.phase_state[KIND.name]  # type: ignore[assignment]  # (KIND.data: asked at every call)
    can_pass = not (d.round == 2 and h.to_move == h.dealer and KIND.spec(state).stick_dealer)
    by: dict | None = state.variant.cache.get(_CALLS)
    if by is None:
        by = state.variant.cached(_CALLS, dict)
    key = (h.phase, d.round, d.suit, can_pass)
    out = by.get(key)
    if out is None:
        spec = KIND.spec(state)
        calls = ([("bid", spec.word, "")] if d.round == 1
                 else [("trump", f"trump {s}", s) for s in state.variant.deck.suits if s != d.suit])
        made = [Action.pass_()] if can_pass else []
        for kind, text, suit in calls:
            made.append(Action(kind, text, suit=suit, bid=text))
            if spec.alone:
                made.append(Action(kind, text + " alone", suit=suit, bid=text + " alone"))
        out = by[key] = tuple(made)
    return out


_CALLS = "order_up.calls"   # (phase, round, turned suit, dealer may pass) -> the calls (_calls)


def legal_choices(state: Table) -> range:
    """The choices of :func:`legal`: the place of each action in it (the dealer's discard: the
    place of the card among his cards, lowest first), counted without building the actions."""
    h = state.hand
    if h.phase_state[KIND.name].discard:  # type: ignore[attr-defined]  # (KIND.data, without its call)
        return range(h.hands[h.to_move].bit_count())
    return range(len(_calls(state)))


def choice_action(state: Table, choice: int) -> Action:
    """The action of ``choice`` (see :func:`legal_choices`)."""
    h = state.hand
    if h.phase_state[KIND.name].discard:  # type: ignore[attr-defined]  # (KIND.data, without its call)
        return one_card_discards(state.variant)[bit_list(h.hands[h.to_move])[choice]]
    return _calls(state)[choice]


def apply_choice(state: Table, choice: int) -> bool:
    """:func:`apply` of ``choice``, its shared action's ``(seat, text)`` appended to the hand's
    actions."""
    a = choice_action(state, choice)
    h = state.hand
    h.actions.append((h.to_move, a.text))
    return apply(state, a)


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: an action not offered now (with what is)."""
    if action in legal(state):
        return
    d = KIND.data(state)
    if action.kind == "trump" and action.suit == d.suit:
        raise IllegalActionError(f"{SUIT_NAMES.get(action.suit, action.suit)} were turned down: name another suit")
    if action.kind == "pass" and d.round == 2:
        raise IllegalActionError("the dealer may not pass in the second round (stick the dealer): name trumps")
    raise IllegalActionError(f"{action.text} is not allowed now (expected one of "
                             f"{', '.join(a.text for a in legal(state)[:12])})")


def partners_sit_out(state: Table, seat: int) -> None:
    """Every other seat of ``seat``'s side sits this hand out (``seat`` plays alone): their
    cards are laid face down out of play (``Hand.out``: seen by their owner only, not by
    ``seat``) and trick play skips a seat without cards.  Also used by a ladder auction's
    lone bids."""
    h = state.hand
    v = state.variant
    for other in v.sides[v.side_of[seat]]:
        if other != seat:
            h.out[other] |= h.hands[other]
            h.hands[other] = 0


def _deal_rest(state: Table, spec, maker: int, turned: int) -> None:
    """The maker takes the turned card; the rest of the zone goes out in packets, ``deal_rest``
    cards to the maker and to each other player, from the eldest hand in the direction of play."""
    h = state.hand
    zone = h.zones.get(spec.zone, 0) & ~(1 << turned)
    h.hands[maker] |= 1 << turned
    rest = [c for c in h.deck_order if zone >> c & 1]
    seat = h.eldest
    for _ in range(state.variant.players):
        k = spec.deal_rest[0] if seat == maker else spec.deal_rest[1]
        for c in rest[:k]:
            h.hands[seat] |= 1 << c
        rest = rest[k:]
        seat = state.next_seat(seat)
    h.zones[spec.zone] = 0
    h.dealt = list(h.hands)  # the full hands: what tallies of dealt hands count


def apply(state: Table, action: Action) -> bool:
    """Record the call; ends with trumps set and the maker as declarer (or a throw-in)."""
    h = state.hand
    n = state.variant.players
    d: OrderUpData = h.phase_state[KIND.name]  # type: ignore[assignment]  # (KIND.data, KIND.spec: every call)
    spec: OrderUpSpec = state.variant.phases[h.phase]  # type: ignore[assignment]
    if d.discard:
        h.hands[h.to_move] &= ~action.cards
        if h.to_move == h.declarer:
            h.discards |= action.cards
        else:   # the dealer's discard when another player ordered up: the maker does not see it
            h.out[h.to_move] |= action.cards
        return True
    h.calls.append((h.to_move, action.text))
    if action.kind == "pass":
        d.passes += 1
        if d.passes < n:
            h.to_move = state.next_seat(h.to_move)
            return False
        if d.round == 1 and spec.second_round:
            d.round, d.passes, h.to_move = 2, 0, h.eldest
            return False
        state.throw_in()
        return True
    seat = h.to_move
    d.maker, d.alone = seat, action.text.endswith("alone")
    h.declarer = seat
    state.set_trump(d.suit if action.kind == "bid" else action.suit)  # type: ignore[arg-type]  # (a turned card: a suit)
    if d.alone:
        partners_sit_out(state, seat)
    if spec.deal_rest:
        _deal_rest(state, spec, seat, d.turned)
        return True
    if action.kind == "bid" and h.hands[h.dealer]:  # the dealer picks the card up and discards
        h.zones[spec.zone] &= ~(1 << d.turned)
        h.hands[h.dealer] |= 1 << d.turned
        d.discard, h.to_move = True, h.dealer
        return False
    return True


class OrderUpKind(PhaseKind[OrderUpSpec]):
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
                                                      "out (default false).", "type": "boolean"},
                             "deal_rest": {"description": "The maker takes the turned card (the dealer does not "
                                                          "pick it up), then the rest of the zone is dealt: "
                                                          "`maker` cards to the maker, `others` to each other "
                                                          "player, from the eldest hand.",
                                           "type": "object", "additionalProperties": False,
                                           "required": ["maker", "others"],
                                           "properties": {"maker": {"description": "Cards of the zone dealt "
                                                                                   "to the maker after the "
                                                                                   "turned card.",
                                                                    "type": "integer", "minimum": 0,
                                                                    "maximum": 52},
                                                          "others": {"description": "Cards of the zone dealt "
                                                                                    "to each other player.",
                                                                     "type": "integer", "minimum": 1,
                                                                     "maximum": 52}}},
                             "word": {"description": "The word of the first round's call (default `order`; "
                                                     "Belote players `take`): `take`, `take alone`.",
                                      "type": "string", "pattern": "^[a-z]+$"}}}
    label = "order up"
    example = "making: {kind: order_up, alone: true}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    legal_choices = staticmethod(legal_choices)
    choice_action = staticmethod(choice_action)
    apply_choice = staticmethod(apply_choice)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`OrderUpSpec`; the zone must exist and ``alone`` needs sides."""
        zone = p.get("from", "widow")
        if not c.any_zone():
            c.err(path, f"order_up turns the top card of the {zone}, but the deal puts no cards aside "
                        f"(expected a deal pattern with a {zone})")
        elif c.deal is not None and c.deal.zones and zone not in c.deal.zones:
            c.err(path + (("from",) if "from" in p else ()),
                  f"order_up turns the top card of the {zone}, but the deal has no {zone} (expected "
                  f"from: one of {', '.join(c.deal.zones)})")
        if p.get("alone") and not c.has_sides:
            c.err(path + ("alone",), "playing alone sits the partner out: it needs sides "
                                     "(expected a top-level sides: block)")
        rest = p.get("deal_rest")
        deal_rest = (rest["maker"], rest["others"]) if rest else ()
        if rest:
            n = c.player_count
            size = c.deal.zones.get(zone, (0, False))[0] if c.deal is not None else 0
            want = 1 + rest["maker"] + rest["others"] * (n - 1)
            if 1 + rest["maker"] != rest["others"]:
                c.err(path + ("deal_rest",), f"the maker would get {1 + rest['maker']} cards (the turned card and "
                      f"{rest['maker']}) and the others {rest['others']} (expected maker to be others - 1)")
            elif size and size != want:
                c.err(path + ("deal_rest",), f"the {zone} holds {size} cards but dealing the rest needs {want} "
                      f"(the turned card, {rest['maker']} to the maker and {rest['others']} to each of the "
                      f"{n - 1} others)")
            if p.get("alone"):
                c.err(path + ("alone",), "a lone caller's partner sits out, but deal_rest deals him cards "
                      "(expected alone or deal_rest, not both)")
        word = p.get("word", "order")
        if word in ("pass", "trump", "discard", "alone"):
            c.err(path + ("word",), f"{word!r} is already another action of this phase "
                                    f"(expected another word, e.g. order or take)")
        return OrderUpSpec(self.name, name, zone, bool(p.get("second_round", True)),
                           bool(p.get("stick_dealer", False)), bool(p.get("alone", False)), deal_rest, word)

    def strains(self, spec, deck) -> set:
        """Any suit may become trumps."""
        return set(deck.suits)

    def variables(self, spec) -> dict:
        """``maker`` and ``alone`` (0 or 1)."""
        return {"maker": (0, 1), "alone": (0, 1)}

    def values(self, variant, hand, spec) -> list:
        """Per score column: whether it holds the maker, and whether he went alone."""
        d = hand.phase_state.get(self.name)   # (data_of: asked at every hand's end)
        maker, alone = (d.maker, int(d.alone)) if d is not None else (-1, 0)
        if variant.scoring.by_side:
            return [{"maker": int(maker in seats), "alone": alone} for seats in variant.sides]
        return [{"maker": int(s == maker), "alone": alone} for s in range(variant.players)]

    def values_key(self, variant, hand, spec) -> tuple:
        """The maker's score column (-1: none) and whether he went alone: what :meth:`values`
        gives."""
        d = hand.phase_state.get(self.name)
        if d is None or d.maker < 0:
            return (-1, int(d.alone) if d is not None else 0)
        return (variant.side_of[d.maker] if variant.scoring.by_side else d.maker, int(d.alone))

    # ------------------------------------------------------------------ scorepad
    def pad_question(self, spec, variant, facts: dict, names: list):
        """Who called trumps (the maker; ``none``: all passed, the deal thrown in), then
        whether he played alone."""
        if "maker" not in facts:
            return ("maker", "maker", "the player who called trumps: one of " + ", ".join(names)
                    + ", or none (all passed: the deal is thrown in)")
        if spec.alone and facts["maker"] >= 0 and "alone" not in facts:
            return ("alone", "alone", "yes if the maker played alone, else no")
        return None

    def pad_answer(self, spec, variant, fact: str, text: str, facts: dict, names: list) -> None:
        """Store ``maker`` (a seat, -1 for none) or ``alone`` (0 or 1).

        :raises ValueError: not a player, or not yes/no."""
        t = text.strip().lower()
        if fact == "maker":
            low = [x.lower() for x in names]
            if t in ("none", "-", "pass", "-1"):   # -1: as the pad file stores it
                facts[fact] = -1
            elif t in low or (t.isdigit() and int(t) < len(names)):
                facts[fact] = low.index(t) if t in low else int(t)
            else:
                raise ValueError(f"maker: {text!r} is not a player (expected one of {', '.join(names)}, or none)")
        elif fact == "alone":
            if t not in ("yes", "y", "no", "n", "1", "0"):   # 1 / 0: as the pad file stores it
                raise ValueError(f"alone: {text!r} (expected yes or no)")
            facts[fact] = int(t in ("yes", "y", "1"))
        else:
            super().pad_answer(spec, variant, fact, text, facts, names)

    def pad_values(self, spec, variant, facts: dict, contract, won: list) -> list:
        """``maker`` and ``alone`` per column from the typed facts."""
        maker = facts.get("maker", -1)
        cols = variant.sides if variant.scoring.by_side else tuple((s,) for s in range(variant.players))
        return [{"maker": int(maker in seats), "alone": int(facts.get("alone", 0))} for seats in cols]

    def pad_thrown_in(self, spec, variant, facts: dict) -> bool:
        """Nobody called trumps: the deal was thrown in."""
        return facts.get("maker") == -1

    def pad_facts(self, spec, variant, hand) -> dict:
        """The maker (seat number, or none) and whether he went alone, as typed."""
        d = self.data_of(hand)
        if d is None:
            return {}
        out = {"maker": str(d.maker) if d.maker >= 0 else "none"}
        if spec.alone and d.maker >= 0:
            out["alone"] = "yes" if d.alone else "no"
        return out

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass``, the order word and ``trump X`` for each suit, each also ``alone``."""
        calls = (spec.word,) + tuple(f"trump {s}" for s in variant.deck.suits)
        return ("pass",) + tuple(w for c in calls for w in ((c, c + " alone") if spec.alone else (c,)))

    def later_cards(self, spec) -> int:
        """The cards each player gets after this phase (``deal_rest``)."""
        return spec.later_cards

    def describe(self, spec) -> str:
        """One paragraph."""
        second = (" If all pass, the card is turned down and each in turn may name another suit as trumps or "
                  "pass" + ("; the dealer may not pass then (stick the dealer)." if spec.stick_dealer
                            else "; if all pass again the deal is thrown in.")) if spec.second_round else \
            " If all pass, the deal is thrown in."
        alone = (" A player who calls trumps may say he plays alone: his partner lays his cards aside and "
                 "sits the hand out." if spec.alone else "")
        if spec.deal_rest:
            maker, others = spec.deal_rest
            return (f"The top card of the {spec.zone} is turned face up. Each player in turn from the eldest hand "
                    f"passes or takes it: its suit becomes trumps.{second}{alone} The player who called trumps is "
                    f"the maker: he takes the turned card, and the rest of the {spec.zone} is dealt, {maker} more "
                    f"cards to the maker and {others} to each other player.")
        return (f"The top card of the {spec.zone} is turned face up. Each player in turn from the eldest hand "
                f"passes or orders it up: its suit becomes trumps, and the dealer takes the card into his hand "
                f"and discards one card face down.{second}{alone} The player who called trumps is the maker.")

    def parse(self, text: str, state: Table) -> Action | None:
        """``order`` (the spec's ``word``), ``order alone``, ``trump H [alone]``."""
        t = " ".join(text.lower().split())
        for a in legal(state) if self.data_of(state.hand) is not None else []:
            if a.text.lower() == t:
                return a
        return None

    def help_line(self, spec, variant) -> str:
        """The action forms."""
        return f"pass, {spec.word}" + (" [alone]" if spec.alone else "") + "; in the second round trump X" + \
            (" [alone]" if spec.alone else "") + ("" if spec.deal_rest else "; the dealer: discard CARD")

    def observe(self, state: Table, seat: int) -> dict:
        """``turned`` (public), ``round``, ``maker`` and ``alone``."""
        d = self.data_of(state.hand)
        if d is None:
            return {}
        return {"turned": d.turned, "round": d.round, "maker": d.maker, "alone": d.alone}

    def known_cards(self, state: Table) -> list:
        """The turned card, public: on the talon (face up, or turned down after a first round
        of passes), then in the hand of the player who took it until he plays it."""
        d = self.data_of(state.hand)
        return card_place(state, d.turned) if d is not None else []

    def note(self, spec, variant, envs: list, columns: list) -> str:
        """Who called trumps: ``made by NS`` (``, alone``)."""
        made = [col for col, e in zip(columns, envs) if e.vars.get("maker")]
        if not made:
            return ""
        return f"made by {made[0]}" + (", alone" if envs[0].vars.get("alone") else "")

    def show(self, data, variant, names=None) -> list:
        """The turned card, public from the deal on: ``turned  J♥`` (``J♥, turned down`` once
        all passed it in the first round)."""
        if data.turned < 0:
            return []
        card = variant.deck.pretty(data.turned)
        return [("turned", card + (", turned down" if data.round == 2 else ""))]

    def prompt_label(self, state: Table) -> str:
        """What is asked now: the first round's call in the game's word (``take``, else ``order
        up``), ``name trumps`` in the second round, ``discard`` for the dealer who took the card."""
        d = self.data_of(state.hand)
        word = self.spec(state).word
        if d is None:
            return self.label
        if d.discard:
            return "discard"
        if d.round != 1:
            return "name trumps"
        return word if word != "order" else self.label

    def made(self, spec, hand, variant) -> Said | None:
        """``orders up J♥, trumps ♥`` (``takes J♥`` in the game's word) in the first round,
        ``names trumps ♠`` in the second, ``, alone`` for a lone caller."""
        d = self.data_of(hand)
        if d is None or d.maker < 0 or hand.trump == "NT":
            return None
        trumps = "trumps " + SUIT_SYMBOLS.get(hand.trump, hand.trump) + (
            ", low cards win" if hand.ctx is not None and hand.ctx.low else "")
        alone = ", alone" if d.alone else ""
        if d.round != 1:
            return Said(d.maker, f"names {trumps}{alone}", f"name {trumps}{alone}")
        word, up = spec.word, " up" if spec.word == "order" else ""
        said = f"{up} {variant.deck.pretty(d.turned)}, {trumps}{alone}"
        return Said(d.maker, (word if word.endswith("s") else word + "s") + said, word + said)



KIND = OrderUpKind()
