"""``tricks`` phase: trick play (rules/fivehundred.md [T1]-[T6], rams.md [T1] [J1]).

Following is computed on bitmasks with the context tables of the trump
choice (:class:`~rulekit.variant.model.Context`): a player must play a card of
the led group if he holds one; otherwise (``must_trump``) a trump if he holds
one; otherwise any card.  A led *top* card at no trump may make the leader
name the suit to follow (``top_led: name_suit``); he may not name a suit he
has failed to follow this hand unless he has failed them all ([T4]).  The
trick goes to the strongest card of the trump group, else of the led group.

Two All Fours rules (pagat.com/allfours): ``first_lead_trump`` makes the suit of
the hand's first lead trumps (the hand's context is set as that card is led);
``may_trump`` lets a player who can follow a plain suit play a trump instead.
Both are read by :func:`legal_mask` and :func:`play_card`, so the fast path keeps them.

Two-hand games from a stock (docs/rules/schnapsen.md, sixtysix.md): ``follow_suit: false`` lets
any card be played, ``must_head`` makes a player following suit beat the trick if he can, and
the ``stock:``, ``melds:`` and ``claim:`` blocks (:mod:`~rulekit.engine.phases.stock`,
:mod:`~rulekit.engine.phases.melds`, :mod:`~rulekit.engine.phases.claim`, their actions in
:mod:`~rulekit.engine.phases.turn_actions`) add drawing after each trick, the follow options
switched on once the stock is closed or exhausted, melds and a claim.  They set
``special_follow`` / ``extras``, so the common games' hot paths test one flag.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from rulekit.cards import SUIT_NAMES, bit_list, bits
from rulekit.dsl import Formula
from rulekit.dsl.words import formula_words
from rulekit.engine.actions import Action
from rulekit.engine.phases import announcements as ann
from rulekit.engine.phases import claim as _claim
from rulekit.engine.phases import melds as _melds
from rulekit.engine.phases import stock as _stock
from rulekit.engine.phases import tricks_pad as _pad
from rulekit.engine.phases import turn_actions as _turns
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, Said
from rulekit.engine.phases.table import Table
from rulekit.engine.types import Card, Mask, Seat
from rulekit.errors import CardError, IllegalActionError


@dataclass(frozen=True)
class TricksSpec(PhaseSpec):
    """``tricks`` phase: trick play ([T1]-[T6]).

    :ivar end_if: condition over the scoring variables, checked after each trick on every
        score column: when it holds for one, the hand ends at once (``phases.*.end_if``).
    :ivar lead_broken: ``(suit, mask)`` pairs: the suit (``trump``: the trump suit, mask -1)
        may not be led while the leader holds a card of another suit, until one of its
        cards has been played ("broken").
    :ivar lead_never: ``(suit, mask)`` pairs like ``lead_broken``, but for the whole hand:
        the suit is never "broken" (rules/king.md [K2]).
    :ivar first_no_lead, first_no_play: cards that may not be led to / played to the first
        trick unless the player has no other legal card.
    :ivar restricts: some lead or first-trick restriction applies (a hot-path shortcut).
    :ivar lead_pass_if: condition over the scoring variables, checked before the first trick
        on the first leader's column: while it holds, the lead passes to the next player
        (``phases.*.lead_pass_if``).
    :ivar first_lead: a card whose holder leads the first trick with it (-1: none).
    :ivar overtrump: a player who plays a trump because he must (trumps led, or
        ``must_trump``) must beat every card of the trick if he can (``must_overtrump``).
    :ivar partner_frees: with ``must_trump``, a player who cannot follow while his partner's
        card wins the trick may play any card (``partner_frees``).
    :ivar lead_if, lead_then: when the condition ``lead_if`` holds on the declarer's score
        column before the first trick, ``lead_then`` (``declarer``, ``declarer_left``,
        ``eldest``) replaces ``lead`` (Euchre: the player left of a lone maker leads).
    :ivar first_lead_trump: the suit of the hand's first lead becomes trumps.
    :ivar may_trump: a player who can follow a plain suit may trump instead.
    :ivar top_follows: at no trump a top card may follow any lead unless its holder failed
        that suit (rules/fivehundred.md [T4], house option).
    :ivar renege: the ranking text of the top trumps that need not be played to a lower
        trump led (rules/fortyfive.md [FF-T3]); the contexts hold their cards (``Context.renege``).
    :ivar side: indices (in the variant's phases) of earlier phases that offer actions during
        trick play (:meth:`~rulekit.engine.phases.base.PhaseKind.side_actions`: robbing the
        turned card at one's first turn to play).
    :ivar widow_to, discards_to: where the cards left undealt and the declarer's discards go
        at the end of play: ``declarer``, ``defenders`` (the declarer's first opponent in the
        order of play, counting for the defenders' side), ``last_trick`` (its winner) or
        ``none``; a contract group's own (``Context.widow_to``) replaces them.
    :ivar announcements: the announcements players may make at their turn, before their card
        (:class:`~rulekit.engine.phases.announcements.AnnouncementSpec`, in the list's order).
    :ivar bound: the indices of the phases whose kinds bind cards in this trick play
        (:meth:`~rulekit.engine.phases.base.PhaseKind.card_rules`: a called card that must be
        played when its suit is first led, or may not be discarded).
    :ivar follow_suit: players must follow suit (``False``: any card may be played).
    :ivar must_head: a player following suit must beat the trick if he can ([SN-T5]).
    :ivar stock: the :class:`~rulekit.engine.phases.stock.StockSpec` (drawing after each trick),
        or ``None``; ``melds`` the :class:`~rulekit.engine.phases.melds.MeldsSpec`, ``claim`` the
        :class:`~rulekit.engine.phases.claim.ClaimSpec`; ``bounds`` ``(tricks, card points, meld
        points)`` at most, for their formula variables.
    :ivar later_cards: cards each player draws from the stock in a hand (its rounds of draws).
    :ivar extras: some of those three blocks is set (actions besides card play, kind data).
    :ivar besides: ``side``, ``announcements`` or ``extras``: actions besides cards may be open
        (:func:`legal_choices` numbers them after the cards).
    """

    lead: str
    must_trump: bool
    widow_to: str
    dummy: bool = False
    end_if: Formula | None = None
    lead_broken: tuple = ()
    first_no_lead: int = 0
    first_no_play: int = 0
    restricts: bool = False
    lead_pass_if: Formula | None = None
    first_lead: int = -1
    lead_never: tuple = ()
    overtrump: bool = False
    partner_frees: bool = False
    lead_if: Formula | None = None
    lead_then: str = ""
    first_lead_trump: bool = False
    may_trump: bool = False
    top_follows: bool = False
    renege: str = ""
    discards_to: str = "none"
    side: tuple = ()
    bound: tuple = ()
    announcements: tuple = ()
    follow_suit: bool = True
    must_head: bool = False
    stock: _stock.StockSpec | None = None
    melds: _melds.MeldsSpec | None = None
    claim: _claim.ClaimSpec | None = None
    bounds: tuple = (0, 0, 0)
    later_cards: int = 0
    # any follow option beyond suit and must_trump (set once, so the card loop tests one flag)
    special_follow: bool = field(default=False, init=False)
    extras: bool = field(default=False, init=False)
    besides: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "special_follow", bool(self.overtrump or self.partner_frees
                                                        or self.may_trump or self.top_follows or self.side
                                                        or self.bound
                                                        or not self.follow_suit or self.must_head
                                                        or self.stock is not None))
        object.__setattr__(self, "extras", self.stock is not None or self.melds is not None
                           or self.claim is not None)
        object.__setattr__(self, "besides", bool(self.side or self.announcements or self.extras))


def start(state: Table) -> bool:
    """Set the first leader: the declarer when ``lead: declarer`` and there is one, else the eldest
    (``lead_then`` instead when ``lead_if`` holds on the declarer's column); then, while
    ``lead_pass_if`` holds for the leader's column, the next player."""
    h = state.hand
    if h.ctx is None:
        state.set_trump("NT")
    spec = KIND.spec(state)
    n = state.variant.players
    lead = spec.lead
    if spec.lead_if is not None and h.declarer >= 0:  # e.g. the player left of a lone maker leads
        v = state.variant
        envs = state.score_envs(spec.lead_if.names)
        if spec.lead_if(envs[v.side_of[h.declarer] if v.scoring.by_side else h.declarer]):
            lead = spec.lead_then
    if lead == "declarer" and h.declarer >= 0:
        h.leader = h.declarer
    elif lead == "declarer_left" and h.declarer >= 0:
        h.leader = state.next_seat(h.declarer)
    else:
        h.leader = h.eldest
    if spec.first_lead >= 0:  # the holder of a named card leads (a card out of play: as written)
        h.leader = next((s for s in range(n) if h.hands[s] >> spec.first_lead & 1), h.leader)
    if spec.lead_pass_if is not None:  # e.g. a player who sits this hand out does not lead
        envs = state.score_envs(spec.lead_pass_if.names)
        by_side = state.variant.scoring.by_side
        for _ in range(n - 1):
            if not spec.lead_pass_if(envs[state.variant.side_of[h.leader] if by_side else h.leader]):
                break
            h.leader = state.next_seat(h.leader)
    for _ in range(n - 1):   # a seat without cards (sitting this hand out) passes the lead on
        if h.hands[h.leader]:
            break
        h.leader = state.next_seat(h.leader)
    if spec.announcements:
        ann.start(state, spec.announcements)
    if spec.dummy and h.declarer >= 0:
        h.dummy = state.partner_of(h.declarer)
    opened = getattr(h.contract, "open", "")
    if opened and h.declarer >= 0:  # an open game: the declarer's hand lies face up
        state.lay_open(h.declarer, 0 if opened == "before_lead" else 1)
    h.to_move = h.leader
    if spec.extras:   # the stock, melds, claim: the hand's own data (phases/turn_actions.py)
        _turns.start(state, spec)
    return True


def legal_mask(state: Table, seat: Seat) -> Mask:
    """Bitmask of the cards ``seat`` may play now (no suit naming considered)."""
    h = state.hand
    hand = h.hands[seat]
    spec: TricksSpec = state.variant.phases[h.phase]  # type: ignore[assignment]  # (its own: no cast, hot path)
    if not h.trick:
        m = restrict(state, hand, True) if spec.restricts else hand
        return _turns.lead_mask(state, spec, m) if spec.extras else m
    ctx = h.ctx
    if spec.special_follow or ctx.special:   # overtrump, partner frees, may trump; cards with rules of their own
        m = _follow_mask(state, seat, hand, spec)
    else:  # the common rules inline: this is the hot loop of bots' playouts
        m = hand & ctx.group_mask[h.led_group]
        if not m:
            m = hand
            if spec.must_trump and ctx.trump_suit_group is not None:
                m = hand & ctx.group_mask[ctx.trump_suit_group] or hand
    return restrict(state, m, False) if spec.restricts and not h.tricks else m


def plain_follow(spec, ctx) -> bool:
    """Whether trick phase ``spec`` under context ``ctx`` follows only the common rules of
    :func:`legal_mask` and :func:`play_card` (their inline branch): the led group, else
    ``must_trump``'s trumps, else any card; no lead or first-trick restriction, no early
    end, no trump set by the first lead, no powerless cards, no stock, melds or claim (their
    draws and end-of-play claims are :func:`play_card`'s).  Playout loops that repeat those
    rules in local variables (the random playout's, the bots', the kernel's) test this first."""
    return not (spec.special_follow or spec.restricts or spec.end_if is not None or spec.first_lead_trump
                or ctx.special or spec.extras)


def plain_rules(spec, ctx, hands: list) -> bool:
    """:func:`plain_follow` less its refusal of lead and first-trick restrictions (the random
    playout's loop applies them by masks: :func:`lead_allowed`, :func:`first_allowed`), and
    every seat still in play holds as many cards as the others (so each trick has the same
    seats): the random playout then plays the rest of the hand in one loop
    (:func:`rulekit.engine.playout.random_hand`)."""
    return (not (spec.special_follow or spec.end_if is not None or spec.first_lead_trump
                 or ctx.special or spec.extras)
            and len({m.bit_count() for m in hands if m}) == 1)


def lead_allowed(rules: tuple, m: Mask, gone: Mask, why: list | None = None) -> Mask:
    """The leads ``m`` less the suits the lead rules ``rules`` (:func:`_lead_rules`) forbid,
    in order, each only while the leader keeps another card, an ``until broken`` suit only
    while none of its cards is among ``gone`` (the cards of the finished tricks).  ``why``: a
    list to which each rule applied adds ``(the cards it forbids, its reason, 0)`` (see
    :func:`first_allowed`)."""
    for mask, until, reason in rules:
        if m & ~mask and not (until and gone & mask):
            m &= ~mask
            if why is not None:
                why.append((mask, reason, 0))
    return m


#: The refusals of the first-trick rules (:func:`first_allowed`), ``{}`` the cards they name
FIRST_LEAD_WHY = "{} must lead the first trick"
FIRST_NO_WHY = "{} may not be %s to the first trick while you hold another card"


def first_allowed(spec, m: Mask, lead: bool, why: list | None = None) -> Mask:
    """The cards ``m`` (a lead when ``lead``) less what the first-trick rules of ``spec``
    forbid: the ``first_lead`` card leads when the leader may lead it; ``first_no_lead`` (to a
    lead) and ``first_no_play`` cards are refused while another card remains.  ``why``: a list
    to which each rule applied adds ``(the cards it forbids, its reason, the cards the reason
    names)``, the reason a template whose ``{}`` takes those of them the player holds."""
    if lead and spec.first_lead >= 0 and m >> spec.first_lead & 1:
        if why is not None:
            why.append((m & ~(1 << spec.first_lead), FIRST_LEAD_WHY, 1 << spec.first_lead))
        m = 1 << spec.first_lead
    for mask, what in (((spec.first_no_lead, "led"), (spec.first_no_play, "played")) if lead
                       else ((spec.first_no_play, "played"),)):
        if mask and m & ~mask:
            m &= ~mask
            if why is not None:
                why.append((mask, FIRST_NO_WHY % what, mask))
    return m


def played_cards(tricks) -> Mask:
    """The cards played to the finished ``tricks``."""
    out = 0
    for _l, plays, _w, _n in tricks:
        for _s, c in plays:
            out |= 1 << c
    return out


def _follow_mask(state: Table, seat: Seat, hand: Mask, spec) -> Mask:
    """The cards of ``hand`` that follow the trick's rules (suit, ``must_trump``,
    ``must_overtrump``, ``partner_frees``, ``may_trump``, the top trumps that may renege, the
    cards played whatever was led), no lead or first-trick restriction considered."""
    h = state.hand
    ctx = h.ctx
    if spec.stock is not None:   # the rules of following change once the stock is out
        spec = _stock.follow_spec(state, spec)
    lg = h.led_group
    if lg == ctx.idle_group or lg == ctx.free_group or not spec.follow_suit:  # nothing to follow (yet): any card
        return hand
    m = hand & ctx.group_mask[lg]
    if m and ctx.renege and lg == ctx.trump_suit_group and not m & ~_reneging(state, m):
        return hand   # his only trumps are top trumps above the card led: he may keep them back
    if m and spec.must_head:   # following suit: a card that beats the trick if he has one
        m = _overtrumps(state, m) or m
    if m and spec.may_trump and ctx.trump_suit_group is not None:  # follow, or trump instead
        m |= hand & ctx.group_mask[ctx.trump_suit_group]
    if m and ctx.free_unfailed and not h.failed[seat] >> lg & 1:  # a top card at no trump follows any lead
        m |= hand & ctx.free_unfailed
    if not m:
        m = hand
        if spec.must_trump and ctx.trump_suit_group is not None:
            if spec.partner_frees and _partner_winning(state, seat):
                return m   # his partner holds the trick: any card
            trumps = hand & ctx.group_mask[ctx.trump_suit_group]
            if trumps:
                m = _overtrumps(state, trumps) or trumps if spec.overtrump else trumps
    elif spec.overtrump and lg == ctx.trump_suit_group:
        m = _overtrumps(state, m) or m
    if spec.bound:
        m = _bound_follow(state, seat, m, spec)[0]
    return m | hand & ctx.free if ctx.free else m


def _reneging(state: Table, trumps: Mask) -> Mask:
    """The cards of ``trumps`` that may renege: top trumps (``renege``) higher than the trump
    led (the trick's first card of the led group; rules/fortyfive.md [FF-T3])."""
    h = state.hand
    ctx = h.ctx
    led = next(c for _s, c in h.trick if ctx.group_of[c] == h.led_group)
    out = 0
    for c in bits(trumps & ctx.renege):
        if ctx.strength[c] > ctx.strength[led]:
            out |= 1 << c
    return out


def _bound(state: Table, spec) -> list:
    """The ``(mask, must_play, keep)`` card rules of the hand (:attr:`TricksSpec.bound`)."""
    from rulekit.engine.phases.registry import REGISTRY
    h = state.hand
    out = []
    for i in spec.bound:
        p = state.variant.phases[i]
        out += REGISTRY[p.kind].card_rules(p, h)
    return out


def _led_before(state: Table, g: int) -> bool:
    """Whether a finished trick of the hand was led in group ``g``."""
    group_of = state.hand.ctx.group_of
    return any(plays and group_of[plays[0][1]] == g for _l, plays, _w, _n in state.hand.tricks)


def _bound_follow(state: Table, seat: Seat, m: Mask, spec) -> tuple:
    """``(m, reason)``: the following cards ``m`` under the hand's card rules: a bound card must
    be played to the first trick led in its suit, and may not be discarded before that suit has
    been led (unless it is all he may play); ``reason`` says what a removed card breaks."""
    h = state.hand
    group_of = h.ctx.group_of
    held = h.hands[seat]
    why = ""
    for mask, must, keep in _bound(state, spec):
        mine = held & mask
        if not mine:
            continue
        g = group_of[(mine & -mine).bit_length() - 1]
        if g == h.led_group:
            if must and m & mine and not _led_before(state, g):
                m &= mine
                why = f"the {state.variant.deck.pretty((mine & -mine).bit_length() - 1)} must be played the first time its suit is led"
        elif keep and m & ~mine and not _led_before(state, g):
            m &= ~mine
            why = (f"the {state.variant.deck.pretty((mine & -mine).bit_length() - 1)} may not be discarded "
                   f"before its suit has been led")
    return m, why


def _bound_lead(state: Table, seat: Seat, m: Mask, spec) -> tuple:
    """``(m, reason)``: the leads ``m`` under the hand's card rules: the holder of a bound card
    who leads its suit for the first time leads that card."""
    h = state.hand
    group_of = h.ctx.group_of
    group_mask = h.ctx.group_mask
    held = h.hands[seat]
    why = ""
    for mask, must, _keep in _bound(state, spec):
        mine = held & mask
        if not mine or not must:
            continue
        g = group_of[(mine & -mine).bit_length() - 1]
        others = m & group_mask[g] & ~mine
        if others and not _led_before(state, g):
            m &= ~others
            why = (f"you must lead the {state.variant.deck.pretty((mine & -mine).bit_length() - 1)} if you lead "
                   f"its suit the first time")
    return m, why


def _overtrumps(state: Table, m: Mask) -> Mask:
    """The cards of ``m`` that beat every card of the trick so far (``must_overtrump``)."""
    h = state.hand
    keys = h.ctx.win_keys[h.led_group]
    best = max(keys[c] for _s, c in h.trick)
    out = 0
    for c in bits(m):
        if keys[c] > best:
            out |= 1 << c
    return out


def _partner_winning(state: Table, seat: Seat) -> bool:
    """True when the card winning the trick so far is the partner's of ``seat``."""
    h = state.hand
    keys = h.ctx.win_keys[h.led_group]
    winner, best = -1, -2
    for s, c in h.trick:
        if keys[c] > best:
            winner, best = s, keys[c]
    return winner != seat and state.partner_of(seat) == winner


def restrict(state: Table, m: Mask, lead: bool, why: list | None = None) -> Mask:
    """``m`` less the cards a lead restriction or a first-trick restriction forbids now,
    each applied only when the player keeps some other card (``lead_broken``, ``first_trick``):
    the masks the random playout's plain loop applies too (:func:`lead_allowed`, :func:`first_allowed`).
    ``why``: a list to which each restriction applied adds ``(the cards it forbids, its
    reason)``, in order (a refusal's words: the reason and its mask come from the same rule)."""
    h = state.hand
    spec = KIND.spec(state)
    said: list | None = [] if why is not None else None
    if lead and spec.bound:   # a bound card leads its suit the first time
        m2, reason = _bound_lead(state, h.to_move, m, spec)
        if said is not None and m2 != m:
            said.append((m & ~m2, reason, 0))
        m = m2
    if lead and (spec.lead_broken or spec.lead_never):
        m = lead_allowed(_lead_rules(state, spec), m, played_cards(h.tricks), said)
    if not h.tricks:
        m = first_allowed(spec, m, lead, said)
    if why is not None and said:
        names, held = state.variant.deck.names_of, h.hands[h.to_move]
        why += [(mask, reason.format(" ".join(names(named & held))) if named else reason)
                for mask, reason, named in said]
    return m


_LEAD_RULES = "tricks.lead_rules"   # (phase index, trumps) -> the lead rules in force (_lead_rules)


def _lead_rules(state: Table, spec: TricksSpec) -> tuple:
    """The lead rules of trick phase ``spec`` under the hand's trumps, in order:
    ``(mask, until broken, reason)`` for each ``lead_broken`` suit, then each ``lead_never``
    suit (``trump``: the trump suit, none at no trump); built once per variant, phase and trumps."""
    h = state.hand
    by: dict = state.variant.cached(_LEAD_RULES, dict)
    key = (h.phase, h.trump)
    out = by.get(key)
    if out is None:
        rules = []
        for rule, until in ((spec.lead_broken, " until one has been played"), (spec.lead_never, "")):
            for suit, mask in rule:
                if mask == -1:
                    if h.trump not in state.variant.deck.suits:
                        continue
                    suit, mask = h.trump, _suit_mask(state.variant.deck, h.trump)
                rules.append((mask, bool(until), f"{SUIT_NAMES.get(suit, suit)} may not be led{until}, "
                                                 f"while you hold another suit"))
        out = by[key] = tuple(rules)
    return out


def _suit_mask(deck, suit: str) -> Mask:
    """The cards of ``suit`` in ``deck``."""
    return deck.suit_mask(suit)


def legal_mask_unrestricted(state: Table, seat: Seat) -> Mask:
    """:func:`legal_mask` without the lead and first-trick restrictions (for the reason of a refusal)."""
    return _follow_mask(state, seat, state.hand.hands[seat], KIND.spec(state))


def nameable_suits(state: Table, seat: Seat) -> list[str]:
    """Suits a leader of a top card may name ([T4]): those he has not failed, or all."""
    deck = state.variant.deck
    failed = state.hand.failed[seat]
    ok = [s for i, s in enumerate(deck.suits) if not failed >> i & 1]
    return ok or list(deck.suits)


def _names_suit(state: Table, card: int) -> bool:
    h = state.hand
    ctx = h.ctx
    return not h.trick and ctx.top_names_suit and ctx.group_of[card] == len(state.variant.deck.suits)


def legal(state: Table) -> list:
    """:func:`legal_plays`, then the actions earlier phases offer now (:func:`side_actions`: robbing
    the turned card), the announcements open now, and the actions of the stock, melds and claim
    open now (``exchange``, ``close``, ``meld CARDS``, ``claim``)."""
    out = legal_plays(state)
    spec: TricksSpec = state.variant.phases[state.hand.phase]  # type: ignore[assignment]
    if spec.side:
        out = out + side_actions(state, spec)
    if spec.announcements:   # at his turn, before his card
        out += ann.legal(state, state.hand.to_move, spec.announcements)
    return out + _turns.actions(state, spec) if spec.extras else out


def legal_plays(state: Table) -> list:
    """Play actions in deck order; a led top card that names a suit gives one action per suit."""
    deck = state.variant.deck
    h = state.hand
    seat = h.to_move
    if h.trick or not h.ctx.top_names_suit:   # no card names a suit: the cached actions
        play = state.play_actions
        out: list[Action] = [play[c] for c in bit_list(legal_mask(state, seat))]
    else:
        out = []
        for c in bits(legal_mask(state, seat)):
            if _names_suit(state, c):
                out.extend(Action.play(deck, c, s) for s in nameable_suits(state, seat))
            else:
                out.append(state.play_action(c))
    return out


def side_actions(state: Table, spec: TricksSpec) -> list:
    """The actions the earlier phases of ``spec.side`` offer the seat to move now, beside his
    cards (:meth:`~rulekit.engine.phases.base.PhaseKind.side_actions`)."""
    from rulekit.engine.phases.registry import REGISTRY
    out: list = []
    for i in spec.side:
        p = state.variant.phases[i]
        out += REGISTRY[p.kind].side_actions(state, p)
    return out


def _side_owner(state: Table, spec: TricksSpec, action: Action):
    """``(kind, spec)`` of the earlier phase that offers ``action`` now, or ``None``."""
    from rulekit.engine.phases.registry import REGISTRY
    for i in spec.side:
        p = state.variant.phases[i]
        kind = REGISTRY[p.kind]
        if action in kind.side_actions(state, p):
            return kind, p
    return None


#: The first number of an action besides a card (an earlier phase's robbing, an announcement, a
#: stock's exchange and close, a meld, a claim): :data:`EXTRA` plus its place among those open now
#: (:func:`_besides`); above every card's choice (a card naming a suit is below
#: ``deck size * (1 + suits)``), within 16 bits.
EXTRA = 1 << 14


def _besides(state: Table, spec: TricksSpec) -> list:
    """The actions besides cards open now, in :func:`legal`'s order."""
    out = side_actions(state, spec) if spec.side else []
    if spec.announcements:
        out += ann.legal(state, state.hand.to_move, spec.announcements)
    return out + _turns.actions(state, spec) if spec.extras else out


def legal_choices(state: Table) -> list[int]:
    """The choices of :func:`legal`, in its order: a card played is its index; a led top card
    naming a suit is ``card + deck size * (1 + the suit's place in the deck's suits)``; then
    the actions besides cards open now, :data:`EXTRA` plus their place among them."""
    h = state.hand
    m = legal_mask(state, h.to_move)
    if h.trick or not h.ctx.top_names_suit:   # a card is its choice
        out = bit_list(m)
    else:
        out = _naming_choices(state, m)
    spec: TricksSpec = state.variant.phases[h.phase]  # type: ignore[assignment]
    if spec.besides:
        out += range(EXTRA, EXTRA + len(_besides(state, spec)))
    return out


def _naming_choices(state: Table, m: Mask) -> list[int]:
    """The choices of a lead of the cards ``m`` where a top card names the suit to follow."""
    h = state.hand
    deck = state.variant.deck
    size = len(deck.names)   # (deck.size without its property call: per lead)
    suits = deck.suits
    group_of = h.ctx.group_of
    naming = len(suits)   # (the group of the top cards, which name a suit when led: _names_suit)
    named: list[int] | None = None   # the choices' offsets of the suits he may name, once needed
    out: list[int] = []
    for c in bit_list(m):
        if group_of[c] == naming:
            if named is None:
                named = [size * (1 + suits.index(s)) for s in nameable_suits(state, h.to_move)]
            out += [c + x for x in named]
        else:
            out.append(c)
    return out


def choice_action(state: Table, choice: int) -> Action:
    """The action of ``choice`` (see :func:`legal_choices`)."""
    deck = state.variant.deck
    if choice >= EXTRA:
        return _besides(state, KIND.spec(state))[choice - EXTRA]
    if choice < deck.size:
        return state.play_action(choice)
    named, c = divmod(choice, deck.size)
    return Action.play(deck, c, deck.suits[named - 1])


def choice_of(state: Table, action: Action) -> int:
    """The choice of a legal action (see :func:`legal_choices`).

    :raises ValueError: an action besides a card that is not open now."""
    if action.kind != "play":
        return EXTRA + _besides(state, KIND.spec(state)).index(action)
    if not action.suit:
        return action.card
    deck = state.variant.deck
    return action.card + deck.size * (1 + deck.suits.index(action.suit))


def _apply_besides(state: Table, choice: int) -> bool:
    """Take the action besides a card of ``choice`` (``EXTRA + k``): its ``(seat, text)``
    appended to the hand's actions, then applied as :func:`apply` does; True when the hand is
    over (a claim)."""
    h = state.hand
    a = _besides(state, KIND.spec(state))[choice - EXTRA]
    h.actions.append((h.to_move, a.text))
    return apply(state, a)


def group_name(state: Table, g: int) -> str:
    """A group's name for messages: ``hearts``, ``trumps (spades)``, ``the top cards``."""
    suits = state.variant.deck.suits
    ctx = state.hand.ctx
    if g >= len(suits):
        return "the top cards (" + " ".join(state.variant.deck.names_of(ctx.group_mask[g])) + ")"
    name = SUIT_NAMES.get(suits[g], suits[g])
    return f"trumps ({name})" if g == ctx.trump_suit_group else name


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: with the reason (``you must follow hearts: you hold 9♥``)."""
    spec0: TricksSpec = state.variant.phases[state.hand.phase]  # type: ignore[assignment]  # (its own)
    if action.kind != "play" and spec0.side and _side_owner(state, spec0, action) is not None:
        return   # an action an earlier phase offers now (robbing the turned card)
    if action.kind == "announcement" and spec0.announcements:
        ann.check(state, action, spec0.announcements)
        return
    if action.kind in _turns.WORDS and spec0.extras:
        return _turns.check(state, spec0, action)
    if action.kind != "play":
        raise IllegalActionError("play a card now (e.g. play " +
                                 state.variant.deck.base(next(bits(state.hand.hands[state.hand.to_move]))) + ")")
    h = state.hand
    seat = h.to_move
    c = action.card
    if not action.suit and legal_mask(state, seat) >> c & 1 and (h.trick or not h.ctx.top_names_suit):
        return   # the common case, decided at once: a legal card that names no suit
    deck = state.variant.deck
    if not h.hands[seat] >> c & 1:
        if seat == h.dummy:
            raise IllegalActionError(f"it is dummy's turn ({state.names[seat]}): dummy does not hold "
                                     f"{deck.pretty(c)}; play one of dummy's cards")
        if h.dummy >= 0 and h.hands[h.dummy] >> c & 1:
            raise IllegalActionError(f"it is your own turn, not dummy's: {deck.pretty(c)} is in dummy")
        raise IllegalActionError(f"you do not hold {deck.pretty(c)}")
    allowed = legal_mask(state, seat)
    spec = KIND.spec(state)
    if not allowed >> c & 1 and spec.extras and not h.trick:   # a meld declared: lead one of it
        waiting = _turns.pending(state, _turns.data_of(state, spec))
        if waiting:
            raise IllegalActionError("you have declared " + " ".join(deck.pretty(x) for x in bits(waiting)) +
                                     ": lead one of those cards" + (" (or claim)" if spec.claim else ""))
    if not allowed >> c & 1 and KIND.spec(state).restricts:
        why: list = []
        restrict(state, h.hands[seat] if not h.trick else legal_mask_unrestricted(state, seat), not h.trick, why)
        for mask, reason in why:
            if mask >> c & 1:
                raise IllegalActionError(reason)
    if not allowed >> c & 1 and h.trick and KIND.spec(state).bound:
        spec = KIND.spec(state)
        free = _follow_mask(state, seat, h.hands[seat], dataclasses.replace(spec, bound=()))
        if free >> c & 1:
            raise IllegalActionError(_bound_follow(state, seat, free, spec)[1])
    if not allowed >> c & 1:
        lg = h.led_group
        follow = h.hands[seat] & h.ctx.group_mask[lg]
        shown = " ".join(deck.pretty(x) for x in bits(follow or allowed))
        if follow and KIND.spec(state).may_trump:
            shown = " ".join(deck.pretty(x) for x in bits(allowed))
            raise IllegalActionError(f"you must follow {group_name(state, lg)} or play a trump: you hold {shown}")
        if follow and not follow >> c & 1:
            raise IllegalActionError(f"you must follow {group_name(state, lg)}: you hold {shown}")
        if follow and _follows(state, spec).must_head:
            keys = h.ctx.win_keys[lg]
            best = max(h.trick, key=lambda sc: keys[sc[1]])[1]
            raise IllegalActionError(f"you must head the trick, beating {deck.pretty(best)}: you hold "
                                     + " ".join(deck.pretty(x) for x in bits(allowed)))
        tg = h.ctx.trump_suit_group
        if KIND.spec(state).overtrump and tg is not None and h.ctx.group_of[c] == tg:
            keys = h.ctx.win_keys[lg]
            best = max(h.trick, key=lambda sc: keys[sc[1]])[1]
            raise IllegalActionError(f"you must play a trump higher than {deck.pretty(best)}: you hold "
                                     + " ".join(deck.pretty(x) for x in bits(allowed)))
        raise IllegalActionError(f"you cannot follow {group_name(state, lg)} and must trump: you hold {shown}")
    if _names_suit(state, c):
        ok = nameable_suits(state, seat)
        if not action.suit:
            raise IllegalActionError(f"name the suit the others must follow: play {deck.name(c)} "
                                     f"{'|'.join(ok)}")
        if action.suit not in deck.suits:
            raise IllegalActionError(f"{action.suit} is not a suit to follow: name one of {' '.join(ok)}")
        if action.suit not in ok:
            raise IllegalActionError(f"you cannot name {SUIT_NAMES.get(action.suit, action.suit)}: you failed "
                                     f"to follow it earlier in this hand")
    elif action.suit:
        raise IllegalActionError(f"only a led top card names a suit; play {deck.name(c)} alone")


def _follows(state: Table, spec: TricksSpec) -> TricksSpec:
    """The follow options in force now (a stock's ``after`` once it is closed or exhausted)."""
    return _stock.follow_spec(state, spec) if spec.stock is not None else spec


def apply(state: Table, action: Action) -> bool:
    """Play the card; close the trick when everyone has played. True when the hand is over.
    An action of an earlier phase (:func:`side_actions`) is applied by that phase; an announcement
    is made for the seat's side, who then plays; another action (``exchange``, ``close``,
    ``meld``, ``claim``): its rule; True after a claim."""
    if action.kind == "announcement":
        ann.apply(state, action, KIND.spec(state).announcements)
        return False
    if action.kind != "play":
        spec = KIND.spec(state)
        owner = _side_owner(state, spec, action) if spec.side else None
        if owner is not None:
            owner[0].side_apply(state, owner[1], action)
            return False
        return _turns.apply(state, spec, action)
    return play_card(state, action.card, action.suit)


def play_card(state: Table, c: Card, suit: str = "") -> bool:
    """Fast path shared with the bots: play ``c`` (already legal) for the seat to move, a led
    top card naming ``suit``.  ``c`` may also be any of :func:`legal_choices` (the kind's
    ``apply_choice`` is this function, so the choices path spends one call a card): a card
    naming a suit (``card + deck size * (1 + the suit's place)``, on a lead only), or an
    action besides cards (:data:`EXTRA` and up: :func:`_apply_besides`).

    :returns: True when this card ended the hand (its last trick is closed).
    """
    if c >= EXTRA:
        return _apply_besides(state, c)
    h = state.hand
    seat = h.to_move
    hands = h.hands
    trick = h.trick
    if trick:
        hands[seat] ^= 1 << c
        ctx = h.ctx
        lg = h.led_group
        g = ctx.group_of[c]
        if g != lg:
            if lg == ctx.idle_group:  # a powerless card was led: the first card of a suit sets it
                h.led_group = g
            elif (not hands[seat] & ctx.group_mask[lg] and not (ctx.renege and lg == ctx.trump_suit_group)
                  and _shows_void(state)):
                h.failed[seat] |= 1 << lg   # (a free card may follow while he holds the suit; a top trump may renege)
        leader = h.leader
    else:
        names = state.variant.deck.names
        if c >= len(names):   # a choice naming a suit (see legal_choices)
            named, c = divmod(c, len(names))
            suit = state.variant.deck.suits[named - 1]
        hands[seat] ^= 1 << c
        h.leader = leader = seat
        if suit:
            h.named = suit
            h.led_group = state.variant.deck.suits.index(suit)
        else:
            if not h.tricks and KIND.spec(state).first_lead_trump:  # the first lead makes trumps
                su = state.variant.deck.suit_of(c)
                if su is not None and su in state.variant.contexts:  # a joker led names none
                    state.set_trump(su)
            h.led_group = h.ctx.group_of[c]
    trick.append((seat, c))
    n = h.players
    step = state.variant.step
    nxt = (seat + step) % n
    while not hands[nxt] and nxt != leader:  # a seat without cards sits this trick out
        nxt = (nxt + step) % n
    if nxt != leader:
        h.to_move = nxt
        return False
    # close the trick: the strongest trump, else the strongest card of the led group
    ctx = h.ctx   # (the trumps the first lead may have made)
    keys = ctx.win_keys[h.led_group]
    if ctx.special:   # cards with rules of their own: equal cards, the slam lead, a card kept
        winner, cards = _close_special(state, trick, keys)
    else:
        best = -1
        winner = h.leader  # (when every card is powerless, the leader's trick)
        cards = 0
        for s, x in trick:
            cards |= 1 << x
            k = keys[x]
            if k > best:
                best = k
                winner = s
    h.tricks.append((leader, trick, winner, h.named))
    h.trick_winners.append(winner)
    h.won[winner] += 1
    h.won_cards[winner] |= cards
    h.trick = []
    h.named = ""
    spec: TricksSpec = state.variant.phases[h.phase]  # type: ignore[assignment]  # (its own: no cast, hot path)
    if spec.extras:   # the draw from the stock (phases/stock.py)
        _turns.after_trick(state, spec, winner)
    if spec.end_if is not None and ends_early(state, spec.end_if):
        if credits(spec, h.ctx):   # (as at the end of every card)
            credit(state, spec, winner)
        h.to_move = -1
        return True
    if not any(hands):
        if spec.widow_to != "none" or spec.discards_to != "none" or h.ctx.widow_to or h.ctx.discards_to:
            credit(state, spec, winner)
        if spec.extras:   # every card played: the claims at the end (phases/claim.py)
            _turns.at_end(state, spec, winner)
        h.to_move = -1
        return True
    while not hands[winner]:  # the winner has no card left: the next seat that has leads
        winner = (winner + step) % n
    h.to_move = winner
    return False


def _close_special(state: Table, trick: list, keys: tuple) -> tuple[Seat, Mask]:
    """``(winner, cards won)`` of the finished ``trick`` under a context with cards of rules of
    their own: the highest key wins, the first played of equal keys or the last for the cards
    of ``last_wins``; a ``slam`` card led to the last trick by a side that won every earlier
    trick wins it; a ``kept`` card played to a trick another side wins goes back to its owner's
    won cards (``kept_always``: on the last trick too), his side giving the winner
    ``exchange`` card points (rules/tarot.md [TA-E1]-[TA-E3])."""
    h = state.hand
    ctx = h.ctx
    last = ctx.last_wins
    best = -1
    winner = h.leader
    cards = 0
    for s, x in trick:
        cards |= 1 << x
        k = keys[x]
        if k > best or (k == best and last >> x & 1):
            best = k
            winner = s
    final = not any(h.hands)
    if ctx.slam and final:
        lead_seat, lead = trick[0]
        if ctx.slam >> lead & 1 and all(same_side(state, w, lead_seat) for w in h.trick_winners):
            winner = lead_seat
    keep = cards & (ctx.kept_always if final else ctx.kept)
    if keep:
        for s, x in trick:
            if keep >> x & 1 and not same_side(state, s, winner):
                cards &= ~(1 << x)
                h.won_cards[s] |= 1 << x
                if ctx.exchange:
                    moved = h.extra_points or [0] * h.players
                    moved[s] -= ctx.exchange
                    moved[winner] += ctx.exchange
                    h.extra_points = moved
    return winner, cards


def same_side(state: Table, a: Seat, b: Seat) -> bool:
    """Whether seats ``a`` and ``b`` play on one side this hand: partners of a ``sides:`` block,
    else the declarer and his partner against the defenders, else each for himself."""
    v = state.variant
    if len(v.sides) < v.players:
        return v.side_of[a] == v.side_of[b]
    h = state.hand
    if h.declarer >= 0:
        return (a in (h.declarer, h.partner)) == (b in (h.declarer, h.partner))
    return a == b


def credits(spec, ctx) -> bool:
    """Whether cards out of play go to some player's won cards at the end of play (``widow_to``,
    ``discards_to``, or a contract group's own) under trick phase ``spec`` and context ``ctx``."""
    return spec.widow_to != "none" or spec.discards_to != "none" or bool(ctx.widow_to or ctx.discards_to)


def credit(state: Table, spec, last_winner: Seat) -> None:
    """At the end of play, add the cards left undealt (the widow, the dog) and the declarer's
    discards to the won cards of the seat their rule names (``widow_to`` / ``discards_to``, the
    hand's contract group's first): they count in ``points`` and tallies of won cards."""
    h = state.hand
    ctx = h.ctx
    for rule, cards in ((ctx.widow_to or spec.widow_to, sum(h.zones.values())),
                        (ctx.discards_to or spec.discards_to, h.discards)):
        if not cards or rule == "none":
            continue
        if rule == "last_trick":
            seat = last_winner
        elif h.declarer < 0:
            continue   # no declarer: the rule names nobody
        elif rule == "declarer":
            seat = h.declarer
        else:   # the defenders: the declarer's first opponent in the order of play
            seat = next((state.next_seat(h.declarer, k) for k in range(1, h.players)
                         if not same_side(state, state.next_seat(h.declarer, k), h.declarer)), -1)
            if seat < 0:
                continue
        h.won_cards[seat] |= cards


def _shows_void(state: Table) -> bool:
    """Whether playing another suit than the one led shows the player void in it: unless the
    follow rules in force let him play any card (``follow_suit: false``)."""
    spec: TricksSpec = state.variant.phases[state.hand.phase]  # type: ignore[assignment]
    return not spec.special_follow or _follows(state, spec).follow_suit


def ends_early(state: Table, cond) -> bool:
    """The ``end_if`` condition after a trick: True when it holds for some score column
    (rules/boston.md [T3]: a null ends as soon as the declarer wins a trick)."""
    return any(cond(e) for e in state.score_envs())


def compile_tricks(c, name: str, p: dict, path: tuple):
    """The :class:`TricksSpec`; a dummy needs sides."""
    deck = c.deck
    lead_rules: dict = {"lead_broken": [], "lead_never": []}
    for key, out in lead_rules.items():
        for i, su in enumerate(p.get(key, ())):
            if su == "trump":
                out.append((su, -1))
            elif su in deck.suits:
                out.append((su, _suit_mask(deck, su)))
            else:
                c.err(path + (key, i), f"unknown suit {su} (expected one of {' '.join(deck.suits)} or trump)")
    broken, never = lead_rules["lead_broken"], lead_rules["lead_never"]
    first = p.get("first_trick") or {}
    masks = {}
    lead_card = -1
    if first.get("lead"):
        try:
            lead_card = deck.parse(str(first["lead"]))
        except CardError as e:
            c.err(path + ("first_trick", "lead"), str(e))
    for key in ("no_lead", "no_play"):
        m = 0
        for w in str(first.get(key, "")).split():
            if w in deck.suits:
                m |= _suit_mask(deck, w)
                continue
            try:
                m |= deck.named_mask(w)
            except CardError as e:
                c.err(path + ("first_trick", key), f"{e} (expected suits such as H or cards such as QS)")
        masks[key] = m
    spec = TricksSpec("tricks", name, p.get("lead", "eldest"), bool(p.get("must_trump", False)),
                      p.get("widow_to", "none"), bool(p.get("dummy", False)), None, tuple(broken),
                      masks["no_lead"], masks["no_play"],
                      bool(broken or never or masks["no_lead"] or masks["no_play"] or lead_card >= 0),
                      first_lead=lead_card, lead_never=tuple(never),
                      overtrump=bool(p.get("must_overtrump", False)), partner_frees=bool(p.get("partner_frees", False)),
                      lead_then=p.get("lead_then", ""),
                      first_lead_trump=bool(p.get("first_lead_trump", False)),
                      may_trump=bool(p.get("may_trump", False)),
                      top_follows=bool(p.get("top_follows", False)),
                      renege=str(p.get("renege", "")), discards_to=p.get("discards_to", "none"),
                      follow_suit=bool(p.get("follow_suit", True)), must_head=bool(p.get("must_head", False)))
    if p.get("announcements"):
        spec = dataclasses.replace(spec, announcements=ann.compile_announcements(c, p["announcements"],
                                                                               path + ("announcements",)))
        for k in ("stock", "melds", "claim"):
            if k in p:
                c.err(path + ("announcements",), f"announcements do not go with a {k}: block in the same trick "
                      f"phase yet (expected one of them)")
    spec = _compile_extras(c, p, path, spec)
    if ("lead_if" in p) != ("lead_then" in p):
        have, need = ("lead_if", "lead_then") if "lead_if" in p else ("lead_then", "lead_if")
        c.err(path + (have,), f"{have} needs {need} (expected both: the condition and who then leads)")
    if p.get("dummy") and not c.has_sides:
        c.err(path + ("dummy",), "a dummy is the declarer's partner: it needs sides "
              "(expected a top-level sides: block)")
    if p.get("partner_frees") and not c.has_sides:
        c.err(path + ("partner_frees",), "partner_frees looks at who holds the trick: it needs sides "
              "(expected a top-level sides: block)")
    if p.get("partner_frees") and not p.get("must_trump"):
        c.err(path + ("partner_frees",), "partner_frees frees a player from trumping, but nobody must trump "
              "(expected must_trump: true)")
    return spec


_ANNOUNCEMENTS_SCHEMA = {
    'description': 'Announcements a player may make at his turn to play, before his card (he then plays it; he '
                   'may make several): re, kontra, no 90 ... schwarz, a marriage shown by holding its cards. '
                   'Each is made for his side (the declaring party or the others when the hand has one, '
                   'else his side, else himself) and shows everybody his side. Formulas read, per score '
                   'column, `announced_NAME` (its side made it) and `against_NAME` (another side did).',
    'type': 'object', 'minProperties': 1,
    'propertyNames': {'pattern': '^[a-z][a-z0-9_]*$'},
    'additionalProperties': {
        'type': 'object', 'additionalProperties': False,
        'properties': {
            'say': {'description': 'The words a player says (default the name, `_` read as a space), e.g. '
                                   '`"no 90"`.', 'type': 'string', 'minLength': 1},
            'by': {'description': 'Who may make it: `any` player (default), the `declarer`, the declaring '
                                  '`party` (the declarer and his partners, or the holders of a party card) '
                                  'or the `others`.', 'enum': list(ann.BY)},
            'holds': {'description': 'Cards the announcer must hold, e.g. `"KH QH"` (a card listed twice: both '
                                     'copies); once announced they are known to be his.', 'type': 'string'},
            'until': {'description': 'Its deadline: while the announcer still holds `cards` cards or more; '
                                     'while fewer than `tricks` tricks are finished.',
                      'type': 'object', 'additionalProperties': False, 'minProperties': 1,
                      'properties': {'cards': {'description': 'Allowed while the announcer still holds this many '
                                                              'cards or more (his turn to play, before his card).',
                                               'type': 'integer', 'minimum': 0, 'maximum': 108},
                                     'tricks': {'description': 'Allowed while fewer than this many tricks are '
                                                               'finished.',
                                                'type': 'integer', 'minimum': 1, 'maximum': 108}}},
            'after': {'description': 'Announcements someone must have made before this one (a re '
                                     'after a kontra).', 'type': 'array', 'uniqueItems': True,
                      'items': {'type': 'string'}},
            'implies': {'description': 'Announcements this one makes too, those of them his side may make and '
                                       'has not made; each must itself be allowed now (`no 60` implies `no 90`, '
                                       'which implies `re` or `kontra`).', 'type': 'array', 'uniqueItems': True,
                        'items': {'type': 'string'}},
            'reply': {'description': 'It may also be made late, as an answer to the other side\'s announcements: '
                                     'while the announcer holds at least one card fewer than the deadline of '
                                     'the other side\'s strictest one (a late re or kontra). Made so, '
                                     'it counts in formulas but allows nothing that implies or follows it.',
                      'type': 'boolean'}}}}


def _compile_extras(c, p: dict, path: tuple, spec: TricksSpec) -> TricksSpec:
    """``spec`` with its ``stock:``, ``melds:`` and ``claim:`` blocks and their variables' bounds."""
    if not ({"stock", "melds", "claim"} & set(p)):
        return spec
    st = None
    if "stock" in p:
        st = _stock.compile_stock(c, p["stock"], path + ("stock",))
        after = p["stock"].get("after")
        if st is not None and after is not None:   # the follow options once the stock is out
            strict = dataclasses.replace(
                spec, follow_suit=bool(after.get("follow_suit", spec.follow_suit)),
                must_head=bool(after.get("must_head", spec.must_head)),
                must_trump=bool(after.get("must_trump", spec.must_trump)),
                overtrump=bool(after.get("must_overtrump", spec.overtrump)))
            st = dataclasses.replace(st, after=strict)
    ms = _melds.compile_melds(c, p["melds"], path + ("melds",)) if "melds" in p else None
    if ms is not None and ms.with_stock and st is None:
        c.err(path + ("melds", "only_with_stock"), "only_with_stock needs a stock to draw from "
              "(expected a stock: block in this phase)")
    cl = _claim.compile_claim(c, p["claim"], path + ("claim",)) if "claim" in p else None
    deck = c.deck
    pts = c.pts or (0,) * deck.size
    trump_pts = c.trump_pts or {}
    points = sum(max(abs(x), max((abs(v) for v in trump_pts.values()), default=0)) for x in pts)
    meld_max = 0
    if ms is not None:
        for m in ms.list:
            meld_max += len(m.combos) * m.times * max(abs(m.points), abs(m.trump_points or 0))
    return dataclasses.replace(spec, stock=st, melds=ms, claim=cl,
                               bounds=(deck.size // max(c.player_count, 1), points, meld_max))


def finish_tricks(c, spec: TricksSpec) -> TricksSpec:
    """A stock needs the deal's ``stock`` zone, dealt to be drawn in whole rounds; a card turned
    under it needs a ``turn_up`` phase turning the stock's top card; an exchange needs that card."""
    st = spec.stock
    if st is None:
        return spec
    path = ("phases", spec.name, "stock")
    deal = c.deal
    size = 0
    if deal is not None:
        if getattr(deal, "sizes", ()):   # (the rounds of the largest hand: a schedule's others draw more)
            size = c.deck.size - max(deal.sizes) * c.player_count
        else:
            size = deal.zones.get(_stock.ZONE, (0, False))[0]
    if deal is not None and not size:
        c.err(path, "there is no stock to draw from (expected a deal pattern with a stock zone, e.g. "
              "\"3 3 2 2, stock 10\", or a deal by hand_sizes)")
    elif size % c.player_count:
        c.err(path, f"the stock of {size} cards cannot be drawn in whole rounds by {c.player_count} players "
              f"(expected a multiple of {c.player_count})")
    from rulekit.engine.phases import turn_up
    turns = [p for p in c.phase_specs if p is not None and p.kind == turn_up.KIND.name
             and getattr(p, "card", "") == _stock.ZONE]
    if st.exchange is not None and (not turns or st.turned != "under"):
        c.err(path + ("exchange",), "the exchange takes the card turned under the stock: it needs a turn_up "
              "phase with card: stock (and turned: under)")
    rounds = size // c.player_count
    return dataclasses.replace(spec, later_cards=rounds) if rounds else spec


class TricksKind(PhaseKind[TricksSpec]):
    """The ``tricks`` kind (see the module docstring)."""

    name = "tricks"
    schema = {'description': 'Trick play.',
              'type': 'object',
              'additionalProperties': False,
              'required': ['kind'],
              'properties': {'kind': True,
                             'lead': {'description': 'Who leads the first trick: `declarer` (the eldest hand '
                                                     'when there is none), `declarer_left` (the player on the '
                                                     "declarer's left) or `eldest`.",
                                      'enum': ['declarer', 'declarer_left', 'eldest']},
                             'must_trump': {'description': 'A player who cannot follow suit must play a trump '
                                                           'if he has one. At no trump the `ranking.top` group '
                                                           'counts as trumps (permanent trumps), unless top '
                                                           'cards name a suit when led (`top_led: name_suit`).',
                                            'type': 'boolean'},
                             'must_overtrump': {'description': 'A player who plays a trump because he must '
                                                               '(trumps were led, or he cannot follow and '
                                                               '`must_trump`) must play one that beats every '
                                                               'card of the trick so far if he can; otherwise '
                                                               'any trump (he may undertrump).',
                                                'type': 'boolean'},
                             'partner_frees': {'description': 'With `must_trump`: a player who cannot follow '
                                                              'suit while his partner\'s card is winning the '
                                                              'trick may play any card (he need not trump). '
                                                              'Needs sides.',
                                               'type': 'boolean'},
                             'first_lead_trump': {'description': 'The suit of the first card led in the '
                                                                 'hand becomes trumps ("the first lead makes '
                                                                 'trumps"); an earlier trump '
                                                                 'choice is replaced.',
                                                  'type': 'boolean'},
                             'may_trump': {'description': 'A player who can follow a plain suit may play a '
                                                          'trump instead ("follow suit or trump").',
                                           'type': 'boolean'},
                             'top_follows': {'description': 'At no trump a top card (`ranking.top`) may be played '
                                                            'to any lead as a card of the suit led, even by a '
                                                            'player who holds that suit, unless he has failed to '
                                                            'follow it this hand; it still wins the trick.',
                                             'type': 'boolean'},
                             'widow_to': {'description': 'Where the cards left undealt (a widow, the dog, the '
                                                         'skat not taken) go at the end of play, to count in '
                                                         '`points` and tallies of won cards: `declarer`, '
                                                         '`defenders` (the declarer\'s side\'s opponents: '
                                                         'the first of them in the order of play), '
                                                         '`last_trick` (its winner) or `none` (default: '
                                                         'they count for nobody).',
                                          'enum': ['declarer', 'defenders', 'last_trick', 'none']},
                             'discards_to': {'description': 'Where the declarer\'s discards (a widow exchange, '
                                                            'cards put aside) go at the end of play, as '
                                                            '`widow_to`: `declarer`, `defenders`, `last_trick` '
                                                            'or `none` (default).',
                                             'enum': ['declarer', 'defenders', 'last_trick', 'none']},
                             'renege': {'description': 'Top trumps that need not be played to a lower trump '
                                                       'led, highest first, as a ranking of the trump suit '
                                                       '(`"5 J AH"`: the five and the jack of trumps and the '
                                                       'A♥): a player whose only trumps are such cards, each '
                                                       'higher than the trump led, may play any card; one '
                                                       'holding another trump must play a trump.',
                                        'type': 'string'},
                             'follow_suit': {'description': 'Players must follow suit (default true); '
                                                            '`false`: any card may be played to any lead '
                                                            '(while a stock is open, in games from a stock).',
                                             'type': 'boolean'},
                             'must_head': {'description': 'A player following suit must play a card that '
                                                          'beats the trick so far if he has one ("head the '
                                                          'trick"); otherwise any card of the suit.',
                                           'type': 'boolean'},
                             'stock': _stock.SCHEMA,
                             'melds': _melds.SCHEMA,
                             'claim': _claim.SCHEMA,
                             'dummy': {'description': "The declarer's partner is dummy: his hand lies face up "
                                                      'after the opening lead and the declarer plays it.',
                                       'type': 'boolean'},
                             'lead_broken': {'description': 'Suits (or `trump`) that may not be led while the '
                                                            'leader holds a card of another suit, until a card '
                                                            'of the suit has been played ("broken").',
                                             'type': 'array', 'uniqueItems': True,
                                             'items': {'type': 'string', 'pattern': '^([A-Z]|trump)$'}},
                             'lead_never': {'description': 'Suits (or `trump`) that may not be led while the '
                                                           'leader holds a card of another suit, for the whole '
                                                           'hand (never "broken"): a leader holding only that '
                                                           'suit leads it.',
                                            'type': 'array', 'uniqueItems': True,
                                            'items': {'type': 'string', 'pattern': '^([A-Z]|trump)$'}},
                             'first_trick': {'description': 'Restrictions on the first trick only: cards (or '
                                                            'whole suits, by letter) that may not be led '
                                                            '(`no_lead`) or played at all (`no_play`) unless '
                                                            'the player has no other legal card.',
                                             'type': 'object', 'additionalProperties': False,
                                             'properties': {'lead': {'type': 'string',
                                                                     'description': 'A card whose holder leads '
                                                                                    'the first trick with it, '
                                                                                    'e.g. `2C`.'},
                                                            'no_lead': {'type': 'string',
                                                                        'description': 'e.g. `"H"`.'},
                                                            'no_play': {'type': 'string',
                                                                        'description': 'e.g. `"H QS"`.'}}},
                             'end_if': {'description': 'A condition over the scoring variables, checked after '
                                                       'each trick for every score column: when it holds for '
                                                       'one, play stops and the hand is scored (e.g. '
                                                       '`"is_declarer and tricks > 0"` for a null game).',
                                        'type': 'string'},
                             'lead_if': {'description': 'A condition over the scoring variables, checked '
                                                        "before the first trick on the declarer's column: "
                                                        'when it holds, `lead_then` leads instead of `lead` '
                                                        '(e.g. `"alone"`: the player left of a lone maker '
                                                        'leads).',
                                         'type': 'string'},
                             'lead_then': {'description': 'Who leads the first trick when `lead_if` holds: '
                                                          '`declarer`, `declarer_left` or `eldest`.',
                                           'enum': ['declarer', 'declarer_left', 'eldest']},
                             'lead_pass_if': {'description': 'A condition over the scoring variables, checked '
                                                             "before the first trick on the first leader's "
                                                             'column: while it holds, the lead passes to the next '
                                                             'player (e.g. `"defends == 0 and not is_declarer"` '
                                                             'for a player who does not play this hand).',
                                              'type': 'string'},
                             'announcements': _ANNOUNCEMENTS_SCHEMA}}
    label = "play"
    role = "play"
    required = True
    position = "last"
    example = "play: {kind: tricks, lead: declarer, must_trump: false}"
    conditions = ("end_if", "lead_pass_if", "lead_if", "claim.made_if")
    compile = staticmethod(compile_tricks)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)
    legal_choices = staticmethod(legal_choices)
    choice_action = staticmethod(choice_action)
    choice_of = staticmethod(choice_of)
    apply_choice = staticmethod(play_card)  # type: ignore[assignment]  # (its card ``c`` is the choice)

    def finish(self, c, spec):
        """A stock's checks (:func:`finish_tricks`); the earlier phases that offer actions during
        trick play (``side``) and those whose kinds bind cards in it (``bound``: a called card's
        rules)."""
        from rulekit.engine.phases.registry import REGISTRY
        if spec is None:
            return spec
        spec = finish_tricks(c, spec)
        side = tuple(i for i, p in enumerate(c.phase_specs) if p is not None and REGISTRY[p.kind].in_play)
        if side:
            spec = dataclasses.replace(spec, side=side)
        bound = tuple(i for i, p in enumerate(c.phase_specs) if p is not None and REGISTRY[p.kind].binds_cards(p))
        return dataclasses.replace(spec, bound=bound, restricts=True) if bound else spec

    def set_conditions(self, spec, formulas: dict):
        """The compiled conditions into the spec; ``claim.made_if`` into its claim block."""
        made = formulas.pop("claim.made_if", None)
        if made is not None and spec.claim is not None:
            spec = dataclasses.replace(spec, claim=dataclasses.replace(spec.claim, made_if=made))
        return dataclasses.replace(spec, **formulas) if formulas else spec

    def parse(self, text: str, state: Table):
        """The words of the actions earlier phases offer during trick play (``rob 10S``), of an
        announcement (``re``, ``no 90``); ``exchange``, ``close``, ``claim``, ``meld KH QH`` in a
        phase with a stock, melds or a claim."""
        from rulekit.engine.phases.registry import REGISTRY
        spec = self.spec(state)
        for i in spec.side:
            p = state.variant.phases[i]
            own = REGISTRY[p.kind].side_parse(text, state, p)
            if own is not None:
                return own
        if spec.announcements:
            return ann.parse(text, spec.announcements)
        return _turns.parse(text, state) if spec.extras else None

    def hand_variables(self, spec, hand) -> dict:
        """``total_tricks`` of a hand dealt by a schedule of hand sizes and then drawn from the
        stock: the cards each player was dealt and drew."""
        if spec.stock is None:   # (asked at every hand's end)
            return {}
        d = self.data_of(hand)
        if d is None or not d.rounds:
            return {}
        return {"total_tricks": hand.dealt[0].bit_count() + d.rounds}

    def variables(self, spec) -> dict:
        """``announced_NAME``, ``against_NAME`` of each announcement; the variables of the stock,
        melds and claim (``closed``, ``melds``, ``claimed``...)."""
        if spec.announcements:
            return ann.variables(spec.announcements)
        return _turns.variables(spec, *spec.bounds) if spec.extras else {}

    def values(self, variant, hand, spec) -> list:
        """Per score column, from the announcements made, or the stock's, melds' and claim's
        values in ``hand`` (so far, or finished)."""
        if spec.announcements:
            return ann.values(variant, hand, spec.announcements)
        return _turns.values(variant, hand, spec) if spec.extras else []

    def observe(self, state: Table, seat: int) -> dict:
        """The announcements made (public): ``(seat, name, late)`` in order; public facts of the
        stock, melds and claim: ``stock_left``, ``turned_card``, ``closed_by``, ``melds`` (``(seat,
        cards, points)``), ``claimer``."""
        if self.name not in state.hand.phase_state:
            return {}
        if not _spec_of(state.variant).extras:
            return {"announced": [(x, name, late) for (_side, name), (x, late) in ann.made_of(state.hand).items()]}
        d = self.data_of(state.hand)
        return {"stock_left": state.hand.zones.get(_stock.ZONE, 0).bit_count(), "turned_card": d.turned,
                "closed_by": d.closed_by, "melds": [(s, m, p) for s, _i, m, p in d.melds], "claimer": d.claimer}

    def known_rows(self, obs, names: list) -> list:
        """The announcements made so far: ``announced  P1 re, no 45 · P2 kontra (late)``."""
        made = obs.phase_data.get("announced")
        spec = next((p for p in obs.variant.phases if isinstance(p, TricksSpec)), None)
        if not made or spec is None:
            return []
        say = {a.name: a.say for a in spec.announcements}
        by_seat: dict = {}
        for seat, name, late in made:
            by_seat.setdefault(seat, []).append(say.get(name, name) + (" (late)" if late else ""))
        return [("announced", " · ".join(f"{names[x]} {', '.join(w)}" for x, w in by_seat.items()))]

    def reveals(self, state: Table) -> int:
        """The seats that announced: their sides are public."""
        return ann.revealed(state.hand)

    def known_cards(self, state: Table) -> list:
        """The cards an announcement by holding showed; the stock's face-up cards, the cards each
        seat drew face up, took in exchange or declared, while he holds them."""
        spec = next((p for p in state.variant.phases if isinstance(p, TricksSpec)), None)
        if spec is None:
            return []
        if spec.announcements:
            return ann.known_cards(state, spec.announcements)
        return _turns.known(state, spec) if spec.extras else []

    def pad_question(self, spec, variant, facts, names):
        """The announcements made for each side (the declaring party and the others, or each
        score column); with a stock, melds or a claim: who closed and the figures at the close,
        the meld points declared, who claimed and whether it was made (what the formulas read)."""
        if spec.extras:
            return _pad.question(spec, variant, facts, names)
        if not spec.announcements:
            return None
        for side in ann.pad_sides(variant):
            if f"said_{side}" not in facts:
                who = ann.side_words(side, variant, names)
                return (f"said_{side}", f"announcements of {who}",
                        f"what {who} announced: {', '.join(a.say for a in spec.announcements)} (each says what it "
                        f"implies), or none")
        return None

    def pad_answer(self, spec, variant, fact, text, facts, names) -> None:
        """The words of one side's announcements, or one of the stock's, melds' or claim's facts
        (:func:`~rulekit.engine.phases.tricks_pad.answer`).

        :raises ValueError: words that are no announcement, or not that side's; an impossible fact."""
        if spec.extras:
            _pad.answer(spec, variant, fact, text, facts, names)
            return
        if not fact.startswith("said_"):
            raise ValueError(f"{fact} is not a fact of this phase")
        side = fact[len("said_"):]
        facts[fact] = ann.pad_read(spec.announcements, int(side) if side.isdigit() else side, text)

    def pad_values(self, spec, variant, facts, contract, won) -> list:
        """Per score column, from the announcements typed, or the blocks' variables from the typed
        facts."""
        if spec.extras:
            return _pad.values(spec, variant, facts, won)
        return ann.pad_values(variant, spec.announcements, facts) if spec.announcements else []

    def pad_facts(self, spec, variant, hand) -> dict:
        """Each side's announcements as typed; the answers a scorer types for a played hand with a
        stock, melds or a claim."""
        if spec.extras:
            names = list(variant.seat_names or [f"P{i}" for i in range(variant.players)])
            return _pad.typed(spec, variant, hand, names)
        return ann.pad_facts(variant, hand, spec.announcements) if spec.announcements else {}

    def pad_tricks(self, spec, variant, facts: dict):
        """How the tricks add up after a close or a claim (:func:`~rulekit.engine.phases.tricks_pad.tricks_total`)."""
        return _pad.tricks_total(spec, variant, facts) if spec.extras else None

    def no_effect(self, c, p: dict, path: tuple) -> None:
        """``widow_to: last_trick`` when no deal pattern puts cards aside; ``top_follows`` without
        ``ranking.top``; ``must_head`` without following; an empty ``stock.after``; ``stock.turned``
        when no phase turns the stock's top card."""
        if p.get("widow_to") in ("last_trick", "declarer", "defenders") and c.deal is not None and not c.any_zone():
            c.warn(path + ("widow_to",), "has no effect: the deal leaves no cards aside")
        if p.get("top_follows") and not c.d.get("ranking", {}).get("top"):
            c.warn(path + ("top_follows",), "has no effect without ranking.top (no card is above the suits)")
        if p.get("must_head") and p.get("follow_suit") is False:
            c.warn(path + ("must_head",), "has no effect with follow_suit: false (nobody must follow suit)")
        after = (p.get("stock") or {}).get("after")
        if after is not None and not after:
            c.warn(path + ("stock", "after"), "has no effect: it changes no follow option")
        phases = c.d.get("phases") or {}
        from rulekit.engine.phases import turn_up
        turned = any(isinstance(q, dict) and q.get("kind") == turn_up.KIND.name and q.get("card") == _stock.ZONE
                     for q in phases.values())
        if "turned" in (p.get("stock") or {}) and not turned:
            c.warn(path + ("stock", "turned"), "has no effect: no phase turns the stock's top card "
                   "(expected a turn_up phase with card: stock)")

    def strains(self, spec, deck) -> set:
        """Every suit when the first lead makes trumps."""
        return set(deck.suits) if spec.first_lead_trump else set()

    def pad_trump_choices(self, spec, variant, contract) -> tuple | None:
        """Any suit when the first lead makes trumps, whatever the contract."""
        return tuple(variant.deck.suits) if spec.first_lead_trump else None

    def pad_trump_played(self, spec, variant) -> str:
        """The first card led makes trumps: a trump is always played."""
        return "the first card led made trumps, so a trump was in play" if spec.first_lead_trump else ""

    def lead_makes_trumps(self, spec) -> bool:
        """``first_lead_trump``: the suit of the first card led becomes trumps."""
        return spec.first_lead_trump

    def later_cards(self, spec) -> int:
        """The cards each player draws from the stock in a hand (its rounds of draws)."""
        return spec.later_cards

    def ends_play_if(self, spec):
        """``end_if``."""
        return spec.end_if

    def ranking_options(self, spec) -> dict:
        """``top_follows`` and ``renege``."""
        return {"top_follows": spec.top_follows, "renege": spec.renege}

    def gives_aside(self, spec) -> tuple[bool, bool]:
        """``widow_to`` and ``discards_to``: the cards aside and the discards go to a player at
        the end of play."""
        return (spec.widow_to not in ("none", ""), spec.discards_to not in ("none", ""))

    def trump_words(self, spec, hand) -> str | None:
        """``trumps: the first card led`` until the first lead of a hand whose first lead makes
        trumps."""
        if spec.first_lead_trump and hand.trump == "NT" and not hand.tricks and not hand.trick:
            return "trumps: the first card led"
        return None

    def show(self, data, variant, names=None) -> list:
        """The stock: how many cards, the card turned under it, closed (public)."""
        spec = _spec_of(variant)
        return _stock.rows(data, variant) if spec.stock is not None else []

    def seat_rows(self, obs, names: list) -> list:
        """The melds declared so far and who closed the stock (public), for the table."""
        d = obs.phase_data
        out = []
        if d.get("melds"):
            deck = obs.variant.deck
            out.append(("melds", "; ".join(f"{names[s]} " + " ".join(deck.pretty(c) for c in bits(m)) + f" {p}"
                                           for s, m, p in d["melds"])))
        return out

    def note(self, spec, variant, envs: list, columns: list) -> str:
        """``P0 claimed (made)``, ``P1 closed``, ``melds P0 40``: the hand's claim, close and melds."""
        if not spec.extras:
            return ""
        out = []
        for col, e in zip(columns, envs):
            x = e.vars
            if x.get("closed"):
                out.append(f"{col} closed")
            if x.get("claimed"):
                out.append(f"{col} claimed ({'made' if x.get('claim_made') else 'failed'})")
        melds = [f"{col} {e.vars['melds']}" for col, e in zip(columns, envs) if e.vars.get("melds")]
        if melds:
            out.append("melds " + " ".join(melds))
        return ", ".join(out)

    def said(self, spec, hand, variant, seat: int, text: str, names: list):
        """``announces no 90``; ``exchanges J♥ for the turned 10♥``, ``closes the stock``, ``declares K♥ Q♥
        (marriage, 40)``, ``claims: made``."""
        if spec.kind != KIND.name:
            return None
        if spec.announcements and any(a.say == text for a in spec.announcements):
            return Said(seat, f"announces {text}", f"announce {text}")
        if not spec.extras or text.split()[0] not in _turns.WORDS:
            return None
        return _turns.said(spec, hand, variant, seat, text)

    def help_line(self, spec, variant) -> str:
        """Card play, suit naming by a led top card, the dummy; the stock, melds and claim."""
        forms = ["play CARD or just CARD (e.g. QS, 10H)"]
        if spec.announcements:
            forms.append("before your card, an announcement while it is allowed: "
                         + ", ".join(a.say for a in spec.announcements))
        if spec.extras:
            forms.append(_turns.help_words(spec))
        if any(ctx.top_names_suit for ctx in variant.contexts.values()):
            forms.append("a led top card names the suit to follow: play JK H (or JK H)")
        if spec.dummy:
            forms.append("the declarer also types the dummy's cards on the dummy's turn")
        return "; ".join(forms)

    def describe_in(self, spec, variant) -> str:
        """:meth:`describe` naming the suits and cards of the lead rules, and without trumps
        when the variant has none (user pass 2, finding 6)."""
        return self.describe(spec, variant)

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``play CARD SUIT`` for each top card that names a suit when led ([T4]) under some
        trump context, with each suit; the stock's ``exchange`` and ``close``, ``meld CARDS``
        for every combination of the melds list, ``claim``; each announcement's words."""
        tops: set = set()
        top = len(variant.deck.suits)
        for ctx in (*variant.contexts.values(), *variant.low_contexts.values()):
            if ctx.top_names_suit:
                tops.update(c for c in range(variant.deck.size) if ctx.group_of[c] == top)
        words = [f"play {variant.deck.name(c)} {s}" for c in sorted(tops) for s in variant.deck.suits]
        words += [a.say for a in spec.announcements]
        if spec.stock is not None:
            words += [_turns.EXCHANGE.text, _turns.CLOSE.text]
        if spec.melds is not None:
            masks = dict.fromkeys(m for meld in spec.melds.list for m, _suit in meld.combos)
            words += [_turns.meld_action(variant.deck, m).text for m in masks]
        if spec.claim is not None:
            words.append(_turns.CLAIM.text)
        return tuple(words)

    def describe(self, spec, variant=None) -> str:
        """One sentence; with ``variant`` the restricted suits and cards are named (``hearts``,
        ``the 2♣``), else they are said by their setting."""
        deck = variant.deck if variant is not None else None
        trumps = variant is None or any(ctx.trump_group is not None for ctx in variant.contexts.values())

        def suits(rule, setting: str) -> str:   # ``hearts``, ``trumps``
            if deck is None:
                return f"a suit of `{setting}`"
            words = ["trumps" if su == "trump" else SUIT_NAMES.get(su, su) for su, _m in rule]
            return " and ".join(words)

        def cards(mask: int) -> str:   # whole suits by name, other cards by their faces
            if deck is None:
                return "the cards of `first_trick`"
            words = []
            for su in deck.suits:
                m = _suit_mask(deck, su)
                if m and mask & m == m:
                    words.append(SUIT_NAMES.get(su, su))
                    mask &= ~m
            words += ["the " + deck.pretty(c) for c in bits(mask)]
            return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
        who = {"declarer": "the declarer", "declarer_left": "the declarer's left-hand opponent"}
        lead = who.get(spec.lead, "the eldest hand")
        if spec.lead_if is not None:
            lead += (f" ({who.get(spec.lead_then, 'the eldest hand')} instead when "
                     f"`{spec.lead_if.text}` holds for the declarer)")
        dummy = "; the declarer's partner is dummy, face up after the opening lead" if spec.dummy else ""
        end = ""
        if spec.end_if is not None:  # the condition in words, as the scoring formulas are said
            end = f"; play stops at once after a trick as soon as {formula_words(spec.end_if.text)} (`{spec.end_if.text}`)"
        if spec.lead_pass_if is not None:
            lead += " (or, when a condition holds for him, the next player)"
        other = ("he must play a trump if he has one" if spec.must_trump
                 else "he may play any card, a trump or a discard" if trumps else "he may play any card")
        if spec.must_trump and spec.partner_frees:
            other += ", unless his partner's card is winning the trick (then he may play any card)"
        if spec.may_trump:
            other += "; a player who can follow a plain suit may play a trump instead"
        if spec.top_follows:
            other += ("; at no trump a card ranked above the suits may be played to any lead as a card of "
                      "the suit led, unless its holder has failed that suit, and it wins")
        if spec.first_lead >= 0:
            lead = ("the holder of the card named by `first_trick.lead`, leading that card," if deck is None
                    else f"the holder of the {deck.pretty(spec.first_lead)}, leading it,")
        rules = []
        if spec.renege:
            rules.append(f"When a trump is led, the top trumps {spec.renege} need not be played to it if they are "
                         f"higher than the trump led (reneging): a player whose only trumps are such cards may play "
                         f"any card; one who holds another trump must play a trump.")
        for key, what in (("widow_to", "the cards left undealt"), ("discards_to", "the declarer's discards")):
            to = getattr(spec, key)
            if to != "none":
                rules.append(f"At the end of play {what} count for "
                             + {"declarer": "the declarer", "defenders": "the defenders",
                                "last_trick": "the winner of the last trick"}[to] + ".")
        if spec.overtrump:
            rules.append("A player who must play a trump (trumps were led, or he has to trump) must play one "
                         "higher than every card already in the trick if he can; if he cannot, any trump.")
        if spec.first_lead_trump:
            rules.append("The suit of the first card led in the hand becomes trumps for the hand.")
        if spec.lead_broken:
            rules.append(_cap(f"{suits(spec.lead_broken, 'lead_broken')} may not be led until a card of the suit "
                              "has been played, "
                              "unless the leader holds nothing else."))
        if spec.lead_never:
            rules.append(_cap(f"{suits(spec.lead_never, 'lead_never')} may not be led at any time while the leader "
                              "holds another suit."))
        if spec.first_no_lead or spec.first_no_play:
            both = spec.first_no_lead == spec.first_no_play or not spec.first_no_lead or not spec.first_no_play
            if both:
                verb = ("led or played" if spec.first_no_lead == spec.first_no_play
                        else "led" if spec.first_no_lead else "played")
                said = f"{cards(spec.first_no_lead or spec.first_no_play)} may not be {verb}"
            else:
                said = (f"{cards(spec.first_no_lead)} may not be led and {cards(spec.first_no_play)} "
                        f"may not be played")
            rules.append(f"On the first trick {said} unless the player holds no other card he may play.")
        best = ("The highest trump wins the trick, or if none was played the highest card of the suit led"
                if trumps else "The highest card of the suit led wins the trick")
        if spec.announcements:
            rules.append(ann.describe(spec.announcements, deck))
        follow = (f"Each player must follow suit (play a card of the suit led) if he can"
                  f"{', with a card that beats the trick if he has one' if spec.must_head else ''}; if he cannot, "
                  f"{other}." if spec.follow_suit else "A player may play any card, whatever was led.")
        if spec.stock is not None:
            rules.append(_stock.describe(spec.stock, spec))
        if spec.melds is not None:
            rules.append(_melds.describe(spec.melds, variant))
        if spec.claim is not None:
            rules.append(_claim.describe(spec.claim, spec.claim.made_if.text if spec.claim.made_if is not None
                                         else "`claim.made_if`"))
        return (f"Trick play: {lead} leads to the first trick, and each other player in turn clockwise plays "
                f"one card. {follow} {best}; the winner of a trick leads to the next{dummy}{end}."
                + "".join(" " + r for r in rules))


def _spec_of(variant) -> TricksSpec:
    """The variant's trick phase (a hand has exactly one)."""
    return next(p for p in variant.phases if p.kind == KIND.name)  # type: ignore[return-value]


def _cap(text: str) -> str:
    """``text`` with a capital first letter."""
    return text[:1].upper() + text[1:]


KIND = TricksKind()
