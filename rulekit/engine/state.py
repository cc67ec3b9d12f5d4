"""The state of a match: the one API shared by the CLI, bots, simulations and tests.

>>> from rulekit.variant import load_variant
>>> s = State(load_variant("fivehundred"), seed=1)
>>> s.to_move in (0, 1, 2), str(s.legal_actions()[0])
(True, 'pass')

A match is a sequence of hands; each hand walks through the variant's phases
(deal, auction, exchange, trump naming, tricks) and is then scored onto the
sheet.  Everything is deterministic given the seed (or explicit deals): hand
``k`` is shuffled by ``random.Random(f"rulekit:{seed}:{k}")`` so that bots'
own randomness can never change a deal.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from rulekit.dsl import Env
from rulekit.engine.actions import Action
from rulekit.engine.hand import Hand, PlayedTricks, Written
from rulekit.engine import shuffle as _shuffle
from rulekit.engine.record import MatchRecord
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases import tricks as _tricks
from rulekit.contracts import LOW
from rulekit.engine.markers import Markers
from rulekit.engine.progress import Progress
from rulekit.engine.tables import action_tables
from rulekit.engine.types import Card, Mask, Seat
from rulekit.engine.scoring import HandFacts, against_entries, hand_envs, match_result, score_played
from rulekit.errors import CardError, IllegalActionError, InvalidActionError
from rulekit.sheets.sheet import Sheet

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.observation import Observation
    from rulekit.variant.model import Variant


def history_entry(seat: Seat, action: Action) -> tuple[Seat, str]:
    """One ``(seat, text)`` pair of :attr:`State.history` (the form records store)."""
    return seat, action.text


class State:
    """A match in progress.

    :param variant: a compiled :class:`~rulekit.variant.model.Variant`.
    :param seed: seeds the cut and every shuffle.
    :param deals: optional explicit deals: one list of card texts (or indices)
        in dealing order per hand; later hands are shuffled from the seed.
    :param dealer: first dealer (default: by the variant's cut, [D1]).
    :param scores: starting totals per seat (default zeros).
    :param names: player names (default the variant's seat names, else ``P0``, ``P1``...).
    :param vulnerable: vulnerability of each score column on the first deal (e.g. from a
        PBN file), instead of the variant's rule.
    :param max_hands: stop the match (:meth:`stop`) after this many deals if it has not
        ended by then (``--max-hands``); default the variant's ``match.max_hands`` (1000
        unless the file says otherwise), so that every match ends.  Thrown-in deals count,
        a deal redealt by the same dealer too (issue 13 cases 2 and 3).

    :ivar hand: the current :class:`~rulekit.engine.hand.Hand`.
    :ivar sheet: the :class:`~rulekit.sheets.sheet.Sheet` of finished hands.
    :param dealing: how deals follow from the seed (:mod:`rulekit.engine.shuffle`): 2 (one
        digest per deal, the default) or 1 (records of format ``rulekit-record/1``).
    :param keep_hands: keep every finished :class:`~rulekit.engine.hand.Hand` in
        :attr:`hand_log` as it ends, instead of rebuilding them by a replay when asked for
        (a replay itself does; so may a test that changes a hand by hand, outside the rules).

    :ivar record: the columnar :class:`~rulekit.engine.record.MatchRecord` of the finished
        deals' choices (the current hand's are in ``hand.choices``).
    :ivar history: every action of the match as ``(seat, text)``, and ``hand_log`` every
        finished :class:`~rulekit.engine.hand.Hand`: rebuilt on access by replaying the
        record (a light copy keeps no record of earlier hands: both are then empty).
    :ivar winners: winning seats once the match is over, else ``[]``.
    :ivar is_over: True once the match has ended (set with :attr:`winners`).
    :ivar chance: chance events of the match, ``(hand number, seat, text)`` (cards turned for a
        decision, ``turned 7H QS``); they follow from the deal, and records store them.
    :ivar first_vulnerable: the first deal's vulnerability override (or ``None``); ``max_hands``.
    """

    def __init__(self, variant: Variant, seed: int | None = 0, deals: Sequence[Sequence[int | str]] | None = None,
                 dealer: int | None = None, scores: Sequence[int] | None = None, names: Sequence[str] | None = None,
                 vulnerable: Sequence[bool] | None = None, max_hands: int | None = None,
                 dealing: int = _shuffle.CURRENT, keep_hands: bool = False) -> None:
        if dealing not in _shuffle.SCHEMES:
            raise ValueError(f"unknown dealing scheme {dealing} (expected one of {_shuffle.SCHEMES})")
        self.variant = variant
        self.seed = seed
        self.dealing = dealing
        self.deals = [self._deck_order(d) for d in (deals or [])]
        n = variant.players
        self.names = list(names or variant.seat_names or [f"P{i}" for i in range(n)])
        cols = list(variant.side_names) if variant.scoring.by_side else self.names
        self.sheet = Sheet(cols, lower_is_better=variant.scoring.lower_is_better,
                           start=list(scores) if scores else [variant.scoring.start] * len(cols))
        self.markers = Markers(variant.scoring.markers, len(cols))
        #: scoring.counters: name -> the count per score column, carried from deal to deal
        self.counters = {c.name: [0] * len(cols) for c in variant.scoring.counters}
        self.progress = Progress(len(cols))
        self.first_vulnerable = list(vulnerable) if vulnerable is not None else None
        self.max_hands = max_hands
        self.record = MatchRecord()
        self._replica: _Replica | None = None   # the replay behind history and hand_log, once asked for
        self._kept: list[Hand] | None = [] if keep_hands else None   # finished hands, when kept
        self._replayable = True   # (a light copy starts mid-match: it cannot be replayed)
        self.winners = []   # (and is_over False)
        self.end_reason = ""
        self.chance: list[tuple[int, Seat, str]] = []  # chance events (cards turned for a decision)
        self.cut: list[Card] = []
        self.first_dealer = self._choose_dealer() if dealer is None else dealer
        self.hands_played = 0
        self.thrown_in = 0
        self.match_variant = variant  # with a round schedule, self.variant is the current round's rules
        self.hand_rules: dict[int, Variant] = {}    # hand number -> the round's rules it was played under
        self._small = variant.deck.size <= 256 and n <= 256   # a round keeps the match's deck and players
        self._use_rules(variant)
        self._start_hand(0, self.first_dealer)

    def _use_rules(self, variant: Variant) -> None:
        """Play under ``variant`` (the match's rules, or one round's) from now on."""
        self.variant = variant
        tables = action_tables(variant)
        self._play_actions = tables["play"]
        self._play_pairs = tables["play_pairs"]
        self.kinds = tables["kinds"]
        self._legal_choices = tables["legal_choices"]   # (each phase's kind's, read once)
        self._apply_choice = tables["apply_choice"]
        self._bid_texts = tables["bid_texts"]
        self.bid_actions = tables["bids"]
        self.bid_by_text = tables["bid_by_text"]

    # ------------------------------------------------------------------ setup
    def _deck_order(self, d: Sequence[int | str]) -> list[Card]:
        deck = self.variant.deck
        order = [c if isinstance(c, int) else deck.parse(c) for c in d]
        if sorted(order) != list(range(deck.size)):
            raise InvalidActionError(f"an explicit deal must list each of the {deck.size} cards once")
        return order

    def _choose_dealer(self) -> int:
        """[D1]: each player cuts one card; the lowest (or highest) cut deals."""
        fd = self.variant.first_dealer
        if "seat" in fd:
            return fd["seat"] % self.variant.players
        self.cut = _shuffle.cut_cards(self.dealing, self.seed, self.variant.deck.size, self.variant.players)
        st = fd["strength"]
        pick = min if fd["cut"] == "low" else max
        return pick(range(self.variant.players), key=lambda s: st[self.cut[s]])

    def _start_hand(self, number: int, dealer: int) -> None:
        rounds = self.match_variant.rounds
        if rounds:  # the schedule's next round: a deal redealt by the same dealer replays it
            rules = rounds[min(self.hands_played, len(rounds) - 1)]
            if rules is not self.variant:
                self._use_rules(rules)
            self.hand_rules[number] = rules
        h = Hand(number, dealer, self.variant.players, self.variant.step)
        h.vulnerable = self.progress.vulnerable(self.variant, self.hands_played, dealer)
        if number == 0 and self.first_vulnerable is not None:
            h.vulnerable = list(self.first_vulnerable)
        h.totals = tuple(self.sheet.totals())   # (the formula variable ``total``)
        if number < len(self.deals):
            h.deck_order = list(self.deals[number])
        else:
            h.deck_order = _shuffle.deck_order(self.dealing, self.seed, number, self.variant.deck.size)
        self.hand = h
        self.record.open = h   # its choices are not in the record yet
        h.phase = -1
        self.advance_phase()

    def rules_of(self, number: int) -> Variant:
        """The rules hand ``number`` was (or is) played under: its round's, in a round schedule
        (:attr:`Variant.rounds`), else the variant's."""
        return self.hand_rules.get(number, self.match_variant)

    def advance_phase(self) -> None:
        """End the current phase: start the next one that applies, or score the hand after
        the last (and deal the next hand, or end the match).  Part of the unchecked fast
        path: :meth:`apply_unchecked` calls it when a phase's ``apply`` returns True."""
        h = self.hand
        phases = self.variant.phases
        kinds = self.kinds
        while True:
            h.phase += 1
            if h.phase >= len(phases):
                self._finish_hand()
                return
            if h.skips and phases[h.phase].name in h.skips:
                continue  # skipped for this hand by an earlier phase (skip_phases)
            if kinds[h.phase].start(self):
                return

    # ------------------------------------------------------------------ helpers for phases
    @property
    def current_phase(self) -> PhaseSpec:
        """The spec of the current phase."""
        return self.variant.phases[self.hand.phase]

    def set_trump(self, strain: str, low: bool | None = None, group: str | None = None) -> None:
        """Set the trump context of the hand (a suit letter or ``NT``) and its contract group's
        tables: ``group`` names the group (``""`` the base ranking); else ``low`` True selects
        the low-wins group (``ranking.low``), False the hand's contract's own group (its
        ``group:``, or the base); with neither, the hand's contract's group once it has one
        that names one, else the group of the hand's current tables."""
        h = self.hand
        if group is None:
            own = getattr(h.contract, "group", "") or ""
            if low is not None:
                group = LOW if low else own
            elif own:
                group = own
            else:
                group = h.ctx.group if h.ctx is not None else ""
        h.trump = strain
        v = self.variant
        h.ctx = (v.group_contexts[group] if group else v.contexts)[strain]

    def throw_in(self, same_dealer: bool = False, note: str = "passed out") -> None:
        """The hand is thrown in unscored; the next dealer deals, or with ``same_dealer``
        the same dealer deals again and the deal does not count as a board; ``note``: the
        sheet row's words (``passed out``)."""
        h = self.hand
        h.void = True
        h.entries = [0] * len(self.sheet.columns)
        self._keep(h)
        self.thrown_in += 1
        if same_dealer:
            if not self._stopped_at_cap(h):
                self._start_hand(h.number + 1, h.dealer)
            return
        self._void_row(h, self.markers.thrown_in(self.sheet.totals()), note)

    def write_marker(self, name: str, seat: Seat, note: str) -> None:
        """The hand is not scored: one ``name`` marker (``scoring.markers``) is written for
        ``seat`` alone instead, if its limits allow (rules/preferans.md [R1] [R3]: a refe the
        declarer takes rather than an unplayed hand counted as made), on a row noted ``note``;
        the next dealer deals."""
        h = self.hand
        h.void = True
        h.entries = [0] * len(self.sheet.columns)
        self._keep(h)
        self._void_row(h, self.markers.write(name, seat, self.sheet.totals()), note)

    def _void_row(self, h: Hand, marks: list, note: str) -> None:
        """Write the unscored hand ``h``'s row with its marker events, then end or deal on."""
        h.written = Written((), tuple(marks), note)
        self.sheet.add(h.number, [0] * len(self.sheet.columns), note=note, void=True, marks=marks)
        self.hands_played += 1
        if self._check_end(h, self.sheet.totals(), None) or self._stopped_at_cap(h):
            return
        self._advance_dealer_and_deal(h)

    def totals(self) -> list[int]:
        """The sheet's running totals per score column."""
        return self.sheet.totals()

    def score_envs(self, names: frozenset | None = None) -> list[Env]:
        """The scoring environments of the hand so far, one per score column
        (:func:`~rulekit.engine.scoring.hand_envs`; ``names``: the variables the formula to
        evaluate reads, when only those are needed)."""
        return hand_envs(self.variant, self.hand, names)

    def chance_rng(self, tag: str) -> random.Random:
        """A generator for the chance event ``tag`` of this hand, seeded by the seed and the
        hand's number (the same draw on every replay)."""
        return random.Random(f"rulekit:{self.seed}:{self.hand.number}:{tag}")

    def note_chance(self, seat: Seat, text: str) -> None:
        """A chance event of this hand for ``seat``: in the hand's actions and in :attr:`chance`."""
        self.hand.actions.append((seat, text))
        self.chance.append((self.hand.number, seat, text))

    def skip_phases(self, names) -> None:
        """Skip the phases named ``names`` (phase names of the variant) for the rest of this
        hand: their ``start`` is not called (e.g. the talon exchange after a bid played
        without the talon, or the trick play of a hand nobody defends)."""
        self.hand.skips = self.hand.skips | frozenset(names)

    def partner_of(self, seat: Seat) -> Seat:
        """The next seat in the direction of play on ``seat``'s side (``seat`` itself without
        partners)."""
        side = self.variant.sides[self.variant.side_of[seat]]
        for k in range(1, self.variant.players):
            if self.variant.next_seat(seat, k) in side:
                return self.variant.next_seat(seat, k)
        return seat

    def next_seat(self, seat: Seat, k: int = 1) -> Seat:
        """The seat ``k`` turns after ``seat`` in the variant's direction of play
        (``Variant.next_seat``; the ``direction:`` key)."""
        return self.variant.next_seat(seat, k)

    def set_partner(self, seat: Seat) -> None:
        """Make ``seat`` the declarer's partner for this hand only (a called partner): he is
        scored with the declarer's formula; the others are the defenders."""
        self.hand.partner = seat

    def role(self, seat: Seat) -> str:
        """``seat``'s role in this hand: ``declarer``, ``partner``, ``defender`` (with a
        declarer), else ``""``."""
        h = self.hand
        if h.declarer < 0:
            return ""
        return "declarer" if seat == h.declarer else "partner" if seat == h.partner else "defender"

    def lay_open(self, seat: Seat, after_tricks: int = 0) -> None:
        """``seat``'s hand lies face up for everyone once ``after_tricks`` tricks are finished
        (0: from now, before the first lead; 1: after the first trick)."""
        self.hand.open_after[seat] = after_tricks

    @property
    def board(self) -> int:
        """Deals counted so far (a deal redealt by the same dealer does not count): the
        board number of the next deal, 0-based, for vulnerability cycles."""
        return self.hands_played

    def controller(self, seat: Seat) -> Seat:
        """The seat that decides for ``seat``: the declarer for his dummy, else ``seat``."""
        h = self.hand
        return h.declarer if seat >= 0 and seat == h.dummy else seat

    def play_action(self, card: Card) -> Action:
        """The cached ``play CARD`` action (no suit named)."""
        return self._play_actions[card]

    # ------------------------------------------------------------------ public API
    @property
    def history(self) -> list[tuple[Seat, str]]:
        """Every action of the match as ``(seat, text)`` pairs (what records store).

        Rebuilt from the record (:attr:`record`, ``hand.choices``) by a replay kept beside the
        state and moved on only by the choices made since the last access, so reading the
        history after every move costs O(1) per move (issue 12 case 14).  The list is the
        replay's: do not change it.  A light copy (:meth:`clone`), which starts mid-match, has
        none: ``[]``.
        """
        r = self._replayed()
        return r.texts if r is not None else []

    @property
    def hand_log(self) -> list[Hand]:
        """Every finished hand of the match (thrown-in ones too), in order, rebuilt by replaying
        the record (see :attr:`history`); read-only.  A light copy has only the hands it finished
        itself."""
        if self._kept is not None:
            return self._kept
        r = self._replayed()
        return r.state.hand_log if r is not None else []

    @property
    def actions_taken(self) -> int:
        """Decisions made in the match so far (the length of :attr:`history`, without building it)."""
        return len(self.record.codes) + len(self._open_choices())

    def _open_choices(self) -> list:
        """The current hand's choices not yet in :attr:`record` (none once the hand has ended)."""
        h = self.hand
        return h.choices if self.record.open is h else []

    def _replayed(self) -> _Replica | None:
        """The replay of this match up to now (``None`` for a light copy)."""
        if not self._replayable:
            return None
        r = self._replica
        if r is None:
            r = self._replica = _Replica(self)
        r.follow(self)
        return r

    @property
    def to_move(self) -> Seat:
        """Seat to act, or -1 when the match is over."""
        return -1 if self.is_over else self.hand.to_move

    @property
    def winners(self) -> list[Seat]:
        """Winning seats once the match is over, else ``[]``; setting them sets :attr:`is_over`
        (a plain attribute, read once a decision by every playout loop: no property call)."""
        return self._winners

    @winners.setter
    def winners(self, seats: list[Seat]) -> None:
        self._winners = seats
        self.is_over = bool(seats)

    @property
    def phase_kind(self) -> str:
        """Kind of the current phase (``ladder_auction``, ``tricks``...), or ``over``."""
        return "over" if self.winners else self.current_phase.kind

    @property
    def kind(self) -> PhaseKind | None:
        """The :class:`~rulekit.engine.phases.base.PhaseKind` of the current phase, or ``None``
        once the match is over."""
        return None if self.winners else REGISTRY[self.current_phase.kind]

    @property
    def play_actions(self) -> tuple[Action, ...]:
        """The cached ``play CARD`` action of each card (index = card); read-only."""
        return self._play_actions

    @property
    def bid_texts(self) -> tuple[str, ...]:
        """The canonical text of every bid of the variant's auction (``()`` without one)."""
        return self._bid_texts

    def current_bids(self) -> tuple:
        """The bids of the variant's auction with this hand's attributes (a ``list_auction``
        values its contracts anew each hand, e.g. by suit class), else the variant's bids."""
        a = self.variant.auction()
        if a is None:
            return ()
        return tuple(REGISTRY[a.kind].hand_bids(a, self.hand) or a.bids)

    def legal_actions(self) -> Sequence[Action]:
        """Legal actions of the seat to move, in a fixed documented order (a list, or for a
        widow exchange a lazy sequence of its discard choices)."""
        if self.winners:
            return []
        return self.kinds[self.hand.phase].legal(self)

    # ------------------------------------------------------------------ choices as numbers
    def legal_choices(self) -> Sequence[int]:
        """The legal choices of the seat to move as small integers, in the order of
        :meth:`legal_actions` (the ``k``-th choice is the ``k``-th action); ``()`` once the match
        is over.  Each phase kind numbers its own
        (:meth:`~rulekit.engine.phases.base.PhaseKind.legal_choices`: a card played is its
        index, a call ``1 + rank``...); no :class:`Action` is built."""
        if self.is_over:
            return ()
        return self._legal_choices[self.hand.phase](self)

    def apply_choice(self, choice: int) -> None:
        """Apply one of :meth:`legal_choices` for the seat to move, without building its action
        or checking it (an illegal choice leaves the state corrupt, silently, as
        :meth:`apply_unchecked`): the path of random playouts, bots and ``compare``."""
        h = self.hand
        h.choices.append(choice)
        if self._apply_choice[h.phase](self, choice) and self.hand is h:
            self.advance_phase()

    def choice_action(self, choice: int) -> Action:
        """The :class:`Action` of one of :meth:`legal_choices` (for people and records)."""
        return self.kinds[self.hand.phase].choice_action(self, choice)

    def choice_of(self, action: Action) -> int:
        """The choice of a legal ``action`` (the inverse of :meth:`choice_action`).

        :raises ValueError: ``action`` is not legal now."""
        if self.winners:
            raise ValueError("the match is over")
        return self.kinds[self.hand.phase].choice_of(self, action)

    def parse_action(self, text: str) -> Action:
        """Parse action text; short forms ``QS`` (a play) and ``JK H`` are accepted.

        :raises InvalidActionError: when the text is no action.
        """
        action = self._parse_text(text)
        return self._held(action) if self.variant.deck.has_copies else action

    def _held(self, action: Action) -> Action:
        """``action`` with its cards turned into copies the player to move holds: ``AS`` typed
        plays (or discards) one of his copies of AS, the first he holds (a double pack)."""
        deck = self.variant.deck
        hand = self.hand.hands[self.hand.to_move] if self.hand.to_move >= 0 else 0
        if action.card >= 0 and not hand >> action.card & 1:
            held = deck.held(1 << action.card, hand)
            if held != 1 << action.card:
                c = held.bit_length() - 1
                return self.play_action(c) if action.kind == "play" and not action.suit else \
                    Action(action.kind, action.text.replace(deck.name(action.card), deck.name(c), 1), card=c,
                           suit=action.suit)
        if action.cards and action.cards & ~hand:
            held = deck.held(action.cards, hand)
            if held != action.cards:
                if action.kind == "discard":
                    return Action.discard(deck, held)
                word = action.text.split()[0]
                return Action(action.kind, " ".join([word] + deck.names_of(held)), cards=held)
        return action

    def _parse_text(self, text: str) -> Action:
        t = text.strip()
        words = t.split()
        kind = self.kind
        if kind is not None:
            own = kind.parse(t, self)  # the phase kind's own action words first
            if own is not None:
                return own
        if kind is not None and kind.role == "play" and words and words[0].lower() != "play" and len(words) <= 2:
            try:
                self.variant.deck.parse(words[0])
                t = "play " + t
            except CardError:
                pass  # not a card: let Action.parse say what the text is (or is not)
        try:
            return Action.parse(t, self.variant.deck, self._bid_texts)
        except InvalidActionError as e:
            if self.is_over:
                raise
            shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "…"
            detail = f" ({e})" if "not a card" in str(e) else ""  # e.g. a mistyped card
            raise InvalidActionError(f"{shown!r} is not an action here; {self.expected_forms()}{detail}") from None

    def discard_word(self) -> str:
        """What the phase to move calls its ``discard`` actions: ``discard`` or ``pass``
        (:meth:`~rulekit.engine.phases.base.PhaseKind.discard_word`)."""
        kind = self.kind
        return kind.discard_word(self) if kind is not None and not self.winners else "discard"

    def action_text(self, action: Action) -> str:
        """``action`` as the player types it now (the phase kind's
        :meth:`~rulekit.engine.phases.base.PhaseKind.action_text`: ``pass 2C 3C 4C``, ``nil``)."""
        kind = self.kind
        return kind.action_text(self, action) if kind is not None else action.text

    def expected_forms(self) -> str:
        """What the seat to move may type now, in words (``pass, a bid 1C..7NT, X``)."""
        legal = self.legal_actions()
        kinds = []
        # a lazy sequence (a widow exchange's discard choices) holds one kind: its first item
        # tells it without building every choice (C(13, 7) = 1,716 of them for 7 cards)
        for a in (legal if isinstance(legal, list) else legal[:1]):
            if a.kind not in kinds:
                kinds.append(a.kind)
        words = []
        for k in kinds:
            if k == "bid":
                calls = [a for a in legal if a.kind == "bid"]
                said = [self.action_text(a) for a in calls if self.action_text(a) != a.text]   # nil
                plain = [a.text for a in calls if self.action_text(a) == a.text]
                if len(plain) > 3:   # a ladder: its ends
                    said.append(f"a bid from {plain[0]} to {plain[-1]}")
                else:   # a few calls (order, order alone): each (user pass 2, finding 5)
                    said += plain
                words.append(", ".join(said[:-1]) + " or " + said[-1] if len(said) > 1 else said[0])
            elif k == "play":
                words.append("play CARD (or just CARD)")
            elif k == "discard":   # the example names real cards (user pass 2, finding 3)
                n = legal[0].cards.bit_count()
                words.append(f"{self.discard_word()} {n} card{'s' if n > 1 else ''} "
                             f"(e.g. {self.action_text(legal[0])})")
            elif k == "trump":
                words.append("trump " + "|".join(a.suit for a in legal if a.kind == "trump"))
            else:
                words.append({"pass": "pass", "double": "X (double)", "redouble": "XX (redouble)"}.get(k, k))
        return "expected " + ", ".join(words)

    def check(self, action: Action) -> None:
        """Raise :class:`~rulekit.errors.IllegalActionError` (with the reason) unless legal."""
        if self.winners:
            raise IllegalActionError("the match is over")
        REGISTRY[self.current_phase.kind].check(self, action)

    def apply(self, action: Action | str) -> None:
        """Apply ``action`` (an :class:`Action` or its text) for the seat to move.

        :raises InvalidActionError: unparsable text.
        :raises IllegalActionError: an action the rules forbid now, with the reason.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        if self.is_over:   # (self.check, inlined: the checked path runs it for every action)
            raise IllegalActionError("the match is over")
        REGISTRY[self.variant.phases[self.hand.phase].kind].check(self, action)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` for the seat to move WITHOUT checking it: the fast path for
        bots and simulations (like python-chess's ``push`` next to ``push_san``).

        ``action`` must be one of :meth:`legal_actions` (or pass :meth:`check`); an illegal
        one leaves the state corrupt, silently (or raises ``ValueError`` where its choice
        cannot be found).  Records, the CLI and anything that reads a person's input use
        :meth:`apply`.
        """
        h = self.hand
        seat = h.to_move
        kind = self.kinds[h.phase]
        h.choices.append(kind.choice_of(self, action))
        if action.kind != "play":
            h.actions.append((seat, action.text))
        if kind.apply(self, action) and self.hand is h:
            self.advance_phase()

    # Fast paths for bots and simulations (no parsing, no checking).
    def legal_play_mask(self) -> Mask:
        """Bitmask of cards the seat to move may play (trick phase only)."""
        return _tricks.legal_mask(self, self.hand.to_move)

    def play_fast(self, card: Card) -> None:
        """Play a card known to be legal (led top cards name their first nameable suit)."""
        h = self.hand
        suit = ""
        if not h.trick and h.ctx.top_names_suit and h.ctx.group_of[card] == len(self.variant.deck.suits):
            suit = _tricks.nameable_suits(self, h.to_move)[0]
            h.choices.append(card + self.variant.deck.size * (1 + self.variant.deck.suits.index(suit)))
        else:
            h.choices.append(card)
        if _tricks.play_card(self, card, suit):
            self.advance_phase()

    # ------------------------------------------------------------------ end of hand
    def _finish_hand(self) -> None:
        h = self.hand
        v = self.variant
        extra = {"vulnerable": h.vulnerable, "game_score": self.progress.game_score}
        if v.scoring.markers:
            extra["markers"] = self.markers.factors(h.declarer)
        envs, entries, void = score_played(v, h, extra)
        counted = self._count(envs, entries) if v.scoring.counters and not void else ""
        h.entries, h.void = entries, void
        before = self.sheet.totals()
        against = against_entries(v, h.declarer, envs) if not void else []
        marks: list = []
        if v.scoring.markers and h.declarer >= 0 and not void:
            dcol = v.side_of[h.declarer] if v.scoring.by_side else h.declarer
            made = bool(envs[dcol].once(v.scoring.made)) if v.scoring.made is not None else True
            marks = self.markers.played(h.declarer, made)
        h.written = Written(tuple(against), tuple(marks)) if against or marks else _NOTHING_WRITTEN
        note = self._note(h, envs) + counted
        row = self.sheet.add(h.number, entries, note=note, void=void,
                             trick_winners=h.trick_winners, parts=h.parts, against=against, marks=marks)
        self.hands_played += 1
        self._keep(h)
        if h.parts and not void:
            self.progress.write(v, h.parts, self.sheet, row)
        if self._check_end(h, before, envs) or self._stopped_at_cap(h):
            return
        self._advance_dealer_and_deal(h)

    def _keep(self, h: Hand) -> None:
        """Write the finished hand ``h``'s choices into the match's :attr:`record` (once per
        deal, compactly: a long match keeps a few bytes per decision and no object per deal,
        issue 20); the hand itself is dropped, but by a replay (:attr:`hand_log`), which keeps it
        compactly (its tricks and deal as bytes), and by a light copy (a bot's world, thrown away
        after its hand), which keeps it as it is."""
        self.record.add(h.choices)
        self.record.open = None
        if self._kept is not None:
            if self._replayable and self._small and not isinstance(h.tricks, PlayedTricks):   # in bytes
                h.tricks = PlayedTricks(h.tricks)  # type: ignore[assignment]  # reads as the list
                h.deck_order = bytes(h.deck_order)  # type: ignore[assignment]  # a sequence of card indices
            self._kept.append(h)

    def _count(self, envs: list, entries: list) -> str:
        """Add this hand to the carried counters (:func:`~rulekit.engine.scoring.carry_counters`)."""
        from rulekit.engine.scoring import carry_counters
        return carry_counters(self.variant, self.counters, envs, entries, self.sheet.columns)

    def _stopped_at_cap(self, h: Hand) -> bool:
        """Stop the match when hand ``h`` was the last one the cap allows: ``max_hands``
        (``--max-hands``), else the variant's ``match.max_hands``.  Every deal counts,
        thrown-in ones too (else a game whose deals are always thrown in never ends)."""
        cap = self.max_hands if self.max_hands is not None else self.variant.match.max_hands
        deals = h.number + 1
        if cap is None or deals < cap:
            return False
        self.stop()
        s = "" if deals == 1 else "s"
        thrown = f", {self.thrown_in} thrown in" if self.thrown_in else ""
        if self.max_hands is not None:
            self.end_reason = f"stopped after {deals} hand{s}{thrown}"
        else:
            self.end_reason = (f"stopped after {deals} hand{s}{thrown} without a winner "
                               f"(match.max_hands); the best total wins")
        return True

    def _check_end(self, h: Hand, before: list, envs) -> bool:
        """Decide whether the match is over after hand ``h``; True if it is."""
        v = self.variant
        m = v.match
        after = self.sheet.totals()
        result = None
        won = self.progress.rubbers_won
        rounds = self.match_variant.rounds
        if rounds:
            if self.hands_played >= len(rounds):  # the schedule is over: the best total wins
                pick = min if v.scoring.lower_is_better else max
                best = pick(after)
                result = [c for c, x in enumerate(after) if x == best], f"all {len(rounds)} rounds played"
        elif m.rubbers_to_win and max(won) >= m.rubbers_to_win:
            # first to N rubbers (rules/whist.md: "until one pair wins an agreed number")
            cols = [c for c, x in enumerate(won) if x >= m.rubbers_to_win]
            result = cols, f"{self.sheet.columns[cols[0]]} won {m.rubbers_to_win} rubber{'' if m.rubbers_to_win == 1 else 's'}"
        elif m.rubbers and self.progress.rubbers >= m.rubbers:
            score = self.progress.game_points if m.result == "game_points" else after
            best = max(score)
            result = [c for c, x in enumerate(score) if x == best], f"{m.rubbers} rubber{'' if m.rubbers == 1 else 's'} played"
        elif not m.rubbers or m.deals is not None:
            result = match_result(v, h, before, after, self.hands_played, envs, self.sheet.columns, self.sheet)
        if result is None:
            return False
        cols, self.end_reason = result
        if v.scoring.by_side:
            self.winning_columns = list(cols)
            self.winners = [s for c in cols for s in v.sides[c]]
        else:
            self.winners = list(cols)
        h.to_move = -1
        return True

    def _advance_dealer_and_deal(self, h: Hand) -> None:
        self._start_hand(h.number + 1, self.variant.next_seat(h.dealer, self.variant.rotation))

    def _note(self, h: Hand, envs) -> str:
        """:meth:`describe_hand` of the hand just scored, remembered with the environments it
        reads when the score cache shares them (``score_played`` gives them as a tuple then):
        simulations repeat their outcomes (bounded)."""
        if type(envs) is not tuple:
            return self.describe_hand(h, envs)
        notes: dict[tuple, tuple] | None = self.variant.cache.get(_NOTES)
        if notes is None:
            notes = self.variant.cached(_NOTES, dict)
        key = (id(envs), h.declarer, h.partner, h.number in self.hand_rules and self.hand_rules[h.number].round_name,
               tuple(self.names))
        hit = notes.get(key)
        if hit is not None and hit[0] is envs:
            return hit[1]
        note = self.describe_hand(h, envs)
        if len(notes) >= 4096:
            notes.clear()
        notes[key] = (envs, note)   # (the environments kept: their id cannot be another's meanwhile)
        return note

    def describe_hand(self, h: Hand, envs=None) -> str:
        """One-line description for the sheet: ``P1 8H made (9 tricks)`` or ``no contract``;
        in a round schedule prefixed by the round's name (``no tricks``).

        "made" is the variant's own ``made`` formula when it has one (``scoring.let.made``),
        else tricks >= level.
        """
        rules = getattr(self, "hand_rules", {}).get(getattr(h, "number", None))
        if rules is not None and rules.round_name:  # one sheet line per round, with its name
            note = describe_under(rules, self.names, h, envs)
            return rules.round_name + (f": {note}" if note else "")
        return describe_under(self.variant, self.names, h, envs)

    # ------------------------------------------------------------------ observation / cloning
    def observation(self, seat: Seat) -> Observation:
        """What ``seat`` may see now (:class:`~rulekit.engine.observation.Observation`)."""
        from rulekit.engine.observation import observe
        return observe(self, seat)

    def clone(self, light: bool = False, hand: Hand | None = None) -> "State":
        """An independent copy.

        :param light: drop the match history, earlier hands and sheet rows (the sheet
            starts at the current totals), for bots' sampled worlds, which only play the
            current hand out.
        :param hand: the copy's current hand instead of a copy of this state's (a sampled
            world's hand, already a copy of it: the copy takes it as it is).
        """
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.hand = self.hand.clone() if hand is None else hand
        s.record = MatchRecord() if light else self.record.clone()
        s.record.open = s.hand if self.record.open is self.hand else None
        s._replica = None   # its own replay, when asked for
        # a light copy keeps the hands it finishes itself (a bot's world: one); no earlier ones
        s._kept = [] if light else list(self._kept) if self._kept is not None else None
        s._replayable = self._replayable and not light
        # a light copy starts a sheet at today's totals: copying every row of a long match for
        # each sampled world would make bots slower the longer the match (issue 10)
        s.sheet = (Sheet(self.sheet.columns, self.sheet.lower_is_better, self.sheet.totals()) if light
                   else self.sheet.clone())
        s.progress = self.progress.clone()
        s.markers = self.markers.clone()
        s.counters = {k: list(v) for k, v in self.counters.items()}
        s.winners = list(self.winners)
        s.chance = list(self.chance)
        s.hand_rules = dict(self.hand_rules)
        return s

    def result(self) -> dict[str, Any]:
        """Totals, winners, the reason the match ended and, when the variant settles in
        units (rules/bridge.md [S10]), what each winner gets from each loser (JSON-ready)."""
        out: dict[str, Any] = {"totals": self.sheet.totals(), "winners": list(self.winners), "reason": self.end_reason,
               "thrown_in": self.thrown_in}
        settle = self.variant.match.settle
        if self.winners and settle is not None:
            totals = out["totals"]
            ranked = sorted(totals, reverse=True)
            diff = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
            out["settlement"] = int(settle(Env({"difference": diff})))
        if self.variant.match.final is not None:
            from rulekit.engine.scoring import final_results
            out["final"] = final_results(self.variant, self.sheet)
        return out

    def stop(self) -> None:
        """End the match now, as players agreeing to stop: an unfinished rubber scores its
        bonuses (rules/bridge.md [S9]); the best total wins. No-op once the match is over."""
        if self.winners:
            return
        self.record.stops.append(self.actions_taken)
        v = self.variant
        m = v.match
        if m.unfinished_game or m.unfinished_part:
            bonus = self.progress.unfinished(v)
            if any(bonus):
                part = next((p.name for p in v.scoring.parts if not p.game), None)
                self.sheet.add(self.hand.number, bonus, note="unfinished rubber",
                               parts={part: bonus} if part else None, bonus=True)
        totals = self.sheet.totals()
        pick = min if v.scoring.lower_is_better else max
        best = pick(totals)
        cols = [c for c, t in enumerate(totals) if t == best]
        self.winners = [s for c in cols for s in v.sides[c]] if v.scoring.by_side else cols
        self.end_reason = "stopped"
        self.hand.to_move = -1

    def hand_cards(self, seat: Seat) -> list[Card]:
        """Card indices held by ``seat``, in the display order of the current context."""
        h = self.hand
        ctx = h.ctx or self.variant.contexts.get("NT") or next(iter(self.variant.contexts.values()))
        m = h.hands[seat]
        return [c for c in ctx.display_order if m >> c & 1]


