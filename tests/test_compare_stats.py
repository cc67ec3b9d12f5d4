"""The statistics of ``rulekit compare`` (docs/compare.md, "Reading the result"): the paired t
test for a metric with values other than 0 and 1, McNemar's exact test and Newcombe's interval
for a 0/1 metric, never a
zero-width interval when every pair agrees, Holm-adjusted p-values over all the tests, empty CSV
cells where a value does not apply, and ``columns.json`` next to the rows."""
from __future__ import annotations

import csv
import dataclasses
import json
import math
import random
from math import comb

import pytest
from scipy import stats
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.sim.compare import Difference, Metric, agreement_bound, compare, holm, paired
from rulekit.sim.output import columns, write_rows

runner = CliRunner()
PAIR = ["fivehundred", "fivehundred-must-trump"]


# ---------------------------------------------------------------------- paired means
def test_a_numeric_metric_gets_scipys_paired_t_test():
    a = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
    b = [4.0, 1.5, 4.0, 3.0, 6.0, 9.5, 2.0, 8.0]
    p = paired(a, b)
    res = stats.ttest_rel(b, a)
    ci = res.confidence_interval(0.95)
    assert p.test == "paired t"
    assert p.diff == pytest.approx(sum(b) / 8 - sum(a) / 8)
    assert (p.p, p.lo, p.hi) == pytest.approx((res.pvalue, ci.low, ci.high))
    assert p.differ == 6       # two pairs are equal


def test_the_same_nonzero_difference_in_every_pair_gets_the_sign_test():
    """Every pair 10 points higher: the t statistic is undefined (no spread); the sign test says
    2 * 0.5 ** n, with no interval made up."""
    p = paired([0, 5, 20, 40, 7, 1, 2, 3], [10, 15, 30, 50, 17, 11, 12, 13])
    assert (p.test, p.diff, p.lo, p.hi) == ("sign test", 10, None, None)
    assert p.p == pytest.approx(2 * 0.5 ** 8)


# ---------------------------------------------------------------------- paired rates
def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple:
    """The Wilson score interval, written out (Wilson 1927)."""
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def test_a_0_1_metric_gets_mcnemars_exact_test_and_newcombes_interval():
    """10 pairs go 0 -> 1, 2 go 1 -> 0, 40 are 1 under both, 48 are 0: the exact binomial test of
    10 of 12 discordant pairs, p = 2 * (C(12,10) + C(12,11) + C(12,12)) / 2**12 = 158/4096, and
    Newcombe's square-and-add interval from the Wilson intervals of 50/100 and 42/100 and their
    correlation psi = (40 * 48 - 10 * 2 - 50) / sqrt(50 * 50 * 42 * 58)."""
    a = [0] * 10 + [1] * 2 + [1] * 40 + [0] * 48
    b = [1] * 10 + [0] * 2 + [1] * 40 + [0] * 48
    p = paired(a, b)
    assert p.test == "McNemar exact" and p.differ == 12
    assert p.p == pytest.approx(2 * (comb(12, 10) + comb(12, 11) + comb(12, 12)) / 2 ** 12)
    assert p.diff == pytest.approx(0.08)
    (l1, u1), (l2, u2) = _wilson(50, 100), _wilson(42, 100)
    psi = (40 * 48 - 10 * 2 - 50) / math.sqrt(50 * 50 * 42 * 58)
    lo = 0.08 - math.sqrt((0.5 - l1) ** 2 + (u2 - 0.42) ** 2 - 2 * psi * (0.5 - l1) * (u2 - 0.42))
    hi = 0.08 + math.sqrt((0.42 - l2) ** 2 + (u1 - 0.5) ** 2 - 2 * psi * (0.42 - l2) * (u1 - 0.5))
    assert (p.lo, p.hi) == pytest.approx((lo, hi))
    assert 0 < p.lo < p.diff < p.hi


