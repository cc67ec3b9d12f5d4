"""Bot strength benchmark: made contracts of SensibleBot declarers, and its win rate.

Usage::

    python benchmarks/bots.py [--hands 1000] [--games 50] [--workers 2] [--seed 0] [--json]

1. ``--hands N``: N single hands (Five Hundred by default) with a SensibleBot in every seat (hand ``i`` is
   ``State(v, seed=S_i)`` played until ``hands_played`` becomes 1).  Reports the share of
   hands that got a contract and the share of contracts the declarer made; in variants with
   games (``match.game``), how often the declaring side took enough tricks for game and how
   often it had bid one then.
2. ``--games M``: M complete games with one SensibleBot and two RandomBots; the sensible
   bot sits in seat ``i % players`` in game ``i``.  Reports its win rate (a shared win
   counts as a win; ties are reported).  Chance is 1/players.

Each hand/game ``i`` is seeded from ``(root seed, kind, i)`` (deal seed and every bot's
seed), so results do not depend on ``--workers`` or scheduling.  Workers receive variant
ids and load the variant themselves (compiled variants hold closures that do not pickle).
Use ``--hands 0`` or ``--games 0`` to skip a part.

3. ``--vs-old REV [--deals N]``: today's bot against the SensibleBot of git revision ``REV``
   (built from that revision by ``revision_bot.py``, in a process of its own), head to head and
   each against RandomBots over the same N deals, paired by deal; the time per decision of each.

4. ``--bids N`` (user pass, gallery finding 1): N hands of each variant with per-player trick
   bids (``--variant``, default ``spades,ohhell``), SensibleBots in every seat; hand ``i`` is
   hand ``i % K`` of the game seeded ``i // K`` (K: the variant's deals, 13 for Oh Hell's
   rising hand sizes, else 1).  Reports the mean |bid - tricks| per player, the share of
   exact bids and the mean sum of the bids against the tricks of the hand.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

try:  # an installed rulekit (pip install . or -e .) wins; else run from the checkout
    import rulekit.variants  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

_VARIANTS: dict = {}


def _variant(vid: str):
    """Load (once per worker process) the variant ``vid``."""
    if vid not in _VARIANTS:
        from rulekit.variant import load_variant
        _VARIANTS[vid] = load_variant(vid)
    return _VARIANTS[vid]


def derive_seed(root: int, kind: str, index: int, part: int = 0) -> int:
    """A 63-bit seed from ``(root, kind, index, part)``, stable across processes and runs."""
    return random.Random(f"bench:{root}:{kind}:{index}:{part}").getrandbits(63)


def play_hand(job) -> dict:
    """Play one hand with a SensibleBot in every seat; return its contract outcome."""
    vid, root, i = job
    from rulekit.bots import SensibleBot
    from rulekit.engine import State
    v = _variant(vid)
    t0 = time.process_time()
    st = State(v, seed=derive_seed(root, "hand", i))
    bots = [SensibleBot(seed=derive_seed(root, "hand", i, 1 + s)) for s in range(v.players)]
    while st.hands_played == 0 and not st.is_over:
        seat = st.controller(st.to_move)   # the declarer decides for his dummy
        st.apply(bots[seat].act(st.observation(seat)))
    h = st.hand_log[0]
    out = {"index": i, "contract": h.contract.text if h.contract is not None else None,
           "declarer": h.declarer, "cpu_s": time.process_time() - t0}
    if h.contract is not None:
        from rulekit.engine.scoring import column_of, player_envs
        col = column_of(v, h.declarer)
        side = v.sides[col] if v.scoring.by_side else (h.declarer,)
        out["tricks"] = sum(h.won[s] for s in side)
        out["level"] = h.contract.level
        made = v.scoring.made
        out["made"] = bool(made(player_envs(v, h)[col])) if made is not None else out["tricks"] >= h.contract.level
        if v.match.game_target is not None:
            out["game_bid"], out["game_there"] = game_reach(v, h)
    return out


def game_reach(v, h) -> tuple:
    """For a hand of a variant with games, played from a fresh match (no part-score):
    ``(game_bid, game_there)``: whether the contract, made, would score a game by itself
    (its ``game`` parts reach ``match.game.target``), and whether some bid of the same
    strain that the declaring side's tricks made would have.  By the variant's formulas."""
    from rulekit.engine.scoring import column_of, envs_for, formulas_for
    col = column_of(v, h.declarer)
    game_parts = [p for p in v.scoring.parts if p.game]
    extra = {"vulnerable": h.vulnerable, "doubled": h.doubled}

    def game_points(bid, won):
        """The declaring column's game points for ``bid`` with tricks ``won``; None if failed."""
        envs = envs_for(v, bid, h.declarer, h.trump, won, [0] * v.players, extra)
        if v.scoring.made is not None and not v.scoring.made(envs[col]):
            return None
        return sum(int(formulas_for(v, bid, h.declarer, p)[col](envs[col])) for p in game_parts)

    def exact(bid):
        """Game points of ``bid`` made with the fewest tricks that make it."""
        for t in range(v.hand_size + 1):
            won = [0] * v.players
            won[h.declarer] = t
            x = game_points(bid, won)
            if x is not None:
                return x
        return 0
    target = v.match.game_target
    bids = [b for b in v.auction().bids if b.strain == h.contract.strain]
    there = any(game_points(b, list(h.won)) is not None and exact(b) >= target for b in bids)
    return exact(h.contract) >= target, there


