"""The ``order_up`` kind: the turned card (public to every seat), the first round's call word
(``word``), its refusals, and the rest of the pack dealt after the call (``deal_rest``)."""
from __future__ import annotations

import re

import pytest

from rulekit.cli.render import contract_text, table_view
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.engine.scoring import player_envs
from rulekit.errors import InvalidActionError, VariantError
from rulekit.variant import load_variant
from tests.helpers import assert_choices_play_as_actions, plain, variant_from

ORDERUP = """id: rest
name: Rest dealt later (made up)
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "2 2, widow 8"}
  making: {kind: order_up, deal_rest: %(rest)s}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "if maker then tricks else 0"
match: {deals: 2}
"""


def orderup(tmp_path, rest="{maker: 1, others: 2}"):
    return variant_from(tmp_path, "rest.yaml", ORDERUP % dict(rest=rest))


def test_deal_rest_maker_takes_the_turned_card(tmp_path):
    """Belote primitives: order_up with deal_rest: the maker (not the dealer) takes
    the turned card and the rest of the widow is dealt, 1 to him and 2 to each other player,
    from the eldest hand; every hand then holds 6 cards and a hand is 6 tricks."""
    v = orderup(tmp_path)
    assert v.hand_size == 6
    s = State(v, seed=3, dealer=3)
    h = s.hand
    turned = s.observation(0).phase_data["turned"]
    widow = [c for c in h.deck_order if h.zones["widow"] >> c & 1]
    assert widow[0] == turned and [m.bit_count() for m in h.hands] == [4, 4, 4, 4]
    s.apply("pass")
    s.apply("order")                                           # E (seat 1) takes
    assert h.declarer == 1 and h.trump == v.deck.suit_of(turned) and s.kind.name == "tricks"
    assert h.hands[1] >> turned & 1 and not h.hands[3] >> turned & 1
    assert [m.bit_count() for m in h.hands] == [6, 6, 6, 6] and h.zones["widow"] == 0
    rest = widow[1:]                                           # N 2, E 1, S 2, W 2 in turn
    assert h.hands[0] & (1 << rest[0] | 1 << rest[1]) == 1 << rest[0] | 1 << rest[1]
    assert h.hands[1] >> rest[2] & 1 and h.hands[2] >> rest[3] & 1 and h.hands[3] >> rest[6] & 1
    assert h.dealt == h.hands
    envs = player_envs(v, h)
    assert envs[0].vars["total_tricks"] == 6


def test_deal_rest_in_the_second_round_and_its_checks(tmp_path):
    """Belote primitives: a suit named in the second round also gives the maker the
    turned card; a deal_rest that leaves unequal hands is refused with its position."""
    v = orderup(tmp_path)
    s = State(v, seed=3, dealer=3)
    turned = s.observation(0).phase_data["turned"]
    for _ in range(4):
        s.apply("pass")
    other = next(x for x in "SHDC" if x != v.deck.suit_of(turned))
    s.apply("pass")
    s.apply(f"trump {other}")
    assert s.hand.declarer == 1 and s.hand.hands[1] >> turned & 1 and s.hand.trump == other
    assert [m.bit_count() for m in s.hand.hands] == [6, 6, 6, 6]
    with pytest.raises(VariantError) as e:
        orderup(tmp_path, rest="{maker: 2, others: 2}")
    assert "rest.yaml:10:39: phases.making.deal_rest: the maker would get 3 cards (the turned card and 2) " \
           "and the others 2 (expected maker to be others - 1)" in str(e.value)


def test_euchre_refusal_names_the_calls():
    """An unknown call in Euchre's order-up round is refused with the calls by name: pass, order or
    order alone."""
    s = State(load_variant("euchre"), seed=1)
    with pytest.raises(InvalidActionError, match=r"expected pass, order or order alone$"):
        s.apply("xyz")


def test_belote_turned_card_public_everywhere():
    """The turned card of an order-up auction is public: every seat's observation holds it, the
    human's screen shows it while he decides, and the face-down talon does not count it."""
    s = State(load_variant("belote"), seed=5)
    turned = kind_of("order_up").data_of(s.hand).turned
    card = s.variant.deck.pretty(turned)
    assert all(s.observation(seat).phase_data["turned"] == turned for seat in range(4))
    screen = plain(table_view(s, s.to_move))
    assert re.search(rf"turned {card}", screen)
    assert "talon 11 cards face down" in screen

ORDER = """
id: made-up-take
name: Made-up take
players: 4
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "5, widow 4"}
  making: {kind: order_up, word: %s, alone: true}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "if maker then tricks else 0"
match: {deals: 1}
"""


def test_order_up_word_option(tmp_path):
    """`word: take` names the first round's call (`take`,
    `take alone`); `order` stays the default; a word that is another action is refused."""
    f = tmp_path / "take.yaml"
    f.write_text(ORDER % "take")
    s = State(load_variant(str(f)), seed=1)
    assert [a.text for a in s.legal_actions()] == ["pass", "take", "take alone"]
    s.apply("take")
    assert s.hand.declarer == s.hand.eldest and s.phase_kind == "order_up"   # the dealer discards
    card = s.variant.deck.pretty(kind_of("order_up").data_of(s.hand).turned)
    assert plain(contract_text(s, s.hand)).strip() == f"{s.names[s.hand.declarer]} takes {card}, trumps {card[-1]}"
    f.write_text(ORDER % "pass")
    with pytest.raises(VariantError, match="'pass' is already another action of this phase"):
        load_variant(str(f))
    f.write_text((ORDER % "x").replace(", word: x", ""))
    assert [a.text for a in State(load_variant(str(f)), seed=1).legal_actions()] == ["pass", "order", "order alone"]


def test_calls_and_discards_as_numbers_play_as_the_checked_actions(tmp_path):
    """The choices as numbers of an order-up (each call's place; the dealer's discard the place
    of the card among his cards) list the checked actions in their order and play as them: both
    rounds, going alone, sticking the dealer, the rest dealt after the call."""
    alone = (ORDER % "order").replace("alone: true}", "alone: true, stick_dealer: true}")
    assert_choices_play_as_actions(variant_from(tmp_path, "alone.yaml", alone), seeds=range(12), hands=2)
    assert_choices_play_as_actions(orderup(tmp_path), seeds=range(6), hands=2)
