"""The Skat referee against the worked examples of docs/rules/skat.md, and random play."""
from __future__ import annotations

import random

import pytest

from tests.referees import skat as S

A = ["JC JS JH JD AC 10C KC QC 9C 8C", "AS 10S KS QS 9S 8S 7S AH 10H KH",
     "AD 10D KD QD 9D 8D 7D QH 9H 8H", "7C 7H"]
B = ["AD 10D KD QD 9D 8D 7D AS 10S KS", "JS JH AC 10C KC QC 9C 8C 7C QS",
     "JD AH 10H KH QH 9H 8H 7H 9S 8S", "JC 7S"]
C = ["7C 8C 9C 7S 8S 9S 7H 8H 9H 7D", "JS JH AC 10C KC QC AS 10S KS QS",
     "JD AH 10H KH QH AD 10D KD QD 9D", "JC 8D"]
D = ["AC KC QC AS KS QS AH KH AD KD", "10C JC 9C 8C 7C 10S JS 9S 8S 7S",
     "QH 10H JH 9H 8H 7H QD 10D JD 9D", "8D 7D"]
E = ["AS 10S KS QS 9S 8S 7S AC 10C KC", "JD 7D 8D 9D AH 10H KH QH 9H 8H",
     "JC JS JH AD 10D KD QD 7H QC 9C", "8C 7C"]


def deal(rows: list[str], options: dict | None = None) -> S.Deal:
    """A deal from the page's notation; the dealer is seat 2, so FH 0, MH 1, RH 2."""
    return S.Deal([r.split() for r in rows[:3]], {"skat": rows[3].split()}, dealer=2, options=options)


def run(d: S.Deal, actions: list[str]) -> None:
    for a in actions:
        d.apply(a)


def play_out(d: S.Deal, rng: random.Random) -> None:
    while not d.is_over():
        d.apply(rng.choice(d.legal()))


def test_bid_values():
    """[SK-B2] 63 values from 18 to 264, the values games can have."""
    assert len(S.BID_VALUES) == 63
    assert S.BID_VALUES[:10] == [18, 20, 22, 23, 24, 27, 30, 33, 35, 36]
    assert S.BID_VALUES[-3:] == [216, 240, 264]


def test_auction_listener_and_speaker():
    """[SK-B3..B5][SK-B8] MH speaks to FH, then RH to the survivor; the last value held counts."""
    d = deal(A)
    assert d.to_move() == 1 and "bid 18" in d.legal() and "pass" in d.legal()
    d.apply("bid 18")
    assert d.to_move() == 0 and d.legal() == ["pass", "yes"]
    run(d, ["yes"])
    assert d.to_move() == 1 and "bid 18" not in d.legal() and "bid 20" in d.legal()
    run(d, ["bid 20", "pass"])           # FH passes: MH survives at 20
    assert d.to_move() == 2
    assert min(int(a.split()[1]) for a in d.legal() if a.startswith("bid")) == 22
    run(d, ["bid 22", "yes", "bid 23", "pass"])  # MH holds 22, passes on 23
    assert d.declarer == 2 and d.bid == 23 and d.to_move() == 2
    assert d.legal() == ["hand", "take skat"]
    with pytest.raises(ValueError, match="SK-"):
        deal(A).apply("bid 19")          # not a game value


def test_all_pass_throws_in():
    """[SK-B6][SK-B7] MH and RH pass without a value; FH may bid 18 or pass; all pass: thrown in."""
    d = deal(A)
    run(d, ["pass", "pass"])
    assert d.to_move() == 0 and d.legal() == ["bid 18", "pass"]
    d.apply("pass")
    r = d.result()
    assert d.is_over() and r["thrown_in"] and r["scores"] == [0, 0, 0]


def test_clubs_ouvert_with_eleven():
    """[SK-G5][SK-V3][SK-V4] Deal A: clubs ouvert with 11 = 18 x 12 = 216; any card to the J♣."""
    for options, score in ((None, 216), ({"seeger_fabian": True}, 266)):
        d = deal(A, options)
        run(d, ["pass", "pass", "bid 18", "hand"])
        assert "game clubs ouvert" in d.legal()
        run(d, ["game clubs ouvert", "play JC"])
        assert len(d.legal()) == 10      # MH has no trump: any card
        play_out(d, random.Random(4))
        r = d.result()
        assert (r["matadors"], r["with_"], r["multiplier"], r["value"]) == (11, True, 18, 216)
        assert r["won"] and r["tricks"] == [10, 0, 0] and r["card_points"]["declarer"] == 120
        assert r["scores"] == [score, 0, 0]


