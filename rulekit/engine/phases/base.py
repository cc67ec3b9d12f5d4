"""The phase-kind seam: everything the rest of rulekit knows about one kind of phase.

A phase kind (``deal``, ``tricks``, ``ladder_auction``...) is one subclass of
:class:`PhaseKind`, registered by its ``name`` (the ``kind:`` word of a variant
file) with :func:`rulekit.engine.phases.register`.  The schema, the compiler,
:class:`~rulekit.engine.state.State`, observations, the bots, the CLI and the
docs generator all ask the registry, so a new kind is one module (see
docs/architecture.md, "Adding a phase kind").

Rules of the engine a kind must keep:

* A kind knows the match only through the facade :class:`~rulekit.engine.phases.table.Table`
  its hooks receive: ``start`` / ``apply`` change only the hand (``state.hand``) and call the
  facade's helpers (``set_trump``, ``throw_in``, ``partner_of``...); they never advance the
  phase themselves (returning True does).
* A kind's own changing data is one small dataclass deriving from
  :class:`~rulekit.engine.hand.KindData`, created by ``start`` in
  ``state.hand.phase_state[kind.name]`` and read back with :meth:`PhaseKind.data` (by any other
  layer with :meth:`PhaseKind.data_of`), never new ``Hand`` slots: ``Hand.clone`` clones it.
* Bots' choices are not the kind's: its policy, if any, lives in ``rulekit/bots/policies/``.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from rulekit.cards import Deck
from rulekit.engine.actions import Action
from rulekit.engine.hand import Hand
from rulekit.engine.phases.table import Table
from rulekit.errors import CardError, IllegalActionError

#: ``worth_words(variant, contract, seat) -> str | None``: what a contract scores made, as the
#: prompt's ``(worth N)`` says it (``160``, ``at least 20``), for the words of ``describe_in``; set
#: by :mod:`rulekit.engine.scoring` (a layer above the kinds), empty until it is imported.
WORTH_WORDS: list = []

if TYPE_CHECKING:  # pragma: no cover - for annotations only (rulekit.TYPE_ONLY)
    from rulekit.variant.model import Variant

Path = tuple
"""A document path such as ``("phases", "bidding", "levels", 0)``."""


@dataclass(frozen=True)
class PhaseSpec:
    """The compiled entry of one phase, as every kind's spec starts: each kind's spec is a
    frozen dataclass deriving from this one, in the kind's own module.

    :ivar kind: the ``kind:`` word, the key of its :class:`PhaseKind` in the registry.
    :ivar name: the phase's name in the variant file (``bidding``, ``play``).
    """

    kind: str
    name: str


SpecT = TypeVar("SpecT", bound=PhaseSpec)
"""The spec class of a kind (``PhaseKind[TricksSpec]``)."""


class CompileHelpers(Protocol):
    """What the variant compiler offers a kind's :meth:`PhaseKind.compile`.

    :ivar deck: the variant's :class:`~rulekit.cards.Deck`.
    :ivar player_count: the number of seats chosen.
    :ivar kinds: the ``kind`` of every phase of the document, in order.
    :ivar deal: the first compiled ``deal`` spec so far (or ``None``).
    :ivar has_sides: the document has a top-level ``sides:`` block.
    :ivar phase_specs: every phase's compiled spec, in order (``None`` for a failed one);
        set before :meth:`PhaseKind.finish` runs.
    :ivar d: the merged document (plain data), for checks that read other keys.
    :ivar pts: each card's points (``deck.card_points``); ``trump_pts`` rank -> points of a
        trump (``deck.trump_points``).
    """

    d: dict
    pts: tuple
    trump_pts: dict
    deck: Deck
    player_count: int
    kinds: list
    deal: Any
    has_sides: bool
    phase_specs: tuple

    def err(self, path: Path, msg: str) -> None:
        """Report a problem at the value at ``path`` (``path + ("<key>",)``: at its key), with
        file:line:col; the variant then fails to compile."""

    def warn(self, path: Path, msg: str) -> None:
        """Report an option at ``path`` that has no effect (a warning)."""

    def dsl(self, path: Path, fn: Any, *args: Any, **kw: Any) -> Any:
        """Run a DSL compiler on the string at ``path``; report its error and return ``None``."""

    def close(self, name: str, known: Any) -> str:
        """``"; did you mean X?"`` for the closest of ``known``, or ``""``."""

    def group_name(self, name: str, path: Path) -> str:
        """A contract's ``group:`` checked against ``contract_groups`` (reported at ``path``
        when unknown, then ``""``)."""

    def choices(self) -> list:
        """The player counts the variant offers."""

    def any_zone(self) -> bool:
        """Whether some deal pattern, for some player count offered, puts cards aside."""

    def check_takes(self, path: Path, n: int, what: str) -> None:
        """Refuse a phase (in :meth:`PhaseKind.finish`) that takes ``n`` cards out of a hand
        when the smallest hand the deal can give holds fewer (``what``: its verb, ``passes``)."""


class PhaseKind(Generic[SpecT]):
    """Base class of a phase kind: schema, compile checks, rules, words, docs.

    Class attributes (override them):

    :cvar name: the ``kind:`` word (``"tricks"``).
    :cvar aliases: former ``kind:`` words of this kind, oldest first, still read from variant
        files (the loader takes them as :attr:`name`); a file is hashed with the oldest, so
        records saved before a rename still verify.
    :cvar schema: JSON Schema (Draft 2020-12) of one phase entry of this kind; its
        ``properties`` must list ``kind`` (as ``true``); it may ``$ref`` the shared
        ``#/$defs/...`` of ``rulekit/schemas/variant.schema.json`` (``strain``, ``suit``).
    :cvar label: the prompt label (``You (bid) >``).
    :cvar role: what bots and the CLI treat it as: ``"deal"``, ``"auction"`` (calls with
        ``state.hand.high`` / ``calls`` / ``contract``), ``"exchange"``, ``"trump"``,
        ``"play"`` (trick play), ``"chance"`` (a chance event: one legal action, which the
        CLI applies by itself and the record stores) or ``""`` (none of these: bots pick at
        random unless its policy in ``rulekit/bots/policies/`` says otherwise).
    :cvar required: a hand must have exactly one phase of this kind.
    :cvar position: ``"first"`` or ``"last"`` when the kind must open or close a hand.
    :cvar stands_for: the name of a ``required`` kind this one replaces in a hand (a pile
        or a layout of cards instead of trick play), or ``""``.
    :cvar example: a worked example: a YAML ``phases:`` entry using the kind, for the
        docs and a test.
    :cvar gives_partner: the phase may give the declarer a partner for the hand
        (``Table.set_partner``), scored with the declarer's formula.
    :cvar conditions: keys of the entry holding conditions over the scoring variables
        (``end_if``; a dotted key inside a block: ``claim.made_if``); the compiler compiles them
        once the scoring is known and gives them to :meth:`set_conditions`.
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    schema: ClassVar[dict] = {}
    label: ClassVar[str] = ""
    role: ClassVar[str] = ""
    required: ClassVar[bool] = False
    position: ClassVar[str] = ""
    stands_for: ClassVar[str] = ""
    # its formula variables are a function of the hand's contract text alone (so a score
    # remembered for that contract and outcome holds them: ``scoring.score_played``)
    values_from_contract: ClassVar[bool] = False
    example: ClassVar[str] = ""
    conditions: ClassVar[tuple] = ()
    # it may give the declarer a partner for the hand (``Table.set_partner``), who is then
    # scored with the declarer's formula (``rulekit explain`` says so)
    gives_partner: ClassVar[bool] = False
    # it offers actions during a later trick play, beside the cards (``side_actions``)
    in_play: ClassVar[bool] = False

    # ------------------------------------------------------------------ compile time
    def compile(self, c: CompileHelpers, name: str, p: dict, path: Path) -> SpecT | None:
        """The frozen spec of the phase entry ``p`` (already schema-valid) named ``name`` at
        ``path``, or ``None`` after reporting a problem with ``c.err``.  The spec must have
        ``kind`` and ``name`` attributes."""
        raise NotImplementedError

    def finish(self, c: CompileHelpers, spec: SpecT) -> SpecT | None:
        """Meaning checks that need the other phases (``c.deal`` is known now); returns
        the spec, possibly completed.  Default: unchanged."""
        return spec

    def set_conditions(self, spec: SpecT, formulas: dict) -> SpecT:
        """The spec with its compiled :attr:`conditions` (key -> :class:`~rulekit.dsl.Formula`);
        default: each into the spec's field of that name (a kind whose condition is inside a
        block, ``claim.made_if``, puts it there)."""
        import dataclasses
        return dataclasses.replace(spec, **formulas)  # type: ignore[type-var]

    def acts_for_declarer(self, p: dict) -> bool:
        """True when this entry acts for a declarer, so an auction must come before it."""
        return False

    def strains(self, spec: SpecT, deck: Deck) -> set:
        """Trump contexts (suit letters, ``NT``) this phase may set: by default the spec's own
        ``strains`` (an auction's), none for a spec without them."""
        return set(getattr(spec, "strains", ()))

    def no_effect(self, c: CompileHelpers, p: dict, path: Path) -> None:
        """Warn (``c.warn``) about options of ``p`` that change nothing."""

    def variables(self, spec: SpecT) -> dict:
        """Formula variables this phase gives each score column: name -> ``(lowest, highest)``
        whole-number value (the compiler checks formulas against these bounds)."""
        return {}

    def values(self, variant: Variant, hand: Hand, spec: SpecT) -> list:
        """Per score column (seat, or side when scoring is by side), a dict of the values of
        :meth:`variables` for the finished ``hand`` (read from ``hand.phase_state``)."""
        return []

    def values_key(self, variant: Variant, hand: Hand, spec: SpecT) -> Hashable:
        """A hashable that fixes :meth:`values` of the finished ``hand``: two hands of
        ``variant`` with equal keys get equal values (the score cache keys on it,
        :func:`~rulekit.engine.scoring.score_played`; every hand's end asks).  Default: the
        values themselves, as tuples of items; a kind whose values follow from a few facts of
        its data gives those facts (``tests/test_scoring.py`` checks every shipped variant)."""
        return tuple(tuple(d.items()) for d in self.values(variant, hand, spec))

    def describe(self, spec: SpecT) -> str:
        """One English sentence saying what this phase does (docs, ``rulekit explain``).
        Default: the schema block's description."""
        return self.schema.get("description", "")

    def describe_in(self, spec: SpecT, variant: Variant) -> str:
        """:meth:`describe` for this phase within ``variant`` (``rulekit explain``), for kinds
        whose words depend on the rest of the file (how it scores, how trumps are made).
        Default: :meth:`describe`."""
        return self.describe(spec)

    # ------------------------------------------------------------------ rules
    def start(self, state: Table) -> bool:
        """Enter the phase; False when it does not apply to this hand (it is skipped)."""
        raise NotImplementedError

    def legal(self, state: Table) -> Sequence[Action]:
        """The legal actions of the seat to move (``state.hand.to_move``), in a fixed documented
        order."""
        return []

    def check(self, state: Table, action: Action) -> None:
        """:raises IllegalActionError: unless ``action`` is legal now (with the rule broken)."""
        if action not in self.legal(state):
            raise IllegalActionError(f"{action.text} is not allowed now; {state.expected_forms()}")

    def apply(self, state: Table, action: Action) -> bool:
        """Apply a checked action; True when the phase is over."""
        raise NotImplementedError

    # ------------------------------------------------------------------ choices as numbers
    # Random playouts, bots, ``compare`` and the match's record name a decision by a small
    # integer (a *choice*); an :class:`Action` with its text is built only for people, records
    # and the checked API.  By default choice ``i`` is ``legal(state)[i]``; a kind on a hot
    # path lists its own numbers (the card, for a play) and applies them without building
    # actions.  A kind's choices mean the same action whenever the same choice is legal in the
    # same position: the record stores them and a replay applies them.

    def legal_choices(self, state: Table) -> Sequence[int]:
        """The legal choices of the seat to move, as small integers, in the order of
        :meth:`legal` (so that the ``k``-th choice is the ``k``-th legal action).  Default:
        ``range(len(legal(state)))``."""
        return range(len(self.legal(state)))

    def choice_action(self, state: Table, choice: int) -> Action:
        """The :class:`Action` of the legal ``choice`` (for people, records, the checked API).
        Default: ``legal(state)[choice]``."""
        return self.legal(state)[choice]

    def choice_of(self, state: Table, action: Action) -> int:
        """The choice of the legal ``action`` (the inverse of :meth:`choice_action`).  Default:
        its place in :meth:`legal`.

        :raises ValueError: ``action`` is not legal now."""
        return self.legal(state).index(action)   # (a lazy sequence of discards ranks the action)

    def apply_choice(self, state: Table, choice: int) -> bool:
        """Apply the legal ``choice`` of the seat to move: the hand changes exactly as by
        :meth:`apply` of :meth:`choice_action`, and the action's ``(seat, text)`` is appended to
        ``hand.actions`` unless it is a card played (what the engine does for an action;
        a kind on a hot path appends a shared pair); True when the phase is over.  Default:
        that, through :meth:`choice_action`."""
        a = self.choice_action(state, choice)
        if a.kind != "play":
            h = state.hand
            h.actions.append((h.to_move, a.text))
        return self.apply(state, a)

    def spec(self, state: Table) -> SpecT:
        """The spec of the phase in progress, which is this kind's (``state.current_phase``
        with its own type)."""
        h = state.hand   # (state.current_phase, without its property call: the kinds ask per action)
        return state.variant.phases[h.phase]  # type: ignore[return-value]  # the phase in progress is ours

    def data(self, state: Table) -> Any:
        """This kind's own changing data object for the current hand (``hand.phase_state[name]``,
        a :class:`~rulekit.engine.hand.KindData` set by its ``start``)."""
        return state.hand.phase_state[self.name]

    def data_of(self, hand: Hand) -> Any:
        """This kind's data object in ``hand`` (a hand in progress or finished), or ``None`` when
        its phase did not run in that hand: how every other layer reads a kind's data."""
        return hand.phase_state.get(self.name)

    def choices_left(self, hand: Hand) -> list[str]:
        """The contracts an auction left for its declarer to announce (the ``announce`` phase
        reads them), ``[]`` by default."""
        return []

    def hand_facts(self, spec: SpecT, variant: Variant, hand: Hand) -> dict:
        """Facts of a finished ``hand`` this kind adds to the ones a table writes down
        (:func:`~rulekit.engine.scoring.hand_facts`), such as the suit of a card turned from a
        second pack (``first_suit``); default none."""
        return {}

    def hand_bids(self, spec: SpecT, hand: Hand) -> tuple | None:
        """An auction's bids with this hand's attributes when they differ from ``spec.bids`` (a
        ``list_auction`` values its contracts anew each hand), else ``None``."""
        return None

    # ------------------------------------------------------------------ actions during trick play
    # A phase that ran before trick play may offer the seat to move actions beside his cards
    # there (robbing the turned card at his first turn to play): trick play lists them after
    # the plays, refuses the others, and applies them through the phase (:attr:`in_play`).
    def side_actions(self, state: Table, spec: SpecT) -> list:
        """The actions this phase (``spec``, already run) offers the seat to move now during trick
        play, beside his cards, in a fixed order; default none."""
        return []

    def side_apply(self, state: Table, spec: SpecT, action: Action) -> None:
        """Apply one of :meth:`side_actions` (checked: it is one of them); the trick goes on."""
        raise NotImplementedError

    def side_parse(self, text: str, state: Table, spec: SpecT) -> Action | None:
        """This phase's words for its :meth:`side_actions` (``None``: not one of them)."""
        return None

    # ------------------------------------------------------------------ words
    def parse(self, text: str, state: Table) -> Action | None:
        """This kind's own action words: the :class:`Action` ``text`` names, or ``None``
        when the text is not one of them (the shared words ``pass``, bids, ``X``, ``play``,
        ``discard``, ``trump`` are read by :meth:`Action.parse`)."""
        return None

    def help_line(self, spec: SpecT, variant: Variant) -> str:
        """The action forms of this phase for the CLI's help (``""``: none)."""
        return ""

    def action_words(self, spec: SpecT, variant: Variant) -> tuple[str, ...]:
        """The text of every action this phase can ever offer that is not made of cards alone
        (cards are numbered apart: a ``play CARD``, or one card of a ``discard`` at a time), for
        a fixed numbering of a variant's actions (``rulekit.rl``): its calls, bids, trump choices
        and own words.  A superset is allowed (a word never offered stays masked); a missing word
        is an error of the kind.  Default: the shared words :meth:`Action.parse` reads, which
        are all a kind without its own :meth:`parse` can offer: ``pass``, ``X``, ``XX``, the
        variant's bid texts and ``trump`` with each suit and ``NT``."""
        auction = variant.auction()
        bids = tuple(b.text for b in auction.bids) if auction is not None else ()
        return ("pass", "X", "XX") + bids + tuple(f"trump {s}" for s in (*variant.deck.suits, "NT"))

    def action_text(self, state: Table, action: Action) -> str:
        """``action`` as the player types it and sees it listed now: its canonical text, but a
        ``discard`` said with :meth:`discard_word` (``pass 2C 3C 4C``)."""
        if action.kind == "discard":
            word = self.discard_word(state)
            if word != "discard":
                return word + action.text[len("discard"):]
        return action.text

    def discard_word(self, state: Table) -> str:
        """The word a player says for this phase's ``discard`` actions now: ``discard`` (cards put
        away), or ``pass`` for cards passed to another player.  The action's canonical text (and
        records) keep ``discard``; the screen, ``?`` and refusals say this word, and the kind's
        :meth:`parse` accepts it (user pass 2, finding 3)."""
        return "discard"

    # ------------------------------------------------------------------ scorepad
    def pad_question(self, spec: SpecT, variant: Variant, facts: dict, names: list) -> tuple | None:
        """The next fact of this phase a scorepad (``rulekit score``) must ask to score a hand
        played with real cards, given the ``facts`` answered so far (``contract``,
        ``declarer``... and this kind's own; ``cards``: the cards each player holds in this
        hand): ``(fact, prompt, help)``, or ``None`` when it needs no more.  ``names``: the
        seat names.  Default: none."""
        return None

    def pad_answer(self, spec: SpecT, variant: Variant, fact: str, text: str, facts: dict, names: list) -> None:
        """Parse the typed ``text`` answering this kind's ``fact`` and store it in ``facts[fact]``
        (a string or an integer).

        :raises ValueError: an impossible answer, with the reason and what is expected."""
        raise ValueError(f"{fact} is not a fact of this phase")

    def pad_values(self, spec: SpecT, variant: Variant, facts: dict, contract: Any, won: list) -> list:
        """Per score column, the values of :meth:`variables` for a hand known only by its
        ``facts`` (``contract``: the :class:`~rulekit.contracts.Bid` or ``None``; ``won``:
        tricks per seat; ``facts["columns"]``: per column, the variables the phases before this
        one gave, such as a party's ``in_party``); ``[]``: the variables' defaults."""
        return []

    def from_points(self, spec: SpecT) -> frozenset:
        """Names of :meth:`variables` made from the card points won (a party's points): a
        scorepad that must give one asks the points.  Default none."""
        return frozenset()

    def pad_skips(self, spec: SpecT, variant: Variant, facts: dict) -> tuple:
        """Names of the phases that these ``facts`` say were not played (no tricks to ask)."""
        return ()

    def pad_thrown_in(self, spec: SpecT, variant: Variant, facts: dict) -> bool:
        """True when these ``facts`` say the deal was thrown in unscored (every player passed
        an order-up twice...); the scorepad then asks nothing more.  Default False."""
        return False

    def pad_marker(self, spec: SpecT, variant: Variant, facts: dict) -> tuple | None:
        """``(marker name, seat)`` when these ``facts`` say the hand was not scored and one
        marker (``scoring.markers``) was written for that seat alone instead (the ``defence``
        option ``unplayed_choice``); the scorepad then asks nothing more.  Default ``None``."""
        return None

    def pad_result(self, spec: SpecT, variant: Variant, name: str, facts: dict) -> tuple:
        """``(lowest, highest, words)`` of the result variable ``name`` of a kind played instead
        of the tricks (:attr:`stands_for`), which a scorepad asks per column as the table counts
        it: true bounds for this hand (``facts["cards"]``: the cards each player holds) and the
        accepted values in words (``""``: the bounds say it).  Default: :meth:`variables`' bounds."""
        lo, hi = self.variables(spec)[name]
        return lo, hi, ""

    def pad_refuse(self, spec: SpecT, variant: Variant, facts: dict, values: list) -> str:
        """Why the results typed for this kind (``values``: per column, a dict of the result
        variables asked, see :meth:`pad_result`) cannot come from a legal play (thresholds no
        card reached, too many players out of cards...), or ``""`` when they can.  Default ``""``."""
        return ""

    def pad_out_of_play(self, spec: SpecT, variant: Variant, facts: dict, contract: Any) -> int:
        """Cards this phase puts out of play in a hand known by its ``facts`` (a card set aside
        face down); a scorepad then knows not every card ends in a won trick.  Default 0."""
        return 0

    def pad_tricks(self, spec: SpecT, variant: Variant, facts: dict) -> tuple | None:
        """``(total, exact)``: the tricks of a hand known by ``facts`` add up to ``total``, exactly
        (``exact``) or at most (play stopped early by a decision of this phase, a claim), or
        ``None``: the hand's tricks as the deal gives them (the default)."""
        return None

    def pad_trump_choices(self, spec: SpecT, variant: Variant, contract: Any) -> tuple | None:
        """The trumps a scorepad asks the scorer to name for a hand of ``contract`` (the
        :class:`~rulekit.contracts.Bid`, or ``None`` without one) when this phase makes them:
        strains (suit letters, ``NT``), ``()`` when it makes them with nothing to ask (one
        strain), ``None`` when it makes none for this contract (the contract's strain stands).
        The last phase of the hand that answers decides, as the last trumps set stand in play.
        Default: in a variant without an auction, the strains this phase may set
        (:meth:`strains`) in the deck's order, ``NT`` last (an order-up, a turned card), ``()``
        for a single one (fixed trumps); ``None`` otherwise."""
        if contract is not None or variant.auction() is not None:
            return None
        strains = self.strains(spec, variant.deck)
        if not strains:
            return None
        return tuple(x for x in (*variant.deck.suits, "NT") if x in strains) if len(strains) > 1 else ()

    def pad_trump_played(self, spec: SpecT, variant: Variant) -> str:
        """Why a card of the trump suit is surely played to a trick in every hand, in words for a
        refusal (the first card led makes trumps); ``""`` when nothing says so.  A scorepad then
        refuses "no one" as the winner of the highest or lowest trump.  Default ``""``."""
        return ""

    def contracts(self, spec: SpecT) -> tuple:
        """Every contract this phase may make a hand's, as compiled (an auction's bids, or with
        a list of values the games named after it), in its order.  Default ``()``: the phase
        makes no contract."""
        return ()

    def bid_tricks(self, spec: SpecT, bid) -> int | None:
        """The tricks the declarer of ``bid`` (one of :meth:`contracts`) undertakes to win, or
        ``None`` when its level is no number of tricks (a contract's number).  Default its
        ``level``."""
        return bid.level

    def null_bid(self, spec: SpecT, bid) -> bool:
        """Whether the declarer of ``bid`` (one of :meth:`contracts`) undertakes to win no trick
        (a null, a misère).  Default the bid's own ``null``."""
        return bool(getattr(bid, "null", False))

    def later_cards(self, spec: SpecT) -> int:
        """Cards each player gets in a hand after the deal, in this phase (draws from a stock,
        the rest of a deal after an order-up), for the hand's size and its number of tricks.
        Default 0."""
        return 0

    def doubles(self, spec: SpecT) -> int:
        """How far a contract of this phase may be doubled: 0 (no double), 1 (doubled) or 2
        (redoubled too).  Default 0."""
        return 0

    def plays_all_passed(self, spec: SpecT) -> bool:
        """True when a hand whose auction all passed is played on without a contract (an
        auction's ``all_pass: play``).  Default False."""
        return False

    def redeals_same(self, spec: SpecT) -> bool:
        """True when a deal this phase ends without a contract (all passed) is thrown in and
        dealt again by the same dealer, not counted as a hand (an auction's ``all_pass:
        redeal_same``).  Default False."""
        return False

    def strain_calls(self, spec: SpecT) -> tuple:
        """The words naming the strains in the texts of this phase's bids, in the order of its
        strains (``NT``, ``uptown``...): a bid whose text ends in one of them has that word's place
        as its formula variable ``strain``.  Default ``()``: bids name their strains as the
        strains are named."""
        return ()

    def bids_values(self, spec: SpecT) -> bool:
        """True when the players of this phase bid numbers (an auction of values), the declarer
        naming his game from its list afterwards.  Default False."""
        return False

    def bid_path(self, spec: SpecT, bid) -> tuple:
        """Where in this phase's entry ``bid`` (one of :meth:`contracts`) is written, below the
        phase's own path, for a validate message at it.  Default ``()``: at the phase."""
        return ()

    def ends_play_if(self, spec: SpecT):
        """The condition that stops play before the cards run out (trick play's ``end_if``, a
        compiled formula over the hand so far), or ``None``."""
        return None

    def ranking_options(self, spec: SpecT) -> dict:
        """What this phase adds to the trick tables of every context, read once by the compiler:
        ``top_follows`` (a top card may follow any lead), ``renege`` (the ranking text of the top
        trumps that may renege).  Default ``{}``."""
        return {}

    def passes_sideways(self, spec: SpecT) -> bool:
        """True when this phase passes cards to the left or right (a side at the table, which
        stays whatever the direction of play).  Default False."""
        return False

    def lead_makes_trumps(self, spec: SpecT) -> bool:
        """True when the suit of a hand's first card led becomes trumps in this phase (trick play
        with ``first_lead_trump``): a contract "at no trump" then has trumps after all, and no
        card masters the first lead.  Default False."""
        return False

    def deals_aside(self, spec: SpecT) -> bool:
        """True when this phase deals cards to a zone rather than to the players (a widow, a
        stub), so that some card points may end in no won trick.  Default False."""
        return False

    def gives_aside(self, spec: SpecT) -> tuple[bool, bool]:
        """``(widow, discards)``: whether this phase gives, at the end of play, the cards dealt
        aside and the cards discarded (a widow taken) to a player's won cards, so that their
        points are scored.  Default ``(False, False)``."""
        return (False, False)

    def pad_contract_question(self, spec: SpecT, variant: Variant, bids: tuple) -> tuple | None:
        """``(fact, prompt, help)``: a fact of the hand a scorepad asks before the contract,
        because the values of the auction's ``bids`` depend on it (the suit of a card turned
        before the auction); answered by :meth:`pad_answer` into the hand's facts under
        ``fact`` itself.  Default ``None``."""
        return None

    def pad_contract(self, spec: SpecT, variant: Variant, bid: Any, facts: dict) -> Any:
        """The auction's contract ``bid`` valued by this hand's ``facts`` (those of
        :meth:`pad_contract_question`), as the engine values it for a played hand.  Default:
        ``bid`` unchanged."""
        return bid

    def pad_facts(self, spec: SpecT, variant: Variant, hand: Hand) -> dict:
        """The answers a scorer types for this kind's facts of a finished played ``hand``
        (fact -> text), the inverse of :meth:`pad_answer`; default none."""
        return {}

    # ------------------------------------------------------------------ views
    def note(self, spec: SpecT, variant: Variant, envs: list, columns: list) -> str:
        """Words this phase adds to a hand's sheet note from the hand's formula environments
        (one per score column named ``columns``), such as each side's bid and tricks; default
        none."""
        return ""

    def observe(self, state: Table, seat: int) -> dict:
        """Plain data this phase adds to ``seat``'s observation (``obs.phase_data``);
        only what that seat may see."""
        return {}

    def known_cards(self, state: Table) -> list:
        """Cards whose place every seat knows though no seat sees them face up in a hand:
        ``[(place, bitmask)]`` with ``place`` a zone name (a card turned up on the talon, or
        turned down again) or a seat (a card he took from the table, until he plays it).
        Observations show them, and a bot's sampled worlds keep them where they are. Default
        none; :func:`card_place` gives the place of one card."""
        return []

    def private_text(self, text: str) -> str | None:
        """What other seats see of this phase's action ``text`` when it names cards only its
        player saw (``rob 10S`` -> ``rob``), or ``None`` when the text is public.  Default:
        public (a ``discard`` is hidden by the observation itself)."""
        return None

    def shown_out(self, state: Table) -> int:
        """Cards put out of play that every seat has seen (a discard shown to all, such as a
        trump the Tarot taker discards): observations show them and sampled worlds keep them
        where they are.  Default none."""
        return 0

    def hides_hand(self, state: Table, seat: int) -> bool:
        """True while ``seat`` may not see his own cards (a decision made before looking at
        them, such as a blind bid): his observation and the terminal show them face down.
        Default False."""
        return False

    def show(self, data: Any, variant: Variant, names: Sequence[str] | None = None) -> list:
        """Rows ``(label, text)`` drawing this kind's public data of a hand (``data``: its data
        object, :meth:`data_of`) for the terminal: a turned card, a pile, the rows of a layout
        and who laid what (default none). ``names``: the players' names as the table calls them
        (``None``: the variant's seat names, :func:`seat_name`). Only public data: every seat's
        screen shows them."""
        return []

    # ------------------------------------------------------------------ screen words
    # What the CLI asks a kind, so that it never names one.  Words are plain text, cards
    # written as ``deck.pretty`` gives them (``J♥``); the CLI colours them.

    def prompt_label(self, state: Table) -> str:
        """The prompt label now (``You (bid) >``): :attr:`label`, or the kind's name in words.
        A kind whose word changes within the phase (an order-up said ``take``) overrides it."""
        return self.label or self.name.replace("_", " ")

    def header(self, spec: SpecT, hand: Hand, variant: Variant) -> list[str]:
        """Public words this phase adds to the header line of ``hand`` (each shown after a
        dash): the cards dealt face up, the passing direction of the deal.  Default none."""
        return []

    def made(self, spec: SpecT, hand: Hand, variant: Variant) -> Said | None:
        """How this phase made trumps in ``hand`` without an auction's contract (an order-up:
        ``orders up J♥, trumps ♥``), or ``None``; the CLI shows it as the hand's contract."""
        return None

    def discards(self, spec: SpecT, hand: Hand, variant: Variant) -> int:
        """How many ``discard`` actions this phase takes in ``hand`` (one per player when cards
        are passed), so that the CLI tells whose words a hand's ``k``-th discard is in
        (:meth:`said`).  Default 0: its discards, if any, are said in the shared words."""
        return 0

    def said(self, spec: SpecT, hand: Hand, variant: Variant, seat: int, text: str, names: list) -> Said | None:
        """This phase's words for ``seat``'s action ``text`` in ``hand`` (``names``: the seat
        names shown), for the story of a hand (``--auto`` lines, the live announcements):
        a discard said as what it does (``puts 1 card aside``), a word of the kind's own;
        ``None``: the CLI's shared words (a bid, ``trump X``, a play)."""
        return None

    def trump_words(self, spec: SpecT, hand: Hand) -> str | None:
        """Words for ``hand``'s trumps while this phase has yet to make them (``trumps: the
        first card led``, ``trumps not named yet``), or ``None``."""
        return None

    def seat_rows(self, obs: Any, names: list) -> list[tuple[str, str]]:
        """``(label, text)`` rows of the table of the seat observing ``obs`` while this phase
        is current (where his passed cards go), from the observation only.  Default none."""
        return []

    def known_rows(self, obs: Any, names: list) -> list[tuple[str, str]]:
        """``(label, text)`` rows of what the seat observing ``obs`` knows of this phase's hidden
        facts (the party of a partnership by a card, as far as he knows it), drawn on his table
        in every phase of the hand; from the observation only.  Default none."""
        return []

    def hand_size(self, spec: SpecT, number: int) -> int | None:
        """Cards each player holds in deal ``number`` (0-based) when this phase fixes it deal by
        deal (a schedule of hand sizes), else ``None``: the variant's ``hand_size``."""
        return None

    def hand_variables(self, spec: SpecT, hand: Hand) -> dict:
        """Formula variables of the shared set that this phase fixes for the finished
        ``hand``, the same for every column (``total_tricks`` of a deal from a schedule of
        hand sizes); a hand with any is scored without the score cache.  Default none."""
        return {}

    # ------------------------------------------------------------------ hidden partnerships
    # A phase may form the hand's sides from who holds a card (partners by a card), which the
    # other seats do not know until the card is played or its holder says his side.  The rules
    # and the scoring read the truth (:meth:`party`); every view of a seat goes through
    # :meth:`hides_partner`, :meth:`inferences` and :meth:`resample`.

    def party(self, hand: Hand) -> int | None:
        """The seats (a mask) of the declaring party this phase formed in ``hand``: the
        declarer and the holder of a called card, or without a declarer the holders of a card
        the rules name.  The truth, for the rules and the scoring, never for a seat's view;
        ``None``: this phase forms none (:func:`declaring_party` then says who)."""
        return None

    def hides_partner(self, state: Table, seat: int) -> bool:
        """True while ``seat`` may not know the declarer's partner (``Hand.partner``) this phase
        gave him: the seat's observation shows none, and a world sampled from it draws one
        (:meth:`resample`).  Default False."""
        return False

    def inferences(self, state: Table) -> list:
        """What every seat may infer about hidden cards from this phase's public facts:
        ``[(seat, mask, how)]``, ``how`` being ``"none"`` (that seat holds none of ``mask``) or
        ``"some"`` (he holds at least one of them); observations carry them and sampled worlds
        honour them (a player who followed the first lead of a called card's suit with another
        card does not hold it).  Default none."""
        return []

    def resample(self, world: Table) -> None:
        """Re-derive, in a world just sampled from an observation (its hidden cards dealt at
        random), what this phase's facts follow from the cards (the partner who holds the
        called card).  Default: nothing."""

    def reveals(self, state: Table) -> int:
        """The seats (a mask) whose side this phase has made public in the hand (a seat that
        announced, :meth:`party`'s kind counts him known).  Default none."""
        return 0

    def binds_cards(self, spec: SpecT) -> bool:
        """Whether this phase may bind cards in trick play (:meth:`card_rules`): the trick
        play then checks its rules.  Default False."""
        return False

    def card_rules(self, spec: SpecT, hand: Hand) -> list:
        """The cards this phase binds in trick play in ``hand``: ``[(mask, must_play, keep)]``:
        a card of ``mask`` must be played (led or followed) the first time its suit is led
        (``must_play``) and may not be discarded on another suit before then (``keep``), but
        in the last trick.  Default none."""
        return []

    def partner_for(self, spec: SpecT, contract: Any) -> bool:
        """Whether the declarer of ``contract`` (a :class:`~rulekit.contracts.Bid`) may get a
        partner by this phase, so a scorepad asks who it was.  Default False."""
        return False

    def __repr__(self) -> str:
        return f"<phase kind {self.name}>"


