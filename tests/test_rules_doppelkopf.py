"""Doppelkopf (variants/doppelkopf.yaml, and doppelkopf-extra-points) against
docs/rules/doppelkopf.md: its worked examples on explicit deals, then random deals played side by
side with the independent referee (tests/referees/doppelkopf.py): the same legal set at every
decision (reservations, games named, announcements, cards) and the same score for every seat."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, explicit_order
from tests.referees import doppelkopf as ref

V = load_variant("doppelkopf")
VX = load_variant("doppelkopf-extra-points")
PARTNER = kind_of("call_partner")

DEAL_M = ["AC AC 10C 10C KC KC 9C 9C AS AS 10S 10S", "QC QC QH QH QD QD JC JC JS JS JH JH",
          "10H 10H QS QS JD JD AD AD 10D 10D KD KD", "KS KS 9S 9S AH AH KH KH 9H 9H 9D 9D"]
DEAL_N = [DEAL_M[0], "QC 9D QH QH QD QD JC JC JS JS JH JH", DEAL_M[2],
          "KS KS 9S 9S AH AH KH KH 9H 9H 9D QC"]
DEAL_Q = ["QC QC QS QS QH QH QD QD AC AC AS AS", "AH AH 10H 10H KH KH 9H 9H AD AD 10D 10D",
          "KD KD 9D 9D JC JC JS JS JH JH JD JD", "10C 10C KC KC 9C 9C 10S 10S KS KS 9S 9S"]


def numbered(order: list[str]) -> list[str]:
    """Card texts with their copies told apart (``QC:1``, ``QC:2``), in order."""
    seen: dict[str, int] = {}
    out = []
    for c in order:
        seen[c] = seen.get(c, 0) + 1
        out.append(f"{c}:{seen[c]}")
    return out


def state(hands, dealer: int = 3, v=V) -> State:
    """A match whose first deal gives ``hands`` (seat by seat; texts or lists) with ``dealer``."""
    cards = [h.split() if isinstance(h, str) else list(h) for h in hands]
    return State(v, seed=0, deals=[numbered(explicit_order(v, dealer, cards))], dealer=dealer)


def texts(s: State) -> set[str]:
    return {a.text for a in s.legal_actions()}


def plays(s: State) -> set[str]:
    """The cards the seat to move may play, copies as one (``play KH``)."""
    return {t.split(":")[0] for t in texts(s) if t.startswith("play")}


def say(s: State, *actions: str) -> None:
    for a in actions:
        s.apply(a)


def play(s: State, *cards: str) -> None:
    """Play each card (a copy the seat holds, ``9D`` for ``9D:2``)."""
    for c in cards:
        held = [a for a in s.legal_actions() if a.text.split(":")[0] == "play " + c]
        s.apply(held[0] if held else "play " + c)


def announcements(s: State) -> set[str]:
    return {t for t in texts(s) if not t.startswith("play")}


# ------------------------------------------------------------------ the worked examples
def swapped(deal: list[str], *moves: tuple) -> list[list[str]]:
    """``deal`` with cards exchanged between seats: each move ``(a, card_a, b, card_b)``."""
    hands = [h.split() for h in deal]
    for a, ca, b, cb in moves:
        hands[a].remove(ca)
        hands[b].remove(cb)
        hands[a].append(cb)
        hands[b].append(ca)
    return hands


def test_example1_of_two_equal_cards_the_first_wins():
    """[DK-T5] Trick 10♥ 10♥ Q♣ 9♦ (seats 0..3): seat 0, who played the first 10♥, wins."""
    s = state(swapped(DEAL_M, (0, "AC", 2, "10H"), (1, "QH", 2, "10H"), (2, "QS", 1, "QC")))
    say(s, "pass", "pass", "pass", "pass")
    play(s, "10H", "10H", "QC", "9D")
    assert s.hand.trick_winners == [0]


def test_example2_trumps_are_one_suit_and_the_queen_solo_has_its_own():
    """[DK-T1][DK-T3][DK-P2] A♥ led in a normal game: 10♥ K♥ 9♣ must play K♥ (the 10♥ is a
    trump); in a queen solo the 10♥ is a heart and both hearts may follow."""
    hands = swapped(DEAL_M, (0, "AC", 3, "AH"), (1, "JH", 2, "10H"), (1, "JH", 3, "KH"), (1, "JS", 0, "9C"))
    s = state(hands)
    say(s, "pass", "pass", "pass", "pass")
    play(s, "AH")
    assert plays(s) == {"play KH"}
    with pytest.raises(IllegalActionError):
        s.apply("play 9C")
    q = state(hands)
    say(q, "reservation", "pass", "pass", "pass", "queens")
    play(q, "AH")
    assert plays(q) == {"play KH", "play 10H"}


def test_example3_a_queen_solo_announced_schwarz_and_made():
    """[DK-R2][DK-A6][DK-V1][DK-V2][DK-V4] Deal Q: seat 0 plays a queen solo, says schwarz
    with 12 cards (every absage and his Re with it) and takes every trick: 1 + under 90, 60, 30
    + schwarz + Re 2 + four absagen = 11: +33 for him, -11 each for the others."""
    s = state(DEAL_Q)
    say(s, "reservation", "pass", "pass", "pass")
    assert texts(s) == {"diamonds", "hearts", "spades", "clubs", "queens", "jacks", "fleshless", "marriage"}
    say(s, "queens", "schwarz")
    for card in "QC QC QS QS QH QH QD QD AC AC AS AS".split():
        play(s, card)
        while s.hand.trick and not s.is_over:
            s.apply(s.legal_actions()[-1] if s.legal_actions()[-1].text.startswith("play")
                    else next(a for a in s.legal_actions() if a.text.startswith("play")))
    assert s.hand_log[0].trick_winners == [0] * 12
    assert list(s.hand_log[0].entries) == [33, -11, -11, -11]


def _marriage(hands=DEAL_M) -> State:
    s = state(hands)
    say(s, "pass", "reservation", "pass", "pass")
    assert "marriage" in texts(s)
    say(s, "marriage")
    return s


def test_example4_the_marriage_partner_is_the_first_other_winner():
    """[DK-H2][DK-H5] Deal M, seat 1's marriage: trick 1 A♣ J♥ 10♥ 9♥ makes seat 2 his
    partner; nobody may announce during trick 1; then seat 2 may say Re with 11 cards."""
    s = _marriage()
    assert announcements(s) == set()
    play(s, "AC", "JH", "10H")
    assert announcements(s) == set()
    with pytest.raises(IllegalActionError, match="waits until the trick that finds"):
        s.apply("kontra")
    play(s, "9H")
    assert PARTNER.party(s.hand) == 0b0110
    assert announcements(s) == {"re", "no 90", "no 60", "no 30", "schwarz"}


def test_example5_a_later_clarifying_trick_moves_the_deadlines():
    """[DK-H5] Deal M: trick 1 A♣ Q♣ Q♠ 9♥ (seat 1 wins), trick 2 J♥ 10♥ 9♦ 9♣ (seat 2): the
    partner is found in trick 2, so every deadline is one card lower: seat 2 may still say Re
    (11 - 1 cards) or any absage with 10 cards, as a Re player of a normal game could not."""
    s = _marriage()
    play(s, "AC", "QC", "QS", "9H", "JH", "10H", "9D", "9C")
    assert s.to_move == 2 and PARTNER.party(s.hand) == 0b0110
    assert announcements(s) == {"re", "no 90", "no 60", "no 30", "schwarz"}
    normal = state(DEAL_N)
    say(normal, "pass", "pass", "pass", "pass")
    play(normal, "AC", "QC", "QS", "9H", "JH", "10H", "9D", "9C")
    assert normal.to_move == 2 and announcements(normal) == set()   # (past 11 cards, and no reply to make)


def test_example6_the_holder_who_wins_three_tricks_plays_alone():
    """[DK-H3][DK-H5] Deal M: seat 1 wins tricks 1-3 (A♣ Q♣ Q♠ 9♥; Q♣ Q♠ 9♦ A♣; Q♥ J♦ 9♦ 10♣):
    he plays alone, a solo (three times the value), and may say Re with 9 cards."""
    s = _marriage()
    play(s, "AC", "QC", "QS", "9H", "QC", "QS", "9D", "AC", "QH", "JD", "9D", "10C")
    assert s.to_move == 1 and PARTNER.party(s.hand) == 0b0010
    assert "re" in announcements(s)
    while not s.is_over and s.hand.number == 0:
        s.apply(next(a for a in s.legal_actions() if a.text.startswith("play")))
    e = s.hand_log[0].entries
    assert e[1] == -3 * e[0] and e[0] == e[2] == e[3] and e[0] != 0


def test_example7_several_reservations_the_first_solo_wins():
    """[DK-R3] Deal M, seats 0, 1, 3 reserve: they name in seat order, solos first; seat 0
    may not answer no solo (pass), seat 1 (both Q♣: his reservation was the marriage) may;
    seat 0's jack solo wins and forehand leads."""
    s = state(DEAL_M)
    say(s, "reservation", "reservation", "pass", "reservation")
    assert s.to_move == 0 and "pass" not in texts(s) and "marriage" not in texts(s)
    with pytest.raises(IllegalActionError, match="name a game worth 2"):
        s.apply("pass")
    say(s, "jacks")
    assert s.hand.declarer == 0 and s.hand.contract.text == "jacks" and s.to_move == 0
    t = state(DEAL_M)
    say(t, "pass", "reservation", "pass", "reservation")
    assert t.to_move == 1 and "pass" in texts(t) and "marriage" not in texts(t)
    say(t, "pass")
    assert t.to_move == 3 and "pass" not in texts(t)
    say(t, "clubs")
    assert t.hand.declarer == 3 and t.hand.contract.text == "clubs"


