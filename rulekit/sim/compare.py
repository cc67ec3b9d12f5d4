"""Compare variants on the same deals: paired simulation and paired statistics (``rulekit compare``).

Deal ``i`` of a comparison is ``State(variant, seed=deal_seed(root, i))`` for every variant,
so every variant sees the same cut and the same shuffle (the engine shuffles hand ``k`` of
seed ``s`` with ``Random(f"rulekit:{s}:{k}")``), and the players' own randomness is seeded
from ``(root, i, seat)`` too.  Each metric is then compared deal by deal: the paired
differences give the mean difference and its 95 % confidence interval (a paired
t interval, scipy), which is much narrower than comparing two independent samples.

The work is cut into chunks of deal indices and run by any
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

import math
import random
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypedDict

from rulekit.errors import RulekitError

#: The most deals (or matches) one comparison plays: every row is kept for the statistics.
MAX_N = 1_000_000

#: Hands after which a simulated match is stopped when it has not ended (random
#: Five-Hundred-like matches can last thousands of hands).
DEFAULT_MAX_HANDS = 200

BOT_KINDS = ("random", "sensible", "bot")


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
    ``trump``, ``declarer`` (seat, -1), ``made`` (1/0, ``None`` without a contract),
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
           "declarer": h.declarer, "made": None,
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
@dataclass(frozen=True)
class Metric:
    """A metric of the rows: ``key`` (a row field, or a derived one), ``label`` in words,
    ``unit`` (``rate`` shown in percent, ``points``, ``count``...), ``where`` (the pairs to use:
    only deals where both rows have a value)."""

    key: str
    label: str
    unit: str = ""


@dataclass(frozen=True)
class Difference:
    """A metric under ``a`` and ``b`` on the same deals, and their paired difference.

    :ivar n: pairs where both values exist.
    :ivar mean_a, mean_b: means over those pairs; ``diff`` = ``mean_b - mean_a``.
    :ivar lo, hi: 95 % confidence interval of ``diff`` (paired t), ``None`` below 2 pairs.
    """

    metric: Metric
    a: str
    b: str
    n: int
    mean_a: float | None
    mean_b: float | None
    diff: float | None
    lo: float | None
    hi: float | None

    @property
    def detectable(self) -> bool:
        """The 95 % interval excludes 0."""
        return self.lo is not None and self.hi is not None and (self.lo > 0 or self.hi < 0)

    def sentence(self) -> str:
        """A plain sentence: the difference with its interval, or that none is detectable."""
        m = self.metric
        if self.n < 2:
            return f"{m.label}: too few deals with a value under both ({self.n}) to compare."
        ci = f"95% CI {_fmt(self.lo, m)} to {_fmt(self.hi, m)}"
        if not self.detectable:
            if self.lo == self.hi == 0:
                return f"{m.label}: the same under {self.b} as under {self.a} in all {self.n} paired deals."
            return (f"{m.label}: no difference detectable at this N ({self.n} pairs; {ci}; "
                    f"{_fmt(self.mean_a, m)} vs {_fmt(self.mean_b, m)}).")
        assert self.diff is not None   # an interval: at least 2 pairs, so their mean difference
        way = "higher" if self.diff > 0 else "lower"
        return (f"{m.label}: {_fmt(abs(self.diff), m)} {way} under {self.b} than under {self.a} "
                f"({_fmt(self.mean_a, m)} -> {_fmt(self.mean_b, m)}; {ci}; {self.n} pairs).")


def _fmt(x, m: Metric) -> str:
    if x is None:
        return "-"
    if m.unit == "rate":
        return f"{round(100 * x, 1) + 0.0:.1f}%"  # + 0.0: no "-0.0%"
    return f"{round(x, 2) + 0.0:.2f}" if abs(x) < 100 else f"{round(x, 1) + 0.0:.1f}"


def paired(values_a: list, values_b: list) -> tuple:
    """Mean difference ``b - a`` and its 95 % paired t interval over the pairs where both
    values exist.  :returns: ``(n, mean_a, mean_b, diff, lo, hi)``; means ``None`` with no
    pair, the interval ``None`` below two pairs."""
    pairs = [(x, y) for x, y in zip(values_a, values_b) if x is not None and y is not None]
    n = len(pairs)
    if not n:
        return 0, None, None, None, None, None
    ma = math.fsum(x for x, _ in pairs) / n
    mb = math.fsum(y for _, y in pairs) / n
    d = [y - x for x, y in pairs]
    mean = math.fsum(d) / n
    if n < 2:
        return n, ma, mb, mean, None, None
    var = math.fsum((x - mean) ** 2 for x in d) / (n - 1)
    if var == 0:
        return n, ma, mb, mean, mean, mean
    from scipy import stats
    half = float(stats.t.ppf(0.975, n - 1)) * math.sqrt(var / n)
    return n, ma, mb, mean, mean - half, mean + half


def metrics_for(unit: str, rows: list, players: int) -> list[Metric]:
    """The metrics compared for ``unit`` (``deals`` or ``matches``), given the rows' fields."""
    keys = rows[0].keys() if rows else ()
    if unit == "deals":
        out = [Metric("made", "declarer makes the contract", "rate")]
        levels = sorted({r["level"] for r in rows if r.get("level") is not None})
        out += [Metric(f"made_level_{lv}", f"declarer makes a level-{lv} contract", "rate") for lv in levels]
        out += [Metric(f"chose_level_{lv}", f"contract at level {lv}", "rate") for lv in levels]
        if any(r.get("all_pass") is not None for r in rows):
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
    :ivar rows: one dict per index and variant, sorted by index then variant order.
    :ivar differences: a :class:`Difference` per metric for each variant against the first.
    """

    variants: list
    unit: str
    n: int
    seed: int
    bots: list
    rows: list = field(default_factory=list)
    differences: list = field(default_factory=list)

    def column(self, variant: str, key: str) -> list:
        """The values of metric ``key`` for ``variant``, by index (``None`` where it does not apply)."""
        return [metric_value(r, key) for r in self.rows if r["variant"] == variant]

    def summary(self) -> dict:
        """JSON-ready summary: settings and every difference."""
        return {"variants": self.variants, "unit": self.unit, "n": self.n, "seed": self.seed, "bots": self.bots,
                "differences": [{"metric": d.metric.key, "label": d.metric.label, "a": d.a, "b": d.b, "n": d.n,
                                 "mean_a": d.mean_a, "mean_b": d.mean_b, "diff": d.diff, "ci95": [d.lo, d.hi],
                                 "detectable": d.detectable, "sentence": d.sentence()}
                                for d in self.differences]}


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
        seat; default all random.
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
                           f"the paired statistics, about a kilobyte each")
    loaded = [load_variant(v, players=players) for v in variants]
    check_shareable(list(variants), loaded)
    scheduled = [name for name, v in zip(variants, loaded) if v.rounds]
    if unit == "deals" and scheduled:
        # a single deal is hand 0 of a fresh match: it would always be the schedule's first round
        raise CompareError(f"{scheduled[0]} has a schedule of rounds: a schedule of rounds is compared by "
                           f"whole matches: use --matches N")
    nplayers = loaded[0].players
    kinds = list(bots or ["random"])
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
    size = max(1, min(250, math.ceil(n / per_worker)))
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
                chunks[t["start"]] = run_chunk(t)
                if progress:
                    progress(t["stop"] - t["start"])
        else:
            futures = {executor.submit(run_chunk, t): t for t in tasks}
            for f in as_completed(futures):
                t = futures[f]
                chunks[t["start"]] = f.result()
                if progress:
                    progress(t["stop"] - t["start"])
    finally:
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
    rows = [r for s in sorted(chunks) for r in chunks[s]]
    result = Comparison(labels, unit, n, seed, kinds, rows)
    ref = labels[0]
    for m in metrics_for(unit, rows, nplayers):
        col_a = result.column(ref, m.key)
        for other in labels[1:]:
            nn, ma, mb, d, lo, hi = paired(col_a, result.column(other, m.key))
            if nn:
                result.differences.append(Difference(m, ref, other, nn, ma, mb, d, lo, hi))
    return result


__all__ = ["BOT_KINDS", "CompareError", "Comparison", "Difference", "Metric", "check_shareable", "compare",
           "deal_seed", "metric_value", "metrics_for", "paired", "play_deal", "play_match", "run_chunk"]
