"""The scorepad refuses every fact no legal play gives, by bounds derived from the variant
(never per game), answers each refusal with its reason and keeps what was entered before."""
from __future__ import annotations

import pytest

from rulekit.sheets.scorepad import FactError, ScorePad
from rulekit.variant import load_variant


def entered(pad: ScorePad, answers: list) -> tuple:
    """Answer the pad's questions in order; a refused answer is recorded and the same question
    is asked again by the next answer.  Returns ``(facts, [(prompt, help, answer, refusal)])``."""
    facts: dict = {}
    log = []
    for text in answers:
        q = pad.next_question(facts)
        assert q is not None, f"no question left for {text!r}: {log}"
        try:
            pad.answer(q, text, facts)
            log.append((q.prompt, q.help, text, ""))
        except FactError as e:
            log.append((q.prompt, q.help, text, str(e)))
    return facts, log


def refusals(log) -> list:
    return [r for _p, _h, _t, r in log if r]


def king_at(round_index: int) -> ScorePad:
    """A King pad at round ``round_index`` (0-based), the earlier rounds entered plainly."""
    pad = ScorePad(load_variant("king"))
    plain = {0: ["8 0 0 0"], 1: ["8"], 2: ["4"], 3: ["4"], 4: ["2"], 5: ["N"],
             6: ["-1 -3 -5 -7"], 7: ["0 0 0 1"]}
    for r in range(round_index):
        facts, log = entered(pad, plain[r])
        assert not refusals(log) and pad.next_question(facts) is None, log
        pad.add(facts)
    return pad


def test_k2_hearts_within_the_pack_and_all_taken():
    """[K2] a 32-card pack holds 8 hearts, all taken in tricks: 3 + 3 + 3 is refused (9), the
    ranges say what is left, and the last column is the rest (not asked)."""
    pad = king_at(1)
    facts, log = entered(pad, ["3", "3", "3", "1"])
    assert [(p, h) for p, h, _t, _r in log] == [("hearts N", "a number from 0 to 8"), ("hearts E", "a number from 0 to 5"),
                                                ("hearts S", "a number from 0 to 2"), ("hearts S", "a number from 0 to 2")]
    assert refusals(log) == ["hearts: 9 in all, but the pack has only 8"]
    assert pad.next_question(facts) is None and facts["tally:hearts:3"] == 1
    assert pad.add(facts).entries == (-6, -6, -2, -2)


def test_k5_last_two_tricks_at_most_two_and_no_internal_key():
    """[K5] the last two tricks: 17 is refused (there are 2); the prompt says the tally in words
    (`last two N`, not `last_two N`) and its true range."""
    pad = king_at(4)
    facts, log = entered(pad, ["17", "1", "1"])
    assert log[0][:2] == ("last two N", "a number from 0 to 2")
    assert refusals(log) == ["last two: 17 in all, but the pack has only 2"]
    assert pad.next_question(facts) is None
    assert pad.add(facts).entries == (-4, -4, 0, 0)


def test_k6_the_king_of_hearts_taken_by_one_player_only():
    """[K6] the round ends when K♥ is taken: one player takes it; nobody is refused (play
    would then have run to the end, and every card is taken), and none is not offered."""
    pad = king_at(5)
    q = pad.next_question({})
    assert (q.prompt, q.help) == ("king: who", "who: one of N, E, S, W")
    facts, log = entered(pad, ["-", "E"])
    assert refusals(log) == ["king: 0 in all, but every card ends in a won trick (all dealt, play run to its end), "
                             "so the columns take all 1"]
    assert pad.add(facts).entries == (0, -8, 0, 0)


def test_k6_one_card_in_two_columns_refused():
    """A single card is taken by one column only: two columns holding K♥ are refused."""
    pad = king_at(5)
    with pytest.raises(FactError, match="hand 6: king: 2 in all, but the pack has only 1"):
        pad.add({"tally:king:0": 1, "tally:king:1": 1, "tally:king:2": 0, "tally:king:3": 0})
    assert pad.sheet.rows[-1].hand == 4   # nothing written