def test_newcombes_interval_covers_the_true_difference_95_percent_of_the_time():
    """Simulated paired rates (A made 30 %, B 40 %, correlated), 300 pairs: of 1000 intervals
    about 950 contain the true difference 0.10."""
    rng = random.Random(5)
    cover = 0
    for _ in range(1000):
        a, b = [], []
        for _ in range(300):
            u = rng.random()   # P(both) 0.2, P(a only) 0.1, P(b only) 0.2, P(neither) 0.5
            a.append(int(u < 0.3))
            b.append(int(u < 0.2 or 0.3 <= u < 0.5))
        p = paired(a, b)
        cover += p.lo <= 0.10 <= p.hi
    assert 930 <= cover <= 970, cover


def test_a_rate_is_detectable_only_when_the_exact_test_rejects():
    """5 pairs 0 -> 1 and none back in 1000: the exact test's p = 2 / 32 = 0.0625, so no
    difference is detectable, though the interval (as the large-sample tests) just excludes 0;
    6 pairs give p = 0.031: detectable."""
    p = paired([0] * 1000, [1] * 5 + [0] * 995)
    d = Difference(**dataclasses.asdict(p), metric=Metric("made", "made", "rate"), a="A", b="B")
    assert p.p == pytest.approx(0.0625) and p.lo > 0 and not d.detectable
    assert "no difference detectable at this N (1000 pairs; 95% CI 0.02% to 1.17%; McNemar exact p = 0.062" \
        in d.sentence()
    q = paired([0] * 1000, [1] * 6 + [0] * 994)
    assert q.p == pytest.approx(0.03125)
    assert Difference(**dataclasses.asdict(q), metric=Metric("made", "made", "rate"), a="A", b="B").detectable


def test_no_pair_differs_is_never_a_zero_width_interval():
    """Every pair agrees: not "0..0" but the exact 95 % upper bound on the share of pairs that
    could differ, 1 - 0.05 ** (1/n) (about 3/n); a 0/1 metric's difference lies within it."""
    p = paired([1, 0, 1, 1, 0] * 60, [1, 0, 1, 1, 0] * 60)
    assert (p.test, p.differ, p.diff, p.p) == ("none differ", 0, 0.0, 1.0)
    assert p.bound == pytest.approx(1 - 0.05 ** (1 / 300)) == pytest.approx(0.009936, abs=1e-6)
    assert (p.lo, p.hi) == (-p.bound, p.bound)
    assert agreement_bound(300) == pytest.approx(stats.binomtest(0, 300).proportion_ci(0.90, "exact").high)
    points = paired([120, -60, 40], [120, -60, 40])
    assert (points.lo, points.hi, points.bound) == (None, None, pytest.approx(1 - 0.05 ** (1 / 3)))


# ---------------------------------------------------------------------- multiple comparisons
def test_holm_adjusts_step_down():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, None, 0.01]) == pytest.approx([0.5, None, 0.02])
    assert holm([0.9, 0.8]) == [1.0, 1.0]


def test_a_comparison_adjusts_every_test_where_a_pair_differs():
    """The Holm family: every metric of every variant against the first where some pair differs
    (a metric where none differs has p = 1 whatever the data and is left out of the count)."""
    r = compare([*PAIR, "fivehundred-joker-follows"], n=60, seed=2, jobs=1)
    family = [d for d in r.differences if d.p is not None and d.differ]
    assert len({d.b for d in family}) == 2 and len(family) >= 4
    assert [d.p_holm for d in family] == pytest.approx(holm([d.p for d in family]))
    for d in r.differences:
        if d.agree:
            assert d.p == d.p_holm == 1.0 and not d.detectable
    note = r.holm_note()
    assert note.startswith(f"{len(family)} tests (2 variants against fivehundred) read together: by chance "
                           f"about 1 in 20 looks different at the 95% level; with Holm's adjustment for all "
                           f"{len(family)} (the Holm column),")
    assert r.summary()["multiple_comparisons"] == note


