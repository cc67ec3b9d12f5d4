"""The French Tarot referee against docs/rules/tarot.md: every worked example, then random play."""
from __future__ import annotations

import random

import pytest

from tests.referees import tarot as ta
from tests.referees.tarot import Deal

SPADES = [r + "S" for r in ta.RANKS]
HEARTS = [r + "H" for r in ta.RANKS]
DIAMONDS = [r + "D" for r in ta.RANKS]
CLUBS = [r + "C" for r in ta.RANKS]
TR = [f"T{n}" for n in range(22)]  # TR[n] == "Tn"


def slam_deal(dog_king: bool = False) -> dict[str, list[str]]:
    """The plain cards of worked examples 5 and 6 (by holder)."""
    zero = DIAMONDS[4:] + CLUBS[:8]
    dog = CLUBS[8:]
    if dog_king:  # example 7: K♣ to the dog, 6♣ to seat 0
        zero = DIAMONDS[4:] + CLUBS[1:9]
        dog = ["KC"] + CLUBS[9:]
    return {"two": SPADES + HEARTS[:2], "three": HEARTS[2:] + DIAMONDS[:4], "zero": zero, "dog": dog}


def example5() -> Deal:
    p = slam_deal()
    hands = [p["zero"], TR[4:22], ["T1", "EX"] + p["two"], ["T2", "T3"] + p["three"]]
    return Deal(hands, {"dog": p["dog"]}, dealer=0)


def example6(dog_king: bool = False) -> Deal:
    p = slam_deal(dog_king)
    hands = [p["zero"], ["T2", "T3"] + p["two"], ["EX", "T1"] + TR[6:22], ["T4", "T5"] + p["three"]]
    return Deal(hands, {"dog": p["dog"]}, dealer=0)


def play_first_legal_except(d: Deal, taker_cards: list[str], defence_choice=None) -> None:
    """The taker plays ``taker_cards`` in order; a defender plays ``defence_choice(seat, legal)``
    or else his first legal card."""
    cards = iter(taker_cards)
    while not d.is_over():
        seat = d.to_move()
        plays = [a for a in d.legal() if a.startswith("play ")]
        if seat == d.taker:
            d.apply("play " + next(cards))
        else:
            pick = defence_choice(seat, plays) if defence_choice else None
            d.apply(pick or plays[0])


def test_card_points_total_91():
    """[TA-C1][TA-C2][TA-C3]: 78 cards, 182 half points."""
    assert len(ta.PACK) == 78 and len(set(ta.PACK)) == 78
    assert sum(ta.halves(c) for c in ta.PACK) == 182
    assert [ta.halves(c) for c in ("T21", "T1", "EX", "KS", "QS", "CS", "JS", "10S", "T20")] == [9, 9, 9, 9, 7, 5, 3, 1, 1]


def test_example1_bidding():
    """[TA-B1][TA-B2][TA-B3]: each speaks once, higher or pass; four passes score nothing."""
    rng = random.Random(1)
    hands, extra = ta.deal_random(rng, 3)
    while any(ta.petit_sec(h) for h in hands):
        hands, extra = ta.deal_random(rng, 3)
    d = Deal(hands, extra, dealer=3)
    assert d.to_move() == 0
    assert d.legal() == ["bid garde", "bid garde contre", "bid garde sans", "bid prise", "pass"]
    d.apply("bid garde")
    assert d.to_move() == 1 and d.legal() == ["bid garde contre", "bid garde sans", "pass"]
    with pytest.raises(ValueError, match="TA-B2"):
        d.apply("bid prise")
    d2 = Deal(hands, extra, dealer=3)
    for _ in range(4):
        d2.apply("pass")
    assert d2.is_over() and d2.result()["scores"] == [0, 0, 0, 0] and d2.result()["passed"]


