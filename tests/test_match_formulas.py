"""Formulas that read the match so far: each column's running total before the hand (``total``),
the declarer's (``declarer_total``) and the others' highest and lowest (``highest_other_total``,
``lowest_other_total``), the deal's number (``deal_number``), who dealt (``dealer``, ``is_dealer``); and the warning for a
formula reading a variable that never changes in its file."""
from __future__ import annotations

import pytest

from rulekit.bots import SensibleBot
from rulekit.engine import State
from rulekit.engine.scoring import score_played
from tests.helpers import play_first_legal, play_with_bots, typed_pad, variant_from, write_variant

#: A made-up partnership game bid in tricks (Kaiser's shape): a side at 47 or more scores only
#: when it bids; the defenders score their tricks, but never past 490 by defending (Australian
#: Five Hundred's "you can only win by bidding").
BIDDERS = """id: bidders
name: Bidders
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H, D, C], ranks: ["7", "8", "9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9 8 7"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "4 4"}
  auction: {kind: ladder_auction, levels: [5, 6, 7, 8], strains: [S, H, D, C, NT], all_pass: redeal}
  play: {kind: tricks, lead: declarer}
scoring:
  by: side
  declarer: "if declarer_tricks >= level then 10 * level else -10 * level"
  defender: "if total >= 47 then 0 else min(tricks, max(490 - total, 0))"
match: {target: 500}
"""

#: Everybody for himself: a bonus for the dealer of each deal, growing with the deal's number.
DEALERS = """id: dealers
name: Dealers
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 1}, rotation: left}
phases:
  deal: {kind: deal, pattern: "4 x 2"}
  play: {kind: tricks, lead: eldest}
scoring:
  each: "tricks + (if is_dealer then 100 * deal_number else 0) + 1000 * dealer"
match: {deals: 3}
"""


def _bid_and_play(s: State, bid: str, bidder: int) -> None:
    """The auction: everybody passes but ``bidder``, who bids ``bid``; then the first legal cards."""
    while s.phase_kind == "ladder_auction":
        s.apply(bid if s.to_move == bidder and bid not in [a for _s, a in s.hand.calls] else "pass")
    play_first_legal(s, s.hand.number)


def test_a_side_at_47_scores_only_when_it_bids(tmp_path):
    """``total`` is the column's running total before the hand: the defending side at 50 scores
    nothing for its tricks, the side at 10 scores them (Kaiser's rule, by formula)."""
    v = variant_from(tmp_path, "bidders.yaml", BIDDERS)
    s = State(v, seed=3, scores=[50, 10])
    assert s.hand.totals == (50, 10)
    s.apply("pass")                  # seat 1 (eldest) ...
    _bid_and_play(s, "5S", 2)        # ... then NS (seat 2) declares: EW defend at 10
    h = s.hand_log[0]
    assert h.declarer == 2
    ew = h.won[1] + h.won[3]
    assert s.sheet.rows[0].entries[1] == min(ew, 480)
    s2 = State(v, seed=3, scores=[10, 50])
    s2.apply("pass")
    _bid_and_play(s2, "5S", 2)
    assert s2.hand_log[0].won == h.won and s2.sheet.rows[0].entries[1] == 0


def test_defenders_cannot_win_by_defending(tmp_path):
    """A defending side's tricks stop at 490 - total: at 488 it scores at most 2."""
    v = variant_from(tmp_path, "bidders.yaml", BIDDERS)
    s = State(v, seed=0, scores=[10, 488])
    s.apply("pass")
    _bid_and_play(s, "5S", 2)
    ew = s.hand_log[0].won[1] + s.hand_log[0].won[3]
    # at 488 the side is also at 47 or more: it scores nothing as a defender
    assert s.sheet.rows[0].entries[1] == 0 and ew >= 0
    v2 = variant_from(tmp_path, "bidders2.yaml", BIDDERS.replace("if total >= 47 then 0 else ", ""))
    s = State(v2, seed=0, scores=[10, 488])
    s.apply("pass")
    _bid_and_play(s, "5S", 2)
    ew = s.hand_log[0].won[1] + s.hand_log[0].won[3]
    assert ew > 2 and s.sheet.rows[0].entries[1] == 2


def test_deal_number_and_dealer(tmp_path):
    """``deal_number`` counts deals from 1, ``dealer`` is the dealer's seat and ``is_dealer``
    holds for his column: three deals dealt by seats 1, 2, 0 score their bonuses."""
    v = variant_from(tmp_path, "dealers.yaml", DEALERS)
    s = State(v, seed=5)
    for k in range(3):
        play_first_legal(s, k)
    for k, (row, dealer) in enumerate(zip(s.sheet.rows, (1, 2, 0))):
        won = s.hand_log[k].won
        assert row.entries == [won[c] + (100 * (k + 1) if c == dealer else 0) + 1000 * dealer for c in range(3)]


#: A catch-up rule (made up): a defending side behind the declarer's doubles its tricks, and it
#: adds the other side's total.
CATCH_UP = BIDDERS.replace(
    'defender: "if total >= 47 then 0 else min(tricks, max(490 - total, 0))"',
    'defender: "(if total < declarer_total then 2 else 1) * tricks + lowest_other_total"')


def test_the_totals_of_the_declarer_and_the_others(tmp_path):
    """``declarer_total`` is the declaring column's total before the hand, ``highest_other_total``
    and ``lowest_other_total`` the other columns' highest and lowest (with two sides: the other's)."""
    v = variant_from(tmp_path, "catch.yaml", CATCH_UP)
    for scores, factor in (([50, 10], 2), ([10, 50], 1)):
        s = State(v, seed=3, scores=scores)
        s.apply("pass")
        _bid_and_play(s, "5S", 2)        # NS (seat 2) declares: EW defend
        h = s.hand_log[0]
        assert s.sheet.rows[0].entries[1] == factor * (h.won[1] + h.won[3]) + scores[0]
    from rulekit.engine.scoring import match_variables
    three = match_variables(variant_from(tmp_path, "dealers.yaml", DEALERS), {"totals": [5, -3, 9], "dealer": 2},
                            3, declarer=0)
    assert [(m["declarer_total"], m["highest_other_total"], m["lowest_other_total"]) for m in three] == \
        [(5, 9, -3), (5, 9, 5), (5, 5, -3)]
    assert match_variables(v, {"totals": [5, 7]}, 2)[0]["declarer_total"] == 0   # no declarer


def test_the_score_memo_keys_on_the_totals(tmp_path):
    """Two hands with the same tricks but other totals before them score apart (the variant's
    score cache keys on the totals when a formula reads them)."""
    v = variant_from(tmp_path, "bidders.yaml", BIDDERS)
    s = State(v, seed=3, scores=[50, 10])
    s.apply("pass")
    _bid_and_play(s, "5S", 2)
    h = s.hand_log[0]
    first = score_played(v, h, {})[1]
    h.totals = (10, 50)
    second = score_played(v, h, {})[1]
    assert first[1] == h.won[1] + h.won[3] > 0 and second[1] == 0


def test_the_scorepad_reads_the_match_as_a_played_match(tmp_path):
    """The scorepad scores ``total``, ``deal_number`` and ``is_dealer`` from its own sheet: the
    facts of a played match typed in give the played sheet."""
    v = variant_from(tmp_path, "dealers.yaml", DEALERS)
    s = State(v, seed=5)
    for k in range(3):
        play_first_legal(s, k)
    answers = [" ".join(str(x) for x in h.won) for h in s.hand_log]
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(v, first_dealer=1)
    for text in answers:
        facts: dict = {}
        while (q := pad.next_question(facts)) is not None:
            assert q.name == "tricks"
            pad.answer(q, text, facts)
        pad.add(facts)
    assert [r.entries for r in pad.sheet.rows] == [r.entries for r in s.sheet.rows]


def test_bots_play_a_match_that_reads_the_totals(tmp_path):
    """Monte Carlo bots bid and play a match whose formulas read the totals, to its end."""
    v = variant_from(tmp_path, "bidders.yaml", BIDDERS.replace("target: 500", "target: 60"))
    s = play_with_bots(State(v, seed=2), [SensibleBot(seed=i, samples=3, bid_samples=4, budget=12)
                                          for i in range(4)])
    assert s.winners and s.result()["reason"].startswith("reached")


