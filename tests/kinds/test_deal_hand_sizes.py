"""A deal by ``hand_sizes`` that depends on the number of players, on a small made-up game for
three to six players (36 cards, one more card each deal until the pack runs out, as in Wizard,
pagat.com/exact/wizard.html): runs whose ends are formulas of ``players``, a mapping from the
number of players to a list, and the errors of each checked for every player count."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant import check_file, load_variant
from tests.helpers import play_random, write_variant

GAME = """id: upto
name: Up to the pack
players: {default: 4, choices: [3, 4, 5, 6]}
deck: {suits: [S, H, D, C], ranks: ["6", "7", "8", "9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9 8 7 6"}
dealer: {first: {seat: 0}}
phases:
  deal:
    kind: deal
    pattern: {"3": "12", "4": "9", "5": "7, stock 1", "6": "6"}
    hand_sizes: %(sizes)s
  trumps: {kind: turn_up, card: stock}
  play: {kind: tricks}
scoring:
  each: "tricks"
match: {deals: "36 / players"}
"""


def game(tmp_path, sizes: str, players: int):
    return load_variant(write_variant(tmp_path, "upto.yaml", GAME % {"sizes": sizes}), players=players)


@pytest.mark.parametrize("players, schedule", [(3, list(range(1, 13))), (4, list(range(1, 10))),
                                               (5, list(range(1, 8))), (6, list(range(1, 7)))])
def test_runs_of_hand_sizes_follow_the_number_of_players(tmp_path, players, schedule):
    """``"1 .. 36 / players"``: 1 to 12 cards at three players, 1 to 6 at six; each deal gives
    that many cards, the rest is the stock, and the match of 36 / players deals plays out."""
    v = game(tmp_path, '"1 .. 36 / players"', players)
    assert v.phases[0].sizes == tuple(schedule)
    s = State(v, seed=players)
    assert [m.bit_count() for m in s.hand.hands] == [1] * players
    play_random(s, seed=1)
    assert len(s.hand_log) == len(schedule) and s.winners
    assert [sum(h.won) for h in s.hand_log] == schedule


def test_runs_down_and_up_and_a_mapping_per_player_count(tmp_path):
    """``"3 .. 1, 2 .. 3"`` goes down then up; a mapping gives each player count its own list."""
    assert game(tmp_path, '"3 .. 1, 2 .. 3"', 4).phases[0].sizes == (3, 2, 1, 2, 3)
    sizes = '{"3": [12, 11], "4": [9], "5": [7, 1], "6": [6, 5, 4]}'
    assert game(tmp_path, sizes, 5).phases[0].sizes == (7, 1)
    assert game(tmp_path, sizes, 6).phases[0].sizes == (6, 5, 4)


@pytest.mark.parametrize("sizes, words", [
    ('"1 .. 40 / players"', "hand_sizes: 13 cards to each of 3 players need 39 cards but the deck has 36"),
    ('[1, 2, 10]', "hand_sizes: 10 cards to each of 4 players need 40 cards"),
    ('"1 .. 36 / tricks"', "hand_sizes: '36 / tricks'"),
    ('"0 .. 3"', "hand_sizes: '0 .. 3' for 3 players is no run of hand sizes"),
    ('{"3": [12], "4": [9], "5": [7]}', "hand_sizes: no hand sizes for 6 players (expected a key '6')"),
    ('{"3": [12], "4": [9], "5": [7], "6": [6], "7": [5]}', "hand_sizes.7: hand sizes for 7 players, but this variant is for 3 or 4 or 5 or 6"),
])
def test_hand_sizes_are_checked_for_every_player_count(tmp_path, sizes, words):
    """``validate`` checks the schedule for each player count offered, at the field's line."""
    path = write_variant(tmp_path, "upto.yaml", GAME % {"sizes": sizes})
    problems = [str(d) for d in check_file(path)]
    assert any(words in p and "upto.yaml:" in p for p in problems), problems
