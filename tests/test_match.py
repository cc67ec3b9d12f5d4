"""Every match ends, and ends the way the file says.

A match is capped (``match.max_hands``, default 1000, or ``--max-hands``) and every deal counts
toward the cap, thrown-in ones too; a rubber match may be played to the first side that wins
N rubbers (``match.rubbers_to_win``).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulekit.bots import RandomBot
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.errors import VariantError
from rulekit.variant import builtin_ids, load_variant
from tests.helpers import (LEAD_TOY_HANDS, ROUNDS_BASE, lead_toy, lead_toy_order, load_text, play_random,
                           play_with_bots, variant_from, write_variant)

runner = CliRunner()


def variant_file(tmp_path, name: str, text: str):
    f = Path(write_variant(tmp_path, f"{name}.yaml", text))
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


SEVENS = """id: bridge-sevens
extends: bridge
phases:
  auction:
    levels: [7]
"""


def test_thrown_in_deals_count_toward_max_hands(tmp_path):
    """A valid bridge house rule allowing only 7-level bids, every deal passed
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
    """With ``all_pass: redeal_same`` (Chicago: the same dealer deals again and
    the deal is no board) the deals still count toward the cap; the board counter stays."""
    v, _ = variant_file(tmp_path, "chicago-sevens", SEVENS.replace("bridge-sevens", "chicago-sevens")
                        .replace("extends: bridge", "extends: bridge-chicago"))
    s = play_out(State(v, seed=2, max_hands=4), 2, always_pass)
    assert s.is_over and s.hand.number == 3
    assert s.board == 0 and s.result()["thrown_in"] == 4
    assert {h.dealer for h in s.hand_log} == {s.first_dealer}      # redealt by the same dealer
    assert s.end_reason == "stopped after 4 hands, 4 thrown in"


def test_default_cap_also_counts_thrown_in_deals(tmp_path):
    """Without ``--max-hands`` the file's cap applies to thrown-in deals."""
    v, _ = variant_file(tmp_path, "sevens-capped", SEVENS.replace("bridge-sevens", "sevens-capped")
                        + "match:\n  max_hands: 6\n")
    s = play_out(State(v, seed=3), 3, always_pass)
    assert s.hand.number == 5 and s.result()["thrown_in"] == 6
    assert s.end_reason == ("stopped after 6 hands, 6 thrown in without a winner (match.max_hands); "
                            "the best total wins")


def test_every_shipped_match_has_a_documented_default_cap():
    """Every match is bounded: ``match.max_hands`` defaults to 1000."""
    for vid in builtin_ids():
        assert load_variant(vid).match.max_hands == 1000, vid

CAPPED = """id: fivehundred-capped
extends: fivehundred
match:
  max_hands: 5
"""


def test_random_fivehundred_stops_at_the_cap(tmp_path):
    """Shipped Five Hundred with three random players runs into the thousands
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
    """The CLI ends the capped match with exit 0 and says why."""
    _, f = variant_file(tmp_path, "fivehundred-capped", CAPPED)
    r = runner.invoke(app, ["play", str(f), "--auto", "--players", "random,random,random", "--seed", "1",
                            "--quiet"])
    assert r.exit_code == 0, r.output
    assert re.search(r"win.*\(stopped after 5 hands without a winner \(match\.max_hands\); the best total "
                     r"wins\)\.", " ".join(r.output.split()))


def test_max_hands_is_checked_by_the_schema(tmp_path):
    """The cap is a positive integer."""
    from rulekit.errors import VariantError
    with pytest.raises(VariantError, match="max_hands"):
        variant_file(tmp_path, "bad-cap", CAPPED.replace("max_hands: 5", "max_hands: 0"))


RUBBERS = """id: whist-two-rubbers
extends: whist
match:
  rubbers: null
  rubbers_to_win: 2
