"""Melds in a pack with copies (``deck.copies: 2``) on a small made-up double-pack game: a plain
card of an entry means any copy, ``copies: 2`` asks for every card twice, ``times: 2`` lets a
combination be declared again with the other copies, and entries of one ``class`` share no card
(Pinochle's melds, pagat.com/pinochle/pinochle.html: a marriage inside the run, aces around
beside double aces)."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from tests.helpers import order_for, play_with_bots, variant_from

DOUBLE = """id: doublemeld
name: Double-pack melds
players: 2
deck: {suits: [S, H], ranks: [J, Q, K, A], copies: 2}
ranking: {suit: "A K Q J"}
dealer: {first: {seat: 1}, rotation: left}
phases:
  deal: {kind: deal, pattern: "4 x 2"}
  trumps: {kind: fixed_trump, suit: S}
  play:
    kind: tricks
    lead: eldest
    melds:
      when: first_trick
      per_turn: 0
      list:
%(list)s
scoring:
  each: "melds"
match: {deals: 1}
"""
LIST = """        run: {ranks: "A K Q J", suit: trump, points: 150, class: seq}
        marriage: {ranks: "K Q", points: 20, trump_points: 40, times: 2, class: seq}
        aces: {ranks: A, suit: all, points: 100, class: arounds}
        double_aces: {ranks: A, suit: all, copies: 2, points: 1000, class: arounds}
        pinochle: {cards: "QS JH", points: 40}
        double_pinochle: {cards: "QS QS JH JH", points: 300}"""


def toy(tmp_path, entries=LIST):
    return variant_from(tmp_path, "double.yaml", DOUBLE % {"list": entries})


def deal(v, seat0: str, seat1: str) -> State:
    return State(v, seed=0, deals=[order_for(v, 1, {0: seat0, 1: seat1})], dealer=1)


def melds(s) -> list:
    return [a.text for a in s.legal_actions() if a.kind == "meld"]


def test_a_marriage_of_two_copies_of_different_numbers_is_a_meld(tmp_path):
    """A plain card of an entry means any copy: K♠:2 with Q♠:1 is a royal marriage (40)."""
    v = toy(tmp_path)
    s = deal(v, "KS:2 QS:1 JH:1 AH:1 JS:1 JS:2 QH:1 KH:1", "AS:1 AS:2 KS:1 QS:2 AH:2 KH:2 QH:2 JH:2")
    assert "meld QS:1 KS:2" in melds(s)
    s.apply("meld KS:2 QS:1")
    assert s.score_envs()[0].vars["melds"] == 40 and s.score_envs()[0].vars["melds_marriage"] == 1


def test_a_meld_typed_with_other_copies_is_the_listed_one(tmp_path):
    """Copies are equal: ``meld KS QS`` names the first copies its player holds, and naming the
    other copies declares the same marriage."""
    v = toy(tmp_path)
    s = deal(v, "KS:1 KS:2 QS:1 QS:2 JH:1 AH:1 JS:1 QH:1", "AS:1 AS:2 JS:2 AH:2 KH:1 KH:2 QH:2 JH:2")
    s.apply("meld KS:2 QS:2")
    assert s.score_envs()[0].vars["melds_marriage"] == 1
    assert melds(s)[:1] == ["meld QS:2 KS:2"]   # the second marriage, with the other copies
    s.apply("meld QS KS")
    assert s.score_envs()[0].vars["melds"] == 80 and s.score_envs()[0].vars["melds_marriage"] == 2
    assert "marriage" not in " ".join(melds(s))
    with pytest.raises(IllegalActionError, match="declared before, its cards already serve"):
        s.apply("meld KS QS")


def test_double_aces_count_once_and_leave_no_aces_around(tmp_path):
    """``copies: 2``: every ace twice is double aces (1000); aces around share its cards, in
    the same class, and are refused beside it."""
    v = toy(tmp_path)
    s = deal(v, "AS:1 AS:2 AH:1 AH:2 JS:1 JS:2 JH:1 QH:1", "KS:1 KS:2 QS:1 QS:2 KH:1 KH:2 QH:2 JH:2")
    assert {"meld AS:1 AH:1", "meld AS:1 AS:2 AH:1 AH:2"} <= set(melds(s))
    s.apply("meld AS AS AH AH")
    assert s.score_envs()[0].vars["melds"] == 1000
    assert not any("A" in t for t in melds(s))
    with pytest.raises(IllegalActionError, match="you cannot declare A♠:1 A♥:1 now"):
        s.apply("meld AS AH")


def test_a_marriage_inside_the_declared_run_is_refused_but_one_of_other_copies_counts(tmp_path):
    """``class``: the run's K♠ Q♠ cannot make a royal marriage too; the other K♠ Q♠ can (190)."""
    v = toy(tmp_path)
    s = deal(v, "AS:1 KS:1 QS:1 JS:1 KS:2 QS:2 JH:1 QH:1", "AS:2 JS:2 AH:1 AH:2 KH:1 KH:2 QH:2 JH:2")
    s.apply("meld AS KS QS JS")
    assert "meld QS:2 KS:2" in melds(s) and "meld QS:1 KS:1" not in melds(s)
    s.apply("meld KS QS")                       # the free copies: K♠:2 Q♠:2
    assert s.score_envs()[0].vars["melds"] == 190
    assert not any("KS" in t for t in melds(s))  # both K♠ serve in the class already