def test_a_marriage_needs_both_queens_of_clubs():
    """[DK-H1] A player without both Q♣ cannot name a marriage: the refusal says what he lacks."""
    s = state(DEAL_M)
    say(s, "reservation", "pass", "pass", "pass")
    assert "marriage" not in texts(s)
    with pytest.raises(IllegalActionError, match="marriage needs Q♣ Q♣"):
        s.apply("marriage")


def test_example8_a_silent_marriage_is_scored_as_a_solo():
    """[DK-H4][DK-V4] Deal M, all healthy: seat 1 holds both Q♣ and plays alone; the deal is
    scored as a solo (he wins or loses three times what each other seat does)."""
    s = state(DEAL_M)
    say(s, "pass", "pass", "pass", "pass")
    while s.hand.number == 0:
        s.apply(next(a for a in s.legal_actions() if a.text.startswith("play")))
    e = s.hand_log[0].entries
    assert e[1] == -3 * e[0] and e[0] == e[2] == e[3] and e[0] != 0 and sum(e) == 0


def test_example9_a_late_reply_and_nothing_after_it():
    """[DK-A2][DK-A4][DK-A5] Deal N (Re: seats 1 and 3): seat 2 wins trick 1 and says Kontra
    with 11 cards; in trick 3 seat 1 (10 cards) may only reply Re, and after it no absage,
    while seat 2 may still say no 90. Without the Kontra seat 1 could say nothing in trick 3."""
    def to_trick3(kontra: bool) -> State:
        s = state(DEAL_N)
        say(s, "pass", "pass", "pass", "pass")
        play(s, "AC", "9D", "10H", "9H")
        if kontra:
            say(s, "kontra")
        play(s, "QS", "9D", "AS", "QH")          # seat 2 wins trick 2 with the Q♠
        return s
    s = to_trick3(True)
    assert s.to_move == 2 and "no 90" in announcements(s)
    play(s, "KD", "QC", "AC")
    assert s.to_move == 1 and announcements(s) == {"re"}
    say(s, "re")
    assert announcements(s) == set()
    with pytest.raises(IllegalActionError, match="said late"):
        s.apply("no 90")
    quiet = to_trick3(False)
    play(quiet, "KD", "QC", "AC")
    assert announcements(quiet) == set()


