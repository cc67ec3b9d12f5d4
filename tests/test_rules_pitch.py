"""Auction Pitch: worked examples from the published rules (Bicycle "Auction
Pitch", after Hoyle; h2g2 "Auction Pitch" for the order of counting), on explicit deals, and
play to a winner for several seeds."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import deal_order


@pytest.fixture(scope="module")
def pitch():
    return load_variant("pitch")


def deck_order(v, hands: list) -> list:
    """The pack order that deals ``hands`` (per seat; dealer 0, three at a time from seat 1)."""
    out = deal_order(hands, (3, 3), first=1)
    rest = [c for c in v.deck.names_of((1 << v.deck.size) - 1) if c not in out]
    return out + rest


# Deal A: the dealer P0 pitches the ace of spades.
A = [["AS", "KS", "AH", "10H", "3C", "4D"],          # P0, the dealer
     ["JS", "5S", "9H", "QH", "6C", "7D"],           # P1, eldest hand
     ["7S", "10C", "KC", "8H", "5D", "9D"],          # P2
     ["2S", "3H", "4H", "8C", "9C", "QD"]]           # P3
A_PLAY = ["AS", "JS", "7S", "2S",       # P0 wins: A J = 5 card points; the jack of trumps
          "KS", "5S", "5D", "3H",       # P0: K = 3
          "AH", "QH", "8H", "4H",       # P0: A Q = 6
          "10H", "9H", "KC", "8C",      # P0: 10 K = 13
          "3C", "6C", "10C", "9C",      # P2: 10
          "9D", "QD", "4D", "7D"]       # P3: Q = 2


def play(s, cards):
    for c in cards:
        s.apply("play " + c)


def test_deal_and_first_lead_make_spades_trumps(pitch):
    """Bicycle: six cards each, three at a time; the pitcher's first card names trumps."""
    s = State(pitch, deals=[deck_order(pitch, A)], dealer=0)
    assert [pitch.deck.names_of(m) for m in s.hand.hands] == [
        pitch.deck.names_of(sum(1 << pitch.deck.parse(c) for c in hand)) for hand in A]
    assert s.to_move == 1
    for call in ("2", "3", "pass"):
        s.apply(call)
    assert [a.text for a in s.legal_actions()] == ["pass", "3", "4"]   # the dealer may hold at 3
    s.apply("3")
    assert (s.hand.declarer, s.to_move) == (0, 0)
    s.apply("play AS")
    assert s.hand.trump == "S"
    assert [a.text for a in s.legal_actions()] == ["play 5S", "play JS"]   # a trump led: follow


@pytest.mark.parametrize("calls, entries", [
    (("2", "3", "pass", "3"), [3, 0, 0, 1]),       # P0 holds at 3 and makes High, Jack, Game
    (("pass", "pass", "pass", "4"), [-4, 0, 0, 1]),  # P0 bids 4, makes 3: set back 4
])
def test_high_low_jack_game_and_the_set_back(pitch, calls, entries):
    """Bicycle: High to the holder of the highest trump in play (AS, P0); Low to the player dealt
    the lowest trump in play "no matter who wins it" (2S, P3, though P0 takes it); Jack to the
    taker of the jack of trumps (P0); Game to the most card points (P0 27, P2 10, P3 2). The
    pitcher making his bid scores all he won (3); short of it he is set back the bid (-4)."""
    s = State(pitch, deals=[deck_order(pitch, A)], dealer=0, scores=[0, 0, 0, 0])
    for call in calls:
        s.apply(call)
    play(s, A_PLAY)
    assert s.sheet.totals() == entries
    assert s.hands_played == 1


