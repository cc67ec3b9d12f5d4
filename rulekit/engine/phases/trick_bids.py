"""``trick_bids`` phase: every player in turn bids the number of tricks he expects to take.

Once round the table from the eldest hand, each player says ``bid N`` (0 to the hand's
tricks).  With ``hook: true`` the last to bid (the dealer) may not make the bids add up
to the number of tricks (the "dealer's hook": someone must fail).  No contract and no
declarer: scoring reads the bids through the formula variables this kind gives
(:meth:`TrickBidsKind.variables`), per score column (a seat, or a side's seats added):

``bid`` the column's bid (a side: its non-zero bids added), ``bid_tricks`` the tricks of
the column's players who bid more than 0, ``nil_bids`` how many of its players bid 0,
``nil_made`` how many of them took no trick, ``nil_failed`` how many took one or more,
``nil_tricks`` the tricks its nil bidders took (blind ones too: e.g. bags of a failed nil).
So an exact bid is ``tricks == bid``, a made side contract ``bid_tricks >= bid``.

Blind nil (``blind_nil:``, pagat.com "Spades"): a player whose score column is behind the
best other column by at least ``behind`` points decides, at his turn and before looking at
his cards, ``blind nil`` (a bid of 0 made blind) or ``look``; until he has decided, neither
his observation nor the terminal shows his cards (:meth:`TrickBidsKind.hides_hand`).  After
the bidding each blind nil bidder passes ``exchange`` cards face down to his partner, who
adds them to his hand and passes as many back.  Blind nils are counted apart:
``blind_nil_made`` and ``blind_nil_failed`` (``nil_bids``, ``nil_made``, ``nil_failed`` count
the nils bid after looking).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said, n_cards
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.exchange import choices_of, takes
from rulekit.engine.phases.pass_cards import pass_form, parse_pass
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class TrickBidsSpec(PhaseSpec):
    """Compiled ``trick_bids`` entry: ``hook`` forbids the last bid that makes the sum equal
    the tricks of the hand; ``nil`` allows a bid of 0; ``most`` caps a bid (``None``: the
    hand's tricks); ``blind`` allows blind nil to a column ``blind_behind`` points or more
    behind (``None``: no blind nil), then ``blind_exchange`` cards pass each way between the
    blind bidder and his partner."""

    hook: bool
    nil: bool
    least: int
    most: int | None
    blind_behind: int | None = None
    blind_exchange: int = 0


@dataclass
class TrickBidsData(KindData):
    """``trick_bids``' data for one hand: each seat's ``bids`` (-1: not yet), ``count`` of bids
    made, the ``tricks`` of the hand; the seats still ``undecided`` on blind nil (their cards stay
    face down), those who bid ``blind`` nil; the ``swap`` queue of the blind nil exchange,
    ``(giver, taker)`` pairs."""

    bids: list[int]
    tricks: int
    undecided: list[int]
    count: int = 0
    blind: list[int] = field(default_factory=list)
    swap: list[tuple[int, int]] = field(default_factory=list)


def _action(n: int) -> Action:
    """``bid N`` (one shared action per number: actions are immutable)."""
    a = _BIDS.get(n)
    if a is None:
        a = _BIDS[n] = Action("bid", f"bid {n}", bid=str(n))
    return a


_BIDS: dict = {}   # N -> its shared ``bid N`` action
BLIND = Action("bid", "blind nil", bid="blind")
LOOK = Action("look", "look")

#: The choices (:meth:`TrickBidsKind.legal_choices`): a bid is its number of tricks, blind nil
#: and look two numbers above every bid (within 16 bits, as the match record keeps them); in a
#: blind nil exchange, the place of the cards passed among
#: :func:`~rulekit.engine.phases.exchange.choices_of`.
BLIND_CHOICE = 1 << 14
LOOK_CHOICE = BLIND_CHOICE + 1


#: the formula variables that score a bid of 0 apart: with them, the bid is said ``nil``
NIL_VARIABLES = frozenset({"nil_bids", "nil_made", "nil_failed"})


def says_nil(variant) -> bool:
    """True when the variant's scoring reads a nil variable (:data:`NIL_VARIABLES`): a bid of 0
    is then a nil, typed ``nil`` and shown so (user pass 2, finding 5); else it is a plain 0."""
    def names(x) -> frozenset:
        if hasattr(x, "names") and hasattr(x, "fn"):   # a compiled Formula
            return x.names
        if isinstance(x, tuple):
            return frozenset().union(*(names(i) for i in x))
        if hasattr(x, "__dataclass_fields__"):
            return frozenset().union(*(names(getattr(x, f)) for f in x.__dataclass_fields__))
        return frozenset()
    return variant.cached(_SAYS_NIL, lambda: bool(names(variant.scoring) & NIL_VARIABLES))


_SAYS_NIL = "trick_bids.says_nil"   # the variant's says_nil (it walks the scoring's formulas)
_TABLES = "trick_bids.choices"      # phase index -> its _Tables


def column_of(variant, seat: int) -> int:
    """The score column of ``seat`` (its side's with ``scoring.by: side``)."""
    return variant.side_of[seat] if variant.scoring.by_side else seat


def blind_seats(variant, spec, totals: list) -> list:
    """The seats that may bid blind nil with these match ``totals`` (per score column): those
    whose column is at least ``spec.blind_behind`` points behind the best other column."""
    if spec.blind_behind is None:
        return []
    if spec.blind_behind == 0:   # no condition: anyone may
        return list(range(variant.players))
    if max(totals) - min(totals) < spec.blind_behind:   # (no column is that far behind another)
        return []
    out = []
    for seat in range(variant.players):
        col = column_of(variant, seat)
        others = [t for c, t in enumerate(totals) if c != col]
        if others and max(others) - totals[col] >= spec.blind_behind:
            out.append(seat)
    return out


def start(state: Table) -> bool:
    h = state.hand
    spec = KIND.spec(state)
    # the seats not yet decided (look or blind nil): their cards stay face down
    h.phase_state[KIND.name] = TrickBidsData([-1] * state.variant.players, h.hands[h.eldest].bit_count(),
                                             blind_seats(state.variant, spec, state.totals()))
    h.to_move = h.eldest
    return True


class _Tables:
    """A ``trick_bids`` phase's choices by number, built once per variant: ``bids`` (the hand's
    tricks -> the bids allowed, lowest first, before the dealer's hook), ``said`` (seat -> bid
    -> the shared ``(seat, "bid N")`` of his action)."""

    __slots__ = ("bids", "said")

    def __init__(self, players: int, most: int):
        self.bids: dict[int, tuple[int, ...]] = {}
        self.said = tuple(tuple((s, _action(n).text) for n in range(most + 1)) for s in range(players))

    def allowed(self, spec: TrickBidsSpec, total: int) -> tuple:
        """The bids allowed in a hand of ``total`` tricks (without the hook)."""
        out = self.bids.get(total)
        if out is None:
            top = total if spec.most is None else min(total, spec.most)
            out = self.bids[total] = tuple(sorted(set(range(spec.least, top + 1)) | ({0} if spec.nil else set())))
        return out


def _tables(state: Table) -> _Tables:
    h = state.hand
    by_phase: dict | None = state.variant.cache.get(_TABLES)   # (asked twice a decision)
    if by_phase is None:
        by_phase = state.variant.cached(_TABLES, dict)
    t = by_phase.get(h.phase)
    if t is None:
        t = by_phase[h.phase] = _Tables(state.variant.players, state.variant.deck.size)   # (no hand holds more)
    return t


def legal_choices(state: Table):
    """The choices of :func:`legal`, in its order (see :data:`BLIND_CHOICE`): blind nil and look
    before a player eligible for blind nil has looked; then each bid allowed, lowest first; in the
    exchange, every choice of cards."""
    h = state.hand
    d: TrickBidsData = h.phase_state[KIND.name]  # type: ignore[assignment]  # (KIND.data: every bid)
    if d.swap:
        return range(len(choices_of(state.variant.deck, h.hands[h.to_move], KIND.spec(state).blind_exchange)))
    if d.undecided and h.to_move in d.undecided:
        return (BLIND_CHOICE, LOOK_CHOICE)
    spec: TrickBidsSpec = state.variant.phases[h.phase]  # type: ignore[assignment]
    out = _tables(state).allowed(spec, d.tricks)
    if spec.hook and d.count == state.variant.players - 1:   # the dealer's hook: someone must fail
        so_far = sum(b for b in d.bids if b > 0)
        out = tuple(n for n in out if so_far + n != d.tricks)
    return out


def legal(state: Table):
    """``blind nil`` and ``look`` before a player eligible for blind nil has looked; then
    ``bid N`` for each allowed N, lowest first; in the exchange, every choice of cards."""
    d = KIND.data(state)
    if d.swap:
        h = state.hand
        return choices_of(state.variant.deck, h.hands[h.to_move], KIND.spec(state).blind_exchange)
    return [choice_action(state, c) for c in legal_choices(state)]


def choice_action(state: Table, choice: int) -> Action:
    """The action of ``choice`` (see :data:`BLIND_CHOICE`)."""
    if KIND.data(state).swap:
        return legal(state)[choice]
    return BLIND if choice == BLIND_CHOICE else LOOK if choice == LOOK_CHOICE else _action(choice)


def choice_of(state: Table, action: Action) -> int:
    """The choice of a legal ``action`` (see :data:`BLIND_CHOICE`).

    :raises ValueError: a discard that is not a choice now."""
    if KIND.data(state).swap:
        return legal(state).index(action)
    return BLIND_CHOICE if action == BLIND else LOOK_CHOICE if action.kind == "look" else int(action.bid)


def apply_choice(state: Table, choice: int) -> bool:
    """:func:`apply` of ``choice`` without its action (a bid's ``(seat, text)`` a shared pair in
    the hand's actions); True when the phase is over."""
    h = state.hand
    d: TrickBidsData = h.phase_state[KIND.name]  # type: ignore[assignment]
    if d.swap:
        a = legal(state)[choice]
        h.actions.append((h.to_move, a.text))
        return _swap(state, d, a.cards)
    seat = h.to_move
    h.actions.append((seat, BLIND.text) if choice == BLIND_CHOICE else (seat, LOOK.text) if choice == LOOK_CHOICE
                     else _tables(state).said[seat][choice])
    return _bid(state, d, choice)


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: not a bid, or one the rules forbid (with why)."""
    d = KIND.data(state)
    if d.swap:
        h = state.hand
        k = takes(KIND.spec(state).blind_exchange, h.hands[h.to_move])
        if action.kind != "discard" or action.cards & ~h.hands[h.to_move] or action.cards.bit_count() != k:
            raise IllegalActionError(f"pass {k} of your cards face down to your partner now "
                                     f"({pass_form(k)})")
        return
    if action in legal(state):
        return
    if action == BLIND:
        raise IllegalActionError("blind nil is not allowed now: it is bid before looking at the cards, by a player "
                                 f"whose side is {KIND.spec(state).blind_behind} points or more behind"
                                 if KIND.spec(state).blind_behind is not None else
                                 "blind nil is not allowed in this game")
    if state.hand.to_move in d.undecided:
        raise IllegalActionError("decide first: blind nil (before looking at your cards) or look")
    if action.kind == "bid" and action.bid.isdigit():
        n = int(action.bid)
        so_far = sum(b for b in d.bids if b > 0)
        if KIND.spec(state).hook and d.count == state.variant.players - 1 and so_far + n == d.tricks:
            t = d.tricks
            raise IllegalActionError(f"bid {n} is not allowed: the bids would add up to the {t} "
                                     f"trick{'' if t == 1 else 's'} of the hand (the last bidder must make "
                                     f"someone fail)")
    allowed = ", ".join(a.text for a in legal(state))
    raise IllegalActionError(f"{action.text} is not allowed now (expected one of {allowed})")


def apply(state: Table, action: Action) -> bool:
    d = KIND.data(state)
    if d.swap:   # a blind nil exchange: the cards go to the partner at once
        return _swap(state, d, action.cards)
    return _bid(state, d, BLIND_CHOICE if action == BLIND else LOOK_CHOICE if action.kind == "look"
                else int(action.bid))


def _swap(state: Table, d: TrickBidsData, cards: int) -> bool:
    """The blind nil exchange's next pass of ``cards``; True when the exchange is over."""
    h = state.hand
    giver, taker = d.swap.pop(0)
    h.hands[giver] &= ~cards
    h.hands[taker] |= cards
    if not d.swap:
        return True
    h.to_move = d.swap[0][0]
    return False


def _bid(state: Table, d: TrickBidsData, choice: int) -> bool:
    """The seat to move's decision ``choice`` (a bid, or see :data:`BLIND_CHOICE`); True when
    the bidding (and any blind nil exchange) is over."""
    h = state.hand
    seat = h.to_move
    if d.undecided and seat in d.undecided:
        d.undecided.remove(seat)
        if choice == LOOK_CHOICE:
            return False   # he looks, then bids
        d.blind.append(seat)
        choice = 0
    d.bids[seat] = choice
    shown = "blind nil" if seat in d.blind else "nil" if choice == 0 and says_nil(state.variant) \
        else _action(choice).text
    h.calls.append((seat, shown))   # public: every bid is shown
    d.count += 1
    if d.count < state.variant.players:
        h.to_move = state.next_seat(seat)
        return False
    d.undecided = []
    spec = KIND.spec(state)
    if spec.blind_exchange:
        for b in d.blind:
            partner = state.partner_of(b)
            if partner != b:
                d.swap += [(b, partner), (partner, b)]
    if not d.swap:
        return True
    h.to_move = d.swap[0][0]
    return False


def _nil_seats(bids: str) -> list:
    """The seats whose typed bid (``3 0 blind 4``) is nil, blind or not."""
    return [s for s, w in enumerate(bids.split()) if w in ("0", "blind")]


def column_values(variant, bids: list, blind: list, won: list) -> list:
    """The formula variables of each score column from each seat's ``bids`` (-1: none),
    the seats that bid ``blind`` nil and the tricks each seat ``won``."""
    cols = variant.sides if variant.scoring.by_side else tuple((s,) for s in range(variant.players))
    out = []
    for seats in cols:   # (one pass per column: every hand's end asks)
        bid = bid_tricks = nil_bids = nil_made = nil_failed = nil_tricks = blind_made = blind_failed = 0
        for s in seats:
            b, w = bids[s], won[s]
            if b > 0:
                bid += b
                bid_tricks += w
            elif b == 0:
                nil_tricks += w
                if s in blind:
                    blind_made += w == 0
                    blind_failed += w > 0
                else:
                    nil_bids += 1
                    nil_made += w == 0
                    nil_failed += w > 0
        out.append({"bid": bid, "bid_tricks": bid_tricks, "nil_bids": nil_bids, "nil_made": nil_made,
                    "nil_failed": nil_failed, "nil_tricks": nil_tricks, "blind_nil_made": blind_made,
                    "blind_nil_failed": blind_failed})
    return out


class TrickBidsKind(PhaseKind[TrickBidsSpec]):
    """The ``trick_bids`` kind (see the module docstring)."""

    name = "trick_bids"
    schema = {"description": "Each player in turn from the eldest hand bids the number of tricks he will "
                             "take (bid N); scoring reads bid, bid_tricks, nil_bids, nil_made, nil_failed, "
                             "nil_tricks, blind_nil_made, blind_nil_failed.",
              "type": "object",
              "additionalProperties": False,
              "required": ["kind"],
              "properties": {"kind": True,
                             "hook": {"description": "The last bidder (the dealer) may not bid so that the bids "
                                                     "add up to the tricks of the hand.",
                                      "type": "boolean"},
                             "nil": {"description": "A bid of 0 (nil) is allowed even when least is above 0 (default true).",
                                     "type": "boolean"},
                             "least": {"description": "The lowest bid other than nil (default 0).",
                                       "type": "integer", "minimum": 0, "maximum": 52},
                             "most": {"description": "The highest bid (default: the tricks of the hand).",
                                      "type": "integer", "minimum": 0, "maximum": 52},
                             "blind_nil": {"description": "Blind nil: a bid of 0 made before looking at the cards "
                                                          "(scoring reads blind_nil_made, blind_nil_failed).",
                                           "type": "object", "additionalProperties": False,
                                           "properties": {
                                               "behind": {"description": "Allowed only to a player whose score "
                                                                         "column is at least this many points "
                                                                         "behind the best other (default 0: anyone).",
                                                          "type": "integer", "minimum": 0},
                                               "exchange": {"description": "After the bidding the blind nil bidder "
                                                                           "passes this many cards face down to "
                                                                           "his partner, who passes as many back "
                                                                           "(default 0; needs sides).",
                                                            "type": "integer", "minimum": 0, "maximum": 13}}}}}
    label = "bid"
    example = "bidding: {kind: trick_bids, hook: true}"
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    legal_choices = staticmethod(legal_choices)
    choice_action = staticmethod(choice_action)
    choice_of = staticmethod(choice_of)
    apply_choice = staticmethod(apply_choice)

    def compile(self, c, name: str, p: dict, path: tuple):
        """The :class:`TrickBidsSpec`."""
        least, most = p.get("least", 0), p.get("most")
        if most is not None and most < least:
            c.err(path + ("most",), f"most {most} is below least {least} (expected most >= least)")
        blind = p.get("blind_nil")
        exchange = (blind or {}).get("exchange", 0)
        if exchange and not c.has_sides:
            c.err(path + ("blind_nil", "exchange"), "the blind nil exchange passes cards to a partner: it needs "
                                                    "sides (expected a top-level sides: block)")
        return TrickBidsSpec("trick_bids", name, bool(p.get("hook", False)), bool(p.get("nil", True)), least, most,
                             None if blind is None else blind.get("behind", 0), exchange)

    def finish(self, c, spec):
        """A blind nil bidder and his partner must hold the cards they exchange (user pass
        finding 3)."""
        if spec.blind_exchange:
            c.check_takes(("phases", spec.name, "blind_nil", "exchange"), spec.blind_exchange, "exchanges")
        return spec

    def variables(self, spec) -> dict:
        """``bid``, ``bid_tricks``, ``nil_bids``, ``nil_made``, ``nil_failed``, ``nil_tricks``,
        ``blind_nil_made``, ``blind_nil_failed`` (see the module)."""
        return {"bid": (0, 52), "bid_tricks": (0, 52), "nil_bids": (0, 8), "nil_made": (0, 8), "nil_failed": (0, 8),
                "nil_tricks": (0, 52), "blind_nil_made": (0, 8), "blind_nil_failed": (0, 8)}

    def values(self, variant, hand, spec) -> list:
        """Per score column, from the bids and the tricks won."""
        d = self.data_of(hand)
        bids = list(d.bids) if d is not None else [0] * variant.players
        return column_values(variant, bids, d.blind if d is not None else [], list(hand.won))

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``bid N`` for every number of tricks a hand may hold, ``blind nil`` and ``look``."""
        most = variant.deck.size // variant.players
        return tuple(_action(n).text for n in range(most + 1)) + (BLIND.text, LOOK.text)

    def describe(self, spec) -> str:
        """One paragraph."""
        rng = f"from {spec.least}" + (f" to {spec.most}" if spec.most is not None
                                      else " up to the number of tricks in the hand")
        nil = " or nil (0)" if spec.nil and spec.least > 0 else ""
        hook = (" The dealer, bidding last, may not bid the number that would make the bids add up to the "
                "tricks of the hand, so that someone must fail." if spec.hook else "")
        blind = ""
        if spec.blind_behind is not None:
            who = (f"A player whose score is {spec.blind_behind} points or more behind the best other"
                   if spec.blind_behind else "A player")
            blind = (f" {who} may instead bid blind nil before looking at his cards (he decides at his turn: "
                     f"blind nil, or look and bid).")
            if spec.blind_exchange:
                n = spec.blind_exchange
                blind += (f" After the bidding a blind nil bidder passes {n} card{'s' if n > 1 else ''} face down "
                          f"to his partner, who adds them to his hand and passes {n} back.")
        return (f"Each player in turn, starting with the eldest hand, bids how many tricks he will take, "
                f"{rng}{nil}.{hook}{blind}")

    def discard_word(self, state: Table) -> str:
        """``pass``: a blind nil exchange passes cards to the partner."""
        return "pass"

    def action_text(self, state: Table, action: Action) -> str:
        """``bid 0`` is said ``nil`` where the scoring reads nil variables (:func:`says_nil`)."""
        if action.kind == "bid" and action.bid == "0" and says_nil(state.variant):
            return "nil"
        return super().action_text(state, action)

    def parse(self, text: str, state: Table) -> Action | None:
        """``bid N`` (or just ``N``), ``blind nil`` (or ``blind``), ``look``, ``nil`` (or ``bid
        nil``: the bid 0, where the scoring reads nil variables); in a blind nil exchange ``pass
        CARD ...`` or the bare cards."""
        if self.data(state).swap:
            return parse_pass(text, state)
        t = " ".join(text.lower().split())
        if t in ("nil", "bid nil") and says_nil(state.variant):
            return _action(0)
        if t in ("blind nil", "blind", "bid blind nil"):
            return BLIND
        if t == "look":
            return LOOK
        w = text.split()
        if len(w) == 2 and w[0].lower() == "bid" and w[1].isdigit():
            return _action(int(w[1]))
        if len(w) == 1 and w[0].isdigit():
            return _action(int(w[0]))
        return None

    def help_line(self, spec, variant) -> str:
        """The bid form."""
        blind = ("; before looking at your cards: blind nil or look" if spec.blind_behind is not None else "")
        swap = (f"; a blind nil exchange: {pass_form(spec.blind_exchange)} (or just the cards)"
                if spec.blind_exchange else "")
        nil = " or nil" if spec.nil and says_nil(variant) else ""
        return f"bid N (the tricks you will take){nil}{blind}{swap}"

    def note(self, spec, variant, envs: list, columns: list) -> str:
        """Each column's bid and tricks: ``NS bid 3 + nil took 8 · EW bid 9 took 5`` (user pass
        (gallery) finding 8); ``nil failed`` when a nil bidder took a trick."""
        out = []
        for col, e in zip(columns, envs):
            x = e.vars
            if "bid" not in x or "tricks" not in x:
                return ""
            nils = ["nil"] * x.get("nil_bids", 0) + ["blind nil"] * (x.get("blind_nil_made", 0)
                                                                     + x.get("blind_nil_failed", 0))
            words = ([str(x["bid"])] if x["bid"] or not nils else []) + nils
            if not variant.scoring.by_side and words == ["nil"]:
                words = ["0"]   # one player's bid of 0
            failed = x.get("nil_failed", 0) + x.get("blind_nil_failed", 0)
            out.append(f"{col} bid {' + '.join(words)} took {x['tricks']}"
                       + (" (nil failed)" if failed and variant.scoring.by_side else ""))
        return " · ".join(out)

    def discards(self, spec, hand, variant) -> int:
        """A blind nil exchange: one pass each way per blind nil bidder."""
        d = self.data_of(hand)
        return 2 * len(d.blind) if d is not None and spec.blind_exchange else 0

    def said(self, spec, hand, variant, seat: int, text: str, names: list) -> Said | None:
        """``passes 1 card face down to his partner (N)`` (a blind nil exchange)."""
        if not text.startswith("discard "):
            return None
        side = variant.sides[variant.side_of[seat]]
        partner = next((x for x in (variant.next_seat(seat, k) for k in range(1, variant.players)) if x in side), seat)
        n, to = n_cards(len(text.split()) - 1), f"({names[partner]})"
        return Said(seat, f"passes {n} face down to his partner {to}", f"pass {n} face down to your partner {to}")

    def observe(self, state: Table, seat: int) -> dict:
        """``bids``: the bids so far, -1 for not yet (public); ``blind``: who bid blind nil."""
        d = self.data_of(state.hand)
        return {"bids": list(d.bids), "blind": list(d.blind)} if d is not None else {}

    # ------------------------------------------------------------------ scorepad
    def pad_question(self, spec, variant, facts: dict, names: list):
        """Each player's bid, in seat order; then, when a side scores as one, the tricks each
        of its nil bidders took (his side's tricks alone do not say)."""
        blind = ", blind for blind nil" if spec.blind_behind is not None else ""
        if "bids" not in facts:
            nil = (", or nil (0)" if spec.least else "") if spec.nil else ""
            least = "0 (or nil)" if spec.nil and not spec.least else str(spec.least)
            return ("bids", "bids " + " ".join(names),
                    f"{len(names)} bids in seat order ({' '.join(names)}), each {least} to "
                    f"{facts['cards']}{nil}{blind}")
        nils = _nil_seats(facts["bids"])
        if variant.scoring.by_side and nils and "nil_tricks" not in facts:
            who = " ".join(names[s] for s in nils)
            return ("nil_tricks", "tricks of nil bidders " + who,
                    f"the tricks taken by each nil bidder ({who}), 0 to {facts['cards']}")
        return None

    def pad_answer(self, spec, variant, fact: str, text: str, facts: dict, names: list) -> None:
        """Check and store ``bids`` (``3 0 blind 4``) or ``nil_tricks`` (``1 0``).

        :raises ValueError: a bid the rules forbid (out of range, blind nil not played, the
            dealer's hook), or the wrong count of numbers."""
        words = text.replace(",", " ").lower().split()
        cards = facts["cards"]
        if fact == "bids":
            if len(words) != len(names):
                raise ValueError(f"bids: {len(words)} given, but there are {len(names)} players "
                                 f"(expected one bid each: {' '.join(names)})")
            out = []
            for who, w in zip(names, words):
                if w in ("blind", "b", "bn"):
                    if spec.blind_behind is None:
                        raise ValueError(f"bids: {who}: blind nil is not played in {variant.id} (expected a number)")
                    out.append("blind")
                    continue
                if w == "nil" and spec.nil:   # as players say it: a bid of 0
                    w = "0"
                if not w.isdigit():
                    raise ValueError(f"bids: {who}: {w!r} is not a bid (expected a number"
                                     f"{', nil' if spec.nil else ''}"
                                     f"{' or blind' if spec.blind_behind is not None else ''})")
                n, top = int(w), cards if spec.most is None else min(cards, spec.most)
                if not (spec.least <= n <= top or (n == 0 and spec.nil)):
                    raise ValueError(f"bids: {who}: {n} is not allowed (expected {spec.least} to {top}"
                                     f"{' or 0' if spec.nil and spec.least > 0 else ''})")
                out.append(str(n))
            if spec.hook and sum(int(b) for b in out if b != "blind") == cards:
                raise ValueError(f"bids add up to the {cards} tricks of the hand, which the last bidder may "
                                 f"not allow (expected someone to be short or over)")
            facts[fact] = " ".join(out)
        elif fact == "nil_tricks":
            nils = _nil_seats(facts["bids"])
            if len(words) != len(nils) or not all(w.isdigit() and int(w) <= cards for w in words):
                raise ValueError(f"tricks of nil bidders: expected {len(nils)} number{'s' if len(nils) > 1 else ''}, "
                                 f"each 0 to {cards} (for {' '.join(names[s] for s in nils)})")
            facts[fact] = " ".join(words)
        else:
            super().pad_answer(spec, variant, fact, text, facts, names)

    def pad_values(self, spec, variant, facts: dict, contract, won: list) -> list:
        """:func:`column_values` of the typed bids; with sides, a side's tricks (on its first
        seat in ``won``) are split between its nil bidders (as typed) and the others.

        :raises ValueError: nil bidders took more tricks than their side."""
        if "bids" not in facts:
            return []
        words = facts["bids"].split()
        bids = [0 if w == "blind" else int(w) for w in words]
        blind = [s for s, w in enumerate(words) if w == "blind"]
        won = list(won)
        if variant.scoring.by_side:
            nils = _nil_seats(facts["bids"])
            took = dict(zip(nils, (int(x) for x in facts.get("nil_tricks", "").split())))
            for side, seats in zip(variant.side_names, variant.sides):
                total = sum(won[s] for s in seats)
                mine = sum(took.get(s, 0) for s in seats)
                if mine > total:
                    raise ValueError(f"the nil bidders of {side} took {mine} trick{'s' if mine > 1 else ''}, "
                                     f"but {side} took {total} (expected {side}'s tricks to include theirs)")
                for s in seats:
                    won[s] = took.get(s, 0)
                rest = [s for s in seats if s not in took]
                if rest:
                    won[rest[0]] = total - mine
        return column_values(variant, bids, blind, won)

    def pad_facts(self, spec, variant, hand) -> dict:
        """The bids of a played hand as typed, and the tricks of its nil bidders (sides)."""
        d = self.data_of(hand)
        if d is None:
            return {}
        out = {"bids": " ".join("blind" if s in d.blind else str(b) for s, b in enumerate(d.bids))}
        nils = _nil_seats(out["bids"])
        if variant.scoring.by_side and nils:
            out["nil_tricks"] = " ".join(str(hand.won[s]) for s in nils)
        return out

    def hides_hand(self, state: Table, seat: int) -> bool:
        """A player who may bid blind nil has not yet decided: his cards are face down."""
        d = self.data_of(state.hand)
        return d is not None and seat in d.undecided


KIND = TrickBidsKind()
