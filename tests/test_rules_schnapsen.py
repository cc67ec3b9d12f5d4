"""Schnapsen (variants/schnapsen.yaml, docs/rules/schnapsen.md): the page's worked examples, the
cross-check against the independent referee (tests/referees/schnapsen.py), and play to a winner."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, legal_texts as texts, order_for, run
from tests.referees import schnapsen as referee
from tests.stock_crosscheck import assert_match_agrees, check_random_hands, cross_check

#: Example 2's deal: dealer 1, the turn-up 10♥ (first of the stock zone, drawn last).
EXAMPLE = {0: "KH QH AS 10S JC", 1: "AH JH KS QC 10D", "stock": "10H AD QS KC JD 10C KD JS AC QD"}


@pytest.fixture(scope="module")
def v():
    return load_variant("schnapsen")


def example(v, scores=None) -> State:
    return State(v, seed=0, deals=[order_for(v, 1, EXAMPLE)], dealer=1, scores=scores)


def score(s, seat: int) -> int:
    e = s.score_envs()[seat].vars
    return e["points"] + e["melds"]


def test_example1_pack_and_points(v):
    """[SN-P1] [SN-P2]: 20 cards, 120 card points; A > 10 > K > Q > J."""
    assert v.deck.size == 20 and sum(v.card_points) == 120
    ctx = v.contexts["NT"]
    order = sorted(("A", "10", "K", "Q", "J"), key=lambda r: -ctx.strength[v.deck.parse(r + "S")])
    assert order == ["A", "10", "K", "Q", "J"]


def test_example2_deal_draw_exchange_marriage_claim(v):
    """[SN-D1] [SN-D2] [SN-T1]..[SN-T4] [SN-X1] [SN-M1] [SN-M2] [SN-G1] [SN-S1]: the page's deal
    to a claim made for 2 game points."""
    s = example(v)
    assert s.hand.trump == "H" and s.to_move == 0
    assert texts(s) == ["claim", "close", "meld QH KH", "play 10S", "play AS", "play JC", "play KH", "play QH"]
    s.apply("meld KH QH")
    assert texts(s) == ["claim", "play KH", "play QH"] and score(s, 0) == 0
    s.apply("play QH")
    assert texts(s) == ["play 10D", "play AH", "play JH", "play KS", "play QC"]
    s.apply("play AH")
    names = lambda seat: set(v.deck.names_of(s.hand.hands[seat]))   # noqa: E731
    assert score(s, 1) == 14 and "AD" in names(1) and "QS" in names(0) and s.to_move == 1
    s.apply("exchange")
    assert "10H" in names(1) and s.observation(0).zone_known == {"stock": 1 << v.deck.parse("JH")}
    run(s, "play 10D", "play KH")
    assert score(s, 0) == 54 and "KC" in names(0) and "JD" in names(1)
    run(s, "play AS", "play KS")
    assert score(s, 0) == 69
    s.apply("claim")
    assert s.sheet.rows[0].entries == [2, 0]          # seat 1: a trick and 14 points


def test_example3_closing(v):
    """[SN-C1]..[SN-C3] [SN-T5] [SN-S3]: after closing nobody draws nor exchanges, the follower
    must head the trick; the closer's claim is judged on the figures at the close."""
    s = run(example(v), "meld KH QH", "play QH", "play AH", "exchange", "play 10D", "play KH", "close")
    assert "exchange" not in texts(s) and "close" not in texts(s)
    s.apply("play AS")
    assert texts(s) == ["play KS"]                     # K♠ Q♣ A♦ 10♥ J♦: must head with K♠
    with pytest.raises(IllegalActionError, match="you must follow spades"):
        s.apply("play AD")
    s.apply("play KS")
    assert [m.bit_count() for m in s.hand.hands] == [4, 4]   # no draw after a close
    s.apply("claim")
    assert s.sheet.rows[0].entries == [2, 0]
    s = run(example(v), "meld KH QH", "play QH", "play AH", "exchange", "play 10D", "play KH", "close", "play JC")
    assert texts(s) == ["play QC"]                     # heads J♣ with Q♣
    s = run(example(v), "meld KH QH", "play QH", "play AH", "exchange", "play 10D", "play KH", "close", "claim")
    assert s.sheet.rows[0].entries == [0, 2]           # 54: failed; seat 1 had a trick at the close