def tally_notes(v: Variant, envs: list, cols: list) -> list:
    """``belote NS``, ``high P0``: each tally of dealt cards a column holds in full this hand (all
    the cards it counts: a bonus such as Belote's king and queen of trumps, All Fours' High), for
    the note; tallies of won tricks are left to the tricks."""
    # (name, most) of the tallies of dealt cards the entries read, listed once per variant
    full = v.cached(_DEALT_TALLIES, lambda: [(t.name, t.most) for t in v.scoring.tallies
                                             if t.most > 0 and t.where != "tricks" and t.name in _entry_names(v)])
    return [f"{name} {col}" for name, most in full for col, e in zip(cols, envs) if e.vars.get(name) == most]


_DEALT_TALLIES = "state.dealt_tallies"


def _entry_names(v: Variant) -> set:
    """The variables the formulas of the hand's entries read (a tally read only by a deal's
    ``throw_in_if`` is no bonus to note)."""
    sc = v.scoring
    fs = [sc.each, sc.declarer, sc.defender, sc.no_contract, sc.void_if, sc.made] + \
        [f for p in sc.parts for f in (p.declarer, p.defender, p.each)]
    return {n for f in fs if f is not None for n in f.names}


_NOTES = "state.notes"   # (id of an outcome's environments, declarer, partner, round, names) -> note
_NOTHING_WRITTEN = Written()
_TRICK_COUNTS = frozenset({"tricks", "declarer_tricks", "side_tricks"})


