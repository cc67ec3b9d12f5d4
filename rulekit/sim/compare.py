"""Compare variants on the same deals: paired simulation and paired statistics (``rulekit compare``).

Deal ``i`` of a comparison is ``State(variant, seed=deal_seed(root, i))`` for every variant,
so every variant sees the same cut and the same shuffle (the engine deals hand ``k`` of seed
``s`` from ``(s, k)`` alone: :mod:`rulekit.engine.shuffle`), and the players' own randomness
is seeded from ``(root, i, seat)`` too; every seat is a SensibleBot unless others are named.  Each metric is then compared deal by deal (:func:`paired`): the
mean difference with its 95 % confidence interval and a test (a paired t test, or McNemar's
exact test for a 0/1 metric such as "made"), which is much narrower than comparing two
independent samples; the p-values of all metrics are also adjusted together (Holm).

Rows are kept by field (:class:`~rulekit.sim.rows.Rows`: an array per column, about 185 bytes
a Five Hundred deal).  The work is cut into chunks of deal indices and run by any
:class:`concurrent.futures.Executor` (a process pool, or a dask.distributed cluster's
``Client.get_executor()``).  Workers get only plain data (variant ids or absolute paths,
bot names, seeds) and load the variants themselves, once per process.  Every row depends
only on ``(root seed, deal index)``, and rows are sorted before any statistic is computed,
so the numbers are the same with any number of workers.

Two units:

``deals``    one deal per index (hand 0 of a fresh match): contracts, declarer success,
             entries per score column and per seat relative to the dealer, spread, length.
``matches``  one whole match per index (capped at ``max_hands`` hands): winners per seat,
             the first dealer's win rate, totals, match length, lead changes, how late the
             winner is decided.  With a SensibleBot in one seat and random players in the
             others, that seat's win rate is the bot-over-random win rate.
"""
from __future__ import annotations

import dataclasses
import math
import random
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypedDict

from rulekit.errors import RulekitError
from rulekit.sim.rows import Rows

#: The most deals (or matches) one comparison plays: every row is kept for the statistics.
MAX_N = 1_000_000

#: Bytes a row takes in :class:`~rulekit.sim.rows.Rows`, measured (``benchmarks/compare.py
#: --memory``): about 185 for a Five Hundred deal (23 fields), 150 for a match; so two variants at
#: :data:`MAX_N` deals keep about 370 MB.  A variant with more score columns has more fields.
ROW_BYTES = 200

#: Hands after which a simulated match is stopped when it has not ended (random
#: Five-Hundred-like matches can last thousands of hands).
DEFAULT_MAX_HANDS = 200

BOT_KINDS = ("random", "sensible", "bot")

#: The players of every seat when none are named: SensibleBots (``random`` is asked by name).
DEFAULT_BOTS = "sensible"


class CompareError(RulekitError):
    """The comparison cannot be run as asked (files that cannot share deals, bad settings)."""


# ---------------------------------------------------------------------- seeds
def deal_seed(root: int, index: int) -> int:
    """The ``State`` seed of deal (or match) ``index`` of a comparison seeded ``root``
    (63 bits, stable across processes, machines and Python versions)."""
    return random.Random(f"rulekit-compare:{root}:{index}").getrandbits(63)


def _sub_seed(root: int, index: int, what) -> int:
    return random.Random(f"rulekit-compare:{root}:{index}:{what}").getrandbits(63)


# ---------------------------------------------------------------------- worker side
_LOADED: dict = {}


def _variant(name: str, players: int | None = None):
    """The compiled variant ``name`` (loaded once per process: compiled formulas do not pickle)."""
    if (name, players) not in _LOADED:
        from rulekit.variant import load_variant
        _LOADED[name, players] = load_variant(name, players=players)
    return _LOADED[name, players]


class Task(TypedDict):
    """One chunk of a comparison, as sent to a worker (plain data: it pickles): see
    :func:`run_chunk`."""

    variants: list[str]
    labels: list[str]
    bots: list[str]
    seed: int
    unit: str
    max_hands: int
    players: int | None
    start: int
    stop: int


