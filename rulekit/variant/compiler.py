"""Check the meaning of a resolved variant document and compile it.

:func:`compile_variant` turns a :class:`~rulekit.variant.loader.Resolved`
document into an immutable :class:`~rulekit.variant.model.Variant`: the deck,
one :class:`~rulekit.variant.model.Context` table per trump choice, phase
specs, compiled formulas.  Every problem becomes a
:class:`~rulekit.errors.Diagnostic` carrying the file, line and column through
the ``extends:`` chain; all of them are collected before
:class:`~rulekit.errors.VariantError` is raised.
"""
from __future__ import annotations

import copy
import dataclasses
import difflib
import hashlib
import itertools
import json
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulekit.cards import DEFAULT_COLOURS, JOKER, SUIT_SYMBOLS, Deck, Special, bits, normalise_card_text
from rulekit.dsl import Env, Formula, FormulaError, compile_expr, compile_ranking
from rulekit.dsl.bounds import interval
from rulekit.engine.phases import REGISTRY, kinds_with_role
from rulekit.errors import CardError, Diagnostic, DSLError, VariantError
from rulekit.variant.contexts import LOW, Rankings
from rulekit.variant.loader import Resolved, order_diagnostics
from rulekit.variant.model import (BASE_NAMES, CONTRACT_NAMES, MATADOR_NAMES, NAME_TYPES, NT, Context, CounterSpec,
                                   MarkerSpec, MatadorSpec, MatchSpec, PartSpec, ScoringSpec, TallySpec, Variant)


#: Most hands a match may need to reach its end (a target, a game) at the best possible
#: entry per hand; a file needing more is refused (issue 13: matches that never end).
MAX_HANDS_TO_END = 1000
#: Most deals in a match (the schema's maximum for match.deals).
MAX_DEALS = 1000
#: Most value combinations tried when confirming a formula flagged by its static bounds.
MAX_TRIALS = 4000
#: The bound assumed for a running total (the formula variable ``total``) by the formulas'
#: bounds checks: a match's totals stay well within it (a target is at most 10^6).
TOTAL_BOUND = 10 ** 9


@dataclass(frozen=True)
class VariantWarning(Diagnostic):
    """A problem that does not stop the variant from playing (an option with no effect).

    ``str(w)`` is ``FILE:LINE:COL: warning: path: message``; ``rulekit validate``
    counts it as an error only with ``--strict``.
    """

    def __str__(self) -> str:
        head = f"{self.file}:{self.line}:{self.column}: warning: {self.path or '(document)'}: {self.message}"
        return head + ("\n" + self.excerpt if self.excerpt else "")

    def as_dict(self) -> dict:
        """Like :meth:`Diagnostic.as_dict`, with ``"severity": "warning"``."""
        return {**super().as_dict(), "severity": "warning"}


def _typed(names) -> dict:
    """``names`` with their :data:`NAME_TYPES` (for :func:`~rulekit.dsl.compile_expr`)."""
    return {n: NAME_TYPES.get(n, "any") for n in names}

# The DSL strings of a variant document: path pattern ("*" any key) -> start rule.
DSL_PATHS = (
    (("ranking", "suit"), "ranking"), (("ranking", "trump"), "ranking"), (("ranking", "top"), "ranking"),
    (("ranking", "powerless"), "ranking"), (("ranking", "low", "suit"), "ranking"),
    (("ranking", "low", "trump"), "ranking"), (("ranking", "suit", "*"), "ranking"),
    (("ranking", "trump", "*"), "ranking"), (("ranking", "low", "suit", "*"), "ranking"),
    (("ranking", "low", "trump", "*"), "ranking"),
    (("contract_groups", "*", "ranking", "suit"), "ranking"), (("contract_groups", "*", "ranking", "trump"), "ranking"),
    (("contract_groups", "*", "ranking", "top"), "ranking"),
    (("contract_groups", "*", "ranking", "powerless"), "ranking"),
    (("contract_groups", "*", "ranking", "suit", "*"), "ranking"),
    (("contract_groups", "*", "ranking", "trump", "*"), "ranking"),
    (("phases", "*", "renege"), "ranking"),
    (("dealer", "first", "ranks"), "ranking"), (("dealer", "first", "suits"), "ranking"),
    (("phases", "*", "pattern"), "deal"), (("phases", "*", "pattern", "*"), "deal"),
    (("scoring", "let", "*"), "expr"), (("scoring", "each"), "expr"), (("scoring", "declarer"), "expr"),
    (("scoring", "defender"), "expr"), (("scoring", "no_contract"), "expr"), (("scoring", "void_if"), "expr"),
    (("match", "immediate_win"), "expr"), (("match", "deals"), "expr"), (("match", "target_if"), "expr"),
    (("scoring", "parts", "*", "declarer"), "expr"), (("scoring", "parts", "*", "defender"), "expr"),
    (("scoring", "parts", "*", "each"), "expr"), (("match", "game", "value"), "expr"),
    (("match", "rubber", "bonus"), "expr"), (("match", "settle"), "expr"),
    (("scoring", "against_declarer"), "expr"), (("match", "final"), "expr"),
    (("phases", "*", "end_if"), "expr"), (("phases", "*", "claim", "made_if"), "expr"),
)


class _LetNotes(Mapping):
    """Why a name is not usable in the ``i``-th ``scoring.let`` formula: the notes of the scoring
    formulas, and each let at or after it (a let uses only the ones above it).  A view over the
    let order, so checking ``n`` lets takes time linear in ``n``, not a dictionary per let."""

    LATER = "it is defined later in scoring.let (expected only the ones above it here)"
    ITSELF = "a let formula cannot use itself"

    def __init__(self, notes: Mapping[str, str], order: Mapping[str, int], i: int):
        self.notes, self.order, self.i = notes, order, i

    def __getitem__(self, name: str) -> str:
        at = self.order.get(name, -1)
        if at > self.i:
            return self.LATER
        if at == self.i:
            return self.ITSELF
        return self.notes[name]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (self.order.get(name, -1) >= self.i or name in self.notes)

    def __iter__(self):
        return iter([*self.notes, *(n for n, at in self.order.items() if at >= self.i)])

    def __len__(self) -> int:
        return len(self.notes) + sum(1 for at in self.order.values() if at >= self.i)

    def __bool__(self) -> bool:   # asked once per formula: never count
        return True


def _dig(p: dict, dotted: str):
    """The value at the dotted key ``claim.made_if`` of mapping ``p`` (``None``: absent)."""
    x: object = p
    for k in dotted.split("."):
        if not isinstance(x, dict):
            return None
        x = x.get(k)
    return x


def _dotted(path) -> str:
    return ".".join(str(x) for x in path if x != "<key>")


def _close(name: str, known) -> str:
    """``"; did you mean X?"`` for the closest of ``known``, or ``""``."""
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.5)
    return f"; did you mean {close[0]}?" if close else ""


def _item_text(it) -> str:
    return f"{it.value}:{it.ref}" if it.kind == "relative" else it.value