def _noting_phases(v: Variant) -> tuple:
    """``(kind, spec)`` of the phases of ``v`` whose kinds add words to a hand's note
    (:meth:`~rulekit.engine.phases.base.PhaseKind.note`), found once per variant."""
    out = v.cache.get(_NOTING)
    if out is None:
        out = v.cached(_NOTING, lambda: tuple((REGISTRY[p.kind], p) for p in v.phases
                                              if type(REGISTRY[p.kind]).note is not PhaseKind.note))
    return out


_NOTING = "state.noting_phases"


def describe_under(v: Variant, names: list, h: Hand | HandFacts, envs: list | None = None) -> str:
    """:meth:`State.describe_hand` of hand ``h`` (played, or known by its facts: the scorepad's)
    played under the rules ``v`` by ``names``."""
    if h.contract is None:
        if v.auction():
            return "no contract"
        parts = []
        if h.trump != "NT":
            parts.append(f"trumps {h.trump}")
        if v.has_card_points and envs is not None and not v.scoring.by_side:
            parts.append("points " + "/".join(str(e.vars["points"]) for e in envs))
        if envs is not None:   # what the phases add: each side's bid and tricks...
            cols = list(v.side_names) if v.scoring.by_side else list(names)
            parts += [w for kind, p in _noting_phases(v) if (w := kind.note(p, v, envs, cols))]
            if v.scoring.tallies:
                parts += tally_notes(v, envs, cols)
        return ", ".join(parts)
    # trumps chosen after the auction (named, or by the first lead of a no-trump contract) are shown
    later = h.contract.strain == "chosen" or (h.contract.strain == "NT" and h.trump != "NT")
    text = h.contract.text + (f" ({h.trump})" if later else "")
    text += ("", " X", " XX")[h.doubled]
    col = v.side_of[h.declarer] if v.scoring.by_side else h.declarer
    won = sum([h.won[s] for s in v.sides[col]]) if v.scoring.by_side else h.won[h.declarer]
    who = names[h.declarer]
    partner = h.partner
    if partner >= 0:  # a partner for this hand: their tricks together
        won += h.won[partner]
        who += f" with {names[partner]}"
    if envs is not None and v.scoring.made is not None:
        made = bool(envs[col].once(v.scoring.made))
    else:
        made = won >= h.contract.level
    made_of = getattr(v.scoring.made, "names", None)
    held = ""
    if envs is not None and v.scoring.tallies:
        held = "".join(", " + w for w in tally_notes(v, envs, list(v.side_names) if v.scoring.by_side else names))
    if made_of is not None and made_of.isdisjoint(_TRICK_COUNTS):
        return f"{who} {text} {'made' if made else 'failed'}{held}"   # made by points, not tricks
    return f"{who} {text} {'made' if made else 'failed'} ({won} trick{'' if won == 1 else 's'}){held}"