def run_chunk(task: Task) -> list[dict]:
    """Play deals (or matches) ``task["start"] .. task["stop"] - 1`` under every variant.

    :param task: plain data: ``variants`` (ids or absolute paths), ``labels`` (their names
        in the rows), ``bots`` (a kind per seat), ``seed``, ``unit`` (``deals`` or
        ``matches``), ``max_hands``, ``players`` (setting or ``None``), ``start``, ``stop``.
    :returns: one row (a flat dict) per index and variant, in that order.
    """
    rows = []
    variants = [_variant(v, task.get("players")) for v in task["variants"]]
    for i in range(task["start"], task["stop"]):
        for v, label in zip(variants, task["labels"]):
            if task["unit"] == "deals":
                row = play_deal(v, task["seed"], i, task["bots"])
            else:
                row = play_match(v, task["seed"], i, task["bots"], task["max_hands"])
            rows.append({"index": i, "variant": label, **row})
    return rows


def _bots(kinds, root: int, index: int):
    from rulekit.bots import make_bot
    return [make_bot(k, seed=_sub_seed(root, index, ("bot", s))) for s, k in enumerate(kinds)]


def _play_hand(state, bots, rng) -> None:
    """Play the current hand of ``state`` to its end: every decision by the seat's bot, or
    (all seats random) by the engine's random playout loop."""
    h = state.hand
    if bots is None:
        from rulekit.engine.playout import random_hand
        random_hand(state, rng)
        return
    while state.hand is h and not state.is_over:
        seat = state.controller(state.to_move)  # the declarer decides for his dummy
        state.apply(bots[seat].act(state.observation(seat)))


def play_deal(v, root: int, index: int, kinds) -> dict:
    """Play hand 0 of ``State(v, seed=deal_seed(root, index))``; its metrics as a flat dict.

    Keys: ``seed``, ``dealer``, ``contract`` (bid text, ``""`` without one), ``level``,
    ``trump``, ``declarer`` (seat, ``None`` without one), ``made`` (1/0, ``None`` without a contract),
    ``all_pass`` (1/0, ``None`` for a game without an auction), ``declarer_tricks``,
    ``declarer_score``, ``score_C`` per score column, ``seat_score_K`` for the seat ``K``
    places left of the dealer, ``spread`` (best minus worst entry), ``decisions`` (actions
    in the hand), ``decided_at`` (the trick after which the contract was sure to be made or
    to fail), ``void``.
    """
    from rulekit.engine import State
    from rulekit.engine.scoring import column_of, player_envs
    seed = deal_seed(root, index)
    state = State(v, seed=seed, max_hands=1)  # no next hand is dealt after this one
    h = state.hand
    all_random = all(k == "random" for k in kinds)
    bots = None if all_random else _bots(kinds, root, index)
    _play_hand(state, bots, random.Random(_sub_seed(root, index, "play")))
    n = v.players
    entries = list(h.entries) if h.entries is not None else [0] * (len(v.sides) if v.scoring.by_side else n)
    row = {"seed": seed, "dealer": h.dealer, "contract": "", "level": None, "trump": h.trump,
           "declarer": h.declarer if h.declarer is not None and h.declarer >= 0 else None, "made": None,
           "all_pass": None if v.auction() is None else int(h.contract is None),
           "declarer_tricks": None, "declarer_score": None}
    tricks_total = len(h.tricks)
    if h.contract is not None:
        col = column_of(v, h.declarer)
        seats = v.sides[col] if v.scoring.by_side else (h.declarer,)
        won = sum(h.won[s] for s in seats)
        made_f = v.scoring.made
        made = bool(made_f(player_envs(v, h)[col])) if made_f is not None else won >= h.contract.level
        row.update(contract=h.contract.text, level=h.contract.level, made=int(made), declarer_tricks=won,
                   declarer_score=entries[col], decided_at=_decided_at(h, seats, h.contract.level))
    else:
        row["decided_at"] = None
    for c, e in enumerate(entries):
        row[f"score_{c}"] = e
    for k in range(n):  # seat advantage relative to the dealer (k = 1: eldest hand)
        row[f"seat_score_{k}"] = entries[column_of(v, (h.dealer + k) % n)]
    row.update(spread=max(entries) - min(entries), decisions=len(h.actions) + sum(len(t[1]) for t in h.tricks),
               tricks=tricks_total, void=int(bool(h.void)))
    return row


def _decided_at(h, seats, level: int):
    """The trick (1-based) after which the declarer's side was sure to take ``level`` tricks
    or sure not to; ``None`` when play stopped before."""
    total = sum(h.won) if h.won else 0
    mine = 0
    for k, t in enumerate(h.tricks, 1):
        winner = t[2]
        mine += winner in seats
        if mine >= level or mine + (total - k) < level:
            return k
    return None


