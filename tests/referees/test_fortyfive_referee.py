"""The Forty-Five referee against docs/rules/fortyfive.md: every worked example, then random play."""
from __future__ import annotations

import random

import pytest

from tests.referees import fortyfive as ff
from tests.referees.fortyfive import Deal


def deal_with(turnup: str, dealer: int, *hands: str) -> Deal:
    cards = [h.split() for h in hands]
    used = set(sum(cards, [])) | {turnup}
    stock = [c for c in ff.PACK if c not in used]
    return Deal(cards, {"turnup": [turnup], "stock": stock}, dealer)


def legal_to(turnup: str, hand: str, *led: str) -> set[str]:
    """The cards seat 0 may play to a trick where ``led`` was played first (seats 1, 2, ...)."""
    d = deal_with(turnup, 3, hand)
    d.leader = 1
    d.trick = [(1 + i, c) for i, c in enumerate(led)]
    return set(d.legal_cards(0))


def test_example1_ranking():
    """[FF-R1][FF-R2][FF-R3]: top trumps 5, J, A♥, A; then highest in red, lowest in black."""
    order = ff.trump_order("S")
    assert order[:8] == ["5S", "JS", "AH", "AS", "KS", "QS", "2S", "3S"] and order[-1] == "10S"
    assert len(order) == 14
    hearts = ff.trump_order("H")
    assert len(hearts) == 13 and hearts[:4] == ["5H", "JH", "AH", "KH"] and hearts[-1] == "2H"
    diamonds = ff.trump_order("D")
    assert diamonds[:6] == ["5D", "JD", "AH", "AD", "KD", "QD"] and "5D" not in diamonds[6:]
    assert ff.plain_order("D")[:4] == ["KD", "QD", "JD", "10D"] and ff.plain_order("D")[-1] == "AD"
    assert ff.plain_order("C")[:5] == ["KC", "QC", "JC", "AC", "2C"] and ff.plain_order("C")[-1] == "10C"
    assert "AH" not in ff.plain_order("H") and len(ff.plain_order("H")) == 12


def test_example2_plain_lead_follow_or_trump():
    """[FF-T2][FF-R1]: follow suit or trump; void, anything; the A♥ is a trump, not a heart."""
    assert legal_to("7S", "8D 3S KH", "4D") == {"8D", "3S"}
    assert legal_to("7S", "3S KH 2C", "4D") == {"3S", "KH", "2C"}
    assert legal_to("7S", "AH 2H 3C", "4H") == {"2H", "AH"}


def test_example3_reneging_top_trumps():
    """[FF-T3]: 5, J, A♥ may be kept back from a lower trump led, judged against the card led."""
    assert legal_to("7S", "5S AH 7D", "9S") == {"5S", "AH", "7D"}
    assert legal_to("7S", "5S 3S KD", "9S") == {"5S", "3S"}
    assert legal_to("7S", "AH KD", "JS") == {"AH"}
    assert legal_to("7S", "5S KD", "JS") == {"5S", "KD"}
    assert legal_to("7S", "AH KD", "5S") == {"AH"}
    assert legal_to("7S", "AH KD", "AS") == {"AH", "KD"}
    # the privilege looks at the card led, not at the highest card already in the trick
    assert legal_to("7S", "AH KD", "AS", "JS") == {"AH", "KD"}


def test_example4_trick_winner():
    """[FF-T4]: the highest trump wins; without trumps the highest card of the suit led."""
    d = deal_with("7C", 3, "")
    assert d.trick_winner([(0, "KD"), (1, "2D"), (2, "AH"), (3, "10C")]) == 2
    assert d.trick_winner([(0, "KD"), (1, "2D"), (2, "5H"), (3, "AD")]) == 0
    assert d.trick_winner([(0, "2C"), (1, "10C"), (2, "9C"), (3, "KH")]) == 0  # black trumps low


def test_example5_turned_ace_dealer_robs():
    """[FF-X1]: a turned ace lets the dealer rob (or pass) before the opening lead."""
    d = deal_with("AS", 3, "KC 3S 9H 2C 4D", "QS 4H 8C 10S 2D", "JD KH 6C 2S 9D", "2H QD 7C 5S JH")
    assert d.to_move() == 3
    assert d.legal() == ["pass", "rob 2H", "rob 5S", "rob 7C", "rob JH", "rob QD"]
    d.apply("rob 2H")
    assert "AS" in d.hands[3] and "2H" not in d.hands[3] and d.discard == ["2H"]
    assert d.to_move() == 0 and all(a.startswith("play ") for a in d.legal())
    with pytest.raises(ValueError, match="FF-"):
        d.apply("rob KC")