def test_without_a_class_entries_share_cards_and_named_cards_repeat(tmp_path):
    """Entries of no class share cards (the Q♠ of a pinochle and a marriage); ``"QS QS JH JH"``
    is the double pinochle, and the pinochle's cards may still make one pinochle."""
    v = toy(tmp_path)
    s = deal(v, "QS:1 QS:2 JH:1 JH:2 KS:1 AH:1 JS:1 QH:1", "AS:1 AS:2 KS:2 JS:2 AH:2 KH:1 KH:2 QH:2")
    s.apply("meld QS QS JH JH")
    s.apply("meld QS JH")
    s.apply("meld KS QS")
    assert s.score_envs()[0].vars["melds"] == 300 + 40 + 40


def test_bots_declare_melds_of_any_copies_and_play_to_the_end(tmp_path):
    """The bots declare the best meld open first (the run before its marriage, then the marriage
    of the other copies, then the pinochle of no class sharing the run's Q♠)."""
    from rulekit.bots import SensibleBot
    v = toy(tmp_path)
    s = deal(v, "AS:2 KS:2 QS:1 JS:2 KS:1 QS:2 JH:1 QH:1", "AS:1 JS:1 AH:1 AH:2 KH:1 KH:2 QH:2 JH:2")
    play_with_bots(s, bots=[SensibleBot(seed=1), SensibleBot(seed=2)])
    declared = [(seat, t) for seat, t in s.history if t.startswith("meld")]
    assert declared[:3] == [(0, "meld JS:2 QS:1 KS:1 AS:2"), (0, "meld QS:2 KS:2"), (0, "meld QS:1 JH:1")]
    assert s.totals() == [150 + 40 + 40, 100 + 20]   # run, marriage, pinochle; aces, heart marriage
    assert s.is_over


@pytest.mark.parametrize("entry, where, words", [
    ('        dix: {ranks: J, suit: trump, points: 10, times: 3}', "times", "needs 3 of JS but the deck holds 2"),
    ('        triple: {ranks: A, suit: all, copies: 3, points: 10}', "copies", "needs 3 of AS but the deck holds 2"),
    ('        odd: {cards: "QS:1 QS", points: 10}', "cards", "names a card both by its copy and plainly"),
])
def test_misused_copies_and_times_are_refused_at_their_line(tmp_path, entry, where, words):
    """More copies than the pack holds, and one card named both plainly and by its copy."""
    with pytest.raises(VariantError, match=f"melds.list.[a-z]+.{where}: {words}") as e:
        toy(tmp_path, entry)
    assert "double.yaml:" in str(e.value)
