"""The general primitives preferans brought, on a small made-up variant: ``step_auction``,
``announce``, ``defence``, ``scoring.markers``, ``scoring.against_declarer``,
``match.sum_at_most`` / ``match.final`` and the ``bula`` layout."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.errors import IllegalActionError
from rulekit.sheets.render import sheet_text
from rulekit.variant.compiler import compile_variant
from rulekit.variant.loader import resolve

TOY = """id: step-toy
name: Step toy
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "4, widow 3 down, 3"}
  bidding:
    kind: step_auction
    contracts: [{call: low, level: 1, strain: S}, {call: high, level: 2, strain: H}]
    blind: {call: blind, skips: [widow]}
  widow: {kind: widow_exchange, discard: 3}
  say: {kind: announce}
  defend: {kind: defence, need: {each: 1, together: 2, alone: 1, invited: 2, kontra: 3},
           chain: [double, redouble], skips: [play]}
  play: {kind: tricks}
scoring:
  lower_is_better: true
  start: 10
  markers: {star: {max: 1, factor: 3}}
  declarer: "-(level + blind) * kontra * star"
  defender: "0"
  against_declarer: "soup_tricks * star"
match: {sum_at_most: 0, final: "against - written + total"}
sheet: {layout: bula}
"""


@pytest.fixture
def toy(tmp_path):
    p = tmp_path / "toy.yaml"
    p.write_text(TOY)
    return compile_variant(resolve(str(p)))


def test_step_auction_hold_blind_and_markers(toy):
    """Steps of one, hold by the earlier seat, a marker for all when all pass, its factor."""
    s = State(toy, seed=1, dealer=2)
    for t in ("pass", "pass", "pass"):
        s.apply(t)
    assert s.markers.factor_for(0) == 3 and len(s.sheet.rows[0].marks) == 3
    s.apply("pass")                       # seat 1 speaks first now
    s.apply("1")
    with pytest.raises(IllegalActionError, match="the next is 2"):
        s.apply("1")
    s.apply("2")
    s.apply("hold")
    s.apply("pass")
    assert s.hand.declarer == 2 and s.phase_kind == "widow_exchange"


def test_defence_double_chain_and_soups(toy):
    """Defenders follow, one doubles, the declarer redoubles; soups are written against him."""
    s = State(toy, seed=2, dealer=0)
    s.apply("blind")                       # seat 1, first turn: no talon
    s.apply("pass")
    s.apply("pass")
    assert s.phase_kind == "announce"
    s.apply("blind-high")
    for t in ("follow", "follow", "double", "redouble"):
        s.apply(t)
    assert kind_of("defence").data_of(s.hand).level == 2
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    row = s.sheet.rows[0]
    assert row.entries[1] == -(2 + 1) * 4
    assert all(a["target"] == 1 for a in row.against)
    assert "Final result" in sheet_text(s.sheet, toy)


def test_step_auction_without_a_blind_block_offers_no_blind_call(tmp_path):
    """Found by the mutation fuzz: with `blind:` removed the auction still offered the blind call
    `blind`, whose win then failed (IndexError). No blind block, no blind call."""
    from rulekit.engine import State
    from rulekit.variant import load_variant
    f = tmp_path / "noblind.yaml"
    f.write_text("id: noblind\nextends: preferans\nphases:\n  auction:\n    blind: null\n", encoding="utf-8")
    s = State(load_variant(str(f)), seed=1)
    assert [a.kind for a in s.legal_actions()] == ["pass", "bid"]
    s = State(load_variant("preferans"), seed=1)
    assert [a.text for a in s.legal_actions() if a.kind == "blind"] == ["igra", "betl", "sans"]
