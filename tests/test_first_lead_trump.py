"""All Fours primitives of issue 11 (authoring reach: Auction Pitch), each on a small made-up
variant that is not Pitch: the first lead makes trumps, "follow suit or trump", the highest /
lowest card of a kind in play as a tally, a once-round auction where the dealer may hold the
high bid (and must bid when all pass), and a match-end tie broken by the order the hand's
points are counted in."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant

TOY = """id: toy
name: Toy
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "1 x 8"}
%(extra)s  play: {kind: tricks, lead: %(lead)s%(play)s}
scoring:
%(scoring)s
match: %(match)s
"""


def toy(tmp_path, extra="", lead="eldest", play="", scoring='  each: "tricks"', match="{deals: 2}"):
    f = tmp_path / "toy.yaml"
    f.write_text(TOY % dict(extra=extra, lead=lead, play=play, scoring=scoring, match=match))
    return load_variant(str(f))


def order(hands: list) -> list:
    """The deck order that deals ``hands`` (per seat, dealer 0, one card at a time from seat 1)."""
    out = []
    for r in range(len(hands[0])):
        for j in range(3):
            out.append(hands[(1 + j) % 3][r])
    return out


HANDS = [["9S", "10S", "JS", "QS", "KS", "AS", "9H", "10H"],       # seat 0, the dealer
         ["JH", "QH", "KH", "AH", "9D", "10D", "JD", "9C"],        # seat 1, eldest: leads
         ["QD", "KD", "AD", "10C", "JC", "QC", "KC", "AC"]]


def play_trump(tmp_path):
    return toy(tmp_path, play=", first_lead_trump: true, may_trump: true")


def test_first_lead_makes_trumps_and_later_leads_do_not(tmp_path):
    """issue 11 (Auction Pitch: "the suit of the card led becomes trump", Bicycle / Hoyle): the
    suit of the hand's first lead becomes trumps, here diamonds; a later club lead changes nothing,
    and a diamond then wins over the clubs."""
    v = play_trump(tmp_path)
    s = State(v, deals=[order(HANDS)])
    assert s.hand.trump == "NT"
    s.apply("play 9D")
    assert s.hand.trump == "D"
    # a trump led must be followed (may_trump only widens a plain-suit lead)
    assert [a.text for a in s.legal_actions()] == ["play QD", "play KD", "play AD"]
    s.apply("play AD")
    s.apply("play 9S")
    assert s.hand.trick_winners == [2]
    s.apply("play 10C")                 # seat 2 leads a plain suit
    assert s.hand.trump == "D"
    s.apply("play 9H")                  # seat 0 has no club
    s.apply("play 10D")                 # seat 1 trumps though he holds 9C
    assert s.hand.trick_winners == [2, 1]


def test_may_trump_instead_of_following(tmp_path):
    """issue 11 (All Fours "follow suit or trump", pagat.com/allfours): a player holding the
    suit led may play it or a trump, nothing else; the refusal says so."""
    v = play_trump(tmp_path)
    s = State(v, deals=[order(HANDS)])
    for a in ("play 9D", "play AD", "play 9S", "play 10C", "play 9H"):
        s.apply(a)
    assert [a.text for a in s.legal_actions()] == ["play 10D", "play JD", "play 9C"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("play AH")
    assert str(e.value) == "you must follow clubs or play a trump: you hold 10♦ J♦ 9♣"


def test_without_may_trump_a_player_must_follow(tmp_path):
    """The same position without ``may_trump``: only the club."""
    v = toy(tmp_path, play=", first_lead_trump: true")
    s = State(v, deals=[order(HANDS)])
    for a in ("play 9D", "play AD", "play 9S", "play 10C", "play 9H"):
        s.apply(a)
    assert [a.text for a in s.legal_actions()] == ["play 9C"]


def test_first_lead_trump_describes_itself(tmp_path):
    """``rulekit explain`` reads both rules back."""
    from rulekit.variant.explain import explain
    text = explain(play_trump(tmp_path))
    assert "The suit of the first card led in the hand becomes trumps for the hand." in text
    assert "a player who can follow a plain suit may play a trump instead" in text


# ---------------------------------------------------------------- tallies: the highest / lowest in play
PICK = """  tallies:
    top: {suit: trump, pick: highest, in: hand}
    bottom: {suit: trump, pick: lowest, in: tricks}
    tens: {ranks: "10", pick: highest, in: hand}
  each: "100 * top + 10 * bottom + tens"
