"""``call_partner`` phase: the declarer may take a partner for this hand only
(rules/boston.md [B5]).

It applies when the contract allows a partner (a ``list_auction`` contract with
``partner: true``).  The declarer says ``invite`` or ``alone``.  After ``invite`` each
other player in turn, clockwise from the declarer, says ``accept`` or ``pass``; the first
to accept is the partner.  After ``alone`` (with ``offers: true``) each in turn may
``offer`` ("I play with you") or ``pass``; the declarer answers an offer with ``accept``
or ``refuse``, and after a refusal the next player answers.  Nobody: he plays alone.
The partner is scored with the declarer's formula (:meth:`State.set_partner`).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError

WORDS = ("invite", "alone", "accept", "offer", "refuse")
ACT = {w: Action("partner", w) for w in WORDS}


@dataclass(frozen=True)
class CallPartnerSpec(PhaseSpec):
    """``call_partner`` phase: ``offers``: players may offer themselves after ``alone``."""

    offers: bool


@dataclass
class CallPartnerData(KindData):
    """``call_partner``'s data for one hand: ``stage`` (``ask``, ``answer``, ``decide``);
    ``invited``: the declarer invited (else he offers the others to offer); ``answered``: seats
    that answered; ``offer``: the seat whose offer the declarer decides on (-1: none)."""

    stage: str = "ask"
    invited: bool = False
    answered: int = 0
    offer: int = -1


def start(state: Table) -> bool:
    """Applies when the contract allows a partner; the declarer speaks first."""
    h = state.hand
    if h.declarer < 0 or not getattr(h.contract, "partner", False):
        return False
    h.phase_state[KIND.name] = CallPartnerData()
    h.to_move = h.declarer
    return True


def legal(state: Table) -> list:
    """The declarer: ``alone``, ``invite``; asked: ``pass``, ``accept``; offering: ``pass``,
    ``offer``; the declarer on an offer: ``refuse``, ``accept``."""
    d = KIND.data(state)
    stage = d.stage
    if stage == "ask":
        return [ACT["alone"], ACT["invite"]]
    if stage == "answer":
        return [PASS, ACT["accept"] if d.invited else ACT["offer"]]
    return [ACT["refuse"], ACT["accept"]]


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: a word that does not answer the question asked now."""
    if action not in legal(state):
        d = KIND.data(state)
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
    h.calls.append((seat, action.text))
    w = action.text
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


class CallPartnerKind(PhaseKind[CallPartnerSpec]):
    """The ``call_partner`` kind (see the module docstring)."""

    name = "call_partner"
    schema = {"description": "The declarer of a contract that allows it may invite a partner for this hand "
                             "(the first to accept), or players may offer themselves.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True,
                             "offers": {"description": "After the declarer says alone, each other player in "
                                                       "turn may offer himself; the declarer accepts or "
                                                       "refuses (default true).", "type": "boolean"}}}
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
        """The spec; it needs an auction before it."""
        return CallPartnerSpec(self.name, name, bool(p.get("offers", True)))

    def acts_for_declarer(self, p) -> bool:
        """It needs a declarer."""
        return True

    def parse(self, text: str, state: Table):
        """``invite``, ``alone``, ``accept``, ``offer``, ``refuse``."""
        return ACT.get(text.strip().lower())

    def help_line(self, spec, variant) -> str:
        """The words."""
        return "partner: invite | alone (declarer), accept | offer | pass (the others), accept | refuse (an offer)"

    def observe(self, state: Table, seat: int) -> dict:
        """Public: the stage, whether invited, who offers."""
        d = self.data(state)
        return {"partner_call": {"stage": d.stage, "invited": d.invited, "offer": d.offer}}

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``pass`` and the partner words."""
        return ("pass",) + WORDS

    def describe(self, spec) -> str:
        """One sentence."""
        offers = "; after he says alone, each may offer himself, and he accepts or refuses" if spec.offers else ""
        return (f"The declarer of a contract that allows a partner may invite one: the first player "
                f"clockwise to accept partners him for this hand{offers}.")


KIND = CallPartnerKind()