def test_k7_pile_scores_share_out_the_thresholds():
    """[K7] the running total reaches 25, 50, 75 and 100 (-1, -3, -5, -7): -2 is no sum of
    thresholds; the scores must share out all four (the pack's 120 points pass 100)."""
    pad = king_at(6)
    facts, log = entered(pad, ["-2 0 0 0", "-1 -3 0 0", "-1 -3 -5 -7"])
    assert log[0][0] == "pile score N E S W" and "so one of -16, -15" in log[0][1]
    assert refusals(log) == [
        "pile score: -2 0 0 0 do not share out the thresholds reached (-1, -3, -5, -7): each goes to the one "
        "player whose card reached it",
        "pile score: -1 -3 0 0 do not share out the thresholds reached (-1, -3, -5, -7): each goes to the one "
        "player whose card reached it"]
    assert pad.add(facts).entries == (-1, -3, -5, -7)


def test_k8_domino_ends_with_three_players_out():
    """[K8] the layout ends when three players have no cards left (with every card in play
    someone can always lay one): two players holding cards at the end are refused; the range
    is a hand's 8 cards, not 52."""
    pad = king_at(7)
    facts, log = entered(pad, ["1 2 0 0", "0 0 9 0", "0 0 3 0"])
    assert log[0][1] == "4 numbers, one per column, each 0 to 8"
    assert refusals(log)[0] == ("cards left: 1 2 0 0: 2 players out of cards, but the layout ends when 3 are "
                                "(with every card in play someone can always lay one)")
    assert refusals(log)[1] == "cards left N E S W: expected 4 numbers, one per column, each 0 to 8"
    assert pad.add(facts).entries == (0, 0, -8, 0)


PREF = "preferans"


def test_f2_plain_pik_nobody_kontras_counts_made():
    """[F2] a plain pik is played only against kontra: the pad asks the doubling alone; none:
    not played, counted as made, -4, no soup, no tricks asked."""
    pad = ScorePad(load_variant(PREF))
    facts, log = entered(pad, ["pik", "P0", "-"])
    assert [p for p, *_ in log] == ["contract", "declarer", "doubling"]
    assert pad.next_question(facts) is None
    row = pad.add(facts)
    assert row.entries == (-4, 0, 0) and row.against == ()


def test_t3_suit_contract_tricks_add_up_to_ten():
    """[T3] only a betl ends early: 6 2 1 at tref is refused (9 of 10)."""
    pad = ScorePad(load_variant(PREF))
    facts, log = entered(pad, ["tref", "P0", "follow follow", "-", "6 2 1", "6 2 2"])
    assert refusals(log)[0].startswith("tricks add up to 9, but a hand has 10, and play stops early only when")
    assert pad.add(facts).entries == (-10, 0, 0)


def test_t3_betl_ends_at_the_declarers_first_trick():
    """[T3] a betl ends as soon as the declarer wins a trick: two or more tricks for him are
    refused; a made betl (no trick) is played to the end: tricks adding up to 9 are refused."""
    pad = ScorePad(load_variant(PREF))
    facts, log = entered(pad, ["betl", "P0", "-", "2 4 4", "0 5 4", "1 5 3"])
    assert refusals(log)[0].startswith("tricks: play stops at once when the contract is a null")
    assert refusals(log)[1].startswith("tricks add up to 9, but a hand has 10")
    assert pad.next_question(facts) is None and facts["tricks"] == [1, 5, 3]
    row = pad.add(facts)   # [S5] betl failed: +12, soups 60 each
    assert row.entries == (12, 0, 0) and [a.value for a in row.against] == [60, 60]


def test_f5_kontra_only_by_a_playing_defender():
    """[F5] a playing defender says kontra: the one who passed is refused."""
    pad = ScorePad(load_variant(PREF))
    facts, log = entered(pad, ["herc", "P0", "follow pass", "kontra", "P2", "P1", "6 3 1"])
    assert refusals(log) == ["kontra by: P2 passed: a defender who plays says kontra (expected P1)"]
    assert facts["phase:defence:kontra_by"] == 1
    row = pad.add(facts)   # herc made x2 (-16); P1's kontra with 4 tricks of 5: soup 4 x 16, he fails (+16)
    assert row.entries == (-16, 16, 0) and [(a.column, a.value) for a in row.against] == [(1, 64)]


