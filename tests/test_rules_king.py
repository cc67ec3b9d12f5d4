"""King (rules/king.md, seed 003): every rule id and worked example as a test."""
from __future__ import annotations

import random

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import deal_order

N, E, S, W = range(4)


@pytest.fixture(scope="module")
def king():
    return load_variant("king")


def order_for(v, hands: dict, eldest: int, pattern=(2, 2, 2, 2)) -> list:
    """Dealing order giving ``hands`` (seat -> 8 card texts), packets from the eldest hand."""
    out = deal_order(hands, pattern, first=eldest)
    assert sorted(out) == sorted(v.deck.name(c) for c in range(32))
    return out


def deals_until(v, round_no: int, order: list, seed: int = 0) -> list:
    """Explicit deals: shuffled ones before round ``round_no`` (1-based), then ``order``."""
    rng = random.Random(seed)
    out = []
    for _ in range(round_no - 1):
        d = [v.deck.name(c) for c in range(32)]
        rng.shuffle(d)
        out.append(d)
    return out + [order]


def to_round(s: State, round_no: int) -> State:
    """Play the first legal action until round ``round_no`` (1-based) is being played."""
    while s.hands_played < round_no - 1:
        s.apply(s.legal_actions()[0])
    return s


def play_round(s: State, seed: int = 0):
    """Random bots play the current round; returns its hand and sheet row."""
    k = s.hands_played
    bots = [RandomBot(seed + i) for i in range(4)]
    h = s.hand
    while s.hands_played == k and not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    return h, s.sheet.rows[k]


def test_P1_four_players_32_cards(king):
    """[P1] four players each for himself, 32 cards A K Q J 10 9 8 7."""
    assert king.players == 4 and king.deck.size == 32 and king.sides == ((0,), (1,), (2,), (3,))
    assert king.deck.ranks == ("7", "8", "9", "10", "J", "Q", "K", "A")


def test_D1_deal_two_at_a_time_passes_left(king):
    """[D1] deal clockwise from the dealer's left, two at a time, 8 each; the deal passes left."""
    s = State(king, seed=4)
    h = s.hand
    assert [m.bit_count() for m in h.hands] == [8] * 4
    assert h.hands[h.eldest] >> h.deck_order[0] & 1 and h.hands[h.eldest] >> h.deck_order[1] & 1
    assert h.hands[(h.eldest + 1) % 4] >> h.deck_order[2] & 1
    to_round(s, 12)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert [x.dealer for x in s.hand_log] == [(s.first_dealer + k) % 4 for k in range(12)]


def test_T0_eldest_leads_follow_suit_no_trumps(king):
    """[T0] the player left of the dealer leads, follow suit if able, no trumps, winner leads."""
    s = State(king, seed=2)
    h = s.hand
    assert h.trump == "NT" and s.to_move == h.eldest
    lead = s.legal_actions()[0]
    s.apply(lead)
    suit = king.deck.suit_of(lead.card)
    follow = [c for c in range(32) if h.hands[s.to_move] >> c & 1 and king.deck.suit_of(c) == suit]
    other = [c for c in range(32) if h.hands[s.to_move] >> c & 1 and king.deck.suit_of(c) != suit]
    if follow and other:
        with pytest.raises(IllegalActionError, match="you must follow"):
            s.apply("play " + king.deck.name(other[0]))
    while not h.tricks:
        s.apply(s.legal_actions()[0])
    assert s.to_move == h.tricks[0][2]


@pytest.mark.parametrize("seed", range(3))
def test_K1_to_K5_penalties(king, seed):
    """[K1] -2 per trick; [K2] -2 per heart; [K3] -2 per jack; [K4] -4 per queen; [K5] -4 for
    each of tricks 7 and 8 (worked example 1: North wins trick 7, East trick 8: -4 each)."""
    s = State(king, seed=seed)
    suit_of, rank_of = king.deck.suit_of, king.deck.rank_of
    for rule in range(1, 6):
        h, row = play_round(s, seed)
        assert s.rules_of(h.number).round_name == ["no tricks", "no hearts", "no boys", "no girls",
                                                   "not the last two"][rule - 1]
        cards = [[c for c in range(32) if m >> c & 1] for m in h.won_cards]
        want = {1: [-2 * w for w in h.won],
                2: [-2 * sum(suit_of(c) == "H" for c in cs) for cs in cards],
                3: [-2 * sum(rank_of(c) == "J" for c in cs) for cs in cards],
                4: [-4 * sum(rank_of(c) == "Q" for c in cs) for cs in cards],
                5: [-4 * ([t[2] for t in h.tricks[6:8]].count(p)) for p in range(4)]}[rule]
        assert row.entries == want and sum(want) == [-16, -16, -8, -16, -8][rule - 1]


