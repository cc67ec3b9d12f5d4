"""Melds declared in trick play (``tricks`` with ``melds:``) on small made-up variants: a marriage
declared on lead that must then be led from, points counted once a trick is won, what the
others know of the cards shown, melds only while the stock is open, and a Bezique-like list
(a trump sequence, four of a kind, two named cards) declared after winning a trick."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.errors import IllegalActionError, VariantError
from tests.helpers import STOCK_PLAY, STOCK_TOY, mask, order_for, stock_toy, variant_from

MARRIAGES = STOCK_PLAY + """    melds:
      list:
        marriage: {ranks: "K Q", points: 20, trump_points: 40}
      lead_one: true
      count: after_trick
"""
SCORE = '  each: "points + melds"'
EXAMPLE = {0: "KH QH AS 10S JC", 1: "AH JH KS QC 10D", "stock": "10H AD QS KC JD 10C KD JS AC QD"}


def texts(s) -> list:
    return [a.text for a in s.legal_actions()]


def envs(s):
    return [e.vars for e in s.score_envs()]


def test_marriage_declared_on_lead_is_led_from_and_counts_after_a_trick(tmp_path):
    """[SN-M1] [SN-M2]: the leader declares K♥ Q♥ (40: hearts are trumps) and must lead one of
    them (or claim); the 40 count only once he has won a trick; the other card is then known
    to be in his hand (docs/rules/schnapsen.md example 2)."""
    v = stock_toy(tmp_path, play=MARRIAGES, scoring=SCORE)
    s = State(v, seed=0, deals=[order_for(v, 1, EXAMPLE)], dealer=1)
    assert "meld QH KH" in texts(s)
    s.apply("meld KH QH")                       # the cards in any order
    assert texts(s) == ["play QH", "play KH"]
    with pytest.raises(IllegalActionError, match="you have declared Q♥ K♥: lead one of those cards"):
        s.apply("play AS")
    assert envs(s)[0]["melds"] == 0 and envs(s)[0]["melds_marriage"] == 1
    s.apply("play QH")
    assert s.observation(1).placed[0] == mask(v, "KH")
    s.apply("play AH")                          # seat 1 wins: seat 0 has no trick yet
    assert envs(s)[0]["melds"] == 0 and envs(s)[1]["points"] == 14
    s.apply("exchange")
    s.apply("play 10D")
    s.apply("play KH")                          # seat 0 wins with the other card of the marriage
    assert envs(s)[0]["melds"] == 40 and envs(s)[0]["points"] + envs(s)[0]["melds"] == 54
    assert not s.observation(1).placed[0]       # K♥ was played: nothing more is known
    said = REGISTRY["tricks"].said(v.phases[-1], s.hand, v, 0, "meld QH KH", s.names)
    assert said.third == "declares Q♥ K♥ (marriage, 40)"


def test_a_marriage_of_another_suit_is_worth_twenty_and_declared_once(tmp_path):
    """[SN-M1]: 20 in a plain suit; the same marriage cannot be declared twice."""
    v = stock_toy(tmp_path, play=MARRIAGES, scoring=SCORE)
    hands = {0: "KS QS AS 10S JC", 1: "AH JH KH QC 10D", "stock": "10H AD QH KC JD 10C KD JS AC QD"}
    s = State(v, seed=0, deals=[order_for(v, 1, hands)], dealer=1)
    s.apply("meld QS KS")
    s.apply("play KS")
    s.apply("play 10D")                         # seat 0 wins: 20 count
    assert envs(s)[0]["melds"] == 20
    assert "meld QS KS" not in texts(s)
    with pytest.raises(IllegalActionError, match="you do not hold K♠"):
        s.apply("meld QS KS")


def test_melds_only_while_the_stock_is_open(tmp_path):
    """[SS-M3]: with ``only_with_stock`` no marriage is declared once the stock is closed."""
    play = MARRIAGES + "      only_with_stock: true\n"
    v = stock_toy(tmp_path, play=play, scoring=SCORE)
    s = State(v, seed=0, deals=[order_for(v, 1, EXAMPLE)], dealer=1)
    assert "meld QH KH" in texts(s)
    s.apply("close")
    assert "meld QH KH" not in texts(s)
    with pytest.raises(IllegalActionError, match="on lead, before leading while the stock is open"):
        s.apply("meld QH KH")


#: A Bezique-like list on a 32-card two-hand game from a stock: declared by the winner of a
#: trick, points at once (pagat.com/marriage/bezique.html, one pack).
BEZ = """id: bez
name: Bez
players: 2
deck:
  suits: [S, H, D, C]
  ranks: ["7", "8", "9", J, Q, K, "10", A]
ranking:
  suit: "A 10 K Q J 9 8 7"
dealer:
  first: {seat: 1}
phases:
  deal: {kind: deal, pattern: "3 3 2, stock 16"}
  trumps: {kind: turn_up, card: stock}
  play:
    kind: tricks
    lead: eldest
    follow_suit: false
    stock:
      turned: under
      exchange: {rank: "7"}
      after: {follow_suit: true, must_head: true, must_trump: true}
    melds:
      when: after_trick
      list:
        sequence: {ranks: "A 10 K Q J", suit: trump, points: 250}
        marriage: {ranks: "K Q", points: 20, trump_points: 40}
        aces: {ranks: A, suit: all, points: 100}
        bezique: {cards: "QS JD", points: 40}
