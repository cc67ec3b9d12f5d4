"""All Fours primitives of issue 11 (authoring reach: Auction Pitch), each on a small made-up
variant that is not Pitch: the first lead makes trumps, "follow suit or trump", the highest /
lowest card of a kind in play as a tally, a once-round auction where the dealer may hold the
high bid (and must bid when all pass), and a match-end tie broken by the order the hand's
points are counted in."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
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