def play_match(v, root: int, index: int, kinds, max_hands: int) -> dict:
    """Play a whole match of ``State(v, seed=deal_seed(root, index))`` (stopped after
    ``max_hands`` hands); its metrics as a flat dict.

    Keys: ``seed``, ``first_dealer``, ``hands`` (match length), ``stopped`` (1 when cut at
    ``max_hands``), ``win_K`` per seat (1, or 1/k for a k-way tie), ``first_dealer_win``,
    ``total_C`` per score column, ``spread`` (best minus worst total), ``lead_changes`` (how
    often the leading column changed from hand to hand), ``decided_at`` (share of the match
    played when the final winner took the lead for good), ``winners``, ``reason``.
    """
    from rulekit.engine import State
    seed = deal_seed(root, index)
    state = State(v, seed=seed, max_hands=max_hands)
    all_random = all(k == "random" for k in kinds)
    bots = None if all_random else _bots(kinds, root, index)
    rng = random.Random(_sub_seed(root, index, "play"))
    while not state.is_over:
        _play_hand(state, bots, rng)
    res = state.result()
    winners = res["winners"]
    n = v.players
    row = {"seed": seed, "first_dealer": state.first_dealer, "hands": state.hands_played,
           "stopped": int(res["reason"].startswith("stopped")), "winners": " ".join(map(str, winners)),
           "reason": res["reason"]}
    for s in range(n):
        row[f"win_{s}"] = (1 / len(winners)) if s in winners else 0.0
    row["first_dealer_win"] = row[f"win_{state.first_dealer}"]
    totals = res["totals"]
    for c, t in enumerate(totals):
        row[f"total_{c}"] = t
    row["spread"] = max(totals) - min(totals)
    lower = v.scoring.lower_is_better
    leaders = []
    for r in state.sheet.rows:
        tot = r.totals
        best = (min if lower else max)(tot)
        lead = [c for c, x in enumerate(tot) if x == best]
        leaders.append(lead[0] if len(lead) == 1 else None)
    row["lead_changes"] = sum(1 for a, b in zip(leaders, leaders[1:]) if a != b and a is not None and b is not None)
    final = leaders[-1] if leaders else None
    k = len(leaders)
    while k > 0 and leaders[k - 1] == final and final is not None:
        k -= 1
    row["decided_at"] = (k / len(leaders)) if leaders and final is not None else None
    return row


# ---------------------------------------------------------------------- statistics
#: Level of every interval and test: 95 %, so a test's p below ALPHA is what the interval excludes.
ALPHA = 0.05


@dataclass(frozen=True)
class Metric:
    """A metric of the rows: ``key`` (a row field, or a derived one), ``label`` in words,
    ``unit`` (``rate`` shown in percent, ``points``, ``count``...), ``where`` (the pairs to use:
    only deals where both rows have a value)."""

    key: str
    label: str
    unit: str = ""


@dataclass(frozen=True)
class Paired:
    """The paired comparison of one metric on the pairs where both values exist.

    :ivar n: pairs; ``mean_a``, ``mean_b`` their means, ``diff`` = ``mean_b - mean_a``.
    :ivar lo, hi: 95 % confidence interval of ``diff``: the paired t interval (a metric with
        other values than 0 and 1), or Newcombe's square-and-add interval (a 0/1 metric); when
        no pair differs, ``-bound .. bound`` for a 0/1 metric and ``None`` for another (nothing
        bounds the size of a difference never seen); ``None`` below 2 pairs.
    :ivar test: ``"paired t"`` (:func:`scipy.stats.ttest_rel`), ``"McNemar exact"`` (exact
        binomial test of the pairs that differ), ``"sign test"`` (every pair differs by the
        same amount: the t statistic is undefined), ``"none differ"``, or ``""`` (below 2 pairs).
    :ivar p: two-sided p-value of ``test`` (1 when no pair differs), ``None`` below 2 pairs.
    :ivar differ: pairs whose two values differ.
    :ivar bound: with ``differ == 0``, the exact one-sided 95 % upper bound on the share of
        pairs that differ (``1 - 0.05 ** (1 / n)``, about ``3 / n``), else ``None``.
    """

    n: int
    mean_a: float | None
    mean_b: float | None
    diff: float | None
    lo: float | None
    hi: float | None
    test: str = ""
    p: float | None = None
    differ: int = 0
    bound: float | None = None


