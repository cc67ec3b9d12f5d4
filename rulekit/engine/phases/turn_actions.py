"""What a player may do at his turn in trick play besides playing a card.

The ``tricks`` kind's actions of its ``stock:``, ``melds:`` and ``claim:`` blocks, and their
data for one hand (:class:`TricksData`): ``exchange`` (the low trump for the card turned under
the stock), ``close`` (the stock), ``meld CARDS`` (a combination of the ``melds`` list) and
``claim``.  The rules of each are in :mod:`~rulekit.engine.phases.stock`,
:mod:`~rulekit.engine.phases.melds` and :mod:`~rulekit.engine.phases.claim`; this module
lists them, checks, applies and names them, and gives the formula variables they make.
Everything in :class:`TricksData` is public (what every player at the table sees or hears).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases import claim as _claim
from rulekit.engine.phases import melds as _melds
from rulekit.engine.phases import stock as _stock
from rulekit.engine.phases.base import Said
from rulekit.errors import CardError, IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.phases.table import Table

EXCHANGE = Action("exchange", "exchange")
CLOSE = Action("close", "close")
CLAIM = Action("claim", "claim")
WORDS = ("exchange", "close", "claim", "meld")
"""The action kinds of this module (``meld`` texts list the cards)."""


@dataclass
class TricksData(KindData):
    """The trick phase's data for its stock, melds and claim in one hand (all public).

    :ivar shown: per seat, cards every seat knows are in his hand (a face-up card he drew, the
        turned card he exchanged, cards he declared), until he plays them.
    :ivar turned: the card lying face up under the stock (-1: none); ``top`` its face-up top card.
    :ivar closed_by: the seat who closed the stock (-1); ``at_close`` per seat ``(tricks,
        card points, melds counted)`` at that moment.
    :ivar exchanged_by: the seat who exchanged the turned card (-1); ``swapped`` ``(trump given,
        card taken)``.
    :ivar left: the cards left in the stock; ``rounds`` the rounds of draws it held.
    :ivar melds: ``(seat, entry index, cards, points)`` of each meld declared, in order.
    :ivar turn: ``(tricks done, cards in the trick)`` of the turn of the last meld; ``count``
        melds declared at that turn; ``pending`` the cards one of which he must lead (``lead_one``).
    :ivar claimer: the seat who claimed (-1); ``claim_made`` whether the claim was made.
    :ivar played_out: every card was played (no claim stopped the play).
    """

    shown: list
    turned: int = -1
    top: int = -1
    closed_by: int = -1
    at_close: list = field(default_factory=list)
    exchanged_by: int = -1
    swapped: tuple = ()
    left: int = 0
    rounds: int = 0
    melds: list = field(default_factory=list)
    turn: tuple = (-1, -1)
    count: int = 0
    pending: int = 0
    claimer: int = -1
    claim_made: bool = False
    played_out: bool = False


def start(state: Table, spec) -> None:
    """Create the hand's :class:`TricksData` (the stock's turned and face-up cards)."""
    h = state.hand
    data = TricksData([0] * state.variant.players)
    h.phase_state[spec.kind] = data
    if spec.stock is not None:
        _stock.start(state, spec.stock, data)


def data_of(state: Table, spec) -> TricksData:
    """The hand's :class:`TricksData` (the trick phase has started)."""
    return state.hand.phase_state[spec.kind]  # type: ignore[return-value]


def pending(state: Table, data: TricksData) -> int:
    """The cards the leader must lead one of now (a meld just declared with ``lead_one``), or 0."""
    h = state.hand
    return data.pending if not h.trick and data.turn == (len(h.tricks), 0) else 0


def lead_mask(state: Table, spec, m: int) -> int:
    """The lead cards of ``m`` allowed now: one of the pending meld's cards when there is one."""
    p = pending(state, data_of(state, spec))
    return m & p or m if p else m


def meld_action(deck, mask: int) -> Action:
    """``meld KH QH``: the cards in deck order."""
    return Action("meld", "meld " + " ".join(deck.names_of(mask)), cards=mask)


def actions(state: Table, spec) -> list:
    """The actions besides playing a card open to the seat to move now: ``exchange``, ``close``,
    the melds he may declare, ``claim``."""
    h = state.hand
    seat = h.to_move
    d = data_of(state, spec)
    out = []
    lead = not h.trick
    waiting = pending(state, d)
    st = spec.stock
    if lead and st is not None and not waiting:
        if _stock.may_exchange(state, st, d, seat):
            out.append(EXCHANGE)
        if _stock.may_close(state, st, d, seat):
            out.append(CLOSE)
    if spec.melds is not None and _melds.moment(state, spec, d, seat):
        deck = state.variant.deck
        out += [meld_action(deck, m) for _i, m, _p in _melds.available(state, spec, d, seat)]
    if spec.claim is not None and (lead or spec.claim.when == "turn"):
        out.append(CLAIM)
    return out


