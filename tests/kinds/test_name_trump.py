"""The ``name_trump`` kind before play (``by: dealer`` / ``by: eldest``) on a small made-up
four-player partnership game played counter-clockwise: the eldest hand (the dealer's right, as
Schieber Jass's forehand, pagat.com/jass/schieber.html) names trumps or passes the choice to
his partner, and leads to the first trick whoever named."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant.explain import explain
from tests.helpers import variant_from

GAME = """id: shove
name: Shove
players: 4
direction: counterclockwise
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H, D, C], ranks: ["9", J, Q, K, A]}
ranking: {suit: "A K Q J 9"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "5"}
  trumps: {kind: name_trump, choices: [S, H, D, C], by: %(by)s, partner_may_name: true}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "tricks"
match: {deals: 2}
"""


def game(tmp_path, by: str = "eldest"):
    return variant_from(tmp_path, "shove.yaml", GAME % {"by": by})


def test_the_eldest_hand_names_trumps_and_leads(tmp_path):
    """Seat 0 deals; counter-clockwise the eldest is seat 3 (the dealer's right): he names."""
    s = State(game(tmp_path), seed=1)
    assert s.hand.dealer == 0 and s.hand.eldest == 3 and s.to_move == 3
    assert [a.text for a in s.legal_actions()][-1] == "pass"
    s.apply("trump H")
    assert s.hand.trump == "H" and s.kind.name == "tricks" and s.to_move == 3


def test_the_eldest_may_shove_to_his_partner_who_must_name_and_the_eldest_still_leads(tmp_path):
    """``pass``: his partner (seat 1) names, and may not pass back; seat 3 leads the first trick."""
    s = State(game(tmp_path), seed=1)
    s.apply("pass")
    assert s.to_move == 1 and "pass" not in [a.text for a in s.legal_actions()]
    with pytest.raises(IllegalActionError, match="name trumps now"):
        s.apply("pass")
    s.apply("trump C")
    assert s.hand.trump == "C" and s.to_move == 3


def test_explain_says_who_names(tmp_path):
    """The eldest hand, at the dealer's right in this counter-clockwise game; ``by: dealer``
    keeps the dealer."""
    assert "The eldest hand (right of the dealer) names trumps or lets his partner name them" in \
        explain(game(tmp_path))
    s = State(game(tmp_path, "dealer"), seed=1)
    assert s.to_move == 0