def test_announcement_must_reach_the_bid():
    """[SK-G6] Deal B: bid 45, the J♣ in the skat: only clubs, grand and null ouvert remain."""
    for discard in ("discard 7S KS", "discard 7S JC"):   # a discarded J♣ still counts [SK-V3]
        d = deal(B)
        run(d, ["bid 45", "yes", "pass", "pass", "take skat", discard])
        assert d.legal() == ["game clubs", "game grand", "game null ouvert"]
        with pytest.raises(ValueError, match="SK-G6"):
            d.apply("game diamonds")


def test_overbid_by_the_skat_jack():
    """[SK-V3][SK-V5] Deal C: grand hand at 144 becomes "with 1": value 120, valued 144, -288."""
    for options, scores in ((None, [-288, 0, 0]), ({"seeger_fabian": True}, [-338, 40, 40])):
        d = deal(C, options)
        run(d, ["bid 144", "yes", "pass", "pass", "hand", "game grand"])
        play_out(d, random.Random(7))
        r = d.result()
        assert r["tricks"][0] == 0 and r["card_points"]["declarer"] == 2
        assert (r["matadors"], r["with_"], r["multiplier"], r["value"]) == (1, True, 5, 120)
        assert r["overbid"] and r["scored_value"] == 144 and not r["won"]
        assert r["scores"] == scores


@pytest.mark.parametrize("game,score", [("game null", 35), ("game null ouvert", 59)])
def test_null_hand_won(game, score):
    """[SK-V6][SK-S4] Deal C: FH cannot take a trick: null hand +35, null ouvert hand +59."""
    d = deal(C)
    run(d, ["pass", "pass", "bid 18", "hand", game])
    play_out(d, random.Random(3))
    r = d.result()
    assert r["won"] and r["tricks"][0] == 0 and r["scores"] == [score, 0, 0]


def test_null_stops_at_the_declarers_first_trick():
    """[SK-P5][SK-S5] Deal D: FH wins the first trick whatever he leads: over, null hand -70."""
    for lead in ("QC", "KH", "AD"):
        d = deal(D)
        run(d, ["pass", "pass", "bid 18", "hand", "game null", "play " + lead])
        play_out(d, random.Random(1))
        r = d.result()
        assert len(d.tricks) == 1 and r["tricks"] == [1, 0, 0] and r["scores"] == [-70, 0, 0]


def test_jacks_follow_the_trumps():
    """[SK-C3][SK-P2] Deal E, spades: to A♠ MH must play his J♦; RH any of his three jacks."""
    d = deal(E)
    run(d, ["pass", "pass", "bid 18", "hand", "game spades", "play AS"])
    assert d.legal() == ["play JD"]
    with pytest.raises(ValueError, match="SK-P2"):
        d.apply("play 7D")
    d.apply("play JD")
    assert d.legal() == ["play JC", "play JH", "play JS"]
    # In null the J♦ is a diamond; in spades it is no diamond.
    assert S.follow_suit("JD", "null") == "D" and S.follow_suit("JD", "S") == "T"
    assert S.follow_suit("JD", "grand") == "T" and S.follow_suit("AS", "grand") == "S"


def test_game_values():
    """[SK-V1..V4][SK-S5] The page's value examples."""
    def ev(game, m, points, tricks=5, bid=18, hand=False, sch=False, schw=False, ouv=False):
        return S.evaluate(game, bid, m, hand, sch, schw, ouv, points, tricks)

    assert ev("C", 2, 70)["value"] == 36
    assert ev("grand", 2, 70, hand=True)["value"] == 96
    assert ev("H", 1, 92)["value"] == 30
    r = ev("S", 3, 50)
    assert (r["value"], r["won"]) == (44, False)
    assert ev("grand", 4, 120, 10, hand=True, sch=True, schw=True, ouv=True)["value"] == 264
    r = ev("C", 1, 100, 9, hand=True, sch=True, schw=True)
    assert (r["value"], r["won"]) == (84, False)
    r = ev("grand", 1, 28, 2)
    assert (r["value"], r["won"]) == (72, False)


