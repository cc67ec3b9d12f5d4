"""Four-handed Five Hundred (variants/fivehundred-four.yaml, Bicycle; misère after the Avondale
schedule): the rulebook, the deal, the bids with misère and open misère, and play to a winner."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import entries_for, envs_for
from rulekit.variant import load_variant
from rulekit.variant.explain import explain
from tests.helpers import assert_plays_to_a_winner


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fivehundred_four_random_play_reaches_a_winner(seed):
    """Random legal play of ``fivehundred-four`` reaches a winner for any seed (the match cap is not what ends it)."""
    assert_plays_to_a_winner("fivehundred-four", seed)


def test_fivehundred_four_rulebook():
    """The four-handed partnership rulebook: 43 cards with the Joker (Bicycle), ten
    cards each and a widow of three, partnerships, bids 6S to 10NT with their values, the widow
    exchange, following suit, the target 500 and the -500 loss."""
    t = " ".join(explain(load_variant("fivehundred-four")).split())
    assert "**4 players** in partnerships (NS: seats N, S; EW: seats E, W)" in t
    assert ("The deck has **43 cards**: the ranks 4 5 6 7 8 9 10 J Q K A of the 4 suits (spades, clubs, "
            "diamonds and hearts) without 4S 4C, and the Joker (JK).") in t
    assert "deals 10 cards to each player" in t and "and 3 to the widow (face down)" in t
    assert "| 6S | 40 |" in t and "| 10NT | 520 |" in t
    assert "The declarer takes the widow into his hand and then discards any 3 cards face down" in t
    assert "Each player must follow suit" in t
    assert "The declaring side scores" in t and "The first to reach **500 points** wins." in t
    assert "A total of **-500** or less loses the match." in t


def test_fivehundred_four_deal_and_side_scores():
    """Worked example: ten cards each, a widow of three; a made 6S scores 40 to the side."""
    v = load_variant("fivehundred-four")
    s = State(v, seed=5, dealer=3)
    assert [m.bit_count() for m in s.hand.hands] == [10, 10, 10, 10] and s.hand.zones["widow"].bit_count() == 3
    assert v.side_of == (0, 1, 0, 1)


# ---------------------------------------------------------------------- the shipped file
def test_fivehundred_four_avondale_order():
    """Pagat (Avondale schedule): misère ranks between 8S and 8C and only after a
    seven bid; open misère between 10D and 10H, even as the first bid."""
    v = load_variant("fivehundred-four")
    order = [b.text for b in v.auction().bids]
    assert order[order.index("8S") + 1] == "MIS" and order[order.index("MIS") + 1] == "8C"
    assert order[order.index("10D") + 1] == "OM" and order[order.index("OM") + 1] == "10H"
    s = State(v, seed=2)
    legal = [a.text for a in s.legal_actions()]
    assert "OM" in legal and "MIS" not in legal
    s.apply("6NT")
    assert "MIS" not in [a.text for a in s.legal_actions()]
    s.apply("7S")
    assert "MIS" in [a.text for a in s.legal_actions()]
    s.apply("8C")
    assert "MIS" not in [a.text for a in s.legal_actions()] and "OM" in [a.text for a in s.legal_actions()]


@pytest.mark.parametrize("call, won, entries", [
    ("MIS", [0, 0, 0, 0], [250, 0]),      # made: the bid's 250 (not the slam's 250 rule)
    ("MIS", [1, 3, 0, 2], [-250, 0]),     # one trick: failed, the opponents score nothing
    ("OM", [0, 0, 0, 0], [500, 0]),
    ("OM", [0, 0, 1, 0], [-500, 0]),      # a trick of the partner's cannot happen; the side's count
])
def test_fivehundred_four_misere_values(call, won, entries):
    """Pagat: misère 250, open misère 500, made or lost by the bidder's side (NS,
    bidder North); no points for the opponents' tricks in a misère (choice)."""
    v = load_variant("fivehundred-four")
    b = next(x for x in v.auction().bids if x.text == call)
    envs = envs_for(v, b, 0, "NT", won, [0] * 4)
    assert entries_for(v, b, 0, envs) == entries


def test_fivehundred_four_misere_partner_sits_out_and_bidder_leads():
    """Pagat: after MIS the bidder's partner sits out, the bidder takes the widow and
    leads at no trump; an ordinary bid keeps the partner in."""
    v = load_variant("fivehundred-four")
    s = State(v, seed=5)
    first = s.to_move
    s.apply("7S")
    s.apply("MIS")
    bidder = (first + 1) % 4
    while s.phase_kind == "ladder_auction":
        s.apply("pass")
    h = s.hand
    assert h.declarer == bidder and h.trump == "NT" and h.hands[(bidder + 2) % 4] == 0
    s.apply(s.legal_actions()[0])            # the widow exchange
    assert s.phase_kind == "tricks" and s.to_move == bidder
    text = explain(v)
    assert "MIS is a bid to win no trick, played at no trump, worth 250; the bidder's partner lays his " \
           "cards aside and sits the hand out." in text
    assert "after the first trick" in text and "MIS may be bid only after a bid of 7S or higher" in text
    assert "| 8S | 240 |\n| MIS | 250 |\n| 8C | 260 |" in text        # the value table, in bidding order
    assert "| 10D | 480 |\n| OM | 500 |\n| 10H | 500 |" in text


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fivehundred_four_plays_to_a_winner(seed):
    """The faithful file plays to a winner (random legal play)."""
    import random
    rng = random.Random(seed)
    s = State(load_variant("fivehundred-four"), seed=seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners
