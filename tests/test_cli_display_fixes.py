"""Display fixes found by a tester (issue 14): the auction summary, the sheet layout, the
scorepad's winners, the exchange line and the help text read what the variant declares."""
from __future__ import annotations

import io

from rich.console import Console

from rulekit.engine import State
from rulekit.variant import load_variant
from tests.cli_helpers import Scripted

PREF = load_variant("preferans")


def _live(calls, names=("You", "P1", "P2")):
    """A live game (every seat typed) of preferans dealt by P2, so You (seat 0) speak first;
    ``calls`` are typed in turn; returns the game and what it printed."""
    st = State(PREF, seed=1, dealer=2, names=list(names))
    todo = list(calls)
    out = io.StringIO()
    g = Scripted(st, ["human"] * 3, Console(file=out, width=120), None,
                 policy=lambda g, s, seat: [todo.pop(0)])
    while todo:
        g.step()
    return g, out.getvalue()


def test_number_auction_summary_names_the_declarer():
    """issue 14 case 1 ([A2] [X1]): a number wins the auction; the summary reads the declarer
    and his number, not "all passed"."""
    _g, text = _live(["2", "pass", "pass"])
    line = next(ln for ln in text.splitlines() if ln.startswith("auction:"))
    assert line == "auction: You 2 · P1 pass · P2 pass  → 2 by You"


def test_hold_and_blind_summaries():
    """issue 14 case 1 ([A3] [A5]): a hold reads as the number held; a blind call as itself."""
    _g, text = _live(["2", "3", "pass", "hold", "pass"])
    assert text.splitlines()[-1].endswith("→ 3 by You")
    _g, text = _live(["igra", "pass", "pass"])
    assert "→ igra by You" in text
    assert "all passed" not in text
