"""The Doppelkopf referee against the worked examples of docs/rules/doppelkopf.md, and random play."""
from __future__ import annotations

import random

import pytest

from tests.referees import doppelkopf as K

M = ["AC AC 10C 10C KC KC 9C 9C AS AS 10S 10S", "QC QC QH QH QD QD JC JC JS JS JH JH",
     "10H 10H QS QS JD JD AD AD 10D 10D KD KD", "KS KS 9S 9S AH AH KH KH 9H 9H 9D 9D"]
N = [M[0], "QC 9D QH QH QD QD JC JC JS JS JH JH", M[2], "KS KS 9S 9S AH AH KH KH 9H 9H 9D QC"]
Q = ["QC QC QS QS QH QH QD QD AC AC AS AS", "AH AH 10H 10H KH KH 9H 9H AD AD 10D 10D",
     "KD KD 9D 9D JC JC JS JS JH JH JD JD", "10C 10C KC KC 9C 9C 10S 10S KS KS 9S 9S"]
SOLOS = ["solo clubs", "solo diamonds", "solo fleshless", "solo hearts", "solo jacks",
         "solo queens", "solo spades"]
ANN = {"re", "kontra", "no 90", "no 60", "no 30", "schwarz"}


def deal(rows: list[str], **options) -> K.Deal:
    """A deal from the page's notation; the dealer is seat 3, so seat 0 is forehand."""
    return K.Deal([r.split() for r in rows], {}, dealer=3, options=options)


def run(d: K.Deal, actions: list[str]) -> None:
    for a in actions:
        d.apply(a)


def announcements(d: K.Deal) -> list[str]:
    return [a for a in d.legal() if a in ANN]


def finish(d: K.Deal, rng: random.Random) -> dict:
    """Play the rest with random cards and no more announcements."""
    while not d.is_over():
        d.apply(rng.choice([a for a in d.legal() if a.startswith("play")]))
    return d.result()


MARRIAGE = ["healthy", "reservation", "healthy", "healthy", "marriage"]


def test_equal_cards_and_the_second_dulle():
    """[DK-T5] The first of two 10♥ wins; house option: the second, or except in the last trick."""
    trick = ["10H", "10H", "QC", "9D"]
    assert K.trick_winner(trick, "normal") == 0
    assert K.trick_winner(trick, "normal", "always") == 1
    assert K.trick_winner(trick, "normal", "except_last", last_trick=False) == 1
    assert K.trick_winner(trick, "normal", "except_last", last_trick=True) == 0
    assert K.trick_winner(["AC", "AC", "10C", "9C"], "normal", "always") == 0


def test_trump_orders():
    """[DK-T1..T4] The trumps of each game, high to low."""
    assert K.trumps("normal") == ["10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD",
                                  "AD", "10D", "KD", "9D"]
    assert K.trumps("hearts")[-3:] == ["AH", "KH", "9H"] and len(K.trumps("hearts")) == 12
    assert K.trumps("spades")[-4:] == ["AS", "10S", "KS", "9S"]
    assert K.trumps("queens") == ["QC", "QS", "QH", "QD"] and K.trumps("fleshless") == []
    assert K.trick_winner(["KD", "9D", "AS", "QH"], "queens") == 3
    assert K.trick_winner(["JH", "AH", "10H", "KH"], "fleshless") == 1


def test_following_hearts():
    """[DK-T1][DK-T3][DK-P2] To A♥ the 10♥ is no heart (a trump), except in a queen solo."""
    assert K.follow_suit("10H", "normal") == "T" and K.follow_suit("KH", "normal") == "H"
    assert K.follow_suit("10H", "queens") == "H" and K.follow_suit("QH", "queens") == "T"
    d = deal(N)
    run(d, ["healthy"] * 4)
    assert d.kind == "normal" and d.legal()[-1] == "schwarz"   # seat 0 is Kontra: may announce
    run(d, ["play AC"])
    assert "play 9D" in d.legal()                               # seat 1 has no plain club


