"""The compiled variant: immutable data the engine reads, nothing it must parse.

:class:`Variant` holds the deck, one :class:`Context` table per trump choice,
the phase specs, the scoring and match specs with their compiled formulas.
:mod:`rulekit.variant.compiler` builds it from a resolved document; this
module also names the variables scoring formulas may read.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from rulekit.cards import Deck, bits
from rulekit.contracts import NT, Bid, Contract, LadderBid
from rulekit.dsl import Formula
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases.base import PhaseSpec

T = TypeVar("T")


@dataclass(frozen=True)
class Context:
    """Trick-taking tables for one trump choice (a suit letter or ``NT``).

    Groups are the effective suits: ``0..len(suits)-1`` for the suits (a left
    bower or a joker joins the trump suit's group), ``len(suits)`` for the *top* group
    (cards above every suit at no trump), ``len(suits) + 1`` for the idle group (cards that
    follow no suit and never win: a led one leaves the suit to the next card) and
    ``len(suits) + 2`` for the free group (suitless cards that, led, leave every player free:
    a Wizard).

    :ivar name: ``"S"``, ``"H"``, ... or ``"NT"``.
    :ivar group_of: card -> group index.
    :ivar strength: card -> strength, higher wins, compared within a group.
    :ivar group_mask: group -> bitmask of its cards.
    :ivar trump_group: the group that beats every other (trump suit or top group), or ``None``.
    :ivar trump_suit_group: the group a player who cannot follow must play with ``must_trump``:
        the trump suit's, or at no trump a top group of permanent trumps (rules/rams.md [J1]);
        ``None`` when there is none, or when the top cards name a suit when led (a wild card,
        rules/fivehundred.md [R3]).
    :ivar top_names_suit: a led top card makes the leader name a suit to follow ([T4]).
    :ivar display_order: cards in display order (trump group first, then suits, high to low).
    :ivar win_keys: per led group, card -> key (a card that always wins 3000 + strength, trumps
        1000 + strength, the led group its strength, others and cards that never win -1): the
        highest key wins the trick (the first played of equal keys, or the last for the cards
        of ``last_wins``).
    :ivar points: card -> card points under this trump choice: ``deck.card_points`` (or the
        contract group's), with the trump suit's cards counted by ``deck.trump_points`` where it
        names their rank; ``()`` in a table built by hand (then :attr:`Variant.card_points` counts).
    :ivar low: the tables of a low-wins contract (the contract group ``low``, from
        ``ranking.low``: the strengths follow that ranking, so the same ``win_keys`` comparison
        makes low cards win).
    :ivar idle_group: ``len(suits) + 1`` when some cards follow no suit and never win
        (``ranking.powerless``, or a suitless card of ``ranking.special`` that leaves the suit
        to the next card), else -1.
    :ivar group: the contract group these tables belong to (``""``: the base ranking).
    :ivar free_group: ``len(suits) + 2`` when some suitless card, led, leaves every player free
        to play any card, else -1.
    :ivar special: some rule beyond following the led group applies (cards of the masks below,
        idle or free groups): trick play then takes its general path (a hot-path flag).
    :ivar free: cards that may be played whatever was led (``follows: any``); ``free_unfailed``
        those that may unless their holder has failed the suit led (``top_follows``).
    :ivar last_wins: cards of which, between equal cards, the last played wins.
    :ivar kept: cards their owner's side keeps though another side wins the trick (the
        Excuse); ``kept_always`` those kept on the last trick too; ``exchange`` the card points
        the owner's side gives the trick's winner for one.
    :ivar slam: cards that win the last trick when led by a side that won every earlier trick.
    :ivar renege: top trumps that need not be played to a lower trump led (``renege``).
    :ivar widow_to, discards_to: the contract group's own destination of the cards left
        undealt / the declarer's discards (``contract_groups.NAME.widow_to``), or ``""``.
    """

    name: str
    group_of: tuple
    strength: tuple
    group_mask: tuple
    trump_group: int | None
    trump_suit_group: int | None
    top_names_suit: bool
    display_order: tuple
    win_keys: tuple = ()
    points: tuple = ()
    low: bool = False
    idle_group: int = -1
    group: str = ""
    free_group: int = -1
    special: bool = False
    free: int = 0
    free_unfailed: int = 0
    last_wins: int = 0
    kept: int = 0
    kept_always: int = 0
    exchange: int = 0
    slam: int = 0
    renege: int = 0
    widow_to: str = ""
    discards_to: str = ""

    @cached_property
    def orders(self) -> tuple[tuple[int, ...], ...]:
        """Per group, its cards from the strongest down (the first of equals in card order);
        computed once, on first use."""
        return tuple(tuple(sorted(bits(m), key=lambda c: -self.strength[c])) for m in self.group_mask)


@dataclass(frozen=True)
class PartSpec:
    """One part of a side-scored entry (``below``/``above`` the line, ``tricks``, ``honours``...).

    :ivar name: the part's name.
    :ivar game: its points count toward winning a game.
    :ivar declarer, defender, each: formulas, like :class:`ScoringSpec`'s.
    """

    name: str
    game: bool
    declarer: Formula | None
    defender: Formula | None
    each: Formula | None


@dataclass(frozen=True)
class TallySpec:
    """A count of chosen cards for a scoring formula (honours, pictures).

    :ivar name: the variable it defines.
    :ivar ranks: rank tokens counted.
    :ivar trump_only: count only cards of the trump suit (0 at no trump).
    :ivar where: ``hand`` (the most in one dealt hand of the side), ``side_hands``
        (the side's dealt hands together) or ``tricks`` (cards in the side's won tricks).
    :ivar mask: the cards counted (from ``cards``, or ``ranks`` times ``suits``), or -1 when
        they depend on the trump suit (``trump_only``).
    :ivar tricks: with ``where == "tricks"``, only these tricks count: 0-based indices into a
        full hand's tricks (from ``tricks: [1, -1]``, 1-based, negative from the end); empty: all.
    :ivar count: ``cards`` (the cards counted) or ``tricks`` (the won tricks holding one of them).
    :ivar most: the highest value the tally can take (for the formula bounds checks).
    :ivar pick: ``highest`` / ``lowest``: only the highest (lowest) of its cards in play
        counts (All Fours' High and Low); ``""``: all of them.
    :ivar group: with ``trump_only`` and no ``ranks`` given: every card of the trump group (the
        trump suit and the cards ranked among its trumps: a bower, the A♥ of Forty-Five).
    :ivar led: count only the card led to each trick (``led: true``).
    :ivar worth: with ``where == "tricks"``, only the tricks holding at least this many card
        points count (0: every trick).
    :ivar won_by: a mask: only the tricks won by one of these cards count (0: every trick).
    :ivar from_others: only the cards played by seats outside the column's side (or party).
    :ivar party: ``""`` (the column's own seats), ``own`` (its whole party this hand: the
        declaring party or the others), ``declaring`` (the declaring party, alike in every
        column) or ``others`` (the seats outside it, alike in every column).
    """

    name: str
    ranks: tuple
    trump_only: bool
    where: str
    mask: int = -1
    tricks: tuple = ()
    count: str = "cards"
    most: int = 0
    pick: str = ""
    group: bool = False
    led: bool = False
    worth: int = 0
    won_by: int = 0
    from_others: bool = False
    party: str = ""

    @property
    def by_trick(self) -> bool:
        """Whether the tally looks at each won trick (its number, its led card, its worth, its
        winning card or who played its cards), not at the won cards together."""
        return bool(self.tricks or self.count == "tricks" or self.led or self.worth or self.won_by
                    or self.from_others)


@dataclass(frozen=True)
class ScoringSpec:
    """Per-hand scoring formulas (evaluated for each player).

    :ivar each: entry of every player, or ``None``.
    :ivar declarer, defender: entries when there is a contract.
    :ivar no_contract: entries when all passed and the hand was played.
    :ivar void_if: condition that voids the hand.
    :ivar lower_is_better: totals are penalties.
    """

    each: Formula | None
    declarer: Formula | None
    defender: Formula | None
    no_contract: Formula | None
    void_if: Formula | None
    lower_is_better: bool
    made: Formula | None
    by_side: bool = False
    parts: tuple = ()
    tallies: tuple = ()
    against_declarer: Formula | None = None
    start: int = 0
    markers: tuple = ()
    counters: tuple = ()
    matadors: MatadorSpec | None = None


@dataclass(frozen=True)
class MatadorSpec:
    """``scoring.matadors``: the formula variables ``matadors`` (the length of the unbroken run
    of top trumps, in the contract's trump order, that the declarer's side holds or lacks) and
    ``with_matadors`` (it holds the top trump), counted on the cards as dealt plus ``zones`` as
    dealt (docs/rules/skat.md [SK-V3]; :mod:`rulekit.engine.phases.matadors`).

    :ivar zones: zone names whose dealt cards count for the declarer (Skat's ``widow``).
    :ivar side: ``declarer`` (his cards alone) or ``party`` (his partner's too).
    """

    zones: tuple = ()
    side: str = "declarer"


@dataclass(frozen=True)
class CounterSpec:
    """A counter carried across deals per score column (``scoring.counters``, e.g. bags):
    each hand adds ``add``; each time it reaches ``every`` it drops by ``every`` and the
    hand's entry gets ``score`` (``every`` 0: no threshold)."""

    name: str
    add: Formula
    every: int = 0
    score: int = 0


@dataclass(frozen=True)
class MarkerSpec:
    """A marker written for every column when a deal is thrown in (a refe, rules/preferans.md
    [R1] [R2]): at most ``most`` per column, none for a column whose total is below
    ``not_below``; the declarer's next hand with an unplayed one is worth ``factor`` times
    (the formula variable ``name``)."""

    name: str
    most: int
    factor: int
    not_below: int | None


@dataclass(frozen=True)
class MatchSpec:
    """How a match ends: target score, loss floor, immediate win, tie rules, deal count,
    and games grouped into rubbers (rules/bridge.md [S2] [S8], whist.md [S3]-[S6]).

    :ivar game_target: points of game parts since the last line that win a game.
    :ivar game_value: formula of ``their_points`` giving the winner's game points, or None.
    :ivar rubber_games: games that win a rubber; ``rubber_bonus`` formula of ``their_games``;
        ``bonus_to``: ``points`` (a row above the line) or ``game_points``.
    :ivar rubbers: rubbers in a match.
    :ivar result: ``points`` or ``game_points``: what decides the winner.
    :ivar unfinished_game, unfinished_part: bonuses for an unfinished rubber ([S9]).
    :ivar settle: formula of ``difference`` (points) giving the settlement ([S10]).
    :ivar max_hands: deals after which an unfinished match stops, the best total winning
        (every match ends; thrown-in deals count).
    :ivar count_order: formulas of the hand's points in the order they count, for the
        ``count_order`` tie break (All Fours: High, Low, Jack, Game).
    :ivar rubbers_to_win: the first column to win this many rubbers wins the match
        (rules/whist.md), instead of a fixed number of ``rubbers``; or ``None``.
    :ivar target_if: a column at the ``target`` wins only on a hand where this formula holds
        in its context (``is_declarer and made``: only by a bid made); ``None``: always.
    """

    target: int | None
    lose_at: int | None
    immediate_win: Formula | None
    ties: tuple
    deals: int | None
    game_target: int | None = None
    game_value: Formula | None = None
    rubber_games: int | None = None
    rubber_bonus: Formula | None = None
    bonus_to: str = "points"
    rubbers: int | None = None
    result: str = "points"
    unfinished_game: int = 0
    unfinished_part: int = 0
    settle: Formula | None = None
    max_hands: int = 1000
    rubbers_to_win: int | None = None
    sum_at_most: int | None = None
    final: Formula | None = None
    count_order: tuple = ()
    target_if: Formula | None = None


@dataclass(frozen=True)
class Variant:
    """A compiled variant: everything the engine needs, nothing it must parse.

    :ivar id: variant id.
    :ivar name: human name.
    :ivar players: number of seats.
    :ivar deck: the :class:`~rulekit.cards.Deck`.
    :ivar card_points: card -> points (tuple indexed by card).
    :ivar contexts: strain -> :class:`Context`.
    :ivar low_contexts: strain -> :class:`Context` of a low-wins contract (``ranking.low``),
        or empty when the variant has none.
    :ivar group_contexts: contract group -> strain -> :class:`Context`: ``""`` the base ranking
        (:attr:`contexts`), ``low`` (:attr:`low_contexts`) and each of ``contract_groups``.
    :ivar phases: phase specs in order.
    :ivar scoring: :class:`ScoringSpec`.
    :ivar match: :class:`MatchSpec`.
    :ivar hash: sha256 of the merged document and settings (records carry it).
    :ivar data: the merged document (plain data), for records and ``explain``.
    :ivar settings: chosen settings (``players``).
    :ivar seat_names: seat names (``N E S W``); ``sides`` seats of each side, ``side_names``,
        ``side_of`` (seat -> side index); ``vulnerability`` the compiled rule;
        ``home_seat`` the seat a lone human takes by default; ``sheet_layout`` how the score
        sheet is drawn (``columns`` or ``we_they``, the ``sheet:`` key; rulekit/sheets/).
    :ivar rounds: the round schedule (the ``rounds:`` key), expanded: one compiled
        :class:`Variant` per deal of the match, each the base rules overlaid with its round's
        (same ``id``, ``hash`` and ``data`` as this one); ``()`` without a schedule.
    :ivar round_name, objective: a round's name and objective (``""`` outside a schedule).
    :ivar step: the direction of play (the ``direction:`` key): ``1`` clockwise (the next
        player is the next seat number), ``-1`` counter-clockwise.
    :ivar cache: tables the layers above build from this variant once, on first use
        (:meth:`cached`): the one mutable part of a ``Variant``, never compared, copied or shown.
    """

    id: str
    name: str
    source: str
    players: int
    deck: Deck
    card_points: tuple[int, ...]
    contexts: dict[str, Context]
    first_dealer: dict[str, Any]
    rotation: int
    phases: tuple[PhaseSpec, ...]
    scoring: ScoringSpec
    match: MatchSpec
    hash: str
    data: dict[str, Any] = field(repr=False)
    settings: dict[str, Any] = field(default_factory=dict)
    files: tuple[str, ...] = ()
    seat_names: tuple[str, ...] = ()
    sides: tuple[tuple[int, ...], ...] = ()
    side_names: tuple[str, ...] = ()
    side_of: tuple[int, ...] = ()
    vulnerability: tuple[str, ...] = ()
    home_seat: int = 0
    sheet_layout: str = "columns"
    rounds: tuple[Variant, ...] = ()
    round_name: str = ""
    objective: str = ""
    step: int = 1
    low_contexts: dict[str, Context] = field(default_factory=dict)
    group_contexts: dict[str, dict[str, Context]] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def cached(self, key: str, build: Callable[[], T]) -> T:
        """The table ``key`` of this variant, built by ``build()`` on the first call.

        Bound: each key is a constant of the module that builds its table, named
        ``module.table`` (``scoring.memo``), so a variant holds one entry per such constant;
        a table that grows with play (the score memo, a bot's values of outcomes) keeps its own
        bound.  The tables depend on the variant alone (``dataclasses.replace`` starts a new
        variant with an empty cache).
        """
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = build()
        return hit

    def context(self, strain: str, group: str = "") -> Context | None:
        """The tables of trump choice ``strain`` in contract group ``group`` (``""``: the base
        ranking), or ``None`` when the game cannot reach it."""
        if not group:
            return self.contexts.get(strain)
        return self.group_contexts.get(group, {}).get(strain)

    @property
    def player_choices(self) -> list[int]:
        """The player counts the file offers, smallest first (``[3, 4]`` for ``players:
        {choices: [3, 4]}``), else ``[players]``."""
        p = self.data.get("players")
        if isinstance(p, dict) and isinstance(p.get("choices"), list):
            return sorted(x for x in p["choices"] if isinstance(x, int))
        return [self.players]

    def next_seat(self, seat: int, k: int = 1) -> int:
        """The seat ``k`` turns after ``seat`` in the direction of play (``k`` may be negative
        or zero); every move to "the next player" goes through here."""
        return (seat + k * self.step) % self.players

    def auction(self) -> Any:
        """The first auction phase spec (a kind whose role is ``auction``: its ``bids``,
        ``strains``, ``all_pass``), or ``None``."""
        for p in self.phases:
            if REGISTRY[p.kind].role == "auction":
                return p
        return None

    @cached_property
    def has_card_points(self) -> bool:
        """True when some card counts points in won tricks (under some trump choice); read
        at every hand's end, so computed once."""
        return any(self.card_points) or any(any(c.points) or c.exchange for g in (self.group_contexts or {"": self.contexts}).values()
                                            for c in g.values())

    def points_table(self, ctx: Context | None) -> tuple:
        """Card -> points under the trump choice ``ctx`` (its own table, e.g. with
        ``deck.trump_points``), or :attr:`card_points` without one."""
        return ctx.points if ctx is not None and ctx.points else self.card_points

    def points_total(self, trump: str | None = None) -> int:
        """The card points in the whole deck when ``trump`` is trumps; unknown trumps: the
        most under any trump choice (every suit gives the same total in the usual tables)."""
        if trump is not None:
            return sum(self.points_table(self.contexts.get(trump)))
        return max([sum(self.card_points)] + [sum(c.points) for g in (self.group_contexts or {"": self.contexts}).values()
                                              for c in g.values()])

    @property
    def hand_size(self) -> int:
        """Cards per player after the deal."""
        d: Any = next(p for p in self.phases if REGISTRY[p.kind].role == "deal")
        if d.sizes:  # a schedule of hand sizes: the largest (and cards drawn later from a stock)
            return max(d.sizes) + sum(REGISTRY[p.kind].later_cards(p) for p in self.phases)
        # a phase may deal more cards later (order_up's deal_rest)
        return sum(s.count * s.repeat for s in d.steps if not s.zone) + \
            sum(REGISTRY[p.kind].later_cards(p) for p in self.phases)

    def phase(self, kind: str) -> Any:
        """The first phase spec of ``kind``, or ``None``."""
        for p in self.phases:
            if p.kind == kind:
                return p
        return None


# Variables a per-player scoring formula may read.
BASE_NAMES = ("players", "total_tricks", "tricks", "points", "seat", "is_declarer", "has_contract",
              "trump", "vulnerable", "game_score", "total", "highest_other_total", "lowest_other_total", "deal_number", "dealer",
              "is_dealer")
CONTRACT_NAMES = BASE_NAMES + ("level", "strain", "declarer_tricks", "declarer_points", "doubled",
                               "redoubled", "declarer_vulnerable", "is_partner", "has_partner", "is_defender",
                               "side_tricks", "low_wins", "declarer_total")

# The kind of value of each variable a formula may read (``num`` a number, ``bool`` a
# condition, ``const`` a constant such as H or NT); names not listed are ``any``.
NAME_TYPES = {"players": "num", "total_tricks": "num", "tricks": "num", "points": "num", "seat": "num",
              "is_declarer": "bool", "has_contract": "bool", "trump": "const", "level": "num",
              "strain": "num", "declarer_tricks": "num", "declarer_points": "num", "vulnerable": "bool",
              "game_score": "num", "doubled": "bool", "redoubled": "bool", "declarer_vulnerable": "bool",
              "is_partner": "bool", "has_partner": "bool", "is_defender": "bool", "side_tricks": "num",
              "low_wins": "bool", "total": "num", "declarer_total": "num", "highest_other_total": "num",
              "lowest_other_total": "num", "deal_number": "num", "dealer": "num", "is_dealer": "bool",
              "matadors": "num", "with_matadors": "bool"}
#: the formula variables of ``scoring.matadors``
MATADOR_NAMES = ("matadors", "with_matadors")


__all__ = ["CounterSpec", "Context", "MarkerSpec", "MatadorSpec", "MATADOR_NAMES", "MatchSpec", "PartSpec", "ScoringSpec", "TallySpec", "Variant",
           "BASE_NAMES", "CONTRACT_NAMES", "NAME_TYPES",
           # the contract values, for the compiler and rulekit.variant (defined in rulekit.contracts)
           "NT", "Bid", "Contract", "LadderBid"]