def test_example4_claim_at_the_first_lead(v):
    """[SN-M2] [SN-S2]: the 40 do not count without a trick: the claim fails, seat 1 (no trick)
    scores 3."""
    s = run(example(v), "meld KH QH", "claim")
    assert s.sheet.rows[0].entries == [0, 3]
    said = REGISTRY["tricks"].said(v.phases[-1], s.hand_log[0], v, 0, "claim", s.names)
    assert said.third == "claims: failed"


def test_example5_played_out_without_66_the_last_trick_scores_one(v):
    """[SN-S5] [SN-S6]: with no claim, no close and nobody at 66, the winner of the last trick
    scores 1 (a deal played with no marriage declared)."""
    found = 0
    for seed in range(60):
        s = State(v, seed=seed)
        while not s.sheet.rows:
            plays = [a for a in s.legal_actions() if a.kind == "play"]
            s.apply(plays[seed % len(plays)])
        h = s.hand_log[0]
        envs = [e.vars for e in _envs(v, h)]
        if max(e["points"] for e in envs) >= 66:
            continue
        found += 1
        last = h.trick_winners[-1]
        assert s.sheet.rows[0].entries == [1 if k == last else 0 for k in (0, 1)]
        assert sum(e["points"] for e in envs) == 120
    assert found >= 3


def _envs(v, h):
    from rulekit.engine.scoring import player_envs
    return player_envs(v, h)


def test_example6_bummerl(v):
    """[SN-B1]: 2, 1, 3 to seat 0 and 3 to seat 1 make 6 to 3; a 1 more wins the Bummerl at 7."""
    s = example(v, scores=[6, 3])
    run(s, "meld KH QH", "play QH", "play AH", "exchange", "play 10D", "play KH", "play AS", "play KS", "claim")
    assert s.is_over and s.winners == [0] and s.sheet.totals() == [8, 3]


def test_referee_cross_check():
    """Random deals played through rulekit and the referee side by side: the same legal actions
    at every decision, the same hands after every draw, no stock card in any observation, the
    same points and game points."""
    t = cross_check("schnapsen", referee, seed=1, deals=250)
    assert t.decisions > 3000 and t.claims > 100 and t.closes > 100 and t.exchanges > 15 and t.melds > 30


def test_referee_cross_check_of_the_house_rule():
    """``schnapsen-no-late-exchange`` against the referee's ``late_exchange: false``."""
    cross_check("schnapsen-no-late-exchange", referee, seed=2, deals=150, options={"late_exchange": False})


@pytest.mark.slow
def test_referee_cross_check_many_deals():
    """The cross-check over 2,000 deals."""
    cross_check("schnapsen", referee, seed=11, deals=2000)


@pytest.mark.parametrize("seed", range(4))
def test_match_winner_agrees_with_the_referee(seed):
    """[SN-B1]: whole matches of random deals end with the referee's winner of the same entries."""
    assert_match_agrees("schnapsen", referee, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_schnapsen_plays_to_a_winner(seed):
    """Random legal play reaches a winner for any seed (not the match cap)."""
    assert_plays_to_a_winner("schnapsen", seed)


def test_random_hands_draw_in_order_and_keep_the_stock_hidden(v):
    """Random hands: after each trick the winner draws the stock's top card, then the loser; the
    turn-up (or the jack exchanged for it) comes last; no close or exchange is offered once the
    stock is closed or exhausted; no observation places a face-down stock card."""
    assert check_random_hands(v, range(100)) > 100


def test_a_record_replays_every_turn_action(tmp_path):
    """A saved match with exchanges, closes, marriages and claims replays to the same sheet."""
    from rulekit import records
    v = load_variant("schnapsen")
    for seed in range(20):   # the first match of random play with every kind of action
        s = State(v, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        if {"exchange", "close", "meld", "claim", "play"} <= {t.split()[0] for _s, t in s.history}:
            break
    else:
        pytest.fail("no match with every kind of action")
    f = tmp_path / "game.json"
    records.save(f, records.to_record(s))
    again = records.replay(records.load(f))
    assert again.history == s.history and again.sheet.totals() == s.sheet.totals() and again.winners == s.winners
