"""Gallery games of issue 11, second part (Hearts, Spades): worked examples from the standard
published rules (pagat.com) and play to a winner for several seeds."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant

GALLERY2 = ("hearts", "spades", "euchre")


@pytest.mark.parametrize("vid", GALLERY2)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gallery2_plays_to_a_winner(vid, seed):
    """issue 11: every gallery variant plays to a winner (random legal play, any seed)."""
    rng = random.Random(seed)
    s = State(load_variant(vid), seed=seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners and "stopped" not in s.result()["reason"]


def _play_hand(s, pick=lambda acts: acts[0]):
    n = s.hand.number
    while s.hand.number == n and not s.is_over:
        s.apply(pick(s.legal_actions()))


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


def test_euchre_order_up_dealer_takes_the_card():
    """Euchre (pagat): ordering up makes the turned card's suit trumps; the dealer takes it and
    discards one; the right bower is the highest trump and the left bower follows trumps."""
    v = load_variant("euchre")
    s = State(v, seed=2, dealer=3)
    turned = s.observation(0).phase_data["turned"]
    suit = v.deck.suit_of(turned)
    assert [a.text for a in s.legal_actions()] == ["pass", "order", "order alone"]
    s.apply("order")
    assert s.hand.trump == suit and s.hand.declarer == 0 and s.to_move == 3
    assert s.hand.hands[3] >> turned & 1 and s.hand.hands[3].bit_count() == 6
    s.apply(s.legal_actions()[0])
    assert [m.bit_count() for m in s.hand.hands] == [5, 5, 5, 5]
    ctx = v.contexts[suit]
    sister = {"S": "C", "C": "S", "H": "D", "D": "H"}[suit]
    right, left = v.deck.parse("J" + suit), v.deck.parse("J" + sister)
    assert max(range(24), key=lambda c: ctx.strength[c]) == right
    assert ctx.group_of[left] == ctx.group_of[right]


def test_euchre_second_round_names_another_suit_and_alone():
    """Euchre (pagat): after four passes the turned suit may not be named; a lone maker's
    partner sits out; a lone march scores 4, 3 or 4 tricks 1, euchred defenders 2."""
    from rulekit.engine.scoring import player_envs, score_hand
    v = load_variant("euchre")
    s = State(v, seed=2, dealer=3)
    suit = v.deck.suit_of(s.observation(0).phase_data["turned"])
    for _ in range(4):
        s.apply("pass")
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"trump {suit}")
    assert "turned down: name another suit" in str(e.value)
    other = next(x for x in "SHDC" if x != suit)
    s.apply(f"trump {other} alone")
    assert s.hand.trump == other and s.hand.hands[2] == 0 and s.kind.name == "tricks"
    h = s.hand
    for side_tricks, entries in (((5, 0), [4, 0]), ((3, 2), [1, 0]), ((2, 3), [0, 2])):
        envs = player_envs(v, h)
        for env, t in zip(envs, side_tricks):
            env.vars["tricks"] = t
        assert score_hand(v, h, envs)[0] == entries


def test_euchre_all_pass_twice_throws_in():
    """Euchre (pagat): if all pass in both rounds the deal is thrown in and passes on."""
    s = State(load_variant("euchre"), seed=2, dealer=3)
    for _ in range(8):
        s.apply("pass")
    assert s.hand.number == 1 and s.hand.dealer == 0 and s.sheet.totals() == [0, 0]
