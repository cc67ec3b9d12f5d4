"""Six-handed Five Hundred (variants/fivehundred-six.yaml, Bicycle "Six-Hand Five Hundred"):
the 63-card pack with 11s, 12s and 13s, two sides of three, and play to a winner."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant


# ---------------------------------------------------------------------- the shipped six-handed game
def test_fivehundred_six_pack_and_partnerships():
    """Bicycle "Six-Hand Five Hundred": 63 cards (11 and 12 in every suit, 13 in the
    red suits, the joker); ten each and three to the widow; two sides of three, alternating."""
    v = load_variant("fivehundred-six")
    d = v.deck
    assert d.size == 63 and {"11S", "12C", "13H", "13D", "JK"} <= set(d.names)
    assert "13S" not in d.index and "13C" not in d.index
    assert v.sides == ((0, 2, 4), (1, 3, 5))
    s = State(v, seed=4)
    assert [m.bit_count() for m in s.hand.hands] == [10] * 6 and s.hand.zones["widow"].bit_count() == 3
    hearts = v.contexts["H"]
    order = sorted((c for c in d.names if c.endswith("H") or c in ("JD", "JK")),
                   key=lambda n: -hearts.strength[d.index[n]])
    assert order[:7] == ["JK", "JH", "JD", "AH", "KH", "QH", "13H"] and order[-1] == "2H"
    from rulekit.variant.explain import explain
    assert "partners sitting alternately with their opponents" in explain(v)


@pytest.mark.parametrize("won, entries", [
    ([3, 1, 3, 1, 2, 0], [240, 20]),     # 8S made by side A (seats 0 2 4: 8 tricks): +240 [S1] [S2]
    ([3, 1, 2, 1, 1, 2], [-240, 40]),    # 7 tricks: -240; side B scores 10 a trick [S4] [S5]
])
def test_fivehundred_six_partnership_scores(won, entries):
    """The six-handed game scores by partnership, as the four-handed one."""
    from rulekit.engine.scoring import entries_for, envs_for
    v = load_variant("fivehundred-six")
    b = next(x for x in v.auction().bids if x.text == "8S")
    assert entries_for(v, b, 0, envs_for(v, b, 0, "S", won, [0] * 6)) == entries


@pytest.mark.parametrize("seed", [1, 2])
def test_fivehundred_six_plays_to_a_winner(seed):
    """The six-handed file plays to a winner (random legal play)."""
    import random
    rng = random.Random(seed)
    s = State(load_variant("fivehundred-six"), seed=seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners and "500" in s.result()["reason"]
