"""``call_partner`` phase: the declarer may take a partner for this hand only
(rules/boston.md [B5]), by invitation or by a card.

By invitation (the default), it applies when the contract allows a partner (a
``list_auction`` contract with ``partner: true``).  The declarer says ``invite`` or
``alone``.  After ``invite`` each other player in turn, clockwise from the declarer, says
``accept`` or ``pass``; the first to accept is the partner.  After ``alone`` (with
``offers: true``) each in turn may ``offer`` ("I play with you") or ``pass``; the declarer
answers an offer with ``accept`` or ``refuse``, and after a refusal the next player answers.
Nobody: he plays alone.

By a card (``card:``, :mod:`rulekit.engine.phases.partner_card`): the holder of a card the
declarer calls (``call AS``) or the rules name is his partner, secretly; without a declarer
the holders of the named card form the party.  The partner is scored with the declarer's
formula (:meth:`State.set_partner`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulekit.cards import bits
from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases import partner_card as pc
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said
from rulekit.engine.phases.partner_card import CardCall
from rulekit.engine.phases.registry import REGISTRY
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError

WORDS = ("invite", "alone", "accept", "offer", "refuse")
ACT = {w: Action("partner", w) for w in WORDS}


@dataclass(frozen=True)
class CallPartnerSpec(PhaseSpec):
    """``call_partner`` phase: ``offers``: players may offer themselves after ``alone``;
    ``card``: partners by a card (:class:`~rulekit.engine.phases.partner_card.CardCall`), or
    ``None`` for an invitation."""

    offers: bool
    card: CardCall | None = None
    by_trick: bool = False
    """Some contract finds its partner by a trick (``partner_trick``): the party's variables
    are given without ``card`` too."""


@dataclass
class CallPartnerData(KindData):
    """``call_partner``'s data for one hand: ``stage`` (``ask``, ``answer``, ``decide``; by a
    card ``call`` while the declarer calls, then ``done``); ``invited``: the declarer invited
    (else he offers the others to offer); ``answered``: seats that answered; ``offer``: the seat
    whose offer the declarer decides on (-1: none).  By a card, public facts only: ``cards``
    the copies of the party card (0: none), ``called`` the card called (-1: named by the
    rules, or none), ``suit_cards`` the other cards of its suit when it was called (for the
    ``hold_suit`` inference), ``lone``: no declarer, the card's holders are the party; who
    holds it is read from the cards (:func:`partner_card.party`)."""

    stage: str = "ask"
    invited: bool = False
    answered: int = 0
    offer: int = -1
    cards: int = 0
    called: int = -1
    suit_cards: int = 0
    lone: bool = False
    by_trick: int = 0


def start(state: Table) -> bool:
    """Applies when the contract allows a partner; the declarer speaks first.  By a card: a
    named card fixes the party at once (no decision), else the declarer calls one."""
    h = state.hand
    rule = KIND.spec(state).card
    by_trick: int = getattr(h.contract, "partner_trick", 0) if h.declarer >= 0 else 0
    if by_trick:   # found by a trick, in play
        h.phase_state[KIND.name] = CallPartnerData(stage="done", by_trick=by_trick)
        return False
    if rule is not None:
        return _start_card(state, rule)
    if h.declarer < 0 or not getattr(h.contract, "partner", False):
        return False
    h.phase_state[KIND.name] = CallPartnerData()
    h.to_move = h.declarer
    return True


def _start_card(state: Table, rule: CardCall) -> bool:
    """Partners by a card: with a declarer (whose contract allows a partner), the named card's
    holder partners him, or he calls a card (also when he holds the named card and ``own:
    call``); without one, the named card's holders form the party.  True when he must call."""
    h = state.hand
    if h.declarer < 0:
        if not rule.lone:   # (an auction that all passed: no party unless the file says so)
            return False
        h.phase_state[KIND.name] = CallPartnerData(stage="done", cards=rule.fixed, lone=True)
        return False
    if not getattr(h.contract, "partner", True):
        return False
    d = h.phase_state[KIND.name] = CallPartnerData(stage="done")
    if rule.fixed and not (rule.own == "call" and h.hands[h.declarer] & rule.fixed):
        d.cards = rule.fixed
        _set_partner(state, d)
        return False
    if not pc.callable_cards(state, rule):   # nothing he may call: he plays alone
        return False
    d.stage = "call"
    h.to_move = h.declarer
    return True


def trick_partner(hand) -> tuple[int, int]:
    """A partner found by a trick (a contract's ``partner_trick``): ``(partner, trick)``, the
    first other player to win one of the declarer's first N tricks and the number of that trick
    (from 1); ``(-1, N)`` when the declarer won all N (he plays alone); ``(-1, 0)`` while it is
    not decided, or when the hand has no such partner."""
    d = hand.phase_state.get(KIND.name)
    n = getattr(d, "by_trick", 0)
    if not n:
        return -1, 0
    for k, t in enumerate(hand.tricks[:n]):
        if t[2] != hand.declarer:
            return t[2], k + 1
    return (-1, n) if len(hand.tricks) >= n else (-1, 0)


def waits_for_partner(hand) -> tuple[bool, int]:
    """``(waiting, shift)`` for announcements: a partner to be found by a trick is not decided
    yet; once decided, the card deadlines move ``shift`` cards (one per trick after the first
    it took)."""
    d = hand.phase_state.get(KIND.name)
    if not getattr(d, "by_trick", 0):
        return False, 0
    _p, k = trick_partner(hand)
    return (True, 0) if k == 0 else (False, k - 1)


def _card_rule(state: Table) -> CardCall:
    """The ``card:`` rules of the phase in progress (a partnership by a card)."""
    rule = KIND.spec(state).card
    assert rule is not None   # (the call stage is only reached by a card)
    return rule


def _set_partner(state: Table, d: CallPartnerData) -> None:
    """The declarer's partner for the hand: the holder of the party card (none when he holds
    it himself, or when it is out of play)."""
    partner = pc.first_partner(state.hand, d)
    if partner >= 0:
        state.set_partner(partner)


