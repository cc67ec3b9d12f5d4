"""Blind nil in ``trick_bids`` (``blind_nil: {behind, exchange}``): a bid of 0 made before
looking at the cards, allowed to a side far enough behind (pagat.com "Spades": losing by 100
or more; two cards exchanged with the partner; 200 made, -200 failed).  Fair play: until a
player has decided, neither his observation nor the terminal shows his cards."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant

SIDE = """id: side
name: Side
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "1 x 3"}
  bidding: {kind: trick_bids, blind_nil: {%(blind)s}}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "(if bid_tricks >= bid then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed + 200 * blind_nil_made - 200 * blind_nil_failed"
match: {deals: 1}
"""


def side(tmp_path, blind="behind: 0"):
    f = tmp_path / "side.yaml"
    f.write_text(SIDE % {"blind": blind})
    return load_variant(str(f))


def order(v, hands: dict, eldest: int = 0) -> list:
    """The deck order dealing ``hands`` (seat -> cards) one card at a time from ``eldest``."""
    n = v.players
    size = len(hands[0])
    return [hands[(eldest + k) % n][i] for i in range(size) for k in range(n)]


LOW_N = {0: ["9H", "10H", "JH"], 1: ["AS", "KS", "QS"], 2: ["AH", "KH", "QH"], 3: ["JS", "10S", "9S"]}
HIGH_N = {0: ["AH", "KH", "QH"], 1: ["AS", "KS", "QS"], 2: ["9H", "10H", "JH"], 3: ["JS", "10S", "9S"]}


def play_out(s):
    """Each player plays his first legal card to the end."""
    while not s.is_over:
        s.apply(s.legal_actions()[0])


def test_blind_nil_made_scores_200(tmp_path):
    """Blind nil made: N bids blind nil and takes no trick (his hearts are the lowest, S must
    follow above him): NS 30 for S's 3 made + 200 = 230; EW -30 for E's failed 3 + 100 for
    W's nil = 70."""
    v = side(tmp_path)
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    assert [a.text for a in s.legal_actions()] == ["blind nil", "look"]
    for a in ("blind nil", "look", "bid 3", "look", "bid 3", "look", "bid 0"):
        s.apply(a)
    assert s.hand.calls == [(0, "blind nil"), (1, "bid 3"), (2, "bid 3"), (3, "nil")]  # user pass 2, finding 5: a nil is shown so
    play_out(s)
    assert s.hand_log[0].won == [0, 0, 3, 0]
    assert s.sheet.totals() == [230, 70]


def test_blind_nil_failed_loses_200(tmp_path):
    """Blind nil failed: N holds the top hearts and takes all three tricks: NS -200 for the
    blind nil and -10 for S's bid of 1 (S took none); EW -20 (bid 2, took none)."""
    v = side(tmp_path)
    s = State(v, deals=[order(v, HIGH_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 1", "look", "bid 1"):
        s.apply(a)
    play_out(s)
    assert s.hand_log[0].won == [3, 0, 0, 0]
    assert s.sheet.totals() == [-210, -20]


def test_hand_hidden_from_its_owner_until_he_decides(tmp_path):
    """Fair play: before N chooses (blind nil or look) his observation shows no cards (and
    says so: ``blind``), the terminal shows them face down, a bot's sampled world deals him
    cards at random; after ``look`` he sees his own three."""
    from cli.render import hand_text
    v = side(tmp_path)
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    o = s.observation(0)
    assert o.hand == 0 and o.blind and o.hand_sizes[0] == 3
    assert hand_text(s, 0).plain == "3 cards face down (not looked at yet)"
    assert s.observation(1).blind   # anyone may bid blind here (behind: 0): E has not looked either
    worlds = {o.sample_world(random.Random(k)).hand.hands[0] for k in range(20)}
    assert len(worlds) > 1  # his cards are unknown to him: sampled like another's
    with pytest.raises(IllegalActionError, match="decide first: blind nil"):
        s.apply("bid 2")
    s.apply("look")
    o = s.observation(0)
    assert not o.blind and sorted(v.deck.names_of(o.hand)) == sorted(LOW_N[0])
    assert [a.text for a in s.legal_actions()] == ["bid 0", "bid 1", "bid 2", "bid 3"]


def test_blind_nil_only_when_behind(tmp_path):
    """pagat: blind nil only for a side losing by 100 or more: at 0 to 150 NS (behind by 150)
    may, EW may not; at 0 to 50 nobody may, and the refusal says why."""
    v = load_variant("spades")
    s = State(v, seed=1, scores=[0, 150], dealer=3)
    tb = kind_of("trick_bids").data_of(s.hand)
    assert tb.undecided == [0, 2]
    assert [a.text for a in s.legal_actions()] == ["blind nil", "look"]
    assert s.observation(0).hand == 0 and s.observation(1).hand.bit_count() == 13   # E may not: he sees his cards
    s = State(v, seed=1, scores=[0, 50], dealer=3)
    assert kind_of("trick_bids").data_of(s.hand).undecided == []
    with pytest.raises(IllegalActionError) as e:
        s.apply("blind nil")
    assert "blind nil is not allowed now" in str(e.value) and "100 points or more behind" in str(e.value)


def test_exchange_after_blind_nil(tmp_path):
    """pagat: the blind nil bidder passes cards face down to his partner, who adds them and
    passes as many back (here one card each way)."""
    v = side(tmp_path, "behind: 0, exchange: 1")
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 2", "look", "bid 0"):
        s.apply(a)
    assert s.phase_kind == "trick_bids" and s.to_move == 0
    assert [a.text for a in s.legal_actions()] == ["discard 9H", "discard 10H", "discard JH"]
    s.apply("discard JH")
    assert s.to_move == 2 and sorted(v.deck.names_of(s.hand.hands[2])) == sorted(["AH", "KH", "QH", "JH"])
    with pytest.raises(IllegalActionError, match="pass 1 of your cards"):
        s.apply("discard 9S")
    s.apply("discard AH")
    assert sorted(v.deck.names_of(s.hand.hands[0])) == sorted(["9H", "10H", "AH"])
    assert s.phase_kind == "tricks"


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