"""


def test_tally_pick_highest_and_lowest_in_play(tmp_path):
    """issue 11 (All Fours' High "the highest trump in play" and Low, Bicycle "Auction Pitch"):
    diamonds are trumps (first lead 9D); the trumps dealt are 9D 10D JD QD KD AD; the highest,
    AD, was dealt to seat 2; the lowest, 9D, was led by seat 1 and taken by seat 2 (AD wins);
    of the four tens the trump ten, 10D (seat 1), ranks highest."""
    v = toy(tmp_path, play=", first_lead_trump: true, may_trump: true", scoring=PICK)
    s = State(v, deals=[order(HANDS)])
    for a in ("play 9D", "play AD", "play 9S"):
        s.apply(a)
    from rulekit.engine.scoring import player_envs
    envs = player_envs(v, s.hand)
    assert [e.vars["top"] for e in envs] == [0, 0, 1]
    assert [e.vars["bottom"] for e in envs] == [0, 0, 1]
    assert [e.vars["tens"] for e in envs] == [0, 1, 0]
    assert [e.vars["top"] for e in player_envs(v, s.hand, upto=0)] == [0, 0, 1]  # dealt: known at once


def test_tally_pick_counts_only_cards_in_play(tmp_path):
    """A card not dealt is not in play: with two players dealt 8 cards each from 24, the lowest
    trump in play is the lowest one dealt."""
    two = TOY.replace("players: 3", "players: 2")
    f = tmp_path / "two.yaml"
    f.write_text((two % dict(extra="", lead="eldest", play=", first_lead_trump: true",
                            scoring="  tallies:\n    low: {suit: trump, pick: lowest, in: hand}\n  each: \"low\"",
                            match="{deals: 1}")).replace('"1 x 8"', '"1 x 8, aside 8"'))
    v = load_variant(str(f))
    # seat 1 (eldest) gets the even positions, seat 0 the odd ones, the last 8 cards aside
    seat1 = ["QH", "KH", "AH", "JD", "QD", "9C", "10C", "JC"]
    seat0 = ["9S", "10S", "JS", "QS", "KS", "AS", "9H", "KD"]
    aside = ["10H", "JH", "9D", "10D", "AD", "QC", "KC", "AC"]
    deck = [c for pair in zip(seat1, seat0) for c in pair] + aside
    s = State(v, deals=[deck])
    assert v.deck.names_of(s.hand.hands[1]) == ["QH", "KH", "AH", "JD", "QD", "9C", "10C", "JC"]
    s.apply("play QD")             # diamonds trumps; 9D and 10D lie aside: JD is the lowest in play
    from rulekit.engine.scoring import player_envs
    assert [e.vars["low"] for e in player_envs(v, s.hand)] == [0, 1]


# ---------------------------------------------------------------- match end: points counted in order
def counted(tmp_path, order_: str):
    return toy(tmp_path, play=", first_lead_trump: true",
               scoring='  tallies:\n    top: {suit: trump, pick: highest, in: hand}\n  each: "top + tricks"',
               match="{target: 10, ties: [count_order], count_order: [%s]}" % order_)


def play_out(s):
    while not s.winners and s.hand.number == 0:
        s.apply(s.legal_actions()[0])


@pytest.mark.parametrize("order_, scores, winner", [("top, tricks", [0, 9, 9], 1),
                                                    ("tricks, top", [0, 2, 9], 2)])
def test_count_order_breaks_a_tie_on_the_target(tmp_path, order_, scores, winner):
    """issue 11 (All Fours: "the points are counted in the order High, Low, Jack, Game", h2g2
    "Auction Pitch"): first lead JH makes hearts trumps; seat 1 (dealt AH) takes 7 tricks, seat 2
    the last; both reach 10 on this hand. Counting top first, seat 1 (9 + 1) is there first;
    counting tricks first from 2 and 9, seat 2 (9 + 1) is there first, seat 1 (2 + 7) only after
    his top."""
    s = State(counted(tmp_path, order_), deals=[order(HANDS)], scores=scores)
    play_out(s)
    assert s.hand.entries == [0, 8, 1]
    assert s.winners == [winner]


def test_count_order_needs_its_list(tmp_path):
    """The tie break and its list go together; an unknown name is refused where it is written."""
    with pytest.raises(VariantError) as e:
        toy(tmp_path, match="{target: 10, ties: [count_order]}")
    assert "match: the count_order tie break and match.count_order go together" in str(e.value)
    with pytest.raises(VariantError) as e:
        toy(tmp_path, match="{target: 10, ties: [count_order], count_order: [tricks, hihg]}")
    assert "toy.yaml:12:64: match.count_order.1: unknown variable" in str(e.value) and "hihg" in str(e.value)


# ---------------------------------------------------------------- a once-round auction, the dealer holds
AUCTION = """  bidding:
    kind: list_auction
    once: true
    dealer_holds: %(holds)s
    all_pass: dealer
    contracts: [{call: "1", value: 1}, {call: "2", value: 2}, {call: "3", value: 3}]
"""
AUCTION_SCORING = '  declarer: "if tricks >= value then tricks else -value"\n  defender: "tricks"'


def auction(tmp_path, holds="true"):
    return toy(tmp_path, extra=AUCTION % dict(holds=holds), lead="declarer", scoring=AUCTION_SCORING)


def test_once_round_the_dealer_holds_the_high_bid(tmp_path):
    """issue 11 (Auction Pitch, Bicycle / h2g2: each player has one bid; the dealer may take
    the contract at the highest bid): seat 1 bids 1, seat 2 bids 2; the dealer (seat 0) may hold
    at 2, and does; nobody speaks again; the dealer declares 2 and leads."""
    s = State(auction(tmp_path), deals=[order(HANDS)])
    s.apply("1")
    s.apply("2")
    assert [a.text for a in s.legal_actions()] == ["pass", "2", "3"]
    s.apply("2")
    h = s.hand
    assert (h.declarer, h.contract.text, s.kind.name, h.to_move) == (0, "2", "tricks", 0)


def test_once_round_ends_after_the_dealer_even_with_two_bidders(tmp_path):
    """One call each: seat 1 bids 1, seat 2 bids 2, the dealer passes: seat 2 declares (seat 1
    does not get a second call, as he would in an ordinary auction)."""
    s = State(auction(tmp_path), deals=[order(HANDS)])
    for a in ("1", "2", "pass"):
        s.apply(a)
    assert (s.hand.declarer, s.hand.contract.text, s.kind.name) == (2, "2", "tricks")


def test_without_hold_the_dealer_must_bid_more(tmp_path):
    s = State(auction(tmp_path, holds="false"), deals=[order(HANDS)])
    s.apply("1")
    s.apply("2")
    assert [a.text for a in s.legal_actions()] == ["pass", "3"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("2")
    assert str(e.value) == "2 (2) is not worth more than the highest bid 2 (2) (equal games cannot overcall each other)"


def test_all_pass_the_dealer_must_bid(tmp_path):
    """issue 11 (Pitch's "forced bid", gamerulesguru.com / singaporemahjong.com): the others
    pass; the dealer may not, and bids the lowest he likes."""
    s = State(auction(tmp_path), deals=[order(HANDS)])
    s.apply("pass")
    s.apply("pass")
    assert [a.text for a in s.legal_actions()] == ["1", "2", "3"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("pass")
    assert str(e.value) == "everyone else has passed: the dealer must bid"
    s.apply("1")
    assert (s.hand.declarer, s.hand.contract.text) == (0, "1")


def test_auction_options_describe_themselves(tmp_path):
    from rulekit.variant.explain import explain
    text = explain(auction(tmp_path))
    assert ("the dealer may take the highest bid at its value; each player speaks once, in turn, and the "
            "highest bidder declares, and when all the others pass the dealer must bid") in text


@pytest.mark.parametrize("combo", range(8))
def test_option_combinations_play_to_the_end(tmp_path, combo):
    """issue 11 ("every file that validates must play"): the new options in every combination
    with their neighbours (must_trump, pass_is_final, all_pass) play whole matches, and the fast
    path's random playout agrees with the rules (each card it plays is in the checked legal set)."""
    import random
    rng = random.Random(combo)
    play = (f", first_lead_trump: {rng.choice(['true', 'false'])}, may_trump: {rng.choice(['true', 'false'])}"
            f", must_trump: {rng.choice(['true', 'false'])}")
    extra = (AUCTION % dict(holds=rng.choice(["true", "false"]))).replace(
        "once: true", f"once: {rng.choice(['true', 'false'])}\n    pass_is_final: {rng.choice(['true', 'false'])}"
    ).replace("all_pass: dealer", f"all_pass: {rng.choice(['dealer', 'redeal'])}")
    v = toy(tmp_path, extra=extra, lead="declarer", play=play, scoring=AUCTION_SCORING, match="{deals: 3}")
    for seed in range(3):
        s = State(v, seed=seed, max_hands=20)
        while not s.is_over:
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        assert s.winners
    from tests.test_fast_path import checked_hand, outcome
    from rulekit.engine.playout import random_hand
    checked, fast = State(v, seed=combo), State(v, seed=combo)
    r1, r2 = random.Random(combo), random.Random(combo)
    for _ in range(3):
        if checked.is_over:
            break
        checked_hand(checked, r1)   # asserts the fast path's legal cards at every decision
        random_hand(fast, r2)
    assert outcome(checked) == outcome(fast)
