"""``rulekit score`` for variants whose phase kinds give the scoring its facts: trick bids
(each player's bid, a nil bidder's tricks), hand sizes by deal, an order-up (maker, alone,
a deal thrown in) and counters carried from hand to hand (bags)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from rulekit.sheets.scorepad import FactError, ScorePad
from rulekit.variant import load_variant


def enter(pad: ScorePad, answers: list) -> list:
    """Answer the pad's questions in order; return the questions' prompts."""
    facts: dict = {}
    asked = []
    for text in answers:
        q = pad.next_question(facts)
        asked.append(q.prompt)
        pad.answer(q, text, facts)
    assert pad.next_question(facts) is None, "the hand needs more facts"
    pad.add(facts)
    return asked


def refused(pad: ScorePad, answers: list, last: str) -> str:
    """The refusal of the answer ``last`` after ``answers``."""
    facts: dict = {}
    for text in answers:
        pad.answer(pad.next_question(facts), text, facts)
    with pytest.raises(FactError) as e:
        pad.answer(pad.next_question(facts), last, facts)
    return str(e.value)


def test_ohhell_bids_and_hand_sizes():
    """Oh Hell: one card each in deal 1, two in deal 2 (the schedule read by the deal number);
    each player's bid; trumps (none in a deal without stock); exact bids score 10 + the bid."""
    pad = ScorePad(load_variant("ohhell"), first_dealer=3)
    asked = enter(pad, ["1 1 0 0", "h", "1 0 0"])
    assert asked == ["bids P0 P1 P2 P3", "trumps", "tricks P0 P1 P2 P3"]
    assert pad.sheet.rows[-1].entries == [11, 0, 10, 10]
    # each bid and its tricks in the note (user pass (gallery) finding 8)
    assert pad.sheet.rows[-1].note == "trumps H, P0 bid 1 took 1 · P1 bid 1 took 0 · P2 bid 0 took 0 · P3 bid 0 took 0"
    q = pad.next_question({"phase:bidding:bids": "0 0 0 0", "trump": "S"})
    assert q.help == "4 numbers adding up to 2 (the last may be left out)"
    enter(pad, ["2 0 1 0", "s", "2 0 0 0"])
    assert pad.sheet.totals() == [23, 10, 10, 20]


def test_ohhell_refusals():
    """The dealer's hook, a bid above the hand's cards, a trump that is not one."""
    pad = ScorePad(load_variant("ohhell"), first_dealer=3)
    assert refused(pad, [], "0 0 0 1") == ("bids add up to the 1 tricks of the hand, which the last bidder may "
                                           "not allow (expected someone to be short or over)")
    assert refused(pad, [], "2 0 0 0") == "bids: P0: 2 is not allowed (expected 0 to 1)"
    assert refused(pad, [], "1 1") == "bids: 2 given, but there are 4 players (expected one bid each: P0 P1 P2 P3)"
    assert refused(pad, [], "blind 1 0 0") == "bids: P0: blind nil is not played in ohhell (expected a number)"


def test_spades_bids_nil_tricks_and_bags_carried():
    """Spades: N nil, E 5, S 2, W 4; N took 1 of NS's 2: NS -120 and 1 bag (MSN Zone's
    example), EW 92 and 2 bags.  Then NS 6 of 13: 67 and 7 more bags (8).  Then NS 6 taking 9:
    63, 3 bags make 11: -100 and 1 left (-37), the row says so."""
    pad = ScorePad(load_variant("spades"), first_dealer=3)
    asked = enter(pad, ["0 5 2 4", "1", "2"])
    assert asked == ["bids N E S W", "tricks of nil bidders N", "tricks NS EW"]
    assert pad.sheet.rows[-1].entries == [-120, 92] and pad.counters == {"bags": [1, 2]}
    enter(pad, ["3 3 3 3", "13"])
    assert pad.sheet.rows[-1].entries == [67, -60] and pad.counters == {"bags": [8, 2]}
    enter(pad, ["3 3 3 3", "9"])
    assert pad.sheet.rows[-1].entries == [-37, -60] and pad.counters == {"bags": [1, 2]}
    assert pad.sheet.rows[-1].note == "trumps S, NS bid 6 took 9 · EW bid 6 took 4; bags 10 to NS (-100)"
    pad.undo()
    assert pad.counters == {"bags": [8, 2]}   # rebuilt from the hands left


