"""Partners by a card: the rules of ``call_partner``'s ``card:`` block (the kind in
:mod:`rulekit.engine.phases.call_partner` dispatches here).

The holder of a card is the declarer's partner for the hand, and nobody else knows who he is:

* the declarer **calls** a card (``call AS``) from tiers such as ``[A]`` (an ace: Schafkopf's
  called ace) or ``[K, Q]`` (a king, or a queen once he holds the four kings: French Tarot's
  five-player call); or the rules **name** one (``fixed: JD``: the holder of the J♦ partners
  the declarer); with ``fixed`` and ``own: call`` a declarer holding the named card calls one;
* without a declarer (no auction, or nobody won it) the holders of the named card form the
  party against the others (``fixed: QC`` with two copies of each card: the two Q♣).

The party (:func:`party`) is the truth, read by the rules and the scoring (``in_party``,
``party_size``, ``party_tricks``, ``party_points``) from the cards themselves: who holds or
played a copy of the party card, so a world sampled by a bot finds its own partner
(:func:`resample`).  What a seat knows (:func:`known`) is its own cards, the party cards played,
the declarer, and the seats whose side an announcement made public; an observation shows the
partner only then, and the public inferences (:func:`inferences`: a player who followed the
called suit's first lead with another card does not hold it) bound the sampled worlds.

Rules of the call (``own``, ``hold_suit``, ``trumps``) and of the play (``must_play``,
``keep``: :func:`card_rules`, which the trick play checks) are the block's options.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.cards import SUIT_NAMES, bits
from rulekit.engine.actions import Action
from rulekit.engine.phases.base import revealed_seats
from rulekit.engine.phases.table import Table
from rulekit.errors import CardError, IllegalActionError

OWN = ("alone", "refused", "call")


@dataclass(frozen=True)
class CardCall:
    """The compiled ``card:`` block of a ``call_partner`` phase.

    :ivar tiers: what may be called, tier by tier: each a rank (``"A"``: that rank in every
        suit) or a mask of cards; the next tier only when the declarer holds every card of
        the one before (of the suits a call may name).
    :ivar fixed: the cards the rules name, every copy (0: none), ``fixed_name`` their text.
    :ivar trumps: a trump may be called.
    :ivar own: a declarer holding the card: ``alone`` (he plays alone; a called one he may
        call), ``refused`` (he may not call a card he holds), ``call`` (``fixed``: he calls one
        he does not hold from ``tiers`` instead).
    :ivar hold_suit: he may call only a card of a suit he holds (a card of its group in the
        hand's trumps other than the card itself).
    :ivar must_play: the card must be played the first time its suit is led.
    :ivar keep: the card may not be discarded on another suit before its suit is led.
    :ivar size: the fewest and most seats the party may have (the formula variable
        ``party_size``): 0 only when nobody may hold the card (no declarer, cards put aside).
    :ivar without_declarer: the file's ``without_declarer`` (``party``, ``none``, or ``""``
        unsaid); ``lone``: in a hand without a declarer the ``fixed`` card's holders form a
        party (``party``, or unsaid in a game without an auction).
    """

    tiers: tuple = ()
    fixed: int = 0
    fixed_name: str = ""
    trumps: bool = True
    own: str = "alone"
    hold_suit: bool = False
    must_play: bool = False
    keep: bool = False
    size: tuple = (1, 16)
    without_declarer: str = ""
    lone: bool = False


def copies(deck, card: int) -> int:
    """The mask of every copy of ``card`` in ``deck`` (the same rank and suit; itself alone
    for a card without a suit)."""
    su = deck.suit_of(card)
    if su is None:
        return 1 << card
    r = deck.rank_of(card)
    return sum(1 << c for c in range(deck.size) if deck.suit_of(c) == su and deck.rank_of(c) == r)


def compile_held(c, text: str, at: tuple, example: str) -> tuple[int, tuple]:
    """Cards a player must hold (an announcement's or a contract's ``holds``), space separated:
    ``(mask of every copy named, ((mask of a card's copies, how many), ...))``; a card listed
    twice asks both copies.  Unknown cards and a card listed more often than the pack holds it
    are reported at ``at``."""
    deck = c.deck
    mask = 0
    counts: dict[int, int] = {}
    for w in text.split():
        try:
            same = copies(deck, deck.parse(w))
        except CardError as err:
            c.err(at, f"{err} (expected cards of this deck, such as {example})")
            continue
        counts[same] = counts.get(same, 0) + 1
        if counts[same] > same.bit_count():
            c.err(at, f"{w} is listed {counts[same]} times but the pack has {same.bit_count()} "
                  f"(expected each card at most as often as the pack holds it)")
        mask |= same
    return mask, tuple(counts.items())


def holds_all(hand: int, counts: tuple) -> bool:
    """Whether ``hand`` (a mask) holds the cards of ``counts`` (:func:`compile_held`'s)."""
    return all((hand & m).bit_count() >= n for m, n in counts)


def compile_card(c, p: dict, path: tuple) -> CardCall | None:
    """The :class:`CardCall` of a ``card:`` block (already schema-valid), or ``None`` after
    reporting a problem (an unknown rank or card, a block with nothing to call or name)."""
    deck = c.deck
    tiers: list[str | int] = []
    for i, t in enumerate(p.get("call", ())):
        t = str(t)
        words = t.split()
        if len(words) == 1 and words[0] in deck.ranks:
            tiers.append(words[0])
            continue
        m = 0
        for w in words:
            try:
                m |= copies(deck, deck.parse(w))
            except CardError:
                c.err(path + ("call", i), f"{w!r} is neither a rank nor a card of this deck (expected a rank, one "
                      f"of {' '.join(deck.ranks)}, or cards such as AS AH)")
                return None
        tiers.append(m)
    fixed, name = 0, ""
    for w in str(p.get("fixed", "")).split():
        try:
            card = deck.parse(w)
        except CardError as e:
            c.err(path + ("fixed",), f"{e} (expected cards of this deck, such as JD or QC QS)")
            return None
        fixed |= copies(deck, card)
    if fixed:
        name = " ".join(deck.name(x) for x in bits(fixed))
    if not tiers and not fixed:
        c.err(path, "a card partnership needs a card: the cards the declarer may call (call: [A]) or "
              "the card the rules name (fixed: JD)")
        return None
    own = p.get("own", "call" if fixed and tiers else "alone")
    if own == "call" and not (fixed and tiers):
        c.err(path + ("own",), "own: call makes a declarer who holds the named card call another: it "
              "needs both fixed and call (expected own: alone or refused)")
        return None
    if own == "refused" and not tiers:
        c.err(path + ("own",), "own: refused forbids calling a card he holds, but nothing is called "
              "(expected call: [...], or own: alone)")
        return None
    if p.get("hold_suit") and not tiers:
        c.err(path + ("hold_suit",), "hold_suit is a rule of the call, but nothing is called "
              "(expected call: [...])")
        return None
    if "without_declarer" in p and not fixed:
        c.err(path + ("without_declarer",), "without_declarer says whether the holders of the named card "
              "form a party in a hand without a declarer, but no card is named (expected fixed: CARD)")
        return None
    return CardCall(tuple(tiers), fixed, name, bool(p.get("trumps", True)), own, bool(p.get("hold_suit", False)),
                    bool(p.get("must_play", False)), bool(p.get("keep", False)),
                    without_declarer=str(p.get("without_declarer", "")))


def _trumps(state: Table) -> int:
    ctx = state.hand.ctx
    return ctx.group_mask[ctx.trump_suit_group] if ctx is not None and ctx.trump_suit_group is not None else 0


def _tier_mask(state: Table, tier, rule: CardCall) -> int:
    """The cards of ``tier`` a call may name (trumps left out unless ``rule.trumps``)."""
    deck = state.variant.deck
    if isinstance(tier, str):
        m = sum(1 << c for c in range(deck.size) if deck.rank_of(c) == tier and deck.suit_of(c) is not None)
    else:
        m = tier
    return m if rule.trumps else m & ~_trumps(state)


def _active_tier(state: Table, rule: CardCall) -> int:
    """The index of the tier the declarer calls from: the first of which he does not hold every
    card (``len(rule.tiers)`` when he holds them all)."""
    held = state.hand.hands[state.hand.declarer]
    for i, tier in enumerate(rule.tiers):
        cards = _tier_mask(state, tier, rule)
        if not (cards and cards & held == cards):
            return i
    return len(rule.tiers)


def callable_cards(state: Table, rule: CardCall) -> int:
    """The cards the declarer may call now (a mask, one card per copy group: the lowest); 0
    when none (he then plays alone)."""
    h = state.hand
    held = h.hands[h.declarer]
    ctx = h.ctx
    deck = state.variant.deck
    i = _active_tier(state, rule)
    if i == len(rule.tiers):
        return 0
    out = 0
    for c in bits(_tier_mask(state, rule.tiers[i], rule)):
        same = copies(deck, c)
        if out & same or (rule.own != "alone" and held & same):
            continue
        if rule.hold_suit and not held & ctx.group_mask[ctx.group_of[c]] & ~same:
            continue
        out |= 1 << c
    return out


def why_not_callable(state: Table, rule: CardCall, card: int) -> str:
    """Why the declarer may not call ``card`` now (for a refusal)."""
    h = state.hand
    deck = state.variant.deck
    held = h.hands[h.declarer]
    name = deck.pretty(card)
    same = copies(deck, card)
    ctx = h.ctx
    tier = next((i for i, t in enumerate(rule.tiers) if _tier_mask(state, t, rule) & same), None)
    if tier is None:
        if not rule.trumps and same & _trumps(state):
            return f"a trump may not be called ({name})"
        return f"{name} cannot be called (expected {_tiers_words(state, rule)})"
    active = _active_tier(state, rule)
    if tier < active:
        after = _tiers_words(state, rule, active) if active < len(rule.tiers) else "nothing: you play alone"
        return f"you hold every {_tier_word(state, rule.tiers[tier])}: call {after}"
    if tier > active:
        return (f"you may call {name} only once you hold every "
                f"{_tier_word(state, rule.tiers[active])}")
    if rule.own != "alone" and held & same:
        return f"you may not call {name}: you hold it"
    return f"you may call only a card of a suit you hold: you hold no {_group_words(state, card)}"


def _tier_word(state: Table, tier) -> str:
    """``card of rank K`` or ``one of KS KH``."""
    return f"card of rank {tier}" if isinstance(tier, str) else "one of " + " ".join(state.variant.deck.names_of(tier))


def _group_words(state: Table, card: int) -> str:
    deck = state.variant.deck
    su = deck.suit_of(card)
    return SUIT_NAMES.get(su, su) if su is not None else "such card"


def _tiers_words(state: Table, rule: CardCall, start: int = 0) -> str:
    """The tiers from ``start`` in words (``a card of rank K, then a card of rank Q``)."""
    out = []
    for t in rule.tiers[start:]:
        out.append(f"a card of rank {t}" if isinstance(t, str) else " ".join(state.variant.deck.names_of(t)))
    return ", then ".join(out)


def call_action(deck, card: int) -> Action:
    """``call AS``: the declarer calls that card."""
    return Action("partner", f"call {deck.name(card)}", card=card)


def parse_call(text: str, state: Table) -> Action | None:
    """``call AS`` (any card text the deck reads), or ``None``."""
    words = text.split()
    if len(words) != 2 or words[0].lower() != "call":
        return None
    try:
        return call_action(state.variant.deck, state.variant.deck.parse(words[1]))
    except CardError:
        return None


# ---------------------------------------------------------------------- the party (the truth)
def played_by(hand) -> list:
    """Per seat, the mask of the cards it played this hand."""
    out = [0] * hand.players
    for _l, plays, _w, _n in hand.tricks:
        for s, c in plays:
            out[s] |= 1 << c
    for s, c in hand.trick:
        out[s] |= 1 << c
    return out


def holders(hand, cards: int) -> int:
    """The seats (a mask) that hold, or played, a card of ``cards`` in ``hand``; the declarer's
    discards count as his."""
    played = played_by(hand)
    out = 0
    for s in range(hand.players):
        if (hand.hands[s] | played[s] | hand.out[s]) & cards:
            out |= 1 << s
    if hand.declarer >= 0 and hand.discards & cards:
        out |= 1 << hand.declarer
    return out


def party(hand, data) -> int:
    """The declaring party of ``hand`` formed by the card of ``data`` (a ``CallPartnerData``):
    the declarer and the card's holders, or the holders alone without a declarer."""
    own = 1 << hand.declarer if hand.declarer >= 0 else 0
    return own | holders(hand, data.cards) if data.cards else own


def first_partner(hand, data) -> int:
    """The declarer's partner by the card (the first holder other than him), or -1."""
    others = holders(hand, data.cards) & ~(1 << hand.declarer if hand.declarer >= 0 else 0)
    return (others & -others).bit_length() - 1 if others else -1


def resample(world: Table, data) -> None:
    """In a sampled world: the declarer's partner is whoever holds the card there."""
    h = world.hand
    if h.declarer >= 0 and data.cards:
        h.partner = first_partner(h, data)


# ---------------------------------------------------------------------- what a seat knows
def known(state: Table, data, seat: int) -> tuple[int, int, bool]:
    """``(inside, outside, complete)`` as ``seat`` knows them: the seats known to be in the
    party (the declarer, those who played a copy of the card, the seat itself when it holds
    one, the seats whose side an announcement showed), those known out of it, and whether he
    knows the whole party (every copy of the card placed, by his own hand, by play, or each
    held by a seat known inside that has not played one)."""
    h = state.hand
    if not data.cards:
        return (1 << h.declarer if h.declarer >= 0 else 0), 0, True
    played = played_by(h)
    truth = party(h, data)
    inside = 1 << h.declarer if h.declarer >= 0 else 0
    located = 0
    for s in range(h.players):
        if played[s] & data.cards:
            inside |= 1 << s
            located |= played[s] & data.cards
    mine = (h.hands[seat] | h.out[seat] | (h.discards if seat == h.declarer else 0)) & data.cards
    if mine:
        inside |= 1 << seat
        located |= mine
    for z, m in h.zones.items():   # a copy lying face up: with nobody
        if h.zone_up.get(z):
            located |= m & data.cards
    open_seats = revealed_seats(state) | 1 << seat
    inside |= open_seats & truth
    outside = open_seats & ~truth & ~inside
    rest = data.cards & ~located
    # seats known inside that hold none of the cards placed: each holds one of the rest
    waiting = [s for s in range(h.players) if inside >> s & 1 and s != h.declarer
               and not (played[s] | (mine if s == seat else 0)) & data.cards]
    complete = not rest or len(waiting) == rest.bit_count()
    if complete:
        outside = ((1 << h.players) - 1) & ~inside
    return inside, outside, complete


def hides_partner(state: Table, data, seat: int) -> bool:
    """The declarer's partner is hidden from ``seat`` until the seat knows the whole party."""
    return bool(data.cards) and not known(state, data, seat)[2]


def inferences(state: Table, data, rule: CardCall) -> list:
    """Public inferences about the party card (see :meth:`PhaseKind.inferences`): the
    declarer does not hold a card he called unless ``own: alone``, and he holds a card of its
    suit under ``hold_suit``; with ``fixed`` and ``own: call`` he holds the named card when he
    called, and not when he did not; under ``must_play`` whoever played another card of its
    suit to the first trick led in that suit does not hold it; a seat whose side an
    announcement showed holds a copy (its party) or none (the other side)."""
    h = state.hand
    if not data.cards:
        return []
    out = []
    played = played_by(h)
    if h.declarer >= 0 and data.called >= 0:
        if rule.own != "alone":
            out.append((h.declarer, data.cards, "none"))
        if rule.hold_suit and data.suit_cards and not played[h.declarer] & data.suit_cards:
            out.append((h.declarer, data.suit_cards, "some"))
    if h.declarer >= 0 and rule.fixed and rule.own == "call":
        # he calls only when he holds the named card: calling shows he holds it, not calling that he does not
        if data.called < 0:
            out.append((h.declarer, rule.fixed, "none"))
        elif not played[h.declarer] & rule.fixed:
            out.append((h.declarer, rule.fixed, "some"))
    if rule.must_play and h.ctx is not None:
        # the first trick led in the card's suit: whoever played another card of that suit to it
        # holds none (he would have had to play it)
        g = h.ctx.group_of[(data.cards & -data.cards).bit_length() - 1]
        for s, c in _first_led(h, g):
            if not (1 << c) & data.cards and h.ctx.group_of[c] == g:
                out.append((s, data.cards, "none"))
    truth = party(h, data)
    for s in bits(revealed_seats(state)):
        if s == h.declarer:
            continue
        if truth >> s & 1:
            if not played[s] & data.cards:
                out.append((s, data.cards, "some"))
        else:
            out.append((s, data.cards, "none"))
    return out


def _first_led(h, g: int) -> list:
    """The ``(seat, card)`` plays of the first trick led in group ``g`` (finished or under
    way), or ``[]`` before one."""
    ctx = h.ctx
    for _l, plays, _w, _n in h.tricks:
        if plays and ctx.group_of[plays[0][1]] == g:
            return list(plays)
    if h.trick and ctx.group_of[h.trick[0][1]] == g:
        return list(h.trick)
    return []


def suit_led_before(h, g: int) -> bool:
    """Whether a trick before the one under way was led in group ``g`` (or the one under way,
    when ``g`` is its led group and it is not the first such trick)."""
    ctx = h.ctx
    return any(plays and ctx.group_of[plays[0][1]] == g for _l, plays, _w, _n in h.tricks)


# ---------------------------------------------------------------------- rules of the play
def card_rules(hand, data, rule: CardCall) -> list:
    """``[(mask, must_play, keep)]`` for the trick play (:meth:`PhaseKind.card_rules`)."""
    if not data.cards or not (rule.must_play or rule.keep):
        return []
    return [(data.cards, rule.must_play, rule.keep)]


def refuse_call(state: Table, rule: CardCall, action: Action) -> None:
    """:raises IllegalActionError: anything but a call of a card the declarer may call now."""
    ok = callable_cards(state, rule)
    if action.kind != "partner" or action.card < 0:
        example = call_action(state.variant.deck, (ok & -ok).bit_length() - 1).text if ok else "call CARD"
        raise IllegalActionError(f"{action.text} is not a call now: the declarer calls a card (e.g. {example})")
    if not ok & copies(state.variant.deck, action.card):
        raise IllegalActionError(why_not_callable(state, rule, action.card))