def parse(text: str, state) -> Action | None:
    """``exchange``, ``close``, ``claim``, ``meld KH QH`` (cards in any order), or ``None``."""
    words = text.split()
    if not words:
        return None
    head = words[0].lower()
    if len(words) == 1 and head in ("exchange", "close", "claim"):
        return {"exchange": EXCHANGE, "close": CLOSE, "claim": CLAIM}[head]
    if head == "meld" and len(words) > 1:
        try:
            mask = state.variant.deck.parse_mask(words[1:])   # ``AS AS``: both copies
        except CardError:
            return None
        return _listed_meld(state, meld_action(state.variant.deck, mask))
    return None


def _listed_meld(state, action: Action) -> Action:
    """In a pack with copies, the meld open now made of the same cards as ``action`` but other
    copies of them (copies are equal: ``meld KS:2 QS:2`` is the listed ``meld KS:1 QS:1``), else
    ``action``."""
    spec = state.current_phase
    if not state.variant.deck.has_copies or getattr(spec, "melds", None) is None or state.hand.to_move < 0:
        return action
    m, j = _melds.entry_of(spec.melds, action.cards)
    if m is None or action.cards & ~state.hand.hands[state.hand.to_move]:
        return action
    listed = [a for a in actions(state, spec) if a.kind == "meld"]
    if action in listed:
        return action
    return next((a for a in listed if _melds.entry_of(spec.melds, a.cards) == (m, j)), action)


def check(state: Table, spec, action: Action) -> None:
    """:raises IllegalActionError: unless ``action`` is open now, with the rule that forbids it."""
    if action in actions(state, spec):
        return
    h = state.hand
    seat = h.to_move
    d = data_of(state, spec)
    deck = state.variant.deck
    st = spec.stock
    if action.kind in ("exchange", "close"):
        what = "exchange the turned card" if action.kind == "exchange" else "close the stock"
        rule = (st.exchange if action.kind == "exchange" else st.close) if st is not None else None
        if rule is None:
            raise IllegalActionError(f"you cannot {what} in this game")
        if h.trick:
            raise IllegalActionError(f"you may {what} only on lead, before leading")
        if pending(state, d):
            raise IllegalActionError(f"you have declared a meld: lead one of its cards ({_names(deck, d.pending)}) "
                                     "or claim")
        if not _stock.is_open(state, d):
            raise IllegalActionError(f"you cannot {what}: the stock is {'closed' if d.closed_by >= 0 else 'exhausted'}")
        if rule.needs_trick and not h.won[seat]:
            raise IllegalActionError(f"you may {what} only after winning a trick")
        if not rule.last_round and h.zones.get(_stock.ZONE, 0).bit_count() <= state.variant.players:
            raise IllegalActionError(f"you cannot {what} in the stock's last round")
        low = _stock.low_trump(state, st)
        if d.turned < 0:
            raise IllegalActionError("there is no turned card under the stock to exchange")
        raise IllegalActionError(f"you do not hold the {deck.pretty(low)} to exchange" if low >= 0 else
                                 "there is no trump of that rank to exchange")
    if action.kind == "claim":
        raise IllegalActionError("you cannot claim in this game" if spec.claim is None
                                 else "you may claim only on lead, before leading")
    if action.kind == "meld":
        ms = spec.melds
        if ms is None:
            raise IllegalActionError("there are no melds in this game")
        if action.cards & ~h.hands[seat]:
            raise IllegalActionError(f"you do not hold {_names(deck, action.cards & ~h.hands[seat])}")
        if _melds.entry_of(ms, action.cards)[0] is None:
            raise IllegalActionError(f"{_names(deck, action.cards)} is no meld of this game "
                                     f"({'; '.join(mk.name.replace('_', ' ') for mk in ms.list)})")
        if not _melds.moment(state, spec, d, seat):
            if pending(state, d):
                raise IllegalActionError(f"you have declared a meld: lead one of its cards "
                                         f"({_names(deck, d.pending)}) or claim")
            raise IllegalActionError(f"you cannot declare now: melds are declared {_when(spec)}")
        raise IllegalActionError(f"you cannot declare {_names(deck, action.cards)} now (declared before, "
                                 f"its cards already serve in a meld of its class, or its suit is not trumps)")
    raise IllegalActionError(f"{action.text} is not allowed now; {state.expected_forms()}")


def _when(spec) -> str:
    ms = spec.melds
    when = {"lead": "on lead, before leading", "after_trick": "on lead after winning a trick",
            "first_trick": "at your turn in the first trick"}[ms.when]
    return when + (" while the stock is open" if ms.with_stock else "")


def _names(deck, mask: int) -> str:
    return " ".join(deck.pretty(c) for c in bits(mask))


def apply(state: Table, spec, action: Action) -> bool:
    """Apply a checked action; True when it ends the play (a claim)."""
    h = state.hand
    seat = h.to_move
    d = data_of(state, spec)
    kind = action.kind
    if kind == "exchange":
        _stock.exchange(state, spec.stock, d, seat)
    elif kind == "close":
        _stock.close(state, d, seat)
    elif kind == "meld":
        _melds.declare(state, spec, d, seat, action.cards)
    else:
        _claim.claim(state, spec.claim, d, seat)
        return True
    return False


