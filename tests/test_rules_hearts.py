"""Hearts (variants/hearts.yaml, pagat.com "Hearts"): passing, the 2♣ lead, hearts not led
until broken, the points and shooting the moon, the end at 100, and play to a winner."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hearts_plays_to_a_winner(seed):
    """Random legal play of ``hearts`` reaches a winner for any seed (the match cap is not what ends it)."""
    assert_plays_to_a_winner("hearts", seed)


def test_hearts_pass_then_two_of_clubs_leads():
    """Hearts (pagat): the first deal passes three cards left; the holder of 2C leads it; no
    heart and not QS on the first trick while one holds another card."""
    v = load_variant("hearts")
    s = State(v, seed=4, dealer=3)
    assert s.kind.name == "pass_cards"
    passed = []
    for seat in (0, 1, 2, 3):
        a = s.legal_actions()[0]
        passed.append(a.cards)
        s.apply(a)
        assert not s.hand.hands[seat] & a.cards          # nobody receives before all have chosen
    for seat, cards in enumerate(passed):
        assert s.hand.hands[(seat + 1) % 4] & cards == cards   # to the left
    two = v.deck.parse("2C")
    assert s.hand.hands[s.to_move] >> two & 1 and [a.text for a in s.legal_actions()] == ["play 2C"]
    s.apply("play 2C")
    for _ in range(3):
        texts = [a.text for a in s.legal_actions()]
        held = v.deck.names_of(s.hand.hands[s.to_move])
        if any(c.endswith("C") for c in held):
            assert all(t.endswith("C") for t in texts)
        elif any(not (c.endswith("H") or c == "QS") for c in held):
            assert not any(t.endswith("H") or t == "play QS" for t in texts)
        s.apply(texts[0])


def test_hearts_points_and_shooting_the_moon():
    """Hearts (pagat): each heart 1, QS 13; one player taking all 26 scores 0, the others 26."""
    from rulekit.engine.scoring import player_envs, score_hand
    v = load_variant("hearts")
    s = State(v, seed=1, dealer=3)
    h = s.hand
    deck = v.deck
    hearts = sum(1 << deck.parse(r + "H") for r in deck.ranks)
    qs = 1 << deck.parse("QS")
    h.won_cards = [hearts | qs, 0, 0, 0]
    assert score_hand(v, h, player_envs(v, h))[0] == [0, 26, 26, 26]
    h.won_cards = [hearts, qs, 0, 0]
    assert score_hand(v, h, player_envs(v, h))[0] == [13, 13, 0, 0]


def test_hearts_not_led_until_broken():
    """Hearts (pagat): hearts may not be led until one has been played, while the leader holds
    another suit."""
    v = load_variant("hearts")
    s = State(v, seed=7, dealer=3)
    while s.kind.name == "pass_cards":
        s.apply(s.legal_actions()[0])
    while not s.hand.tricks or s.hand.trick:
        s.apply(s.legal_actions()[0])
    leader = s.to_move
    held = v.deck.names_of(s.hand.hands[leader])
    broken = any(v.deck.name(c).endswith("H") for _l, plays, _w, _n in s.hand.tricks for _s, c in plays)
    if not broken and any(not c.endswith("H") for c in held) and any(c.endswith("H") for c in held):
        heart = next(c for c in held if c.endswith("H"))
        with pytest.raises(IllegalActionError) as e:
            s.apply(f"play {heart}")
        assert "hearts may not be led until one has been played" in str(e.value)
    assert not any(a.text.endswith("H") for a in s.legal_actions()) or broken or all(
        c.endswith("H") for c in held)


def test_hearts_ends_at_100_lowest_wins():
    """Hearts (pagat): the game ends when someone reaches 100; the lowest total wins."""
    s = State(load_variant("hearts"), seed=2)
    rng = random.Random(2)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    t = s.sheet.totals()
    assert max(t) >= 100 and len(s.winners) == 1 and t[s.winners[0]] == min(t)
    assert "the lowest total wins" in s.result()["reason"]
