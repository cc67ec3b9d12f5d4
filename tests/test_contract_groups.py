"""Rankings, trumps and card points that a contract brings with it (``contract_groups``),
rankings by suit or colour, and where the cards out of play go (``widow_to``,
``discards_to``), each on a small made-up variant."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import VariantError
from rulekit.variant.explain import explain
from tests.helpers import deal_order, variant_from

# A made-up Skat-like game: suit contracts rank the jacks on top of the trumps, the jacks are
# the only trumps at grand (at no trump), a null ranks A K Q J 10 9 8 7 with no trumps and no points.
GROUPS = """id: groups
name: Groups
players: 3
deck:
  suits: [C, S, H, D]
  ranks: ["7", "8", "9", "10", J, Q, K, A]
  card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
ranking:
  suit: "A 10 K Q 9 8 7"
  trump: "JC JS JH JD A 10 K Q 9 8 7"
  top: "JC JS JH JD"
contract_groups:
  nullgame:
    ranking: {suit: "A K Q J 10 9 8 7", trump: null, top: null}
    card_points: {}
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "3 4 3, widow 2"}
  bidding:
    kind: list_auction
    contracts:
      - {tricks: 0, trumps: each, value: "13 - suit_class"}
      - {call: grand, value: 24}
      - {call: N, name: null game, value: 23, null: true, group: nullgame}
  exchange: {kind: widow_exchange}
  play: {kind: tricks, lead: eldest, discards_to: declarer}
scoring:
  declarer: "if declarer_points > 60 then value else -2 * value"
  defender: "0"
match:
  deals: 3
"""


def groups(tmp_path, text=GROUPS):
    return variant_from(tmp_path, "groups.yaml", text)


def test_a_null_contract_ranks_the_jacks_in_their_suits_without_trumps_or_points(tmp_path):
    """A contract naming a group plays with that group's ranking and card points: at ``null``
    the jack of spades ranks between the queen and the ten of spades and counts nothing; at a
    suit contract it is the second trump; at grand, a top card above the suits."""
    v = groups(tmp_path)
    d = v.deck
    js, ks, ts, qs = (d.parse(c) for c in ("JS", "KS", "10S", "QS"))
    null = v.context("NT", "nullgame")
    assert null is not None and null.trump_group is None
    assert null.group_of[js] == d.suits.index("S")
    assert null.strength[qs] > null.strength[js] > null.strength[ts]
    assert not any(null.points)
    hearts = v.contexts["H"]
    assert hearts.group_of[js] == d.suits.index("H") and hearts.strength[js] > hearts.strength[d.parse("AH")]
    grand = v.contexts["NT"]
    assert grand.group_of[js] == grand.trump_group == len(d.suits) and grand.points[d.parse("AS")] == 11
    assert set(v.group_contexts["nullgame"]) == {"NT"}   # the group's contracts play at no trump only
    text = explain(v)
    assert "Contracts of group nullgame (N) rank a plain suit A K Q J 10 9 8 7" in text
    assert "count no card points" in text


def test_the_declared_contract_selects_its_tables_and_its_discards_count_for_him(tmp_path):
    """The hand's tables follow its contract's group (``set_trump`` reads it); the declarer's
    discards count for him at the end (``discards_to: declarer``)."""
    v = groups(tmp_path)
    for seed in range(40):
        s = State(v, seed=seed)
        rng = random.Random(seed)
        while s.hand.phase == 1 and not s.is_over:   # the auction: bid null if one can
            acts = s.legal_actions()
            null = [a for a in acts if a.text == "N"]
            s.apply(null[0] if null and rng.random() < 0.7 else acts[0] if acts[0].text == "pass" else acts[-1])
        if s.hand.contract is None or s.hand.contract.text != "N":
            continue
        assert s.hand.ctx.group == "nullgame"
        s.apply(s.legal_actions()[0])   # the discard
        discards = s.hand.discards
        while s.hand.tricks is not None and len(s.hand.tricks) < 10:
            h = s.hand
            s.apply(s.legal_actions()[0])
            if s.hand is not h:
                break
        assert h.won_cards[h.declarer] & discards == discards
        return
    pytest.fail("no null was played")


def test_a_contract_naming_an_unknown_group_is_refused_at_its_line(tmp_path):
    """``group:`` names a group of ``contract_groups`` (or ``low``); anything else is refused
    where it is written, with a close match."""
    with pytest.raises(VariantError) as e:
        groups(tmp_path, GROUPS.replace("group: nullgame}", "group: nulgame}"))
    assert "groups.yaml:25:66:" in str(e.value) and "unknown contract group nulgame; did you mean nullgame?" in str(e.value)


def test_a_group_no_contract_names_is_a_warning(tmp_path):
    """A contract group that no contract names changes nothing: ``validate`` warns at it."""
    from rulekit.variant import check_file
    f = tmp_path / "groups.yaml"
    f.write_text(GROUPS.replace("      - {call: N, name: null game, value: 23, null: true, group: nullgame}\n", ""))
    found = check_file(str(f), warnings=True)
    assert any("has no effect: no contract names group nullgame" in str(w) for w in found)


COLOURS = """id: colours
name: Colours
players: 4
deck:
  suits: [S, H, D, C]
  ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A]
ranking:
  suit: {red: "K Q J 10 9 8 7 6 5 4 3 2 A", black: "K Q J A 2 3 4 5 6 7 8 9 10"}
  trump: {red: "5 J AH A K Q 10 9 8 7 6 4 3 2", black: "5 J AH A K Q 2 3 4 6 7 8 9 10"}
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "3 2, talon 32"}
  trumps: {kind: turn_up, from: talon}
  play: {kind: tricks, may_trump: true, renege: "5 J AH"}
scoring:
  each: "tricks"
match:
  deals: 2
"""


def test_plain_suits_rank_by_colour_and_the_ace_of_hearts_is_always_a_trump(tmp_path):
    """``ranking.suit`` by colour: highest in red, lowest in black; a card named in the trump
    ranking (the A♥) is a trump in every trump suit, third, and missing from hearts
    (rules/fortyfive.md [FF-R1]-[FF-R3])."""
    v = variant_from(tmp_path, "colours.yaml", COLOURS)
    d = v.deck

    def order(ctx, suit):
        g = d.suits.index(suit)
        return [d.name(c) for c in ctx.orders[g]]
    spades = v.contexts["S"]
    assert order(spades, "S")[:7] == ["5S", "JS", "AH", "AS", "KS", "QS", "2S"]
    assert order(spades, "D")[:6] == ["KD", "QD", "JD", "10D", "9D", "8D"] and order(spades, "D")[-1] == "AD"
    assert order(spades, "C")[:6] == ["KC", "QC", "JC", "AC", "2C", "3C"] and order(spades, "C")[-1] == "10C"
    assert "AH" not in order(spades, "H")
    hearts = v.contexts["H"]
    assert order(hearts, "H")[:5] == ["5H", "JH", "AH", "KH", "QH"] and len(order(hearts, "H")) == 13
