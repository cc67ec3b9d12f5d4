"""Bid Whist (variants/bidwhist.yaml): worked examples from the published rules it cites —
pagat.com/auctionwhist/bidwhist.html [P] for the deal, the bids and the game to 7; Fosdick [F] for
the card orders uptown and downtown; Parlett's Penguin Book of Card Games [PB] for the scores.
Every value here is computed by hand from those rules."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import HandFacts, score_facts
from rulekit.errors import IllegalActionError
from rulekit.variant import check_file, load_variant
from rulekit.variant.explain import explain
from tests.helpers import mask

N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1


@pytest.fixture(scope="module")
def v():
    return load_variant("bidwhist")


def test_the_file_is_valid_strictly_and_the_deck_is_54_cards(v):
    """[P]: 52 cards and two jokers, twelve each and a kitty of six; no warning."""
    assert check_file("bidwhist", warnings=True) == []
    assert v.deck.size == 54 and v.hand_size == 12
    assert v.phases[0].zones["kitty"] == (6, False)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_plays_to_a_winner(v, seed):
    """Bid Whist plays to a winner with bots in every seat."""
    import random
    s = State(v, seed=seed, max_hands=300)
    rng = random.Random(seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply(acts[int(rng.random() * len(acts))])
    assert len(s.winners) == 2 and s.result()["reason"]


def _dealt(v, hands: dict, widow: str) -> State:
    """N deals; the cards of the hands replaced after the shuffle (a few each: the tricks end
    when the cards do)."""
    s = State(v, seed=1, dealer=N)
    h = s.hand
    assert s.kind.name == "ladder_auction" and h.to_move == E      # [P] the dealer's left bids first
    h.hands = [mask(v, hands[p]) for p in (N, E, S, W)]
    h.dealt = list(h.hands)
    h.zones["kitty"] = mask(v, widow)
    return s


def test_downtown_the_ace_then_the_deuce_win_and_the_jokers_top_the_trumps(v):
    """[P] one round of bids; [F] downtown: A 2 3 ... K in every suit, the big and the little
    joker the two highest trumps; follow suit (a joker follows trumps)."""
    s = _dealt(v, {N: "AS 2H KD", E: "2S JK2 QD", S: "KS 3H 2D", W: "5S 9H AD"},
               "JK1 AH 4C 5C 6C 7C")
    for call in ("3uptown", "pass", "3downtown", "pass"):          # E S W N: each speaks once
        s.apply(s.parse_action(call))
    h = s.hand
    assert (h.declarer, h.contract.text, h.ctx.low) == (W, "3downtown", True)
    s.apply(s.parse_action("discard 4C 5C 6C 7C AD 9H"))           # W keeps 5S JK1 AH
    s.apply(s.parse_action("trump H"))
    for c in ("5S", "AS", "2S", "KS"):                             # W leads (the bidder)
        s.apply(s.parse_action(c))
    assert h.tricks[-1][2] == N                                    # the ace of spades, ace best
    s.apply(s.parse_action("2H"))                                  # N leads a trump
    with pytest.raises(IllegalActionError, match=r"you must follow trumps \(hearts\): you hold JK2"):
        s.apply(s.parse_action("QD"))
    for c in ("JK2", "3H", "JK1"):
        s.apply(s.parse_action(c))
    assert h.tricks[-1][2] == W                                    # the big joker over the little
    for c in ("AH", "KD", "QD", "2D"):
        s.apply(s.parse_action(c))
    assert [t[2] for t in h.tricks] == [N, W, W]


def test_a_bid_must_be_higher_and_no_trump_asks_high_or_low(v):
    """[P] each bid higher than the last; at the same number no trump > downtown > uptown
    ([G] [M]); after a no trump bid the bidder says high or low."""
    s = _dealt(v, {N: "AS", E: "2S", S: "KS", W: "5S"}, "JK1 AH 4C 5C 6C 7C")
    s.apply(s.parse_action("4downtown"))                           # E
    with pytest.raises(IllegalActionError, match="4uptown does not outrank the highest bid 4downtown"):
        s.apply(s.parse_action("4uptown"))
    s.apply(s.parse_action("4NT"))                                 # S
    s.apply(s.parse_action("pass"))                                # W
    s.apply(s.parse_action("pass"))                                # N: the round is over
    h = s.hand
    assert (h.declarer, h.contract.text) == (S, "4NT")
    s.apply(s.parse_action("discard 4C 5C 6C 7C AH JK1"))
    assert [a.text for a in s.legal_actions()] == ["high", "low"]
    s.apply(s.parse_action("low"))
    assert (h.trump, h.ctx.low) == ("NT", True)


def test_at_no_trump_a_joker_has_no_power(v):
    """[M] at no trump the jokers have no value: a led joker leaves the suit to the next card,
    and the joker never wins."""
    s = _dealt(v, {N: "2S", E: "JK2", S: "KS", W: "5S"}, "JK1 AH 4C 5C 6C 7C")
    for call in ("3NT", "pass", "pass", "pass"):
        s.apply(s.parse_action(call))
    s.apply(s.parse_action("discard JK2 AH 4C 5C 6C 7C"))          # E keeps JK1
    s.apply(s.parse_action("high"))
    h = s.hand
    for c in ("JK1", "KS", "5S", "2S"):                            # E leads the big joker
        s.apply(s.parse_action(c))
    assert h.tricks[-1][2] == S                                    # the king of spades wins


def _score(v, text: str, declarer: int, trump: str, ns: int, ew: int) -> list:
    bid = next(b for b in v.auction().bids if b.text == text)
    return score_facts(v, HandFacts(bid, declarer, trump, [ns, ew]))[0]


@pytest.mark.parametrize("text, declarer, trump, ns, ew, want", [
    # [PB] made: the bid's number (the kitty is the bidders' first book [G]): 9 tricks = 10 books
    ("4uptown", N, "H", 9, 3, [4, 0]),
    # failed: minus the number; the opponents' 5 books are under seven: nothing
    ("4downtown", E, "S", 5, 7, [0, -4]),
    # no trump doubles: 4 tricks = 5 books fail 3NT: -6; the opponents' 8 books: 2 over six, x2
    ("3NT", S, "NT", 4, 8, [-6, 4]),
    # a Boston (all 13 books) scores four times
    ("5uptown", W, "C", 0, 12, [0, 20]),
    ("7NT", N, "NT", 12, 0, [56, 0]),
    # overtricks do not count: 11 books on a bid of 3 still score 3
    ("3downtown", E, "D", 2, 10, [0, 3]),
])
def test_scores_from_the_penguin_book(v, text, declarer, trump, ns, ew, want):
    """[PB] scores: the number bid if made, minus it if not; opponents with seven books or more
    score their books over six; doubled at no trump; a Boston four times."""
    assert _score(v, text, declarer, trump, ns, ew) == want


def test_game_to_seven_or_minus_seven(v):
    """[P]: a side at 7 or more wins; a side at -7 or less loses, and the other side wins."""
    from rulekit.engine.hand import Hand
    from rulekit.engine.scoring import match_result
    h = Hand(0, N, 4)
    assert match_result(v, h, [5, 2], [9, 2], 1) == ([NS], "reached 7")
    assert match_result(v, h, [-3, 2], [-9, 2], 1) == ([EW], "column 0 fell to -9, at or below -7")
    assert match_result(v, h, [5, 2], [6, -6], 1) is None


def test_explain_reads_as_bid_whist(v):
    """The rulebook says the bids, the low order and the jokers' place."""
    text = explain(v)
    assert "the bids, lowest first, are 3uptown, 3downtown, 3NT, 4uptown" in text
    assert "downtown: the declarer names trumps, the lowest cards win" in text
    assert "the cards of a plain suit rank A 2 3 4 5 6 7 8 9 10 J Q K, best first" in text
    assert "the big joker (JK1), the little joker (JK2), A, K, Q" in text
    assert "(at no trump) the big joker (JK1) and the little joker (JK2) have no power" in text
    assert "The bidding goes round once" in text


def test_the_legal_bids_show_what_each_is_worth_made(v):
    """`?` values a bid whose trumps are named later in a suit, not at no trump: 3downtown
    made is worth 3, 3NT 6 (doubled), 7uptown 28 (all 13 books, a Boston) [PB]."""
    from rulekit.cli.render import legal_text
    s = State(v, seed=1, dealer=N)
    text = legal_text(s).plain
    assert "3uptown (worth 3)" in text and "3downtown (worth 3)" in text and "3NT (worth 6)" in text
    assert "7uptown (worth 28)" in text and "7NT (worth 56)" in text