def legal(state: Table) -> list:
    """The declarer: ``alone``, ``invite``; asked: ``pass``, ``accept``; offering: ``pass``,
    ``offer``; the declarer on an offer: ``refuse``, ``accept``."""
    d = KIND.data(state)
    stage = d.stage
    if stage == "call":   # by a card: one call per card he may call, in deck order
        deck = state.variant.deck
        return [pc.call_action(deck, c) for c in bits(pc.callable_cards(state, _card_rule(state)))]
    if stage == "ask":
        return [ACT["alone"], ACT["invite"]]
    if stage == "answer":
        return [PASS, ACT["accept"] if d.invited else ACT["offer"]]
    return [ACT["refuse"], ACT["accept"]]


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: a word that does not answer the question asked now."""
    d = KIND.data(state)
    if d.stage == "call":
        pc.refuse_call(state, _card_rule(state), action)
        return
    if action not in legal(state):
        ask = {"ask": "the declarer says invite or alone",
               "answer": "say accept or pass" if d.invited else "say offer or pass",
               "decide": "the declarer says accept or refuse the offer"}[d.stage]
        raise IllegalActionError(f"{action.text} is not an answer now: {ask}")


def _next(state: Table, d) -> bool:
    """Ask the next player (in the direction of play) from the declarer; True when everyone has answered."""
    h = state.hand
    n = state.variant.players
    d.answered += 1
    if d.answered >= n:
        return True
    d.stage = "answer"
    h.to_move = state.next_seat(h.declarer, d.answered)
    return False


def apply(state: Table, action: Action) -> bool:
    """Record the answer; True when the partner is known or nobody will be."""
    h = state.hand
    d = KIND.data(state)
    seat = h.to_move
    w = action.text
    if d.stage == "call":   # the card called: the copies of it make the party (in the hand's actions)
        deck = state.variant.deck
        ctx = h.ctx
        d.cards = pc.copies(deck, action.card)
        d.called = (d.cards & -d.cards).bit_length() - 1
        d.suit_cards = ctx.group_mask[ctx.group_of[action.card]] & ~d.cards
        d.stage = "done"
        _set_partner(state, d)
        return _finish(state)
    h.calls.append((seat, w))
    if d.stage == "ask":
        d.invited = w == "invite"
        if not d.invited and not KIND.spec(state).offers:
            return _finish(state)
        d.answered = 0
        return _next(state, d) and _finish(state)
    if d.stage == "answer":
        if w == "accept":
            state.set_partner(seat)
            return _finish(state)
        if w == "offer":
            d.stage, d.offer = "decide", seat
            h.to_move = h.declarer
            return False
        return _next(state, d) and _finish(state)
    if w == "accept":
        state.set_partner(d.offer)
        return _finish(state)
    d.offer = -1
    return _next(state, d) and _finish(state)


def _finish(state: Table) -> bool:
    state.hand.to_move = state.hand.declarer
    return True


_CARD_SCHEMA = {
    "description": "Partners by a card instead of an invitation: the holder of a card is the declarer's partner "
                   "for the hand, and the others do not know who he is until the card is played or he "
                   "announces his side (trick play's announcements). The declarer calls the card "
                   "(`call AS`) from `call`, or the rules name it (`fixed`); in a game without an "
                   "auction the holders of the `fixed` card form the party against the others (the two "
                   "Q♣ of a pack with copies); a hand of an auction game that all passed has no party "
                   "unless `without_declarer: party` says so. Formulas read `in_party`, `party_size`, `party_tricks` and "
                   "`party_points`; a single partner is also `is_partner`, scored with `scoring.declarer`.",
    "type": "object", "additionalProperties": False,
    "properties": {
        "call": {"description": "What the declarer may call, tier by tier: each a rank (`A`: an ace of any suit) "
                                "or cards (`KS KH`); he calls from the next tier only when he holds every card "
                                "of the one before that a call may name (`[K, Q]`: a K, or a Q once he holds the four Ks; "
                                "with `trumps: false` a trump of the tier is left out: `[A, \"10\"]` with "
                                "diamonds trumps calls a ten once he holds the three plain aces).",
                 "type": "array", "minItems": 1, "items": {"type": ["string", "integer"]}},
        "fixed": {"description": "The card the rules name (`JD`): its holder is the partner, with no call; "
                                 "several cards (`QC QS`), or copies of a card in a pack that has them: every "
                                 "holder of one.",
                  "type": "string"},
        "without_declarer": {"description": "In a hand without a declarer (a game without an auction, or an "
                                            "auction that all passed), whether the holders of the `fixed` card "
                                            "form a party against the others: `party`, or `none` (everyone "
                                            "plays for himself). Default: `party` in a game without an "
                                            "auction, `none` in a game with one (a leaster has no party; "
                                            "a Doppelkopf-like normal game says `party`).",
                             "enum": ["party", "none"]},
        "trumps": {"description": "A trump may be called (default true; false: only a card of a plain suit).",
                   "type": "boolean"},
        "own": {"description": "When the declarer holds the card himself: `alone` (default; he plays alone, which "
                               "nobody knows until the card is played; he may call a card he holds), `refused` "
                               "(he may not call a card he holds), `call` (with `fixed` and `call`: holding the "
                               "named card, he calls one he does not hold instead).",
                "enum": list(pc.OWN)},
        "hold_suit": {"description": "The declarer may call only a card of a suit he holds (another card of its "
                                     "suit in the hand's trumps: a trump ranked in another suit does not count).",
                      "type": "boolean"},
        "must_play": {"description": "The card must be played the first time its suit is led: its holder leads "
                                     "it, or plays it to that lead.",
                      "type": "boolean"},
        "keep": {"description": "The card may not be discarded: while its suit has not been led, its holder "
                                "plays it only to lead that suit (in the last trick he may).",
                 "type": "boolean"}}}


class CallPartnerKind(PhaseKind[CallPartnerSpec]):
    """The ``call_partner`` kind (see the module docstring)."""

    name = "call_partner"
    schema = {"description": "The declarer of a contract that allows it may invite a partner for this hand "
                             "(the first to accept), or players may offer themselves; or (`card`) the holder "
                             "of a card is his partner, secretly.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True,
                             "offers": {"description": "After the declarer says alone, each other player in "
                                                       "turn may offer himself; the declarer accepts or "
                                                       "refuses (default true).", "type": "boolean"},
                             "card": _CARD_SCHEMA}}
    label = "partner"
    example = "partner: {kind: call_partner, offers: true}"
    gives_partner = True
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def prompt_label(self, state: Table) -> str:
        """What is asked now: the declarer ``invite or alone?``, the others ``accept?`` (after an
        invitation) or ``offer?``, the declarer on an offer ``accept or refuse?``."""
        d = self.data_of(state.hand)
        stage = getattr(d, "stage", "")
        words = {"ask": "invite or alone?", "answer": "accept?" if getattr(d, "invited", False) else "offer?",
                 "decide": "accept or refuse?"}
        return words.get(stage, self.label)

    def compile(self, c, name, p, path):
        """The spec; by invitation or a called card it needs an auction before it."""
        card = None
        if "card" in p:
            # (a block with a problem still gives the party's variables: no second error for them)
            card = pc.compile_card(c, p["card"], path + ("card",)) or CardCall()
            if "offers" in p:
                c.err(path + ("offers",), "offers belongs to an invitation; a partner by a card is found by "
                      "the card (expected offers or card, not both)")
            if (c.d.get("scoring") or {}).get("by") == "side":
                c.err(path + ("card",), "partners by a card make the sides of each hand, but scoring by side "
                      "scores the fixed sides of the sides: block (expected scoring.by: seat)")
        by_trick = any(isinstance(x, dict) and isinstance(e, dict) and e.get("partner_trick")
                       for x in (c.d.get("phases") or {}).values() for e in (x.get("contracts") or ())
                       if isinstance(x, dict)) if isinstance(c.d.get("phases"), dict) else False
        return CallPartnerSpec(self.name, name, bool(p.get("offers", True)), card, by_trick)

    def finish(self, c, spec):
        """By a card: the party's size, 1 to the players less one (none when no declarer may
        hold the card and the deal may leave it aside)."""
        if spec.card is None:
            return spec
        auction = any(REGISTRY[k].role == "auction" for k in c.kinds)
        rule = spec.card
        lone = bool(rule.fixed) and (rule.without_declarer == "party" or (not rule.without_declarer and not auction))
        alone = not rule.tiers and not auction
        least = 0 if (alone or lone) and c.any_zone() else 1
        most = max(c.player_count - 1, 1) if not (alone or lone) else c.player_count
        return dataclasses.replace(spec, card=dataclasses.replace(rule, size=(least, most), lone=lone))

    def acts_for_declarer(self, p) -> bool:
        """It needs a declarer, but for a card the rules name (its holders then form the party
        in a game without an auction)."""
        card = p.get("card")
        return card is None or bool(card.get("call"))

    def parse(self, text: str, state: Table):
        """``invite``, ``alone``, ``accept``, ``offer``, ``refuse``; ``call AS``."""
        return ACT.get(text.strip().lower()) or pc.parse_call(text, state)

    def help_line(self, spec, variant) -> str:
        """The words."""
        if spec.card is not None:
            return "partner: call CARD (e.g. call AS): the declarer calls the card whose holder partners him"
        return "partner: invite | alone (declarer), accept | offer | pass (the others), accept | refuse (an offer)"

    def observe(self, state: Table, seat: int) -> dict:
        """Public: the stage, whether invited, who offers; by a card, the card and the seats
        this seat knows in the party (``party``) and out of it (``others``)."""
        d = self.data(state)
        out = {"stage": d.stage, "invited": d.invited, "offer": d.offer}
        if d.by_trick:   # public: who won the tricks
            partner, k = trick_partner(state.hand)
            out.update(by_trick=d.by_trick, found=k, partner=partner)
        if d.cards:
            inside, outside, complete = pc.known(state, d, seat)
            out.update(card=" ".join(state.variant.deck.name(c) for c in _distinct(state.variant.deck, d.cards)),
                       party=[s for s in bits(inside)], others=[s for s in bits(outside)], complete=complete)
        return {"partner_call": out}

    def known_rows(self, obs, names: list) -> list:
        """By a card: the party as the seat knows it (``P1 and You; the others P0 and P3``, or
        ``P1; the holder of the A♣ not known yet``)."""
        d = obs.phase_data.get("partner_call")
        if d and d.get("by_trick"):
            declarer = names[obs.declarer] if getattr(obs, "declarer", -1) >= 0 else "the declarer"
            if not d["found"]:
                return [("party", f"{declarer}'s partner: the first other player to win one of the first "
                                  f"{d['by_trick']} tricks")]
            if d["partner"] < 0:
                return [("party", f"{declarer} alone (he won the first {d['by_trick']} tricks)")]
            return [("party", f"{declarer} and {names[d['partner']]} (trick {d['found']})")]
        if not d or "card" not in d or d["stage"] != "done":
            return []
        deck = obs.variant.deck
        cards = " or ".join(f"the {deck.pretty(deck.parse(w))}" for w in d["card"].split())
        inside = " and ".join(names[s] for s in d["party"])
        outside = " and ".join(names[s] for s in d["others"])
        if d["complete"]:
            return [("party", f"{inside}" + (f" against {outside}" if outside else " alone"))]
        known = [w for w in (f"{inside} in it" if inside else "", f"not {outside}" if outside else "") if w]
        return [("party", "; ".join(known + [f"who holds {cards} is not known yet"]))]

    # ---------------------------------------------------------------- partners by a card
    def party(self, hand):
        """By a card: the declarer and the card's holders (or the holders alone)."""
        d = self.data_of(hand)
        if d is not None and d.by_trick:
            p, _k = trick_partner(hand)
            return 1 << hand.declarer | (1 << p if p >= 0 else 0)
        if d is None or not d.cards:
            return None
        return pc.party(hand, d)

    def hides_partner(self, state: Table, seat: int) -> bool:
        """By a card: until ``seat`` knows the whole party."""
        d = self.data_of(state.hand)
        return d is not None and pc.hides_partner(state, d, seat)

    def inferences(self, state: Table) -> list:
        """By a card: see :func:`partner_card.inferences`."""
        d = self.data_of(state.hand)
        rule = self._rule(state)
        return pc.inferences(state, d, rule) if d is not None and rule is not None else []

    def resample(self, world: Table) -> None:
        """By a card: the partner is whoever holds the card in the world."""
        d = self.data_of(world.hand)
        if d is not None and d.cards:
            pc.resample(world, d)

    def binds_cards(self, spec) -> bool:
        """By a card with ``must_play`` or ``keep``."""
        return spec.card is not None and (spec.card.must_play or spec.card.keep)

    def card_rules(self, spec, hand) -> list:
        """By a card: the party card's rules of play."""
        d = self.data_of(hand)
        return pc.card_rules(hand, d, spec.card) if d is not None and spec.card is not None else []

    def partner_for(self, spec, contract) -> bool:
        """A declarer's partner: by invitation when the contract allows one; by a card for any
        contract that does not forbid one."""
        if getattr(contract, "partner_trick", 0):   # found by a trick: the pad asks who
            return True
        if spec.card is None:
            return bool(getattr(contract, "partner", False))
        return contract is not None and bool(getattr(contract, "partner", True))

    def _rule(self, state: Table) -> CardCall | None:
        """The ``card:`` rules of the hand's partner phase (``None``: by invitation)."""
        return next((p.card for p in state.variant.phases if isinstance(p, CallPartnerSpec)), None)

    def variables(self, spec) -> dict:
        """By a card: ``in_party`` (this player is in the declaring party), ``party_size``,
        ``party_tricks`` and ``party_points`` (the party's tricks and card points)."""
        if spec.card is None and not spec.by_trick:
            return {}
        size = spec.card.size if spec.card is not None else (1, 2)
        if spec.by_trick:
            size = (min(size[0], 1), max(size[1], 2))
        return {"in_party": (0, 1), "party_size": size, "party_tricks": (0, 108),
                "party_points": (-2 * 10 ** 5, 2 * 10 ** 5)}

    def values(self, variant, hand, spec) -> list:
        """Per seat, from the cards: the party, its size, tricks and card points."""
        if spec.card is None and not spec.by_trick:
            return []
        d = self.data_of(hand)
        if d is not None and d.by_trick:
            members = self.party(hand) or 0
        else:
            members = pc.party(hand, d) if d is not None and d.cards else (
                1 << hand.declarer if hand.declarer >= 0 else 0)
        return party_values(variant, hand, members)

    def from_points(self, spec) -> frozenset:
        """By a card: ``party_points``."""
        return frozenset({"party_points"}) if spec.card is not None else frozenset()

    # ---------------------------------------------------------------- scorepad
    def _holders_asked(self, spec, facts: dict) -> bool:
        return spec.card is not None and spec.card.lone and facts.get("declarer", -1) < 0

    def pad_question(self, spec, variant, facts, names):
        """By a card without a declarer: who held the named card (its copies)."""
        if not self._holders_asked(spec, facts) or "holders" in facts:
            return None
        card = " or ".join(variant.deck.pretty(c).partition(":")[0] for c in _distinct(variant.deck, spec.card.fixed))
        most = spec.card.fixed.bit_count()
        return ("holders", f"holders of {card}",
                f"the player{'s' if most > 1 else ''} dealt {card} (1 to {most} of {', '.join(names)})")

    def pad_answer(self, spec, variant, fact, text, facts, names) -> None:
        """The holders: seat names or numbers, each once.

        :raises ValueError: an unknown seat, a seat named twice, more holders than copies."""
        if fact != "holders":
            raise ValueError(f"{fact} is not a fact of this phase")
        low = [x.lower() for x in names]
        seats = []
        for w in text.replace(",", " ").split():
            seat = low.index(w.lower()) if w.lower() in low else int(w) if w.isdigit() and int(w) < len(names) else -1
            if seat < 0:
                raise ValueError(f"there is no seat {w!r} (expected {', '.join(names)})")
            if seat in seats:
                raise ValueError(f"{names[seat]} is named twice (expected each holder once)")
            seats.append(seat)
        most = spec.card.fixed.bit_count()
        if not 1 <= len(seats) <= most:
            raise ValueError(f"{len(seats)} holders, but the pack has {most} such card{'s' if most > 1 else ''} "
                             f"(expected 1 to {most} of {', '.join(names)})")
        facts[fact] = sorted(seats)

    def pad_values(self, spec, variant, facts, contract, won) -> list:
        """By a card: the party (the declarer and his partner, or the holders typed) and its
        tricks and card points from the facts."""
        if spec.card is None and not spec.by_trick:
            return []
        if spec.card is not None and self._holders_asked(spec, facts):
            members = sum(1 << s for s in facts.get("holders", ()))
        else:
            declarer, partner = facts.get("declarer", -1), facts.get("partner", -1)
            members = (1 << declarer if declarer >= 0 else 0) | (1 << partner if partner >= 0 else 0)
        points = facts.get("points") or [0] * variant.players
        common = {"party_size": members.bit_count(), "party_tricks": sum(won[s] for s in bits(members)),
                  "party_points": sum(points[s] for s in bits(members))}
        return [dict(common, in_party=bool(members >> s & 1)) for s in range(variant.players)]

    def hand_facts(self, spec, variant, hand) -> dict:
        """A partner found by a trick: ``partner``, as the table writes it down (-1: alone)."""
        d = self.data_of(hand)
        if d is None or not d.by_trick:
            return {}
        return {"partner": trick_partner(hand)[0]}

    def pad_facts(self, spec, variant, hand) -> dict:
        """The holders of the named card as seat numbers, for a hand without a declarer."""
        d = self.data_of(hand)
        if spec.card is None or d is None or hand.declarer >= 0 or not spec.card.lone:
            return {}
        return {"holders": " ".join(str(s) for s in bits(pc.holders(hand, d.cards)))}

    def show(self, data, variant, names=None) -> list:
        """The card whose holder partners the declarer (public)."""
        if not data.cards or data.stage != "done":
            return []
        named = " or ".join(f"the {variant.deck.pretty(c)}" for c in _distinct(variant.deck, data.cards))
        if data.lone:
            return [("party by", f"{named}: their holders play together")]
        if data.called >= 0:
            return [("called", f"{named}: its holder is the declarer's partner")]
        return [("partner", f"the holder of {named}")]

    def said(self, spec, hand, variant, seat, text, names):
        """``calls the A♠``."""
        if spec.card is None or not text.startswith("call "):
            return None
        card = variant.deck.pretty(variant.deck.parse(text.split()[1]))
        return Said(seat, f"calls the {card}", f"call the {card}")

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass`` and the partner words; by a card, ``call CARD`` for every card of the pack."""
        calls = tuple(f"call {variant.deck.name(c)}" for c in range(variant.deck.size)) if spec.card is not None else ()
        return ("pass",) + WORDS + calls

    def describe(self, spec) -> str:
        """One sentence (two by a card)."""
        if spec.card is not None:
            return describe_card(spec.card)
        offers = "; after he says alone, each may offer himself, and he accepts or refuses" if spec.offers else ""
        return (f"The declarer of a contract that allows a partner may invite one: the first player "
                f"clockwise to accept is his partner for this hand{offers}.")

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe`, with the cards named by the variant's deck, and by a card, said for
        the contracts of the variant's auctions that get a partner (all, some or none of them:
        Doppelkopf's solos never do)."""
        if spec.card is None:
            return self.describe(spec)
        from rulekit.engine.phases.registry import REGISTRY
        # (a partner found by a trick is no partner by the card)
        allowed = [self.partner_for(spec, b) and not getattr(b, "partner_trick", 0)
                   for p in variant.phases for b in REGISTRY[p.kind].contracts(p)]
        partner = "none" if not any(allowed) else "all" if all(allowed) else "some"
        return describe_card(spec.card, variant.deck, partner)


