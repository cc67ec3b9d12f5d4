"""Packs of any shape: suits with their own ranks, names and symbols, named suitless cards,
copies of every card, a pack listed card by card; and the rules of the cards themselves
(equal cards, cards played whatever was led, always or never winning, kept by their owner).
Each on a small made-up variant."""
from __future__ import annotations

import json
import random

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.records import replay, to_record
from rulekit.variant.explain import explain
from tests.helpers import deal_order, play_random, variant_from

NUMBERED = """id: numbered
name: Numbered trumps
players: 3
deck:
  suits:
    - S
    - H
    - {letter: T, name: trumps, symbol: "*", ranks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
  ranks: [A, "2", "3", J, C, Q, K]
  specials: {EX: the Excuse}
ranking:
  suit: {T: "12 11 10 9 8 7 6 5 4 3 2 1", others: "K Q C J 3 2 A"}
  special:
    EX: {follows: any, wins: never, kept: not_last, exchange: 1}
  trump: "12 11 10 9 8 7 6 5 4 3 2 1"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "3 x 3"}
  trumps: {kind: fixed_trump, suit: T}
  play: {kind: tricks, must_trump: true, must_overtrump: true}
scoring:
  each: "points"
match:
  deals: 3
"""


def numbered(tmp_path, text=NUMBERED):
    return variant_from(tmp_path, "numbered.yaml", text)


def test_a_suit_of_numbered_trumps_beside_plain_suits(tmp_path):
    """A pack of any number of suits, each with its own ranks, name and symbol, and a named
    suitless card: 7 + 7 + 12 + 1 cards, ``12T`` a card, shown with the suit's symbol."""
    v = numbered(tmp_path, NUMBERED)
    d = v.deck
    assert d.size == 27 and d.suit_ranks["T"][-1] == "12" and d.suit_ranks["S"] == ("A", "2", "3", "J", "C", "Q", "K")
    assert d.pretty(d.parse("12T")) == "12*" and d.parse("12*") == d.parse("12t") and d.name(d.parse("ex")) == "EX"
    assert d.suit_name("T") == "trumps" and d.special_name(d.parse("EX")) == "the Excuse"
    assert d.parse("CS") != d.parse("JS")   # a knight C beside the suit letters
    ctx = v.contexts["T"]
    assert ctx.win_keys[0][d.parse("1T")] > ctx.win_keys[0][d.parse("KS")]   # the lowest trump beats a king
    assert ctx.strength[d.parse("KS")] > ctx.strength[d.parse("CS")] > ctx.strength[d.parse("JS")]
    text = explain(v)
    assert "A 2 3 J C Q K in each of the 2 suits (spades and hearts), 1 2 3 4 5 6 7 8 9 10 11 12 of trumps (T)" in text
    assert "the Excuse (EX)" in text and "may be played whatever was led" in text


def test_the_excuse_follows_any_lead_never_wins_and_is_kept_for_a_low_card(tmp_path):
    """The Excuse may be played whatever was led (beside the cards the player must play: a
    trump over the trick's best), never wins, and goes back to its owner for one card point of
    exchange to the winner (points by `points`); led, the next card sets the suit."""
    v = numbered(tmp_path, NUMBERED
                 .replace("each: \"points\"", "each: \"points\"\n  tallies: {ex: {cards: EX, in: tricks}}"))
    hands = [["KS", "2S", "5T", "EX", "AH", "2H", "3H", "JH", "CH"],
             ["QS", "3S", "8T", "9T", "QH", "KH", "1T", "2T", "3T"],
             ["AS", "JS", "CS", "4T", "6T", "7T", "10T", "11T", "12T"]]
    s = State(v, seed=0, deals=[deal_order(hands, (3, 3, 3))])
    assert s.to_move == 1
    s.apply("QS")                                   # seat 1 leads a spade
    legal = {a.text for a in s.legal_actions()}
    assert legal == {"play AS", "play JS", "play CS"}   # seat 2 follows spades
    s.apply("CS")
    assert {a.text for a in s.legal_actions()} == {"play KS", "play 2S", "play EX"}  # the Excuse follows any lead
    s.apply("EX")
    h = s.hand
    assert h.tricks[-1][2] == 1                       # the queen wins; the Excuse never does
    assert h.won_cards[0] >> v.deck.parse("EX") & 1   # ... and its owner keeps it
    assert h.extra_points == [-1, 1, 0]               # giving the winner a low card's worth
    s.apply("8T")                                     # seat 1 leads a trump
    assert {a.text for a in s.legal_actions()} == {"play 10T", "play 11T", "play 12T"}
    with pytest.raises(IllegalActionError, match="you must play a trump higher than 8"):
        s.apply("4T")


