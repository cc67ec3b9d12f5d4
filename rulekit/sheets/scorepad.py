"""A scorepad for a table that plays with real cards (``rulekit score VARIANT``).

Per hand the pad asks only the facts the variant's scoring reads, found in the
compiled file, never written per game:

* ``contract`` — when the variant has an auction: a bid of its list, or ``pass``;
* ``declarer`` — the seat that won the auction;
* ``trump`` — when the contract leaves it to the declarer (``strain: chosen``), or a
  variant without an auction turns up or names trumps and its scoring reads them
  (``trump``, ``strain``, a tally of trump cards);
* ``doubled`` — when the auction has doubles (``-``, ``X``, ``XX``);
* ``tricks`` — per score column, when a formula reads tricks; they must add up to the
  tricks of a hand;
* ``points`` — card points per column, when the deck counts points and a formula reads
  them; they must add up to the points of the pack;
* each tally (``honours``, ``pictures``...) per column — only when its value changes the
  entries of this hand (tried over its whole range);
* the facts a phase kind gives formulas (``phase:NAME:FACT``, asked by the kind's
  :meth:`~rulekit.engine.phases.base.PhaseKind.pad_question`: who defended, a doubling
  chain, each player's trick bid, the maker of an order-up...), before the tricks; tricks are
  not asked when those facts say the trick play was skipped, nor anything more when they say
  the deal was thrown in (:meth:`~rulekit.engine.phases.base.PhaseKind.pad_thrown_in`).
  Without an auction these come first, then the trumps they set.

The tricks of a hand are those of its deal number when the deal has ``hand_sizes``.
Counters (``scoring.counters``, bags) carry from hand to hand by
:func:`~rulekit.engine.scoring.carry_counters`, as in a played match.

Markers (``scoring.markers``) are written and used as in a played match.

Vulnerability and the game score come from the sheet so far.  The hand is then scored
by :func:`~rulekit.engine.scoring.score_facts`, the functions a played hand goes
through, and written on the sheet by :class:`~rulekit.sheets.book.SheetBook`; the
match ends by :func:`~rulekit.engine.scoring.match_result` and the rubber rules, as a
played match does.  A pad is saved as JSON (the facts of every hand; the sheet is
rebuilt from them on loading).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from rulekit.engine.markers import Markers
from rulekit.engine.phases import REGISTRY, matadors
from rulekit.engine.phases.base import PhaseKind
from rulekit.engine.scoring import HandFacts, against_entries, carry_counters, match_result, score_facts
from rulekit.engine.state import describe_under
from rulekit.errors import RulekitError
from rulekit.sheets import padbounds
from rulekit.sheets.book import SheetBook
from rulekit.sheets.result import HandResult
from rulekit.text import visible

#: The ``kind`` of a saved pad.
PAD_KIND = "rulekit-scorepad"
DOUBLES = ("-", "X", "XX")
#: the name of the question of who deals first (:meth:`ScorePad.first_dealer_question`)
FIRST_DEALER = "first_dealer"
#: the formula variables a hand's tricks give (``side_tricks``: the declarer's and his partner's)
TRICK_VARIABLES = frozenset({"tricks", "declarer_tricks", "side_tricks"})
#: the facts typed as one number per column that add up to a hand's total (its tricks, the pack's points)
COUNTS = ("tricks", "points")


class FactError(RulekitError, ValueError):
    """An entry the pad refuses, with the reason (``tricks add up to 11, but a hand has 10``)."""


@dataclass(frozen=True)
class Question:
    """One fact the pad needs for the hand being entered.

    :ivar name: the fact (``contract``, ``declarer``, ``trump``, ``doubled``, ``tricks``,
        ``points``, or ``tally:NAME:COLUMN``).
    :ivar prompt: what to ask (``tricks N S`` ...).
    :ivar help: the accepted answers in words.
    """

    name: str
    prompt: str
    help: str


def _norm(value):
    """A fact as compared with another: texts without case or extra spaces."""
    return " ".join(value.lower().split()) if isinstance(value, str) else value


def spoken(name: str) -> str:
    """A variable's name as the table says it (``last_two`` -> ``last two``)."""
    return name.replace("_", " ")


