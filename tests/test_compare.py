"""``rulekit compare``: paired simulation of variants on the same deals (issue 9)."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.sim.compare import CompareError, compare, deal_seed, paired, play_deal
from rulekit.variant import load_variant

runner = CliRunner()
PAIR = ["fivehundred", "fivehundred-must-trump"]


def _numbers(result):
    return [(d.metric.key, d.b, d.n, d.mean_a, d.mean_b, d.diff, d.lo, d.hi) for d in result.differences]


def test_same_deals_under_each_variant():
    """issue 9: deal i is the same cut and shuffle under every variant (paired by seed)."""
    a, b = load_variant(PAIR[0]), load_variant(PAIR[1])
    for i in range(5):
        s = deal_seed(7, i)
        sa, sb = State(a, seed=s), State(b, seed=s)
        assert sa.hand.dealer == sb.hand.dealer and sa.hand.hands == sb.hand.hands
        assert sa.hand.zones == sb.hand.zones


def test_random_bots_same_auction_different_play():
    """Random players' own choices are seeded from (seed, deal): the auction (which the house
    rule does not touch) is the same under both, so every contract is paired."""
    r = compare(PAIR, n=60, seed=3, jobs=1)
    by = {}
    for row in r.rows:
        by.setdefault(row["index"], {})[row["variant"]] = row
    assert all(p[PAIR[0]]["contract"] == p[PAIR[1]]["contract"] for p in by.values())
    assert len(r.rows) == 120 and [row["index"] for row in r.rows[:4]] == [0, 0, 1, 1]
    same = next(d for d in r.differences if d.metric.key == "all_pass")
    assert same.lo == same.hi == 0.0  # identical auctions: no difference, exactly
    assert same.sentence() == ("all pass (no contract): the same under fivehundred-must-trump as under "
                               "fivehundred in all 60 paired deals.")


def test_deterministic_with_any_number_of_workers():
    """issue 9: the same numbers with 1 worker (in process), 2 worker processes, or any
    Executor (here threads), and the same rows in the same order."""
    one = compare(PAIR, n=40, seed=5, jobs=1)
    two = compare(PAIR, n=40, seed=5, jobs=2)
    with ThreadPoolExecutor(3) as ex:
        three = compare(PAIR, n=40, seed=5, executor=ex)
    assert one.rows == two.rows == three.rows
    assert _numbers(one) == _numbers(two) == _numbers(three)
    assert compare(PAIR, n=40, seed=6, jobs=1).rows != one.rows


def test_paired_interval():
    """The 95% interval is the paired t interval of the differences (scipy), pairs with a
    missing value left out."""
    n, ma, mb, d, lo, hi = paired([1, 2, 3, None, 5], [2, 2, 5, 7, None])
    assert (n, ma, mb, d) == (3, 2.0, 3.0, 1.0)
    # differences 1, 0, 2: mean 1, sd 1, t(0.975, 2) = 4.302653
    assert lo == pytest.approx(1 - 4.302653 / 3 ** 0.5, abs=1e-5)
    assert hi == pytest.approx(1 + 4.302653 / 3 ** 0.5, abs=1e-5)
    assert paired([1, 1], [1, 1])[4:] == (0.0, 0.0)
    assert paired([1], [2])[4:] == (None, None)


def test_must_trump_changes_play_but_not_auctions():
    """With random players, [T2] must-trump leaves contracts alone and changes how the
    tricks fall: the per-deal rows differ in tricks for some deals."""
    r = compare(PAIR, n=200, seed=1, jobs=1)
    diffs = {d.metric.key: d for d in r.differences}
    assert diffs["chose_level_10"].lo == diffs["chose_level_10"].hi == 0.0
    a = r.column(PAIR[0], "declarer_tricks")
    b = r.column(PAIR[1], "declarer_tricks")
    assert a != b
    spread = diffs["spread"]
    assert spread.sentence().startswith("spread of entries (best - worst): " + (
        "" if spread.detectable else "no difference detectable at this N (200 pairs; 95% CI "))


def test_cannot_share_deals():
    """issue 9: files with different players or decks cannot share deals: a clear error."""
    with pytest.raises(CompareError, match="fivehundred and bridge cannot share deals: fivehundred is played "
                                           "by 3 players, bridge by 4"):
        compare(["fivehundred", "bridge"], n=2)
    with pytest.raises(CompareError, match="fivehundred and rams cannot share deals: their decks differ"):
        compare(["fivehundred", "rams"], n=2, players=3)
    r = runner.invoke(app, ["compare", "fivehundred", "whist", "--deals", "2", "--jobs", "1"])
    assert r.exit_code == 2
    assert "cannot share deals" in r.output


def test_a_schedule_of_rounds_is_compared_by_matches():
    """user pass (stop 5) case 2: single deals of a variant with a schedule of rounds would all be its first
    round (King's "no tricks"): --deals is refused with exit 2, --matches plays whole matches."""
    with pytest.raises(CompareError, match="^king has a schedule of rounds: a schedule of rounds is compared "
                                           "by whole matches: use --matches N$"):
        compare(["king", "king"], n=2)
    r = runner.invoke(app, ["compare", "king", "king", "--deals", "24", "--jobs", "1"])
    assert r.exit_code == 2 and "use --matches N" in r.output
    result = compare(["king", "king"], n=1, unit="matches")
    assert [row["hands"] for row in result.rows] == [12, 12]


def test_bad_settings():
    with pytest.raises(CompareError, match="unknown bot 'clever'"):
        compare(PAIR, n=2, bots=["clever"])
    with pytest.raises(CompareError, match="--bots names 2 players, the variants have 3 seats"):
        compare(PAIR, n=2, bots=["random", "random"])
    with pytest.raises(CompareError, match="at least two variants"):
        compare(PAIR[:1], n=2)
    r = runner.invoke(app, ["compare", *PAIR, "--deals", "2", "--matches", "2"])
    assert r.exit_code == 2 and "not both" in r.output


def test_matches_and_sensible_bot_seat():
    """Match mode: winners per seat, lengths, lead changes; a SensibleBot in seat 0 against
    random players (its win rate is the bot-over-random win rate)."""
    r = compare(PAIR, n=2, unit="matches", bots=["sensible", "random", "random"], max_hands=2, seed=2)
    assert {row["hands"] for row in r.rows} <= {1, 2}
    for row in r.rows:
        assert sum(row[f"win_{s}"] for s in range(3)) == pytest.approx(1.0)
        assert row["first_dealer_win"] == row[f"win_{row['first_dealer']}"]
    keys = {d.metric.key for d in r.differences}
    assert {"win_0", "hands", "lead_changes", "decided_at", "first_dealer_win"} <= keys


def test_play_deal_row():
    """A deal's row: contract, declarer success by the variant's own `made`, entries per column
    and per seat from the dealer, spread, length."""
    v = load_variant("fivehundred")
    row = play_deal(v, 1, 0, ["random"] * 3)
    assert row["score_0"] + row["score_1"] + row["score_2"] == sum(row[f"seat_score_{k}"] for k in range(3))
    assert row["seat_score_0"] == row[f"score_{row['dealer']}"]
    assert row["spread"] == max(row[f"score_{c}"] for c in range(3)) - min(row[f"score_{c}"] for c in range(3))
    if row["contract"]:
        assert row["made"] == int(row["declarer_tricks"] >= row["level"])
        assert row["declarer_score"] == row[f"score_{row['declarer']}"]


def test_cli_table_and_files(tmp_path):
    """issue 9: a table of differences with intervals, a sentence where none is detectable,
    rows as CSV and JSON lines, the summary, and the plots (or a note without matplotlib)."""
    out = tmp_path / "out"
    r = runner.invoke(app, ["compare", *PAIR, "--deals", "30", "--seed", "4", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "A = fivehundred, B = fivehundred-must-trump: 30 paired deals, bots random,random,random, seed 4" in r.output
    assert "95% CI" in r.output
    assert "No difference is detectable at this N (30 deals) in:" in r.output
    rows = list(csv.DictReader(open(out / "rows.csv")))
    lines = [json.loads(x) for x in open(out / "rows.jsonl")]
    assert len(rows) == len(lines) == 60
    assert rows[1]["variant"] == lines[1]["variant"] == "fivehundred-must-trump"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n"] == 30 and summary["variants"] == PAIR
    pytest.importorskip("matplotlib")
    assert (out / "scores.png").read_bytes()[:4] == b"\x89PNG"
    assert (out / "convergence.png").read_bytes()[:4] == b"\x89PNG"


def test_no_matplotlib_or_dask_at_import():
    """The core imports neither matplotlib nor dask (optional extras)."""
    code = ("import sys, rulekit.sim.compare, rulekit.sim.output, rulekit.sim.diff, rulekit.cli.app;"
            "print([m for m in ('matplotlib', 'dask', 'distributed') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_dask_local_cluster_gives_the_same_numbers():
    """issue 9: the same compare on a dask LocalCluster (via Client.get_executor()) gives the
    same numbers as the process pool."""
    distributed = pytest.importorskip("distributed")
    local = compare(PAIR, n=20, seed=9, jobs=2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        clustered = compare(PAIR, n=20, seed=9, executor=client.get_executor())
        address = cluster.scheduler_address
        r = runner.invoke(app, ["compare", *PAIR, "--deals", "20", "--seed", "9", "--scheduler", address])
    assert clustered.rows == local.rows
    assert _numbers(clustered) == _numbers(local)
    assert r.exit_code == 0, r.output
    assert "A = fivehundred, B = fivehundred-must-trump: 20 paired deals" in r.output