def test_example10_values_of_normal_games():
    """[DK-W1][DK-V1][DK-V3] The scoring formula on the values of the rules page: Re 130: 1;
    Re 185: 3 (under 90 and 60); Re 120: Kontra wins 2 (against the queens of clubs)."""
    for re_pts, per_re in ((130, 1), (185, 3), (120, -2)):
        assert _normal_value(re_pts) == per_re


def _normal_value(re_pts: int, **said) -> int:
    from rulekit.dsl import Env
    sc = V.scoring
    env = {"in_party": True, "party_size": 2, "party_points": re_pts, "party_tricks": 6}
    for a in ("re", "kontra", "no90", "no60", "no30", "schwarz"):
        env[f"announced_{a}"] = bool(said.get(a, False))
        env[f"against_{a}"] = False
    for t in V.scoring.tallies:
        env[t.name] = 0
    e = Env(env)
    return int(sc.each(e))


def test_example12_extra_points_are_netted_into_the_winners_value():
    """[DK-X1]-[DK-X4] With the house rule, the extra points of both parties are netted and
    added to the winner's value: a random normal game's score equals the referee's, extra
    points included (the cross-check below plays many)."""
    assert cross_check(VX, 12, 31, {"extra_points": True}) > 12 * 40


def test_example13_a_match_is_24_deals_and_the_highest_total_wins():
    """[DK-M1] without compulsory solos: 24 deals; the seat with the highest total wins."""
    s = assert_plays_to_a_winner("doppelkopf", 5)
    entries = [list(h.entries) for h in s.hand_log]
    assert len(entries) == 24 and ref.match_winner(entries[:23], {"deals": 24}) is None
    assert sorted(s.winners) == ref.match_winner(entries, {"deals": 24})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_auto_play_ends_with_a_winner(seed):
    assert_plays_to_a_winner("doppelkopf-extra-points", seed)