def test_a_led_excuse_leaves_the_suit_to_the_next_card(tmp_path):
    """[TA-P3] When a card that follows no suit is led, the next card played sets the suit."""
    v = numbered(tmp_path, NUMBERED)
    hands = [["KS", "2S", "5T", "AH", "2H", "3H", "JH", "CH", "QH"],
             ["EX", "3S", "8T", "9T", "KH", "1T", "2T", "3T", "QS"],
             ["AS", "JS", "CS", "4T", "6T", "7T", "10T", "11T", "12T"]]
    s = State(v, seed=0, deals=[deal_order(hands, (3, 3, 3))])
    s.apply("EX")
    assert len(s.legal_actions()) == 9                # nothing to follow yet
    s.apply("JS")
    assert {a.text for a in s.legal_actions()} == {"play KS", "play 2S"}


WIZ = """id: wiz
name: Wizards
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
  specials: {W: {name: Wizard, copies: 2}, N: {name: Jester, copies: 2}}
ranking:
  suit: "A K Q J 10 9"
  special:
    W: {wins: always, follows: any}
    N: {wins: never, follows: any}
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "1 x 8, widow 4"}
  play: {kind: tricks}
scoring:
  each: "tricks"
match:
  deals: 3
"""


def wizard_deal(v, hands):
    order = deal_order(hands)
    rest = [v.deck.name(c) for c in range(v.deck.size) if v.deck.name(c) not in order]
    return [order + rest]


def test_the_first_of_two_wizards_wins_and_a_led_wizard_leaves_everyone_free(tmp_path):
    """Suitless cards of one kind (two Wizards ``W:1``, ``W:2``): a Wizard wins any trick, the
    first played of two; led, the others may play any card; typing ``W`` plays one's own."""
    v = variant_from(tmp_path, "wiz.yaml", WIZ)
    assert v.deck.names[-4:] == ("W:1", "W:2", "N:1", "N:2")
    hands = [["W:2", "N:1", "N:2", "9D", "10D", "JD", "QC", "KC"],
             ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH"],
             ["W:1", "9H", "10H", "JH", "QH", "AD", "KD", "QD"]]
    s = State(v, seed=0, deals=wizard_deal(v, hands))
    assert s.to_move == 1
    s.apply("QS")
    assert {a.text for a in s.legal_actions()} == {"play W:1", "play 9H", "play 10H", "play JH", "play QH",
                                                    "play AD", "play KD", "play QD"}   # void: anything
    s.apply("W")                                      # the plain text plays the copy he holds
    assert s.history[-1] == (2, "play W:1")
    s.apply("w")
    assert s.hand.tricks[-1][2] == 2                  # the first Wizard wins
    s.apply("9H")
    assert len(s.legal_actions()) == 7                # a Jester may be played to any lead
    s.apply("N")
    s.apply("AH")
    assert s.hand.tricks[-1][2] == 1
    s.apply("AS")
    s.apply("QH")
    s.apply("N")
    assert s.hand.tricks[-1][2] == 1
    assert s.hand.failed[2] >> 0 & 1                  # void in spades: shown
    assert not s.hand.failed[1] >> 1 & 1


def test_the_last_of_equal_cards_wins_as_a_house_rule(tmp_path):
    """``equal: last``: of two Wizards the last played wins; a led Jester leaves the suit to
    the next card."""
    v = variant_from(tmp_path, "wiz.yaml", WIZ.replace('  suit: "A K Q J 10 9"', '  suit: "A K Q J 10 9"\n  equal: last'))
    hands = [["W:2", "N:1", "N:2", "9D", "10D", "JD", "QC", "KC"],
             ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH"],
             ["W:1", "9H", "10H", "JH", "QH", "AD", "KD", "QD"]]
    s = State(v, seed=0, deals=wizard_deal(v, hands))
    for card in ("QS", "W:1", "W:2"):
        s.apply(card)
    assert s.hand.tricks[-1][2] == 0                  # the last Wizard wins
    s.apply("N:1")                                    # seat 0 leads a Jester
    s.apply("KH")                                     # seat 1: the first card of a suit sets it
    assert {a.text for a in s.legal_actions()} == {"play 9H", "play 10H", "play JH", "play QH"}
    s.apply("QH")
    assert s.hand.tricks[-1][2] == 1