# ---------------------------------------------------------------------- outputs
def test_cli_table_says_no_difference_and_the_holm_note(tmp_path):
    r = runner.invoke(app, ["compare", *PAIR, "--deals", "40", "--seed", "4", "--jobs", "1"],
                      env={"COLUMNS": "160"})
    assert r.exit_code == 0, r.output
    head = next(line for line in r.output.splitlines() if "metric" in line)
    assert [c.strip() for c in head.split("┃")[1:-1]] == ["metric", "A", "B", "B - A", "95% CI", "p", "Holm",
                                                         "n", ""]
    made = next(line for line in r.output.splitlines() if "all pass (no contract)" in line)
    assert "±7.2%" in made and "same" in made and "0.0%..0.0%" not in r.output
    entry = next(line for line in r.output.splitlines() if "hand length (actions)" in line)
    assert "none differ" in entry
    assert ("No difference in 40 pairs (none differs; at most 7.2% of such deals would, 95% upper bound) in: "
            in " ".join(r.output.split()))
    assert "tests read together: by chance about 1 in 20 looks different" in " ".join(r.output.split())


def test_csv_cells_are_empty_where_a_value_does_not_apply(tmp_path):
    """No sentinel: a deal without a contract has no declarer, level or made (empty cells in
    rows.csv, null in rows.jsonl)."""
    r = compare(["hearts", "hearts"], n=3, seed=1, jobs=1)
    files = write_rows(r, tmp_path)
    assert [f.name for f in files] == ["rows.csv", "columns.json", "rows.jsonl", "summary.json"]
    rows = list(csv.DictReader(open(tmp_path / "rows.csv", encoding="utf-8")))
    assert {(x["declarer"], x["level"], x["made"], x["contract"]) for x in rows} == {("", "", "", "")}
    lines = [json.loads(x) for x in open(tmp_path / "rows.jsonl", encoding="utf-8")]
    assert {x["declarer"] for x in lines} == {None}
    assert all("-1" not in x.values() for x in rows)


@pytest.mark.parametrize("unit, variants", [("deals", PAIR), ("matches", ["whist", "whist-english"])])
def test_columns_json_describes_every_column(tmp_path, unit, variants):
    r = compare(variants, n=2, unit=unit, seed=1, jobs=1, max_hands=20)
    write_rows(r, tmp_path)
    header = next(csv.reader(open(tmp_path / "rows.csv", encoding="utf-8")))
    described = json.loads((tmp_path / "columns.json").read_text(encoding="utf-8"))
    assert list(described) == header
    for name, entry in described.items():
        assert set(entry) == {"description", "unit", "type"}
        assert entry["description"] and entry["type"] in ("integer", "number", "string", "0/1")
    if unit == "deals":
        assert described["declarer"] == {"description": "seat of the declarer; empty without a contract",
                                         "unit": "seat", "type": "integer"}
        assert described["seat_score_1"]["description"].startswith("entry of the seat 1 places left of the dealer")
        assert described["made"]["type"] == "0/1"
    else:
        assert described["win_3"]["unit"] == "share" and "seat 3's share of the win" in described["win_3"]["description"]


def test_a_new_row_field_needs_its_words():
    with pytest.raises(KeyError, match="no description of the column 'mystery' of deals rows"):
        columns("deals", ["index", "mystery"])


def test_summary_has_each_test_and_bound(tmp_path):
    r = compare(PAIR, n=30, seed=4, jobs=1)
    s = r.summary()
    by = {d["metric"]: d for d in s["differences"]}
    assert by["all_pass"]["test"] == "none differ" and by["all_pass"]["agree"] is True
    assert by["all_pass"]["bound"] == pytest.approx(1 - 0.05 ** (1 / 30))
    assert by["all_pass"]["ci95"] == [pytest.approx(-by["all_pass"]["bound"]), pytest.approx(by["all_pass"]["bound"])]
    assert by["decisions"]["ci95"] == [None, None]     # a count where no pair differs: nothing bounds its size
    numeric = [d for d in s["differences"] if d["test"] == "paired t"]
    assert numeric and all(0 <= d["p"] <= d["p_holm"] <= 1 for d in numeric)
