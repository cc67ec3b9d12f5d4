"""Made-up games of the families the pack options open, written from the authoring docs: a
Wizard-like game (four Wizards and four Jesters beside a 24-card pack, a turned card whose meaning
depends on what it is, tricks bid exactly) and a Pinochle-like one (a double pack of 48 cards in
partnerships, the first of two equal cards winning, card points and the last trick).  Both are
files of ``tests/data`` (the scorepad agreement plays them too); here: worked deals, random play
and bots to a winner, records, and the fair-play swap of unseen cards."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.records import replay, to_record
from rulekit.variant import load_variant
from rulekit.variant.explain import explain
from tests.helpers import explicit_order
from tests.kinds.test_every_kind import _swap_unseen
from tests.test_properties import _view

DATA = Path(__file__).parent / "data"
WIZ = load_variant(str(DATA / "wizardish.yaml"))
PIN = load_variant(str(DATA / "pinochleish.yaml"))


def legal(s: State) -> set:
    return {a.text for a in s.legal_actions()}


# ---------------------------------------------------------------------- the Wizard-like game
def wizard_first_deal(hands: list, turned: str) -> list:
    """The pack order of the first deal (one card each, from the eldest hand, seat 1), the
    stock's top card ``turned`` next, the rest of the pack after it."""
    order = [hands[1], hands[2], hands[3], hands[0], turned]
    return order + [WIZ.deck.name(c) for c in range(WIZ.deck.size) if WIZ.deck.name(c) not in order]


def test_a_turned_wizard_lets_the_dealer_name_trumps_and_the_wizard_wins():
    """A turned Wizard: the dealer names trumps after looking at his card; a led 9♠ is followed
    by a Jester (any lead), the A♠ and a Wizard, which wins though it follows no suit; the bids
    made exactly score 20 plus 10 a trick, a missed bid 10 a trick off."""
    s = State(WIZ, seed=0, deals=[wizard_first_deal(["W:2", "9S", "N:1", "AS"], "W:1")])
    assert s.to_move == 0 and legal(s) == {"trump S", "trump H", "trump D", "trump C"}
    s.apply("trump H")
    assert s.hand.trump == "H"
    for bid in ("bid 0", "bid 0", "bid 1", "bid 1"):    # from the eldest hand, seat 1
        s.apply(bid)
    assert s.to_move == 1
    s.apply("9S")
    s.apply("N")                                        # the plain token plays the copy he holds
    assert s.history[-1] == (2, "play N:1")
    s.apply("AS")
    s.apply("W")
    assert s.hand_log[-1].tricks[0][2] == 0             # the Wizard wins
    assert [r.entries for r in s.sheet.rows][0] == [30, 20, 20, -10]


def test_a_turned_jester_means_no_trumps_and_a_led_jester_leaves_the_suit_to_the_next_card():
    """A turned Jester: no trumps.  A led Jester asks nothing; the first card of a suit after it
    sets the suit (the Jester's player loses the trick, the A♠ wins, the 9♥ does not follow)."""
    s = State(WIZ, seed=0, deals=[wizard_first_deal(["9H", "N:2", "AS", "KS"], "N:1")])
    assert s.hand.trump == "NT" and s.to_move == 1     # no naming: the bids start
    for bid in ("bid 0", "bid 1", "bid 0", "bid 0"):
        s.apply(bid)
    s.apply("N:2")
    s.apply("AS")
    s.apply("KS")
    s.apply("9H")
    assert s.hand_log[-1].tricks[0][2] == 2
    assert s.sheet.rows[0].entries == [20, 20, 30, 20]


def test_a_wizard_led_leaves_every_player_free_and_the_first_of_two_wizards_wins():
    """Two cards each (the second deal of a match, hands explicit): a led Wizard lets the others
    play any card, even one of a suit they hold; a second Wizard does not beat the first."""
    s = State(WIZ, seed=0, deals=[wizard_first_deal(["9H", "N:2", "AS", "KS"], "N:1"),
                                  ["W:3", "9S", "W:4", "10S", "AS", "JS", "KH", "QH", "QS"]
                                  + [WIZ.deck.name(c) for c in range(WIZ.deck.size)
                                     if WIZ.deck.name(c) not in ("W:3", "9S", "W:4", "10S", "AS", "JS",
                                                                 "KH", "QH", "QS")]])
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    # second deal: dealer seat 1, eldest seat 2: seat 2 W:3 AS, seat 3 9S JS, seat 0 W:4 KH,
    # seat 1 10S QH; the turned card QS: spades are trumps
    assert s.hand.trump == "S" and s.to_move == 2
    for _ in range(4):
        s.apply("bid 1")
    s.apply("W:3")
    assert legal(s) == {"play 9S", "play JS"}            # he holds only spades
    s.apply("JS")
    assert legal(s) == {"play W:4", "play KH"}           # free: any card
    s.apply("W:4")
    s.apply("10S")
    assert s.hand.tricks[0][2] == 2                      # the first Wizard played wins


