"""Euchre (variants/euchre.yaml, pagat.com/euchre/euchre.html): ordering up, the bowers, the
second round, going alone, the deal thrown in, and play to a winner."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from rulekit.variant.explain import explain
from tests.helpers import assert_plays_to_a_winner, make_trumps


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_euchre_plays_to_a_winner(seed):
    """Random legal play of ``euchre`` reaches a winner for any seed (the match cap is not what ends it)."""
    assert_plays_to_a_winner("euchre", seed)


def test_euchre_order_up_dealer_takes_the_card():
    """Euchre (pagat): ordering up makes the turned card's suit trumps; the dealer takes it and
    discards one; the right bower is the highest trump and the left bower follows trumps."""
    v = load_variant("euchre")
    s = State(v, seed=2, dealer=3)
    turned = s.observation(0).phase_data["turned"]
    suit = v.deck.suit_of(turned)
    assert [a.text for a in s.legal_actions()] == ["pass", "order", "order alone"]
    s.apply("order")
    assert s.hand.trump == suit and s.hand.declarer == 0 and s.to_move == 3
    assert s.hand.hands[3] >> turned & 1 and s.hand.hands[3].bit_count() == 6
    s.apply(s.legal_actions()[0])
    assert [m.bit_count() for m in s.hand.hands] == [5, 5, 5, 5]
    ctx = v.contexts[suit]
    sister = {"S": "C", "C": "S", "H": "D", "D": "H"}[suit]
    right, left = v.deck.parse("J" + suit), v.deck.parse("J" + sister)
    assert max(range(24), key=lambda c: ctx.strength[c]) == right
    assert ctx.group_of[left] == ctx.group_of[right]


def test_euchre_second_round_names_another_suit_and_alone():
    """Euchre (pagat): after four passes the turned suit may not be named; a lone maker's
    partner sits out; a lone march scores 4, 3 or 4 tricks 1, euchred defenders 2."""
    from rulekit.engine.scoring import player_envs, score_hand
    v = load_variant("euchre")
    s = State(v, seed=2, dealer=3)
    suit = v.deck.suit_of(s.observation(0).phase_data["turned"])
    for _ in range(4):
        s.apply("pass")
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"trump {suit}")
    assert "turned down: name another suit" in str(e.value)
    other = next(x for x in "SHDC" if x != suit)
    s.apply(f"trump {other} alone")
    assert s.hand.trump == other and s.hand.hands[2] == 0 and s.kind.name == "tricks"
    h = s.hand
    for side_tricks, entries in (((5, 0), [4, 0]), ((3, 2), [1, 0]), ((2, 3), [0, 2])):
        envs = player_envs(v, h)
        for env, t in zip(envs, side_tricks):
            env.vars["tricks"] = t
        assert score_hand(v, h, envs)[0] == entries


def test_euchre_all_pass_twice_throws_in():
    """Euchre (pagat): if all pass in both rounds the deal is thrown in and passes on."""
    s = State(load_variant("euchre"), seed=2, dealer=3)
    for _ in range(8):
        s.apply("pass")
    assert s.hand.number == 1 and s.hand.dealer == 0 and s.sheet.totals() == [0, 0]


def test_euchre_lone_maker_left_leads():
    """Pagat Euchre: dealer West; South orders up alone, his partner North (the
    eldest hand) sits out and West, on South's left, leads the first trick (it was East)."""
    v = load_variant("euchre")
    s = State(v, seed=2, dealer=3)
    make_trumps(s, "order alone", 2)
    assert s.hand.hands[0] == 0 and s.to_move == 3
    s2 = State(v, seed=2, dealer=3)
    make_trumps(s2, "order", 2)
    assert s2.to_move == 0                  # not alone: the eldest hand leads
    assert "the declarer's left-hand opponent instead when `alone` holds" in explain(v)
