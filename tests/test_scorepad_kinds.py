"""``rulekit score`` for variants whose phase kinds give the scoring its facts: trick bids
(each player's bid, a nil bidder's tricks), hand sizes by deal, an order-up (maker, alone,
a deal thrown in) and counters carried from hand to hand (bags)."""
from __future__ import annotations

import json
from pathlib import Path
import re

import pytest
from typer.testing import CliRunner

from cli.app import app
from rulekit.sheets.scorepad import FactError, ScorePad
from rulekit.variant import load_variant
from tests.helpers import plain, runner


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
    # each bid and its tricks in the note
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


def lines(renderables) -> str:
    return "\n".join(plain(r) for r in renderables)


def _pad_questions(variant: str, answers: dict):
    """The questions a scorepad of ``variant`` asks for one hand, answered from ``answers``."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(load_variant(variant), first_dealer=0)
    facts: dict = {}
    asked = []
    while (q := pad.next_question(facts)) is not None:
        asked.append(q)
        pad.answer(q, answers[q.name], facts)
    return pad, facts, asked


def test_pitch_scorepad_asks_who_holds_high_low_jack():
    """A tally held by one column at most is asked once (who),
    not per column: Pitch asks 7 questions, not 16; `-` for High is refused with the reason (the
    first card led made trumps, so someone held High); Jack may be held by nobody."""
    from rulekit.sheets.scorepad import FactError, ScorePad
    answers = {"contract": "3", "declarer": "P0", "trump": "S", "points": "27 0 10 2",
               "tally:high": "P0", "tally:low": "p3", "tally:jack": "-"}
    pad, facts, asked = _pad_questions("pitch", answers)
    assert [q.name for q in asked] == ["contract", "declarer", "trump", "points", "tally:high", "tally:low",
                                      "tally:jack"]
    assert asked[4].prompt == "high: who" and asked[4].help == "who: one of P0, P1, P2, P3"
    assert asked[6].help == "who: one of P0, P1, P2, P3, or - for none"
    assert [facts[f"tally:low:{c}"] for c in range(4)] == [0, 0, 0, 1]
    assert list(pad.add(facts).entries) == [-3, 0, 0, 1]   # P0 made High and Game only: set back 3
    pad2 = ScorePad(load_variant("pitch"), first_dealer=0)
    with pytest.raises(FactError, match=r"^high: someone held it \(the first card led made trumps, so a trump "
                                        r"was in play\); expected one of P0, P1, P2, P3$"):
        pad2.answer(asked[4], "-", {})
    with pytest.raises(FactError, match="high: 'P7' is not a player"):
        pad2.answer(asked[4], "P7", {})


def test_spades_scorepad_accepts_nil():
    """`nil` is a bid on the Spades scorepad, and its help says so."""
    answers = {"phase:bidding:bids": "nil 4 3 5", "tricks": "8 5", "phase:bidding:nil_tricks": "0"}
    pad, facts, asked = _pad_questions("spades", answers)
    bids = next(q for q in asked if q.name == "phase:bidding:bids")
    assert "0 (or nil) to 13" in bids.help
    assert facts["phase:bidding:bids"] == "0 4 3 5"
    assert list(pad.add(facts).entries) == [135, -90]   # NS: nil made 100, bid 3 took 8: 30 + 5 bags; EW bid 9 took 5


def test_trick_bids_note_says_bids_and_tricks(tmp_path):
    """The sheet note of a trick-bidding hand gives each column's
    bid and tricks, not only the trumps: on the Spades pad (N nil made, S 3; E 4, W 5) and in a
    played Oh Hell hand (`--auto`)."""
    answers = {"phase:bidding:bids": "nil 4 3 5", "tricks": "8 5", "phase:bidding:nil_tricks": "0"}
    pad, facts, _asked = _pad_questions("spades", answers)
    assert pad.add(facts).note == "trumps S, NS bid 3 + nil took 8 · EW bid 9 took 5"
    r = runner.invoke(app, ["play", "ohhell", "--auto", "--seed", "3", "--save", str(tmp_path / "g.json")])
    lines = r.output.splitlines()
    bids = re.findall(r"(P\d) bid (\d+)", next(ln for ln in lines if ln.startswith("  auction")))
    note = next(ln for ln in lines if ln.startswith("  hand 1 ")).split(" — ")[1]
    m = re.fullmatch(r"trumps [♠♥♦♣], " + " · ".join(rf"{p} bid {b} took (\d)" for p, b in sorted(bids)), note)
    assert m, note                         # each column's bid, as called, then its tricks
    assert sum(map(int, m.groups())) == 1  # Oh Hell's first deal is one card each


def _hand_notes(out: str) -> list:
    """The sheet notes of the hands an ``--auto`` game played (void hands left out)."""
    return [ln.split(" — ", 1)[1] for ln in out.splitlines() if ln.startswith("  hand ") and "void" not in ln]


def test_order_up_note_says_who_made_trumps(tmp_path):
    """An order-up hand's sheet note says which side made trumps."""
    r = runner.invoke(app, ["play", "euchre", "--auto", "--seed", "3", "--save", str(tmp_path / "g.json")])
    notes = _hand_notes(r.output)
    assert notes and all(re.fullmatch(r"trumps [♠♥♦♣], made by (NS|EW)(, alone)?", n) for n in notes), notes


