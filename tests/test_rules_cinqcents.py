"""Cinq-Cents (variants/cinqcents.yaml; Boussac 1896, adpoker.fr), the single-pack Bezique: the
winner of a trick declares one combination and may exchange the trump seven for the turned card
(10); no combination once the stock is gone, when suit must be followed, the trick won if
possible and trumped when void."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import player_envs
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, legal_texts as texts, mask, order_for, run

#: Dealer 1, so seat 0 leads; the stock's first card, the 10♠, is turned (spades trumps) and
#: lies under the stock, drawn last.
HANDS = {0: "QS JD KS QH QD QC AS 7S", 1: "8H 9H 10H 8C 9C 10C 8D 9D",
         "stock": "10S AH KH JH 7H AC KC JC 7C AD KD 10D 7D JS 9S 8S"}


@pytest.fixture(scope="module")
def v():
    return load_variant("cinqcents")


def deal(v) -> State:
    return State(v, seed=0, deals=[order_for(v, 1, HANDS)], dealer=1)


def own(s, seat: int) -> dict:
    e = s.score_envs()[seat].vars
    return {k: e[k] for k in ("points", "melds", "exchanged", "melds_bezique", "melds_marriage", "melds_queens")}


def test_the_first_leader_declares_nothing_before_winning_a_trick(v):
    """[6] the non-dealer leads; a combination (and the exchange) only after winning a trick:
    the first lead offers neither."""
    s = deal(v)
    assert s.hand.trump == "S" and s.to_move == 0
    assert not [t for t in texts(s) if not t.startswith("play")]


def test_the_winner_declares_one_combination_at_a_time_with_its_points(v):
    """[5] P0 wins trick 1, draws A♥ (P1 K♥), then may exchange the 7♠ for the turned 10♠
    (10), declare the bezique Q♠ J♦ (40), later the trump marriage K♠ Q♠ (40) and four queens
    (40) with the same Q♠: one declaration a trick, each once."""
    s = run(deal(v), "play AS", "play 8H")
    assert "AH" in v.deck.names_of(s.hand.hands[0]) and "KH" in v.deck.names_of(s.hand.hands[1])
    assert texts(s)[:4] == ["exchange", "meld QS JD", "meld QS KS", "meld QS QH QD QC"]
    run(s, "exchange", "meld QS JD")
    assert not [t for t in texts(s) if t.startswith("meld")]          # one a trick
    assert s.observation(1).placed[0] & mask(v, "QS JD 10S") == mask(v, "QS JD 10S")
    run(s, "play JD", "play 9H")                   # the bezique's J♦ played: its 40 stay
    assert "meld QS JD" not in texts(s) and "meld QS KS" in texts(s)
    run(s, "meld KS QS", "play 10S", "play 10H", "meld QS QH QD QC")
    assert own(s, 0) == {"points": 11 + 2 + 10 + 10, "melds": 40 + 40 + 40, "exchanged": 1,
                         "melds_bezique": 1, "melds_marriage": 1, "melds_queens": 1}


def test_a_plain_marriage_is_20_and_a_trump_marriage_40(v):
    """[5] the marriage of trumps 40, in another suit 20."""
    s = run(deal(v), "play AS", "play 8H", "meld QS KS")
    assert own(s, 0)["melds"] == 40
    hands = {**HANDS, 1: "8S 9H 10S 8C 9C 10C 8D 9D",
             "stock": "10H AH KH JH 7H AC KC JC 7C AD KD 10D 7D JS 9S 8H"}
    s = State(v, seed=0, deals=[order_for(v, 1, hands)], dealer=1)
    run(s, "play AS", "play 8S", "meld QS KS")
    assert s.hand.trump == "H" and own(s, 0)["melds"] == 20


def play_to_the_last_eight(s: State, rng: random.Random) -> None:
    while s.hand.zones.get("stock") or s.hand.trick:
        acts = [a for a in s.legal_actions() if a.kind == "play"]
        s.apply(acts[rng.randrange(len(acts))])


def test_once_the_stock_is_gone_force_or_cut_and_no_declarations(v):
    """[8] with the stock exhausted: no combination, suit followed and the trick won if
    possible, a trump played when void; a refused card says why."""
    refused = set()
    for seed in range(40):
        s = deal(v)
        play_to_the_last_eight(s, random.Random(seed))
        assert [s.hand.hands[k].bit_count() for k in (0, 1)] == [8, 8]
        assert not [t for t in texts(s) if not t.startswith("play")]
        leader = s.to_move
        lead = texts(s)[0]
        s.apply(lead)
        other = v.deck.names_of(s.hand.hands[1 - leader])
        suit, trump = lead[-1], s.hand.trump
        ctx = v.contexts[trump]
        led = v.deck.parse(lead.split()[1])
        same = [c for c in other if c[-1] == suit]
        higher = [c for c in same if ctx.strength[v.deck.parse(c)] > ctx.strength[led]]
        trumps = [c for c in other if c[-1] == trump]
        want = higher or same or trumps or other
        assert texts(s) == sorted("play " + c for c in want)
        for c in set(other) - set(want):
            with pytest.raises(IllegalActionError) as e:
                s.apply("play " + c)
            refused.add(str(e.value).split(":")[0])
    assert refused and all("must" in r for r in refused)


def test_a_hand_scores_cards_combinations_and_the_exchange(v):
    """The hand's entry: card points taken (120 in the pack) + combinations + 10 for the
    exchange."""
    for seed in range(5):
        s = deal(v)
        rng = random.Random(seed)
        while not s.sheet.rows:
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        envs = [e.vars for e in player_envs(v, s.hand_log[0])]
        assert sum(e["points"] for e in envs) == 120
        assert s.sheet.rows[0].entries == [e["points"] + e["melds"] + 10 * e["exchanged"] for e in envs]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cinq_cents_plays_to_a_winner(seed):
    """Random legal play reaches 500 for any seed."""
    assert_plays_to_a_winner("cinqcents", seed)