@dataclass(frozen=True)
class Difference(Paired):
    """A metric under ``a`` and ``b`` on the same deals, and their paired difference (the
    fields of :class:`Paired`), with ``p_holm``: ``p`` adjusted by Holm's method for every test
    of the comparison (:func:`holm`)."""

    metric: Metric = field(kw_only=True)
    a: str = field(kw_only=True)
    b: str = field(kw_only=True)
    p_holm: float | None = None

    @property
    def detectable(self) -> bool:
        """The test rejects "no difference" at the 95 % level and the interval excludes 0 (for
        the t test the two are the same; McNemar's exact test is the more cautious of the two,
        so with few pairs that differ a rate's interval may exclude 0 while it does not reject)."""
        return (self.p is not None and self.p < ALPHA and self.differ > 0
                and (self.lo is None or self.hi is None or self.lo > 0 or self.hi < 0))

    @property
    def agree(self) -> bool:
        """Every pair has the same value under both (the difference is 0 in the sample, which
        is not a proof that it is 0: see :attr:`bound`)."""
        return self.n >= 2 and self.differ == 0

    def sentence(self) -> str:
        """A plain sentence: the difference with its interval and test, that no pair differs (with
        the bound on how many could), or that none is detectable."""
        m = self.metric
        if self.n < 2:
            return f"{m.label}: too few deals with a value under both ({self.n}) to compare."
        if self.agree:
            assert self.bound is not None
            return (f"{m.label}: no difference in {self.n} pairs: the same under {self.b} as under {self.a} "
                    f"in each (so it differs in at most {format_percent(self.bound)} of such pairs, 95% upper bound).")
        ci = "" if self.lo is None or self.hi is None else f"95% CI {interval_text(self.lo, self.hi, m, ' to ')}; "
        test = f"{self.test} p {_p_said(self.p)}"
        if not self.detectable:
            return (f"{m.label}: no difference detectable at this N ({self.n} pairs; {ci}{test}; "
                    f"{format_value(self.mean_a, m)} vs {format_value(self.mean_b, m)}).")
        assert self.diff is not None   # a test: at least 2 pairs, so their mean difference
        way = "higher" if self.diff > 0 else "lower"
        every = " in every pair" if self.test == "sign test" and self.differ == self.n else ""
        return (f"{m.label}: {format_value(abs(self.diff), m)} {way}{every} under {self.b} than under {self.a} "
                f"({format_value(self.mean_a, m)} -> {format_value(self.mean_b, m)}; {ci}{test}, Holm {_p_said(self.p_holm)}; "
                f"{self.n} pairs).")


def format_value(x, m: Metric, more: int = 0) -> str:
    """A value of metric ``m`` as shown (a rate in percent), with ``more`` extra decimals."""
    if x is None:
        return "-"
    if m.unit == "rate":
        return f"{round(100 * x, 1 + more) + 0.0:.{1 + more}f}%"  # + 0.0: no "-0.0%"
    k = (2 if abs(x) < 100 else 1) + more
    return f"{round(x, k) + 0.0:.{k}f}"


def interval_text(lo: float, hi: float, m: Metric, sep: str = "..") -> str:
    """``lo..hi`` with as many decimals (up to 3 more) as it takes for an interval that is not a
    point never to look like one, nor an end that is not 0 like 0 (``0.02%..1.17%``, not
    ``0.0%..1.2%``, which would seem to include no difference)."""
    zero = (format_value(0.0, m), format_value(-0.0, m))
    for more in range(4):
        a, b = format_value(lo, m, more), format_value(hi, m, more)
        if a != b and (lo == 0 or a not in zero) and (hi == 0 or b not in zero):
            break
        zero = (format_value(0.0, m, more + 1), format_value(-0.0, m, more + 1))
    return f"{a}{sep}{b}"


def format_percent(x: float) -> str:
    """A share in percent with two significant digits (``0.30%``, ``3.0%``)."""
    return f"{100 * x:.2g}%" if 100 * x >= 1 else f"{100 * x:.2f}%" if 100 * x >= 0.01 else f"{100 * x:.1e}%"


def format_p(p: float | None) -> str:
    """A p-value as said in the table and sentences (``0.031``, ``<0.001``, ``-``)."""
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}" if p < 0.1 else f"{p:.2f}"


def _p_said(p: float | None) -> str:
    """``= 0.031`` or ``< 0.001``, after "p" in a sentence."""
    text = format_p(p)
    return f"< {text[1:]}" if text.startswith("<") else f"= {text}"