def test_K2_example5_refusal(king):
    """[K2] worked example 5: the leader holding hearts and clubs may not lead a heart
    (refused with the reason); a club is fine."""
    hands = {E: "AH KH QH AC KC QC JC 10C".split(), S: "AS KS QS JS 10S 9S 8S 7S".split(),
             W: "AD KD QD JD 10D 9D 8D 7D".split(), N: "JH 10H 9H 8H 7H 9C 8C 7C".split()}
    s = State(king, seed=0, dealer=3, deals=deals_until(king, 2, order_for(king, hands, E)))
    to_round(s, 2)
    assert s.to_move == E
    with pytest.raises(IllegalActionError, match="hearts"):
        s.apply("AH")
    s.apply("AC")


def test_K2_hearts_never_led_even_after_they_are_played(king):
    """[K2]: hearts may not be led while the leader holds another suit for the
    whole round, not only until hearts are "broken": after South throws a heart on trick 1, East
    (hearts and clubs) still may not lead one (the tester saw 10H led at trick 2 of hand 2)."""
    hands = {E: "AH KH QH AC KC QC JC 10C".split(), S: "AS KS QS JS 10S 9S 8S 7H".split(),
             W: "AD KD QD JD 10D 9D 8D 7D".split(), N: "JH 10H 9H 8H 7S 9C 8C 7C".split()}
    s = State(king, seed=0, dealer=3, deals=deals_until(king, 2, order_for(king, hands, E)))
    to_round(s, 2)
    for card in ("AC", "7H", "7D", "7C"):   # South, void in clubs, throws a heart
        s.apply(card)
    assert s.to_move == E and sorted(a.text for a in s.legal_actions()) == [
        "play 10C", "play JC", "play KC", "play QC"]
    with pytest.raises(IllegalActionError, match="^hearts may not be led, while you hold another suit"):
        s.apply("AH")


def test_K2_K6_auto_play_never_leads_a_heart_while_holding_another_suit(king):
    """[K2] [K6]: in rounds 2 and 6 of a whole random match no lead is a heart
    while the leader held another suit (the checked path; tests/test_fast_path.py the fast one)."""
    for seed in range(3):
        s = State(king, seed=seed)
        while not s.is_over:
            h = s.hand
            rnd = s.hands_played + 1
            if rnd in (2, 6) and h.to_move is not None and not h.trick and s.current_phase.kind == "tricks":
                hand = h.hands[h.to_move]
                hearts = sum(1 << king.deck.index[r + "H"] for r in king.deck.ranks)
                if hand & ~hearts:
                    assert not any(a.text.endswith("H") for a in s.legal_actions()), (seed, rnd)
            s.apply(RandomBot(seed).act(s.observation(s.to_move)))


def test_K6_example3_king_of_hearts_ends_the_round(king):
    """[K6] worked example 3: West, void in the suit led, throws K♥ on trick 3 and North wins
    it: North -8; the round is over after trick 3."""
    hands = {N: "AS AC AD KS QS JS 10S 9S".split(), E: "8S 7S KC QC JC 10C 9C 8C".split(),
             S: "7C KD QD JD 10D 9D 8D 7D".split(), W: "AH KH QH JH 10H 9H 8H 7H".split()}
    first_dealer = (W - 5) % 4
    s = State(king, seed=0, dealer=first_dealer, deals=deals_until(king, 6, order_for(king, hands, N)))
    to_round(s, 6)
    assert s.variant.round_name == "no king" and s.to_move == N
    for t in ["AS", "8S", "7C", "7H", "KS", "7S", "KD", "8H", "QS", "KC", "QD", "KH"]:
        s.apply(t)
    h = s.hand_log[-1]
    assert len(h.tricks) == 3 and s.hands_played == 6
    assert s.sheet.rows[5].entries == [-8, 0, 0, 0]