def _bot(kind: str, seed: int):
    """A bot by kind: ``new`` (today's SensibleBot) or ``random`` (``old``, the SensibleBot of
    another revision, plays through :class:`revision_bot.RevisionBot`)."""
    from rulekit.bots import RandomBot, SensibleBot
    if kind == "new":
        return SensibleBot(seed=seed)
    return RandomBot(seed=seed)


_KERNEL = {"on": "1", "off": "0", "default": ""}   # --old-kernel -> the revision process's RULEKIT_KERNEL
_REVISION: list = []   # ((tree, kernel), RevisionBot) of this worker process, started on first use


def _revision_bot(tree: str, kernel: str = ""):
    """This worker's :class:`revision_bot.RevisionBot` for the revision extracted in ``tree``
    (``kernel``: its ``RULEKIT_KERNEL``, empty for this process's)."""
    if not _REVISION or _REVISION[0][0] != (tree, kernel):
        here = str(Path(__file__).resolve().parent)
        if here not in sys.path:
            sys.path.insert(0, here)
        from revision_bot import RevisionBot
        if _REVISION:
            _REVISION.pop()[1].close()
        _REVISION.append(((tree, kernel), RevisionBot(Path(tree), kernel)))
    return _REVISION[0][1]


def play_table(job) -> dict:
    """One hand (``State(v, seed=S_i)`` until a hand is scored) with the bots of ``kinds``
    (one per seat; ``old`` seats play the SensibleBot of the revision extracted in ``tree``, in
    step in its own process, ``RULEKIT_KERNEL`` set to ``old_kernel`` unless empty); the entries
    per column, and per bot kind its CPU seconds and decisions (each bot's ``act`` alone, timed in
    its own process)."""
    vid, root, i, kinds, tree, old_kernel = job
    from rulekit.engine import State
    from rulekit.engine.scoring import column_of
    v = _variant(vid)
    seed = derive_seed(root, "table", i)
    st = State(v, seed=seed)
    seeds = [derive_seed(root, "table", i, 1 + s) for s in range(v.players)]
    bots = [_bot(k, seeds[s]) for s, k in enumerate(kinds)]
    old = _revision_bot(tree, old_kernel) if "old" in kinds else None
    _warm()
    if old is not None:
        old.deal(vid, seed, seeds)
    cpu: dict = {}
    while st.hands_played == 0 and not st.is_over:
        seat = st.controller(st.to_move)
        if kinds[seat] == "old":
            text, t = old.act(seat)
            a = st.parse_action(text)
        else:
            obs = st.observation(seat)
            t0 = time.process_time()
            a = bots[seat].act(obs)
            t = time.process_time() - t0
        c = cpu.setdefault(kinds[seat], [0.0, 0])
        c[0] += t
        c[1] += 1
        st.apply(a)
        if old is not None and st.hands_played == 0 and not st.is_over:
            old.applied(seat, a.text)
    e = st.hand_log[0].entries
    cols = len(e)
    low = v.scoring.lower_is_better

    def util(seat):
        me = column_of(v, seat)
        u = e[me] - sum(e[c] for c in range(cols) if c != me) / max(cols - 1, 1)
        return -u if low else u
    return {"index": i, "kinds": list(kinds), "utility": [util(s) for s in range(v.players)], "cpu": cpu}


