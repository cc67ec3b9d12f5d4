"""Spades (variants/spades.yaml, pagat.com "Spades" and MSN Zone's rules): side contracts,
overtricks (bags), nil and blind nil, spades not led until broken, and play to a winner."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import carry_counters, player_envs, score_hand
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_spades_plays_to_a_winner(seed):
    """Random legal play of ``spades`` reaches a winner for any seed (the match cap is not what ends it)."""
    assert_plays_to_a_winner("spades", seed)


def _play_hand(s, pick=lambda acts: acts[0]):
    n = s.hand.number
    while s.hand.number == n and not s.is_over:
        s.apply(pick(s.legal_actions()))


def test_spades_side_contract_overtricks_and_nil():
    """Spades (pagat): N bids 3 and S 2: NS must take 5; making it scores 10 a trick bid plus 1 a
    bag; a failed contract loses 10 a trick bid; a made nil +100, a failed nil -100."""
    from rulekit.engine.scoring import player_envs, score_hand
    v = load_variant("spades")
    s = State(v, seed=1, dealer=3)
    assert s.hand.trump == "S"
    for b in ("bid 3", "bid 0", "bid 2", "bid 4"):   # N, E (nil), S, W from the dealer's left
        s.apply(b)
    h = s.hand
    h.won = [4, 0, 2, 7]                           # NS 6 of 5: 51; EW: W 7 of 4 = 43, E's nil +100
    assert score_hand(v, h, player_envs(v, h))[0] == [51, 143]
    h.won = [2, 1, 2, 8]                           # NS 4 of 5: -50; EW: 44, E's nil failed -100
    assert score_hand(v, h, player_envs(v, h))[0] == [-50, -56]


def test_spades_ten_bags_cost_100():
    """Spades (pagat): bags carry from deal to deal; at 10 a side loses 100 and 10 bags go."""
    v = load_variant("spades")
    s = State(v, seed=3, dealer=3)
    s.counters["bags"] = [9, 9]
    bids = ["bid 1", "bid 1", "bid 1", "bid 1"]
    for b in bids:
        s.apply(b)
    _play_hand(s)
    won = s.hand_log[0].won
    for side, (a, b) in enumerate(((0, 2), (1, 3))):
        took = won[a] + won[b]
        entry = 20 + (took - 2) if took >= 2 else -20
        bags = 9 + (took - 2 if took >= 2 else 0)
        if bags >= 10:
            entry, bags = entry - 100, bags - 10
        assert s.sheet.totals()[side] == entry and s.counters["bags"][side] == bags


def test_spades_not_led_until_broken():
    """Spades (pagat): spades may not be led until one has been played, unless the leader has
    only spades; the player left of the dealer leads the first trick."""
    v = load_variant("spades")
    s = State(v, seed=5, dealer=3)
    for b in ("bid 3", "bid 3", "bid 3", "bid 3"):
        s.apply(b)
    assert s.to_move == 0
    held = v.deck.names_of(s.hand.hands[0])
    spade = next(c for c in held if c.endswith("S"))
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"play {spade}")
    assert "spades may not be led until one has been played" in str(e.value)


def test_spades_describes_blind_nil():
    from rulekit.variant.explain import explain
    t = " ".join(explain(load_variant("spades")).split())
    assert "100 points or more behind the best other may instead bid blind nil before looking at his cards" in t
    assert "passes 2 cards face down to his partner" in t


def test_spades_plays_with_blind_nils_to_a_winner():
    """Every seed plays to a winner, bots deciding on blind nil without their cards."""
    from rulekit.bots.sensible import SensibleBot
    v = load_variant("spades")
    for seed in (1, 2, 3):
        s = State(v, seed=seed, max_hands=30)
        bots = [SensibleBot(seed=seed * 10 + k, samples=2, bid_samples=2) for k in range(4)]
        while not s.is_over:
            s.apply(bots[s.to_move].act(s.observation(s.to_move)))
        assert s.winners


def test_spades_failed_nil_counts_one_bag():
    """MSN Zone's worked example on spades.yaml: N bids nil, S bids 2, each takes one trick:
    NS -100 (failed nil) -20 (S's 2 not made: N's trick is not S's) = -120 and one bag; EW bid
    5 + 4 and took 11: 90 + 2, two bags."""
    v = load_variant("spades")
    s = State(v, seed=1, dealer=3)
    for b in ("bid 0", "bid 5", "bid 2", "bid 4"):   # N (nil), E, S, W
        s.apply(b)
    h = s.hand
    h.won = [1, 6, 1, 5]
    envs = player_envs(v, h)
    assert [e.vars["nil_tricks"] for e in envs] == [1, 0]
    entries = score_hand(v, h, envs)[0]
    assert entries == [-120, 92]
    counts = {"bags": [9, 0]}                       # NS had nine bags: the tenth costs 100
    note = carry_counters(v, counts, envs, entries, ["NS", "EW"])
    assert entries == [-220, 92] and counts == {"bags": [0, 2]}
    assert note == "; bags 10 to NS (-100)"