# ------------------------------------------------------------------ the referee, side by side
def _to_ref(text: str, r) -> str:
    """A rulekit action in the referee's notation."""
    if text == "pass":
        return "healthy" if r.phase == "reservations" else "no solo"
    if text.startswith("play "):
        return "play " + text.split()[1].split(":")[0]
    if r.phase == "naming" and text != "marriage":
        return "solo " + text
    return text


def _choose(rng: random.Random, acts: list[str], r) -> str:
    """Mostly healthy, so that normal games, marriages and solos all come up; announcements now
    and then."""
    if "healthy" in acts:
        both = r.dealt[r.to_move()].count("QC") == 2
        return "reservation" if rng.random() < (0.6 if both else 0.06) else "healthy"
    if "marriage" in acts and rng.random() < 0.7:
        return "marriage"
    plays = [a for a in acts if a.startswith("play")]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    return rng.choice(acts)


def _both_queens_to(hands: list[list[str]], seat: int, rng: random.Random) -> None:
    """Give ``seat`` both Q♣, each exchanged for a card of his that is no Q♣."""
    for other in range(4):
        while other != seat and "QC" in hands[other]:
            mine = rng.choice([c for c in hands[seat] if c != "QC"])
            hands[other][hands[other].index("QC")] = mine
            hands[seat][hands[seat].index(mine)] = "QC"


def cross_check(v, deals: int, seed: int, options=None, marriages: bool = False) -> int:
    """Play ``deals`` random deals through rulekit and the referee with the same choices: the
    legal sets equal at every decision, the scores equal (``marriages``: a random seat is
    dealt both Q♣). Returns the decisions compared."""
    rng = random.Random(seed)
    decisions = 0
    for k in range(deals):
        dealer = rng.randrange(4)
        hands, extra = ref.deal_random(rng, dealer)
        if marriages:
            _both_queens_to(hands, rng.randrange(4), rng)
        r = ref.Deal(hands, extra, dealer, options)
        s = state(hands, dealer, v)
        while not r.is_over():
            assert s.to_move == r.to_move(), (k, r.history)
            mine: dict = {}
            for a in s.legal_actions():
                mine.setdefault(_to_ref(a.text, r), a)
            assert sorted(mine) == r.legal(), (k, r.phase, sorted(mine), r.legal(), r.history)
            decisions += 1
            act = _choose(rng, r.legal(), r)
            r.apply(act)
            s.apply(mine[act])
        res = r.result()
        assert list(s.hand_log[0].entries) == res["scores"], (k, res["kind"], res["value_details"], r.history)
    return decisions


