"""Belote (the Jass family): worked examples from pagat.com/jass/belote.html
on an explicit deal, scores computed by hand, and play to a winner for several seeds."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import player_envs, score_hand
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from rulekit.variant.explain import explain

# The made-up deal: N (seat 0) deals; play goes counter-clockwise, so W (3) is the eldest hand,
# then S (2), E (1), N (0). Each player's first five cards (3 then 2), then the turned card
# (8H, taken by S), then the rest dealt from W: 3, 2 to the taker S, 3, 3.
FIRST = {3: "AH QH KH 7C 8C", 2: "JH 10H AS KS QS", 1: "9H 7H AD KD QD", 0: "AC KC QC 8D 7D"}
REST = {3: "9C 10C JC", 2: "JS 10S", 1: "JD 10D 9D", 0: "9S 8S 7S"}


def deal_order() -> list:
    order = []
    for packet in (slice(0, 3), slice(3, 5)):
        for seat in (3, 2, 1, 0):
            order += FIRST[seat].split()[packet]
    order.append("8H")
    for seat in (3, 2, 1, 0):
        order += REST[seat].split()
    return order


def legal(s) -> set:
    return {a.text.split()[1] for a in s.legal_actions()}


@pytest.fixture
def started():
    """The hand after W passes and S takes the turned 8H: hearts are trumps."""
    s = State(load_variant("belote"), deals=[deal_order()], dealer=0)
    assert s.to_move == 3 and [a.text for a in s.legal_actions()] == ["pass", "take"]
    s.apply("pass")
    s.apply("take")
    return s


def test_taking_the_turned_card_then_the_rest_of_the_deal(started):
    """Belote (pagat, "Deal and bidding"): five cards each (3 + 2), the next turned up; the taker
    gets it and two more, the others three more: eight each; his side is the maker."""
    s, v = started, started.variant
    h = s.hand
    assert h.trump == "H" and h.declarer == 2 and s.kind.name == "tricks" and s.to_move == 3
    assert v.deck.names_of(h.hands[2]) == ["10S", "JS", "QS", "KS", "AS", "8H", "10H", "JH"]
    assert [m.bit_count() for m in h.hands] == [8, 8, 8, 8] and v.hand_size == 8


def test_trump_lead_and_trumping_rules(started):
    """Belote (pagat, "Play"): on a trump lead each must beat the highest trump if he can, even
    his partner's; one who cannot follow a plain suit must trump when an opponent holds the
    trick (overtrumping if he can), and may play anything when his partner holds it."""
    s = started
    s.apply("play AH")                                     # W leads the ace of trumps
    assert legal(s) == {"JH"}                              # S must beat it
    with pytest.raises(IllegalActionError) as e:
        s.apply("play 8H")
    assert str(e.value) == "you must play a trump higher than A♥: you hold J♥"
    s.apply("play JH")
    assert legal(s) == {"9H", "7H"}                        # E cannot beat the jack
    s.apply("play 9H")
    assert len(legal(s)) == 8                              # N has no trump: any card
    s.apply("play 7D")
    s.apply("play AS")                                     # S won and leads
    with pytest.raises(IllegalActionError) as e:
        s.apply("play AD")
    assert str(e.value) == "you cannot follow spades and must trump: you hold 7♥"
    s.apply("play 7H")
    assert legal(s) == {"9S", "8S", "7S"}
    s.apply("play 7S")
    # W cannot follow, but his partner E holds the trick: he may keep his trumps
    assert legal(s) == {"QH", "KH", "7C", "8C", "9C", "10C", "JC"}
    s.apply("play 7C")
    assert s.hand.trick_winners == [2, 1]


def test_a_whole_hand_scored_by_hand(started):
    """Belote (pagat, "Scoring"): trumps count J 20, 9 14; 10 for the last trick; belote 20 for
    W's K and Q of trumps. Played out (the first legal card after the two tricks above):
    NS take tricks 1 (AH JH 9H 7D: 45), 3 (9D 8D QH 10H: 13), 5 (8C 8H JD QC: 5),
    6 (JS QD 9S 9C: 5), 7 (QS KD KC 10C: 21) and 8 (KS AD AC JC: 28) + 10 = 127;
    EW tricks 2 (AS 7H 7S 7C: 11) and 4 (10S 10D 8S KH: 24) + belote 20 = 55.
    The takers beat the defenders: each side scores its own."""
    s = started
    for c in ("AH", "JH", "9H", "7D", "AS", "7H", "7S", "7C"):
        s.apply(f"play {c}")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert s.sheet.totals() == [127, 55]


def _score(v, h, points, tricks, last, belote):
    envs = player_envs(v, h)
    for env, p, t, la, b in zip(envs, points, tricks, last, belote):
        env.vars.update(points=p, tricks=t, last=la, belote=b)
    return score_hand(v, h, envs)[0]


def test_dedans_litige_and_capot(started):
    """Belote (pagat, "Scoring"), NS the takers: with more than the defenders each side scores
    its own (NS 90 + 10 = 100 against EW 62 + belote 20 = 82); with fewer the takers are
    "dedans": the defenders score 162 and their belote, the takers nothing (70 + 10 = 80
    against 82 + 20); a tie scores only the defenders' own (81 each: the "litige"); all eight
    tricks score 250 (the defenders keep their belote); a defenders' capot scores them 250."""
    v, h = started.variant, started.hand
    assert _score(v, h, (90, 62), (5, 3), (1, 0), (0, 2)) == [100, 82]
    assert _score(v, h, (70, 82), (4, 4), (1, 0), (0, 2)) == [0, 182]
    assert _score(v, h, (71, 81), (4, 4), (1, 0), (0, 0)) == [0, 81]
    assert _score(v, h, (152, 0), (8, 0), (1, 0), (2, 2)) == [270, 20]
    assert _score(v, h, (0, 152), (0, 8), (0, 1), (2, 0)) == [20, 250]


def test_all_pass_twice_redeals_to_the_right():
    """Belote (pagat): if all pass in both rounds the cards are thrown in and the next player
    (to the right: play goes counter-clockwise) deals."""
    s = State(load_variant("belote"), deals=[deal_order()], dealer=0)
    for _ in range(8):
        s.apply("pass")
    assert s.hand.number == 1 and s.hand.dealer == 3 and s.sheet.totals() == [0, 0]


def test_explain_reads_as_belote():
    """`rulekit explain belote` states the trump order, the trump card points, the
    rest of the deal, the trumping rules and the tallies."""
    text = explain(load_variant("belote"))
    for words in ("In the trump suit they rank J, 9, A, 10, K, Q, 8, 7", "J 20 points; 9 14 points",
                  "he takes the turned card, and the rest of the talon is dealt, 2 more cards to the maker",
                  "unless his partner's card is winning the trick", "Play goes **counter-clockwise**",
                  "**belote** is the most of the K and Q of trumps dealt to any one player of his side (2 when "
                  "one player was dealt both)",
                  "**last** is 1 for the side that won the last trick, otherwise 0"):
        assert words in text


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_belote_plays_to_a_winner(seed):
    """Belote plays to a winner (random legal play)."""
    rng = random.Random(seed)
    s = State(load_variant("belote"), seed=seed, max_hands=200)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners and "stopped" not in s.result()["reason"]