def agreement_bound(n: int) -> float:
    """The exact one-sided 95 % upper bound on the share of pairs that differ when none of ``n``
    does: the ``q`` with ``(1 - q) ** n = 0.05`` (Clopper-Pearson; about ``3 / n``, the "rule of
    three")."""
    return 1 - ALPHA ** (1 / n)


def paired(values_a: list, values_b: list) -> Paired:
    """Compare the paired values ``b - a`` over the pairs where both exist (``None`` left out).

    A metric whose values are all 0 or 1 (made, all pass, a win) is a paired rate: McNemar's
    exact test, the binomial test of the ``k`` pairs that go 0 -> 1 among the ``m`` that differ
    (:func:`scipy.stats.binomtest`, p = 0.5), and Newcombe's square-and-add interval of the
    difference (:func:`_newcombe`). Another metric: the paired t test and its interval
    (:func:`scipy.stats.ttest_rel`); when every pair differs by the same non-zero amount the t
    statistic is undefined and the sign test says how sure that is. When no pair differs the
    interval is never the zero-width ``0 .. 0``: see :attr:`Paired.bound`.
    """
    pairs = [(x, y) for x, y in zip(values_a, values_b) if x is not None and y is not None]
    n = len(pairs)
    if not n:
        return Paired(0, None, None, None, None, None)
    ma = math.fsum(x for x, _ in pairs) / n
    mb = math.fsum(y for _, y in pairs) / n
    mean = mb - ma
    if n < 2:
        return Paired(n, ma, mb, mean, None, None, differ=int(pairs[0][0] != pairs[0][1]))
    from scipy import stats
    up = sum(1 for x, y in pairs if y > x)
    down = sum(1 for x, y in pairs if y < x)
    if up + down == 0:
        q = agreement_bound(n)
        binary = all(x in (0, 1) and y in (0, 1) for x, y in pairs)
        # a 0/1 metric's difference is at most the share of pairs that differ: within +-q
        return Paired(n, ma, mb, 0.0, -q if binary else None, q if binary else None, "none differ", 1.0, 0, q)
    if all(x in (0, 1) and y in (0, 1) for x, y in pairs):
        both = sum(1 for x, y in pairs if x == y == 1)
        lo, hi = _newcombe(both, up, down, n - both - up - down)
        p = float(stats.binomtest(up, up + down, 0.5).pvalue)
        return Paired(n, ma, mb, (up - down) / n, lo, hi, "McNemar exact", p, up + down)
    d = [y - x for x, y in pairs]
    if max(d) == min(d):   # the same non-zero difference in every pair: no spread for a t test
        p = float(stats.binomtest(up, up + down, 0.5).pvalue)
        return Paired(n, ma, mb, d[0], None, None, "sign test", p, n)
    res = stats.ttest_rel([y for _, y in pairs], [x for x, _ in pairs])
    ci = res.confidence_interval(confidence_level=1 - ALPHA)
    return Paired(n, ma, mb, mean, float(ci.low), float(ci.high), "paired t", float(res.pvalue), up + down)


def _newcombe(both: int, up: int, down: int, neither: int) -> tuple[float, float]:
    """Newcombe's square-and-add 95 % interval of the difference of two paired rates ``b - a``
    (Newcombe, Statistics in Medicine 17, 1998; as in Fagerland, Lydersen & Laake, "Statistical
    analysis of contingency tables", 2017, ch. 8): ``both`` pairs 1 under both, ``up`` 0 -> 1, ``down``
    1 -> 0, ``neither`` 0 under both. The Wilson score interval of each rate, combined with the
    estimated correlation of the two rates."""
    from scipy import stats
    n = both + up + down + neither
    pb, pa = (both + up) / n, (both + down) / n
    l1, u1 = stats.binomtest(both + up, n).proportion_ci(1 - ALPHA, "wilson")
    l2, u2 = stats.binomtest(both + down, n).proportion_ci(1 - ALPHA, "wilson")
    margins = (both + up) * (down + neither) * (both + down) * (up + neither)
    cross = both * neither - up * down
    psi = 0.0 if margins == 0 else ((cross - n / 2) / math.sqrt(margins) if cross > n / 2 else
                                    0.0 if cross >= 0 else cross / math.sqrt(margins))
    d = pb - pa
    lo = d - math.sqrt(max(0.0, (pb - l1) ** 2 + (u2 - pa) ** 2 - 2 * psi * (pb - l1) * (u2 - pa)))
    hi = d + math.sqrt(max(0.0, (pa - l2) ** 2 + (u1 - pb) ** 2 - 2 * psi * (pa - l2) * (u1 - pb)))
    return max(-1.0, lo), min(1.0, hi)