def party_values(variant, hand, members: int) -> list:
    """Per seat (a card partnership scores by seat): ``in_party``, ``party_size``,
    ``party_tricks``, ``party_points`` for the party ``members`` (a mask of seats) in the
    finished ``hand``."""
    pts = variant.points_table(hand.ctx)
    tricks = sum(hand.won[s] for s in bits(members))
    cards = 0
    for s in bits(members):
        cards |= hand.won_cards[s]
    points = sum(pts[c] for c in bits(cards)) if variant.has_card_points else 0
    common = {"party_size": members.bit_count(), "party_tricks": tricks, "party_points": points}
    return [dict(common, in_party=bool(members >> s & 1)) for s in range(variant.players)]


def describe_card(rule: CardCall, deck=None, partner: str = "all") -> str:
    """The rules of a partnership by a card in words; ``partner``: whether ``all``, ``some`` or
    ``none`` of the contracts give the declarer a partner (``none``: only a hand without a
    declarer has a party by the card)."""
    def cards(m) -> str:
        return " ".join(deck.pretty(c) for c in bits(m)) if deck is not None else "the cards listed"
    tiers = [f"a card of rank {t}" if isinstance(t, str) else cards(t) for t in rule.tiers]
    called = ", or once he holds them all ".join(tiers)
    fixed = (" and ".join(f"the {deck.pretty(c).partition(':')[0]}" for c in _distinct(deck, rule.fixed))
             if deck is not None
             else "the cards named by `fixed`") if rule.fixed else ""
    if rule.fixed and not rule.tiers:
        several = deck is not None and any(pc.copies(deck, c) != 1 << c for c in bits(rule.fixed)) \
            or rule.fixed.bit_count() > 1
        lone = (f"the players who hold {fixed} play together against the others"
                + (" (one who holds them all plays alone)" if several else "") if rule.lone
                else "there is no party: each plays for himself")
        his = {"all": f"The player who holds {fixed} is the declarer's partner for the hand",
               "some": f"When the declarer's contract allows a partner, the player who holds {fixed} is his "
                       f"partner for the hand"}.get(partner)
        head = (f"{his}; in a hand without a declarer (all passed), {lone}." if his else
                f"In a hand without a declarer (all passed), {lone}.")
    elif rule.fixed:
        head = (f"The player who holds {fixed} is the declarer's partner for the hand; a declarer who holds it "
                f"calls {called} instead, and its holder is his partner.")
    else:
        head = f"The declarer calls {called}; the player who holds it is his partner for the hand."
    rules = []
    if not rule.trumps:
        rules.append("a trump may not be called")
    if rule.own != "alone" and rule.tiers:
        rules.append("he may not call a card he holds")
    elif rule.own == "alone" and partner != "none":
        rules.append("a declarer who holds the card himself plays alone")
    if rule.hold_suit:
        rules.append("he must hold another card of its suit")
    if rule.must_play:
        rules.append("the card must be played the first time its suit is led")
    if rule.keep:
        rules.append("it may not be discarded before its suit is led")
    tail = (" " + "; ".join(rules)[:1].upper() + "; ".join(rules)[1:] + ".") if rules else ""
    secret = (" Nobody else knows who plays with whom until the card is played or its holder announces his side."
              if partner == "none" else
              " Nobody else knows who the partner is until the card is played or he announces his side.")
    return head + secret + tail


def _distinct(deck, mask: int) -> list:
    """The cards of ``mask``, one per copy group (the lowest copy)."""
    out, seen = [], 0
    for c in bits(mask):
        if not seen >> c & 1:
            out.append(c)
            seen |= pc.copies(deck, c)
    return out


KIND = CallPartnerKind()
