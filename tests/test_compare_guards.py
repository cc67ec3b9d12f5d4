"""rulekit compare: guards found by the fresh-user pass of stop 7 (user pass (stop 7) findings 2-5)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.sim.compare import MAX_N, CompareError, compare


def test_a_variant_compared_with_itself_pairs_each_deal_once():
    """finding 4: ``compare fivehundred fivehundred --matches 10`` showed n = 20: the two
    variants had the same name, so each column held both sides' rows. The second gets a name
    of its own, and each difference is over the 10 pairs (all equal: the same rules)."""
    r = compare(["fivehundred", "fivehundred"], n=10, unit="matches", jobs=1, seed=3)
    assert r.variants == ["fivehundred", "fivehundred (2)"]
    assert r.differences and all(d.n == 10 and d.diff == 0 for d in r.differences)


def test_too_many_deals_are_refused_before_any_work():
    """finding 2: a huge --deals filled memory before anything ran; now a clear refusal."""
    with pytest.raises(CompareError, match=r"at most 1,000,000 deals \(found 99,999,999,999"):
        compare(["fivehundred", "fivehundred-must-trump"], n=99_999_999_999, jobs=1)
    r = CliRunner().invoke(app, ["compare", "fivehundred", "fivehundred-must-trump", "--deals",
                                 str(MAX_N + 1), "--jobs", "1"])
    assert r.exit_code == 2 and "at most 1,000,000 deals" in r.output


@pytest.mark.parametrize("seed", ["-5", "18446744073709551616"])
def test_compare_takes_the_seeds_play_takes(seed):
    """finding 5: compare accepted seeds that play refuses (0 to 2^63 - 1)."""
    r = CliRunner().invoke(app, ["compare", "fivehundred", "fivehundred-must-trump", "--deals", "5",
                                 "--seed", seed])
    assert r.exit_code == 2 and "--seed" in r.output


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
def test_terminating_compare_ends_its_workers_too():
    """finding 3: a TERM sent to the compare process alone left its two pool workers running.
    The process now exits 143 after the pool is shut down: no worker is left."""
    p = subprocess.Popen([sys.executable, "-c", "from rulekit.cli.app import main; main()", "compare", "fivehundred",
                          "fivehundred-must-trump", "--deals", "200000", "--jobs", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        if p.poll() is None:
            p.kill()
