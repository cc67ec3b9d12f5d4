"""The leader chosen by the caller (issue 11, Euchre's "the player left of a lone maker leads"):
``tricks`` ``lead_if`` / ``lead_then``, on a small made-up variant and on the shipped ``euchre``
(pagat.com/euchre/euchre.html)."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import VariantError
from rulekit.variant import load_variant
from rulekit.variant.explain import explain

TOY = """id: lonetoy
name: Lone toy
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
  trump: "A K Q J 10 9"
dealer:
  first: {seat: 3}
phases:
  deal: {kind: deal, pattern: "3 2, widow 4"}
  making: {kind: order_up, alone: true}
  play:
    kind: tricks
    lead: eldest
%(lead)s
scoring:
  by: side
  each: "tricks"
match:
  deals: 1
"""


def toy(tmp_path, lead='    lead_if: "alone"\n    lead_then: declarer_left'):
    f = tmp_path / "toy.yaml"
    f.write_text(TOY % {"lead": lead}, encoding="utf-8")
    return load_variant(str(f))


def _make(s, call: str, maker: int) -> None:
    """Pass up to ``maker``, who says ``call``; the dealer discards when he picks the card up."""
    while s.to_move != maker:
        s.apply("pass")
    s.apply(call)
    if s.phase_kind == "order_up":        # the dealer's discard
        s.apply(s.legal_actions()[0])


@pytest.mark.parametrize("call, maker, leader", [
    ("order alone", 2, 3),   # S alone, N (the eldest) sits out: W, on S's left, leads (was E)
    ("order alone", 0, 1),   # N alone (the eldest himself): E leads (was N)
    ("order", 2, 0),         # with his partner: the eldest hand leads as usual
])
def test_lone_maker_left_leads(tmp_path, call, maker, leader):
    """issue 11 (a leader chosen by the caller): with ``lead_if: alone`` and ``lead_then:
    declarer_left`` the player left of a lone maker leads; otherwise the eldest hand."""
    s = State(toy(tmp_path), seed=1, dealer=3)
    _make(s, call, maker)
    assert s.phase_kind == "tricks" and s.hand.declarer == maker and s.to_move == leader


def test_lead_if_needs_lead_then(tmp_path):
    """issue 11: ``lead_if`` without ``lead_then`` is refused at the key, with file:line:col."""
    with pytest.raises(VariantError) as e:
        toy(tmp_path, lead='    lead_if: "alone"')
    msg = str(e.value)
    assert "toy.yaml:20:14:" in msg and "phases.play.lead_if: lead_if needs lead_then" in msg


def test_euchre_lone_maker_left_leads():
    """issue 11, pagat Euchre: dealer West; South orders up alone, his partner North (the
    eldest hand) sits out and West, on South's left, leads the first trick (it was East)."""
    v = load_variant("euchre")
    s = State(v, seed=2, dealer=3)
    _make(s, "order alone", 2)
    assert s.hand.hands[0] == 0 and s.to_move == 3
    s2 = State(v, seed=2, dealer=3)
    _make(s2, "order", 2)
    assert s2.to_move == 0                  # not alone: the eldest hand leads
    assert "the declarer's left-hand opponent instead when `alone` holds" in explain(v)