# ---------------------------------------------------------------------- the Pinochle-like game
PIN_HANDS = [  # seat 0 deals; his last card, the 9♥, turned: hearts are trumps
    ["JS:2", "AH:1", "AH:2", "10H:1", "10H:2", "KH:1", "KH:2", "QH:1", "QH:2", "JH:1", "JH:2", "9H:2"],
    ["AS:1", "10S:1", "KS:1", "QS:1", "JS:1", "9S:1", "AC:1", "10C:1", "KC:1", "QC:1", "JC:1", "9C:1"],
    ["AS:2", "10S:2", "KS:2", "QS:2", "9D:2", "9H:1", "AC:2", "10C:2", "KC:2", "QC:2", "JC:2", "9C:2"],
    ["9S:2", "AD:1", "AD:2", "10D:1", "10D:2", "KD:1", "KD:2", "QD:1", "QD:2", "JD:1", "JD:2", "9D:1"],
]


def pinochle() -> State:
    return State(PIN, seed=0, deals=[explicit_order(PIN, 0, PIN_HANDS)])


def test_of_two_equal_aces_the_first_played_wins_and_the_points_add_up():
    """A double pack: the plain ``AS`` plays the first copy its player holds; of the two A♠ in one
    trick the first wins; a void player must trump (any trump beats a trick without one), and the
    next must overtrump; the hand's card points are 240, and 10 more for the last trick."""
    s = pinochle()
    assert s.hand.trump == "H" and s.to_move == 1
    s.apply("AS")
    assert s.history[-1] == (1, "play AS:1")
    assert legal(s) == {"play AS:2", "play 10S:2", "play KS:2", "play QS:2"}
    s.apply("AS")
    assert s.history[-1] == (2, "play AS:2")
    assert legal(s) == {"play 9S:2"}
    s.apply("9S")
    s.apply("JS")
    assert s.hand.tricks[0][2] == 1                      # the first A♠ wins
    s.apply("9C")
    s.apply("AC")                                        # seat 2's A♣ wins so far
    assert len(legal(s)) == 11                           # seat 3: no club, no trump: any card
    s.apply("QD:1")
    assert legal(s) == {"play " + c for c in PIN_HANDS[0][1:]}   # seat 0: any trump (each beats the trick)
    s.apply("9H")
    assert s.history[-1] == (0, "play 9H:2") and s.hand.tricks[1][2] == 0
    with pytest.raises(IllegalActionError, match="you do not hold"):
        s.apply("9H")
    rng = random.Random(3)
    while s.hand.number == 0:
        s.apply(rng.choice(s.legal_actions()))
    entries = s.sheet.rows[0].entries
    assert sum(entries) == 250 and (entries[1] - 24) >= 0   # trick 1 (A A 9 J: 24 points) is B's


def test_the_double_pack_is_counted_once_per_copy():
    """Every card twice: 48 cards, card points 240 in the pack; tallies and points name the
    plain card and mean both copies."""
    d = PIN.deck
    assert d.size == 48 and d.has_copies and d.base(d.parse("AS:2")) == "AS"
    assert d.copies_of(d.parse("AS:1")) == (1 << d.parse("AS:1")) | (1 << d.parse("AS:2"))
    ctx = PIN.contexts["H"]
    assert sum(ctx.points[c] for c in range(d.size)) == 240


# ---------------------------------------------------------------------- both games
GAMES = [pytest.param(WIZ, id="wizardish"), pytest.param(PIN, id="pinochleish")]