def holm(ps: list) -> list:
    """Holm's step-down adjustment of the p-values ``ps`` (``None`` left as it is): the k-th
    smallest of m becomes ``max`` over the first k of ``min(1, (m - j + 1) * p_j)``. A difference
    whose adjusted p is below 0.05 stays detectable when all m tests are read together (the
    chance of any false alarm among them is at most 5 %, whatever their dependence; Holm, "A
    simple sequentially rejective multiple test procedure", Scand. J. Statist. 6, 1979)."""
    idx = sorted((i for i, p in enumerate(ps) if p is not None), key=lambda i: ps[i])
    m = len(idx)
    out = list(ps)
    running = 0.0
    for rank, i in enumerate(idx):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def metrics_for(unit: str, rows: Rows | list, players: int) -> list[Metric]:
    """The metrics compared for ``unit`` (``deals`` or ``matches``), given the rows' fields."""
    if not isinstance(rows, Rows):
        rows = Rows(rows)
    keys = rows.fields
    if unit == "deals":
        out = [Metric("made", "declarer makes the contract", "rate")]
        levels = sorted({lv for lv in rows.values("level") if lv is not None})
        out += [Metric(f"made_level_{lv}", f"declarer makes a level-{lv} contract", "rate") for lv in levels]
        out += [Metric(f"chose_level_{lv}", f"contract at level {lv}", "rate") for lv in levels]
        if any(x is not None for x in rows.values("all_pass")):
            out.append(Metric("all_pass", "all pass (no contract)", "rate"))
        out += [Metric("declarer_score", "declarer's entry", "points"),
                Metric("declarer_tricks", "declarer's tricks", "tricks")]
        out += [Metric(k, f"entry of score column {k[6:]}", "points")
                for k in keys if k.startswith("score_")]
        out += [Metric(f"seat_score_{k}", "entry of the dealer" if k == 0 else
                       ("entry of the eldest hand" if k == 1 else f"entry of dealer + {k}"), "points")
                for k in range(players)]
        out += [Metric("spread", "spread of entries (best - worst)", "points"),
                Metric("decisions", "hand length (actions)", "actions"),
                Metric("decided_at", "trick after which the contract is decided", "trick")]
        return out
    out = [Metric(f"win_{s}", f"seat {s} wins", "rate") for s in range(players)]
    out += [Metric("first_dealer_win", "first dealer wins", "rate"),
            Metric("hands", "match length (hands)", "hands"),
            Metric("stopped", "matches cut at the hand limit", "rate")]
    out += [Metric(k, f"final total of column {k[6:]}", "points") for k in keys if k.startswith("total_")]
    out += [Metric("spread", "spread of totals (best - worst)", "points"),
            Metric("lead_changes", "lead changes", "changes"),
            Metric("decided_at", "share of the match played when the winner takes the lead for good", "share")]
    return out


_DERIVED_FROM = ("made", "level", "all_pass", "contract")   # the fields metric_value reads for a level's metric


def metric_value(row: dict, key: str):
    """The value of metric ``key`` in ``row`` (``None`` where it does not apply)."""
    if key.startswith("made_level_"):
        lv = int(key[11:])
        return row["made"] if row.get("level") == lv else None
    if key.startswith("chose_level_"):
        if row.get("all_pass") is None and not row.get("contract"):
            return None  # a game without an auction chooses no contract
        return int(row.get("level") == int(key[12:]))
    v = row.get(key)
    return None if v is None else float(v)