class _Replica:
    """The replay of a match from its starting facts and :class:`~rulekit.engine.record.MatchRecord`,
    kept beside it and moved on by the choices made since (:attr:`State.history`,
    :attr:`State.hand_log`).

    :ivar state: the replayed match, keeping its hands; ``texts`` the ``(seat, text)`` of each
        choice replayed; ``done`` how many.
    """

    __slots__ = ("state", "texts", "done", "failed")

    def __init__(self, live: State) -> None:
        self.state = State(live.match_variant, seed=live.seed, deals=live.deals, dealer=live.first_dealer,
                           scores=live.sheet.start, names=live.names, vulnerable=live.first_vulnerable,
                           max_hands=live.max_hands, dealing=live.dealing, keep_hands=True)
        self.texts: list[tuple[Seat, str]] = []
        self.done = 0
        self.failed = False   # a choice failed to replay (a formula that fails in play): stop there

    def follow(self, live: State) -> None:
        """Replay the choices ``live`` made since the last call."""
        codes = live.record.codes
        made = len(codes)
        cur = live._open_choices()
        total = made + len(cur)
        r = self.state
        stops = live.record.stops
        if self.failed:
            return
        if self.done == total:
            if stops and total in stops:
                r.stop()
            return
        texts = self.texts
        for i, c in enumerate(chain(codes[self.done:], cur[max(0, self.done - made):]), self.done):
            if stops and i in stops:
                r.stop()
            texts.append(history_entry(r.hand.to_move, r.choice_action(c)))
            self.done = i + 1
            try:
                r.apply_choice(c)
            except Exception:   # noqa: BLE001 - it failed in the match too: its text is kept, no more
                self.failed = True
                return
        self.done = total
        if stops and total in stops:
            r.stop()