def test_random_deals_agree_with_the_referee():
    """40 random deals: the same legal actions at every decision, the same score each seat."""
    assert cross_check(V, 40, 21) > 40 * 48


def test_random_marriages_agree_with_the_referee():
    """20 random deals where one seat holds both Q♣: marriages found in trick 1, 2 or 3 or
    played alone, silent marriages, solos over them; the same legal sets and scores."""
    assert cross_check(V, 20, 22, marriages=True) > 20 * 48


@pytest.mark.slow
def test_many_random_deals_agree_with_the_referee():
    """600 more, half of them with the extra points (the slow run)."""
    assert cross_check(V, 300, 45) > 300 * 48
    assert cross_check(VX, 300, 46, {"extra_points": True}) > 300 * 48
    assert cross_check(V, 200, 47, marriages=True) > 200 * 48


def test_sensible_bots_play_marriages_solos_and_announcements():
    """The sensible bot plays Doppelkopf to the end of deals (its reservations, games named and
    announcements are legal ones), every deal summing to 0 [DK-V4]."""
    from rulekit.bots import SensibleBot
    s = State(V, seed=3, max_hands=3)
    bots = [SensibleBot(seed=10 + i) for i in range(4)]
    while not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    assert len(s.hand_log) == 3 and all(sum(h.entries) == 0 for h in s.hand_log)


def test_a_record_replays_a_marriage():
    """A record of a deal with a marriage (the reservations, the game named, an announcement)
    replays to the same scores."""
    from rulekit.records import replay, to_record
    s = _marriage()
    play(s, "AC", "JH", "10H", "9H")
    say(s, "re")
    while s.hand.number == 0:
        s.apply(next(a for a in s.legal_actions() if a.text.startswith("play")))
    again = replay(to_record(s))
    assert [list(h.entries) for h in again.hand_log] == [list(h.entries) for h in s.hand_log]
    assert again.hand_log[0].entries[1] == again.hand_log[0].entries[2] > 0 or \
        again.hand_log[0].entries[1] == again.hand_log[0].entries[2] < 0


@pytest.mark.parametrize("how", ["normal", "marriage", "marriage alone", "solo"])
def test_the_scorepad_gives_the_played_score(how):
    """A deal typed into the scorepad (``rulekit score``) as a table writes it down gives the
    played score: the holders of the Q♣ in a normal game, the partner a marriage found (or
    none), the soloist; the announcements of each party; the tricks, card points and the extra
    points' counts."""
    from rulekit.sheets.scorepad import ScorePad
    from tests.test_scorepad_agreement import written
    s = state(DEAL_M, v=VX) if how != "normal" else state(DEAL_N, v=VX)
    if how == "solo":
        say(s, "reservation", "pass", "pass", "pass", "hearts")
    elif how != "normal":
        say(s, "pass", "reservation", "pass", "pass", "marriage")
        if how == "marriage alone":
            play(s, "AC", "QC", "QS", "9H", "QC", "QS", "9D", "AC", "QH", "JD", "9D", "10C")
    else:
        say(s, "pass", "pass", "pass", "pass")
    rng = random.Random(len(how))
    while s.hand.number == 0:
        acts = s.legal_actions()
        said = [a for a in acts if not a.text.startswith("play")]
        s.apply(said[0] if said and rng.random() < 0.3 else rng.choice([a for a in acts if a not in said]))
    h = s.hand_log[0]
    pad = ScorePad(VX, first_dealer=3)
    facts, asked = written(pad, VX, h)
    pad.add(facts)
    assert list(pad.sheet.rows[0].entries) == list(h.entries)
    if how == "marriage":
        assert any(q.name == "partner" for q, _t in asked)
