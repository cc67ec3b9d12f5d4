"""The gallery variants (issue 11): worked examples and play to a winner for any seed."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant
from rulekit.variant.explain import explain

GALLERY = ("ohhell", "fivehundred-four")


@pytest.mark.parametrize("vid", GALLERY)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gallery_plays_to_a_winner(vid, seed):
    """issue 11: every gallery variant plays to a winner (random legal play, any seed)."""
    import random
    rng = random.Random(seed)
    s = State(load_variant(vid), seed=seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners and "stopped" not in s.result()["reason"]


def test_fivehundred_four_rulebook():
    """issue 11: the four-handed partnership rulebook: 43 cards with the Joker (Bicycle), ten
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


def test_ohhell_deals_grow_and_exact_bids_score():
    """Worked example (pagat): deal k gives k cards; exactly the bid scores 10 + bid, else 0."""
    v = load_variant("ohhell")
    s = State(v, seed=3, dealer=3)
    assert [m.bit_count() for m in s.hand.hands] == [1, 1, 1, 1]
    for b in ("bid 1", "bid 0", "bid 0"):
        s.apply(b)
    assert [a.text for a in s.legal_actions()] == ["bid 1"]  # the hook: 0 would add up to 1
    s.apply("bid 1")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    won = s.hand_log[0].won
    assert s.sheet.totals() == [11 if won[0] else 0, 10 if not won[1] else 0, 10 if not won[2] else 0,
                                11 if won[3] else 0]
    assert [m.bit_count() for m in s.hand.hands] == [2, 2, 2, 2]
