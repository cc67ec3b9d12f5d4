"""The sensible bot bids with the state of the match in mind and reads the auction
(issue 12 case 21; rules/bridge.md [S1] [S2] [S8] [S9])."""
from __future__ import annotations

import random

import pytest

from rulekit.bots import SensibleBot
from rulekit.engine import State
from rulekit.engine.scoring import envs_for
from rulekit.variant import load_variant

# North (dealer, first to call) holds K J 10 of clubs, A K J of hearts, J 10 of spades and
# Q 9 8 7 6 5 of diamonds: a part-score hand, no game without help from South.
DEAL = ("5C 5S 5H 10S 8H 7S AD 5D 2D QD 4H 7D 6C 9H 3S JC 3D 7H 4S JS 3H QS 4C 6D KS QC 9S AH "
        "10H 8S 7C KH 4D AC 8C 10C 2C 6S 3C KC JD 2H AS JH 9C KD 10D 8D 2S 6H QH 9D").split()


@pytest.fixture(scope="module")
def bridge():
    return load_variant("bridge")


def trick_score(bid) -> int:
    """[S1] points below the line of a contract made (undoubled)."""
    if bid.endswith("NT"):
        return 40 + 30 * (int(bid[0]) - 1)
    return int(bid[0]) * (30 if bid[-1] in "HS" else 20)


def north_bid(bridge, part_score: int, bot_seed: int) -> str:
    s = State(bridge, seed=1, deals=[DEAL], dealer=0)
    s.progress.game_score = [part_score, 0]      # NS hold a part-score of ``part_score``
    return SensibleBot(seed=bot_seed).act(s.observation(0)).text


def test_part_score_of_70_makes_the_bot_bid_a_game_making_contract(bridge):
    """issue 12 case 21: on the same hand, with no part-score North opens a part-score
    contract (below 100), with a part-score of 70 a contract whose trick score completes the
    game ([S2]: 100 below the line).  The bot samples worlds, so this is checked over ten bot
    seeds: the bids with 70 complete the game in at least 8, and in at least 4 seeds the bid
    changes because of the part-score, always to one that completes the game."""
    at_0 = {seed: north_bid(bridge, 0, seed) for seed in range(1, 11)}
    at_70 = {seed: north_bid(bridge, 70, seed) for seed in range(1, 11)}
    assert all(trick_score(b) < 100 for b in at_0.values())
    assert sum(70 + trick_score(b) >= 100 for b in at_70.values()) >= 8
    changed = [seed for seed in at_0 if at_0[seed] != at_70[seed]]
    assert len(changed) >= 4
    assert all(at_0[seed] == "1D" and 70 + trick_score(at_70[seed]) >= 100 for seed in changed)


def test_match_value_counts_game_and_rubber(bridge):
    """issue 12 case 21, [S2] [S8] [S9]: 2S made is worth nothing extra with no part-score,
    a game (the bonus for an unfinished game, 300) with 70 below the line, and the rubber
    bonus (700) when the side has a game already and the opponents none."""
    from rulekit.bots.sensible import match_value
    bid = next(b for b in bridge.auction().bids if b.text == "2S")
    won = [8, 0, 0, 0]                          # North declares and takes 8 tricks

    class Obs:
        game_score, games = [0, 0], [0, 0]
    obs = Obs()
    envs = envs_for(bridge, bid, 0, "S", won, [0] * 4, {"vulnerable": [False, False]})
    assert match_value(bridge, bid, 0, envs, obs) == [0, 0]
    obs.game_score = [70, 0]
    assert match_value(bridge, bid, 0, envs, obs) == [300, 0]
    obs.games = [1, 0]
    assert match_value(bridge, bid, 0, envs, obs) == [700, 0]


def test_sampled_worlds_fit_the_auction(bridge):
    """issue 12 case 21: after East opened 1S, the worlds North's bot imagines give East
    at least three spades and an average hand (10 of the 40 high-card points)."""
    from rulekit.bots.sensible import fits_calls, high_card_points
    s = State(bridge, seed=1, deals=[DEAL], dealer=3)   # West deals and calls first
    for call in ("pass", "pass", "1S"):                  # West, North, East
        s.apply(call)
    o = s.observation(0)
    bot = SensibleBot(seed=2)
    spades = bridge.contexts["S"].group_mask[bridge.contexts["S"].trump_group]
    nt = bridge.contexts["NT"]
    for _ in range(20):
        w = bot.sample(o)
        assert (w.hand.hands[1] & spades).bit_count() >= 3
        assert high_card_points(nt, w.hand.hands[1]) >= 10
    # a raw sample does not always fit (else the filter would test nothing)
    rng = random.Random(0)
    assert not all(fits_calls(o.sample_world(rng), o) for _ in range(40))
