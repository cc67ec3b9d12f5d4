"""House option of rules/fivehundred.md [P2]: the 2 of clubs stands in for the Joker
(``variants/fivehundred-two-clubs.yaml``). It behaves exactly like the Joker and is shown as 2♣.

The Joker tests of ``test_rules_fivehundred`` are replayed with the Joker's deal relabelled
(JK -> 2C); every legal set, refusal and winner must be the same."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant

from tests.test_rules_fivehundred import E_AUCTION, E_DEAL, J_DEAL, legal_texts, play, refused


def two(cards: list) -> list:
    return ["2C" if c == "JK" else c for c in cards]


@pytest.fixture(scope="module")
def v():
    return load_variant("fivehundred-two-clubs")


def test_P2_house_deck_33_cards_2c_instead_of_joker(v):
    """[P2] house: 7..A in four suits plus the 2♣, no Joker; it is displayed as 2♣."""
    assert v.deck.size == 33
    assert set(v.deck.names) == {r + s for s in "SCDH" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")} | {"2C"}
    assert v.deck.pretty(v.deck.parse("2C")) == "2♣"


def test_P2_house_R1_2c_is_the_highest_trump(v):
    """[R1] with the house 2♣: 2♣ > right bower > left bower > A K Q 10 9 8 7, also in clubs."""
    for trump in "SCDH":
        ctx = v.contexts[trump]
        keys = ctx.win_keys[ctx.trump_group]
        best = max(range(v.deck.size), key=lambda c: keys[c])
        assert v.deck.name(best) == "2C"


def test_P2_house_T4a_2c_led_at_no_trump_names_a_suit(v):
    """Example 12 [T4] with the 2♣ for the Joker: naming a failed suit is refused, naming hearts is
    accepted and followed, and the 2♣ wins."""
    s = play(State(v, deals=[two(J_DEAL)], dealer=2), ["pass", "pass", "pass", "7D 9C AD", "7S 8S AS"])
    assert s.to_move == 1
    assert [a.text for a in s.legal_actions() if a.card == v.deck.parse("2C")] == \
        ["play 2C S", "play 2C C", "play 2C H"]
    msg = refused(s, "2C D")
    assert "diamonds" in msg and "failed to follow" in msg
    s.apply("2C H")
    assert legal_texts(s) == ["play 10H", "play 9H", "play AH", "play JH", "play KH", "play QH"]
    s.apply("9H")
    s.apply("7H")
    assert s.hand.tricks[2][2] == 1 and s.hand.tricks[2][3] == "H"


def test_P2_house_T4b_2c_on_a_suit_lead_only_when_void(v):
    """[T4](b) the 2♣ may be played to a suit lead only when void in it, and then wins; it is not a
    club: a player holding it and other cards may not play it to a spade lead."""
    s = play(State(v, deals=[two(J_DEAL)], dealer=2), ["pass", "pass", "pass"])
    s.apply("7D")
    assert "play 2C" in legal_texts(s)
    s.apply("2C")
    s.apply("AD")
    assert s.hand.tricks[0][2] == 1
    s2 = play(State(v, deals=[two(J_DEAL)], dealer=2), ["pass", "pass", "pass", "7D 9C AD"])
    s2.apply("7S")
    s2.apply("8S")
    assert refused(s2, "2C").startswith("you must follow spades")


def test_P2_house_T5_2c_wins_as_top_trump(v):
    """[T5] at trumps the 2♣ may be played whenever its holder cannot follow, and wins."""
    s = play(State(v, deals=[two(E_DEAL)], dealer=2), E_AUCTION)
    s.apply("7H")
    s.apply("AH")
    assert "play 2C" in legal_texts(s) and len(s.legal_actions()) == 10
    s.apply("2C")
    assert s.hand.tricks[0][2] == 2


def test_P2_house_D1_2c_cuts_lowest(v):
    """[D1] the 2♣ takes the Joker's place as the lowest cut."""
    st = v.first_dealer["strength"]
    order = sorted(v.deck.names, key=lambda n: st[v.deck.parse(n)])
    assert order[0] == "2C" and order[1:5] == ["AS", "AC", "AD", "AH"]