def _warm() -> None:
    """Load the compiled kernel now if ``RULEKIT_KERNEL`` turns it on from the first hand, so
    that loading numba (about a second, once per process) is not timed as a bot's decision."""
    from rulekit.engine import kernel
    kernel.enabled(0)


def mean_ci(xs: list) -> tuple:
    """Mean of ``xs`` and its 95 % interval (normal approximation, ``1.96`` standard errors)."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(n - 1, 1))
    h = 1.96 * sd / math.sqrt(n)
    return m, (m - h, m + h)


def duel(ex: Executor, variant: str, deals: int, root: int, hero: str, rest: str, tree: str = "",
         old_kernel: str = "") -> dict:
    """``hero`` in one seat, ``rest`` in the others, over the same ``deals`` deals with the
    hero in every seat in turn: the hero's mean utility (own entry minus the others' mean;
    0 means equal strength when ``rest`` is the same bot) with a 95 % interval.

    The unit is the deal: the hero's utility averaged over its seats on that deal (a
    duplicate comparison: the luck of the cards, shared by the seats, cancels when the two
    bots play alike, since the seats' utilities on one deal sum to 0).  ``per_deal`` keeps
    these means for paired comparisons between duels."""
    v = _variant(variant)
    n = v.players
    jobs = [(variant, root, i, tuple(hero if s == seat else rest for s in range(n)), tree, old_kernel)
            for i in range(deals) for seat in range(n)]
    rs = list(ex.map(play_table, jobs, chunksize=2))
    per: dict = {}
    for r in rs:
        per.setdefault(r["index"], []).append(r["utility"][r["kinds"].index(hero)])
    per_deal = [sum(per[i]) / len(per[i]) for i in sorted(per)]
    m, ci = mean_ci(per_deal)
    cpu: dict = {}
    for r in rs:
        for k, (t, d) in r["cpu"].items():
            c = cpu.setdefault(k, [0.0, 0])
            c[0] += t
            c[1] += d
    return {"hero": hero, "rest": rest, "deals": len(per_deal), "tables": len(rs), "mean_utility": m,
            "ci95": ci, "per_deal": per_deal,
            "ms_per_decision": {k: 1000 * t / max(d, 1) for k, (t, d) in cpu.items()},
            "decisions": {k: d for k, (t, d) in cpu.items()}, "cpu_s": {k: t for k, (t, d) in cpu.items()}}


def play_game(job) -> dict:
    """Play one game: a SensibleBot in seat ``i % players``, RandomBots elsewhere."""
    vid, root, i, max_hands = job
    from rulekit.bots import RandomBot, SensibleBot
    from rulekit.engine import State
    v = _variant(vid)
    t0 = time.process_time()
    me = i % v.players
    st = State(v, seed=derive_seed(root, "game", i))
    bots = [SensibleBot(seed=derive_seed(root, "game", i, 1 + s)) if s == me
            else RandomBot(seed=derive_seed(root, "game", i, 1 + s)) for s in range(v.players)]
    while not st.is_over and st.hands_played < max_hands:
        seat = st.controller(st.to_move)   # the declarer decides for his dummy
        st.apply(bots[seat].act(st.observation(seat)))
    return {"index": i, "seat": me, "finished": st.is_over, "winners": list(st.winners),
            "won": me in st.winners, "tie": len(st.winners) > 1 and me in st.winners,
            "hands": st.hands_played, "totals": st.sheet.totals(), "reason": st.end_reason,
            "cpu_s": time.process_time() - t0}


def bid_hands(job) -> dict:
    """Play hands ``first`` .. ``first + count - 1`` of one game with SensibleBots; per hand, each
    player's bid and tricks (a ``trick_bids`` phase) and the hand's tricks."""
    vid, root, game, count = job
    from rulekit.bots import SensibleBot
    from rulekit.engine import State
    v = _variant(vid)
    st = State(v, seed=derive_seed(root, "bids", game))
    bots = [SensibleBot(seed=derive_seed(root, "bids", game, 1 + s)) for s in range(v.players)]
    while not st.is_over and st.hands_played < count:
        seat = st.controller(st.to_move)
        st.apply(bots[seat].act(st.observation(seat)))
    out = []
    for h in st.hand_log:
        d = h.phase_state.get("trick_bids")
        if d is not None:
            out.append({"bids": list(d.bids), "won": list(h.won), "tricks": sum(h.won)})
    return {"game": game, "hands": out}


def bids(ex: Executor, variant: str, hands: int, root: int) -> dict:
    """``--bids``: per-player trick bids against tricks taken over ``hands`` hands."""
    per_game = 13 if variant == "ohhell" else 1   # Oh Hell deals 1 to 13 cards: a whole game
    games = max(1, hands // per_game)
    rs = list(ex.map(bid_hands, [(variant, root, g, per_game) for g in range(games)], chunksize=1))
    errs, exact, sums, tricks, n = 0, 0, 0, 0, 0
    for r in rs:
        for h in r["hands"]:
            for b, w in zip(h["bids"], h["won"]):
                errs += abs(b - w)
                exact += b == w
                n += 1
            sums += sum(h["bids"])
            tricks += h["tricks"]
    k = sum(len(r["hands"]) for r in rs)
    return {"variant": variant, "hands": k, "bids": n, "mean_abs_error": errs / max(n, 1),
            "exact_share": exact / max(n, 1), "mean_bid_sum": sums / max(k, 1), "mean_tricks": tricks / max(k, 1)}


def wilson(k: int, n: int, z: float = 1.96) -> tuple:
    """95 % Wilson score interval of a proportion ``k/n``."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    w = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - w, c + w)


