"""Trick play from a stock: drawing after each trick, the turned trump card, exchanging it, closing.

The rules of the ``stock:`` block of a ``tricks`` phase (docs/rules/schnapsen.md [SN-T4]
[SN-X1] [SN-C1]..[SN-C3], sixtysix.md [SS-T4] [SS-X1]; pagat.com German Whist).  The stock is
the deal's zone ``stock`` (a pattern's ``stock N``, or the rest of a deal by ``hand_sizes``),
drawn in the order it was dealt, top first:

* after each trick, while the stock is open, every player draws one card: the trick's winner
  first, then each other player in the direction of play;
* a card turned by a ``turn_up`` phase (``card: stock``, the stock's top card) lies face up
  ``under`` the stock and is drawn last, or stays on ``top`` and is drawn first; with
  ``top_up`` the stock's top card always lies face up (the winner takes it, the others draw
  unseen after him, and the next top card is turned once every player has drawn);
* ``exchange``: a player on lead holding the trump of ``rank`` may swap it for the card turned
  under the stock (which then lies there face up in its place);
* ``close``: a player on lead may close the stock: nobody draws any more;
* ``after``: once the stock is closed or exhausted these follow options replace the phase's
  own (strict following, heading the trick, trumping).

Everything here is public: the stock's cards are in ``hand.zones["stock"]`` and their order
only in ``hand.deck_order`` (dropped from every observation), so a sampled world, which has
no deck order, draws its hidden stock cards at random (:func:`next_card`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekit.cards import bits
from rulekit.engine.phases.table import Table

ZONE = "stock"
"""The name of the deal's zone that is drawn from."""


@dataclass(frozen=True)
class LeadRule:
    """When a player on lead may exchange the turned card, or close the stock.

    :ivar needs_trick: only a player who has won a trick this hand.
    :ivar last_round: also when the stock holds no more cards than one round of draws.
    """

    needs_trick: bool = False
    last_round: bool = True


@dataclass(frozen=True)
class StockSpec:
    """The ``stock:`` block of a ``tricks`` phase (see the module docstring).

    :ivar turned: where a card turned up from the stock lies: ``under`` (drawn last) or ``top``.
    :ivar top_up: the stock's top card lies face up.
    :ivar after: the phase's spec with the follow options of ``after`` (``None``: unchanged).
    :ivar exchange_rank: the rank of the trump exchanged for the turned card (``""``: none);
        ``exchange`` its :class:`LeadRule`.
    :ivar close: the :class:`LeadRule` of closing the stock, or ``None``.
    """

    turned: str = "under"
    top_up: bool = False
    after: Any = None
    exchange_rank: str = ""
    exchange: LeadRule | None = None
    close: LeadRule | None = None


def start(state: Table, spec: StockSpec, data) -> None:
    """Set the card turned for trumps (read from the ``turn_up`` phase's data) and, with
    ``top_up``, the stock's face-up top card."""
    from rulekit.engine.phases import turn_up
    h = state.hand
    up = turn_up.KIND.data_of(h)
    stock = h.zones.get(ZONE, 0)
    if up is not None and up.card >= 0 and stock >> up.card & 1:
        if spec.turned == "under":
            data.turned = up.card
        else:
            data.top = up.card
    if spec.top_up and data.top < 0:
        data.top = next_card(state, data)
    data.left = stock.bit_count()
    data.rounds = data.left // state.variant.players


def is_open(state: Table, data) -> bool:
    """Players still draw: the stock holds cards and nobody closed it."""
    return data.closed_by < 0 and bool(state.hand.zones.get(ZONE, 0))


def follow_spec(state: Table, spec):
    """The trick phase ``spec``'s follow rules now: its ``after`` options once the stock is
    closed or exhausted ([SN-T5] [SN-C2]), else its own."""
    st = spec.stock
    if st.after is None:
        return spec
    data = state.hand.phase_state.get(spec.kind)
    return spec if data is not None and is_open(state, data) else st.after


def next_card(state: Table, data) -> int:
    """The stock's next card to draw: the face-up top card, else the next in dealing order
    (a card turned ``under`` the stock last); -1 when the stock is empty.  A sampled world has
    no dealing order: its hidden stock cards are drawn at random (``chance_rng``)."""
    h = state.hand
    stock = h.zones.get(ZONE, 0)
    if not stock:
        return -1
    if data.top >= 0 and stock >> data.top & 1:
        return data.top
    rest = stock & ~(1 << data.turned) if data.turned >= 0 else stock
    if not rest:
        return data.turned
    for c in h.deck_order:
        if rest >> c & 1:
            return c
    cards = list(bits(rest))   # (a world sampled from an observation: any hidden card, uniformly)
    return cards[int(state.chance_rng(f"draw{len(h.tricks)}:{len(cards)}").random() * len(cards))]