scoring:
  each: "melds + 10 * melds_bezique"
match:
  deals: 2
"""


def bez_deal(v, hands: dict, first: str) -> State:
    """Seat 1 deals ``hands``; the stock is ``first`` (turned for trumps, under the stock) and
    the other cards in deck order."""
    held = set(" ".join(hands.values()).split()) | {first}
    stock = [first] + [v.deck.name(c) for c in range(v.deck.size) if v.deck.name(c) not in held]
    return State(v, seed=0, deals=[order_for(v, 1, {**hands, "stock": stock})], dealer=1)


def melds_open(s) -> list:
    return [t for t in texts(s) if t.startswith("meld")]


def test_melds_after_winning_a_trick_from_a_list(tmp_path):
    """``when: after_trick``: only the winner of the last trick declares, one meld a turn, its
    points at once; a sequence of trumps, four of a kind and two named cards are melds."""
    v = variant_from(tmp_path, "bez.yaml", BEZ)
    s = bez_deal(v, {0: "AS AH AD AC QS JD KS 9S", 1: "7S 8S 7H 8H 9H 7D 8D 9D"}, "JH")
    assert s.hand.trump == "H" and s.to_move == 0
    assert melds_open(s) == []                                  # not before a trick is won
    s.apply("play KS")
    s.apply("play 7S")                                          # seat 0 wins, then both draw
    assert melds_open(s) == ["meld AS AH AD AC", "meld QS JD"]
    s.apply("meld AS AH AD AC")
    assert melds_open(s) == []                                  # one a turn
    assert envs(s)[0]["melds"] == 100 and envs(s)[0]["melds_aces"] == 1
    assert s.observation(1).placed[0] == mask(v, "AS AH AD AC")
    s.apply("play 9S")
    s.apply("play 8S")
    s.apply("meld QS JD")                                       # the next turn after a trick won
    assert envs(s)[0]["melds"] == 140 and s.score_envs()[0].vars["melds_bezique"] == 1


def test_melds_in_the_first_trick(tmp_path):
    """``when: first_trick``: each player may declare at his turn in the first trick only
    (``per_turn: 0``: any number)."""
    text = BEZ.replace("when: after_trick", "when: first_trick\n      per_turn: 0")
    v = variant_from(tmp_path, "bez1.yaml", text)
    s = bez_deal(v, {0: "AS AH AD AC QS JD KS 9S", 1: "7S 8S 7H 8H 9H 7D QH KH"}, "JH")
    s.apply("meld AS AH AD AC")
    s.apply("meld QS JD")
    s.apply("play 9S")
    assert melds_open(s) == ["meld QH KH"]                      # the follower in the first trick
    s.apply("meld QH KH")
    assert envs(s)[1]["melds"] == 40                            # hearts are trumps
    s.apply("play 7S")
    assert melds_open(s) == []


@pytest.mark.parametrize("melds, words", [
    ('      list:\n        marriage: {ranks: "K X", points: 20}\n', "unknown rank X"),
    ('      list:\n        marriage: {ranks: "K Q", suit: Z, points: 20}\n', "unknown suit Z"),
    ('      list:\n        bez: {cards: "QS XD", points: 40}\n', "XD"),
    ('      list:\n        a: {ranks: "K Q", points: 20}\n        b: {cards: "KH QH", points: 20}\n',
     "the same cards as meld a"),
    ('      when: after_trick\n      lead_one: true\n      list:\n        m: {ranks: "K Q", points: 20}\n',
     "lead_one makes the leader lead a card"),
    ('      only_with_stock: true\n      list:\n        m: {ranks: "K Q", points: 20}\n', "needs a stock"),
])
def test_meld_misuse_is_refused_at_its_line(tmp_path, melds, words):
    """``validate``: unknown ranks, suits and cards, two entries with the same cards, ``lead_one``
    with another moment, ``only_with_stock`` without a stock, each at its file:line:column; the
    formulas that read ``melds`` are not refused besides (one mistake, one message)."""
    play = ("" if "only_with_stock" in melds else STOCK_PLAY) + "    melds:\n" + melds
    text = STOCK_TOY % {"play": play.rstrip("\n"), "scoring": SCORE}
    with pytest.raises(VariantError) as e:
        variant_from(tmp_path, "bad.yaml", text)
    d = next(d for d in e.value.diagnostics if words in d.message)
    assert d.file.endswith("bad.yaml") and d.line > text.splitlines().index("    melds:")
    assert not [x for x in e.value.diagnostics if "unknown variable" in x.message]


def test_explain_says_the_melds(tmp_path):
    """The rulebook's words for a meld list."""
    v = stock_toy(tmp_path, play=MARRIAGES, scoring=SCORE)
    words = REGISTRY["tricks"].describe(v.phases[-1], v)
    assert ("A player may declare one meld on lead, before leading; he must then lead one of its cards: "
            "marriage of a suit: 20, 40 in trumps.") in words
    assert "Their points count only once the player has won a trick." in words
