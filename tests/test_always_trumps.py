"""Cards that are trumps whatever suit is trumps (Ombre's black aces, pagat.com/ombre/ombre.html:
Spadille and Basto) on a small made-up three-player game whose contracts all name a suit: the
file need not rank them at no trump; at no trump (a hand the rules never play, but the bots'
and the tables' reckoning before trumps are known) they are the top cards, in the trump order."""
from __future__ import annotations

import pytest

from rulekit.errors import VariantError
from tests.helpers import variant_from

GAME = """id: twoaces
name: Two aces always trump
players: 3
deck: {suits: [S, C, D, H], ranks: ["7", J, Q, K, A]}
ranking:
  suit: {black: "K Q J 7", red: "A K Q J 7"}
  trump: {black: "AS %(sec)s K Q J 7", red: "AS AC A K Q J 7"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "5, widow 5"}
  auction:
    kind: list_auction
    contracts: [{call: T, tricks: 3, trumps: each, value: 1}]
  play: {kind: tricks}
scoring:
  each: "tricks"
match: {deals: 1}
"""


def test_cards_always_trump_need_no_place_at_no_trump_and_are_its_top_cards(tmp_path):
    """A♠ and A♣ are in every suit's trump order: at no trump they rank above every card, A♠
    first; with hearts trumps they rank A♠ A♣ above the A♥."""
    v = variant_from(tmp_path, "aces.yaml", GAME % {"sec": "AC"})
    deck = v.deck
    nt = v.contexts["NT"]
    s_, c_, ah = deck.parse("AS"), deck.parse("AC"), deck.parse("AH")
    assert nt.strength[s_] > nt.strength[c_] > nt.strength[ah]
    assert nt.group_of[s_] == nt.group_of[c_] != nt.group_of[ah]
    h = v.contexts["H"]
    assert h.group_of[s_] == h.group_of[c_] == h.group_of[ah]
    assert h.strength[s_] > h.strength[c_] > h.strength[ah]


def test_a_card_not_in_every_trump_order_must_still_be_ranked_at_no_trump(tmp_path):
    """A♣ is a trump in black suits only (the red trump order leaves it out): it is no card
    always trump, so the file must rank it at no trump; validate says so at the ranking."""
    with pytest.raises(VariantError, match=r"aces.yaml:\d+:\d+: .*AC is not ranked") as e:
        variant_from(tmp_path, "aces.yaml", (GAME % {"sec": "AC"}).replace('red: "AS AC A K', 'red: "AS A K'))
    assert "AS" not in str(e.value).split("not ranked")[0].split(":")[-1]