@pytest.mark.parametrize("v", GAMES)
def test_random_play_reaches_a_winner_and_records_replay(v, tmp_path):
    """Random legal play ends each match with a winner; its record replays to the same sheet."""
    for seed in range(3):
        s = State(v, seed=seed)
        bots = [RandomBot(seed * 10 + k) for k in range(v.players)]
        while not s.is_over:
            s.apply(bots[s.to_move].act(s.observation(s.to_move)))
        assert s.winners
        rec = json.loads(json.dumps(to_record(s)))
        assert replay(rec, folder=DATA).sheet.totals() == s.sheet.totals()


@pytest.mark.parametrize("v", GAMES)
def test_bots_play_a_match_to_a_winner(v):
    """The sensible bots (sampled worlds, playouts) play a whole match with these packs."""
    s = State(v, seed=5, max_hands=4)
    bots = [SensibleBot(seed=k, samples=4, budget=20) for k in range(v.players)]
    while not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    assert s.winners and s.hands_played >= 1


@pytest.mark.parametrize("v", GAMES)
def test_unseen_cards_swapped_leave_the_observation_unchanged(v):
    """Fair play: swapping two cards a seat cannot see (copies and suitless cards among them)
    leaves its observation unchanged."""
    rng = random.Random(11)
    checked = 0
    s = State(v, seed=2, max_hands=4)
    bot = RandomBot(4)
    while not s.is_over:
        seat = rng.randrange(v.players)
        t = _swap_unseen(s, seat, rng)
        if t is not None:
            assert _view(s, seat) == _view(t, seat)
            checked += 1
        s.apply(bot.act(s.observation(s.to_move)))
    assert checked > 30


# ---------------------------------------------------------------------- a double pack with trumps by card
DOKO = """id: doko
name: Doko-like
players: 4
deck:
  suits: [C, S, H, D]
  ranks: ["9", J, Q, K, "10", A]
  copies: 2
  card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
ranking:
  suit: "A 10 K Q J 9"
  trump: "10H QC QS QH QD JC JS JH JD A 10 K 9"   # the 10H, queens and jacks: trumps by card
  special:
    10H: {equal: last}                           # the second 10H beats the first (a house rule)
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "3 x 4"}
  trumps: {kind: fixed_trump, suit: D}
  play: {kind: tricks, lead: eldest}
scoring:
  each: "points"
match:
  deals: 2
"""

DOKO_HANDS = [
    ["AD:1", "AD:2", "10D:1", "10D:2", "KD:1", "KD:2", "9D:1", "9D:2", "KS:1", "KS:2", "9S:1", "9S:2"],
    ["QC:1", "QC:2", "QS:1", "QS:2", "QH:1", "QH:2", "QD:1", "QD:2", "AC:1", "AC:2", "10C:1", "10C:2"],
    ["10H:1", "AH:1", "AH:2", "KH:1", "KH:2", "9H:1", "9H:2", "KC:1", "KC:2", "9C:1", "9C:2", "AS:1"],
    ["10H:2", "JC:1", "JC:2", "JS:1", "JS:2", "JH:1", "JH:2", "JD:1", "JD:2", "AS:2", "10S:1", "10S:2"],
]


def test_a_double_pack_with_trumps_by_card_and_the_second_of_two_tens_winning(tmp_path):
    """Copies with cards that are trumps whatever suit is trumps: the 10♥ follows a trump lead (the
    other hearts do not); of the two 10♥ the last played wins (``special: {10H: {equal: last}}``),
    while of two A♠ the first still wins; 240 card points in the hand."""
    from tests.helpers import variant_from
    v = variant_from(tmp_path, "doko.yaml", DOKO)
    s = State(v, seed=0, deals=[explicit_order(v, 0, DOKO_HANDS)])
    s.apply("QC")
    assert legal(s) == {"play 10H:1"}                    # his only trump; A♥ K♥ 9♥ are plain hearts
    s.apply("10H")
    assert legal(s) == {"play " + c for c in DOKO_HANDS[3][:9]}
    s.apply("10H")
    s.apply("9D")
    assert s.hand.tricks[0][2] == 3                      # the second 10♥ wins
    s.apply("AS")
    assert legal(s) == {"play KS:1", "play KS:2", "play 9S:1", "play 9S:2"}
    s.apply("9S")
    s.apply("AC")                                        # void in spades: any card
    s.apply("AS")
    assert s.history[-1] == (2, "play AS:1") and s.hand.tricks[1][2] == 3   # the first A♠ wins
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert sum(s.sheet.rows[0].entries) == 240
    assert "Of two 10♥ in one trick, the one played last wins." in explain(v)