def test_may_trump_though_able_to_follow(pitch):
    """Foster's Complete Hoyle, "Auction Pitch": "follow suit or trump" (whiteknucklecards.com:
    "if a plain suit is thrown you can either follow suit or play a trump")."""
    s = State(pitch, deals=[deck_order(pitch, A)], dealer=0)
    for call in ("pass", "pass", "pass", "2"):
        s.apply(call)
    play(s, ["AS", "JS", "7S", "2S", "AH"])          # P0 leads a plain suit, hearts
    assert [a.text for a in s.legal_actions()] == ["play 5S", "play 9H", "play QH"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("play 6C")
    assert str(e.value) == "you must follow hearts or play a trump: you hold 5♠ 9♥ Q♥"


def test_all_pass_the_dealer_must_bid(pitch):
    """The forced bid: when the other three pass, the dealer may not (gamerulesguru.com)."""
    s = State(pitch, deals=[deck_order(pitch, A)], dealer=0)
    for call in ("pass", "pass", "pass"):
        s.apply(call)
    assert [a.text for a in s.legal_actions()] == ["2", "3", "4"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("pass")
    assert str(e.value) == "everyone else has passed: the dealer must bid"


def test_game_tie_scores_nobody(pitch):
    """Foster's Complete Hoyle, "Auction Pitch": "If the count for Game is a tie, no one scores
    it" (P0 and P2 both take 10)."""
    from rulekit.engine.scoring import player_envs, score_hand
    s = State(pitch, deals=[deck_order(pitch, A)], dealer=0)
    for call in ("pass", "pass", "pass", "2"):
        s.apply(call)
    s.apply("play AS")                               # spades trumps; P0 holds the high
    h = s.hand
    parse = pitch.deck.parse
    h.won_cards = [1 << parse("10H"), 0, 1 << parse("10C"), 0]
    envs = player_envs(pitch, h)
    assert [e.vars["points"] for e in envs] == [10, 0, 10, 0]
    assert [envs[c].vars["high"] for c in range(4)] == [1, 0, 0, 0]
    assert score_hand(pitch, h, envs)[0] == [-2, 0, 0, 1]     # High only: P0 set back 2; Low P3


# Deal B: P1 pitches 4 with the three of spades and is set; High, Low + Jack, Game go to three others.
B = [["KS", "AH", "10H", "3C", "4D", "QD"],          # P0, the dealer
     ["3S", "9H", "QH", "6C", "7D", "8D"],           # P1, eldest hand, the pitcher
     ["AS", "10C", "KC", "8H", "5D", "9D"],          # P2
     ["JS", "2S", "3H", "4H", "8C", "9C"]]           # P3
B_PLAY = ["3S", "AS", "2S", "KS",       # P2: A K = 7; High AS (P2); Low 2S dealt to P3
          "10C", "JS", "3C", "6C",      # P3 trumps with the jack though he holds clubs: 11; Jack
          "3H", "AH", "QH", "8H",       # P0: A Q = 6
          "10H", "9H", "KC", "4H",      # P0: 10 K = 13
          "4D", "7D", "9D", "8C",       # P2: 0
          "5D", "9C", "QD", "8D"]       # P0: Q = 2 -> P0 21 card points, Game


def test_points_to_four_players_and_the_pitcher_set(pitch):
    """P1 bids 4 and takes nothing: -4. P2 High 1, P3 Low and Jack 2, P0 Game 1 (21 card points)."""
    s = State(pitch, deals=[deck_order(pitch, B)], dealer=0, scores=[0, 0, 0, 0])
    for call in ("4", "pass", "pass", "pass"):
        s.apply(call)
    play(s, B_PLAY)
    assert s.sheet.totals() == [1, -4, 1, 2]


def test_several_reach_seven_the_pitcher_counts_first(pitch):
    """h2g2 "Auction Pitch": on a tie the pitcher beats any other player. P0 (4) makes 3 and P3
    (6) takes Low on the same hand: both reach 7; P3's Low counts before P0's Jack and Game,
    but the pitcher's points count first."""
    s = State(pitch, deals=[deck_order(pitch, A)], dealer=0, scores=[4, 0, 0, 6])
    for call in ("2", "3", "pass", "3"):
        s.apply(call)
    play(s, A_PLAY)
    assert s.sheet.totals() == [7, 0, 0, 7]
    assert s.winners == [0]


def test_several_reach_seven_high_low_jack_game_order(pitch):
    """h2g2 / whiteknucklecards "Auction Pitch": between other players the points count in the
    order High, Low, Jack, Game. P0 (6) reaches 7 by Game, P2 (6) by High, P3 (5) by Jack: P2."""
    s = State(pitch, deals=[deck_order(pitch, B)], dealer=0, scores=[6, 0, 6, 5])
    for call in ("4", "pass", "pass", "pass"):
        s.apply(call)
    play(s, B_PLAY)
    assert s.sheet.totals() == [7, -4, 7, 7]
    assert s.winners == [2]
    assert s.result()["reason"] == "reached 7"


@pytest.mark.parametrize("seed", [1, 2, 4, 6])
def test_pitch_plays_to_a_winner(pitch, seed):
    """Auction Pitch plays to a winner (random legal play, several seeds; random bids can also
    sink every total for good: 3 seeds of 15 reach the 200-hand cap)."""
    rng = random.Random(seed)
    s = State(pitch, seed=seed, max_hands=200)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners and "stopped" not in s.result()["reason"]


def test_scorepad_asks_the_trumps_and_every_point_that_counts(pitch):
    """A real table game of Auction Pitch on the scorepad (`rulekit score pitch`): the
    pad asks the trump suit (the first lead named it) and the High, Low and Jack of the pitcher
    even though each alone would not change his entry (only together do they make his 3): deal A,
    P0 pitching 3, makes +3, P3 +1 for Low; card points need not add up to the pack's 80."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(pitch, first_dealer=0)
    known = {"contract": "3", "declarer": "P0", "trump": "S", "points": "27 0 10 2",
             "high": [1, 0, 0, 0], "low": [0, 0, 0, 1], "jack": [1, 0, 0, 0]}
    facts: dict = {}
    asked = []
    while (q := pad.next_question(facts)) is not None:
        asked.append(q.name)
        if q.name.startswith("tally:"):   # one question per tally: who holds it
            tally = q.name.split(":")[1]
            pad.answer(q, f"P{known[tally].index(1)}" if 1 in known[tally] else "-", facts)
        else:
            pad.answer(q, known[q.name], facts)
    assert asked[:4] == ["contract", "declarer", "trump", "points"]
    assert asked[4:] == ["tally:high", "tally:low", "tally:jack"]
    result = pad.add(facts)
    assert list(result.entries) == [3, 0, 0, 1]
    assert result.note == "P0 3 (S) made, high P0, low P3"   # who held each
