"""The ``pile`` kind on a small made-up variant: a running total with thresholds that score,
compile-time checks, and bots that play it."""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from tests.helpers import ROUNDS_BASE, load_text

PILE = ROUNDS_BASE + """\
rounds:
  - name: tricks
  - name: adder
    objective: do not bring the pile to a threshold
    phases:
      play: null
      pile:
        kind: pile
        values: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
        thresholds: [{at: 20, score: -1}, {at: 40, score: -3}]
    scoring: {each: "pile_score"}
"""


def test_pile_running_total_thresholds_and_end():
    """Pile kind: cards go one at a time onto one pile from the eldest hand; the player
    whose card brings the total to a threshold or beyond scores it; the round ends at the last."""
    v = load_text(PILE)
    # round 2 is dealt by P1, so P2 plays first; packets of 4: P2, P0, P1, P2, P0, P1
    hands = {2: "AS AH AD KS", 0: "10S 10H 10D KH", 1: "QS QH QD JS"}
    order = hands[2].split() + hands[0].split() + hands[1].split()
    rest = [v.deck.name(c) for c in range(v.deck.size) if v.deck.name(c) not in order]
    order += rest[:12]
    s = State(v, seed=0, deals=[[v.deck.name(c) for c in range(v.deck.size)], order])
    while s.hands_played == 0:
        s.apply(s.legal_actions()[0])
    assert s.variant.round_name == "adder" and s.kind.name == "pile" and s.to_move == 2
    for text in ["AS", "10S", "QS"]:          # 11, 21 (P0 reaches 20: -1), 24
        s.apply(text)
    assert s.observation(1).phase_data["pile_total"] == 24
    assert s.observation(1).phase_data["pile_score"] == [-1, 0, 0]
    # the pile's rows name who took each threshold's score as it happens
    from rulekit.engine.phases import kind_of
    rows = kind_of("pile").show(kind_of("pile").data_of(s.hand), s.variant)
    assert rows[0] == ("pile", "P2 A♠ 11 · P0 10♠ 21 (-1) · P1 Q♠ 24")
    with pytest.raises(IllegalActionError, match="you do not hold"):
        s.apply("AS")
    for text in ["AH", "10H"]:                 # 35, 45 (P0 reaches 40: -3) and the round ends
        s.apply(text)
    assert s.is_over
    assert s.sheet.rows[-1].entries == [-4, 0, 0]
    assert s.sheet.rows[-1].note.startswith("adder")


def test_pile_kind_is_checked_at_compile_time():
    """Unknown ranks and falling thresholds are refused with file:line:col."""
    bad = PILE.replace('K: 4, Q: 3', 'Kx: 4, Q: 3').replace("at: 40", "at: 10")
    with pytest.raises(VariantError) as e:
        load_text(bad)
    msg = str(e.value)
    assert "unknown rank 'Kx'" in msg and "the thresholds must rise: 10 after 20" in msg
    assert "toy.yaml:" in msg


@pytest.mark.parametrize("seed", range(3))
def test_pile_bots_play_and_sensible_avoids_thresholds(seed):
    """Random and sensible bots play pile rounds; the sensible bot never reaches a
    costly threshold when it holds a card that avoids it."""
    v = load_text(PILE)
    s = State(v, seed=seed)
    bots = [SensibleBot(seed), RandomBot(seed), SensibleBot(seed + 1)]
    while not s.is_over:
        seat = s.to_move
        obs = s.observation(seat)
        a = bots[seat].act(obs)
        if s.kind.name == "pile" and isinstance(bots[seat], SensibleBot):
            spec = obs.phase_spec
            total = obs.phase_data["pile_total"]
            from rulekit.engine.phases.pile import crossed
            best = max(crossed(spec, total, total + spec.values[x.card]) for x in obs.legal)
            assert crossed(spec, total, total + spec.values[a.card]) == best
        s.apply(a)
    assert len(s.sheet.rows) == 2
