"""Every match ends, and ends the way the file says (issue 13 cases 2 and 3, issue 12 case 17).

A match is capped (``match.max_hands``, default 1000, or ``--max-hands``) and every deal counts
toward the cap, thrown-in ones too; a rubber match may be played to the first side that wins
N rubbers (``match.rubbers_to_win``).
"""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from rulekit.bots import RandomBot
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.variant import builtin_ids, load_variant

runner = CliRunner()


def variant_file(tmp_path, name: str, text: str):
    f = tmp_path / f"{name}.yaml"
    f.write_text(text, encoding="utf-8")
    return load_variant(str(f)), f


def play_out(s: State, seed: int, policy=None, limit: int = 200000) -> State:
    """Play to the end of the match (random bots, or ``policy``); fail rather than loop forever."""
    bot = RandomBot(seed)
    for _ in range(limit):
        if s.is_over:
            return s
        s.apply(policy(s) if policy else bot.act(s.observation(s.to_move)))
    raise AssertionError(f"the match did not end within {limit} actions ({s.hand.number + 1} deals)")


def always_pass(s: State):
    return "pass"


# --------------------------------------------------------------------------- issue 13 case 2
SEVENS = """id: bridge-sevens
extends: bridge
phases:
  auction:
    levels: [7]
"""


def test_thrown_in_deals_count_toward_max_hands(tmp_path):
    """issue 13 case 2: a valid bridge house rule allowing only 7-level bids, every deal passed
    out (rules/bridge.md [A5]: thrown in, the next dealer deals): ``--max-hands 1`` stops after
    the first deal (it looped forever: thrown-in deals did not count), and the sheet and the
    result show the deal as thrown in."""
    v, _ = variant_file(tmp_path, "bridge-sevens", SEVENS)
    s = play_out(State(v, seed=1, max_hands=1), 1, always_pass)
    assert s.hand.number == 0 and s.hands_played == 1
    assert [r.note for r in s.sheet.rows] == ["passed out"]
    assert s.result()["thrown_in"] == 1
    assert s.end_reason == "stopped after 1 hand, 1 thrown in"
    s3 = play_out(State(v, seed=1, max_hands=3), 1, always_pass)
    assert s3.hand.number == 2 and s3.result()["thrown_in"] == 3
    assert s3.end_reason == "stopped after 3 hands, 3 thrown in"


def test_redeal_same_counts_toward_max_hands(tmp_path):
    """issue 13 case 2: with ``all_pass: redeal_same`` (Chicago: the same dealer deals again and
    the deal is no board) the deals still count toward the cap; the board counter stays."""
    v, _ = variant_file(tmp_path, "chicago-sevens", SEVENS.replace("bridge-sevens", "chicago-sevens")
                        .replace("extends: bridge", "extends: bridge-chicago"))
    s = play_out(State(v, seed=2, max_hands=4), 2, always_pass)
    assert s.is_over and s.hand.number == 3
    assert s.board == 0 and s.result()["thrown_in"] == 4
    assert {h.dealer for h in s.hand_log} == {s.first_dealer}      # redealt by the same dealer
    assert s.end_reason == "stopped after 4 hands, 4 thrown in"


def test_default_cap_also_counts_thrown_in_deals(tmp_path):
    """issue 13 cases 2 and 3: without ``--max-hands`` the file's cap applies to thrown-in deals."""
    v, _ = variant_file(tmp_path, "sevens-capped", SEVENS.replace("bridge-sevens", "sevens-capped")
                        + "match:\n  max_hands: 6\n")
    s = play_out(State(v, seed=3), 3, always_pass)
    assert s.hand.number == 5 and s.result()["thrown_in"] == 6
    assert s.end_reason == ("stopped after 6 hands, 6 thrown in without a winner (match.max_hands); "
                            "the best total wins")


# --------------------------------------------------------------------------- issue 13 case 3
def test_every_shipped_match_has_a_documented_default_cap():
    """issue 13 case 3: every match is bounded: ``match.max_hands`` defaults to 1000."""
    for vid in builtin_ids():
        assert load_variant(vid).match.max_hands == 1000, vid


