"""Round schedules, the running-total pile, the layout (domino) and the deal split by a
decision (issue 7): each a general primitive, tested here on small made-up variants
that are not King."""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import compile_variant, resolve_text

BASE = """\
id: toy-rounds
name: Toy rounds
players: 3
deck: {suits: [S, H, D], ranks: ["7", "8", "9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9 8 7"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "4 4"}
  play: {kind: tricks, lead: eldest}
scoring:
  each: "tricks"
"""


def load(text: str, name: str = "toy.yaml"):
    """Compile a variant from YAML text (errors as :class:`VariantError`)."""
    return compile_variant(resolve_text(name, text))


def play_out(state: State, bots=None, seed: int = 0) -> State:
    """Play ``state`` to its end with bots (random by default)."""
    bots = bots or [RandomBot(seed + i) for i in range(state.variant.players)]
    steps = 0
    while not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].act(state.observation(seat)))
        steps += 1
        assert steps < 10000
    return state


ROUNDS = BASE + """\
rounds:
  - name: most tricks
    objective: take tricks
  - name: no tricks
    objective: take no tricks
    times: players
    scoring: {each: "-2 * tricks"}
"""


def test_schedule_rounds_overlay_and_sheet_lines():
    """issue 7: a match is an ordered list of rounds, each an overlay of the base rules with its
    name; the deal passes on after each round; ``times: players`` repeats a round once per
    dealer; the match ends after the last round; the sheet has one line per round, named."""
    v = load(ROUNDS)
    assert [r.round_name for r in v.rounds] == ["most tricks", "no tricks 1", "no tricks 2", "no tricks 3"]
    assert v.rounds[1].objective == "take no tricks"
    s = play_out(State(v, seed=3))
    rows = [r for r in s.sheet.rows]
    assert [r.note.split(":")[0] for r in rows] == ["most tricks", "no tricks 1", "no tricks 2", "no tricks 3"]
    assert [h.dealer for h in s.hand_log] == [0, 1, 2, 0]
    first, later = s.hand_log[0], s.hand_log[1:]
    assert rows[0].entries == first.won                      # base scoring: +1 per trick
    for r, h in zip(rows[1:], later):                        # the overlay: -2 per trick
        assert r.entries == [-2 * w for w in h.won]
    assert s.end_reason == "all 4 rounds played"
    totals = s.sheet.totals()
    assert s.winners == [c for c, t in enumerate(totals) if t == max(totals)]


def test_round_overlay_error_points_at_the_round_line():
    """issue 7: a bad overlay is reported at its own line in the file, with the path."""
    bad = ROUNDS.replace('scoring: {each: "-2 * tricks"}', 'scoring: {each: "-2 * trickz"}')
    with pytest.raises(VariantError) as e:
        load(bad)
    msg = str(e.value)
    line = bad.splitlines().index('    scoring: {each: "-2 * trickz"}') + 1
    assert f"toy.yaml:{line}:" in msg and "trickz" in msg