# ---------------------------------------------------------------------- the comparison
@dataclass
class Comparison:
    """The result of :func:`compare`.

    :ivar variants: the names compared, the first being the reference.
    :ivar unit: ``deals`` or ``matches``; ``n`` how many; ``seed``, ``bots`` as run.
    :ivar rows: one row per index and variant, sorted by index then variant order, stored by
        field (:class:`~rulekit.sim.rows.Rows`: ``rows[i]`` and iteration give dicts).
    :ivar differences: a :class:`Difference` per metric for each variant against the first.
    """

    variants: list
    unit: str
    n: int
    seed: int
    bots: list
    rows: Rows = field(default_factory=Rows)
    differences: list = field(default_factory=list)

    def column(self, variant: str, key: str) -> list:
        """The values of metric ``key`` for ``variant``, by index (``None`` where it does not apply)."""
        rows = self.rows
        if not isinstance(rows, Rows):
            rows = self.rows = Rows(rows)
        need = _DERIVED_FROM if key.startswith(("made_level_", "chose_level_")) else (key,)
        cols = [(k, rows.values(k)) for k in need]
        return [metric_value({k: vals[i] for k, vals in cols}, key) for i in rows.where("variant", variant)]

    def summary(self) -> dict:
        """JSON-ready summary: settings, every difference (with its test, p-value and Holm-adjusted
        p-value; ``agree`` and ``bound`` when no pair differs) and the multiple-comparisons note."""
        return {"variants": self.variants, "unit": self.unit, "n": self.n, "seed": self.seed, "bots": self.bots,
                "differences": [{"metric": d.metric.key, "label": d.metric.label, "a": d.a, "b": d.b, "n": d.n,
                                 "mean_a": d.mean_a, "mean_b": d.mean_b, "diff": d.diff, "ci95": [d.lo, d.hi],
                                 "test": d.test, "p": d.p, "p_holm": d.p_holm, "pairs_differ": d.differ,
                                 "agree": d.agree, "bound": d.bound,
                                 "detectable": d.detectable, "sentence": d.sentence()}
                                for d in self.differences],
                "multiple_comparisons": self.holm_note()}

    def holm_note(self) -> str:
        """A sentence on reading many tests at once: how many there are and which differences
        stay detectable once their p-values are adjusted by Holm's method."""
        tested = [d for d in self.differences if d.p is not None and d.differ]   # differences()' family
        if len(tested) < 2:
            return ""
        kept = [d for d in tested if d.detectable and d.p_holm is not None and d.p_holm < ALPHA]
        vs = f" ({len(self.variants) - 1} variants against {self.variants[0]})" if len(self.variants) > 2 else ""
        head = (f"{len(tested)} tests{vs} read together: by chance about 1 in 20 looks different at the 95% "
                f"level; with Holm's adjustment for all {len(tested)} (the Holm column),")
        if not kept:
            return f"{head} no difference stays detectable."
        names = ", ".join(d.metric.label + (f" ({d.b})" if len(self.variants) > 2 else "") for d in kept)
        return f"{head} {len(kept)} stay{'s' if len(kept) == 1 else ''} detectable: {names}."


def check_shareable(names: list, variants: list) -> None:
    """Raise :class:`CompareError` unless every variant can play the same deals as the first:
    the same players and the same deck (suits, ranks, jokers)."""
    first, v0 = names[0], variants[0]
    for name, v in zip(names[1:], variants[1:]):
        if v.players != v0.players:
            raise CompareError(f"{first} and {name} cannot share deals: {first} is played by {v0.players} "
                               f"players, {name} by {v.players} (expected the same number; see --players)")
        if v.deck != v0.deck:
            raise CompareError(f"{first} and {name} cannot share deals: their decks differ ({first}: "
                               f"{v0.deck.size} cards, {name}: {v.deck.size}; expected the same suits, "
                               f"ranks and jokers)")