def test_a_double_pack_tells_copies_apart_in_records(tmp_path):
    """``copies: 2``: each card twice (``AS:1``, ``AS:2``); the plain ``AS`` plays the first copy the
    player holds; the first of two equal cards wins; a record replays the copies exactly."""
    v = variant_from(tmp_path, "double.yaml", """id: double
name: Double pack
players: 2
deck: {suits: [S, H], ranks: ["10", K, A], copies: 2}
ranking: {suit: "A 10 K"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "3 x 2"}
  play: {kind: tricks}
scoring: {each: "tricks"}
match: {deals: 2}
""")
    assert v.deck.size == 12 and v.deck.names[:2] == ("10S:1", "10S:2")
    hands = [["AS:2", "10S:1", "KH:1", "AH:1", "AH:2", "10H:2"], ["AS:1", "KS:1", "KS:2", "10S:2", "10H:1", "KH:2"]]
    s = State(v, seed=3, deals=[deal_order(hands, (3, 3), first=1)])
    assert s.to_move == 1
    s.apply("AS")                                   # his copy: AS:1
    assert s.history[-1] == (1, "play AS:1")
    s.apply("as")
    assert s.history[-1] == (0, "play AS:2") and s.hand.tricks[-1][2] == 1   # the first of equals wins
    with pytest.raises(IllegalActionError, match="you do not hold A♠:1"):
        s.apply("AS:1")
    play_random(s, seed=1)
    rec = json.loads(json.dumps(to_record(s)))
    assert any(a.endswith(":2") for _s, a in rec["actions"])
    assert replay(rec, folder=tmp_path).sheet.totals() == s.sheet.totals()


@pytest.mark.parametrize("change, where, phrase", [
    ("  specials: {EX: the Excuse}", "  specials: {K: king}", "K is already a rank"),
    ("    EX: {follows: any, wins: never, kept: not_last, exchange: 1}", "    ZZ: {follows: any}",
     "'ZZ' is not a card of this deck"),
    ('  suit: {T: "12 11 10 9 8 7 6 5 4 3 2 1", others: "K Q C J 3 2 A"}',
     '  suit: {T: "12 11 10 9 8 7 6 5 4 3 2 1", green: "K Q C J 3 2 A"}', "green is not a suit or a colour"),
    ('  suit: {T: "12 11 10 9 8 7 6 5 4 3 2 1", others: "K Q C J 3 2 A"}',
     '  suit: {T: "12 11 10 9 8 7 6 5 4 3 2 1", S: "K Q C J 3 2 A"}', "AH, 2H, 3H, JH, CH, QH, KH are not ranked"),
    ("    EX: {follows: any, wins: never, kept: not_last, exchange: 1}", "    EX: {follows: any}",
     "EX is not ranked"),
    ("    - {letter: T,", "    - {letter: S,", "suit S is listed twice"),
    ("    EX: {follows: any, wins: never, kept: not_last, exchange: 1}", "    EX: {follows: any, wins: never, exchange: 1}",
     "an exchange is given for a card its owner keeps (expected kept: always or not_last"),
    ("    EX: {follows: any, wins: never, kept: not_last, exchange: 1}",
     "    EX: {follows: any, wins: never}\n    KS: {led: next}", "KS has a suit: a led one asks its suit to be followed"),
    ("    EX: {follows: any, wins: never, kept: not_last, exchange: 1}", "    EX: {follows: any, wins: always, led: next}",
     "EX wins any trick it is played to, so a led one cannot leave the suit to the next card"),
])
def test_pack_mistakes_are_refused_where_they_are(tmp_path, change, where, phrase):
    """Each mistake of a pack or of its rules is refused at its line and column, saying what
    was expected."""
    text = NUMBERED
    assert change in text
    with pytest.raises(VariantError) as e:
        variant_from(tmp_path, "bad.yaml", text.replace(change, where))
    lines = [str(d) for d in e.value.diagnostics if phrase in str(d)]
    assert lines and "bad.yaml:" in lines[0], str(e.value)


def test_random_play_of_the_new_packs_ends(tmp_path):
    """Every file above plays to its end with random moves, for several seeds."""
    for text in (NUMBERED, WIZ):
        v = variant_from(tmp_path, "any.yaml", text)
        for seed in range(6):
            s = State(v, seed=seed)
            rng = random.Random(seed)
            while not s.is_over:
                acts = s.legal_actions()
                s.apply(acts[rng.randrange(len(acts))])
            assert s.winners
