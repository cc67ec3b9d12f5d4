"""The fast path shares its rules with the checked path (issue 10).

Every shipped variant: the same seeded deals are played with the same random decisions
once through the checked public API (``legal_actions()`` then ``apply()``, which checks
each action) and once through the engine's fast loop
(:func:`rulekit.engine.playout.random_hand`: ``apply_unchecked`` and the tricks phase's
bitmask rules).  At every card decision of the checked run the fast path's legal cards
(``legal_play_mask()``) must be exactly the cards of ``legal_actions()``; both runs must
then end with the same action history, the same sheet and the same result.
"""
from __future__ import annotations

import random

import pytest

from rulekit.cards import bits
from rulekit.engine import State
from rulekit.engine.playout import random_hand
from rulekit.variant import builtin_ids, load_variant

HANDS = 4  # per match and seed: a few deals each, so the file stays fast


def checked_hand(st: State, rng: random.Random) -> None:
    """One hand through ``legal_actions()``/``apply()``, drawing from ``rng`` exactly as
    ``random_hand`` does (a card first, then the suit a led top card names)."""
    h = st.hand
    while st.hand is h and not st.is_over:
        legal = list(st.legal_actions())
        kind = st.kind
        if kind is not None and kind.name == "tricks":
            cards = sorted({a.card for a in legal})
            assert cards == list(bits(st.legal_play_mask())), (st.variant.id, h.number, len(h.tricks))
            c = cards[int(rng.random() * len(cards))]
            opts = [a for a in legal if a.card == c]
            a = opts[int(rng.random() * len(opts))] if opts[0].suit else opts[0]
        else:
            a = legal[int(rng.random() * len(legal))]
        st.apply(a)   # checks the action first: raises if the rules refuse it


def outcome(st: State) -> tuple:
    return (list(st.history), [r.as_dict() for r in st.sheet.rows], st.result(), st.hands_played,
            [(h.number, list(h.won), h.entries, list(h.tricks)) for h in st.hand_log])


@pytest.mark.parametrize("vid", builtin_ids())
def test_fast_and_checked_paths_play_the_same_deals_alike(vid):
    """issue 10: for seeded deals of every shipped variant, the fast loop and the checked API
    see the same legal cards and produce the same history, sheet and result."""
    v = load_variant(vid)
    for seed in range(3):
        checked, fast = State(v, seed=seed), State(v, seed=seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        for _ in range(HANDS):
            if checked.is_over:
                break
            checked_hand(checked, r1)
            random_hand(fast, r2)
            assert outcome(fast) == outcome(checked), (vid, seed, checked.hands_played)
        assert checked.hands_played >= 1