def draw(state: Table, spec: StockSpec, data, winner: int) -> None:
    """After a trick won by ``winner``: while the stock is open each player draws one card,
    the winner first, then the others in the direction of play ([SN-T4]).  A drawn face-up
    card is known to be in the drawer's hand; a player who draws may hold any suit again, so
    the voids he showed are forgotten."""
    if not is_open(state, data):
        return
    h = state.hand
    seat = winner
    for _ in range(state.variant.players):
        c = next_card(state, data)
        if c < 0:
            break
        bit = 1 << c
        h.zones[ZONE] &= ~bit
        h.hands[seat] |= bit
        h.failed[seat] = 0
        if c == data.turned or c == data.top:
            data.shown[seat] |= bit
            if c == data.turned:
                data.turned = -1
            else:
                data.top = -1
        seat = state.next_seat(seat)
    if spec.top_up and data.top < 0 and h.zones.get(ZONE, 0):
        data.top = next_card(state, data)
    data.left = h.zones.get(ZONE, 0).bit_count()


def _may(state: Table, data, rule: LeadRule | None, seat: int) -> bool:
    """Whether ``seat`` on lead may exchange or close by ``rule`` now."""
    if rule is None or not is_open(state, data):
        return False
    h = state.hand
    if rule.needs_trick and not h.won[seat]:
        return False
    return rule.last_round or h.zones.get(ZONE, 0).bit_count() > state.variant.players


def low_trump(state: Table, spec: StockSpec) -> int:
    """The trump card of ``exchange_rank`` (-1: none in the deck, or no trumps)."""
    return state.variant.deck.index.get(spec.exchange_rank + state.hand.trump, -1)


def may_exchange(state: Table, spec: StockSpec, data, seat: int) -> bool:
    """[SN-X1] [SS-X1]: on lead, the stock open, a card turned under it, holding the low trump."""
    if data.turned < 0 or not _may(state, data, spec.exchange, seat):
        return False
    low = low_trump(state, spec)
    return low >= 0 and bool(state.hand.hands[seat] >> low & 1)


def may_close(state: Table, spec: StockSpec, data, seat: int) -> bool:
    """[SN-C1]: on lead, while the stock is open."""
    return _may(state, data, spec.close, seat)


def exchange(state: Table, spec: StockSpec, data, seat: int) -> None:
    """The low trump goes face up under the stock, the turned card into ``seat``'s hand (known
    to every player there)."""
    h = state.hand
    low = low_trump(state, spec)
    up = data.turned
    h.hands[seat] = h.hands[seat] & ~(1 << low) | 1 << up
    h.zones[ZONE] = h.zones[ZONE] & ~(1 << up) | 1 << low
    data.shown[seat] |= 1 << up
    data.turned = low
    data.exchanged_by = seat
    data.swapped = (low, up)


def close(state: Table, data, seat: int) -> None:
    """[SN-C1] [SN-C3]: nobody draws any more; each column's tricks, points and melds now are
    kept (formulas read them as ``close_tricks``, ``close_points``, ``close_melds``)."""
    data.closed_by = seat
    data.at_close = [tuple(x) for x in snapshot(state, data)]


def snapshot(state: Table, data) -> list:
    """Per seat ``(tricks, card points, melds counted)`` of the hand so far."""
    from rulekit.engine.phases import melds as _melds
    h = state.hand
    v = state.variant
    pts = v.points_table(h.ctx)
    out = []
    for s in range(v.players):
        points = sum(pts[c] for c in bits(h.won_cards[s]))
        out.append((h.won[s], points, _melds.counted(state.current_phase, h, data, s)))
    return out


def known(state: Table, data) -> list:
    """The face-up cards of the stock (the turned card, a face-up top card), which every seat
    sees there."""
    stock = state.hand.zones.get(ZONE, 0)
    m = 0
    for c in (data.turned, data.top):
        if c >= 0 and stock >> c & 1:
            m |= 1 << c
    return [(ZONE, m)] if m else []


def rows(data, variant) -> list:
    """``(label, text)`` rows of the stock for the screen: the card turned under it (a row that
    stands for the ``turn_up`` phase's while it lies there), its size, a face-up top card; none
    once it is drawn out (a finished hand's story would otherwise open with "stock empty")."""
    if not data.left and data.closed_by < 0:
        return []
    pretty = variant.deck.pretty
    out = []
    if data.turned >= 0:
        swap = f" ({pretty(data.swapped[1])} exchanged for it)" if data.swapped else ""
        out.append(("turned", f"{pretty(data.turned)} under the stock{swap}"))
    down = data.left - (data.turned >= 0) - (data.top >= 0)
    words = f"{down} card{'s' if down != 1 else ''} face down" if data.left else "empty"
    if data.top >= 0:
        words += f", {pretty(data.top)} face up on top"
    if data.closed_by >= 0:
        words = "closed, " + words
    out.append(("stock", words))
    return out