def test_held_bonus_tallies_in_the_note(tmp_path):
    """A tally of dealt cards a column holds in full is named in
    the note: Belote's belote (king and queen of trumps in one hand), Pitch's High and Low."""
    r = runner.invoke(app, ["play", "belote", "--auto", "--seed", "3", "--save", str(tmp_path / "b.json")])
    notes = _hand_notes(r.output)
    assert all(re.fullmatch(r"trumps [♠♥♦♣], made by (NS|EW)(, belote (NS|EW))?", n) for n in notes), notes
    assert any("belote" in n for n in notes) and not all("belote" in n for n in notes)
    r = runner.invoke(app, ["play", "pitch", "--auto", "--seed", "3", "--save", str(tmp_path / "p.json")])
    notes = _hand_notes(r.output)
    # someone always holds High and Low: trumps are made by a card led, so one is in play
    assert notes and all(re.fullmatch(r"P\d [234] \([♠♥♦♣]\) (made|failed), high P\d, low P\d", n)
                         for n in notes), notes


def test_pitch_pad_file_with_nobody_holding_high_is_refused():
    """A pad file's hand (tallies stored per column) where nobody
    held High is refused on loading with the reason; one where P0 held it is read back."""
    from rulekit.sheets.scorepad import FactError, ScorePad
    pad = ScorePad(load_variant("pitch"), first_dealer=0)
    facts = {"contract": "3", "declarer": 0, "trump": "S", "points": [27, 0, 10, 2],
             **{f"tally:{t}:{c}": 0 for t in ("high", "low", "jack") for c in range(4)}, "tally:low:3": 1}
    with pytest.raises(FactError, match=r"high: someone held it"):
        pad.check(facts)
    done = pad.check({**facts, "tally:high:0": 1})
    assert [done[f"tally:high:{c}"] for c in range(4)] == [1, 0, 0, 0]


def test_schnapsen_claim_close_and_melds_in_the_pad():
    """A stock game asks who closed (and the figures at the close), the meld points declared, who
    claimed and with what result, then the tricks (fewer when a claim stopped play) and the card
    points; docs/rules/schnapsen.md example 2 scores 2, example 3 after a close 2."""
    pad = ScorePad(load_variant("schnapsen"))
    asked = enter(pad, ["-", "40 0", "P0", "made", "H", "2 1", "29 14"])
    assert asked == ["closed the stock", "meld points declared P0 P1", "claimed", "the claim", "trumps",
                     "tricks P0 P1", "card points P0 P1"]
    assert pad.sheet.rows[-1].entries == [2, 0]
    asked = enter(pad, ["P0", "1 1", "14 14", "40 0", "40 0", "P0", "made", "H", "2 1", "29 14"])
    assert asked[:4] == ["closed the stock", "tricks at the close P0 P1", "card points at the close P0 P1",
                         "melds counted at the close P0 P1"]
    assert pad.sheet.rows[-1].entries == [2, 0]


def test_schnapsen_pad_refusals():
    """Facts no play gives: a claim's result against its rule, tricks short of a hand nobody
    claimed, a meld total no marriages make, a close after the stock ran out."""
    pad = ScorePad(load_variant("schnapsen"))
    assert "by the rule (score >= 66) the claim was failed, not made" in \
        refused(pad, ["-", "40 0", "P0", "made", "H", "2 1"], "20 14")
    assert "tricks add up to 9, but a hand has 10" in refused(pad, ["-", "0 0", "-", "H"], "5 4")
    assert "30 is no total of melds" in refused(pad, ["-"], "30 0")
    assert "after at most 4 tricks" in refused(pad, ["P1"], "3 2")