def compare(variants: list, n: int = 1000, unit: str = "deals", bots: list | None = None, seed: int = 1,
            jobs: int = 1, executor: Executor | None = None, max_hands: int = DEFAULT_MAX_HANDS,
            progress: Callable[[int], None] | None = None, players: int | None = None) -> Comparison:
    """Play ``n`` deals (or matches) under each variant, paired by seed, and compare.

    :param variants: two or more variant ids or paths; the first is the reference.
    :param unit: ``deals`` (single deals) or ``matches`` (whole matches, at most
        ``max_hands`` hands each).
    :param bots: a bot kind per seat (``random``, ``sensible``); one kind is used for every
        seat; default :data:`DEFAULT_BOTS` (SensibleBots: random players make almost no
        contract, so they say little about most house rules).
    :param jobs: worker processes when no ``executor`` is given (1: in this process).
    :param executor: any :class:`concurrent.futures.Executor`, e.g. a dask
        ``Client(address).get_executor()``; the results do not depend on it.
    :param progress: called with the number of indices finished by each chunk.
    :param players: the ``players`` setting for variants that offer a choice.
    :raises CompareError: fewer than two variants, bad settings, files that cannot share deals,
        or single deals of a variant with a schedule of rounds (each deal would be its first round).
    :raises VariantError: a variant file with problems.
    """
    from rulekit.variant import load_variant
    if len(variants) < 2:
        raise CompareError("compare needs at least two variants (expected A B [C ...])")
    if unit not in ("deals", "matches"):
        raise CompareError(f"unit must be deals or matches, not {unit!r}")
    if n < 1:
        raise CompareError(f"the number of {unit} must be at least 1, not {n}")
    if n > MAX_N:   # every row is kept for the paired statistics: memory grows with n
        raise CompareError(f"at most {MAX_N:,} {unit} (found {n:,}): every {unit[:-1]}'s row is kept for "
                           f"the paired statistics, about {ROW_BYTES} bytes per variant (stored by field)")
    loaded = [load_variant(v, players=players) for v in variants]
    check_shareable(list(variants), loaded)
    scheduled = [name for name, v in zip(variants, loaded) if v.rounds]
    if unit == "deals" and scheduled:
        # a single deal is hand 0 of a fresh match: it would always be the schedule's first round
        raise CompareError(f"{scheduled[0]} has a schedule of rounds: a schedule of rounds is compared by "
                           f"whole matches: use --matches N")
    nplayers = loaded[0].players
    kinds = list(bots or [DEFAULT_BOTS])
    if len(kinds) == 1:
        kinds = kinds * nplayers
    if len(kinds) != nplayers:
        raise CompareError(f"--bots names {len(kinds)} players, the variants have {nplayers} seats "
                           f"(expected one kind, or one per seat)")
    for k in kinds:
        if k not in BOT_KINDS:
            raise CompareError(f"unknown bot {k!r} (expected one of {', '.join(BOT_KINDS)})")
    # workers load by id or by absolute path (their working folder may differ)
    sendable = [str(Path(v).resolve()) if Path(v).is_file() else v for v in variants]
    per_worker = max(1, jobs) * 4
    # chunks of a few seconds at most: progress moves, and a stopped run waits for little
    largest = 250 if all(k == "random" for k in kinds) else 4
    size = max(1, min(largest, math.ceil(n / per_worker)))
    labels = []   # a variant named twice (an A/A check) gets a second name: its rows stay apart
    for name in variants:
        label, k = name, 2
        while label in labels:
            label, k = f"{name} ({k})", k + 1
        labels.append(label)
    tasks = [Task(variants=sendable, labels=labels, bots=kinds, seed=seed, unit=unit, max_hands=max_hands,
                  players=players, start=s, stop=min(n, s + size)) for s in range(0, n, size)]
    chunks: dict = {}
    own_pool = None
    try:
        if executor is None and jobs > 1:
            executor = own_pool = ProcessPoolExecutor(max_workers=jobs)
        if executor is None:
            for t in tasks:
                chunks[t["start"]] = Rows(run_chunk(t))   # (stored by field as they come)
                if progress:
                    progress(t["stop"] - t["start"])
        else:
            futures = {executor.submit(run_chunk, t): t for t in tasks}
            for f in as_completed(futures):
                t = futures[f]
                chunks[t["start"]] = Rows(f.result())
                if progress:
                    progress(t["stop"] - t["start"])
    finally:
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
    rows = Rows()
    for s in sorted(chunks):
        rows.extend(chunks.pop(s))
    result = Comparison(labels, unit, n, seed, kinds, rows)
    result.differences = differences(result, metrics_for(unit, rows, nplayers))
    return result


def differences(result: Comparison, metrics: list) -> list[Difference]:
    """Every metric of ``metrics`` for each variant against the first (:func:`paired`), with
    Holm-adjusted p-values over all of them (:func:`holm`)."""
    ref = result.variants[0]
    out = []
    for m in metrics:
        col_a = result.column(ref, m.key)
        for other in result.variants[1:]:
            st = paired(col_a, result.column(other, m.key))
            if st.n:
                out.append(Difference(**dataclasses.asdict(st), metric=m, a=ref, b=other))
    # the family: every test where some pair differs. A metric where none differs cannot show a
    # difference at any level (its exact test has p = 1 whatever happens), so it is left out of
    # the count, as Tarone's rule for discrete tests allows; it keeps p_holm = p = 1.
    family = [d.p if d.differ else None for d in out]
    adjusted = holm(family)
    return [dataclasses.replace(d, p_holm=h if d.differ else d.p) for d, h in zip(out, adjusted)]


__all__ = ["ALPHA", "BOT_KINDS", "DEFAULT_BOTS", "CompareError", "Comparison", "Difference", "Metric", "Paired", "agreement_bound",
           "check_shareable", "compare", "deal_seed", "differences", "holm", "interval_text", "metric_value",
           "metrics_for", "paired", "play_deal", "play_match", "run_chunk"]