@dataclass(frozen=True)
class Said:
    """What a seat did, in words for the screen: the phrase after the seat's name, as said of
    another player (``third``: ``orders up J♥, trumps ♥``) and as said to the player himself
    (``second``, after ``You``: ``order up J♥, trumps ♥``)."""

    seat: int
    third: str
    second: str


__all__ = ["CompileHelpers", "PhaseKind", "PhaseSpec", "Said", "card_place", "declaring_party", "n_cards",
           "own_hand_hidden", "partner_hidden", "revealed_seats", "seat_name", "shown_rows"]


def check_phase_names(c: CompileHelpers, path: Path, names: Sequence[str]) -> None:
    """A validate error at each of ``names`` (a list of the file at ``path``: a ``skips:``) that
    is not a phase of the variant, with the nearest name and the phases there are."""
    found = c.d.get("phases")
    phases: dict = found if isinstance(found, dict) else {}
    for j, ph in enumerate(names):
        if ph not in phases:
            c.err(path + (j,), f"unknown phase {ph}{c.close(ph, list(phases))} "
                  f"(expected a phase of this variant: {', '.join(phases)})")


def n_cards(n: int) -> str:
    """``1 card``, ``3 cards`` (for :meth:`PhaseKind.said` phrases)."""
    return f"{n} card{'' if n == 1 else 's'}"