def test_queen_solo_schwarz():
    """[DK-R2][DK-A6][DK-V1][DK-V2][DK-V4] Deal Q: queen solo, schwarz said with 12 cards: 11."""
    d = deal(Q)
    d.apply("reservation")
    run(d, ["healthy"] * 3)
    assert d.to_move() == 0 and d.legal() == sorted(SOLOS + ["marriage"])
    d.apply("solo queens")
    assert d.to_move() == 0 and set(announcements(d)) == {"re", "no 90", "no 60", "no 30", "schwarz"}
    d.apply("schwarz")
    assert d.ann["re"] == {"said": True, "first": True, "level": 4}
    r = finish(d, random.Random(2))
    assert r["winner"] == "re" and r["card_points"] == {"re": 240, "kontra": 0}
    assert r["value"] == 11 and r["scores"] == [33, -11, -11, -11]
    assert not r["compulsory"] and r["soloist"] == 0


def test_marriage_partner_in_the_first_trick():
    """[DK-H2][DK-H5] Deal M: the first trick won by another player clarifies the marriage."""
    d = deal(M)
    run(d, MARRIAGE)
    assert d.to_move() == 0 and announcements(d) == []
    run(d, ["play AC", "play JH", "play 10H"])
    assert announcements(d) == []
    d.apply("play 9H")
    assert d.partner == 2 and d.to_move() == 2
    assert set(announcements(d)) == {"re", "no 90", "no 60", "no 30", "schwarz"}
    r = finish(d, random.Random(5))
    assert r["kind"] == "marriage" and r["re"] == [1, 2] and r["kontra"] == [0, 3]
    assert sum(r["scores"]) == 0 and abs(r["scores"][1]) == abs(r["scores"][0])


def test_marriage_clarified_in_the_second_trick():
    """[DK-H5] Clarifying trick 2: Re with 10 cards, no 90 with 9."""
    d = deal(M)
    run(d, MARRIAGE + ["play AC", "play QC", "play QS", "play 9H"])
    assert d.partner == -1 and announcements(d) == []
    run(d, ["play JH", "play 10H", "play 9D", "play 9C"])
    assert d.partner == 2 and len(d.hands[2]) == 10
    assert "re" in announcements(d) and "no 90" in announcements(d)


def test_marriage_alone_after_three_tricks():
    """[DK-H3][DK-H5] The holder wins tricks 1-3: he plays alone, Re with 9 cards."""
    d = deal(M)
    run(d, MARRIAGE + ["play AC", "play QC", "play QS", "play 9H",
                       "play QC", "play QS", "play 9D", "play AC",
                       "play QH", "play JD", "play 9D", "play 10C"])
    assert d.kind == "marriage solo" and d.to_move() == 1 and len(d.hands[1]) == 9
    assert "re" in announcements(d)
    r = finish(d, random.Random(9))
    assert r["re"] == [1] and r["soloist"] == 1
    assert r["scores"][1] == -3 * r["scores"][0] and sum(r["scores"]) == 0


def test_reservation_precedence():
    """[DK-R3][DK-R5] Several reservations: compulsory solos first, then voluntary ones."""
    d = deal(M)
    run(d, ["reservation", "reservation", "healthy", "reservation"])
    assert d.to_move() == 0 and d.legal() == sorted(SOLOS)      # seat 0 may not decline
    d.apply("solo jacks")
    assert (d.kind, d.soloist, d.compulsory, d.to_move()) == ("solo", 0, False, 0)

    d = deal(M, owes_solo=[False, True, False, True])
    run(d, ["reservation", "reservation", "healthy", "reservation"])
    assert d.to_move() == 1 and "no solo" in d.legal()         # the marriage holder declines
    d.apply("no solo")
    assert d.to_move() == 3
    d.apply("solo clubs")
    assert (d.soloist, d.compulsory, d.to_move()) == (3, True, 3)
    r = finish(d, random.Random(1))
    assert r["same_dealer_next"] and r["game"] == "clubs"


