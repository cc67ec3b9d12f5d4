"""Forty-Five (variants/fortyfive.yaml) against docs/rules/fortyfive.md: each worked example of
the rules page on explicit deals, then random deals played side by side with the independent
referee (tests/referees/fortyfive.py): the same legal set at every decision, the same result."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, deal_order
from tests.referees import fortyfive as ref

V = load_variant("fortyfive")
SEATS = 4


def order_of(hands: list[list[str]], turnup: str, dealer: int) -> list[str]:
    """The pack order that deals ``hands`` (3 then 2 from the dealer's left), then turns ``turnup``
    on the rest of the pack ([FF-D1] [FF-D2])."""
    dealt = deal_order(hands, (3, 2), first=(dealer + 1) % SEATS)
    rest = [c for c in ref.PACK if c not in dealt and c != turnup]
    return dealt + [turnup] + rest


def state(hands: list[str], turnup: str, dealer: int) -> State:
    cards = [h.split() for h in hands]
    return State(V, seed=0, deals=[order_of(cards, turnup, dealer)], dealer=dealer)


def legal(s: State) -> set[str]:
    return {a.text for a in s.legal_actions()}


def test_example1_ranking():
    """[FF-R1]-[FF-R3] Spades trumps: 5♠ J♠ A♥ A♠ K♠ Q♠ 2♠ 3♠ ... 10♠; diamonds plain K Q J 10 ...
    2 A; clubs plain K Q J A 2 ... 10; hearts trumps: 13 trumps, the A♥ third."""
    d = V.deck

    def order(trump, suit):
        ctx = V.contexts[trump]
        return [d.name(c) for c in ctx.orders[d.suits.index(suit)]]
    assert order("S", "S")[:9] == ["5S", "JS", "AH", "AS", "KS", "QS", "2S", "3S", "4S"] and order("S", "S")[-1] == "10S"
    assert order("S", "D")[:5] == ["KD", "QD", "JD", "10D", "9D"] and order("S", "D")[-2:] == ["2D", "AD"]
    assert order("S", "C")[:6] == ["KC", "QC", "JC", "AC", "2C", "3C"] and order("S", "C")[-1] == "10C"
    assert len(order("H", "H")) == 13 and order("H", "H")[:3] == ["5H", "JH", "AH"]


def seat0_cards(turnup: str, hand0: str, trick: list[str]) -> set[str]:
    """Seat 0's legal cards after the seats before him played ``trick`` to the first trick (seat
    0 padded to five cards with cards of neither the led suit nor trumps, which change nothing)."""
    hand = hand0.split()
    leader = -len(trick) % SEATS
    hands: list[list[str]] = [list(hand), [], [], []]
    for i, c in enumerate(trick):
        hands[(leader + i) % SEATS].append(c)
    used = set(hand) | set(trick) | {turnup}
    spare = [c for c in ref.PACK if c not in used]
    safe = [c for c in spare if c[-1] not in (turnup[-1], trick[0][-1]) and c != "AH"]
    while len(hands[0]) < 5:
        hands[0].append(safe.pop())
    pool = [c for c in spare if c not in hands[0]]
    for h in hands[1:]:
        while len(h) < 5:
            h.append(pool.pop())
    s = State(V, seed=0, deals=[order_of(hands, turnup, (leader - 1) % SEATS)], dealer=(leader - 1) % SEATS)
    for c in trick:
        s.apply("play " + c)
    assert s.to_move == 0
    return {a.removeprefix("play ") for a in legal(s) if a.startswith("play ")} & set(hand)


def test_example2_plain_lead_follow_or_trump():
    """[FF-T2] [FF-R1] Spades trumps, 4♦ led: 8♦ 3♠ K♥ may play 8♦ or 3♠; 3♠ K♥ 2♣ any card;
    4♥ led: A♥ 2♥ 3♣ may play 2♥ or the A♥ (a trump, not a heart)."""
    assert seat0_cards("7S", "8D 3S KH", ["4D"]) == {"8D", "3S"}
    assert seat0_cards("7S", "3S KH 2C", ["4D"]) == {"3S", "KH", "2C"}
    assert seat0_cards("7S", "AH 2H 3C", ["4H"]) == {"2H", "AH"}


def test_example3_reneging():
    """[FF-T3] Spades trumps. 9♠ led: 5♠ A♥ 7♦ may play any card; 5♠ 3♠ K♦ must play 5♠ or 3♠.
    J♠ led: A♥ K♦ must play the A♥; 5♠ K♦ either. 5♠ led: A♥ K♦ must play the A♥. A♠ led: A♥ K♦
    either; the privilege looks at the card led, not the best card of the trick."""
    assert seat0_cards("7S", "5S AH 7D", ["9S"]) == {"5S", "AH", "7D"}
    assert seat0_cards("7S", "5S 3S KD", ["9S"]) == {"5S", "3S"}
    assert seat0_cards("7S", "AH KD", ["JS"]) == {"AH"}
    assert seat0_cards("7S", "5S KD", ["JS"]) == {"5S", "KD"}
    assert seat0_cards("7S", "AH KD", ["5S"]) == {"AH"}
    assert seat0_cards("7S", "AH KD", ["AS"]) == {"AH", "KD"}
    assert seat0_cards("7S", "AH KD", ["AS", "JS"]) == {"AH", "KD"}


def test_example4_trick_winner():
    """[FF-T4] Clubs trumps: K♦ 2♦ A♥ 10♣ -> the A♥ wins; K♦ 2♦ 5♥ A♦ -> the K♦ (no trump played)."""
    for trick, winner in ((["KD", "2D", "AH", "10C"], 3), (["KD", "2D", "5H", "AD"], 1)):
        hands = [[trick[3]], [trick[0]], [trick[1]], [trick[2]]]
        used = set(trick) | {"7C"}
        spare = [c for c in ref.PACK if c not in used and c[-1] not in "DC" and c != "AH"]
        spare += [c for c in ref.PACK if c not in used and c not in spare]
        for h in hands:
            while len(h) < 5:
                h.append(spare.pop(0))
        s = State(V, seed=0, deals=[order_of(hands, "7C", 0)], dealer=0)
        for c in trick:
            s.apply("play " + c)
        assert s.hand.tricks[-1][2] == winner


def test_example5_the_dealer_robs_a_turned_ace():
    """[FF-X1] A turned A♠, dealer 3: the dealer acts first, ``pass`` or ``rob`` any of his five
    cards; after ``rob 2H`` the A♠ is in his hand, the 2♥ out of play, and seat 0 leads."""
    s = state(["KC 3S 9H 2C 4C", "QS 4H 8C 10S 7H", "JD KH 6C 2S 9D", "5D QD 7C 2H JH"], "AS", 3)
    assert s.to_move == 3 and legal(s) == {"pass", "rob 5D", "rob QD", "rob 7C", "rob 2H", "rob JH"}
    s.apply("rob 2H")
    h = s.hand
    assert h.hands[3] >> V.deck.parse("AS") & 1 and h.out[3] == 1 << V.deck.parse("2H")
    assert s.to_move == 0 and s.kind.name == "tricks"
    assert s.observation(1).placed[3] >> V.deck.parse("AS") & 1   # every seat knows where the ace is


WHOLE = ["AH KC 3S 9H 2C", "AD QS 4H 8C 10S", "JD KH 6C 2S 9D", "5D QD 7C 5S JH"]


def test_example6_a_whole_deal():
    """[FF-X2] [FF-T1]-[FF-T5] [FF-S1] [FF-S2] Dealer 3, 7♦ turned: seat 1 robs at his first turn
    putting out 10♠, wins with the 7♦; ... seats 1 and 3 score 25, seats 0 and 2 score 5; the
    robbed 10♠ counts for nobody."""
    s = state(WHOLE, "7D", 3)
    assert s.to_move == 0
    s.apply("KC")
    assert legal(s) == {"play 8C", "play AD"} | {f"rob {c}" for c in "AD QS 4H 8C 10S".split()}
    with pytest.raises(IllegalActionError):
        s.apply("rob 9D")
    s.apply("rob 10S")
    assert legal(s) == {"play 8C", "play AD", "play 7D"}
    for c in ("7D", "6C", "7C"):
        s.apply(c)
    assert s.hand.tricks[-1][2] == 1
    s.apply("AD")
    assert legal(s) == {"play JD", "play 9D"}
    s.apply("9D")
    s.apply("QD")
    assert legal(s) == {f"play {c}" for c in ("AH", "3S", "9H", "2C")}   # only the A♥, above the ace led
    s.apply("2C")
    assert s.hand.tricks[-1][2] == 1
    for c in ("QS", "2S", "5S", "3S"):
        s.apply(c)
    assert s.hand.tricks[-1][2] == 1
    for c in ("4H", "JD", "5D", "9H"):
        s.apply(c)
    assert s.hand.tricks[-1][2] == 3
    for c in ("JH", "AH", "8C", "KH"):
        s.apply(c)
    h = s.hand_log[0]
    assert h.trick_winners == [1, 1, 1, 3, 0]
    assert h.entries == [5, 25]
    assert h.out[1] == 1 << V.deck.parse("10S")


def test_example7_the_game_is_45_and_equal_totals_play_on():
    """[FF-G1] [FF-G2] At 40 and 35, a deal of 10 and 20 brings 50 and 55: seats 1 and 3 win.
    At 30 and 30, a deal of 15 and 15 brings both to 45: the game goes on."""
    from rulekit.engine.scoring import match_result
    h = state(WHOLE, "7D", 3).hand
    assert match_result(V, h, [40, 35], [50, 55], 3) == ([1], "reached 45")
    assert match_result(V, h, [30, 30], [45, 45], 3) is None


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_auto_play_ends_with_a_winner(seed):
    """``rulekit play fortyfive --auto`` ends with a winner for any seed."""
    assert_plays_to_a_winner("fortyfive", seed)


# ------------------------------------------------------------------ the referee, side by side
def cross_check(deals: int, seed: int) -> tuple[int, int]:
    """Play ``deals`` random deals through rulekit and the referee with the same random choices:
    the legal sets must be equal at every decision and the results equal. Returns
    ``(deals, decisions compared)``."""
    rng = random.Random(seed)
    decisions = 0
    for k in range(deals):
        dealer = rng.randrange(SEATS)
        hands, extra = ref.deal_random(rng, dealer)
        r = ref.Deal(hands, extra, dealer)
        s = State(V, seed=k, deals=[order_of(hands, extra["turnup"][0], dealer)], dealer=dealer)
        h = s.hand
        while not r.is_over():
            assert s.to_move == r.to_move(), (k, r.tricks)
            mine = sorted(a.text for a in s.legal_actions())
            assert mine == r.legal(), (k, s.to_move, mine, r.legal())
            decisions += 1
            act = mine[rng.randrange(len(mine))]
            r.apply(act)
            s.apply(act)
        assert s.hand is not h and len(s.hand_log) == 1
        h = s.hand_log[0]   # the finished hand, as the record keeps it
        res = r.result()
        assert h.trick_winners == res["trick_winners"]
        assert h.entries == res["side_points"], (k, h.entries, res)
    return deals, decisions


def test_random_deals_agree_with_the_referee():
    """300 random deals: the same legal actions at every decision (plays, robbing, passing), the
    same trick winners and the same points for each side."""
    deals, decisions = cross_check(300, 21)
    assert decisions >= 300 * 20


@pytest.mark.slow
def test_many_random_deals_agree_with_the_referee():
    """3,000 more random deals (the slow run)."""
    deals, decisions = cross_check(3000, 45)
    assert decisions >= 3000 * 20


def test_a_record_replays_the_robbing():
    """A record of a played match (the robbing and the card put out) replays to the same sheet
    and the same card put out."""
    import json

    from rulekit.records import replay, to_record
    from tests.helpers import play_random
    s = state(["KC 3S 9H 2C 4C", "QS 4H 8C 10S 7H", "JD KH 6C 2S 9D", "5D QD 7C 2H JH"], "AS", 3)
    s.apply("rob 2H")
    out = list(s.hand.out)
    play_random(s, seed=9)
    assert s.hand_log[0].out == out == [0, 0, 0, 1 << V.deck.parse("2H")]
    rec = json.loads(json.dumps(to_record(s)))
    assert (3, "rob 2H") in [tuple(a) for a in rec["actions"]]
    r = replay(rec)
    assert r.sheet.totals() == s.sheet.totals() and r.hand_log[0].out == out


def test_the_card_put_out_is_seen_by_its_owner_only():
    """[FF-X3] Fair play: the card a robber puts out is seen by nobody else (others know only
    that one card went out), and the turned card is known to be in his hand."""
    s = state(["KC 3S 9H 2C 4C", "QS 4H 8C 10S 7H", "JD KH 6C 2S 9D", "5D QD 7C 2H JH"], "AS", 3)
    s.apply("rob 2H")
    for who in range(SEATS):
        obs = s.observation(who)
        if who == 3:
            assert obs.out == 1 << V.deck.parse("2H")
        else:
            assert obs.out == 0 and obs.out_sizes[3] == 1 and obs.placed[3] >> V.deck.parse("AS") & 1
            assert not any(t == "rob 2H" for _s, t in obs._view.hand.actions if _s == 3)


def test_compare_scores_the_same_deals_under_the_house_rule():
    """``rulekit compare`` plays the same deals under Forty-Five and its tricks-only house rule: the
    play is the same, and each deal is worth 30 (25 with no trump played) against 25."""
    from rulekit.sim.compare import compare
    r = compare(["fortyfive", "fortyfive-tricks-only"], n=30, seed=2, jobs=1)
    by: dict = {}
    for row in r.rows:
        by.setdefault(row["index"], {})[row["variant"]] = row
    assert len(by) == 30
    for pair in by.values():
        a, b = pair["fortyfive"], pair["fortyfive-tricks-only"]
        assert b["score_0"] + b["score_1"] == 25 and a["score_0"] + a["score_1"] in (25, 30)
        assert a["trump"] == b["trump"] and a["tricks"] == b["tricks"] == 5