def describe(st: StockSpec, spec) -> str:
    """The stock's rules in words (``spec``: the trick phase's)."""
    turned = {"under": " The card turned for trumps lies face up under the stock and is drawn last.",
              "top": " The card turned for trumps stays on top of the stock and is drawn first."}[st.turned]
    top = (" The top card of the stock lies face up: the winner of a trick takes it, the others"
           " draw theirs unseen, and the next card is turned." if st.top_up else "")
    out = ("After each trick, while the stock lasts, each player draws one card from it, the winner of the "
           "trick first." + turned + top)
    if st.exchange is not None:
        who = " who has won a trick and holds the" if st.exchange.needs_trick else " holding the"
        out += (f" A player on lead{who} {st.exchange_rank} of trumps may exchange it for the card turned under "
                f"the stock, while the stock is open{'' if st.exchange.last_round else ' and holds more than one round of cards'}.")
    if st.close is not None:
        out += (f" A player on lead{' who has won a trick' if st.close.needs_trick else ''} may close the stock "
                f"before leading{'' if st.close.last_round else ' while it holds more than one round of cards'}: "
                "nobody draws any more.")
    a = st.after
    if a is not None:
        rules = []
        if a.follow_suit and (not spec.follow_suit or a.must_head or a.must_trump):
            rules.append("a player must follow suit" + (", beating the trick if he can" if a.must_head else ""))
        if a.must_trump and not spec.must_trump:
            rules.append("a player who cannot follow must trump if he can")
        if a.overtrump and not spec.overtrump:
            rules.append("a trump must beat the trumps played if it can")
        if rules:
            out += " Once the stock is closed or exhausted, " + "; ".join(rules) + "."
    return out


def compile_stock(c, p: dict, path: tuple) -> StockSpec:
    """The :class:`StockSpec` of a ``stock:`` block but its ``after`` (the caller makes that spec
    from the trick phase's); problems at their file:line:col."""
    deck = c.deck
    ex = p.get("exchange")
    rank = ""
    rule = None
    if ex is not None:
        rank = str(ex.get("rank", ""))
        if rank not in deck.ranks:
            c.err(path + ("exchange", "rank"), f"unknown rank {rank}{c.close(rank, deck.ranks)} "
                  f"(expected one of {' '.join(deck.ranks)})")
        rule = LeadRule(bool(ex.get("needs_trick", False)), bool(ex.get("last_round", True)))
    cl = p.get("close")
    close_rule = None
    if cl is not None:
        cl = {} if cl is True else cl
        close_rule = LeadRule(bool(cl.get("needs_trick", False)), bool(cl.get("last_round", True)))
    return StockSpec(p.get("turned", "under"), bool(p.get("top_up", False)), None, rank, rule, close_rule)


SCHEMA = {
    'description': 'Trick play from a stock (the deal\'s zone `stock`, from a pattern\'s `stock N` or '
                   'the rest of a deal by `hand_sizes`): after each trick, while the stock is open, '
                   'each player draws its top card, the winner first, then the others in the '
                   'direction of play.',
    'type': 'object', 'additionalProperties': False,
    'properties': {
        'turned': {'description': 'Where the card turned up from the stock by a `turn_up` phase '
                                  '(`card: stock`) lies: `under` (face up under the stock, drawn last; '
                                  'default) or `top` (it stays on top and is drawn first).',
                   'enum': ['under', 'top']},
        'top_up': {'description': 'The top card of the stock lies face up: each player sees what the '
                                  'winner of the next trick will draw; the cards the others draw after '
                                  'him stay unseen, and the next top card is turned once all have drawn.',
                   'type': 'boolean'},
        'exchange': {'description': 'A player on lead may exchange the trump of `rank` for the card '
                                    'turned under the stock (action `exchange`), while the stock is open.',
                     'type': 'object', 'additionalProperties': False, 'required': ['rank'],
                     'properties': {
                         'rank': {'description': 'The rank of the trump exchanged, e.g. `J` or `"9"`.',
                                  'type': ['string', 'integer']},
                         'needs_trick': {'description': 'Only a player who has won a trick this hand.',
                                         'type': 'boolean'},
                         'last_round': {'description': 'Also when the stock holds no more cards than one '
                                                       'round of draws (default true; false forbids it then).',
                                        'type': 'boolean'}}},
        'close': {'description': 'A player on lead may close the stock before leading (action `close`): '
                                 'nobody draws any more and the `after` follow rules apply. Formulas read '
                                 '`closed` and each column\'s `close_tricks`, `close_points` and `close_melds` '
                                 'at that moment.',
                  'oneOf': [{'type': 'boolean', 'const': True},
                            {'type': 'object', 'additionalProperties': False,
                             'properties': {
                                 'needs_trick': {'description': 'Only a player who has won a trick this hand.',
                                                 'type': 'boolean'},
                                 'last_round': {'description': 'Also when the stock holds no more cards than '
                                                               'one round of draws (default true).',
                                                'type': 'boolean'}}}]},
        'after': {'description': 'Follow options in force once the stock is closed or exhausted, replacing '
                                 'the phase\'s own: e.g. `{follow_suit: true, must_head: true, must_trump: true}`.',
                  'type': 'object', 'additionalProperties': False,
                  'properties': {
                      'follow_suit': {'description': 'Players must follow suit.', 'type': 'boolean'},
                      'must_head': {'description': 'A player following suit must beat the trick if he can.',
                                    'type': 'boolean'},
                      'must_trump': {'description': 'A player who cannot follow must trump if he can.',
                                     'type': 'boolean'},
                      'must_overtrump': {'description': 'A player who must trump must beat every trump '
                                                        'played if he can.', 'type': 'boolean'}}}}}