def test_forced_solo():
    """[DK-M2] Vorführung: no query; the forced player names his solo and leads."""
    d = deal(M, forced_solo=2)
    assert d.to_move() == 2 and d.legal() == sorted(SOLOS)
    d.apply("solo hearts")
    assert d.compulsory and d.to_move() == 2
    assert not finish(d, random.Random(4))["same_dealer_next"]


def test_silent_marriage():
    """[DK-H4] The holder of both Q♣ says healthy: he plays alone, scored as a solo."""
    d = deal(M)
    run(d, ["healthy"] * 4)
    assert d.kind == "silent marriage" and d.to_move() == 0
    r = finish(d, random.Random(3))
    assert r["re"] == [1] and r["scores"][1] == -3 * r["scores"][0]


def test_announcement_deadlines_and_replies():
    """[DK-A2][DK-A4][DK-A5] Deal N: a late reply "re" allows no absage; Kontra may go on."""
    def after_trick_one(kontra: bool) -> K.Deal:
        d = deal(N)
        run(d, ["healthy"] * 4 + ["play AC", "play 9D", "play 10H", "play 9H"])
        assert d.to_move() == 2 and "kontra" in announcements(d)
        if kontra:
            d.apply("kontra")
        run(d, ["play KD", "play 9D", "play 9C", "play QH"])    # seat 1 wins trick 2
        assert d.to_move() == 1 and len(d.hands[1]) == 10
        return d

    d = after_trick_one(kontra=False)
    assert announcements(d) == []                               # too late for a first "re"
    with pytest.raises(ValueError, match="DK-A"):
        d.apply("re")
    d = after_trick_one(kontra=True)
    assert announcements(d) == ["re"]
    d.apply("re")
    assert announcements(d) == [] and d.ann["re"]["first"] is False
    d.apply("play JH")
    assert d.to_move() == 2 and "no 90" in announcements(d) and "kontra" not in announcements(d)


def test_skipped_absage_must_still_be_in_time():
    """[DK-A6] With 9 cards "no 60" is refused when "no 90" (10 cards) was not said."""
    d = deal(N)
    run(d, ["healthy"] * 4 + ["play AC", "play 9D", "play 10H", "play 9H"])
    d.apply("kontra")
    run(d, ["play KD", "play 9D", "play 9C", "play QH", "play JH"])   # trick 3 from seat 1
    run(d, ["play 10H"])                     # seat 2 keeps 9 cards after this trick
    while d.to_move() != 2:
        d.apply([a for a in d.legal() if a.startswith("play")][0])
    assert len(d.hands[2]) == 9 and announcements(d) == []


@pytest.mark.parametrize("re_points,ann,winner,value", [
    (130, {}, "re", 1),
    (185, {}, "re", 3),
    (120, {}, "kontra", 2),
    (121, {"re": 0}, "re", 3),
    (120, {"re": 0}, "kontra", 4),
    (120, {"kontra": 0}, "re", 3),
    (140, {"re": 1}, "kontra", 5),
    (110, {"re": 1}, "kontra", 6),
    (140, {"re": 1, "kontra": 1}, None, 0),
    (185, {"re": 2}, "re", 7),
])
def test_game_values(re_points, ann, winner, value):
    """[DK-W1..W3][DK-V1..V3] The page's table of normal games (both parties took tricks)."""
    state = {p: {"said": p in ann, "first": p in ann, "level": ann.get(p, 0)} for p in ("re", "kontra")}
    tricks = {"re": 6, "kontra": 6}
    w = K.winning_party(re_points, tricks, state)
    assert w == winner
    pts = {"re": re_points, "kontra": 240 - re_points}
    assert K.game_value(w, pts, tricks, state, normal_game=True)[0] == value