def test_overbid_values():
    """[SK-V5] Bid 30, hearts with 1: 75 points lose valued 30; 95 points (schneider) win 30."""
    r = S.evaluate("H", 30, 1, False, False, False, False, 75, 6)
    assert (r["value"], r["overbid"], r["won"], r["scored_value"]) == (20, True, False, 30)
    r = S.evaluate("H", 30, 1, False, False, False, False, 95, 8)
    assert (r["value"], r["overbid"], r["won"], r["scored_value"]) == (30, False, True, 30)


def test_null_values():
    """[SK-V6] 23 / 35 / 46 / 59."""
    assert [S.evaluate_null(h, o, 0, 18)["value"] for h, o in
            ((False, False), (True, False), (False, True), (True, True))] == [23, 35, 46, 59]
    assert not S.evaluate_null(False, False, 1, 18)["won"]


def test_matadors():
    """[SK-V3] with / without, counted down the trump sequence."""
    assert S.matadors(["JC", "JS", "AH"], "H") == (2, True)
    assert S.matadors(["JH", "AH"], "H") == (2, False)
    assert S.matadors(["JC", "JS", "JH", "JD"], "grand") == (4, True)
    assert S.matadors(["AD"], "grand") == (4, False)


def test_match_winner():
    """[SK-M1][SK-M2] A fixed number of deals; the highest total wins."""
    entries = [[36, 0, 0], [0, -88, 0], [0, 0, 0]]
    assert S.match_winner(entries[:2], {"deals": 3}) is None
    assert S.match_winner(entries, {"deals": 3}) == [0]


def random_action(d: S.Deal, rng: random.Random) -> str:
    """Random legal play, bidding low so that games are varied and often made."""
    legal = d.legal()
    if d.phase == "bidding":
        limit = rng.choice([0, 18, 24, 36, 48])   # this player's appetite for the moment
        bids = [a for a in legal if a.startswith("bid") and int(a.split()[1]) <= limit][:2]
        if "yes" in legal:
            return "yes" if d.bid <= limit else "pass"
        return rng.choice(bids) if bids else "pass"
    if d.phase == "declare":              # each kind of game equally often
        kind = rng.choice(sorted({a.split()[1] for a in legal}))
        return rng.choice([a for a in legal if a.split()[1] == kind])
    return rng.choice(legal)


def test_random_play_keeps_the_rules():
    """Random deals to the end: cards conserved, 120 card points, scores as the rules give them."""
    rng = random.Random(20240522)
    seen = {"thrown": 0, "null": 0, "won": 0, "lost": 0, "hand": 0}
    for i in range(400):
        hands, extra = S.deal_random(rng, i % 3)
        assert sorted(sum(hands, []) + extra["skat"]) == sorted(S.deck())
        options = {"seeger_fabian": bool(i % 2)}
        d = S.Deal(hands, extra, i % 3, options)
        while not d.is_over():
            assert d.legal(), "a live deal always has a legal action"
            d.apply(random_action(d, rng))
        r = d.result()
        if r["thrown_in"]:
            seen["thrown"] += 1
            assert r["scores"] == [0, 0, 0]
            continue
        played = [c for t in d.tricks for c in t[1]]
        left = sum(d.hands, [])
        assert sorted(played + left + d.skat_pile) == sorted(S.deck())
        assert len(played) == len(set(played))
        dcl = r["declarer"]
        if r["game"] == "null":
            seen["null"] += 1
            assert r["won"] == (r["tricks"][dcl] == 0)
        else:
            assert not left and len(d.tricks) == 10
            defenders = sum(S.points(d.won[s]) for s in range(3) if s != dcl)
            assert r["card_points"]["declarer"] + defenders == 120
            assert r["value"] == S.BASE[{"clubs": "C", "spades": "S", "hearts": "H",
                                         "diamonds": "D"}.get(r["game"], "grand")] * r["multiplier"]
        seen["hand"] += r["hand"]
        seen["won" if r["won"] else "lost"] += 1
        v = r["scored_value"]
        expect = v if r["won"] else -2 * v
        if options["seeger_fabian"]:
            expect += 50 if r["won"] else -50
            assert sum(r["scores"]) == expect + (0 if r["won"] else 80)
        assert r["scores"][dcl] == expect
    assert all(seen.values()), seen