"""


@pytest.mark.parametrize("seed,winners,rubber_notes", [
    (0, [0, 2], ["NS", "NS"]),
    (51, [1, 3], ["NS", "EW", "EW"]),       # EW win the match with fewer points (48 to 62)
    (1, [1, 3], ["EW", "NS", "EW"]),
])
def test_whist_first_to_two_rubbers(tmp_path, seed, winners, rubber_notes):
    """rules/whist.md (seed 003: play "until one pair wins an agreed number of
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
    """rubbers_to_win without rubbers is refused at its position."""
    from rulekit.errors import VariantError
    with pytest.raises(VariantError, match=r"rubbers_to_win counts rubbers"):
        variant_file(tmp_path, "no-rubbers", "id: no-rubbers\nextends: fivehundred\nmatch:\n  rubbers_to_win: 2\n")


# ---------------------------------------------------------------- match end: points counted in order
def counted(tmp_path, order_: str):
    return lead_toy(tmp_path, play=", first_lead_trump: true",
               scoring='  tallies:\n    top: {suit: trump, pick: highest, in: hand}\n  each: "top + tricks"',
               match="{target: 10, ties: [count_order], count_order: [%s]}" % order_)


def play_first_hand(s):
    while not s.winners and s.hand.number == 0:
        s.apply(s.legal_actions()[0])


@pytest.mark.parametrize("order_, scores, winner", [("top, tricks", [0, 9, 9], 1),
                                                    ("tricks, top", [0, 2, 9], 2)])
def test_count_order_breaks_a_tie_on_the_target(tmp_path, order_, scores, winner):
    """All Fours: "the points are counted in the order High, Low, Jack, Game", h2g2
    "Auction Pitch": first lead JH makes hearts trumps; seat 1 (dealt AH) takes 7 tricks, seat 2
    the last; both reach 10 on this hand. Counting top first, seat 1 (9 + 1) is there first;
    counting tricks first from 2 and 9, seat 2 (9 + 1) is there first, seat 1 (2 + 7) only after
    his top."""
    s = State(counted(tmp_path, order_), deals=[lead_toy_order(LEAD_TOY_HANDS)], scores=scores)
    play_first_hand(s)
    assert s.hand.entries == [0, 8, 1]
    assert s.winners == [winner]


def test_count_order_needs_its_list(tmp_path):
    """The tie break and its list go together; an unknown name is refused where it is written."""
    with pytest.raises(VariantError) as e:
        lead_toy(tmp_path, match="{target: 10, ties: [count_order]}")
    assert "match: the count_order tie break and match.count_order go together" in str(e.value)
    with pytest.raises(VariantError) as e:
        lead_toy(tmp_path, match="{target: 10, ties: [count_order], count_order: [tricks, hihg]}")
    assert "toy.yaml:12:64: match.count_order.1: unknown variable" in str(e.value) and "hihg" in str(e.value)

ROUNDS = ROUNDS_BASE + """\
rounds:
  - name: most tricks
    objective: take tricks
  - name: no tricks
    objective: take no tricks
    times: players
    scoring: {each: "-2 * tricks"}
"""


def test_schedule_rounds_overlay_and_sheet_lines():
    """A match is an ordered list of rounds, each an overlay of the base rules with its
    name; the deal passes on after each round; ``times: players`` repeats a round once per
    dealer; the match ends after the last round; the sheet has one line per round, named."""
    v = load_text(ROUNDS)
    assert [r.round_name for r in v.rounds] == ["most tricks", "no tricks 1", "no tricks 2", "no tricks 3"]
    assert v.rounds[1].objective == "take no tricks"
    s = play_with_bots(State(v, seed=3))
    rows = [r for r in s.sheet.rows]
    assert [r.note.split(":")[0] for r in rows] == ["most tricks", "no tricks 1", "no tricks 2", "no tricks 3"]
    assert [h.dealer for h in s.hand_log] == [0, 1, 2, 0]
    first, later = s.hand_log[0], s.hand_log[1:]
    assert rows[0].entries == first.won                      # base scoring: +1 per trick
    for r, h in zip(rows[1:], later):                        # the overlay: -2 per trick
        assert r.entries == [-2 * w for w in h.won]
    assert s.end_reason == "all 4 rounds played"
    totals = s.sheet.totals()
    assert s.winners == [c for c, t in enumerate(totals) if t == max(totals)]


def test_round_overlay_error_points_at_the_round_line():
    """A bad overlay is reported at its own line in the file, with the path."""
    bad = ROUNDS.replace('scoring: {each: "-2 * tricks"}', 'scoring: {each: "-2 * trickz"}')
    with pytest.raises(VariantError) as e:
        load_text(bad)
    msg = str(e.value)
    line = bad.splitlines().index('    scoring: {each: "-2 * trickz"}') + 1
    assert f"toy.yaml:{line}:" in msg and "trickz" in msg


# ---------------------------------------------------------------- everyone winning
def _end(vid: str, after: list, before: list | None = None):
    from rulekit.engine.scoring import match_result
    v = load_variant(vid)
    s = State(v, seed=1)
    return match_result(v, s.hand, before or [0] * len(after), after, 1, names=list(s.sheet.columns))


def test_both_sides_falling_together_the_higher_total_wins():
    """Both spades sides fall below -200 in the same hand: the
    higher total wins, not both."""
    assert _end("spades", [-300, -250]) == ([1], "NS and EW fell to -300, -250, at or below -200")


def test_both_sides_falling_to_the_same_total_is_a_declared_tie():
    """``rulekit play spades --auto --seed 1`` ends with both sides at -400: a tie, said in words
    (not "NS and EW win")."""
    from types import SimpleNamespace

    from rulekit.cli.render import winner_text
    assert _end("spades", [-400, -400]) == ([0, 1], "NS and EW fell to -400, at or below -200")
    s = State(load_variant("spades"), seed=1)
    # the screen's last line for that end (a stand-in state: the bots' bids no longer reach it)
    end = SimpleNamespace(variant=s.variant, winning_columns=[0, 1], winners=[0, 1, 2, 3],
                          sheet=s.sheet, names=s.names, result=dict,
                          end_reason="NS and EW fell to -400, at or below -200")
    assert winner_text(end).plain == "A tie: NS and EW (NS and EW fell to -400, at or below -200)."


def test_target_reached_by_several_the_higher_total_wins():
    """Both spades sides reach 500 in the same hand (no tie
    rules): the higher total wins; equal totals are a tie."""
    assert _end("spades", [520, 510]) == ([0], "reached 500")
    assert _end("spades", [510, 510]) == ([0, 1], "reached 500")


def test_penalty_limit_equal_lowest_totals_tie():
    """lower_is_better: hearts ends at 100; the two lowest
    equal totals share a tie, the others lose."""
    cols, why = _end("hearts", [104, 40, 40, 90])
    assert cols == [1, 2] and why.endswith("reached the limit of 100; the lowest total wins")


# --------------------------------------------------------------------------- penalty limit
RAMS_TARGET = """id: rams-to-30
extends: rams
match: {deals: null, target: 30}
"""


@pytest.mark.parametrize("seed,totals,winners", [
    (3, [15, 25, 20, 30], [0]),
    (1, [0, 30, 0, 20], [0, 2]),
])
def test_penalty_target_is_a_limit_the_lowest_total_wins(tmp_path, seed, totals, winners):
    """rules/rams.md [S1]: in a penalty game (``lower_is_better``) the player who
    reaches ``match.target`` loses; the lowest total wins (was: the player reaching it won)."""
    v = variant_from(tmp_path, "rams-to-30.yaml", RAMS_TARGET)
    s = play_random(State(v, seed=seed), seed)
    assert s.sheet.totals() == totals
    assert s.winners == winners
    assert "reached the limit of 30; the lowest total wins" in s.end_reason
    assert all(s.sheet.totals()[w] < 30 for w in s.winners)


def test_penalty_limit_many_matches(tmp_path):
    """Over 30 matches the winner never holds the limit."""
    v = variant_from(tmp_path, "rams-to-30.yaml", RAMS_TARGET)
    for seed in range(30):
        s = play_random(State(v, seed=seed), seed)
        t = s.sheet.totals()
        assert max(t) >= 30 and s.winners == [c for c in range(4) if t[c] == min(t)]


# --------------------------------------------------------------------------- sides and a target
PARTNERS = """id: partners-to-500
name: Partnership game to a points target
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck:
  suits: [S, C, D, H]
  ranks: ["7", "8", "9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9 8 7"
dealer:
  first: {seat: 0}
  rotation: left
phases:
  deal: {kind: deal, pattern: "1 x 8"}
  auction:
    kind: ladder_auction
    first: eldest
    levels: [4, 5, 6, 7, 8]
    strains: [S, C, D, H, NT]
    pass_is_final: true
    all_pass: play
  play: {kind: tricks, lead: declarer}
scoring:
  by: side
  let:
    value: "40 + 20 * strain + 100 * (level - 4)"
    made: "declarer_tricks >= level"
  declarer: "if made then value else -value"
  defender: "10 * tricks"
  no_contract: "10 * tricks"
match:
  target: 500
  ties: [declarer, trick_order]
"""


@pytest.mark.parametrize("seed,totals,winners", [
    (0, [530, -40], [0, 2]),     # EW's 8NT fails (-520); NS take 4 tricks (+40)
    (2, [-30, 520], [1, 3]),     # NS's 8NT fails; EW take 4 tricks
])
def test_partnership_target_side_totals_and_winner(tmp_path, seed, totals, winners):
    """A four-handed partnership file with ``sides`` and
    ``match.target: 500`` plays (it raised IndexError) and the side that reaches 500 wins."""
    v = variant_from(tmp_path, "partners-to-500.yaml", PARTNERS)
    s = play_random(State(v, seed=seed, scores=[490, 480]), seed)
    assert s.sheet.columns == ["NS", "EW"]
    assert s.sheet.totals() == totals
    assert s.winners == winners and s.end_reason == "reached 500"


@pytest.mark.parametrize("seed", range(4))
def test_partnership_target_trick_order_between_sides(tmp_path, seed):
    """rules/fivehundred.md [G3] trick order by side: all pass, both sides
    start at 495, so each reaches 500 with its first trick: the side of trick 1's winner wins."""
    v = variant_from(tmp_path, "partners-to-500.yaml", PARTNERS)
    s = State(v, seed=seed, scores=[495, 495])
    for _ in range(4):
        s.apply("pass")
    play_random(s, seed)
    h = s.hand_log[0]
    assert h.contract is None and min(s.sheet.totals()) >= 500
    side = v.side_of[h.trick_winners[0]]
    assert s.winners == list(v.sides[side])


def test_is_over_follows_the_winners_at_the_end_and_in_a_copy():
    """``State.is_over`` (a plain attribute) is False while the match goes on and becomes True
    with ``winners`` when it ends (here by ``stop()``: the best total wins); a copy made after
    the end keeps both, a copy made before does not end with the original."""
    s = State(load_variant("fivehundred"), seed=3)
    before = s.clone()
    assert not s.is_over and s.winners == [] and s.legal_choices()
    s.stop()
    best = max(s.sheet.totals())
    assert s.is_over and s.winners == [c for c, t in enumerate(s.sheet.totals()) if t == best]
    assert s.legal_choices() == () and s.to_move == -1
    after = s.clone()
    assert after.is_over and after.winners == s.winners
    assert not before.is_over and before.winners == [] and before.to_move >= 0
