"""``pile`` phase: a running total (adder games such as Ninety-Nine; rules/king.md [K7]).

Players play one card at a time in turn, clockwise from the eldest hand, onto one
pile; there are no tricks and any card may be played.  Each card adds its value
(``values``: rank -> points) to the running total.  The player whose card brings the
total to a threshold (``at``) or beyond gets that threshold's ``score``; the phase ends
when the total reaches ``end_at`` (default: the highest threshold) or every card is
played.  Scoring formulas read each player's sum of threshold scores as ``pile_score``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, bare_card_play, next_holder, seat_name
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class PileSpec(PhaseSpec):
    """The compiled ``pile`` entry.

    :ivar values: card index -> points added to the total.
    :ivar thresholds: ``(at, score)`` pairs, lowest ``at`` first.
    :ivar end_at: the total that ends the phase.
    """

    values: tuple
    thresholds: tuple
    end_at: int


@dataclass
class PileData(KindData):
    """``pile``'s data for one hand: the running ``total``; the ``cards`` played, ``(seat,
    card)`` in order; per seat the ``score`` of the thresholds it reached."""

    score: list[int]
    total: int = 0
    cards: list[tuple[int, int]] = field(default_factory=list)


def crossed(spec: PileSpec, before: int, after: int) -> int:
    """The score of every threshold reached by going from total ``before`` to ``after``."""
    return sum(score for at, score in spec.thresholds if before < at <= after)


class PileKind(PhaseKind[PileSpec]):
    """The ``pile`` kind (see the module docstring)."""

    name = "pile"
    schema = {'description': 'Cards are played one at a time in turn onto one pile (no tricks, any card); '
                             'each adds its value to a running total, and the player who brings the total to '
                             'a threshold or beyond scores that threshold (scoring variable `pile_score`).',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind', 'values', 'thresholds'],
              'properties': {'kind': True,
                             'values': {'description': 'Points each rank adds to the total (ranks not listed '
                                                       'add 0).',
                                        'type': 'object',
                                        'additionalProperties': {'type': 'integer', 'minimum': -1000,
                                                                 'maximum': 1000}},
                             'thresholds': {'description': 'Totals that score for the player who reaches them, '
                                                           'lowest first.',
                                            'type': 'array', 'minItems': 1, 'maxItems': 50,
                                            'items': {'type': 'object', 'additionalProperties': False,
                                                      'required': ['at', 'score'],
                                                      'properties': {
                                                          'at': {'description': 'The total.', 'type': 'integer',
                                                                 'minimum': 1, 'maximum': 100000},
                                                          'score': {'description': 'Points to the player whose '
                                                                                   'card reaches it.',
                                                                    'type': 'integer', 'minimum': -1000,
                                                                    'maximum': 1000}}}},
                             'end_at': {'description': 'The total that ends the phase (default: the highest '
                                                       'threshold); it also ends when every card is played.',
                                        'type': 'integer', 'minimum': 1, 'maximum': 100000}}}
    label = "pile"
    position = "last"
    stands_for = "tricks"
    example = ('pile: {kind: pile, values: {A: 11, "10": 10, K: 4}, thresholds: [{at: 25, score: -1}, '
               '{at: 50, score: -3}]}')

    # ------------------------------------------------------------------ compile time
    def compile(self, c, name: str, p: dict, path: tuple):
        """Ranks must exist; thresholds must rise."""
        deck = c.deck
        vals = p["values"]
        for r in vals:
            if str(r) not in deck.ranks:
                c.err(path + ("values", r, "<key>"), f"unknown rank {r!r}{c.close(r, deck.ranks)} "
                      f"(expected one of {' '.join(deck.ranks)})")
        byrank = {str(r): x for r, x in vals.items()}
        values = tuple(0 if deck.is_joker(x) else byrank.get(deck.rank_of(x), 0) for x in range(deck.size))
        th = tuple((t["at"], t["score"]) for t in p["thresholds"])
        for i in range(1, len(th)):
            if th[i][0] <= th[i - 1][0]:
                c.err(path + ("thresholds", i, "at"), f"the thresholds must rise: {th[i][0]} after "
                      f"{th[i - 1][0]} (expected a higher total)")
        return PileSpec(self.name, name, values, th, p.get("end_at", th[-1][0]))

    def variables(self, spec) -> dict:
        """``pile_score``: a player's threshold scores (each threshold is reached at most once)."""
        neg = sum(s for _a, s in spec.thresholds if s < 0)
        pos = sum(s for _a, s in spec.thresholds if s > 0)
        return {"pile_score": (neg, pos)}

    def pad_result(self, spec, variant, name: str, facts: dict) -> tuple:
        """``pile_score``: the sums of threshold scores one player can get, in words."""
        sums = sorted(_sums(spec))
        th = ", ".join(f"{at}: {score:+d}" for at, score in spec.thresholds)
        return sums[0], sums[-1], (f"each the scores of the thresholds his cards reached ({th}), so one of "
                                   f"{', '.join(str(x) for x in sums)}")

    def pad_refuse(self, spec, variant, facts: dict, values: list) -> str:
        """Each threshold reached goes to the one player whose card reached it, so the pile scores
        share out the scores of the thresholds reached: with every card dealt, those up to the
        end (or up to the value of the whole pack, when it is less); else those up to any total."""
        got = [v.get("pile_score", 0) for v in values]
        if any(x < 0 for x in spec.values):   # a total that goes down may reach a threshold twice
            return ""
        scores = [score for _at, score in spec.thresholds]
        if facts.get("cards", 0) * variant.players >= variant.deck.size:   # every card in play
            total = sum(spec.values)
            must = sum(at <= min(total, spec.end_at) for at, _s in spec.thresholds)
            may = sum(at <= total for at, _s in spec.thresholds)   # past the end: by the last card
            counts = range(must, may + 1)
        else:
            counts = range(len(scores) + 1)
        if any(_shares(scores[:k], got) for k in counts):
            return ""
        want = " or ".join(f"{', '.join(f'{x:+d}' for x in scores[:k]) or 'none'}" for k in counts)
        return (f"pile score: {' '.join(str(x) for x in got)} do not share out the thresholds reached "
                f"({want}): each goes to the one player whose card reached it")

    def values(self, variant, hand, spec) -> list:
        """Per seat ``pile_score`` (0 when the phase did not run)."""
        d = self.data_of(hand)
        scores = d.score if d is not None else [0] * variant.players
        return [{"pile_score": x} for x in scores]

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """None: its plays are cards."""
        return ()

    def describe(self, spec) -> str:
        """One sentence."""
        th = ", ".join(f"{at}: {score:+d}" for at, score in spec.thresholds)
        return (f"Cards are played one at a time onto a pile whose running total scores the player who "
                f"reaches each threshold ({th}); the round ends at {spec.end_at} or more.")

    # ------------------------------------------------------------------ rules
    def start(self, state: Table) -> bool:
        """The eldest hand plays first."""
        h = state.hand
        h.phase_state[self.name] = PileData([0] * h.players)
        h.to_move = h.eldest
        if not any(h.hands):
            return False
        while not h.hands[h.to_move]:
            h.to_move = state.next_seat(h.to_move)
        return True

    def legal(self, state: Table) -> list:
        """``play CARD`` for each card held, in deck order."""
        return [state.play_action(c) for c in bits(state.hand.hands[state.hand.to_move])]

    def check(self, state: Table, action: Action) -> None:
        """:raises IllegalActionError: not a card play, or a card not held."""
        if action.kind != "play" or action.suit:
            raise IllegalActionError("play a card onto the pile now (e.g. play " +
                                     state.variant.deck.base(next(bits(state.hand.hands[state.hand.to_move]))) + ")")
        if not state.hand.hands[state.hand.to_move] >> action.card & 1:
            raise IllegalActionError(f"you do not hold {state.variant.deck.pretty(action.card)}")

    def apply(self, state: Table, action: Action) -> bool:
        """Add the card to the pile; score thresholds reached; True at the end."""
        h = state.hand
        spec = KIND.spec(state)
        d = self.data(state)
        seat = h.to_move
        c = action.card
        h.hands[seat] ^= 1 << c
        before = d.total
        d.total = before + spec.values[c]
        d.cards.append((seat, c))
        d.score[seat] += crossed(spec, before, d.total)
        if d.total >= spec.end_at or not any(h.hands):
            h.to_move = -1
            return True
        h.to_move = next_holder(state, seat)
        return False

    # ------------------------------------------------------------------ words and views
    def parse(self, text: str, state: Table):
        """A bare card (``QS``) is a play."""
        return bare_card_play(text, state)

    def help_line(self, spec, variant) -> str:
        """Card play onto the pile."""
        return "play CARD or just CARD (e.g. QS): onto the pile, any card"

    def observe(self, state: Table, seat: int) -> dict:
        """The pile (public): its running total and the cards played, in order."""
        d = self.data_of(state.hand)
        if d is None:
            return {}
        return {"pile_total": d.total, "pile": list(d.cards), "pile_score": list(d.score)}

    def show(self, data, variant, names=None) -> list:
        """Rows ``("pile", "P1 10♠ 10 · P2 A♥ 21 · P3 Q♠ 26 (-1) · ...")`` (each card with the
        running total, and the threshold score of a card that reached one, so the table sees who
        took each penalty as it happens), then ``("pile total", "21")``."""
        deck = variant.deck
        out, total, line = [], 0, []
        spec = next(p for p in variant.phases if p.kind == self.name)
        for i, (seat, c) in enumerate(data.cards):
            before, total = total, total + spec.values[c]
            got = crossed(spec, before, total)
            line.append(f"{seat_name(variant, names, seat)} {deck.pretty(c)} {total}"
                        + (f" ({got:+d})" if got else ""))
            if len(line) == variant.players or i == len(data.cards) - 1:
                out.append(("pile", " · ".join(line)))
                line = []
        out.append(("pile total", str(data.total)))
        return out


def _sums(spec: PileSpec) -> set:
    """Every sum of threshold scores one player may get (each threshold at most once)."""
    out = {0}
    for _at, score in spec.thresholds:
        out |= {x + score for x in out}
    return out


def _shares(scores: list, got: list) -> bool:
    """Whether giving each of ``scores`` to one column can make the columns' sums ``got``."""
    states = {tuple(0 for _ in got)}
    for sc in scores:
        states = {st[:c] + (st[c] + sc,) + st[c + 1:] for st in states for c in range(len(got))}
        if len(states) > 200_000:   # too many to follow: accept what the total allows
            return sum(scores) == sum(got)
    return tuple(got) in states


KIND = PileKind()

__all__ = ["KIND", "PileKind", "PileSpec", "crossed"]