def test_K7_example2_running_total(king):
    """[K7] worked example 2: cards 10 A 7 K (25: P4 -1), A 10 Q J (51: P4 -3), A 10 K (76: P3 -5),
    A 10 Q (100: P2 -7); the round is over."""
    hands = {N: "10S AS AH 10H 7S 8S 9S 7H".split(), E: "AD 10D 10C QS 8H 9H 8D 9D".split(),
             S: "7C QH KS 8C 9C 7D QD JD".split(), W: "KH JS AC KD KC QC JC JH".split()}
    first_dealer = (W - 6) % 4
    s = State(king, seed=0, dealer=first_dealer, deals=deals_until(king, 7, order_for(king, hands, N)))
    to_round(s, 7)
    assert s.variant.round_name == "running total" and s.to_move == N
    seq = ["10S", "AD", "7C", "KH", "AS", "10D", "QH", "JS", "AH", "10C", "KS", "AC", "10H"]
    for t in seq:
        s.apply(t)
    assert s.observation(N).phase_data["pile_total"] == 97
    s.apply("QS")
    assert s.hands_played == 7
    assert s.sheet.rows[6].entries == [0, -7, -5, -4]


@pytest.mark.parametrize("seed", range(3))
def test_K8_jacks_domino(king, seed):
    """[K8] rows start with jacks (a player without a jack passes), built by rank order at either
    end; when three players have no cards left the fourth gets -8."""
    s = to_round(State(king, seed=seed), 8)
    assert s.variant.round_name == "jacks domino"
    h = s.hand
    first = s.legal_actions()
    assert all(king.deck.rank_of(a.card) == "J" for a in first if a.kind == "play")
    assert first[0].kind == "pass" or all(a.kind == "play" for a in first)
    h, row = play_round(s, seed)
    assert sorted(row.entries) == [-8, 0, 0, 0]
    assert [m.bit_count() > 0 for m in h.hands] == [e == -8 for e in row.entries]


def test_K9_to_K12_chooser_split_deal_and_trick_points(king):
    """[K9]-[K12] the dealer's left neighbour sees 3 cards and chooses trumps; then the deal is
    completed; the chooser leads; +3 per trick; each player is the chooser once."""
    s = to_round(State(king, seed=7), 9)
    choosers = []
    for k in range(4):
        h = s.hand
        assert s.variant.round_name == f"trumps {k + 1}" and s.kind.name == "split_choice"
        assert s.to_move == h.eldest and s.observation(h.eldest).hand.bit_count() == 3
        assert sum(m.bit_count() for m in h.hands) == 3
        choosers.append(s.to_move)
        s.apply(["trump S", "ask H", "turn", "ask C"][k])
        assert [m.bit_count() for m in h.hands] == [8] * 4 and s.to_move == h.eldest
        h, row = play_round(s, k)
        assert row.entries == [3 * w for w in h.won] and sum(row.entries) == 24
    assert sorted(choosers) == [0, 1, 2, 3] and s.is_over


def test_K9_example4_trick_points():
    """[K9] worked example 4: round 10, tricks 4/2/1/1: +12, +6, +3, +3."""
    v = load_variant("king")
    env = {"tricks": 0}
    f = v.rounds[9].scoring.each
    from rulekit.dsl import Env
    got = []
    for t in (4, 2, 1, 1):
        e = Env({**env, "tricks": t})
        e.everyone = [e] * 4
        got.append(f(e) if callable(f) else f.fn(e))
    assert got == [12, 6, 3, 3]


@pytest.mark.parametrize("seed", range(6))
def test_E1_rounds_balance_and_twelve_lines(king, seed):
    """[E1] over a whole match (rounds 7 and 8 always run to their end when every card is
    dealt), the penalties of rounds 1-8 are -96 and the trick points of rounds 9-12 +96; the
    sheet shows each round's line; the highest total wins."""
    s = State(king, seed=seed)
    bots = [SensibleBot(seed, samples=2, budget=6) if i % 2 else RandomBot(seed + i) for i in range(4)]
    while not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    rows = s.sheet.rows
    assert len(rows) == 12
    assert [r.note.split(":")[0] for r in rows] == [v.round_name for v in king.rounds]
    assert sum(sum(r.entries) for r in rows[:8]) == -96
    assert sum(sum(r.entries) for r in rows[8:]) == 96
    totals = s.sheet.totals()
    assert sum(totals) == 0 and s.winners == [c for c, t in enumerate(totals) if t == max(totals)]


def test_scorepad_asks_each_round_by_its_rules(king):
    """`rulekit score` asks each round's own facts (the whole schedule is tested in
    tests/test_scorepad_kinds.py): round 1 asks the tricks, round 2 the hearts taken."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(king)
    assert pad.next_question({}).prompt == "tricks N E S W"
    pad.add({"tricks": [2, 2, 2, 2]})
    assert pad.sheet.rows[0].entries == [-4, -4, -4, -4] and pad.sheet.rows[0].note.startswith("no tricks")
    assert pad.next_question({}).prompt == "hearts N"
