"""Checks shared by the Schnapsen and Sixty-Six referee tests: scripted and random play."""
from __future__ import annotations

import random

from tests.referees import stockgame


def run(d: stockgame.Deal, *actions: str) -> stockgame.Deal:
    for a in actions:
        d.apply(a)
    return d


def random_deals(module, n: int, seed: int, step=None):
    """Play ``n`` random deals of ``module``; claims are rarer than other actions. ``step(d)``
    is called before each action."""
    rng = random.Random(seed)
    for i in range(n):
        dealer = i % 2
        hands, extra = module.deal_random(rng, dealer)
        d = module.Deal(hands, extra, dealer)
        start = [list(h) for h in d.hands], list(d.stock), d.turnup
        while not d.is_over():
            if step:
                step(d)
            acts = d.legal()
            assert acts == sorted(acts) and acts
            others = [a for a in acts if a != "claim"]
            want = "claim" in acts and (d.points(d.to_move()) >= 66 or rng.random() < 0.02)
            d.apply("claim" if want or not others else rng.choice(others))
        yield start, d


def check_stock_game(module, d, start) -> None:
    """Card conservation, the talon drawn in order (winner first), the claim and score rules."""
    hands0, stock0, turnup0 = start
    r = d.result()
    won = d.won[0] + d.won[1]
    rest = d.hands[0] + d.hands[1] + d.stock + ([d.turnup] if d.turnup else []) + [c for _, c in d.trick]
    assert sorted(won + rest) == sorted(module.PACK)
    talon = stock0 + [turnup0]
    drawn = [c for _, c in r["draws"]]
    if len(drawn) == len(talon) and r["exchanged_by"] is not None:  # the low trump replaced the turn-up
        talon[-1] = module.RULES.low_trump + r["trump"]
    assert drawn == talon[:len(drawn)]
    for i, pair in enumerate(zip(r["draws"][::2], r["draws"][1::2])):
        assert [s for s, _ in pair] == [r["trick_winners"][i], 1 - r["trick_winners"][i]]
    counted = [sum(v for _, v in m) if r["tricks"][s] else 0 for s, m in enumerate(r["marriages"])]
    assert r["points"] == [r["card_points"][s] + counted[s] + r["last_trick_points"][s] for s in (0, 1)]
    value = sum(stockgame.VALUES[stockgame.rank(c)] for c in rest)
    assert sum(r["card_points"]) + value == 120  # the identity of the pack's 120 card points
    if not d.hands[0] and not d.hands[1]:
        expected_bonus = module.RULES.last_trick_bonus if r["closed_by"] is None else 0
        assert r["last_trick_points"][r["trick_winners"][-1]] == expected_bonus
    assert sum(r["scores"]) == r["game_points"] and max(r["scores"]) <= 3
    if r["claimer"] is not None and r["reason"].startswith("claim"):
        assert r["claim_made"] == (r["points"][r["claimer"]] >= 66)
    if r["reason"] == "last trick":
        assert max(r["points"]) < 66 and r["winner"] == r["trick_winners"][-1] and r["game_points"] == 1