def test_solo_value():
    """[DK-V4] A solo won with 125, no announcement: value 1, the soloist +3."""
    state = {p: {"said": False, "first": False, "level": 0} for p in ("re", "kontra")}
    pts, tricks = {"re": 125, "kontra": 115}, {"re": 7, "kontra": 5}
    assert K.game_value("re", pts, tricks, state, normal_game=False) == (1, ["won"])


def test_extra_points():
    """[DK-X1..X3] Fox caught, Doppelkopf, Karlchen, per party."""
    party = {0: "re", 1: "kontra", 2: "re", 3: "kontra"}
    fox = ([(0, "AD"), (1, "10H"), (2, "9D"), (3, "KD")], 1)        # Kontra catches Re's fox
    dk = ([(0, "AC"), (1, "10C"), (2, "AC"), (3, "10C")], 0)         # 42 points for Re
    karl = ([(0, "JC"), (1, "9D"), (2, "KD"), (3, "JD")], 0)         # J♣ wins the last trick
    assert K.extra_points([fox], party) == {"re": 0, "kontra": 1}
    assert K.extra_points([dk, karl], party) == {"re": 2, "kontra": 0}


def test_match_winner():
    """[DK-M1] The round's deals played, the highest total wins."""
    entries = [[3, -1, -1, -1]] * 27
    assert K.match_winner(entries) is None
    assert K.match_winner(entries + [[1, 1, -1, -1]]) == [0]


def random_action(d: K.Deal, rng: random.Random) -> str:
    legal = d.legal()
    if d.phase == "reservations":            # the holder of both Q♣ often announces a marriage
        holder = d.dealt[d.to_move()].count("QC") == 2
        return "reservation" if rng.random() < (0.6 if holder else 0.2) else "healthy"
    if d.phase == "naming" and "marriage" in legal and rng.random() < 0.7:
        return "marriage"
    if d.phase == "play":
        anns = [a for a in legal if not a.startswith("play")]
        if anns and rng.random() < 0.15:
            return rng.choice(anns)
        return rng.choice([a for a in legal if a.startswith("play")])
    return rng.choice(legal)


def test_random_play_keeps_the_rules():
    """Random deals to the end: 48 cards played once, 240 card points, zero-sum scores."""
    rng = random.Random(1982)
    kinds: set[str] = set()
    winners: set[str | None] = set()
    for i in range(300):
        hands, extra = K.deal_random(rng, i % 4)
        assert extra == {} and sorted(sum(hands, [])) == sorted(K.deck())
        options = {"extra_points": i % 2 == 1, "owes_solo": [rng.random() < 0.5 for _ in range(4)],
                   "second_dulle": ["never", "always", "except_last"][i % 3]}
        d = K.Deal(hands, extra, i % 4, options)
        while not d.is_over():
            assert d.legal()
            d.apply(random_action(d, rng))
        r = d.result()
        played = [c for t in d.tricks for _, c in t[1]]
        assert sorted(played) == sorted(K.deck()) and not any(d.hands)
        assert sum(r["card_points"].values()) == 240 and sum(r["tricks"]) == 12
        assert sum(r["scores"]) == 0
        solo = r["kind"] in ("solo", "silent marriage", "marriage solo")
        assert len(r["re"]) == (1 if solo else 2)
        if solo:
            assert r["scores"][r["soloist"]] == -3 * r["scores"][r["kontra"][0]]
        if r["winner"] is not None and not options["extra_points"]:
            for s in r["re"] + r["kontra"]:
                sign = 1 if (s in r["re"]) == (r["winner"] == "re") else -1
                assert r["scores"][s] == sign * r["value"] * (3 if solo and s == r["soloist"] else 1)
        kinds.add(r["kind"])
        winners.add(r["winner"])
    assert {"normal", "solo", "silent marriage", "marriage"} <= kinds, kinds
    assert winners == {"re", "kontra", None}