CAPPED = """id: fivehundred-capped
extends: fivehundred
match:
  max_hands: 5
"""


def test_random_fivehundred_stops_at_the_cap(tmp_path):
    """issue 13 case 3: shipped Five Hundred with three random players runs into the thousands
    of hands (totals near -200,000); with a cap of 5 it stops after 5 hands with a clear reason,
    the best total winning."""
    base = load_variant("fivehundred")
    long = play_out(State(base, seed=1, max_hands=200), 1)   # seed 1 runs to the default cap of 1000
    assert long.end_reason == "stopped after 200 hands" and min(long.sheet.totals()) < -20000
    v, _ = variant_file(tmp_path, "fivehundred-capped", CAPPED)
    s = play_out(State(v, seed=1), 1)
    t = s.sheet.totals()
    assert s.hand.number + 1 == 5 and len(s.sheet.rows) == 5 and max(t) < 500
    assert s.winners == [c for c in range(3) if t[c] == max(t)]
    assert s.end_reason == "stopped after 5 hands without a winner (match.max_hands); the best total wins"


def test_cli_prints_why_the_capped_match_ended(tmp_path):
    """issue 13 case 3: the CLI ends the capped match with exit 0 and says why."""
    _, f = variant_file(tmp_path, "fivehundred-capped", CAPPED)
    r = runner.invoke(app, ["play", str(f), "--auto", "--players", "random,random,random", "--seed", "1",
                            "--quiet"])
    assert r.exit_code == 0, r.output
    assert re.search(r"win.*\(stopped after 5 hands without a winner \(match\.max_hands\); the best total "
                     r"wins\)\.", " ".join(r.output.split()))


def test_max_hands_is_checked_by_the_schema(tmp_path):
    """issue 13 case 3: the cap is a positive integer."""
    from rulekit.errors import VariantError
    with pytest.raises(VariantError, match="max_hands"):
        variant_file(tmp_path, "bad-cap", CAPPED.replace("max_hands: 5", "max_hands: 0"))


# --------------------------------------------------------------------------- issue 12 case 17
RUBBERS = """id: whist-two-rubbers
extends: whist
match:
  rubbers: null
  rubbers_to_win: 2
"""


@pytest.mark.parametrize("seed,winners,rubber_notes", [
    (0, [0, 2], ["NS", "NS"]),
    (1, [1, 3], ["NS", "EW", "EW"]),        # EW win the match with fewer points (50 to 74)
    (2, [1, 3], ["EW", "NS", "EW"]),
])
def test_whist_first_to_two_rubbers(tmp_path, seed, winners, rubber_notes):
    """issue 12 case 17, rules/whist.md (seed 003: play "until one pair wins an agreed number of
    rubbers"): with ``match.rubbers_to_win: 2`` the match goes on until a side has won two
    rubbers, and that side wins, whatever the points."""
    v, _ = variant_file(tmp_path, "whist-two-rubbers", RUBBERS)
    assert v.match.rubbers is None and v.match.rubbers_to_win == 2
    s = play_out(State(v, seed=seed), seed)
    notes = [re.search(r"rubber to (\w+)", r.note)[1] for r in s.sheet.rows if "rubber to" in r.note]
    assert notes == rubber_notes
    assert s.winners == winners
    side = v.side_names[v.side_of[winners[0]]]
    assert s.end_reason == f"{side} won 2 rubbers"


def test_rubbers_to_win_needs_rubbers(tmp_path):
    """issue 12 case 17: rubbers_to_win without rubbers is refused at its position."""
    from rulekit.errors import VariantError
    with pytest.raises(VariantError, match=r"rubbers_to_win counts rubbers"):
        variant_file(tmp_path, "no-rubbers", "id: no-rubbers\nextends: fivehundred\nmatch:\n  rubbers_to_win: 2\n")