def run(ex: Executor, variant: str, hands: int, games: int, root: int, max_hands: int) -> dict:
    """Both measurements on executor ``ex``; a JSON-ready summary."""
    out: dict = {"variant": variant, "seed": root}
    if hands:
        t = time.perf_counter()
        rs = list(ex.map(play_hand, [(variant, root, i) for i in range(hands)], chunksize=4))
        el = time.perf_counter() - t
        contracts = [r for r in rs if r["contract"] is not None]
        made = sum(r["made"] for r in contracts)
        by_level: dict = {}
        for r in contracts:
            k = by_level.setdefault(r["level"], [0, 0])
            k[0] += r["made"]
            k[1] += 1
        out["hands"] = {"n": hands, "contracts": len(contracts), "made": made,
                        "made_rate": made / len(contracts) if contracts else None,
                        "made_ci95": wilson(made, len(contracts)),
                        "contract_rate": len(contracts) / hands,
                        "by_level": {str(k): {"made": m, "n": n} for k, (m, n) in sorted(by_level.items())},
                        "game_there": sum(bool(r.get("game_there")) for r in contracts),
                        "game_bid_when_there": sum(bool(r.get("game_there") and r.get("game_bid")) for r in contracts),
                        "game_bid": sum(bool(r.get("game_bid")) for r in contracts),
                        "elapsed_s": el, "cpu_s": sum(r["cpu_s"] for r in rs)}
    if games:
        t = time.perf_counter()
        rs = list(ex.map(play_game, [(variant, root, i, max_hands) for i in range(games)], chunksize=1))
        el = time.perf_counter() - t
        wins = sum(r["won"] for r in rs)
        out["games"] = {"n": games, "wins": wins, "win_rate": wins / games, "win_ci95": wilson(wins, games),
                        "ties": sum(r["tie"] for r in rs), "unfinished": sum(not r["finished"] for r in rs),
                        "mean_hands": sum(r["hands"] for r in rs) / games,
                        "max_hands": max(r["hands"] for r in rs),
                        "elapsed_s": el, "cpu_s": sum(r["cpu_s"] for r in rs)}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="SensibleBot strength: made contracts and win rate.")
    ap.add_argument("--hands", type=int, default=1000, help="bot-only hands (default 1000; 0 skips)")
    ap.add_argument("--games", type=int, default=50, help="games vs two RandomBots (default 50; 0 skips)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    ap.add_argument("--variant", default="fivehundred", help="variant id (default fivehundred)")
    ap.add_argument("--max-hands", type=int, default=2000, help="stop a game after this many hands")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--vs-old", default="", metavar="REV",
                    help="today's bot against the SensibleBot of git revision REV (built from it, run in a "
                         "process of its own) and each against RandomBots, over the same --deals deals with "
                         "every seat rotation; time per decision of each")
    ap.add_argument("--deals", type=int, default=150, help="deals of --vs-old (default 150)")
    ap.add_argument("--old-kernel", choices=sorted(_KERNEL), default="default",
                    help="with --vs-old: the revision's bot with its compiled kernel on, off (its pure-Python "
                         "bot: issue 20's goal is against it) or as RULEKIT_KERNEL says (default)")
    ap.add_argument("--goal", type=float, default=0.0, metavar="X",
                    help="with --vs-old: print whether today's bot is X times faster per decision at equal "
                         "strength (issue 20: 2, with RULEKIT_KERNEL=1 against --old-kernel off)")
    ap.add_argument("--bids", type=int, default=0, metavar="HANDS",
                    help="per-player trick bids against tricks taken over HANDS hands of each variant of "
                         "--variant (comma-separated; default spades,ohhell)")
    a = ap.parse_args(argv)
    if a.bids:
        variants = "spades,ohhell" if a.variant == "fivehundred" else a.variant
        with ProcessPoolExecutor(max_workers=a.workers) as ex:
            rs = [bids(ex, vid, a.bids, a.seed) for vid in variants.split(",")]
        if a.json:
            print(json.dumps(rs, indent=2))
            return 0
        for r in rs:
            print(f"{r['variant']}: {r['hands']} hands, {r['bids']} bids: mean |bid - tricks| "
                  f"{r['mean_abs_error']:.2f}, exact {100 * r['exact_share']:.1f}%, sum of bids "
                  f"{r['mean_bid_sum']:.1f} for {r['mean_tricks']:.1f} tricks")
        return 0

    t = time.perf_counter()
    with ProcessPoolExecutor(max_workers=a.workers) as ex:
        if a.vs_old:
            return vs_old(ex, a)
        res = run(ex, a.variant, a.hands, a.games, a.seed, a.max_hands)
    res["elapsed_s"] = time.perf_counter() - t
    res["workers"] = a.workers
    res["loadavg"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    if a.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"{a.variant}, root seed {a.seed}, {a.workers} workers")
    if "hands" in res:
        r = res["hands"]
        lo, hi = r["made_ci95"]
        print(f"  {r['n']} hands, SensibleBots in every seat: {r['contracts']} contracts ({100 * r['contract_rate']:.1f}% of hands), "
              f"declarer made {r['made']} = {100 * (r['made_rate'] or 0):.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
        print("    by level: " + ", ".join(f"{k}: {v['made']}/{v['n']}" for k, v in r["by_level"].items()))
        if r["game_there"] or r["game_bid"]:
            print(f"    game: there (the tricks made it) in {r['game_there']} contracts, bid in "
                  f"{r['game_bid_when_there']} of them; {r['game_bid']} game contracts bid in all")
        print(f"    {r['elapsed_s']:.1f} s elapsed, {r['cpu_s']:.1f} CPU s in workers")
    if "games" in res:
        r = res["games"]
        lo, hi = r["win_ci95"]
        print(f"  {r['n']} games, 1 SensibleBot vs 2 RandomBots: sensible won {r['wins']} = "
              f"{100 * r['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%; ties {r['ties']}, "
              f"unfinished {r['unfinished']})")
        print(f"    {r['mean_hands']:.1f} hands per game (max {r['max_hands']}); "
              f"{r['elapsed_s']:.1f} s elapsed, {r['cpu_s']:.1f} CPU s in workers")
    print(f"  total {res['elapsed_s']:.1f} s elapsed")
    return 0


def vs_old(ex: Executor, a) -> int:
    """``--vs-old REV``: today's SensibleBot against the one of revision ``REV`` (built from that
    revision: :mod:`revision_bot`), in four duels over the same deals, and the paired
    differences, printed (or JSON).  ``new - old, head to head`` combines the first two duels per
    deal (today's bot against two old ones, minus the old one against two of today's, halved);
    ``new - old, against random`` subtracts the old bot's result against RandomBots from today's,
    deal by deal.  Today's bot is ``not weaker`` when neither paired interval lies wholly below
    0; ``speedup`` is the old bot's CPU time per decision over today's."""
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import shutil

    from revision_bot import checkout
    t = time.perf_counter()
    tree = checkout(a.vs_old)
    try:
        duels = {(hero, rest): duel(ex, a.variant, a.deals, a.seed, hero, rest, str(tree), _KERNEL[a.old_kernel])
                 for hero, rest in (("new", "old"), ("old", "new"), ("new", "random"), ("old", "random"))}
    finally:
        ex.shutdown()   # (the workers' revision bots end with them)
        shutil.rmtree(tree, ignore_errors=True)
    pairs = {
        "new - old, head to head": [(x - y) / 2 for x, y in zip(duels["new", "old"]["per_deal"],
                                                              duels["old", "new"]["per_deal"])],
        "new - old, against random": [x - y for x, y in zip(duels["new", "random"]["per_deal"],
                                                          duels["old", "random"]["per_deal"])]}
    out = {"variant": a.variant, "seed": a.seed, "revision": a.vs_old, "old_kernel": a.old_kernel, "deals": a.deals,
           "duels": list(duels.values()),
           "paired": {k: dict(zip(("mean", "ci95"), mean_ci(xs))) for k, xs in pairs.items()}}
    dec = {k: sum(d["decisions"].get(k, 0) for d in out["duels"]) for k in ("new", "old")}
    cpu = {k: sum(d["cpu_s"].get(k, 0.0) for d in out["duels"]) for k in dec}
    out["ms_per_decision"] = {k: 1000 * cpu[k] / max(dec[k], 1) for k in dec}
    out["speedup"] = out["ms_per_decision"]["old"] / max(out["ms_per_decision"]["new"], 1e-9)
    # not weaker: no paired interval lies wholly below 0 (today's bot measurably weaker)
    out["not_weaker"] = all(p["ci95"][1] >= 0 for p in out["paired"].values())
    if a.goal:   # faster by the goal's ratio, and neither paired interval away from 0 (equal strength)
        out["goal"] = {"speedup": a.goal, "met": out["speedup"] >= a.goal and all(
            p["ci95"][0] <= 0 <= p["ci95"][1] for p in out["paired"].values())}
    out["elapsed_s"] = time.perf_counter() - t
    if a.json:
        for d in out["duels"]:
            del d["per_deal"]
        print(json.dumps(out, indent=2))
        return 0
    print(f"{a.variant}, root seed {a.seed}, today's bot (kernel: RULEKIT_KERNEL={os.environ.get('RULEKIT_KERNEL', '')!r}) "
          f"vs revision {a.vs_old} (kernel: {a.old_kernel}), {a.deals} deals x every seat, {a.workers} workers")
    for d in out["duels"]:
        lo, hi = d["ci95"]
        ms = ", ".join(f"{k} {x:.2f} ms" for k, x in d["ms_per_decision"].items() if k != "random")
        print(f"  {d['hero']:>3} vs {d['rest']:<6}: {d['hero']} mean utility {d['mean_utility']:+8.1f} per hand "
              f"(95% CI {lo:+.1f}..{hi:+.1f}) over {d['deals']} deals x {d['tables'] // d['deals']} seats; "
              f"per decision: {ms}")
    for k, p in out["paired"].items():
        lo, hi = p["ci95"]
        print(f"  {k}: {p['mean']:+.1f} points per hand (95% CI {lo:+.1f}..{hi:+.1f}; 0 = equal strength)")
    m = out["ms_per_decision"]
    print(f"  CPU per decision (all duels): new {m['new']:.2f} ms, old {m['old']:.2f} ms: old / new "
          f"{out['speedup']:.2f}x ({dec['new']} and {dec['old']} decisions)")
    print(f"  today's bot not weaker (both paired intervals reach 0 or lie above it): "
          f"{'yes' if out['not_weaker'] else 'no'}{'' if a.deals >= 150 else ' (150 deals or more give useful intervals)'}")
    if a.goal:
        print(f"  goal: >= {a.goal:g}x faster per decision at equal strength (both paired intervals contain 0): "
              f"{out['speedup']:.2f}x, {'met' if out['goal']['met'] else 'NOT met'}")
    print(f"  {out['elapsed_s']:.1f} s elapsed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