def test_example6_whole_deal():
    """[FF-X2][FF-T1]-[FF-T5][FF-S1][FF-S2]: the page's deal, legal sets and entries 5/25/5/25."""
    d = deal_with("7D", 3, "AH KC 3S 9H 2C", "AD QS 4H 8C 10S", "JD KH 6C 2S 9D", "5D QD 7C 5S JH")
    assert d.to_move() == 0
    d.apply("play KC")
    assert d.legal() == sorted(["play 8C", "play AD"] + ["rob " + c for c in "AD QS 4H 8C 10S".split()])
    d.apply("rob 10S")
    assert d.legal() == ["play 7D", "play 8C", "play AD"]
    for a in ["play 7D", "play 6C", "play 7C"]:
        d.apply(a)
    assert d.to_move() == 1  # trick 1 to the 7♦
    d.apply("play AD")
    assert d.legal() == ["play 9D", "play JD"]
    d.apply("play 9D")
    d.apply("play QD")
    assert d.legal() == ["play 2C", "play 3S", "play 9H", "play AH"]  # the A♥ reneges
    d.apply("play 2C")
    assert d.to_move() == 1
    d.apply("play QS")
    assert d.legal() == ["play 2S", "play JD"]
    d.apply("play 2S")
    assert d.legal() == ["play 5D", "play 5S"]
    d.apply("play 5S")
    assert d.legal() == ["play 3S", "play AH"]
    d.apply("play 3S")
    assert d.to_move() == 1
    for a in ["play 4H", "play JD", "play 5D", "play 9H"]:
        d.apply(a)
    assert d.to_move() == 3
    for a in ["play JH", "play AH", "play 8C", "play KH"]:
        d.apply(a)
    assert d.is_over() and d.to_move() == -1 and d.legal() == []
    r = d.result()
    assert r["scores"] == [5, 25, 5, 25]
    assert r["trick_winners"] == [1, 1, 1, 3, 0]
    assert r["best_trump"] == "5D" and r["best_trump_side"] == 1
    assert r["robbed_by"] == 1 and r["discard"] == ["10S"]


def test_tricks_only_house_option():
    """[FF-S2] house option: without the best-trump bonus a deal is worth 25."""
    d = deal_with("7D", 3, "AH KC 3S 9H 2C", "AD QS 4H 8C 10S", "JD KH 6C 2S 9D", "5D QD 7C 5S JH")
    d.options["best_trump_bonus"] = 0
    for a in ["play KC", "rob 10S", "play 7D", "play 6C", "play 7C", "play AD", "play 9D", "play QD",
              "play 2C", "play QS", "play 2S", "play 5S", "play 3S", "play 4H", "play JD", "play 5D",
              "play 9H", "play JH", "play AH", "play 8C", "play KH"]:
        d.apply(a)
    assert d.result()["scores"] == [5, 20, 5, 20]


def test_example7_game_to_45():
    """[FF-G1][FF-G2]: the first side to 45 at a deal's end; both over: higher; equal: play on."""
    assert ff.match_winner([[25, 20, 25, 20], [15, 15, 15, 15], [10, 20, 10, 20]]) == 1
    assert ff.match_winner([[30, 0, 30, 0], [0, 30, 0, 30], [15, 15, 15, 15]]) is None
    assert ff.match_winner([[30, 0, 30, 0], [15, 15, 15, 15]]) == 0
    assert ff.match_winner([[20, 10, 20, 10], [20, 10, 20, 10]]) is None


def test_random_play_conserves_cards_and_scores_30():
    """Random legal play to the end: 52 cards accounted for, 30 points a deal (25 if no trump)."""
    rng = random.Random(45)
    deals = robs = 0
    for n in range(2000):
        dealer = n % 4
        hands, extra = ff.deal_random(rng, dealer)
        assert sorted(sum(hands, []) + extra["turnup"] + extra["stock"]) == sorted(ff.PACK)
        d = Deal(hands, extra, dealer)
        while not d.is_over():
            seat = d.to_move()
            acts = d.legal()
            assert acts == sorted(acts) and acts
            d.apply(rng.choice(acts))
            assert all(len(h) + sum(1 for t in d.tricks for s, _ in t if s == p) + sum(1 for s, _ in d.trick if s == p)
                       == 5 for p, h in enumerate(d.hands)), seat
        r = d.result()
        played = [c for t in d.tricks for _, c in t]
        rest = ([d.turnup] if d.turnup else []) + d.discard + d.stock
        assert sorted(played + rest) == sorted(ff.PACK)
        assert sum(r["side_tricks"]) == 5
        assert sum(r["side_points"]) == (30 if r["best_trump"] else 25)
        assert r["scores"][0] == r["scores"][2] and r["scores"][1] == r["scores"][3]
        deals += 1
        robs += r["robbed_by"] is not None
    assert deals == 2000 and robs > 300