def shown_rows(hand: Hand, variant: Variant, names: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """``(label, text)`` rows drawing the public data of the phase kinds that keep data in
    ``hand`` (:meth:`PhaseKind.show`: a turned card, a pile, the rows of a layout), in the order
    the phases started; ``variant``: the rules ``hand`` is played by; ``names``: the players'
    names as the table calls them."""
    from rulekit.engine.phases.registry import REGISTRY
    out: list[tuple[str, str]] = []
    for name, data in hand.phase_state.items():
        kind = REGISTRY.get(name)   # (a kind unregistered since: a test's toy kind)
        if kind is not None:
            out += kind.show(data, variant, names)
    return out


def seat_name(variant: Variant, names: Sequence[str] | None, seat: int) -> str:
    """What the table calls ``seat``: ``names[seat]``, else the variant's seat name, else ``P3``
    (for :meth:`PhaseKind.show` rows)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    seats = variant.seat_names
    return seats[seat] if 0 <= seat < len(seats) else f"P{seat}"


def card_place(state: Table, card: int) -> list:
    """``[(place, 1 << card)]``: the zone or the seat that holds ``card`` now, or ``[]`` when it
    is in neither (played, discarded, or ``card`` < 0). For :meth:`PhaseKind.known_cards`."""
    if card < 0:
        return []
    h = state.hand
    for z, m in h.zones.items():
        if m >> card & 1:
            return [(z, 1 << card)]
    for s, m in enumerate(h.hands):
        if m >> card & 1:
            return [(s, 1 << card)]
    return []


def own_hand_hidden(state: Table, seat: int) -> bool:
    """True while a phase kind of the current hand keeps ``seat``'s own cards face down
    (:meth:`PhaseKind.hides_hand`)."""
    from rulekit.engine.phases.registry import REGISTRY
    return any(REGISTRY[k].hides_hand(state, seat) for k in state.hand.phase_state if k in REGISTRY)


def declaring_party(v: Variant, h: Hand) -> int:
    """The seats (a mask) of the declaring party in hand ``h`` played under ``v``: the party a
    phase kind formed (:meth:`PhaseKind.party`), else the declarer with his partner for the
    hand, or with his side when the variant has sides; 0 without a declarer.  The truth: for
    the rules and the scoring, never for a seat's view."""
    from rulekit.engine.phases.registry import REGISTRY
    for k in h.phase_state:
        kind = REGISTRY.get(k)
        got = kind.party(h) if kind is not None else None
        if got is not None:
            return got
    if h.declarer < 0:
        return 0
    if any(len(side) > 1 for side in v.sides):
        return sum(1 << s for s in v.sides[v.side_of[h.declarer]])
    return 1 << h.declarer | (1 << h.partner if h.partner >= 0 else 0)


def revealed_seats(state: Table) -> int:
    """The seats (a mask) whose side some phase of the hand has made public
    (:meth:`PhaseKind.reveals`: a seat that announced)."""
    from rulekit.engine.phases.registry import REGISTRY
    out = 0
    for k in state.hand.phase_state:
        kind = REGISTRY.get(k)
        if kind is not None:
            out |= kind.reveals(state)
    return out


def partner_hidden(state: Table, seat: int) -> bool:
    """True while a phase of the hand keeps the declarer's partner hidden from ``seat``
    (:meth:`PhaseKind.hides_partner`)."""
    from rulekit.engine.phases.registry import REGISTRY
    return any(REGISTRY[k].hides_partner(state, seat) for k in state.hand.phase_state if k in REGISTRY)


def next_holder(state: Table, seat: int) -> int:
    """The next seat after ``seat``, in the order of play, that still holds cards (one must)."""
    h = state.hand
    nxt = state.next_seat(seat)
    while not h.hands[nxt]:
        nxt = state.next_seat(nxt)
    return nxt


def bare_card_play(text: str, state: Table) -> Action | None:
    """``QS`` alone as a play of that card (for kinds whose move is laying a card), or ``None``
    when ``text`` is not one card."""
    words = text.split()
    if len(words) != 1:
        return None
    try:
        return state.play_action(state.variant.deck.parse(words[0]))
    except CardError:
        return None
