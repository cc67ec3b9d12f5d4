"""Check the meaning of a resolved variant document and compile it.

:func:`compile_variant` turns a :class:`~rulekit.variant.loader.Resolved`
document into an immutable :class:`Variant`: the deck, one
:class:`Context` table per trump choice, phase specs, compiled formulas.
Every problem becomes a :class:`~rulekit.errors.Diagnostic` carrying the
file, line and column through the ``extends:`` chain; all of them are
collected before :class:`~rulekit.errors.VariantError` is raised.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from rulekit.cards import Deck, JOKER
from rulekit.dsl import Formula, compile_deal, compile_expr, compile_ranking
from rulekit.errors import Diagnostic, DSLError, VariantError
from rulekit.variant.loader import Resolved

NT = "NT"


@dataclass(frozen=True)
class Context:
    """Trick-taking tables for one trump choice (a suit letter or ``NT``).

    Groups are the effective suits: ``0..len(suits)-1`` for the suits (a left
    bower or a joker joins the trump suit's group) and ``len(suits)`` for the
    *top* group (cards above every suit at no trump).

    :ivar name: ``"S"``, ``"H"``, ... or ``"NT"``.
    :ivar group_of: card -> group index.
    :ivar strength: card -> strength, higher wins, compared within a group.
    :ivar group_mask: group -> bitmask of its cards.
    :ivar trump_group: the group that beats every other (trump suit or top group), or ``None``.
    :ivar trump_suit_group: the trump suit's group (for must-trump), or ``None`` at no trump.
    :ivar top_names_suit: a led top card makes the leader name a suit to follow ([T4]).
    :ivar display_order: cards in display order (trump group first, then suits, high to low).
    """

    name: str
    group_of: tuple
    strength: tuple
    group_mask: tuple
    trump_group: int | None
    trump_suit_group: int | None
    top_names_suit: bool
    display_order: tuple


@dataclass(frozen=True)
class Bid:
    """A bid of a ladder auction.

    :ivar text: action text (``7H``, ``10NT``, ``10T``).
    :ivar level: tricks the declarer must win.
    :ivar strain: suit letter, ``NT`` or ``chosen``.
    :ivar rank: position in the auction order (higher outbids lower).
    :ivar only_over: index of the bid that must be highest for this one to be legal, or -1.
    """

    text: str
    level: int
    strain: str
    rank: int
    only_over: int = -1


@dataclass(frozen=True)
class DealSpec:
    """``deal`` phase: the dealing pattern for the chosen number of players.

    :ivar steps: :class:`~rulekit.dsl.compile.DealStep` sequence.
    :ivar zones: zone name -> (size in cards, dealt face up).
    """

    kind: str
    name: str
    steps: tuple
    zones: dict


@dataclass(frozen=True)
class AuctionSpec:
    """``ladder_auction`` phase (rules/fivehundred.md [A1]-[A5])."""

    kind: str
    name: str
    first: str
    bids: tuple
    strains: tuple
    pass_is_final: bool
    all_pass: str


@dataclass(frozen=True)
class ExchangeSpec:
    """``widow_exchange`` phase (rules/fivehundred.md [W1]): discard this many cards."""

    kind: str
    name: str
    discard: int
    zone: str


@dataclass(frozen=True)
class NameTrumpSpec:
    """``name_trump`` phase: the declarer of a ``chosen`` strain names trumps ([A4])."""

    kind: str
    name: str
    choices: tuple


@dataclass(frozen=True)
class TricksSpec:
    """``tricks`` phase: trick play ([T1]-[T6])."""

    kind: str
    name: str
    lead: str
    must_trump: bool
    widow_to: str


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


@dataclass(frozen=True)
class MatchSpec:
    """How a match ends: target score, loss floor, immediate win, tie rules, deal count."""

    target: int | None
    lose_at: int | None
    immediate_win: Formula | None
    ties: tuple
    deals: int | None


@dataclass(frozen=True)
class Variant:
    """A compiled variant: everything the engine needs, nothing it must parse.

    :ivar id: variant id.
    :ivar name: human name.
    :ivar players: number of seats.
    :ivar deck: the :class:`~rulekit.cards.Deck`.
    :ivar card_points: card -> points (tuple indexed by card).
    :ivar contexts: strain -> :class:`Context`.
    :ivar phases: phase specs in order.
    :ivar scoring: :class:`ScoringSpec`.
    :ivar match: :class:`MatchSpec`.
    :ivar hash: sha256 of the merged document and settings (records carry it).
    :ivar data: the merged document (plain data), for records and ``explain``.
    :ivar settings: chosen settings (``players``).
    """

    id: str
    name: str
    source: str
    players: int
    deck: Deck
    card_points: tuple
    contexts: dict
    first_dealer: dict
    rotation: int
    phases: tuple
    scoring: ScoringSpec
    match: MatchSpec
    hash: str
    data: dict = field(repr=False)
    settings: dict = field(default_factory=dict)
    files: tuple = ()

    @property
    def has_card_points(self) -> bool:
        """True when some card counts points in won tricks."""
        return any(self.card_points)

    @property
    def hand_size(self) -> int:
        """Cards per player after the deal."""
        d = self.phase("deal")
        return sum(s.count * s.repeat for s in d.steps if not s.zone)

    def phase(self, kind: str):
        """The first phase spec of ``kind``, or ``None``."""
        for p in self.phases:
            if p.kind == kind:
                return p
        return None


# Variables a per-player scoring formula may read.
BASE_NAMES = ("players", "total_tricks", "tricks", "points", "seat", "is_declarer", "has_contract")
CONTRACT_NAMES = BASE_NAMES + ("level", "strain", "trump", "declarer_tricks", "declarer_points")


class _Compiler:
    def __init__(self, r: Resolved, settings: dict):
        self.r = r
        self.d = r.data
        self.settings = dict(settings)
        self.diags: list[Diagnostic] = []

    def err(self, path, msg):
        self.diags.append(self.r.diag(path, msg))

    def dsl(self, path, fn, *args):
        text = self._get(path)
        try:
            return fn(text, *args)
        except DSLError as e:
            pos = self.r.pos(path)
            line, col = pos.dsl_offset(e.line, e.column)
            self.diags.append(Diagnostic(pos.file, line, col, ".".join(map(str, path)),
                                         e.message, e.excerpt))
            return None

    def _get(self, path):
        v = self.d
        for k in path:
            v = v[k]
        return v

    # ------------------------------------------------------------------ parts
    def players(self) -> int:
        p = self.d.get("players", 4)
        want = self.settings.get("players")
        if isinstance(p, dict):
            n = p["default"] if want is None else want
            if n not in p["choices"]:
                self.err(("players",), f"{n} players is not a choice of this variant "
                         f"(expected one of {p['choices']})")
            if p["default"] not in p["choices"]:
                self.err(("players", "default"), f"default {p['default']} is not among the choices {p['choices']}")
            return n
        if want is not None and want != p:
            self.err(("players",), f"this variant is for {p} players, not {want}")
        return p

    def deck(self) -> Deck:
        dk = self.d["deck"]
        ranks = tuple(str(r) for r in dk["ranks"])
        colours = dict(dk.get("colours", {}))
        for s in dk["suits"]:
            colours.setdefault(s, {"S": "black", "C": "black"}.get(s, "red"))
        return Deck(tuple(dk["suits"]), ranks, dk.get("jokers", 0), colours)

    def card_points(self, deck: Deck) -> tuple:
        pts = self.d["deck"].get("card_points", {})
        for r in pts:
            if str(r) not in deck.ranks:
                self.err(("deck", "card_points", r), f"unknown rank {r!r} (expected one of {' '.join(deck.ranks)})")
        return tuple(0 if deck.is_joker(c) else pts.get(deck.rank_of(c), 0) for c in range(deck.size))

    def resolve_item(self, deck: Deck, item, path, suit: str | None, trump: str | None):
        """Card index of a ranking item, or None (after a diagnostic)."""
        pos = self.r.pos(path)
        where = pos.dsl_offset(item.line, item.column)

        def bad(msg):
            self.diags.append(Diagnostic(pos.file, where[0], where[1], ".".join(map(str, path)), msg))
            return None
        if item.kind == "joker":
            if item.value not in deck.index:
                return bad(f"{item.value} is not in this deck (it has {deck.jokers} jokers; set deck.jokers)")
            return deck.index[item.value]
        if item.kind == "card":
            if item.value not in deck.index:
                return bad(f"unknown card {item.value} (expected a rank of {' '.join(deck.ranks)} "
                           f"and a suit of {' '.join(deck.suits)})")
            return deck.index[item.value]
        if item.kind == "suit":
            return bad(f"a suit letter ({item.value}) cannot stand in a card ranking (expected a rank or a card)")
        if item.value not in deck.ranks:
            return bad(f"unknown rank {item.value} (expected one of {' '.join(deck.ranks)})")
        if item.kind == "relative":
            if trump is None:
                return None
            target = trump if item.ref == "trump" else self.sister(deck, trump)
            if target is None:
                return bad(f"the trump suit {trump} has no sister suit of the same colour")
            return deck.index[item.value + target]
        return deck.index[item.value + suit] if suit else None

    def sister(self, deck: Deck, suit: str) -> str | None:
        same = [s for s in deck.suits if s != suit and deck.colours.get(s) == deck.colours.get(suit)]
        return same[0] if len(same) == 1 else None

    def context(self, deck: Deck, name: str) -> Context | None:
        rk = self.d["ranking"]
        ns = len(deck.suits)
        trump = None if name == NT else name
        group = [-1] * deck.size
        strength = [0] * deck.size
        ok = True

        def assign(items, key, g, s_of, suit):
            nonlocal ok
            for i, it in enumerate(items):
                c = self.resolve_item(deck, it, ("ranking", key), suit, trump)
                if c is None:
                    ok = ok and it.kind not in ("card", "joker", "suit") and it.value in deck.ranks
                    continue
                if group[c] != -1:
                    continue
                group[c] = g
                strength[c] = s_of(i)
        if trump is not None:
            items = self.rankings.get("trump") or self.rankings.get("suit") or []
            assign(items, "trump" if "trump" in rk else "suit", deck.suits.index(trump),
                   lambda i, n=len(items): 100 + n - i, trump)
        elif self.rankings.get("top"):
            items = self.rankings["top"]
            assign(items, "top", ns, lambda i, n=len(items): 100 + n - i, None)
        items = self.rankings.get("suit") or []
        for si, s in enumerate(deck.suits):
            assign(items, "suit", si, lambda i, n=len(items): n - i, s)
        missing = [c for c in range(deck.size) if group[c] == -1]
        if missing and ok:
            where = "when trumps are " + name if trump else "at no trump"
            self.err(("ranking",), f"{', '.join(deck.name(c) for c in missing)} not ranked {where} "
                     f"(expected every card in ranking.suit, ranking.trump or ranking.top)")
            return None
        if not ok:
            return None
        gmask = [0] * (ns + 1)
        for c in range(deck.size):
            gmask[group[c]] |= 1 << c
        tg = deck.suits.index(trump) if trump else (ns if gmask[ns] else None)
        order = sorted(range(deck.size), key=lambda c: (
            0 if group[c] == tg else 1, group[c], -strength[c]))
        return Context(name, tuple(group), tuple(strength), tuple(gmask), tg,
                       deck.suits.index(trump) if trump else None,
                       trump is None and self.d["ranking"].get("top_led") == "name_suit",
                       tuple(order))

    def compile_phases(self, deck: Deck, players: int):
        specs = []
        phases = self.d["phases"]
        kinds = [p["kind"] for p in phases.values()]
        if kinds.count("deal") != 1:
            self.err(("phases",), f"a hand needs exactly one deal phase (found {kinds.count('deal')})")
        if "tricks" not in kinds:
            self.err(("phases",), "a hand needs a tricks phase")
        strains_used = {NT}
        for name, p in phases.items():
            path = ("phases", name)
            k = p["kind"]
            if k == "deal":
                specs.append(self.deal(deck, players, p, path))
            elif k == "ladder_auction":
                specs.append(self.auction(deck, p, path, "name_trump" in kinds))
                strains_used |= {s for s in p["strains"]}
            elif k == "widow_exchange":
                specs.append(ExchangeSpec(k, name, p.get("discard", -1), "widow"))
            elif k == "name_trump":
                for i, s in enumerate(p["choices"]):
                    if s != NT and s not in deck.suits:
                        self.err(path + ("choices", i), f"unknown suit {s} (expected one of {' '.join(deck.suits)} or NT)")
                strains_used |= set(p["choices"])
                specs.append(NameTrumpSpec(k, name, tuple(p["choices"])))
            elif k == "tricks":
                specs.append(TricksSpec(k, name, p.get("lead", "eldest"), bool(p.get("must_trump", False)),
                                        p.get("widow_to", "none")))
        deal = next((s for s in specs if s and s.kind == "deal"), None)
        if deal:
            for s in specs:
                if s and s.kind == "widow_exchange":
                    if "widow" not in deal.zones:
                        self.err(("phases", s.name), "a widow_exchange needs a widow in the deal pattern "
                                 "(expected e.g. \"..., widow 3 up\")")
                    elif s.discard < 0:
                        specs[specs.index(s)] = ExchangeSpec(s.kind, s.name, deal.zones["widow"][0], "widow")
        return tuple(specs), strains_used

    def deal(self, deck, players, p, path):
        pat = p["pattern"]
        ppath = path + ("pattern",)
        if isinstance(pat, dict):
            key = str(players)
            if key not in pat:
                self.err(ppath, f"no dealing pattern for {players} players (expected a key {key!r})")
                return None
            ppath = ppath + (key,)
        steps = self.dsl(ppath, compile_deal)
        if steps is None:
            return None
        zones: dict = {}
        total = 0
        for st in steps:
            if st.zone:
                size, up = zones.get(st.zone, (0, st.face_up))
                zones[st.zone] = (size + st.count, up)
                total += st.count
            else:
                total += st.count * st.repeat * players
        if total != deck.size:
            self.err(ppath, f"the deal gives out {total} cards but the deck has {deck.size} "
                     f"({players} players; expected the pattern to use every card once)")
        return DealSpec("deal", path[-1], steps, zones)

    def auction(self, deck, p, path, has_name_trump):
        bids = []
        for s_i, s in enumerate(p["strains"]):
            if s != NT and s not in deck.suits:
                self.err(path + ("strains", s_i), f"unknown strain {s} (expected one of {' '.join(deck.suits)} or NT)")
        for lv in p["levels"]:
            for s in p["strains"]:
                bids.append(Bid(f"{lv}{s}", lv, s, len(bids)))
        texts = {b.text: b.rank for b in bids}
        for i, x in enumerate(p.get("extra_bids", [])):
            xp = path + ("extra_bids", i)
            over = -1
            if "only_over" in x:
                if x["only_over"] not in texts:
                    self.err(xp + ("only_over",), f"unknown bid {x['only_over']!r} (expected one of the bids "
                             f"such as {bids[-1].text if bids else '?'})")
                else:
                    over = texts[x["only_over"]]
            if x["call"] in texts or x["call"] == "pass":
                self.err(xp + ("call",), f"bid {x['call']!r} is already defined")
            if x["strain"] == "chosen" and not has_name_trump:
                self.err(xp + ("strain",), "strain `chosen` needs a name_trump phase (expected one in phases)")
            if x["strain"] not in (NT, "chosen") and x["strain"] not in deck.suits:
                self.err(xp + ("strain",), f"unknown strain {x['strain']}")
            b = Bid(x["call"], x["level"], x["strain"], len(bids), over)
            texts[b.text] = b.rank
            bids.append(b)
        return AuctionSpec("ladder_auction", path[-1], p.get("first", "eldest"), tuple(bids),
                           tuple(p["strains"]), bool(p.get("pass_is_final", True)), p.get("all_pass", "play"))

    def scoring(self, deck: Deck, has_contract: bool) -> ScoringSpec:
        sc = self.d.get("scoring", {})
        names = CONTRACT_NAMES if has_contract else BASE_NAMES
        consts = tuple(deck.suits) + (NT,)
        macros: dict = {}
        for k in sc.get("let", {}):
            if k in names:
                self.err(("scoring", "let", k), f"{k} is a built-in variable and cannot be redefined")
                continue
            f = self.dsl(("scoring", "let", k), compile_expr, names, consts, dict(macros))
            if f is not None:
                macros[k] = f
        self.macros = macros

        def f(key, nm=names):
            if key not in sc:
                return None
            return self.dsl(("scoring", key), compile_expr, nm, consts, macros)
        spec = ScoringSpec(f("each"), f("declarer"), f("defender"), f("no_contract"), f("void_if"),
                           bool(sc.get("lower_is_better", False)), macros.get("made"))
        if has_contract and (spec.declarer is None or spec.defender is None) and spec.each is None:
            self.err(("scoring",), "a game with an auction needs scoring.declarer and scoring.defender "
                     "(or scoring.each)")
        if not has_contract and spec.each is None:
            self.err(("scoring",), "a game without an auction needs scoring.each")
        return spec

    def match(self, deck, players) -> MatchSpec:
        m = self.d.get("match", {})
        consts = tuple(deck.suits) + (NT,)
        iw = None
        if "immediate_win" in m:
            iw = self.dsl(("match", "immediate_win"), compile_expr, CONTRACT_NAMES, consts, self.macros)
        deals = m.get("deals")
        if isinstance(deals, str):
            f = self.dsl(("match", "deals"), compile_expr, ("players",))
            deals = None if f is None else int(f(_env({"players": players})))
        if deals is None and m.get("target") is None:
            self.err(("match",), "a match needs an end: match.target or match.deals")
        return MatchSpec(m.get("target"), m.get("lose_at"), iw, tuple(m.get("ties", ())), deals)

    def first_dealer(self, deck: Deck) -> dict:
        fd = (self.d.get("dealer") or {}).get("first", {"cut": "high"})
        if "seat" in fd:
            return {"seat": fd["seat"]}
        rank_order = list(deck.ranks)[::-1] + ([JOKER] if deck.jokers else [])
        suit_order = list(deck.suits)[::-1]
        if "ranks" in fd:
            items = self.dsl(("dealer", "first", "ranks"), compile_ranking) or []
            got = [("JK" if i.kind == "joker" else i.value) for i in items]
            need = set(deck.ranks) | ({JOKER} if deck.jokers else set())
            if set(got) != need or len(got) != len(need):
                self.err(("dealer", "first", "ranks"), f"the cut order must list each rank once "
                         f"(expected {' '.join(sorted(need))})")
            else:
                rank_order = got
        if "suits" in fd:
            items = self.dsl(("dealer", "first", "suits"), compile_ranking) or []
            got = [i.value for i in items]
            if sorted(got) != sorted(deck.suits) or any(i.kind != "suit" for i in items):
                self.err(("dealer", "first", "suits"), f"the cut suit order must list each suit once "
                         f"(expected {' '.join(deck.suits)})")
            else:
                suit_order = got
        # strength: higher is a higher cut card
        strength = []
        for c in range(deck.size):
            r = JOKER if deck.is_joker(c) else deck.rank_of(c)
            s = deck.suit_of(c)
            rs = len(rank_order) - rank_order.index(r)
            ss = len(suit_order) - suit_order.index(s) if s else 0
            strength.append(rs * 10 + ss)
        return {"cut": fd.get("cut", "high"), "strength": tuple(strength)}

    def build(self) -> Variant:
        d = self.d
        players = self.players()
        deck = self.deck()
        pts = self.card_points(deck)
        rk = d["ranking"]
        self.rankings = {}
        for key in ("suit", "trump", "top"):
            if key in rk:
                self.rankings[key] = self.dsl(("ranking", key), compile_ranking)
        if deck.jokers and "top" not in rk and "trump" not in rk:
            pass  # reported below as an unranked card
        phases, strains = self.compile_phases(deck, players)
        contexts = {}
        if all(v is not None for v in self.rankings.values()):
            for s in sorted(strains, key=lambda x: (x == NT, x)):
                if s == "chosen":
                    continue
                ctx = self.context(deck, s)
                if ctx is not None:
                    contexts[s] = ctx
        has_auction = any(p is not None and p.kind == "ladder_auction" for p in phases)
        scoring = self.scoring(deck, has_auction)
        match = self.match(deck, players)
        first = self.first_dealer(deck)
        rot = {"left": 1, "right": -1, "none": 0}[(d.get("dealer") or {}).get("rotation", "left")]
        if self.diags:
            raise VariantError(sorted(self.diags, key=lambda x: (x.file, x.line, x.column)))
        blob = json.dumps({"data": d, "settings": self.settings}, sort_keys=True, default=str)
        return Variant(d.get("id", "unnamed"), d.get("name", d.get("id", "unnamed")), d.get("source", ""),
                       players, deck, pts, contexts, first, rot, phases, scoring, match,
                       hashlib.sha256(blob.encode()).hexdigest()[:16], d,
                       {"players": players}, tuple(self.r.files))


def _env(vars):
    from rulekit.dsl import Env
    return Env(vars)


def compile_variant(r: Resolved, settings: dict | None = None) -> Variant:
    """Check and compile a resolved document.

    :param settings: chosen settings, e.g. ``{"players": 3}``.
    :raises VariantError: with every diagnostic found (including those of ``r``).
    """
    if r.diagnostics or r.data is None:
        raise VariantError(r.diagnostics or [Diagnostic(r.top_file, 1, 1, "", "empty variant file")])
    return _Compiler(r, settings or {}).build()


__all__ = ["AuctionSpec", "Bid", "Context", "DealSpec", "ExchangeSpec", "MatchSpec", "NameTrumpSpec",
           "ScoringSpec", "TricksSpec", "Variant", "compile_variant", "BASE_NAMES", "CONTRACT_NAMES", "NT"]
