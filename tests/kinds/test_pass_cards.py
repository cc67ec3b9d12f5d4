"""The ``pass_cards`` kind: passing phases with a per-deal direction schedule, counted in the
variant's direction of play, the bare cards as a pass, and the side at the table named on
screen and in ``explain``."""
from __future__ import annotations

import pytest

from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant
from tests.helpers import assert_choices_play_as_actions, runner, table_toy, variant_from

PASS = "  passing: {kind: pass_cards, count: 2, directions: [left, hold, across]}\n"


def test_pass_cards_by_direction_schedule(tmp_path):
    """A passing phase; deal 1 passes left, deal 2 holds, deal 3 passes across."""
    v = table_toy(tmp_path, extra=PASS)
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
    v = table_toy(tmp_path, extra=PASS)
    s = State(v, seed=3)
    one = s.variant.deck.names_of(s.hand.hands[1])[0]
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"discard {one}")
    assert "pass exactly 2 cards (found 1)" in str(e.value)


def test_pass_across_needs_an_even_table(tmp_path):
    with pytest.raises(VariantError) as e:
        table_toy(tmp_path, players=3, extra=PASS)
    assert "phases.passing.directions.2: across needs an even number of players" in str(e.value)

TOY = """id: pass-toy
name: Pass toy
players: 4
deck: {suits: [S, H, D, C], ranks: ["10", J, Q, K, A]}
ranking: {suit: "A K Q J 10"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "5"}
  passing: {kind: pass_cards, count: 2, directions: [left, right, across]}
  play: {kind: tricks}
scoring:
  each: "tricks"
match: {deals: 3}
"""


def _toy(tmp_path, direction: str):
    return variant_from(tmp_path, "toy.yaml", TOY + f"direction: {direction}\n")


@pytest.mark.parametrize("direction, deal, expected", [
    ("counterclockwise", 0, {0: 3, 1: 0, 2: 1, 3: 2}),   # left: the next player in turn, seat - 1
    ("counterclockwise", 1, {0: 1, 1: 2, 2: 3, 3: 0}),   # right: against the direction of play
    ("counterclockwise", 2, {0: 2, 1: 3, 2: 0, 3: 1}),   # across
    ("clockwise", 0, {0: 1, 1: 2, 2: 3, 3: 0}),          # unchanged for clockwise games
])
def test_passing_follows_the_direction_of_play(tmp_path, direction, deal, expected):
    """Passing-direction schedules: each seat's passed cards arrive at the seat the
    direction names, counted in the variant's direction of play (it counted clockwise before)."""
    v = _toy(tmp_path, direction)
    s = State(v, seed=7, dealer=0)
    while s.hand.number < deal:
        s.apply(s.legal_actions()[0])
    assert s.phase_kind == "pass_cards"
    passed = {}
    for _ in range(4):
        seat = s.to_move
        a = s.legal_actions()[0]
        passed[seat] = a.cards
        s.apply(a)
    for seat, cards in passed.items():
        assert s.hand.hands[expected[seat]] & cards == cards, (seat, expected[seat])


def test_hearts_bare_cards_pass():
    """The bare cards ``10C JC KC`` are a pass too."""
    s = State(load_variant("hearts"), seed=3)
    while s.to_move != 0:
        s.apply(s.legal_actions()[0])
    a = s.parse_action("10C JC KC")
    assert a.kind == "discard" and s.variant.deck.names_of(a.cards) == ["10C", "JC", "KC"]


def test_counter_clockwise_pass_says_the_side_at_the_table(tmp_path):
    """In counter-clockwise Hearts the file's ``left`` (the next player in
    the direction of play, P3 for P0) is on the right at the table: screen and explain say so."""
    f = tmp_path / "ccw.yaml"
    f.write_text("extends: hearts\nid: hearts-ccw\nname: Hearts CCW\ndirection: counterclockwise\n")
    r = runner.invoke(app, ["play", str(f), "--auto", "--seed", "4", "--max-hands", "1"])   # P0 deals
    assert "Hand 1 — dealer P0 — passing to the right" in r.output
    assert "P0 passes 3 cards to the right (to P3)" in r.output
    from rulekit.variant.explain import explain
    text = " ".join(explain(load_variant(str(f))).split())
    assert "the cards go to the right, to the left, across, not at all (hold)" in text
    assert 'all pass to the right (the passing of cards says the side at the table).' in text
    assert "clockwise from the eldest hand (right of the dealer)" in text


def test_passes_as_numbers_play_as_the_checked_actions(tmp_path):
    """A pass numbered by its place among the sets of cards (lexicographic, as ``legal()``
    lists them) is the pass of those cards: same text in the hand's actions, same hands after
    the exchange, same history, sheet and result as the checked API, in every direction of
    the schedule (left, hold, across)."""
    assert_choices_play_as_actions(table_toy(tmp_path, extra=PASS), seeds=range(6), hands=3)
    assert_choices_play_as_actions(load_variant("hearts"), seeds=range(2), hands=2)