def test_example2_petit_sec():
    """[TA-D3]: the Petit alone, without the Excuse, annuls the deal."""
    d = example5()
    hands = [list(h) for h in d.hands]
    hands[2].remove("EX")
    hands[3].append("EX")
    hands[2].append(hands[3].pop(2))  # seat 2: T1 and 17 suit cards
    sec = Deal(hands, {"dog": d.dog}, dealer=0)
    assert sec.annulled and sec.is_over() and sec.to_move() == -1 and sec.legal() == []
    assert sec.result()["annulled"] and sec.result()["scores"] == [0, 0, 0, 0]
    assert not d.annulled  # T1 with the Excuse is not sec


def legal_to(hand: str, *trick: str) -> set[str]:
    d = example5()
    d.phase, d.taker, d.contract = "play", 1, "garde"
    d.hands[0] = hand.split()
    d.leader = 1
    d.trick = [(1 + i, c) for i, c in enumerate(trick)]
    return set(d.legal_cards((1 + len(trick)) % 4))


def test_example3_following():
    """[TA-P2][TA-P3][TA-P4][TA-E1]: follow; else trump and over-trump; the Excuse any time."""
    assert legal_to("2H KH T3 EX", "5H", "6H", "7H") == {"2H", "KH", "EX"}
    assert legal_to("T5 T12 KS EX", "5H", "T8", "6H") == {"T12", "EX"}
    assert legal_to("T5 KS", "5H", "T8", "6H") == {"T5"}
    assert legal_to("KS 4D", "5H", "T8", "6H") == {"KS", "4D"}
    assert legal_to("T3 T17 KS", "T10", "T15", "T2") == {"T17"}
    assert legal_to("T3 KS", "T10", "T15", "T2") == {"T3"}
    assert legal_to("2C T5", "EX", "7C", "8C") == {"2C"}


def test_example4_scores():
    """[TA-S1]..[TA-S7]: the page's eight scores, per defender."""
    T, D = ta.TAKER, ta.DEFENCE
    assert ta.score("garde", 49, 2) == 66
    assert ta.score("prise", 47, 1) == -29
    assert ta.score("garde contre", 36, 3) == 150
    assert ta.score("garde sans", 60, 0, petit_au_bout=D) == 76
    assert ta.score("garde", 40, 2, poignees=("simple",)) == -72
    assert ta.score("prise", 55, 1, poignees=("double",)) == 59
    assert ta.score("garde", 70, 2, chelem_announced=True) == -92
    assert ta.score("prise", 51, 1, petit_au_bout=T) == 35


def test_example5a_slam_excuse_kept_by_defence():
    """[TA-E2][TA-S6][TA-K4]: an early Excuse stays with the defence for a half point."""
    d = example5()
    for a in ["bid garde sans", "pass", "pass", "pass", "pass"]:
        d.apply(a)
    assert d.to_move() == 1
    d.apply("play T21")
    assert d.legal() == ["play EX", "play T1"]
    d.apply("play EX")
    play_first_legal_except(d, [f"T{n}" for n in range(20, 3, -1)])
    r = d.result()
    assert r["trick_winners"] == [1] * 18 and r["chelem"] == "taker" and not r["chelem_announced"]
    assert r["taker_points"] == 87 and r["defence_points"] == 4 and r["oudlers"] == 2
    assert r["petit_au_bout"] is None
    assert r["scores"] == [-484, 1452, -484, -484]


def test_example5b_excuse_on_last_trick_changes_sides():
    """[TA-E3]: the Excuse played to the last trick goes to the trick's winner."""
    d = example5()
    for a in ["bid garde sans", "pass", "pass", "pass", "pass"]:
        d.apply(a)
    keep = lambda seat, plays: next((p for p in plays if p != "play EX"), None) if seat == 2 else None  # noqa: E731
    play_first_legal_except(d, [f"T{n}" for n in range(21, 3, -1)], keep)
    assert "EX" in [c for _, c in d.tricks[17][0]]
    r = d.result()
    assert r["taker_points"] == 91 and r["oudlers"] == 3 and r["scores"][1] == 1560