@pytest.mark.parametrize("text, old, formula, name, what, line, key", [
    (DEALERS, "tricks + (if is_dealer then 100 * deal_number else 0) + 1000 * dealer", "tricks + game_score",
     "game_score", "always 0", 11, "each"),
    (DEALERS, "tricks + (if is_dealer then 100 * deal_number else 0) + 1000 * dealer",
     "if vulnerable then 2 * tricks else tricks", "vulnerable", "always false", 11, "each"),
    (BIDDERS, "if declarer_tricks >= level then 10 * level else -10 * level",
     "if is_partner or declarer_tricks >= level then 10 else -10", "is_partner", "always false", 15, "declarer")])
def test_a_formula_reading_a_constant_is_a_warning(tmp_path, text, old, formula, name, what, line, key):
    """``validate`` warns at the variable (file:line:column) when a formula reads one that never
    changes in the file: the game score without match.game, vulnerability without a
    vulnerability block, a partner without a phase that gives one; ``--strict`` fails."""
    from rulekit.cli.app import app
    from tests.helpers import runner
    f = write_variant(tmp_path, "w.yaml", text.replace(f'"{old}"', f'"{formula}"'))
    col = len(f"  {key}: \"") + formula.index(name) + 1
    out = runner.invoke(app, ["validate", f]).output
    assert f"w.yaml:{line}:{col}: warning: scoring.{key}: {name} is {what} in this file" in out
    assert runner.invoke(app, ["validate", "--strict", f]).exit_code == 1
    assert runner.invoke(app, ["validate", write_variant(tmp_path, "ok.yaml", text)]).output.strip() == "1 file valid"


#: Bidders where the defenders score their tricks in full and only a bid made wins the match
#: (Australian Five Hundred's rule, as ``match.target_if``).
BID_TO_WIN = (BIDDERS.replace('"if total >= 47 then 0 else min(tricks, max(490 - total, 0))"', '"tricks"')
              .replace("match: {target: 500}", 'match: {target: 500, target_if: "is_declarer and made"}')
              .replace("  declarer:", '  let: {made: "declarer_tricks >= level"}\n  declarer:'))


def test_a_target_reached_by_defending_does_not_win(tmp_path):
    """``target_if: "is_declarer and made"``: EW at 499 pass 500 with their defence tricks and
    play on; the same totals without ``target_if`` end the match with EW the winners."""
    v = variant_from(tmp_path, "bid-to-win.yaml", BID_TO_WIN)
    s = State(v, seed=0, scores=[10, 499])
    s.apply("pass")
    _bid_and_play(s, "5S", 2)                      # NS (seat 2) declares, EW defend
    ew = s.hand_log[0].won[1] + s.hand_log[0].won[3]
    assert ew > 0 and s.sheet.rows[0].entries[1] == ew and not s.winners
    plain = variant_from(tmp_path, "plain.yaml", BID_TO_WIN.replace(', target_if: "is_declarer and made"', ""))
    s = State(plain, seed=0, scores=[10, 499])
    s.apply("pass")
    _bid_and_play(s, "5S", 2)
    assert s.winners == [1, 3]


def test_a_made_bid_reaching_the_target_wins(tmp_path):
    """With ``target_if`` the declaring side that makes its bid and reaches 500 wins, even when
    the defenders are past 500 too; a failed bid does not."""
    v = variant_from(tmp_path, "bid-to-win.yaml", BID_TO_WIN)
    s = State(v, seed=0, scores=[490, 600])
    s.apply("pass")
    _bid_and_play(s, "5S", 2)
    h = s.hand_log[0]
    made = h.won[0] + h.won[2] >= 5
    assert s.sheet.rows[0].entries[0] == (50 if made else -50)
    assert s.winners == ([0, 2] if made else [])


def test_target_if_needs_a_target(tmp_path):
    """``target_if`` without ``match.target`` is refused at the option."""
    from rulekit.errors import VariantError
    text = BID_TO_WIN.replace("match: {target: 500, ", "match: {deals: 3, ")
    with pytest.raises(VariantError, match=r"match.target_if: target_if says when reaching match.target wins"):
        variant_from(tmp_path, "no-target.yaml", text)
