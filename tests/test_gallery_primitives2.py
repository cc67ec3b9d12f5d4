"""More primitives of issue 11 (authoring reach), each on a small made-up variant: passing
phases with a per-deal direction schedule, a card whose holder leads the first trick, and
counters carried across deals with a threshold and a penalty (bags)."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant

TOY = """id: toy
name: Toy
players: %(players)s
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "1 x %(size)s"}
%(extra)s  play: {kind: tricks, lead: eldest%(play)s}
scoring:
%(scoring)s  each: "%(each)s"
match: {deals: %(deals)s}
"""


def toy(tmp_path, players=4, extra="", play="", scoring="", each="tricks", deals=4):
    f = tmp_path / "toy.yaml"
    f.write_text(TOY % dict(players=players, size=24 // players, extra=extra, play=play, scoring=scoring,
                            each=each, deals=deals))
    return load_variant(str(f))


PASS = "  passing: {kind: pass_cards, count: 2, directions: [left, hold, across]}\n"


def test_pass_cards_by_direction_schedule(tmp_path):
    """issue 11: a passing phase; deal 1 passes left, deal 2 holds, deal 3 passes across."""
    v = toy(tmp_path, extra=PASS)
    s = State(v, seed=3)
    h = s.hand
    before = list(h.hands)
    chosen = []
    for seat in (1, 2, 3, 0):                       # from the eldest hand
        assert h.to_move == seat
        a = s.legal_actions()[0]
        chosen.append((seat, a.cards))
        s.apply(a)
    for seat, cards in chosen:
        assert h.hands[(seat + 1) % 4] & cards == cards and not h.hands[seat] & cards
        assert s.observation((seat + 1) % 4).phase_data["received"] == cards
    assert [m.bit_count() for m in h.hands] == [6, 6, 6, 6] and h.hands != before
    assert s.kind.name == "tricks"
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert s.kind.name == "tricks"                       # deal 2: hold, no passing
    while s.hand.number == 1:
        s.apply(s.legal_actions()[0])
    assert s.kind.name == "pass_cards" and s.observation(0).phase_data["direction"] == "across"


def test_pass_cards_refuses_a_wrong_count(tmp_path):
    v = toy(tmp_path, extra=PASS)
    s = State(v, seed=3)
    one = s.variant.deck.names_of(s.hand.hands[1])[0]
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"discard {one}")
    assert "pass exactly 2 cards (found 1)" in str(e.value)


def test_pass_across_needs_an_even_table(tmp_path):
    with pytest.raises(VariantError) as e:
        toy(tmp_path, players=3, extra=PASS)
    assert "phases.passing.directions.2: across needs an even number of players" in str(e.value)


def test_first_trick_lead_card(tmp_path):
    """issue 11: the holder of a named card leads it to the first trick (Hearts' two of clubs)."""
    v = toy(tmp_path, play=", first_trick: {lead: 9C}")
    s = State(v, seed=5)
    holder = next(p for p in range(4) if s.hand.hands[p] >> v.deck.parse("9C") & 1)
    assert s.to_move == holder and [a.text for a in s.legal_actions()] == ["play 9C"]
    other = v.deck.names_of(s.hand.hands[holder] & ~(1 << v.deck.parse("9C")))[0]
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"play {other}")
    assert "9C must lead the first trick" in str(e.value)


BAGS = ("  counters:\n    bags: {add: \"tricks\", every: 4, score: -10}\n")


def test_counter_carries_across_deals_with_a_threshold(tmp_path):
    """issue 11: a match counter (bags): every deal adds the tricks taken; each time a
    player's count reaches 4 it drops by 4 and his entry gets -10."""
    v = toy(tmp_path, scoring=BAGS, deals=3)
    s = State(v, seed=2)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    won = [sum(h.won[p] for h in s.hand_log) for p in range(4)]
    assert s.sheet.totals() == [w - 10 * (w // 4) for w in won]
    assert s.counters["bags"] == [w % 4 for w in won]
    assert any("bags 4 to P" in (r.note or "") for r in s.sheet.rows)


def test_counter_formula_is_checked(tmp_path):
    with pytest.raises(VariantError) as e:
        toy(tmp_path, scoring="  counters:\n    bags: {add: \"trick\", every: 4, score: -10}\n")
    assert "scoring.counters.bags.add: unknown variable trick; did you mean tricks?" in str(e.value)