class ScorePad:
    """The sheet of a table game, entered hand by hand.

    :param variant: the compiled variant.
    :param names: player names (default the variant's seat names, else ``P0``, ``P1``...).
    :param first_dealer: the seat that deals the first hand (default the variant's fixed
        first dealer, else seat 0; a variant that cuts for it asks it, see
        :meth:`first_dealer_question`).

    :ivar hands: the facts of every hand entered, as dicts (what the pad file stores).
    :ivar book: the :class:`~rulekit.sheets.book.SheetBook` (``book.sheet`` is the sheet).
    :ivar winners: winning columns once the match is over; ``end_reason`` why.
    """

    def __init__(self, variant, names: list | None = None, first_dealer: int | None = None):
        self.variant = variant
        #: the rules of the hand being entered: the round's in a schedule (``rounds:``), else the variant's
        self.rules = variant
        n = variant.players
        self.names = list(names or variant.seat_names or [f"P{i}" for i in range(n)])
        #: the first dealer is cut for ([D1]) and nobody has said who won the cut yet
        self.cut_open = first_dealer is None and "cut" in variant.first_dealer
        self._cut_said = False   # the first dealer was answered (undo asks it again)
        if first_dealer is None:
            first_dealer = variant.first_dealer.get("seat") or 0
        if not 0 <= first_dealer < n:
            raise FactError(f"seat {first_dealer} does not exist (expected 0..{n - 1})")
        self.first_dealer = first_dealer % n
        self.columns = list(variant.side_names) if variant.scoring.by_side else list(self.names)
        self.hands: list[dict] = []
        self.stopped = False
        #: the facts of a loaded pad's hands that no question of theirs asks (``hand 2: 'bogus'``),
        #: left out of :attr:`hands` (see :meth:`from_dict`)
        self.ignored: list[str] = []
        self._reset()

    def _use_rules(self) -> None:
        """Take the rules of the hand about to be entered (a schedule's next round) and what
        they read: formula variables, the auction's bids."""
        v = self.variant
        if v.rounds:   # as a played match: a deal redealt by the same dealer replays its round
            v = v.rounds[min(self.book.deals, len(v.rounds) - 1)]
        self.rules = v
        reads = set()
        sc, m = v.scoring, v.match
        formulas = [sc.each, sc.declarer, sc.defender, sc.no_contract, sc.void_if, sc.made, m.immediate_win,
                    sc.against_declarer, m.target_if]
        for p in sc.parts:
            formulas += [p.each, p.declarer, p.defender]
        formulas += [c.add for c in sc.counters]   # bags are counted from the hand's facts too
        #: the trick play's end conditions (``end_if``): play may stop before the cards run out
        self.end_if = tuple(f for p in v.phases if (f := REGISTRY[p.kind].ends_play_if(p)) is not None)
        formulas += list(self.end_if)   # what decides where play stops is a fact of the hand too
        for f in formulas:
            if f is not None:
                reads |= f.names
        self.reads = frozenset(reads)
        # a phase kind's variables (bid_tricks, nil_made...) are worked out from the tricks;
        # those of a kind played instead of the tricks (a pile, a layout) that asks no facts of
        # its own are its result: asked as numbers per column, as the table counts them
        given: set = set()
        self.asked_values: dict = {}
        #: the formula variables the card points give (the pad asks the points when one is read)
        self.point_variables = {"points", "declarer_points"}
        for spec in v.phases:
            kind = REGISTRY[spec.kind]
            self.point_variables |= kind.from_points(spec)
            own = kind.variables(spec)
            if kind.role != "auction":  # an auction's variables are the contract's attributes
                given |= set(own)
            if kind.stands_for and type(kind).pad_values is PhaseKind.pad_values:
                self.asked_values.update({k: spec for k in own if k in self.reads})
        self.needs_tricks = bool(TRICK_VARIABLES & self.reads or (given - set(self.asked_values))
                                 & self.reads) and any(REGISTRY[p.kind].role == "play" for p in v.phases)
        auction = v.auction()
        # (an auction of values: the contracts are the games named after it)
        self.bids = {b.text.upper(): b for b in REGISTRY[auction.kind].contracts(auction)} if auction else {}

    # ------------------------------------------------------------------ state of the match
    def _reset(self) -> None:
        self.book = SheetBook(self.variant, self.columns)
        self.markers = Markers(self.variant.scoring.markers, len(self.columns))
        #: scoring.counters (bags): name -> count per column, carried from hand to hand
        self.counters = {c.name: [0] * len(self.columns) for c in self.variant.scoring.counters}
        self.number = 0
        self.dealer = self.first_dealer
        self.winners: list = []
        self.end_reason = ""
        self._use_rules()

    @property
    def sheet(self):
        """The :class:`~rulekit.sheets.sheet.Sheet` so far."""
        return self.book.sheet

    @property
    def is_over(self) -> bool:
        """True once the match has ended (or the players stopped)."""
        return bool(self.winners) or self.stopped

    def vulnerable(self) -> list:
        """Vulnerability of each column on the hand being entered."""
        return self.book.vulnerable(self.dealer)

    # ------------------------------------------------------------------ questions
    def seat(self, text) -> int:
        """The seat of a name (``N``, ``P1``, case-insensitive) or number.

        :raises FactError: no such seat.
        """
        n = self.variant.players
        if isinstance(text, int) and not isinstance(text, bool):
            if 0 <= text < n:
                return text
        else:
            t = str(text).strip()
            low = [x.lower() for x in self.names]
            if t.lower() in low:
                return low.index(t.lower())
            if t.isdigit() and int(t) < n:
                return int(t)
        raise FactError(f"there is no seat {text!r} (expected {', '.join(self.names)})")

    def _trump_played(self) -> str:
        """Why a trump is surely played in every hand (the first card led makes trumps), or ``""``
        (:meth:`~rulekit.engine.phases.base.PhaseKind.pad_trump_played`)."""
        v = self.rules
        return next((why for p in v.phases if (why := REGISTRY[p.kind].pad_trump_played(p, v))), "")

    def _made(self, contract) -> tuple | None:
        """The trumps to name for a hand of ``contract`` by the last phase that makes them
        (:meth:`~rulekit.engine.phases.base.PhaseKind.pad_trump_choices`), or ``None``: no phase
        makes them for this contract."""
        v = self.rules
        made = [c for p in v.phases if (c := REGISTRY[p.kind].pad_trump_choices(p, v, contract)) is not None]
        return made[-1] if made else None

    def _trump_choices(self, contract) -> tuple:
        """The trumps the scorer names for a hand of ``contract`` (``()``: none to name): the phases'
        own (:meth:`_made`), else any suit for a contract that leaves them to its declarer."""
        made = self._made(contract)
        if made is not None:
            return made
        return tuple(self.rules.deck.suits) if contract is not None and contract.strain == "chosen" else ()

    def _strains(self) -> set:
        """The trumps the phases of a variant without an auction may set (an order-up: any
        suit; fixed trumps: one)."""
        v = self.rules
        out: set = set()
        for spec in v.phases:
            out |= REGISTRY[spec.kind].strains(spec, v.deck)
        return out

    def hand_size(self) -> int:
        """Cards each player holds in the hand being entered (the tricks of the hand): a
        schedule of hand sizes (``deal.hand_sizes``) is read by the deal number
        (:meth:`~rulekit.engine.phases.base.PhaseKind.hand_size`)."""
        v = self.rules
        sizes = (n for p in v.phases if (n := REGISTRY[p.kind].hand_size(p, self.number)) is not None)
        return next(sizes, v.hand_size)

    def _reads_trump(self) -> bool:
        return bool({"trump", "strain"} & self.reads) or any(t.trump_only for t in self.rules.scoring.tallies)

    def _contract_question(self) -> tuple | None:
        """``(spec, (fact, prompt, help))``: a fact the contracts' values depend on, asked before
        the contract (the suit of a card turned before the auction:
        :meth:`~rulekit.engine.phases.base.PhaseKind.pad_contract_question`), or ``None``."""
        v = self.rules
        bids = tuple(self.bids.values())
        return next(((p, q) for p in v.phases
                     if (q := REGISTRY[p.kind].pad_contract_question(p, v, bids)) is not None), None)

    def _contract(self, facts):
        """The contract of the ``facts`` valued by this hand's facts (a card turned before the
        auction: :meth:`~rulekit.engine.phases.base.PhaseKind.pad_contract`), or ``None``."""
        c = facts.get("contract")
        if c is None:
            return None
        bid = self.bids[c.upper()]
        for p in self.rules.phases:
            bid = REGISTRY[p.kind].pad_contract(p, self.rules, bid, facts)
        return bid

    def _early_end(self) -> bool:
        """Play may stop before the cards run out (a ``tricks`` phase with ``end_if``)."""
        return bool(self.end_if)

    def trick_total(self, facts: dict) -> tuple:
        """``(total, exact)``: the tricks of the hand add up to ``total``, exactly or (``exact``
        False: play may stop early, by an ``end_if`` or a claim) at most; a phase kind says so
        from the facts (:meth:`~rulekit.engine.phases.base.PhaseKind.pad_tricks`: after a close
        fewer tricks are played), else the hand's size."""
        v = self.rules
        for spec in v.phases:
            got = REGISTRY[spec.kind].pad_tricks(spec, v, self._phase_facts(facts, spec))
            if got is not None:
                return got[0], got[1] and not self.end_if
        return self.hand_size(), not self.end_if

    def end_words(self) -> str:
        """The end conditions in words (``the declarer has won a trick ...``)."""
        from rulekit.variant.explain import formula_words
        return " or ".join(f"{formula_words(c.text)} (`{c.text}`)" for c in self.end_if)

    def _partner_allowed(self, contract) -> bool:
        """A phase may give the declarer of ``contract`` a partner (the pad asks who)."""
        return contract is not None and any(REGISTRY[p.kind].partner_for(p, contract) for p in self.rules.phases)

    def _trump(self, facts) -> str:
        """The strain the hand was played in, from the facts so far."""
        contract = self._contract(facts)
        if contract is not None and contract.strain != "chosen" and self._made(contract) is None:
            return contract.strain
        if facts.get("trump"):
            return facts["trump"]
        strains = self._strains() if self.rules.auction() is None else set()
        return next(iter(strains)) if len(strains) == 1 else "NT"   # trumps fixed by the variant

    def _mask_size(self, tally, facts: dict | None = None) -> int:
        """The most ``tally`` can count in all (the pack's count of its cards)."""
        return padbounds.tally_most(self.rules, tally, self._trump(facts or {}))

    def tally_range(self, tally, col: int, facts: dict) -> tuple:
        """``(lowest, highest)`` count of ``tally`` for column ``col`` given the ``facts`` so far:
        within the column's most (:func:`~rulekit.sheets.padbounds.column_most`) and what the
        other columns' answers leave of the pack, and up to the exact total when it is known."""
        trump = self._trump(facts)
        cols = range(len(self.columns))
        known = {c: facts[f"tally:{tally.name}:{c}"] for c in cols if c != col and f"tally:{tally.name}:{c}" in facts}
        hi = min(padbounds.column_most(self, tally, col, facts, trump),
                 padbounds.tally_most(self.rules, tally, trump) - sum(known.values()))
        lo = 0
        exact = padbounds.exact_total(self, tally, facts, trump)
        if exact is not None:
            open_ = sum(padbounds.column_most(self, tally, c, facts, trump) for c in cols if c != col and c not in known)
            lo = max(0, exact - sum(known.values()) - open_)
        return lo, max(hi, 0)

    def next_question(self, facts: dict) -> Question | None:
        """The next fact the hand needs, given the ``facts`` answered so far (``None``: the
        hand is complete; :meth:`add` it)."""
        v = self.rules
        auction = v.auction()
        asked = self._contract_question() if auction is not None else None
        if asked is not None and asked[1][0] not in facts:
            return Question(*asked[1])
        if auction is not None and "contract" not in facts:
            bids = list(self.bids.values())
            return Question("contract", "contract", f"a bid from {bids[0].text} to {bids[-1].text}, or pass")
        contract = self._contract(facts)
        if auction is not None and contract is None and not REGISTRY[auction.kind].plays_all_passed(auction):
            return None  # thrown in
        if contract is not None and "declarer" not in facts:
            return Question("declarer", "declarer", "one of " + ", ".join(self.names))
        if self._partner_allowed(contract) and "partner" not in facts:
            return Question("partner", "partner", "one of " + ", ".join(self.names) + ", or none")
        if auction is None:  # who made trumps, his bids...: before the trumps, which they set
            q = self._phase_question(facts)
            if q is not None or self._thrown_in(facts):
                return q
        choices = self._trump_choices(contract)
        if choices and "trump" not in facts and (contract is not None or auction is None or self._reads_trump()):
            # with no auction the trumps change from hand to hand and the sheet's row names them
            return Question("trump", "trumps", "one of " + ", ".join(choices))
        doubles = REGISTRY[auction.kind].doubles(auction) if auction is not None else 0
        if contract is not None and doubles and "doubled" not in facts:
            words = DOUBLES if doubles == 2 else DOUBLES[:2]
            return Question("doubled", "doubled", "one of " + ", ".join(words) + " (- not doubled)")
        if auction is not None:
            q = self._phase_question(facts)
            if q is not None or self._marker_instead(facts):
                return q
        if contract is not None and "matadors" not in facts and self._matador_count(contract):
            return Question("matadors", "matadors", f"with N or without N, N from 1 to "
                            f"{self._matador_count(contract)} (the run of top trumps the declarer held or "
                            f"lacked, counting the {', '.join(v.scoring.matadors.zones) or 'his cards alone'} as dealt)")
        cols = self.columns
        size, exact = self.trick_total(facts)
        if "tricks" not in facts and self.needs_tricks and not self._unplayed(facts):
            if self._early_end():
                return Question("tricks", "tricks " + " ".join(cols),
                                f"{len(cols)} numbers, all of them, adding up to {size}, or less when play "
                                f"stopped early: it stops at once when {self.end_words()}")
            if not exact:
                return Question("tricks", "tricks " + " ".join(cols),
                                f"{len(cols)} numbers, all of them, adding up to {size}, or less when play "
                                f"stopped early (a claim)")
            return Question("tricks", "tricks " + " ".join(cols),
                            f"{len(cols)} numbers adding up to {size} (the last may be left out)")
        for name, spec in self.asked_values.items():   # a phase's own result, as the table counts it
            if f"value:{name}" not in facts:
                lo, hi, how = REGISTRY[spec.kind].pad_result(spec, v, name, self._phase_facts(facts, spec))
                return Question(f"value:{name}", f"{spoken(name)} " + " ".join(cols),
                                f"{len(cols)} numbers, one per column, " + (how or f"each {lo} to {hi}"))
        if v.has_card_points and "points" not in facts and self.point_variables & self.reads:
            if not self._all_points_won():
                return Question("points", "card points " + " ".join(cols),
                                f"{len(cols)} numbers, all of them, adding up to at most {sum(v.card_points)} "
                                f"(cards out of play hold the rest)")
            return Question("points", "card points " + " ".join(cols),
                            f"{len(cols)} numbers adding up to {v.points_total()} (the last may be left out)")
        trump = self._trump(facts)
        for t in v.scoring.tallies:
            if t.trump_only and trump not in v.deck.suits:
                for c in range(len(cols)):
                    facts.setdefault(f"tally:{t.name}:{c}", 0)   # no trumps: none to count
                continue
            if t.party in ("declaring", "others"):   # one count for that party, in every column
                key = f"tally:{t.name}:0"
                if key not in facts:
                    hi = padbounds.column_most(self, t, 0, facts, trump)
                    who = "the declaring party's" if t.party == "declaring" else "the other players'"
                    return Question(key, f"{spoken(t.name)} ({who})", f"a number from 0 to {hi}")
                continue
            if self._one_holder(t, facts):
                keys = [f"tally:{t.name}:{c}" for c in range(len(cols))]
                if any(k not in facts and self._matters(facts, t, c) for c, k in enumerate(keys)):
                    return Question(f"tally:{t.name}", f"{spoken(t.name)}: who", self._holder_help(t, facts))
                for k in keys:
                    facts.setdefault(k, 0)   # does not change this hand's entries: not asked
                continue
            skipped = []
            for c in range(len(cols)):
                key = f"tally:{t.name}:{c}"
                if key in facts:
                    continue
                lo, hi = self.tally_range(t, c, facts)
                if lo == hi:   # the other columns' counts leave one value: not asked
                    facts[key] = lo
                elif self._matters(facts, t, c):
                    return Question(key, f"{spoken(t.name)} {cols[c]}", f"a number from {lo} to {hi}")
                else:
                    skipped.append(key)
            for key in skipped:   # they do not change this hand's entries: not asked, the least they may be
                facts[key] = self.tally_range(t, int(key.rsplit(":", 1)[1]), facts)[0]
        return None

    def _one_holder(self, tally, facts: dict) -> bool:
        """One card at most counts for ``tally`` (a ``pick: highest`` or ``lowest``, the jack of
        trumps, the king of hearts): one column holds it or none, so the pad asks who, once, not
        each column."""
        return self._mask_size(tally, facts) == 1 and len(self.columns) > 1

    def _must_be_held(self, tally) -> bool:
        """Some column holds the card of ``tally``: a highest/lowest pick when a card of its kind
        was surely in play (trumps made by the first lead, or every card dealt to the players)."""
        return bool(tally.pick) and ((tally.trump_only and bool(self._trump_played())) or not self._aside())

    def _aside(self) -> bool:
        """The deal leaves cards out of the players' hands (a widow, a stub)."""
        return any(REGISTRY[p.kind].deals_aside(p) for p in self.rules.phases if p is not None)

    def _holder_help(self, tally, facts: dict | None = None) -> str:
        """The accepted answers to who holds ``tally`` (``-`` for none unless someone surely
        does, or none would contradict the ``facts``)."""
        who = ", ".join(self.columns)
        nobody = {f"tally:{tally.name}:{c}": 0 for c in range(len(self.columns))}
        must = self._must_be_held(tally) or (facts is not None and bool(self.problem({**facts, **nobody})))
        return f"who: one of {who}" + ("" if must else ", or - for none")

    def _answer_holder(self, tally, t: str, facts: dict) -> None:
        """Store who holds ``tally`` (a column, a player of it, or ``-``): 1 for that column, 0
        for the others.

        :raises FactError: no such column or player, or none when someone must hold it."""
        cols = self.columns
        if t.lower() in ("-", "none", "no one", "nobody"):
            if self._must_be_held(tally):
                why = (tally.trump_only and self._trump_played()) or "every card was dealt"
                raise FactError(f"{spoken(tally.name)}: someone held it ({why}); expected one of {', '.join(cols)}")
            col = -1
        elif t.lower() in [c.lower() for c in cols]:
            col = [c.lower() for c in cols].index(t.lower())
        else:
            try:
                seat = self.seat(t)
            except FactError:
                raise FactError(f"{spoken(tally.name)}: {t!r} is not a player (expected "
                                f"{self._holder_help(tally, facts)[5:]})") \
                    from None
            col = self.variant.side_of[seat] if self.variant.scoring.by_side else seat
        for c in range(len(cols)):
            facts[f"tally:{tally.name}:{c}"] = int(c == col)

    def _phase_question(self, facts: dict) -> Question | None:
        """The next fact a phase kind asks (who defended, each player's bid...), or ``None``."""
        v = self.rules
        for spec in v.phases:  # the facts phase kinds give formulas
            own = self._phase_facts(facts, spec)
            asked = REGISTRY[spec.kind].pad_question(spec, v, own, self.names)
            for k, val in own.items():  # a fact the kind settled without asking
                if k not in facts and k not in self._GIVEN:
                    facts[f"phase:{spec.name}:{k}"] = val
            if asked is not None:
                fact, prompt, help_ = asked
                return Question(f"phase:{spec.name}:{fact}", prompt, help_)
        return None

    #: what the pad tells phase kinds besides the facts: the hand's ``cards`` each (its tricks),
    #: ``marker_room``: marker name -> per column, whether it may take one more (its limits),
    #: ``marker_factor``: the declarer's marker factor (1: he plays without one, a plain contract)
    _GIVEN = ("cards", "marker_room", "marker_factor")

    def _phase_facts(self, facts: dict, spec) -> dict:
        """The facts of phase ``spec`` (``phase:NAME:FACT`` -> ``FACT``) with the general ones
        and ``cards``: the cards each player holds this hand."""
        pre = f"phase:{spec.name}:"
        return dict({k: val for k, val in facts.items() if not k.startswith("phase:")},
                    **{k[len(pre):]: val for k, val in facts.items() if k.startswith(pre)},
                    cards=self.hand_size(), marker_room=self._marker_room(),
                    marker_factor=self.markers.factor_for(facts.get("declarer", -1)))

    def _marker_room(self) -> dict:
        """Marker name -> per column, whether one more may be written now (``max``, ``not_below``)."""
        totals = self.sheet.totals()
        return {m.name: [self.markers.may_write(m.name, c, totals) for c in range(len(self.columns))]
                for m in self.variant.scoring.markers}

    def _marker_instead(self, facts: dict) -> tuple | None:
        """``(marker, seat)``: a phase kind's facts say the hand was not scored and that marker
        was written for the seat instead (:meth:`~rulekit.engine.phases.base.PhaseKind.pad_marker`)."""
        v = self.rules
        return next((m for spec in v.phases
                     for m in [REGISTRY[spec.kind].pad_marker(spec, v, self._phase_facts(facts, spec))] if m), None)

    def _thrown_in(self, facts: dict) -> bool:
        """A phase kind's facts say the deal was thrown in (all passed an order-up twice...),
        or the auction was passed out."""
        v = self.rules
        auction = v.auction()
        if auction is not None and "contract" in facts and facts["contract"] is None \
                and not REGISTRY[auction.kind].plays_all_passed(auction):
            return True
        return any(REGISTRY[spec.kind].pad_thrown_in(spec, v, self._phase_facts(facts, spec)) for spec in v.phases)

    def _unplayed(self, facts: dict) -> bool:
        """The facts say the trick play was skipped (every defender passed)."""
        v = self.rules
        skipped = set()
        for spec in v.phases:
            skipped |= set(REGISTRY[spec.kind].pad_skips(spec, v, self._phase_facts(facts, spec)))
        return any(REGISTRY[p.kind].role == "play" and p.name in skipped for p in v.phases)

    def _matters(self, facts: dict, tally, col: int) -> bool:
        """True when the value of ``tally`` for column ``col`` changes this hand's entries, over
        the values it may take (:meth:`tally_range`), with the tallies not yet asked at 0 or at
        their most (several may matter only together: All Fours' High, Low, Jack and Game add up
        toward a bid)."""
        key = f"tally:{tally.name}:{col}"
        lo, hi = self.tally_range(tally, col, facts)
        trump = self._trump(facts)
        most = {f"tally:{t.name}:{c}": padbounds.column_most(self, t, c, facts, trump)
                for t in self.rules.scoring.tallies for c in range(len(self.columns))}
        for background in ({}, {k: m for k, m in most.items() if k not in facts and k != key}):
            seen = set()
            for value in range(lo, hi + 1):
                trial = {**facts, **background, key: value}
                try:
                    seen.add(tuple(self._score(trial)[0]))
                except FactError:   # a value the other facts rule out (a claim's result, its points)
                    continue
                if len(seen) > 1:
                    return True
        return False

    def first_dealer_question(self) -> Question | None:
        """Who deals the first hand, when the variant's first dealer is cut for ([D1]) and the
        pad was not told (no ``first_dealer``): the table cuts with its cards and the pad asks
        who won, before the first hand's facts; ``None`` otherwise (its answer goes to
        :meth:`answer`, and sets :attr:`first_dealer`)."""
        if self.hands or not self.cut_open:
            return None
        card = "lowest" if self.variant.first_dealer.get("cut") == "low" else "highest"
        return Question(FIRST_DEALER, "first dealer (who won the cut)",
                        f"the player who cut the {card} card: one of {', '.join(self.names)}")

    def answer(self, question: Question, text: str, facts: dict) -> None:
        """Parse the typed answer to ``question`` and store it in ``facts`` (the first dealer:
        in :attr:`first_dealer`); a refused answer leaves ``facts`` as they were.

        :raises FactError: an impossible entry, with the reason (a contract that does not
            exist, a seat that does not exist, tricks that do not add up, a count no legal play
            gives with the answers so far, ...).
        """
        if question.name == FIRST_DEALER:
            self.first_dealer = self.seat(str(text))
            self.cut_open, self._cut_said = False, True
            self._reset()
            return
        trial = dict(facts)
        self._answer(question, text, trial)
        problem = self.problem(trial)
        if problem:
            raise FactError(problem)
        facts.clear()
        facts.update(trial)

    def problem(self, facts: dict) -> str:
        """Why the ``facts`` given so far cannot come from a legal play (``""``: they can):
        the tricks and the end of play (:func:`~rulekit.sheets.padbounds.tricks_problem`), each
        tally's counts (:meth:`tally_range`, with the exact total once every column is known),
        the results of a phase played instead of the tricks (its kind's ``pad_refuse``)."""
        tricks = facts.get("tricks")
        if tricks is not None:
            found = padbounds.tricks_problem(self, facts, tricks)
            if found:
                return found
        trump = self._trump(facts)
        cols = range(len(self.columns))
        for t in self.rules.scoring.tallies:
            got = {c: facts[f"tally:{t.name}:{c}"] for c in cols if f"tally:{t.name}:{c}" in facts}
            if not got:
                continue
            most = padbounds.tally_most(self.rules, t, trump)
            for c, x in got.items():
                top = padbounds.column_most(self, t, c, facts, trump)
                if x > top:
                    why = "the pack has only" if top == most else "it can hold at most"
                    return f"{spoken(t.name)} {self.columns[c]}: {x}, but {why} {top}"
            if t.party:   # a party's count in each of its players' columns: no sum over the columns
                if t.party != "own" and len(set(got.values())) > 1:
                    return f"{spoken(t.name)}: one count for all, but the columns give {sorted(set(got.values()))}"
                continue
            if sum(got.values()) > most:
                who = "" if most != 1 else " (one card: one column takes it)"
                return f"{spoken(t.name)}: {sum(got.values())} in all, but the pack has only {most}{who}"
            exact = padbounds.exact_total(self, t, facts, trump)
            if exact is not None and len(got) == len(cols) and sum(got.values()) != exact:
                return (f"{spoken(t.name)}: {sum(got.values())} in all, but every card ends in a won trick "
                        f"(all dealt, play run to its end), so the columns take all {exact}")
        values = self._asked(facts)
        for spec in self.rules.phases:
            mine = [{k: x for k, x in col.items() if self.asked_values.get(k) is spec} for col in values]
            if values and any(mine[0]) and all(f"value:{k}" in facts for k in mine[0]):
                found = REGISTRY[spec.kind].pad_refuse(spec, self.rules, self._phase_facts(facts, spec), mine)
                if found:
                    return found
        return ""

    def _matador_count(self, contract) -> int:
        """The most matadors ``contract`` may have (its trumps), 0 when the scoring has none or
        never reads them, or the contract has no trumps (a null)."""
        v = self.rules
        if v.scoring.matadors is None or not {"matadors", "with_matadors"} & self.reads:
            return 0
        return len(matadors.trump_order(v.context(contract.strain, getattr(contract, "group", ""))))

    def _asked(self, facts: dict) -> list:
        """Per column, the results of phases played instead of the tricks given so far."""
        cols = len(self.columns)
        out: list = [dict() for _ in range(cols)]
        for name in self.asked_values:
            for c, x in enumerate(facts.get(f"value:{name}") or []):
                out[c][name] = x
        return out if any(out) else []

    def _answer(self, question: Question, text: str, facts: dict) -> None:
        """Parse and store one answer (see :meth:`answer`)."""
        t = str(text).strip()
        name = question.name
        if name == "contract":
            if t.lower() in ("pass", "p", "-", "none"):
                facts["contract"] = None
                return
            if t.upper() not in self.bids:
                raise FactError(f"{t!r} is not a contract of {self.rules.id} (expected {question.help})")
            facts["contract"] = self.bids[t.upper()].text
        elif name == "declarer":
            facts["declarer"] = self.seat(t)
        elif (asked := self._contract_question()) is not None and name == asked[1][0]:
            spec = asked[0]
            try:
                REGISTRY[spec.kind].pad_answer(spec, self.rules, name, t, facts, self.names)
            except ValueError as e:
                raise FactError(str(e)) from None
        elif name == "partner":
            partner = -1 if t.lower() in ("none", "-", "", "-1") else self.seat(t)   # (-1: none, as stored)
            if partner == facts.get("declarer"):
                raise FactError("the declarer cannot be his own partner (expected another player, or none)")
            facts["partner"] = partner
        elif name == "trump":
            choices = self._trump_choices(self._contract(facts))
            if t.upper() not in choices:
                raise FactError(f"{t!r} is not a trump here (expected {question.help})")
            facts["trump"] = t.upper()
        elif name == "matadors":
            said = t.lower().split()
            most = self._matador_count(self._contract(facts))
            if len(said) != 2 or said[0] not in ("with", "without") or not said[1].isdigit() \
                    or not 1 <= int(said[1]) <= most:
                raise FactError(f"{t!r} is not a count of matadors (expected {question.help})")
            facts["matadors"] = f"{said[0]} {int(said[1])}"
        elif name == "doubled":
            words = {"-": 0, "": 0, "no": 0, "x": 1, "xx": 2}
            if t.lower() not in words or (words[t.lower()] == 2 and "XX" not in question.help):
                raise FactError(f"{t!r} is not a doubling (expected {question.help})")
            facts["doubled"] = words[t.lower()]
        elif name in COUNTS:
            facts[name] = self._numbers(name, t, facts)
            self._score(facts)   # tricks that contradict a phase's facts (a nil bidder's more than his side's)
        elif name.startswith("value:"):
            var = name.split(":", 1)[1]
            spec = self.asked_values[var]
            lo, hi, _how = REGISTRY[spec.kind].pad_result(spec, self.rules, var, self._phase_facts(facts, spec))
            nums = [self._number(w, question.prompt) for w in t.replace(",", " ").split()]
            if len(nums) != len(self.columns) or not all(lo <= x <= hi for x in nums):
                raise FactError(f"{question.prompt}: expected {question.help}")
            facts[name] = nums
        elif name.startswith("phase:"):
            _, pname, fact = name.split(":", 2)
            spec = next(p for p in self.rules.phases if p.name == pname)
            own = self._phase_facts(facts, spec)
            try:
                REGISTRY[spec.kind].pad_answer(spec, self.rules, fact, t, own, self.names)
            except ValueError as e:
                raise FactError(str(e)) from None
            facts[name] = own[fact]
        elif name.startswith("tally:") and name.count(":") == 1:   # who holds a one-card tally
            tally = next(x for x in self.rules.scoring.tallies if x.name == name.split(":")[1])
            self._answer_holder(tally, t, facts)
        else:
            _, tname, col = name.split(":")
            tally = next(x for x in self.rules.scoring.tallies if x.name == tname)
            if tally.party in ("declaring", "others"):   # one count, for every column
                value = self._number(t, spoken(tname))
                hi = padbounds.column_most(self, tally, 0, facts, self._trump(facts))
                if not 0 <= value <= hi:
                    raise FactError(f"{spoken(tname)}: {value} is not possible (expected 0 to {hi})")
                for c in range(len(self.columns)):
                    facts[f"tally:{tname}:{c}"] = value
                return
            what = f"{spoken(tname)} {self.columns[int(col)]}"   # the question's words, not its key
            value = self._number(t, what)
            lo, hi = self.tally_range(tally, int(col), facts)
            if value < 0:
                raise FactError(f"{what}: {value} cannot be negative (expected {lo} to {hi})")
            others = sum(facts.get(f"tally:{tname}:{c}", 0) for c in range(len(self.columns)) if c != int(col))
            most = self._mask_size(tally, facts)
            if others + value > most:
                raise FactError(f"{spoken(tname)}: {others + value} in all, but the pack has only {most}")
            if not lo <= value <= hi:
                raise FactError(f"{what}: {value} is not possible with the counts so far (expected {lo} to {hi})")
            facts[name] = value

    def _all_points_won(self) -> bool:
        """Every card point ends in a won trick: the deal leaves no cards aside, or they go to a
        player at the end (``widow_to``), and so do the discards of a widow taken (``discards_to``)
        (Auction Pitch leaves 28 cards out of play)."""
        phases = [p for p in self.rules.phases if p is not None]
        aside = any(REGISTRY[p.kind].deals_aside(p) for p in phases)
        gives = [REGISTRY[p.kind].gives_aside(p) for p in phases]
        to_widow = any(w for w, _d in gives)
        to_discards = any(d for _w, d in gives)
        takes = any(REGISTRY[p.kind].role == "exchange" for p in phases)
        return not aside or (to_widow and (to_discards or not takes))

    @staticmethod
    def _number(t, what: str) -> int:
        try:
            return int(t)
        except (TypeError, ValueError):
            raise FactError(f"{what}: {t!r} is not a number") from None

    def _numbers(self, fact: str, t: str, facts: dict) -> list:
        v = self.rules
        cols = self.columns
        total, exact = self.trick_total(facts) if fact == "tricks" else (v.points_total(), True)
        words = t.replace(",", " ").split()
        nums = [self._number(w, fact) for w in words]
        if (fact == "tricks" and not exact) or (fact == "points" and not self._all_points_won()):
            # tricks or points may add up to less: every column is given
            if len(nums) != len(cols) or any(x < 0 for x in nums) or sum(nums) > total:
                raise FactError(f"{fact}: expected {len(cols)} numbers ({' '.join(cols)}), none negative, "
                                f"adding up to at most {total}")
            return nums
        if len(nums) not in (len(cols), len(cols) - 1):
            raise FactError(f"{fact}: {len(words)} number{'' if len(words) == 1 else 's'}, but there are "
                            f"{len(cols)} columns "
                            f"({' '.join(cols)}; the last may be left out)")
        if any(x < 0 for x in nums):
            raise FactError(f"{fact} cannot be negative (expected {len(cols)} numbers adding up to {total})")
        if sum(nums) > total or (len(nums) == len(cols) and sum(nums) != total):
            raise FactError(f"{fact} add up to {sum(nums)}, but a hand has {total}")
        if len(nums) == len(cols) - 1:
            nums.append(total - sum(nums))  # the last column has the rest
        return nums

    # ------------------------------------------------------------------ scoring
    def _hand(self, facts: dict) -> HandFacts:
        """The :class:`~rulekit.engine.scoring.HandFacts` of the ``facts`` (tallies not given: 0).

        :raises FactError: the facts contradict a phase's (its ``pad_values`` refuses them)."""
        v = self.rules
        cols = len(self.columns)
        tallies = [{t.name: facts.get(f"tally:{t.name}:{c}", 0) for t in v.scoring.tallies} for c in range(cols)]
        contract, declarer = self._contract(facts), facts.get("declarer", -1)
        tricks = facts.get("tricks") or [0] * cols
        won = [0] * v.players
        for seat, x in zip((s[0] for s in v.sides) if v.scoring.by_side else range(v.players), tricks):
            won[seat] = x
        values: list = [dict() for _ in range(cols)]
        for spec in v.phases:   # (each phase sees the variables of those before: the party announcing)
            try:
                per_col = REGISTRY[spec.kind].pad_values(spec, v, dict(self._phase_facts(facts, spec), columns=values),
                                                         contract, won)
            except ValueError as e:
                raise FactError(str(e)) from None
            for c, vals in enumerate(per_col[:cols]):
                values[c].update(vals)
        for name in self.asked_values:
            for c, x in enumerate(facts.get(f"value:{name}") or [0] * cols):
                values[c][name] = x
        if v.scoring.matadors is not None:
            words = (facts.get("matadors") or "without 0").split()
            n, with_ = int(words[1]), words[0] == "with"
            for c in range(cols):
                values[c].update(matadors=n, with_matadors=with_)
        return HandFacts(contract, declarer, self._trump(facts), list(tricks), facts.get("points"),
                         facts.get("doubled", 0), tallies, self.vulnerable(), list(self.book.progress.game_score),
                         partner=facts.get("partner", -1), markers=self.markers.factors(declarer),
                         phase_values=values, won=won, totals=self.sheet.totals(), number=self.number,
                         dealer=self.dealer)

    def _score(self, facts: dict) -> tuple:
        """``(entries, parts, void, envs)`` of the ``facts`` (:func:`~rulekit.engine.scoring.score_facts`)."""
        return score_facts(self.rules, self._hand(facts))

    def _envs(self, facts: dict) -> list:
        """The scoring environments of the ``facts`` (for end conditions)."""
        return self._score(facts)[3]

    def check(self, facts: dict) -> dict:
        """Check a hand's facts (as :meth:`answer` would, each one) and return them completed
        (facts the hand does not need dropped, tallies that do not matter set to 0).

        :raises FactError: a missing or impossible fact, with the reason.
        """
        given = {k: val for k, val in facts.items() if val is not None or k == "contract"}
        out: dict = {}
        answered: set = set()
        while True:
            q = self.next_question(out)
            if q is None:
                for k, val in out.items():   # a fact the pad settled itself must agree with the one given
                    if k in given and k not in answered and _norm(given[k]) != _norm(val):
                        raise FactError(f"hand {self.number + 1}: {spoken(k.split(':')[-1])} is {given[k]!r}, but "
                                        f"the other facts give {val!r}")
                return out
            if q.name.count(":") == 1 and q.name.startswith("tally:"):   # who holds it: stored per column
                held = [given.get(f"{q.name}:{c}") for c in range(len(self.columns))]
                if None not in held and sum(bool(x) for x in held) > 1:
                    raise FactError(f"hand {self.number + 1}: {spoken(q.name[6:])}: {sum(bool(x) for x in held)} in "
                                    f"all, but the pack has only 1 (one card: one column takes it)")
                if None not in held:
                    given[q.name] = next((self.columns[c] for c, x in enumerate(held) if x), "-")
            if q.name not in given:
                raise FactError(f"hand {self.number + 1}: the {q.prompt} are missing ({q.help})"
                                if q.name in COUNTS else
                                f"hand {self.number + 1}: the {q.prompt} is missing (expected {q.help})")
            val = given[q.name]
            text = " ".join(str(x) for x in val) if isinstance(val, list) else (
                "pass" if val is None else DOUBLES[val] if q.name == "doubled" else str(val))
            before = set(out)
            self.answer(q, text, out)
            answered |= set(out) - before

    def _same_seat(self, given, seat: int) -> bool:
        try:
            return self.seat(given) == seat
        except FactError:
            return False

    def add(self, facts: dict) -> HandResult:
        """Score a hand from its facts and write it on the sheet.

        :param facts: ``contract`` (bid text or ``None``), ``declarer`` (seat or name),
            ``trump``, ``doubled`` (0, 1, 2), ``tricks`` and ``points`` (per column), and
            ``tally:NAME:COLUMN`` counts: those :meth:`next_question` asks for.
        :returns: the :class:`~rulekit.sheets.result.HandResult` written.
        :raises FactError: the match is over, or a fact is missing or impossible.
        """
        if self.is_over:
            raise FactError("the match is over (undo the last hand to change it)")
        facts = self.check(facts)
        v = self.rules
        before = self.sheet.totals()
        auction = v.auction()
        contract = self._contract(facts)
        if self._thrown_in(facts):
            same = auction is not None and REGISTRY[auction.kind].redeals_same(auction)
            marks = () if same else tuple(self.markers.thrown_in(self.sheet.totals()))
            result = HandResult(self.number, self.dealer, thrown_in=True, void=True, counted=not same,
                                entries=tuple([0] * len(self.columns)), facts=facts, marks=marks)
            self.book.add(result)
            self.hands.append(facts)
            if not same:
                self._end(HandFacts(void=True), None, before)
            self._next(same)
            return result
        instead = self._marker_instead(facts)
        if instead is not None:   # not scored: one marker for the declarer ([R1] [R3])
            name, seat = instead
            marks = tuple(self.markers.write(name, seat, self.sheet.totals()))
            note = f"{facts.get('contract')} not played: {name} for {self.names[seat]}"
            result = HandResult(self.number, self.dealer, facts.get("contract"), seat, dict(facts),
                                tuple([0] * len(self.columns)), void=True, note=note, marks=marks)
            self.book.add(result)
            self.hands.append(facts)
            self._end(HandFacts(contract, seat, void=True), None, before)
            self._next(False)
            return result
        hand = self._hand(facts)
        entries, parts, void, envs = score_facts(v, hand)
        counted = carry_counters(v, self.counters, envs, entries, self.columns) if self.counters and not void else ""
        declarer = hand.declarer
        note = describe_under(v, self.names, hand, envs) + counted   # a played hand's row note, by the engine
        if v.round_name:  # one sheet line per round, with its name (as a played match writes it)
            note = v.round_name + (f": {note}" if note else "")
        stored = dict(facts, vulnerable=self.vulnerable(), game_score=list(self.book.progress.game_score))
        from rulekit.sheets.result import Against
        against = () if void else tuple(Against(a["column"], a["target"], a["value"], a["part"])
                                        for a in against_entries(v, declarer, envs))
        events: list = []
        if v.scoring.markers and declarer >= 0 and not void:  # as a played hand marks them
            dcol = v.side_of[declarer] if v.scoring.by_side else declarer
            events = self.markers.played(declarer, bool(v.scoring.made(envs[dcol])) if v.scoring.made else True)
        result = HandResult(self.number, self.dealer, facts.get("contract"), declarer, stored, tuple(entries),
                            parts, against, void, note=note, marks=tuple(events))
        self.book.add(result)
        self.hands.append(facts)
        self._end(hand, envs, before)
        self._next(False)
        return result

    def _next(self, same_dealer: bool) -> None:
        self.number += 1
        if not same_dealer:
            self.dealer = self.variant.next_seat(self.dealer, self.variant.rotation)
        self._use_rules()

    def _end(self, hand: HandFacts, envs, before) -> None:
        """Whether the match is over, as :meth:`~rulekit.engine.state.State._check_end` decides
        it for a played match (trick order, which the pad does not know, cannot break a tie)."""
        v = self.variant
        m = v.match
        after = self.sheet.totals()
        progress = self.book.progress
        won = progress.rubbers_won
        result = None
        if v.rounds:
            if self.book.deals >= len(v.rounds):  # the schedule is over: the best total wins
                best = (min if v.scoring.lower_is_better else max)(after)
                result = [c for c, x in enumerate(after) if x == best], f"all {len(v.rounds)} rounds played"
        elif m.rubbers_to_win and max(won) >= m.rubbers_to_win:
            cols = [c for c, x in enumerate(won) if x >= m.rubbers_to_win]
            result = cols, f"{self.columns[cols[0]]} won {m.rubbers_to_win} rubber{'' if m.rubbers_to_win == 1 else 's'}"
        elif m.rubbers and progress.rubbers >= m.rubbers:
            score = progress.game_points if m.result == "game_points" else after
            best = max(score)
            result = [c for c, x in enumerate(score) if x == best], f"{m.rubbers} rubber{'' if m.rubbers == 1 else 's'} played"
        elif not m.rubbers or m.deals is not None:
            # with the sheet: the final results decide a match whose totals end it ([S8])
            result = match_result(v, hand, before, after, self.book.deals, envs, self.columns, sheet=self.sheet)
        if result is not None:
            self.winners, self.end_reason = list(result[0]), result[1]

    def stop(self) -> None:
        """The players stop: an unfinished rubber scores its bonuses (rules/bridge.md [S9]);
        the best total wins.  No-op once the match is over."""
        if self.is_over:
            return
        self.book.stop(self.number)
        totals = self.sheet.totals()
        best = (min if self.variant.scoring.lower_is_better else max)(totals)
        self.winners = [c for c, t in enumerate(totals) if t == best]
        self.end_reason = "stopped"
        self.stopped = True

    def undo(self) -> dict:
        """Remove the last hand (or the stop; before the first hand, the first dealer answered
        to :meth:`first_dealer_question`, asked again); return its facts.

        :raises FactError: no hand to undo.
        """
        if self.stopped:
            self.stopped = False
            hands = list(self.hands)
            last = {"stop": True}
        elif not self.hands and self._cut_said:
            self.cut_open, self._cut_said = True, False
            return {FIRST_DEALER: self.first_dealer}
        elif not self.hands:
            raise FactError("there is no hand to undo")
        else:
            hands, last = self.hands[:-1], self.hands[-1]
        self.hands = []
        self._reset()
        for f in hands:
            self.add(f)
        return last

    # ------------------------------------------------------------------ files
    def as_dict(self) -> dict:
        """JSON-ready form: the facts of every hand (the sheet is kept for readers, and
        rebuilt from the facts on loading); a variant that is not exactly an installed one is
        stored whole (``variant_text``), so the pad resumes anywhere without opening a file."""
        from rulekit.records import stored_text
        return {"kind": PAD_KIND, "version": 1, "variant": self.variant.id, "variant_hash": self.variant.hash,
                "variant_text": stored_text(self.variant), "players": self.variant.players, "names": self.names, "first_dealer": self.first_dealer,
                "hands": self.hands, "stopped": self.stopped, "sheet": self.sheet.as_dict(),
                "winners": self.winners, "end_reason": self.end_reason}

    @classmethod
    def from_dict(cls, variant, data: dict, source: str = "pad") -> "ScorePad":
        """Rebuild a pad from :meth:`as_dict` output, re-entering every hand.

        A fact of a hand that none of its questions asks is left out, and named in
        :attr:`ignored` (the caller warns: the pad no longer holds it once saved).

        :raises FactError: the data is not a pad of ``variant`` (its shape, version, variant or
            the variant's hash), a hand in it is refused, or the sheet it stores differs from the
            one its hands give (the pad was altered).
        """
        from rulekit.records import first_difference
        from rulekit.sheets import padfile
        problem = padfile.shape_problem(data)
        if problem:
            raise FactError(f"{source}: {problem}")
        if data["variant"] != variant.id:
            raise FactError(f"{source}: a scorepad of {data['variant']!r}, not of {variant.id!r}")
        if data["variant_hash"] != variant.hash:
            raise FactError(f"{source}: the variant {variant.id!r} has changed since this pad was written (hash "
                            f"{data['variant_hash'][:12]} != {variant.hash[:12]}); its hands cannot be scored as "
                            f"they were")
        names = data["names"]
        if len(names) != variant.players or data["players"] != variant.players:
            raise FactError(f"{source}: a pad of {len(names)} players, but {variant.id} is played by {variant.players}")
        pad = cls(variant, names, data["first_dealer"])
        for i, facts in enumerate(data["hands"]):
            try:
                pad.add(facts)
            except FactError as e:
                raise FactError(f"{source}: hand {i + 1}: {e}") from None
            pad.ignored += [f"hand {i + 1}: {k!r}" for k in facts if k not in pad.hands[-1]]
        if data.get("stopped"):
            pad.stop()
        stored, rebuilt = json.loads(json.dumps(data["sheet"])), json.loads(json.dumps(pad.sheet.as_dict()))
        for block in (stored, rebuilt):
            for row in block.get("rows") or ():
                if isinstance(row, dict):
                    row.pop("note", None)   # words, written anew (a pad of an older wording still loads)
        problem = first_difference(stored, rebuilt, "sheet")
        if not problem and (data.get("winners", []) != pad.winners):
            problem = f"winners: stored {data.get('winners')!r}, rebuilt {pad.winners!r}"
        if problem:
            raise FactError(f"{source}: the sheet stored in the pad differs from the sheet its hands give "
                            f"({problem}); the pad was altered")
        return pad

    # ------------------------------------------------------------------ exports
    def export_json(self) -> str:
        """The whole sheet as JSON: one object per row (:func:`~rulekit.sheets.padfile.table`)."""
        from rulekit.sheets import padfile
        return padfile.to_json(self)

    def export_csv(self) -> str:
        """The whole sheet as CSV, a header naming each column (:func:`~rulekit.sheets.padfile.table`)."""
        from rulekit.sheets import padfile
        return padfile.to_csv(self)

    def export_text(self, width: int = 100) -> str:
        """The sheet in the variant's layout as plain text."""
        from rulekit.sheets.render import sheet_text
        text = sheet_text(self.sheet, self.variant, width=width, title=f"{self.variant.name} — score sheet")
        return visible(text)