BOSTON = "boston"


def test_boston_declarer_is_not_his_own_partner_and_nothing_is_lost():
    """[B5] the declarer cannot be his own partner: refused with the reason, the answers before
    kept, the next answer taken (a partner for 5 tricks: 8 together)."""
    pad = ScorePad(load_variant(BOSTON))
    facts, log = entered(pad, ["s", "5H", "N", "N", "S", "4 2 4 3"])
    assert refusals(log) == ["the declarer cannot be his own partner (expected another player, or none)"]
    assert [p for p, *_ in log] == ["first suit", "contract", "declarer", "partner", "partner", "tricks N E S W"]
    assert facts["partner"] == 2 and pad.next_question(facts) is None


@pytest.mark.parametrize("contract,bad,good,reason", [
    ("BN", "3 4 3 3", "1 4 4 4", "tricks: play stops at once when the contract is a null"),   # [T3] [S2] ex. 3
    ("7H", "7 2 2 1", "7 2 2 2", "tricks add up to 12, but a hand has 13"),
    ("LN", "0 4 4 4", "0 4 4 5", "tricks add up to 12, but a hand has 13"),   # a made little null: 13 tricks
])
def test_boston_tricks_follow_the_end_of_play(contract, bad, good, reason):
    """[T3] a null ends as soon as the declarer wins a trick (3 tricks for him are refused); a
    trump game is played out (12 in all refused); a made little null too (the three others
    play the 13th trick)."""
    pad = ScorePad(load_variant(BOSTON))
    facts, log = entered(pad, ["s", contract, "N", bad, good])
    assert len(refusals(log)) == 1 and refusals(log)[0].startswith(reason)
    assert pad.next_question(facts) is None


def test_bridge_honours_asked_only_when_they_can_score():
    """[S7] four or five trump honours in one hand score: after NS say 4, EW hold at most one and
    are not asked; after NS say 1 they are (0 to 4)."""
    pad = ScorePad(load_variant("bridge"))
    facts, log = entered(pad, ["4S", "N", "-", "10", "4"])
    assert pad.next_question(facts) is None and facts["tally:honours:1"] == 0
    pad = ScorePad(load_variant("bridge"))
    facts, log = entered(pad, ["4S", "N", "-", "10", "1"])
    q = pad.next_question(facts)
    assert (q.prompt, q.help) == ("honours EW", "a number from 0 to 4")


SIDE_TRICKS = """
id: side-tricks-only
name: Side tricks only
players: 4
seats: [N, E, S, W]
deck: {suits: [S, H, D, C], ranks: ["7", "8", "9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9 8 7"}
phases:
  deal: {kind: deal, pattern: "4 4"}
  auction:
    kind: list_auction
    contracts:
      - {tricks: 5, trumps: each, value: "10", partner: true}
  partner: {kind: call_partner}
  play: {kind: tricks, lead: declarer}
scoring:
  tallies:
    queen: {cards: QC, in: tricks}
  declarer: "if side_tricks >= 5 then 10 + queen else -10"
  defender: "0"
match: {deals: 4}
"""


def test_formulas_reading_only_side_tricks_ask_tricks(tmp_path):
    """A variant whose formulas read only ``side_tricks`` is asked the tricks (a Schafkopf-like
    file scored every hand as if no trick was taken); a tally of one card (the queen of clubs)
    is counted once in all."""
    f = tmp_path / "side.yaml"
    f.write_text(SIDE_TRICKS)
    pad = ScorePad(load_variant(str(f)))
    facts, log = entered(pad, ["5S", "N", "S", "3 1 2 2", "N"])
    assert [p for p, *_ in log] == ["contract", "declarer", "partner", "tricks N E S W", "queen: who"]
    assert not refusals(log) and pad.next_question(facts) is None
    with pytest.raises(FactError, match="queen: 2 in all, but the pack has only 1"):
        pad.add(dict(facts, **{"tally:queen:1": 1}))
    row = pad.add(facts)
    assert row.entries == (11, 0, 10, 0)   # the queen is in the declarer's column only