class _Compiler:
    def __init__(self, r: Resolved, settings: dict):
        if r.data is None:   # (compile_variant and check never compile an empty file)
            raise VariantError(r.diagnostics or [Diagnostic(r.top_file, 1, 1, "", "empty variant file")])
        self.r = r
        self.d: dict = r.data
        self.settings = dict(settings)
        self.diags: list[Diagnostic] = list(r.diagnostics)
        self.macros: dict = {}
        self.bad_lets: set = set()
        self.warnings: list[VariantWarning] = [   # the loader's: a null in this file that removes nothing
            VariantWarning(d.file, d.line, d.column, d.path, d.message) for d in r.notes if d.file == r.top_file]
        self.phase_vars: dict = {}  # formula variables the phase kinds give: name -> (lo, hi)
        self.formulas: dict = {}  # document path -> compiled Formula (for the bounds checks)
        self.scheduled = bool(self.d and self.d.get("rounds"))  # a round schedule ends the match

    def err(self, path, msg):
        """A problem at the value at ``path`` (``path + ("<key>",)``: at its key).

        A problem at a rule of a base file (``extends:``) is reported once: at the base file's
        rule when the base has it by itself, else in the checked file, whose settings cause
        it: at its own deck change when the problem is with the deck (user pass finding 6: the
        base file's rules were right for the deck they were written for), else at its
        ``extends:`` line, naming the rule's place (the base file may not even be in the user's
        folder)."""
        pos = self.r.pos(path)
        here = Diagnostic(pos.file, pos.line, pos.column, _dotted(path), msg)
        if pos.file == self.r.top_file or (pos.line, pos.column, msg) in self.r.own_problems(pos.file):
            self.diags.append(here)
            return
        # a base file's problem with the deck ("not a card of this deck", "the deck has 48")
        cause = self.deck_change() if "deck" in msg else None
        if cause is not None:
            at = self.r.pos(cause)
            self.diags.append(Diagnostic(at.file, at.line, at.column, _dotted(cause),
                                         f"this change of the base file's deck breaks its rule at {pos.file}:"
                                         f"{pos.line}:{pos.column} ({_dotted(path)}; override that rule here too, "
                                         f"or keep the deck): {msg}"))
        elif ("extends",) in self.r.positions and self.r.positions[("extends",)].file == self.r.top_file:
            at = self.r.positions[("extends",)]
            self.diags.append(Diagnostic(at.file, at.line, at.column, "extends",
                                         f"a rule inherited from {pos.file}:{pos.line}:{pos.column} "
                                         f"({_dotted(path)}) fails with this file's settings (override it "
                                         f"here, or change them): {msg}"))
        else:
            self.diags.append(here)

    def deck_change(self):
        """The path of the checked file's own change to an inherited deck (``deck.minus``...),
        or ``None`` when the deck is the base file's."""
        if len(self.r.files) < 2:
            return None
        for key in ("minus", "plus", "cards", "ranks", "suits", "jokers", "specials", "copies"):
            p = ("deck", key)
            if p in self.r.positions and self.r.positions[p].file == self.r.top_file:
                return p
        return None

    def warn(self, path, msg):
        """An option at ``path`` that has no effect (reported at its key).

        Only an option written in the checked file itself is reported: a house rule
        that sets ``dealer.first.seat`` is not blamed for its base's ``cut``.
        """
        kp = tuple(path) + ("<key>",)
        pos = self.r.pos(kp if kp in self.r.positions else path)
        if pos.file != self.r.top_file:
            return
        self.warnings.append(VariantWarning(pos.file, pos.line, pos.column, _dotted(path), msg))

    def warn_in(self, path, line, column, msg):
        """A warning at (line, column) inside the DSL string at ``path`` (only for a string of
        the checked file itself, as :meth:`warn`)."""
        pos = self.r.pos(path)
        if pos.file != self.r.top_file:
            return
        fl, fc = pos.dsl_offset(line, column)
        self.warnings.append(VariantWarning(pos.file, fl, fc, _dotted(path), msg, pos.excerpt(fl, fc)))

    def err_in(self, path, line, column, msg):
        """A problem at (line, column) inside the DSL string at ``path``, with an excerpt."""
        pos = self.r.pos(path)
        fl, fc = pos.dsl_offset(line, column)
        self.diags.append(Diagnostic(pos.file, fl, fc, _dotted(path), msg, pos.excerpt(fl, fc)))

    def dsl(self, path, fn, *args, **kw):
        """Run a DSL compiler on the string at ``path``; on error, report it and return ``None``."""
        text = self._get(path)
        try:
            out = fn(text, *args, **kw)
            if isinstance(out, Formula):  # run-time errors name the formula's place in the file
                out = dataclasses.replace(out, origin=_origin(self.r.pos(path), _dotted(path)))
            if fn is compile_expr:
                self.formulas[tuple(path)] = out
            return out
        except DSLError as e:
            pos = self.r.pos(path)
            line, col = pos.dsl_offset(e.line, e.column)
            self.diags.append(Diagnostic(pos.file, line, col, _dotted(path), e.message,
                                         pos.excerpt(line, col) or e.excerpt))
            return None

    def _get(self, path):
        v = self.d
        for k in path:
            v = v[k]
        return v

    # ------------------------------------------------------------------ parts
    def choices(self) -> list:
        """The player counts this variant offers."""
        p = self.d.get("players", 4)
        return list(p["choices"]) if isinstance(p, dict) else [p]

    def players(self) -> int:
        p = self.d.get("players", 4)
        want = self.settings.get("players")
        if isinstance(p, dict):
            if p["default"] not in p["choices"]:
                self.err(("players", "default"), f"the default {p['default']} is not among the choices "
                         f"{p['choices']} (expected one of them)")
            if want is not None and want not in p["choices"]:
                self.err(("players",), f"{want} players is not a choice of this variant "
                         f"(expected one of {p['choices']})")
                return p["default"]
            return p["default"] if want is None else want
        if want is not None and want != p:
            self.err(("players",), f"this variant is for {p} players, not {want} "
                     f"(expected --players {p}, or a setting players: {{default: {p}, choices: [...]}})")
        return p

    def build_deck(self) -> Deck:
        """The variant's :class:`Deck` from its ``deck:`` block (a rank listed twice is reported
        and kept once).  The compiler keeps it as ``self.deck`` (the kinds' ``c.deck``)."""
        dk = self.d["deck"]
        ranks = self.rank_list(dk["ranks"], ("deck", "ranks"))
        suits: list[str] = []
        own: dict = {}
        names: dict = {}
        symbols: dict = {}
        colours = dict(dk.get("colours", {}))
        for i, entry in enumerate(dk["suits"]):
            letter = entry if isinstance(entry, str) else entry["letter"]
            at = ("deck", "suits", i) + (() if isinstance(entry, str) else ("letter",))
            if letter in suits:
                self.err(at, f"suit {letter} is listed twice (expected each suit once)")
                continue
            suits.append(letter)
            if isinstance(entry, dict):
                if "ranks" in entry:
                    own[letter] = self.rank_list(entry["ranks"], ("deck", "suits", i, "ranks"))
                if "name" in entry:
                    names[letter] = entry["name"]
                if "symbol" in entry:
                    symbols[letter] = entry["symbol"]
                if "colour" in entry:
                    colours[letter] = entry["colour"]
        for s in colours:
            if s not in suits:
                self.err(("deck", "colours", s, "<key>"), f"{s} is not a suit of this deck "
                         f"(expected one of {' '.join(suits)})")
        for s in suits:
            colours.setdefault(s, DEFAULT_COLOURS.get(s))
        shown = [symbols.get(s) or SUIT_SYMBOLS.get(s, s) for s in suits]
        for i, s in enumerate(suits):
            if shown[i] in shown[:i]:
                self.err(("deck", "suits"), f"suits {suits[shown.index(shown[i])]} and {s} are both shown as "
                         f"{shown[i]} (expected a symbol of its own for each suit)")
        specials = self.specials(dk, suits, ranks, own)
        absent = self.absent_cards(dk, suits, ranks, own, specials)
        return Deck(tuple(suits), ranks, 0, colours, absent, suit_ranks=own, suit_names=names,
                    suit_symbols=symbols, specials=specials, copies=dk.get("copies", 1))

    def rank_list(self, given: list, path: tuple) -> tuple:
        """Rank tokens as text, each once (a rank listed twice is reported)."""
        ranks = tuple(str(r) for r in given)
        for i, r in enumerate(ranks):
            if r in ranks[:i]:
                self.err(path + (i,), f"rank {r} is listed twice (expected each rank once; "
                         f"10 and \"10\" are the same rank)")
        return tuple(dict.fromkeys(ranks))

    def specials(self, dk: dict, suits: list, ranks: tuple, own: dict) -> tuple:
        """The pack's suitless cards: ``jokers`` (named by ``joker_names``) and ``specials``;
        a token that is also a rank, a suit letter or a card's text is refused."""
        named = dict(dk.get("joker_names") or {})
        n = dk.get("jokers", 0)
        tokens = [JOKER] if n == 1 else [f"{JOKER}{i + 1}" for i in range(n)]
        for t in named:
            if t not in tokens:
                self.err(("deck", "joker_names", t, "<key>"), f"{t} is not a joker of this deck (expected "
                         + (" or ".join(tokens) if tokens else "deck.jokers first") + ")")
        out = [Special(t, named.get(t, "")) for t in tokens]
        every_rank = set(ranks) | {r for rs in own.values() for r in rs}
        for t, x in (dk.get("specials") or {}).items():
            at = ("deck", "specials", t, "<key>")
            name, copies = (x, 1) if isinstance(x, str) else (x.get("name", ""), x.get("copies", 1))
            clash = ("a rank" if t in every_rank else "a suit letter" if t in suits else
                     "a card of the pack" if len(t) > 1 and t[-1] in suits and t[:-1] in every_rank else
                     "a joker of deck.jokers" if t in tokens else "")
            if clash:
                self.err(at, f"{t} is already {clash} (expected a token of its own for a suitless card)")
                continue
            out.append(Special(t, name, copies))
        return tuple(out)

    def absent_cards(self, dk: dict, suits: list, ranks: tuple, own: dict, specials: tuple) -> tuple:
        """The grid cards a deck leaves out: ``minus``, the ranks only ``plus`` cards have, or
        every card not in ``cards`` (a deck listed by card)."""
        grid = [r + s for s in suits for r in own.get(s, ranks)]
        tokens = {sp.token for sp in specials}
        listed: dict[str, list[str]] = {}   # minus / plus / cards -> the cards it lists
        for key in ("minus", "plus", "cards"):
            for i, text in enumerate(dk.get(key) or []):
                name = normalise_card_text(str(text))
                if key == "cards" and name in tokens:
                    continue   # a suitless card listed with the others: it is in the pack
                if name not in grid:
                    rank = name[:-1]
                    hint = (f"; a plus card's rank is listed in deck.ranks too, at its place in the order "
                            f"(add {rank} to deck.ranks)" if key == "plus" and rank and rank not in ranks
                            and name[-1:] in suits else "")
                    self.err(("deck", key, i), f"{text} is not a card of the suits x ranks grid "
                             f"(expected a rank of {' '.join(ranks)} and a suit of {' '.join(suits)}{hint})")
                if name in listed.get(key, []):
                    self.err(("deck", key, i), f"{text} is listed twice (expected each card once; "
                             f"deck.copies gives every card its copies)")
                listed.setdefault(key, []).append(name)
        if "cards" in dk and ("minus" in dk or "plus" in dk):
            self.err(("deck", "cards", "<key>"), "a deck listed by card takes no minus or plus "
                     "(expected either cards, or minus/plus)")
        if "cards" in dk:
            keep = set(listed.get("cards", []))
            return tuple(c for c in grid if c not in keep)
        plus = set(listed.get("plus", []))
        sparse = {c[:-1] for c in plus}
        gone = [c for c in grid if c[:-1] in sparse and c not in plus]
        return tuple(dict.fromkeys(gone + [c for c in listed.get("minus", []) if c not in plus]))

    def card_points(self, deck: Deck, base: tuple = ("deck",)) -> tuple:
        """Points of each card by the ``card_points`` mapping under ``base`` (the deck's, or a
        contract group's): a card's own entry (``QS: 13``), else its rank's plus its suit's
        (``H: 1``; a key that is both a rank and a suit letter, such as a knight ``C`` beside
        clubs, is the rank); suitless cards count only by their own entry."""
        src = self.d
        for k in base:
            src = src.get(k) or {}
        pts = {str(k): v for k, v in (src.get("card_points") or {}).items()}
        by_card = {}
        for r in pts:
            if r in deck.ranks or r in deck.suits:
                continue
            try:
                for c in bits(deck.named_mask(r)):
                    by_card[c] = pts[r]
            except CardError:
                self.err(base + ("card_points", r, "<key>"), f"unknown rank {r!r}{_close(r, deck.ranks)} "
                         f"(expected a rank ({' '.join(deck.ranks)}), a suit ({' '.join(deck.suits)}) or a card)")
        out = []
        for c in range(deck.size):
            if c in by_card:
                out.append(by_card[c])
            elif deck.is_joker(c):
                out.append(0)
            else:
                suit = deck.suit_of(c)   # (a suit for every card but a suitless one)
                by_suit = pts.get(suit, 0) if suit is not None and suit not in deck.ranks else 0
                out.append(pts.get(deck.rank_of(c), 0) + by_suit)
        return tuple(out)

    def trump_points(self, deck: Deck, base: tuple = ("deck",)) -> dict:
        """``trump_points`` under ``base``: rank -> points of that rank's card of the trump suit."""
        src = self.d
        for k in base:
            src = src.get(k) or {}
        out = {}
        for r, v in (src.get("trump_points") or {}).items():
            if str(r) not in deck.ranks:
                self.err(base + ("trump_points", r, "<key>"), f"unknown rank {r!r}{_close(str(r), deck.ranks)} "
                         f"(expected a rank of {' '.join(deck.ranks)})")
                continue
            out[str(r)] = v
        return out

    def phase_order(self, phases: dict):
        """Each required kind once (the deal, trick play), ``first``/``last`` kinds in place,
        a declarer's phases after an auction (the rules come from the registry)."""
        names = list(phases)
        kinds = [p["kind"] for p in phases.values()]
        for kind in (k.name for k in REGISTRY.values() if k.required):
            # a kind that stands for a required one (cards played onto a pile, not in tricks) counts as it
            idx = [i for i, k in enumerate(kinds) if k == kind or REGISTRY[k].stands_for == kind]
            if not idx:
                alts = "".join(f" or {k.name}" for k in REGISTRY.values() if k.stands_for == kind)
                self.err(("phases",), f"a hand needs a {kind} phase (expected a phase with kind: {kind}{alts})")
            for i in idx[1:]:
                self.err(("phases", names[i], "kind"), f"a hand has one {kind} phase; this is a second one "
                         f"(the first is phases.{names[idx[0]]})")
        for kind in (k.name for k in REGISTRY.values() if k.position == "first"):
            if kind in kinds and kinds[0] != kind:
                i = kinds.index(kind)
                self.err(("phases", names[i], "<key>"), f"the {kind} must be the first phase "
                         f"(found phases.{names[0]} before it)")
        for kind in (k.name for k in REGISTRY.values() if k.position == "last"):
            if kind in kinds and kinds[-1] != kind and kinds.count(kind) == 1:
                i = kinds.index(kind)
                self.err(("phases", names[i + 1], "<key>"), f"no phase can follow {'trick play' if REGISTRY[kind].role == 'play' else kind} "
                         f"(phases.{names[i]}; expected {kind} last)")
        auctions = kinds_with_role("auction")
        for i, k in enumerate(kinds):
            if REGISTRY[k].acts_for_declarer(phases[names[i]]) and not any(x in auctions for x in kinds[:i]):
                self.err(("phases", names[i], "kind"), f"{k} acts for the declarer, so it needs an "
                         f"auction phase before it (expected e.g. kind: {auctions[0]} earlier)")

    def compile_phases(self, deck: Deck, players: int):
        """Each phase entry compiled by its kind (:meth:`PhaseKind.compile`), then
        :meth:`PhaseKind.finish`; also the trump contexts the phases may set."""
        specs = []
        phases = self.d["phases"]
        self.player_count = players
        self.kinds = [p["kind"] for p in phases.values()]
        self.phase_order(phases)
        strains_used = {NT}
        self.deal = None
        for name, p in phases.items():
            kind = REGISTRY[p["kind"]]
            spec = kind.compile(self, name, p, ("phases", name))
            if spec is not None:
                strains_used |= kind.strains(spec, deck)
                if kind.role == "deal" and self.deal is None:
                    self.deal = spec
            specs.append(spec)
        self.phase_specs = tuple(specs)  # every phase compiled, for the finish checks
        specs = [s if s is None else REGISTRY[s.kind].finish(self, s) for s in specs]
        self.phase_specs = tuple(s for s in specs if s is not None)
        self.phase_vars = {}  # formula variables the phases give: name -> (lo, hi)
        for s in specs:
            if s is not None:
                self.phase_vars.update(REGISTRY[s.kind].variables(s))
        return tuple(specs), strains_used

    def phase_conditions(self, phases: tuple, deck: Deck) -> tuple:
        """Compile the conditions a phase kind reads over the scoring variables (its
        :attr:`~rulekit.engine.phases.base.PhaseKind.conditions`, e.g. tricks ``end_if``)
        and put them into the phase specs."""
        out = []
        for (name, p), spec in zip(self.d["phases"].items(), phases):
            kind = REGISTRY[p["kind"]]
            keys = [k for k in kind.conditions if _dig(p, k) is not None] if spec is not None else []
            if keys:   # (a dotted key is inside a block: "claim.made_if")
                fs = {k: self.dsl(("phases", name) + tuple(k.split(".")), compile_expr, self.score_names,
                                  tuple(deck.suits) + (NT,), self.macros, expect="bool", notes=self.score_notes,
                                  ignore=self.bad_lets)
                      for k in keys}
                spec = kind.set_conditions(spec, fs)
            out.append(spec)
        return tuple(out)

    def group_name(self, name: str, path: tuple) -> str:
        """A contract's ``group:`` checked against ``contract_groups`` (and ``low``, the group
        of ``ranking.low``); an unknown name is reported at ``path``."""
        if not name:
            return ""
        known = list(self.d.get("contract_groups") or {}) + ([LOW] if (self.d.get("ranking") or {}).get("low") else [])
        if name not in known:
            self.err(path, f"unknown contract group {name}{_close(name, known)} (expected one of "
                     + (", ".join(known) if known else "the names of a contract_groups block") + ")")
            return ""
        return name

    def close(self, name, known) -> str:
        """``"; did you mean X?"`` for the closest of ``known`` (for phase kinds' messages)."""
        return _close(name, known)

    def sides(self, players: int):
        sd = self.d.get("sides")
        names = self.d.get("seats")
        seat_names = tuple(names) if names else tuple(f"P{i}" for i in range(players))
        if names and len(names) != players:
            self.err(("seats",), f"{len(names)} seat names for {players} players (expected one name per seat)")
            seat_names = tuple(f"P{i}" for i in range(players))
        if not sd:
            return seat_names, tuple((i,) for i in range(players)), seat_names, tuple(range(players))
        side_of = [-1] * players
        sides, side_names = [], []
        for i, (name, seats) in enumerate(sd.items()):
            for j, seat in enumerate(seats):
                if not 0 <= seat < players:
                    self.err(("sides", name, j), f"seat {seat} does not exist (expected 0..{players - 1})")
                elif side_of[seat] >= 0:
                    self.err(("sides", name, j), f"seat {seat} is already on side {list(sd)[side_of[seat]]}")
                else:
                    side_of[seat] = i
            sides.append(tuple(seats))
            side_names.append(str(name))
        if any(x < 0 for x in side_of):
            self.err(("sides",), f"seats {[i for i, x in enumerate(side_of) if x < 0]} belong to no side "
                     "(expected every seat on one side)")
        return seat_names, tuple(sides), tuple(side_names), tuple(side_of)

    def vulnerability(self, side_names):
        v = self.d.get("vulnerability")
        if not v:
            return ()
        if "cycle" in v:
            for i, x in enumerate(v["cycle"]):
                if x not in ("none", "both", "dealer") and x not in side_names:
                    self.err(("vulnerability", "cycle", i), f"unknown vulnerability {x!r} (expected none, both, "
                             f"dealer or a side: {', '.join(side_names)})")
            return ("cycle",) + tuple(v["cycle"])
        return ("games",)

    def scoring(self, deck: Deck, has_contract: bool, plays_without_contract: bool = False) -> ScoringSpec:
        sc = self.d.get("scoring", {})
        builtin = CONTRACT_NAMES if has_contract else BASE_NAMES
        notes = {n: "it is only defined in games with an auction (expected an auction phase)"
                 for n in CONTRACT_NAMES if n not in builtin}
        tallies = []
        for tname, t in (sc.get("tallies") or {}).items():
            tallies.append(self.tally(deck, tname, t))
            if tname in builtin:
                self.err(("scoring", "tallies", tname), f"{tname} is a built-in variable")
        self.tallies_ = tuple(tallies)
        for pv in self.phase_vars:
            if pv in builtin or pv in {t.name for t in tallies}:
                self.err(("scoring",), f"phase variable {pv} clashes with a built-in variable or tally")
        markers = tuple(MarkerSpec(k, m.get("max", 1000), m.get("factor", 2), m.get("not_below"))
                        for k, m in (sc.get("markers") or {}).items())
        matadors = self.matadors(sc, has_contract)
        names = _typed(builtin + tuple(t.name for t in tallies) + tuple(self.phase_vars)
                       + tuple(m.name for m in markers) + (MATADOR_NAMES if matadors is not None else ()))
        consts = tuple(deck.suits) + (NT,)
        self.score_names, self.score_notes = names, notes
        macros: dict = {}
        lets = list(sc.get("let", {}))
        order = {k: i for i, k in enumerate(lets)}
        for i, k in enumerate(lets):
            if k in names:
                self.err(("scoring", "let", k, "<key>"), f"{k} is a built-in variable and cannot be redefined "
                         f"(expected another name)")
                continue
            let = self.dsl(("scoring", "let", k), compile_expr, names, consts, macros,
                           notes=_LetNotes(notes, order, i), ignore=self.bad_lets)
            if let is None:
                self.bad_lets.add(k)
            else:
                macros[k] = let
        self.macros = macros

        def f(key, nm=names, base=("scoring",), src=sc, expect=None):
            if key not in src:
                return None
            return self.dsl(base + (key,), compile_expr, nm, consts, macros, expect=expect, notes=notes,
                            ignore=self.bad_lets)
        parts = []
        for pname, part in (sc.get("parts") or {}).items():
            base = ("scoring", "parts", pname)
            parts.append(PartSpec(pname, bool(part.get("game", False)), f("declarer", base=base, src=part, expect="num"),
                                  f("defender", base=base, src=part, expect="num"),
                                  f("each", base=base, src=part, expect="num")))
            if has_contract and part.get("each") is None and (part.get("declarer") is None or part.get("defender") is None):
                self.err(base, "a part needs declarer and defender formulas, or each")
        spec = ScoringSpec(f("each", expect="num"), f("declarer", expect="num"), f("defender", expect="num"),
                           f("no_contract", expect="num"), f("void_if", expect="bool"),
                           bool(sc.get("lower_is_better", False)), macros.get("made"),
                           sc.get("by") == "side", tuple(parts), self.tallies_,
                           f("against_declarer", expect="num"), sc.get("start", 0), markers,
                           tuple(CounterSpec(k, f("add", base=("scoring", "counters", k), src=m, expect="num"),
                                             m.get("every", 0), m.get("score", 0))
                                 for k, m in (sc.get("counters") or {}).items()), matadors)
        if sc.get("by") == "side" and not self.has_sides:
            self.err(("scoring", "by"), "scoring by side needs sides (expected a top-level sides: block)")
        if parts:
            return spec
        if has_contract and not ({"declarer", "defender"} <= set(sc) or "each" in sc):
            self.err(("scoring",), "a game with an auction needs scoring.declarer and scoring.defender "
                     "(or scoring.each)")
        elif has_contract and plays_without_contract and not {"no_contract", "each"} & set(sc):
            self.err(("scoring",), "when everyone passes the hand is played without a contract "
                     "(all_pass: play), so it needs scoring.no_contract (or scoring.each)")
        if not has_contract and "each" not in sc:
            self.err(("scoring",), "a game without an auction needs scoring.each "
                     "(expected a formula such as \"10 * tricks\")")
        return spec

    def matadors(self, sc: dict, has_contract: bool) -> MatadorSpec | None:
        """``scoring.matadors``: its zones must be dealt by the deal phase, a ``party`` needs a
        phase that may give a partner, and there must be a declarer (an auction)."""
        m = sc.get("matadors")
        if m is None:
            return None
        path = ("scoring", "matadors")
        if not has_contract:
            self.err(path, "matadors are the declarer's run of top trumps: they need an auction (expected an "
                     "auction phase, or no matadors)")
        dealt = set()
        if self.deal is not None:
            dealt = set(self.deal.zones) | ({"stock"} if self.deal.sizes else set())
        for i, z in enumerate(m.get("zones", [])):
            if dealt and z not in dealt:
                self.err(path + ("zones", i), f"the deal makes no zone {z}{self.close(z, sorted(dealt))} "
                         f"(expected one of {', '.join(sorted(dealt))})")
        side = m.get("side", "declarer")
        if side == "party" and not any(isinstance(p, dict) and getattr(REGISTRY.get(str(p.get("kind"))), "gives_partner", False)
                                       for p in (self.d.get("phases") or {}).values()):
            self.err(path + ("side",), "side: party counts the partner's cards, but no phase gives the declarer a "
                     "partner (expected a call_partner phase, or side: declarer)")
        return MatadorSpec(tuple(m.get("zones", [])), side)

    def tally(self, deck: Deck, tname: str, t: dict) -> TallySpec:
        """One ``scoring.tallies`` entry: the cards it counts (``cards``, or ``ranks`` of
        ``suits``, or of the trump suit), where, which tricks, and what it counts."""
        path = ("scoring", "tallies", tname)
        ranks = tuple(str(r) for r in str(t.get("ranks", " ".join(deck.ranks))).split())
        for r in ranks:
            if r not in deck.ranks:
                self.err(path + ("ranks",), f"unknown rank {r} (expected one of {' '.join(deck.ranks)})")
        suits = tuple(str(t.get("suits", " ".join(deck.suits))).split())
        for su in suits:
            if su not in deck.suits:
                self.err(path + ("suits",), f"unknown suit {su} (expected one of {' '.join(deck.suits)})")
        trump_only = t.get("suit") == "trump"
        mask = 0
        if "cards" in t:
            for w in str(t["cards"]).split():
                try:
                    mask |= deck.named_mask(w)
                except CardError as e:
                    self.err(path + ("cards",), f"{e} (expected cards of this deck such as QS)")
        elif trump_only:
            mask = -1
        else:
            for su in suits:
                for r in ranks:
                    if r + su in deck.index:
                        mask |= deck.copies_of(deck.index[r + su])
        where = t.get("in", "hand")
        hand_tricks = self.deal_tricks()
        picks = []
        for i, k in enumerate(t.get("tricks", ())):
            if where != "tricks":
                self.err(path + ("tricks",), "tricks picks won tricks (expected in: tricks)")
                break
            if hand_tricks and not (1 <= abs(k) <= hand_tricks):
                self.err(path + ("tricks", i), f"there is no trick {k} in a hand of {hand_tricks} tricks "
                         f"(expected 1 to {hand_tricks}, or -1 to -{hand_tricks} from the end)")
            picks.append(k - 1 if k > 0 else hand_tricks + k)
        count = t.get("count", "cards")
        if count == "tricks" and where != "tricks":
            self.err(path + ("count",), "only won tricks can be counted (expected in: tricks)")
        if count == "tricks":
            most = len(picks) or hand_tricks
        else:
            most = len(ranks) * deck.copies if mask == -1 else mask.bit_count()
        pick = t.get("pick", "")
        group = trump_only and "ranks" not in t
        if group:   # the whole trump group: its suit and the cards ranked among its trumps
            most = max([most] + [c.group_mask[c.trump_group].bit_count() for c in getattr(self, "all_contexts", ())
                                 if c.trump_group is not None and c.name != "NT"])
        if pick:  # one card at most: the highest (lowest) in play
            most = min(most, 1)
        led = bool(t.get("led", False))
        if led and where != "tricks":
            self.err(path + ("led",), "only cards led to tricks can be counted so (expected in: tricks)")
        if led:
            most = min(most, len(picks) or hand_tricks or most)
        worth, won_by, from_others, party = self._tally_tricks(deck, path, t, where, count)
        return TallySpec(tname, ranks, trump_only, where, mask, tuple(picks), count, most, pick, group, led,
                         worth, won_by, from_others, party)

    def _tally_tricks(self, deck: Deck, path: tuple, t: dict, where: str, count: str) -> tuple:
        """A tally's trick filters: ``worth`` (card points a trick must hold), ``won_by`` (the
        cards that must win it), ``from: others`` and ``party`` (counted for the column's party),
        with their misuse reported at the option."""
        worth = int(t.get("worth", 0))
        if "worth" in t and (where != "tricks" or count != "tricks"):
            self.err(path + ("worth",), "worth picks won tricks by their card points (expected in: tricks "
                     "and count: tricks)")
        if "worth" in t and not (self.d.get("deck") or {}).get("card_points"):
            self.err(path + ("worth",), "the deck gives no card points, so no trick is worth anything "
                     "(expected deck.card_points)")
        won_by = 0
        if "won_by" in t:
            if where != "tricks":
                self.err(path + ("won_by",), "won_by picks won tricks by the card that took them (expected "
                         "in: tricks)")
            for w in str(t["won_by"]).split():
                try:
                    won_by |= deck.named_mask(w)
                except CardError as e:
                    self.err(path + ("won_by",), f"{e} (expected cards of this deck such as JC)")
        from_others = t.get("from", "any") == "others"
        if from_others and where != "tricks":
            self.err(path + ("from",), "from: others counts cards played to won tricks (expected in: tricks)")
        party = str(t.get("party", ""))
        if party and self.d.get("scoring", {}).get("by") == "side":
            self.err(path + ("party",), "a tally for the party counts per seat's party; scoring by side "
                     "already counts for the side (expected no party here)")
        return worth, won_by, from_others, party

    def deal_tricks(self) -> int:
        """Tricks in a full hand (cards per player of the first deal), or 0 without a deal."""
        return self.deal and sum(st.count * st.repeat for st in self.deal.steps if not st.zone) + \
            sum(REGISTRY[p.kind].later_cards(p) for p in self.phase_specs if p is not None) or 0

    def match(self, deck, players) -> MatchSpec:
        m = self.d.get("match", {})
        consts = tuple(deck.suits) + (NT,)
        iw = None
        if "immediate_win" in m:
            iw = self.dsl(("match", "immediate_win"), compile_expr, _typed(CONTRACT_NAMES), consts, self.macros,
                          expect="bool", ignore=self.bad_lets)
        deals = m.get("deals")
        if isinstance(deals, str):
            f = self.dsl(("match", "deals"), compile_expr, {"players": "num"}, (), expect="num",
                         notes={n: "the number of deals may only use players" for n in CONTRACT_NAMES})
            deals = None
            if f is not None:
                try:
                    deals = int(f(_env({"players": players})))
                except FormulaError as e:
                    self.err(("match", "deals"), f"cannot compute the number of deals for {players} players: "
                             f"{e.message}")
        if isinstance(deals, int) and deals > MAX_DEALS and isinstance(m.get("deals"), str):
            self.err(("match", "deals"), f"{deals} deals for {players} players is too many "
                     f"(expected at most {MAX_DEALS})")
        if isinstance(deals, int) and deals < 1:
            self.err(("match", "deals"), f"a match needs at least one deal (found {deals}"
                     + (f" for {players} players)" if isinstance(m.get("deals"), str) else ")"))
        game = m.get("game") or {}
        rubber = m.get("rubber") or {}
        gv = self.dsl(("match", "game", "value"), compile_expr, ("their_points",)) if "value" in game else None
        rb = self.dsl(("match", "rubber", "bonus"), compile_expr, ("their_games",)) if "bonus" in rubber else None
        st = self.dsl(("match", "settle"), compile_expr, ("difference",)) if "settle" in m else None
        if rubber and not game:
            self.err(("match", "rubber"), "a rubber is made of games (expected match.game.target)")
        to_win = m.get("rubbers_to_win")
        if to_win is not None and not rubber:
            self.err(("match", "rubbers_to_win"), "rubbers_to_win counts rubbers (expected match.rubber "
                     "and match.game too)")
        fin = self.dsl(("match", "final"), compile_expr, _typed(("total", "written", "against", "players")),
                       (), expect="num") if "final" in m else None
        if "deals" not in m and m.get("target") is None and not rubber and "sum_at_most" not in m\
                and not self.scheduled:
            self.err(("match",), "a match needs an end: match.target, match.deals or match.rubber")
        unf = m.get("unfinished") or {}
        order = []
        for i, _text in enumerate(m.get("count_order", ())):
            f = self.dsl(("match", "count_order", i), compile_expr, self.score_names, consts, self.macros,
                         expect="num", notes=self.score_notes, ignore=self.bad_lets)
            if f is not None:
                order.append(f)
        target_if = None
        if "target_if" in m:
            target_if = self.dsl(("match", "target_if"), compile_expr, self.score_names, consts, self.macros,
                                 expect="bool", notes=self.score_notes, ignore=self.bad_lets)
            if m.get("target") is None:
                self.err(("match", "target_if"), "target_if says when reaching match.target wins, but there "
                         "is no target (expected match.target too)")
        if ("count_order" in m.get("ties", ())) != ("count_order" in m):
            self.err(("match",), "the count_order tie break and match.count_order go together (expected "
                     "both: ties: [count_order] and count_order: [the hand's points in counting order])")
        return MatchSpec(m.get("target"), m.get("lose_at"), iw, tuple(m.get("ties", ())), deals,
                         game.get("target"), gv, rubber.get("games"), rb, rubber.get("to", "points"),
                         m.get("rubbers", 1 if rubber and to_win is None else None), m.get("result", "points"),
                         unf.get("game", 0), unf.get("part_score", 0), st, m.get("max_hands", 1000), to_win,
                         m.get("sum_at_most"), fin, tuple(order), target_if)

    def cut_order(self, path, items, want: list, kind: str) -> list | None:
        """Check a cut order (each of ``want`` once); return the values or ``None``."""
        what = "rank" if kind == "rank" else "suit"
        seen: dict = {}
        ok = True
        for it in items:
            v = it.value
            good = it.kind != "relative" and v in want
            if not good:
                extra = f" (expected a {what} of this deck: {' '.join(want)})"
                self.err_in(path, it.line, it.column, f"{_item_text(it)} is not a {what} of this deck"
                            + _close(v, want) + extra)
                ok = False
            elif v in seen:
                self.err_in(path, it.line, it.column, f"{v} is listed twice (expected each {what} once)")
                ok = False
            seen.setdefault(v, it)
        missing = [w for w in want if w not in seen]
        if ok and missing:
            self.err(path, f"the cut order leaves out {' '.join(missing)} (expected each {what} once: "
                     f"{' '.join(want)})")
            ok = False
        return [i.value for i in items] if ok else None

    def first_dealer(self, deck: Deck, players: int | None = None) -> dict:
        fd = (self.d.get("dealer") or {}).get("first", {"cut": "high"})
        if "seat" in fd:
            if players is not None and fd["seat"] >= players:
                self.err(("dealer", "first", "seat"), f"seat {fd['seat']} does not exist with {players} players "
                         f"(expected 0 to {players - 1})")
            return {"seat": fd["seat"]}
        kinds = list(dict.fromkeys(sp.kind for sp in deck.specials))   # suitless cards cut lowest
        rank_order = list(deck.ranks)[::-1] + kinds
        suit_order = list(deck.suits)[::-1]
        if "ranks" in fd:
            items = self.dsl(("dealer", "first", "ranks"), compile_ranking)
            got = self.cut_order(("dealer", "first", "ranks"), items, rank_order, "rank") if items else None
            rank_order = got or rank_order
        if "suits" in fd:
            items = self.dsl(("dealer", "first", "suits"), compile_ranking)
            got = self.cut_order(("dealer", "first", "suits"), items, list(deck.suits), "suit") if items else None
            suit_order = got or suit_order
        # strength: higher is a higher cut card
        strength = []
        for c in range(deck.size):
            r = deck.rank_of(c)
            s = deck.suit_of(c)
            rs = len(rank_order) - rank_order.index(r)
            ss = len(suit_order) - suit_order.index(s) if s else 0
            strength.append(rs * 10 + ss)
        return {"cut": fd.get("cut", "high"), "strength": tuple(strength)}

    # ------------------------------------------------------------------ what play can produce
    def value_ranges(self, deck: Deck, players: int, phases, pts: tuple, columns: int) -> tuple[dict, dict] | None:
        """``(ranges, domains)`` of every variable a formula may read, or ``None`` without a deal.

        ``ranges``: name -> ``(lo, hi)`` for :func:`~rulekit.dsl.bounds.interval`;
        ``domains``: name -> the values tried when a formula's bounds look risky.
        """
        deal = next((p for p in phases if p is not None and REGISTRY[p.kind].role == "deal"), None)
        if deal is None:
            return None
        n = sum(st.count * st.repeat for st in deal.steps if not st.zone) + \
            sum(REGISTRY[p.kind].later_cards(p) for p in phases if p is not None)
        auction = next((p for p in phases if p is not None and REGISTRY[p.kind].role == "auction"), None)
        levels = sorted({0} | {b.level for b in REGISTRY[auction.kind].contracts(auction)}) if auction else [0]
        m = self.d.get("match") or {}
        game_target = (m.get("game") or {}).get("target") or 1
        ranges = {"players": (players, players), "total_tricks": (n, n), "tricks": (0, n),
                  "declarer_tricks": (0, n), "side_tricks": (0, n), "points": _points_range([pts] + getattr(self, "point_tables", [])),
                  "seat": (0, columns - 1), "strain": (0, len(auction.strains) - 1 if auction else 0),
                  "game_score": (0, game_target - 1), "level": (levels[0], levels[-1]),
                  "their_points": (0, game_target - 1),
                  "their_games": (0, max(((m.get("rubber") or {}).get("games") or 1) - 1, 0)),
                  "difference": (0, 10 ** 9),
                  # the match so far: a running total (bounded as a sheet's totals are in practice),
                  # the deal's number, the dealer's seat
                  "total": (-TOTAL_BOUND, TOTAL_BOUND), "declarer_total": (-TOTAL_BOUND, TOTAL_BOUND),
                  "highest_other_total": (-TOTAL_BOUND, TOTAL_BOUND), "lowest_other_total": (-TOTAL_BOUND, TOTAL_BOUND),
                  "deal_number": (1, m.get("max_hands", 1000)),
                  "dealer": (0, players - 1)}
        ranges["declarer_points"] = ranges["points"]
        ranges.update(self.phase_vars)
        for t in getattr(self, "tallies_", ()):
            ranges[t.name] = (0, t.most)
        domains = {k: _spread(lo, hi) for k, (lo, hi) in ranges.items()}
        domains["level"] = tuple(levels)
        for k, ty in NAME_TYPES.items():
            if ty == "bool":
                ranges[k], domains[k] = (0, 1), (False, True)
            elif ty == "const":
                domains[k] = tuple(deck.suits) + (NT,)
        return ranges, domains

    def check_values(self, ranges: dict, domains: dict, columns: int) -> dict:
        """Refuse formulas that divide by zero or pass the arithmetic bound for some
        possible values (issue 12 case 10); return path -> ``(lo, hi)`` of each formula.

        Static bounds first (cheap, sound); a formula they flag is then run on the
        possible values of its variables, and refused only when one really fails.
        """
        out = {}
        ranges = dict(ranges)
        for path, f in self.formulas.items():
            b = interval(f.text, ranges, columns)
            out[path] = (b.lo, b.hi)
            if path[:2] == ("scoring", "let"):
                ranges[path[2]] = (b.lo, b.hi)
            if b.risks:
                failed = _first_failure(f, domains, columns)
                if failed:
                    values, why = failed
                    # one risky operation: point at it; several: at the formula
                    line, col = b.risks[0][:2] if len({r[:2] for r in b.risks}) == 1 else (1, 1)
                    self.err_in(path, line, col, f"{why} when {values} (expected a formula that gives a "
                                f"value for every possible {', '.join(sorted(f.names)) or 'case'})")
        return out

    def check_end(self, bounds: dict):
        """Refuse a match that can never end (issue 13 case 4): an unreachable target or
        game, a rubber without a part that counts toward a game, a hand always void."""
        m = self.d.get("match") or {}
        sc = self.d.get("scoring") or {}
        if bounds.get(("scoring", "void_if"), (0, 0)) == (1, 1):
            self.err(("scoring", "void_if"), "this condition is always true, so every hand is void and "
                     "scores nothing (expected a condition that can be false)")
            return
        entries = [b for p, b in bounds.items() if p[0] == "scoring" and p[1] != "let" and p[-1] in ENTRY_KEYS]
        if m.get("target") is not None and entries:
            self.reachable(("match", "target"), m["target"], max(b[1] for b in entries), "a hand's entry")
        rubber, game = m.get("rubber"), m.get("game")
        if rubber and game:
            parts = sc.get("parts") or {}
            games = [b for p, b in bounds.items() if p[:2] == ("scoring", "parts") and parts[p[2]].get("game")]
            if not any(p.get("game") for p in parts.values()):
                self.err(("match", "rubber"), "a rubber is won by games, but no part of the score counts "
                         "toward a game (expected a part with game: true in scoring.parts)")
            elif games:
                self.reachable(("match", "game", "target"), game["target"], max(b[1] for b in games),
                               "the game parts of a hand")
        if m.get("rubbers") is not None and not rubber:
            self.err(("match", "rubbers"), "rubbers counts rubbers, but this match has none "
                     "(expected match.rubber, or no rubbers)")

    def reachable(self, path, target: int, best: int, what: str):
        """Refuse ``target`` when ``best`` points a hand cannot reach it within
        :data:`MAX_HANDS_TO_END` hands."""
        if best <= 0:
            self.err(path, f"the target {target} can never be reached: {what} is never above 0 "
                     f"(expected a formula that can score points, or no target)")
        elif -(-target // best) > MAX_HANDS_TO_END:
            self.err(path, f"the target {target} needs at least {-(-target // best)} hands at the most "
                     f"{what} can give ({best}) (expected a target reachable within {MAX_HANDS_TO_END} hands)")

    def smallest_hand(self):
        """``(cards, path)``: the fewest cards a player holds when the deal is over (the smallest
        entry of the deal's ``hand_sizes`` schedule, else the pattern's cards each) and the
        document path that sets that number; ``None`` before a deal is compiled."""
        deal = self.deal
        if deal is None:
            return None
        if deal.sizes:
            least = min(deal.sizes)
            at = deal.sizes_at or ("phases", deal.name, "hand_sizes")
            return least, at if at[-1] == "hand_sizes" and not isinstance(self._get(at), list) else \
                at + (deal.sizes.index(least),)
        each = sum(st.count * st.repeat for st in deal.steps if not st.zone)
        return each, ("phases", deal.name, "pattern")

    def check_takes(self, path, n: int, what: str) -> None:
        """Refuse a phase that takes ``n`` cards out of a player's hand (passes, exchanges,
        discards, puts aside) when the smallest hand it can meet holds fewer (user pass
        findings 1-3): its legal list would be empty and play could not go on.

        :param path: the document path of the count (the message's place, unless a scheduled
            hand size makes the hand small: then that entry of ``hand_sizes`` is blamed).
        :param what: the phase's verb, ``"passes"``, for the message."""
        got = self.smallest_hand()
        if got is None or n <= got[0]:
            return
        least, where = got
        s = "s" if n > 1 else ""
        if "hand_sizes" in where:
            number = where[-1] + 1 if isinstance(where[-1], int) else deal_number(getattr(self.deal, "sizes", ()), least)
            self.err(where, f"deal {number} gives each player {least} card{'s' if least > 1 else ''}, "
                     f"but phase {path[1]} {what} {n} card{s} from a hand (expected hand sizes of at least {n})")
        else:
            self.err(path, f"{what} {n} card{s} but a hand holds {least} (expected at most {least})")

    def any_zone(self) -> bool:
        """Whether some deal pattern, for some player count offered, puts cards aside."""
        pats = [p.get("pattern") for p in self.d["phases"].values() if REGISTRY[p["kind"]].role == "deal"]
        texts = [t for x in pats for t in (x.values() if isinstance(x, dict) else [x])]
        return any(z in str(t) for t in texts for z in ("widow", "talon", "kitty", "aside", "dog", "skat", "stock"))

    def no_effect(self, phases):
        """Warn about options that change nothing (issue 12 case 9): each needs another
        option that is absent."""
        d = self.d
        rk, m = d.get("ranking") or {}, d.get("match") or {}
        fd = (d.get("dealer") or {}).get("first") or {}
        if "top_led" in rk and "top" not in rk:
            self.warn(("ranking", "top_led"), "has no effect without ranking.top (no card is above the suits)")
        if "ties" in m and m.get("target") is None:
            self.warn(("match", "ties"), "has no effect without match.target (ties break a target reached together)")
        if "unfinished" in m and not m.get("rubber"):
            self.warn(("match", "unfinished"), "has no effect without match.rubber (it scores an unfinished rubber)")
        if m.get("result") == "game_points" and not m.get("game"):
            self.warn(("match", "result"), "game_points has no effect without match.game (no game points are won)")
        if (d.get("vulnerability") or {}).get("by") == "games" and not m.get("game"):
            self.warn(("vulnerability", "by"), "games has no effect without match.game (no side ever wins a game)")
        if "seat" in fd:
            for k in ("cut", "ranks", "suits"):
                if k in fd:
                    self.warn(("dealer", "first", k), "has no effect with dealer.first.seat (nobody cuts)")
        auction = next((p for p in phases if p is not None and REGISTRY[p.kind].role == "auction"), None)
        if "immediate_win" in m and auction is None:
            self.warn(("match", "immediate_win"), "has no effect without an auction phase (there is no declarer)")
        if "no_contract" in (d.get("scoring") or {}) and auction is not None \
                and not REGISTRY[auction.kind].plays_all_passed(auction):
            self.warn(("scoring", "no_contract"), f"has no effect: when all pass the deal is thrown in "
                      f"(all_pass: {auction.all_pass}), never played without a contract")
        for name, p in (d.get("phases") or {}).items():
            REGISTRY[p["kind"]].no_effect(self, p, ("phases", name))

    def constant_variables(self, phases) -> dict:
        """Formula variables that are the same in every hand of this file, with why: a formula
        that reads one says nothing the file can change (``game_score`` is 0 without
        ``match.game``)."""
        d = self.d
        out = {}
        if not (d.get("match") or {}).get("game"):
            out["game_score"] = ("always 0", "it counts the points toward a game, and this file has no "
                                 "match.game (expected match.game, or total for the running total)")
        if not d.get("vulnerability"):
            why = "nobody is vulnerable without a vulnerability: block (expected one, or no vulnerability)"
            out["vulnerable"] = out["declarer_vulnerable"] = ("always false", why)
        if not any(p is not None and REGISTRY[p.kind].gives_partner for p in phases):
            why = ("no phase gives the declarer a partner for the hand (expected a call_partner phase, "
                   "or sides)")
            out["is_partner"] = out["has_partner"] = ("always false", why)
        return out

    def constant_reads(self, phases) -> None:
        """Warn at each formula of the file that reads a variable that never changes here
        (:meth:`constant_variables`), at the variable."""
        constant = self.constant_variables(phases)
        for path, f in self.formulas.items():
            for name in sorted(f.names & set(constant)):
                found = re.search(rf"(?<![A-Za-z0-9_]){name}(?![A-Za-z0-9_])", f.text)
                if found is None:   # (read through a let: said at the let itself)
                    continue
                i = found.start()
                line, col = f.text.count("\n", 0, i) + 1, i - (f.text.rfind("\n", 0, i) + 1) + 1
                what, why = constant[name]
                self.warn_in(path, line, col, f"{name} is {what} in this file: {why}")

    def build(self) -> Variant:
        d = self.d
        players = self.players()
        seat_names, sides, side_names, side_of = self.sides(players)
        self.has_sides = bool(self.d.get("sides"))
        deck = self.deck = self.build_deck()
        pts = self.pts = self.card_points(deck)
        self.trump_pts = self.trump_points(deck)
        rankings = Rankings(self, deck)
        phases, strains = self.compile_phases(deck, players)
        groups: dict = {}
        if rankings.ok:
            groups = self.contexts(rankings, deck, strains, phases)
        contexts = groups.get("", {})
        low_contexts = groups.get(LOW, {})
        self.point_tables = [c.points for g in groups.values() for c in g.values()]
        self.all_contexts = [c for g in groups.values() for c in g.values()]
        self.low_wins(phases)
        has_auction = any(p is not None and REGISTRY[p.kind].role == "auction" for p in phases)
        plays_on = any(p is not None and REGISTRY[p.kind].plays_all_passed(p) for p in phases)
        scoring = self.scoring(deck, has_auction, plays_on)
        phases = self.phase_conditions(phases, deck)
        match = self.match(deck, players)
        first = self.first_dealer(deck, players)
        rot = {"left": 1, "right": -1, "none": 0}[(d.get("dealer") or {}).get("rotation", "left")]
        vulnerability = self.vulnerability(side_names)
        layout = self.sheet_layout(scoring)
        home = d.get("home_seat", 0)
        if home >= players:
            self.err(("home_seat",), f"seat {home} does not exist (expected 0..{players - 1})")
        self.no_effect(phases)
        self.constant_reads(phases)
        known = None if self.diags else self.value_ranges(deck, players, phases, pts, len(sides) if scoring.by_side
                                                           else players)
        if known is not None:  # only a file whose formulas all compiled
            self.check_end(self.check_values(*known, len(sides) if scoring.by_side else players))
        if self.diags:
            raise VariantError(order_diagnostics(self.diags, self.r.files))
        blob = json.dumps({"data": _hashed_kinds(d), "settings": {"players": players}}, sort_keys=True, default=str)
        v = Variant(d.get("id", "unnamed"), d.get("name", d.get("id", "unnamed")), d.get("source", ""),
                       players, deck, pts, contexts, first, rot, phases, scoring, match,
                       hashlib.sha256(blob.encode()).hexdigest()[:16], d,
                       {"players": players}, tuple(self.r.files), seat_names, sides, side_names, side_of,
                       vulnerability, home, layout,
                       step=-1 if d.get("direction") == "counterclockwise" else 1, low_contexts=low_contexts,
                       group_contexts=groups)
        if d.get("rounds"):
            v = dataclasses.replace(v, rounds=self.rounds(v))
            if self.diags:
                raise VariantError(order_diagnostics(self.diags, self.r.files))
        return v

    def contexts(self, rankings: Rankings, deck: Deck, strains: set, phases) -> dict:
        """The trick tables of every contract group (:class:`Rankings`) for every trump choice
        the game can reach (a group named by contracts: for the strains of those contracts)."""
        options = [(p, REGISTRY[p.kind].ranking_options(p)) for p in phases if p is not None]
        extra: dict = {"top_follows": any(o.get("top_follows", False) for _, o in options)}
        renege = next((("phases", p.name, "renege") for p, o in options if str(o.get("renege", ""))), None)
        if renege is not None and (items := rankings.items(renege, "trump")) is not None:
            extra["renege"] = (renege, items)
        used: dict = {}   # group -> the strains its contracts may reach
        for p in phases:
            for b in REGISTRY[p.kind].contracts(p) if p is not None else ():
                g = getattr(b, "group", "") or (LOW if getattr(b, "wins", "high") != "high" else "")
                if g:
                    used.setdefault(g, set()).update(set(deck.suits) | {NT} if b.strain == "chosen" else {b.strain})
                if getattr(b, "wins", "high") == "chosen":
                    used.setdefault("", set()).update(set(deck.suits) | {NT} if b.strain == "chosen" else {b.strain})
        base_pts = (self.pts, self.trump_pts)
        out: dict = {}
        for g in rankings.docs:
            path = ("contract_groups", g)
            own = (self.d.get("contract_groups") or {}).get(g) or {}
            pts = (self.card_points(deck, path) if "card_points" in own else self.pts,
                   self.trump_points(deck, path) if "trump_points" in own else self.trump_pts) if g and g != LOW \
                else base_pts
            reach = strains if g == "" or g not in used else used[g] & (set(strains) | {NT})
            table = {}
            for s in sorted(reach, key=lambda x: (x == NT, x)):
                if s == "chosen" or (s != NT and s not in deck.suits):
                    continue
                ctx = rankings.context(g, s, dict(extra, points=pts, widow_to=own.get("widow_to", ""),
                                                  discards_to=own.get("discards_to", "")))
                if ctx is not None:
                    table[s] = ctx
            out[g] = table
        for g in (self.d.get("contract_groups") or {}):
            if g not in used and not self.scheduled:
                self.warn(("contract_groups", g), f"has no effect: no contract names group {g} "
                          f"(expected a contract or strain with group: {g})")
        return out

    def low_wins(self, phases) -> None:
        """A contract that low cards win needs ``ranking.low``; ``ranking.low`` without one
        has no effect (a warning)."""
        low_bids = [(spec, b) for spec in phases if spec is not None
                    for b in REGISTRY[spec.kind].contracts(spec) if getattr(b, "wins", "high") != "high"]
        has_low = "low" in (self.d.get("ranking") or {})
        if low_bids and not has_low:
            spec, b = low_bids[0]
            where = ("phases", spec.name) + REGISTRY[spec.kind].bid_path(spec, b)
            self.err(where, f"bid {b.text} is won by low cards (wins: {b.wins}) but the "
                     f"variant has no low order (expected a ranking.low block, e.g. low: {{suit: \"2 3 4 5 A\"}})")
        if has_low and not low_bids:
            self.warn(("ranking", "low"), "has no effect: no bid is won by low cards "
                      "(expected a strain with wins: low or chosen)")

    def rounds(self, base: Variant) -> tuple:
        """The round schedule expanded to one :class:`Variant` per deal: each ``rounds:`` entry is
        the base document overlaid with the entry's ``phases``/``scoring``/``ranking`` (merged as
        ``extends:`` merges: mappings key by key, null removes), checked and compiled like a file
        of its own, its problems reported at the entry's lines."""
        from rulekit.variant.loader import Resolved, _merge, schema_problems
        base_doc = {k: x for k, x in self.d.items() if k != "rounds"}
        out = []
        for i, entry in enumerate(self.d["rounds"]):
            pre = ("rounds", i)
            opos = {p[2:]: x for p, x in self.r.positions.items() if p[:2] == pre and len(p) > 2}
            bpos = {p: x for p, x in self.r.positions.items() if p[:1] != ("rounds",)}
            over = {k: entry[k] for k in ROUND_OVERLAY if k in entry}
            merged = _merge(copy.deepcopy(base_doc), copy.deepcopy(over), bpos, opos, ())
            if "phases" in over:  # phases a round adds go before a kind that must be last
                last = {k.name for k in REGISTRY.values() if k.position == "last"}
                ph = merged["phases"]
                merged["phases"] = {n: p for n, p in ph.items() if not (isinstance(p, dict) and p.get("kind") in last)}
                merged["phases"].update((n, p) for n, p in ph.items() if n not in merged["phases"])
            r = Resolved(merged, bpos, list(self.r.files), [], self.r.top_file, bases=self.r.bases)
            problems = schema_problems(r)
            if problems:
                self.diags += problems
                continue
            c = _Compiler(r, self.settings)
            c.scheduled = True
            try:
                rv = c.build()
            except VariantError as e:
                self.diags += e.diagnostics
                continue
            self.warnings += c.warnings
            times = entry.get("times", 1)
            times = base.players if times == "players" else times
            for k in range(times):
                name = entry["name"] + (f" {k + 1}" if times > 1 else "")
                out.append(dataclasses.replace(rv, id=base.id, name=base.name, hash=base.hash, data=base.data,
                                               round_name=name, objective=entry.get("objective", "")))
        return tuple(out)

    def sheet_layout(self, scoring) -> str:
        """The ``sheet.layout``, by default WE/THEY when sides score parts that count toward games."""
        default = "we_they" if scoring.by_side and any(p.game for p in scoring.parts) else "columns"
        layout = (self.d.get("sheet") or {}).get("layout") or default
        if layout == "we_they" and not scoring.parts:
            self.err(("sheet", "layout"), "the we_they sheet draws scoring.parts above and below the line, "
                     "but this variant has none (expected layout: columns, or scoring.parts)")
        return layout


#: Keys of a ``rounds:`` entry that overlay the base document.
ROUND_OVERLAY = ("phases", "scoring", "ranking")

#: Keys of the formulas that give a hand's entries.
ENTRY_KEYS = ("each", "declarer", "defender", "no_contract")


def _hashed_kinds(d: dict) -> dict:
    """``d`` with each phase's ``kind:`` written as the kind's oldest word (its first alias, else
    its name), so a kind renamed later leaves the hash of every file using it, and the records
    that carry that hash, unchanged."""
    def block(b: object) -> object:
        if not isinstance(b, dict) or not isinstance(b.get("phases"), dict):
            return b
        phases = {}
        for name, entry in b["phases"].items():
            kind = REGISTRY.get(entry.get("kind", "")) if isinstance(entry, dict) else None
            phases[name] = dict(entry, kind=kind.aliases[0]) if kind is not None and kind.aliases else entry
        return dict(b, phases=phases)
    out = block(d)
    assert isinstance(out, dict)
    if isinstance(out.get("rounds"), list):
        out = dict(out, rounds=[block(r) for r in out["rounds"]])
    return out


def _points_range(tables: list) -> tuple:
    """``(lo, hi)`` of the card points a hand can hold, over every trump choice's table."""
    return (min(sum(x for x in t if x < 0) for t in tables), max(sum(x for x in t if x > 0) for t in tables))


def _spread(lo: int, hi: int) -> tuple:
    """Values of ``lo..hi`` to try: all of them when few, else the ends, the values
    around zero and a few between."""
    if hi - lo <= 40:
        return tuple(range(lo, hi + 1))
    picks = {lo, lo + 1, hi - 1, hi} | {v for v in (-1, 0, 1) if lo <= v <= hi}
    picks |= {lo + (hi - lo) * i // 16 for i in range(17)}
    return tuple(sorted(picks))


def _first_failure(f, domains: dict, columns: int):
    """``(values, reason)`` of the first values of its variables on which formula ``f``
    fails, or ``None``; every combination when there are at most :data:`MAX_TRIALS`,
    else a fixed-seed sample of them."""
    names = sorted(f.names)
    doms = [domains.get(n, (0,)) for n in names]
    total = 1
    for d in doms:
        total *= len(d)
    combos: Iterable[tuple]
    if total <= MAX_TRIALS:
        combos = itertools.product(*doms)
    else:
        rnd = random.Random(0)
        combos = [tuple(d[0] for d in doms), tuple(d[-1] for d in doms)] + \
                 [tuple(rnd.choice(d) for d in doms) for _ in range(MAX_TRIALS)]
    for c in combos:
        env = Env(dict(zip(names, c)))
        env.everyone = [env] * columns
        try:
            f.fn(env)
        except FormulaError as e:
            return ", ".join(f"{k} = {_show(v)}" for k, v in zip(names, c)) or "always", str(e)
    return None


def _show(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _env(vars):
    from rulekit.dsl import Env
    return Env(vars)


def _matches(path: tuple, pattern: tuple) -> bool:
    return len(path) == len(pattern) and all(p == "*" or p == k for k, p in zip(path, pattern))


def _origin(pos, dotted: str):
    """``origin(line, column)`` of a formula at ``pos``: ``FILE:LINE:COL: path`` in the file."""
    def where(line: int, column: int) -> str:
        fl, fc = pos.dsl_offset(line, column)
        return f"{pos.file}:{fl}:{fc}: {dotted}"
    return where


def dsl_strings(data) -> list:
    """``(path, start rule)`` of every DSL string in a document, in document order."""
    out = []

    def walk(v, path):
        if isinstance(v, str):
            for pattern, start in DSL_PATHS:
                if _matches(path, pattern):
                    out.append((path, start))
                    break
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + (k,))
    walk(data, ())
    return out


def syntax_problems(r: Resolved) -> list[Diagnostic]:
    """DSL syntax errors of every DSL string in ``r`` (run even when the schema fails,
    so that one run reports them too)."""
    from rulekit.dsl import parse
    out = []
    bad = {tuple(d.path.split(".")) for d in r.diagnostics if d.path}
    for path, start in dsl_strings(r.data):
        if tuple(str(x) for x in path) in bad:
            continue
        v: object = r.data
        for k in path:   # (dsl_strings gives the paths of strings in mappings)
            v = v.get(k) if isinstance(v, dict) else None
        if not isinstance(v, str):
            continue
        try:
            parse(v, start)
        except DSLError as e:
            pos = r.pos(path)
            line, col = pos.dsl_offset(e.line, e.column)
            out.append(Diagnostic(pos.file, line, col, _dotted(path), e.message,
                                  pos.excerpt(line, col) or e.excerpt))
    return out


def compile_variant(r: Resolved, settings: dict | None = None) -> Variant:
    """Check and compile a resolved document.

    :param settings: chosen settings, e.g. ``{"players": 3}``.
    :raises VariantError: with every diagnostic found (including those of ``r``),
        in file order.
    """
    if r.data is None:
        raise VariantError(r.diagnostics or [Diagnostic(r.top_file, 1, 1, "", "empty variant file")])
    if r.blocking:
        raise VariantError(order_diagnostics(r.diagnostics + syntax_problems(r), r.files))
    return _Compiler(r, settings or {}).build()


def deal_number(sizes: tuple, n: int) -> int:
    """The 1-based number of the first deal of the schedule ``sizes`` that gives ``n`` cards."""
    return sizes.index(n) + 1


def check(r: Resolved, players: int | None = None, warnings: bool = False) -> list[Diagnostic]:
    """Every problem of a resolved document (empty when valid); never raises for bad input.

    Without ``players``, a variant that offers several player counts is checked
    for each of them (a deal pattern must add up for every choice).

    :param warnings: also return the :class:`VariantWarning` of each option that has
        no effect (they do not make the file invalid).
    """
    if players is not None or r.data is None or r.blocking or not isinstance(r.data.get("players"), dict):
        runs = [players]
    else:
        runs = list(dict.fromkeys(r.data["players"]["choices"]))
    found: list = []
    for n in runs:
        settings = {"players": n} if n is not None else {}
        if r.data is None or r.blocking:
            try:
                compile_variant(r, settings)
            except VariantError as e:
                found += e.diagnostics
            continue
        c = _Compiler(r, settings)
        try:
            c.build()
        except VariantError as e:
            found += e.diagnostics
        if warnings:
            found += c.warnings
    return order_diagnostics(found, r.files)


__all__ = ["VariantWarning", "check", "compile_variant", "dsl_strings", "syntax_problems"]
