"""The Sixty-Six referee against docs/rules/sixtysix.md: every worked example, then random play."""
from __future__ import annotations

import collections

from tests.referees import sixtysix as ss
from tests.referees import stockgame
from tests.referees.sixtysix import Deal
from tests.referees.stockgame_checks import check_stock_game, random_deals, run

STOCK = "10S JS KC QC AC 9H JH KD QD 10D 9D".split()


def example2() -> Deal:
    return Deal(["KS QS AH 10H JC 9C".split(), "9S KH QH 10C JD AD".split()],
                {"stock": list(STOCK), "trump": ["AS"]}, dealer=0)


def test_example1_pack():
    """[SS-P1][SS-P2]: 24 cards with the nines, 120 card points, nines worth nothing."""
    assert len(ss.PACK) == 24 and sum(stockgame.VALUES[stockgame.rank(c)] for c in ss.PACK) == 120
    assert stockgame.VALUES["9"] == 0 and ss.RULES.ranks[-1] == "9"


def test_deal_random_six_each_thirteenth_turned():
    """[SS-D1][SS-D2]: 3+3 twice from the dealer's opponent, the 13th card turned, 11 in stock."""
    import random
    hands, extra = ss.deal_random(random.Random(3), dealer=0)
    assert [len(h) for h in hands] == [6, 6] and len(extra["stock"]) == 11 and len(extra["trump"]) == 1
    assert sorted(hands[0] + hands[1] + extra["stock"] + extra["trump"]) == sorted(ss.PACK)


def test_example2_marriages_and_schwarz_claim():
    """[SS-X1][SS-M1][SS-M2][SS-T4][SS-G1][SS-S1]: no exchange before a trick; a claim of 3."""
    d = example2()
    assert d.to_move() == 1
    assert "exchange" not in d.legal() and "meld KH QH" in d.legal()
    run(d, "meld KH QH", "play KH", "play AH")
    assert d.points(0) == 15 and d.points(1) == 0 and d.draws == [(0, "10S"), (1, "JS")]
    d.apply("meld KS QS")
    assert d.points(0) == 55
    run(d, "play QS", "play AD")
    assert d.points(0) == 69 and d.draws[2:] == [(0, "KC"), (1, "QC")]
    d.apply("claim")
    r = d.result()
    assert r["scores"] == [3, 0] and r["points"] == [69, 0] and r["marriages"][1] == [("H", 20)]


def test_example3_exchange_after_a_trick_then_close():
    """[SS-X1][SS-C1][SS-M3]: the nine exchanged by the leader with a trick; no meld after closing."""
    d = run(example2(), "play 10C", "play 9C")
    assert d.to_move() == 1 and d.points(1) == 10 and d.draws == [(1, "10S"), (0, "JS")]
    assert "exchange" in d.legal() and "meld KH QH" in d.legal()
    d.apply("exchange")
    assert d.turnup == "9S" and "AS" in d.hands[1]
    d.apply("close")
    assert not any(a.startswith("meld") for a in d.legal()) and "exchange" not in d.legal()
    run(d, "play AD", "play JS")
    assert len(d.draws) == 2  # nobody draws after the close


def test_example4_last_trick_and_65_65():
    """[SS-S5][SS-S6]: the last trick's 10 points; 65-65 scores nothing."""
    def played_out(won0: str, won1: str, last: int, closed: bool = False) -> dict:
        d = example2()
        d.hands, d.stock, d.turnup = [[], []], [], None
        d.won = [won0.split(), won1.split()]
        d.tricks, d.last_winner = [len(d.won[0]) // 2, len(d.won[1]) // 2], last
        if closed:
            d.closed_by, d.at_close = last, (1, 10)
        d.end_of_play()
        return d.result()
    cards55 = "AS 10S KS QS JS AH 10H KH 9S 9H"  # 55
    cards65 = "AD 10D KD QD JD AC 10C KC QC JC QH JH 9C 9D"  # 65
    r = played_out(cards55, cards65, last=0)
    assert r["points"] == [65, 65] and r["scores"] == [0, 0] and r["winner"] is None
    cards60a = "AS 10S KS QS JS AH 10H KC QC JC 9S 9H"  # 60
    cards60b = "AD 10D KD QD JD AC 10C KH QH JH 9C 9D"  # 60
    r = played_out(cards60a, cards60b, last=0)
    assert r["points"] == [70, 60] and r["scores"] == [1, 0]
    r = played_out(cards60a, cards60b, last=0, closed=True)
    assert r["points"] == [60, 60] and r["scores"] == [0, 2]  # the closer fell short


def test_example5_game_to_seven():
    """[SS-B1]: seven game points win."""
    assert ss.match_winner([[0, 3], [0, 2], [1, 0], [0, 2]]) == 1
    assert ss.match_winner([[0, 3], [0, 2], [1, 0]]) is None


def test_random_play():
    """Random legal play: cards conserved, stock drawn in order, 120 + 10 when played out."""
    counts: collections.Counter = collections.Counter()
    def no_meld_when_strict(d: Deal) -> None:
        if d.strict():
            assert not any(a.startswith("meld") for a in d.legal())
    for start, d in random_deals(ss, 1500, 24, no_meld_when_strict):
        check_stock_game(ss, d, start)
        r = d.result()
        if r["closed_by"] is None and not d.hands[0] and not d.hands[1]:
            assert sum(r["card_points"]) + sum(r["last_trick_points"]) == 130
        counts[r["reason"]] += 1
        counts["exchange"] += r["exchanged_by"] is not None
    assert sum(counts[k] for k in counts if k != "exchange") == 1500
    assert counts["exchange"] > 50 and counts["claim made"] > 200
