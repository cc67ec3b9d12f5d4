"""``rulekit compare``: paired simulation of variants on the same deals."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.sim.compare import CompareError, MAX_N, compare, deal_seed, paired, play_deal
from rulekit.variant import load_variant

runner = CliRunner()

PAIR = ["fivehundred", "fivehundred-must-trump"]


def _numbers(result):
    return [(d.metric.key, d.b, d.n, d.mean_a, d.mean_b, d.diff, d.lo, d.hi) for d in result.differences]


def test_same_deals_under_each_variant():
    """Deal i is the same cut and shuffle under every variant (paired by seed)."""
    a, b = load_variant(PAIR[0]), load_variant(PAIR[1])
    for i in range(5):
        s = deal_seed(7, i)
        sa, sb = State(a, seed=s), State(b, seed=s)
        assert sa.hand.dealer == sb.hand.dealer and sa.hand.hands == sb.hand.hands
        assert sa.hand.zones == sb.hand.zones


def test_random_bots_same_auction_different_play():
    """Random players' own choices are seeded from (seed, deal): the auction (which the house
    rule does not touch) is the same under both, so every contract is paired."""
    r = compare(PAIR, bots=["random"], n=60, seed=3, jobs=1)
    by = {}
    for row in r.rows:
        by.setdefault(row["index"], {})[row["variant"]] = row
    assert all(p[PAIR[0]]["contract"] == p[PAIR[1]]["contract"] for p in by.values())
    assert len(r.rows) == 120 and [row["index"] for row in r.rows[:4]] == [0, 0, 1, 1]
    same = next(d for d in r.differences if d.metric.key == "all_pass")
    assert same.agree and same.diff == 0.0 and same.differ == 0   # identical auctions: no pair differs
    assert same.sentence() == ("all pass (no contract): no difference in 60 pairs: the same under "
                               "fivehundred-must-trump as under fivehundred in each (so it differs in at most "
                               "4.9% of such pairs, 95% upper bound).")


def test_deterministic_with_any_number_of_workers():
    """The same numbers with 1 worker (in process), 2 worker processes, or any
    Executor (here threads), and the same rows in the same order."""
    one = compare(PAIR, bots=["random"], n=40, seed=5, jobs=1)
    two = compare(PAIR, bots=["random"], n=40, seed=5, jobs=2)
    with ThreadPoolExecutor(3) as ex:
        three = compare(PAIR, bots=["random"], n=40, seed=5, executor=ex)
    assert one.rows == two.rows == three.rows
    assert _numbers(one) == _numbers(two) == _numbers(three)
    assert compare(PAIR, bots=["random"], n=40, seed=6, jobs=1).rows != one.rows


def test_paired_interval():
    """The 95% interval is the paired t interval of the differences (scipy), pairs with a
    missing value left out."""
    p = paired([1, 2, 3, None, 5], [2, 2, 5, 7, None])
    assert (p.n, p.mean_a, p.mean_b, p.diff, p.test) == (3, 2.0, 3.0, 1.0, "paired t")
    # differences 1, 0, 2: mean 1, sd 1, t(0.975, 2) = 4.302653
    assert p.lo == pytest.approx(1 - 4.302653 / 3 ** 0.5, abs=1e-5)
    assert p.hi == pytest.approx(1 + 4.302653 / 3 ** 0.5, abs=1e-5)
    assert (paired([2, 3], [2, 3]).lo, paired([2, 3], [2, 3]).test) == (None, "none differ")
    assert (paired([1], [2]).lo, paired([1], [2]).hi, paired([1], [2]).p) == (None, None, None)


def test_must_trump_changes_play_but_not_auctions():
    """With random players, [T2] must-trump leaves contracts alone and changes how the
    tricks fall: the per-deal rows differ in tricks for some deals."""
    r = compare(PAIR, bots=["random"], n=200, seed=1, jobs=1)
    diffs = {d.metric.key: d for d in r.differences}
    assert diffs["chose_level_10"].agree and diffs["chose_level_10"].lo < 0 < diffs["chose_level_10"].hi
    a = r.column(PAIR[0], "declarer_tricks")
    b = r.column(PAIR[1], "declarer_tricks")
    assert a != b
    spread = diffs["spread"]
    assert spread.sentence().startswith("spread of entries (best - worst): " + (
        "" if spread.detectable else "no difference detectable at this N (200 pairs; 95% CI "))


def test_cannot_share_deals():
    """Files with different players or decks cannot share deals: a clear error."""
    with pytest.raises(CompareError, match="fivehundred and bridge cannot share deals: fivehundred is played "
                                           "by 3 players, bridge by 4"):
        compare(["fivehundred", "bridge"], bots=["random"], n=2)
    with pytest.raises(CompareError, match="fivehundred and rams cannot share deals: their decks differ"):
        compare(["fivehundred", "rams"], bots=["random"], n=2, players=3)
    r = runner.invoke(app, ["compare", "--bots", "random", "fivehundred", "whist", "--deals", "2", "--jobs", "1"])
    assert r.exit_code == 2
    assert "cannot share deals" in r.output


def test_a_schedule_of_rounds_is_compared_by_matches():
    """Single deals of a variant with a schedule of rounds would all be its first
    round (King's "no tricks"): --deals is refused with exit 2, --matches plays whole matches."""
    with pytest.raises(CompareError, match="^king has a schedule of rounds: a schedule of rounds is compared "
                                           "by whole matches: use --matches N$"):
        compare(["king", "king"], bots=["random"], n=2)
    r = runner.invoke(app, ["compare", "--bots", "random", "king", "king", "--deals", "24", "--jobs", "1"])
    assert r.exit_code == 2 and "use --matches N" in r.output
    result = compare(["king", "king"], bots=["random"], n=1, unit="matches")
    assert [row["hands"] for row in result.rows] == [12, 12]


def test_bad_settings():
    with pytest.raises(CompareError, match="unknown bot 'clever'"):
        compare(PAIR, n=2, bots=["clever"])
    with pytest.raises(CompareError, match="--bots names 2 players, the variants have 3 seats"):
        compare(PAIR, n=2, bots=["random", "random"])
    with pytest.raises(CompareError, match="at least two variants"):
        compare(PAIR[:1], bots=["random"], n=2)
    r = runner.invoke(app, ["compare", "--bots", "random", *PAIR, "--deals", "2", "--matches", "2"])
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
    """A table of differences with intervals, a sentence where none is detectable,
    rows as CSV and JSON lines, the summary, and the plots (or a note without matplotlib)."""
    out = tmp_path / "out"
    r = runner.invoke(app, ["compare", "--bots", "random", *PAIR, "--deals", "30", "--seed", "4", "--jobs", "1", "--out", str(out)])
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
    """The same compare on a dask LocalCluster (via Client.get_executor()) gives the
    same numbers as the process pool."""
    distributed = pytest.importorskip("distributed")
    local = compare(PAIR, bots=["random"], n=20, seed=9, jobs=2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        clustered = compare(PAIR, bots=["random"], n=20, seed=9, executor=client.get_executor())
        address = cluster.scheduler_address
        r = runner.invoke(app, ["compare", "--bots", "random", *PAIR, "--deals", "20", "--seed", "9", "--scheduler", address])
    assert clustered.rows == local.rows
    assert _numbers(clustered) == _numbers(local)
    assert r.exit_code == 0, r.output
    assert "A = fivehundred, B = fivehundred-must-trump: 20 paired deals" in r.output


# ---------------------------------------------------------------------- compare's options
@pytest.mark.parametrize("target", ["/dev/full", "file"])
def test_compare_checks_out_before_running(tmp_path, target):
    """--out that is no folder is refused (exit 2) before the comparison runs, not after."""
    out = tmp_path / "file" if target == "file" else target
    if target == "file":
        out.write_text("keep me")
    r = runner.invoke(app, ["compare", "--bots", "random", "whist", "whist", "--deals", "2", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert (f"error: --out {out}: not a folder (expected a folder for rows.csv, summary.json and the plots)"
            in " ".join(r.output.split()))
    assert "paired deals" not in r.output
    if target == "file":
        assert out.read_text() == "keep me"


def test_compare_out_folder_is_created_first(tmp_path):
    """A missing --out folder is created (with its parents) and the files written in it."""
    out = tmp_path / "a" / "b"
    r = runner.invoke(app, ["compare", "--bots", "random", "whist", "whist", "--deals", "2", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert (out / "rows.csv").is_file() and (out / "summary.json").is_file()


@pytest.mark.parametrize("args, option", [(["--matches", "2", "--max-hands", "0"], "--max-hands"),
                                          (["--matches", "2", "--max-hands", "-5"], "--max-hands"),
                                          (["--deals", "2", "--jobs", "-1"], "--jobs")])
def test_compare_refuses_bad_counts(args, option):
    """--max-hands must be at least 1 (as for play) and --jobs at least 0: a usage error (2)."""
    r = runner.invoke(app, ["compare", "--bots", "random", "whist", "whist", *args])
    assert r.exit_code == 2
    assert f"Invalid value for '{option}'" in r.output


def test_a_broken_variant_file_exits_1_in_compare(tmp_path):
    """A file that exists but is broken stays exit 1 for compare (its content is wrong)."""
    f = tmp_path / "b.yaml"
    f.write_text("id: b\nname: B\nplayers: banana\n")
    r = runner.invoke(app, ["compare", "--bots", "random", str(f), "whist", "--deals", "2"])
    assert r.exit_code == 1, r.output
    assert f"{f}:" in r.output


@pytest.fixture(scope="module")
def small_comparison():
    from rulekit.sim.compare import compare
    return compare(["whist", "whist"], n=3, unit="deals", bots=["random"], seed=1, jobs=1)


def test_rows_csv_defuses_formulas(tmp_path, small_comparison):
    """rows.csv text cells starting with = + - @ get a leading apostrophe (CSV injection);
    numbers, negative ones included, and rows.jsonl keep their values."""
    import copy
    import csv
    from rulekit.sim.output import write_rows
    from rulekit.sim.rows import Rows
    result = copy.deepcopy(small_comparison)
    rows = list(result.rows)
    rows[0].update(variant="=HYPERLINK(\"x\")", contract="+1", trump="@A", score_1=-14)
    result.rows = Rows(rows)
    write_rows(result, tmp_path)
    with open(tmp_path / "rows.csv", newline="", encoding="utf-8") as f:
        row = next(csv.DictReader(f))
    assert (row["variant"], row["contract"], row["trump"], row["score_1"]) == \
        ("'=HYPERLINK(\"x\")", "'+1", "'@A", "-14")
    first = json.loads((tmp_path / "rows.jsonl").read_text().splitlines()[0])
    assert first["variant"] == "=HYPERLINK(\"x\")"


def test_plots_leave_stderr_quiet(tmp_path, small_comparison):
    """No matplotlib warning ("No artists with labels found", a missing glyph) reaches
    stderr when the plots are written."""
    pytest.importorskip("matplotlib")
    import warnings
    from rulekit.sim.output import write_plots
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        files = write_plots(small_comparison, tmp_path)
    assert [f.name for f in files] == ["scores.png", "convergence.png"]
    assert [str(w.message) for w in caught] == []


def test_a_variant_compared_with_itself_pairs_each_deal_once():
    """``compare fivehundred fivehundred --matches 10`` showed n = 20: the two
    variants had the same name, so each column held both sides' rows. The second gets a name
    of its own, and each difference is over the 10 pairs (all equal: the same rules)."""
    r = compare(["fivehundred", "fivehundred"], bots=["random"], n=10, unit="matches", jobs=1, seed=3)
    assert r.variants == ["fivehundred", "fivehundred (2)"]
    assert r.differences and all(d.n == 10 and d.diff == 0 for d in r.differences)


def test_too_many_deals_are_refused_before_any_work():
    """A huge --deals is refused with a clear message before anything runs (it would fill memory)."""
    with pytest.raises(CompareError, match=r"at most 1,000,000 deals \(found 99,999,999,999"):
        compare(["fivehundred", "fivehundred-must-trump"], bots=["random"], n=99_999_999_999, jobs=1)
    r = CliRunner().invoke(app, ["compare", "--bots", "random", "fivehundred", "fivehundred-must-trump", "--deals",
                                 str(MAX_N + 1), "--jobs", "1"])
    assert r.exit_code == 2 and "at most 1,000,000 deals" in r.output


@pytest.mark.parametrize("seed", ["-5", "18446744073709551616"])
def test_compare_takes_the_seeds_play_takes(seed):
    """compare accepted seeds that play refuses (0 to 2^63 - 1)."""
    r = CliRunner().invoke(app, ["compare", "--bots", "random", "fivehundred", "fivehundred-must-trump", "--deals", "5",
                                 "--seed", seed])
    assert r.exit_code == 2 and "--seed" in r.output


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
def test_terminating_compare_ends_its_workers_too():
    """A TERM sent to the compare process alone ends its pool workers too: the process exits 143
    after the pool is shut down, and no worker is left.  (The run has a process group of its own,
    killed whole at the end whatever happened, so that no worker outlives a failed or timed-out
    test.)"""
    p = subprocess.Popen([sys.executable, "-c", "from rulekit.cli.app import main; main()", "compare", "fivehundred",
                          "fivehundred-must-trump", "--bots", "random", "--deals", "200000", "--jobs", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 30
        children: list = []
        while time.time() < deadline and len(children) < 2:
            time.sleep(0.5)
            out = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout
            children = [int(x) for x in out.split()]
        assert len(children) >= 2, "the pool did not start"
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=60) == 143
        time.sleep(0.5)
        alive = [c for c in children if os.path.exists(f"/proc/{c}") and
                 "Z" not in open(f"/proc/{c}/stat").read().split()[2]]
        assert alive == []
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)     # the run's group: compare and any worker left
        except ProcessLookupError:               # none left (the test passed)
            pass
        p.wait(timeout=30)


def test_table_to_a_file_keeps_every_cell_whole():
    """Written to a file or a pipe (not a terminal), the table is as wide as its cells: no
    metric is folded over lines and no interval is cut to ``-24.2%..1…``."""
    r = runner.invoke(app, ["compare", "--bots", "random", *PAIR, "--deals", "30", "--seed", "4", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "…" not in r.output
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in r.output.splitlines() if line.startswith("│")}
    assert rows["declarer's tricks"] == ["2.83", "2.87", "0.03", "-0.25..0.32", "0.81", "1.00", "30", "-"]
    assert rows["entry of score column 0"][3] == "-3.43..2.10"