def test_spades_blind_nil_in_the_pad():
    """A blind nil made: N blind, S 2 taking NS's 5: 20 + 3 + 200 = 223; EW 3 + 3 = 6 taking 8: 62."""
    pad = ScorePad(load_variant("spades"), first_dealer=3)
    enter(pad, ["blind 3 2 3", "0", "5"])
    assert pad.sheet.rows[-1].entries == [223, 62]


def test_spades_nil_tricks_must_fit_the_sides_tricks():
    pad = ScorePad(load_variant("spades"), first_dealer=3)
    assert refused(pad, ["0 5 2 4", "4"], "3") == ("the nil bidders of NS took 4 tricks, but NS took 3 "
                                                   "(expected NS's tricks to include theirs)")


def test_euchre_maker_alone_and_thrown_in():
    """Euchre: N makes hearts alone and takes all five: NS 4.  Next deal all pass twice: the
    deal is thrown in (passed out), the next dealer deals.  Then E makes spades, EW take 2:
    euchred, NS 2."""
    pad = ScorePad(load_variant("euchre"), first_dealer=3)
    asked = enter(pad, ["N", "yes", "h", "5"])
    assert asked == ["maker", "alone", "trumps", "tricks NS EW"]
    assert pad.sheet.rows[-1].entries == [4, 0] and pad.sheet.rows[-1].note == "trumps H, made by NS, alone"
    assert enter(pad, ["none"]) == ["maker"]
    assert pad.sheet.rows[-1].note == "passed out" and pad.dealer == 1
    enter(pad, ["E", "no", "s", "3"])
    assert pad.sheet.totals() == [6, 0]
    assert refused(pad, [], "X") == "maker: 'X' is not a player (expected one of N, E, S, W, or none)"


def test_cli_undo_takes_back_the_last_answer(tmp_path):
    """`undo` at a prompt inside a hand takes back the last answer (here a wrong bid); with no
    answer given yet it removes the last hand."""
    pad_file = tmp_path / "pad.json"
    lines = ["0 5 2 4", "undo", "3 3 3 3", "13", "quit"]
    r = CliRunner().invoke(app, ["score", "spades", "--file", str(pad_file), "--dealer", "W"],
                           input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert "undone: the last answer" in r.output
    data = json.loads(Path(pad_file).read_text())
    assert data["hands"][0]["phase:bidding:bids"] == "3 3 3 3"
    assert data["sheet"]["rows"][0]["entries"] == [67, -60]


def test_king_rounds_each_asked_by_its_rules():
    """A schedule of rounds (King): each hand is asked by its round's rules (tricks; hearts,
    jacks, queens, the last two tricks, the king of hearts; a pile's score and the cards left
    in the domino, which those kinds do not ask themselves: asked per column; trumps in the
    trump rounds) and the whole match typed in gives the played sheet, round names on the rows,
    ended after the twelve rounds."""
    import random

    from rulekit.engine import State
    from tests.test_scorepad import _rows, _typed
    s = State(load_variant("king"), seed=5)
    rng = random.Random(5)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    pad = ScorePad(s.match_variant, first_dealer=s.first_dealer)
    prompts = []
    for h in s.hand_log:
        facts, _ = _typed(pad, s.rules_of(h.number), h)
        q = [pad.next_question({})]
        prompts.append(q[0].prompt if q[0] else "")
        pad.add(facts)
    assert prompts[0] == "tricks N E S W" and prompts[6] == "pile score N E S W"
    assert prompts[7] == "cards left N E S W" and prompts[8] == "trumps"
    assert _rows(pad.sheet) == _rows(s.sheet) and pad.sheet.rows[0].note.startswith("no tricks")
    assert pad.winners == s.winners and pad.end_reason == "all 12 rounds played"


def test_king_value_question_refuses_out_of_range():
    pad = ScorePad(load_variant("king"))
    for _ in range(6):   # rounds 1-6 by their facts: no tricks for anyone, no cards taken
        facts: dict = {}
        while (q := pad.next_question(facts)) is not None:
            pad.answer(q, "8 0 0 0" if q.name == "tricks" else "0", facts)
        pad.add(facts)
    q = pad.next_question({})
    assert q.prompt == "pile score N E S W"
    with pytest.raises(FactError) as e:
        pad.answer(q, "1 0 0 0", {})
    assert str(e.value).startswith("pile score N E S W: expected 4 numbers, one per column, each ")