def after_trick(state: Table, spec, winner: int) -> None:
    """After a trick: the draw from the stock."""
    if spec.stock is not None:
        _stock.draw(state, spec.stock, data_of(state, spec), winner)


def at_end(state: Table, spec, winner: int) -> None:
    """The last trick is played: the end-of-play claims."""
    d = data_of(state, spec)
    if spec.claim is not None:
        _claim.at_end(state, spec.claim, d, winner)
    else:
        d.played_out = True


def known(state: Table, spec) -> list:
    """Cards whose place every seat knows: the stock's face-up cards, and each seat's shown cards
    still in his hand."""
    d: TricksData | None = state.hand.phase_state.get(spec.kind)  # type: ignore[assignment]
    if d is None:
        return []
    out = _stock.known(state, d)
    for s, m in enumerate(d.shown):
        m &= state.hand.hands[s]
        if m:
            out.append((s, m))
    return out


def variables(spec, hand_size: int, points: int, meld_max: int) -> dict:
    """The formula variables of the blocks ``spec`` has, with their bounds."""
    out: dict = {}
    if spec.stock is not None:
        out.update(closed=(0, 1), exchanged=(0, 1), close_tricks=(0, hand_size), close_points=(0, points),
                   played_out=(0, 1))
        if spec.melds is not None:
            out["close_melds"] = (0, meld_max)
    if spec.melds is not None:
        out["melds"] = (min(0, -meld_max), meld_max)
        for m in spec.melds.list:
            out["melds_" + m.name] = (0, len(m.combos) * m.times)
    if spec.claim is not None:
        out.update(claimed=(0, 1), claim_made=(0, 1), played_out=(0, 1))
    return out


def values(variant, hand, spec) -> list:
    """Per score column, the values of :func:`variables` for ``hand`` (so far, or finished)."""
    d = hand.phase_state.get(spec.kind)
    n = variant.players
    per_seat = []
    for s in range(n):
        x: dict = {}
        if spec.stock is not None:
            at = d.at_close[s] if d is not None and d.at_close else (0, 0, 0)
            x.update(closed=int(d is not None and d.closed_by == s), exchanged=int(d is not None and d.exchanged_by == s),
                     close_tricks=at[0], close_points=at[1], played_out=int(d is not None and d.played_out))
            if spec.melds is not None:
                x["close_melds"] = at[2]
        if spec.melds is not None:
            x["melds"] = _melds.counted(spec, hand, d, s)
            for i, m in enumerate(spec.melds.list):
                x["melds_" + m.name] = sum(1 for t in (d.melds if d is not None else ()) if t[0] == s and t[1] == i)
        if spec.claim is not None:
            x.update(claimed=int(d is not None and d.claimer == s),
                     claim_made=int(d is not None and d.claimer == s and d.claim_made),
                     played_out=int(d is not None and d.played_out))
        per_seat.append(x)
    if not variant.scoring.by_side:
        return per_seat
    out = []
    for side in variant.sides:   # a side: its players' values added (a flag: any of them)
        x = {}
        for k in per_seat[0]:
            total = sum(per_seat[s][k] for s in side)
            x[k] = min(total, 1) if k in ("closed", "exchanged", "claimed", "claim_made", "played_out") else total
        out.append(x)
    return out


def said(spec, hand, variant, seat: int, text: str) -> Said | None:
    """The words of ``seat``'s action ``text`` in ``hand`` for the story of a hand."""
    d = hand.phase_state.get(spec.kind)
    if d is None:
        return None
    deck = variant.deck
    word = text.split()[0]
    if word == "exchange" and d.swapped:
        give, take = (deck.pretty(c) for c in d.swapped)
        return Said(seat, f"exchanges {give} for the turned {take}", f"exchange {give} for the turned {take}")
    if word == "close":
        return Said(seat, "closes the stock", "close the stock")
    if word == "meld":
        mask = sum(1 << deck.parse(w) for w in text.split()[1:])
        pts = next((p for s, _i, m, p in d.melds if s == seat and m == mask), 0)
        what = _melds.words(spec, variant, mask, pts)
        return Said(seat, f"declares {what}", f"declare {what}")
    if word == "claim":
        how = "made" if d.claim_made else "failed"
        return Said(seat, f"claims: {how}", f"claim: {how}")
    return None


def help_words(spec) -> str:
    """The forms of the actions besides card play, for the help line."""
    forms = []
    st = spec.stock
    if st is not None and st.exchange is not None:
        forms.append("exchange (the turned card for your trump " + st.exchange_rank + ")")
    if st is not None and st.close is not None:
        forms.append("close (the stock)")
    if spec.melds is not None:
        forms.append("meld CARDS (e.g. meld KH QH)")
    if spec.claim is not None:
        forms.append("claim")
    return "on your turn: " + ", ".join(forms)