def test_example6_announced_slam_excuse_led_last():
    """[TA-M1][TA-E3][TA-S4][TA-S6]: the announcer leads; the Excuse led last wins; Petit au bout."""
    d = example6()
    for a in ["pass", "bid garde", "pass", "pass"]:
        d.apply(a)
    assert d.to_move() == 2 and sorted(d.dog) == sorted(CLUBS[8:])
    assert d.legal() == sorted("discard " + c for c in CLUBS[8:])
    for c in CLUBS[8:]:
        d.apply("discard " + c)
    assert d.legal() == ["chelem", "pass"]
    d.apply("chelem")
    assert d.to_move() == 2
    play_first_legal_except(d, [f"T{n}" for n in range(21, 5, -1)] + ["T1", "EX"])
    r = d.result()
    assert r["trick_winners"] == [2] * 18 and r["petit_au_bout"] == "taker"
    assert r["taker_points"] == 91 and r["scores"] == [-580, -580, 1740, -580]


def test_example7_discard_rules():
    """[TA-K3]: no king, no oudler; trumps only for want of other cards."""
    d = example6(dog_king=True)
    for a in ["pass", "bid prise", "pass", "pass"]:
        d.apply(a)
    low_clubs = CLUBS[9:]
    assert set(d.legal()) == {"discard " + c for c in low_clubs + TR[6:21]}
    d.apply("discard T6")
    assert d.legal() == sorted("discard " + c for c in low_clubs)


def test_poignee_at_first_card_only():
    """[TA-H1][TA-H2]: shown before one's first card; the Excuse counts as a trump."""
    d = example6()
    for a in ["pass", "bid garde", "pass", "pass"] + ["discard " + c for c in CLUBS[8:]] + ["pass"]:
        d.apply(a)
    assert d.to_move() == 1  # no chelem announced: the player on the dealer's right leads
    assert not any(a.startswith("poignee") for a in d.legal())  # two trumps
    d.apply("play 2S")
    assert {"poignee simple", "poignee double", "poignee triple"} <= set(d.legal())  # EX + 17 trumps
    d.apply("poignee triple")
    assert not any(a.startswith("poignee") for a in d.legal())
    d.apply("play T21")


def test_random_play_91_points_and_zero_sum():
    """Random legal play: 78 cards accounted for, 91 points (whole on each side), entries sum to 0."""
    rng = random.Random(91)
    played = annulled = passed = 0
    seen: set[str] = set()
    for n in range(600):
        dealer = n % 4
        hands, extra = ta.deal_random(rng, dealer)
        assert sorted(sum(hands, []) + extra["dog"]) == sorted(ta.PACK)
        d = Deal(hands, extra, dealer)
        while not d.is_over():
            acts = d.legal()
            assert acts == sorted(acts) and acts
            bids = sorted((a for a in acts if a.startswith("bid")), key=lambda b: ta.BIDS.index(b[4:]))
            pick = rng.choice(acts)
            if d.phase == "bid":  # mostly the lowest bids, so that every contract is played
                pick = rng.choice(bids[:2]) if bids and rng.random() < 0.4 else "pass"
            if pick == "chelem" and rng.random() < 0.9:
                pick = "pass"
            d.apply(pick)
        r = d.result()
        assert sum(r["scores"]) == 0
        if r["annulled"]:
            annulled += 1
            continue
        if r["passed"]:
            passed += 1
            continue
        played += 1
        cards = [c for t, _ in d.tricks for _, c in t] + d.ecart + (d.dog if not d.ecart else [])
        assert sorted(cards) == sorted(ta.PACK)
        assert sum(r["side_halves"]) == 182 and r["taker_points"].is_integer()
        assert r["made"] == (r["taker_points"] >= r["threshold"])
        assert r["scores"][r["taker"]] % 3 == 0
        seen |= {r["contract"], f"au bout {r['petit_au_bout']}"}
    assert annulled + passed + played == 600 and played > 300
    assert set(ta.BIDS) | {"au bout taker", "au bout defence"} <= seen
