"""The Schnapsen referee against docs/rules/schnapsen.md: every worked example, then random play."""
from __future__ import annotations

import random

import pytest

from tests.referees import schnapsen as sn
from tests.referees import stockgame
from tests.referees.schnapsen import Deal
from tests.referees.stockgame_checks import check_stock_game, random_deals, run

STOCK = "AD QS KC JD 10C KD JS AC QD".split()


def example2() -> Deal:
    return Deal(["KH QH AS 10S JC".split(), "AH JH KS QC 10D".split()],
                {"stock": list(STOCK), "trump": ["10H"]}, dealer=1)


TRICKS_1_2 = ("meld KH QH", "play QH", "play AH", "exchange", "play 10D", "play KH")


def test_example1_pack():
    """[SN-P1][SN-P2]: 20 cards, A 10 K Q J, 120 card points."""
    assert len(sn.PACK) == 20 and sum(stockgame.VALUES[stockgame.rank(c)] for c in sn.PACK) == 120
    assert sn.RULES.ranks == ("A", "10", "K", "Q", "J")


def test_example2_deal_draw_exchange_marriage_claim():
    """[SN-T1]..[SN-T4][SN-X1][SN-M1][SN-M2][SN-G1][SN-S1]: the page's deal to a claim of 2."""
    d = example2()
    assert d.to_move() == 0 and d.trump == "H"
    assert d.legal() == ["claim", "close", "meld KH QH", "play 10S", "play AS", "play JC",
                         "play KH", "play QH"]
    d.apply("meld KH QH")
    assert d.legal() == ["claim", "play KH", "play QH"] and d.points(0) == 0
    d.apply("play QH")
    assert d.to_move() == 1 and d.legal() == sorted("play " + c for c in "AH JH KS QC 10D".split())
    d.apply("play AH")
    assert d.draws == [(1, "AD"), (0, "QS")] and d.points(1) == 14 and d.to_move() == 1
    assert "exchange" in d.legal()
    d.apply("exchange")
    assert d.turnup == "JH" and "10H" in d.hands[1]
    run(d, "play 10D", "play KH")
    assert d.points(0) == 54 and d.draws[2:] == [(0, "KC"), (1, "JD")]
    run(d, "play AS", "play KS")
    assert d.points(0) == 69
    d.apply("claim")
    r = d.result()
    assert d.is_over() and d.to_move() == -1 and r["scores"] == [2, 0] and r["claim_made"]
    assert r["tricks"] == [2, 1] and r["marriages"] == [[("H", 40)], []]


def test_follower_may_not_exchange_and_jack_needed():
    """[SN-X1]: only the player on lead, holding the trump jack."""
    d = example2()
    assert "exchange" not in d.legal()
    d.apply("play JC")
    assert "exchange" not in d.legal()


def test_example3_closing_strict_play_and_scoring():
    """[SN-C1]..[SN-C3][SN-T5][SN-S3]: closing freezes the talon and the opponent's figures."""
    d = run(example2(), *TRICKS_1_2)
    d.apply("close")
    assert d.closed_by == 0 and d.at_close == (1, 14)
    assert "exchange" not in d.legal() and "close" not in d.legal()
    assert "meld" not in " ".join(d.legal())  # no marriage in hand
    d.apply("play AS")
    assert d.legal() == ["play KS"]
    d.apply("play KS")
    assert len(d.draws) == 4 and len(d.hands[0]) == 4  # nobody drew
    d.apply("claim")
    assert d.result()["scores"] == [2, 0]
    d2 = run(example2(), *TRICKS_1_2, "close", "play JC")
    assert d2.legal() == ["play QC"]  # heads the jack
    d3 = run(example2(), *TRICKS_1_2, "close", "claim")
    assert d3.result()["scores"] == [0, 2] and not d3.result()["claim_made"]


def test_strict_follow_trump_when_void():
    """[SN-T5]: void in the suit led, the second player must trump; with neither, any card."""
    d = run(example2(), *TRICKS_1_2, "close", "play AS", "play KS", "play 10S")
    assert d.hands[1] == ["QC", "AD", "10H", "JD"] and d.legal() == ["play 10H"]
    d2 = run(example2(), *TRICKS_1_2, "close", "play JC", "play QC", "play AD")
    assert d2.legal() == sorted("play " + c for c in d2.hands[0])  # no diamond, no trump


def test_example4_marriage_needs_a_trick():
    """[SN-M2][SN-S2]: 40 declared without a trick do not count; the failed claim scores 3."""
    d = run(example2(), "meld KH QH", "claim")
    r = d.result()
    assert r["scores"] == [0, 3] and r["points"] == [0, 0] and r["claim_made"] is False


def test_example5_played_out_last_trick_wins():
    """[SN-S5]: no claim, neither at 66: the winner of the last trick scores 1."""
    d = example2()
    d.hands = [[], []]
    d.won = ["AS 10S KS QS JS AH 10H KC QC JC".split(), "AD 10D KD QD JD AC 10C KH QH JH".split()]
    assert [d.points(0), d.points(1)] == [60, 60]
    d.tricks, d.last_winner, d.turnup, d.stock = [5, 5], 0, None, []
    d.end_of_play()
    assert d.result()["scores"] == [1, 0] and d.result()["reason"] == "last trick"


def test_example6_bummerl():
    """[SN-B1]: the first to 7 game points."""
    assert sn.match_winner([[2, 0], [1, 0], [0, 3], [3, 0], [1, 0]]) == 0
    assert sn.match_winner([[2, 0], [1, 0], [0, 3], [3, 0]]) is None


def test_illegal_action_names_the_rule():
    """Illegal actions are refused with the rule ids of the page."""
    d = example2()
    with pytest.raises(ValueError, match="SN-"):
        d.apply("exchange")


def test_late_exchange_house_option():
    """House option: no exchange and no closing with only the turn-up and one card left."""
    rng = random.Random(7)
    for n in range(200):
        hands, extra = sn.deal_random(rng, n % 2)
        d = Deal(hands, extra, n % 2, {"late_exchange": False})
        while not d.is_over():
            if len(d.stock) == 1 and not d.trick:
                assert "close" not in d.legal() and "exchange" not in d.legal()
            d.apply(rng.choice([a for a in d.legal() if a != "claim"] or d.legal()))


def test_random_play():
    """Random legal play: cards conserved, stock drawn in order, 120 card points played out."""
    counts = {"claims": 0, "closed": 0, "exchanges": 0, "played out": 0}
    n = 0

    def closing_rules(d: Deal) -> None:
        acts = d.legal()
        if d.strict():  # [SN-C2][SN-X1]: no exchange, no second close, no draw
            assert "exchange" not in acts and "close" not in acts
        if not d.trick and not d.pending:
            assert "claim" in acts
    for start, d in random_deals(sn, 1500, 66, closing_rules):
        check_stock_game(sn, d, start)
        r = d.result()
        counts["claims"] += r["claimer"] is not None
        counts["closed"] += r["closed_by"] is not None
        counts["exchanges"] += r["exchanged_by"] is not None
        counts["played out"] += not d.hands[0] and not d.hands[1]
        n += 1
    assert n == 1500 and min(counts.values()) > 50, counts
