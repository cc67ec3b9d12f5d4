"""The typed public engine API: aliases, the unchecked fast path, no
private State members used from other layers."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rulekit.engine import State
from rulekit.engine import types
from rulekit.engine.actions import Action
from rulekit.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
PRIVATE = re.compile(r"\b(?:s|st|state|w|world|self\.state|obs|game\.state)\._(?:apply_checked|play_actions|"
                     r"next_phase|bid_texts|start_hand|finish_hand|check_end|deck_order|rng)\b")


def test_aliases_are_ints():
    """``Card``, ``Mask``, ``Seat`` and ``Column`` are documented aliases of ``int``."""
    assert types.Card is int and types.Mask is int and types.Seat is int and types.Column is int


def test_no_private_state_calls_across_layers():
    """Bots, simulations, the CLI, tools and benchmarks use the public fast path
    (``apply_unchecked``, ``advance_phase``, ``play_actions``, ``bid_texts``), not State's
    private members."""
    found = []
    for d in ("rulekit/bots", "rulekit/sim", "cli", "benchmarks", "tools"):
        for p in sorted((ROOT / d).rglob("*.py")):
            for i, line in enumerate(p.read_text("utf-8").splitlines(), 1):
                if PRIVATE.search(line):
                    found.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("vid", ["fivehundred", "bridge", "whist", "rams"])
def test_apply_unchecked_plays_like_apply(vid):
    """The same legal choices through ``apply`` and ``apply_unchecked`` give the same
    history and sheet (the unchecked path skips only parsing and checking)."""
    v = load_variant(vid)
    a, b = State(v, seed=5), State(v, seed=5)
    ra, rb = random.Random(9), random.Random(9)
    for _ in range(400):
        if a.is_over:
            break
        la, lb = a.legal_actions(), b.legal_actions()
        assert [x.text for x in la] == [x.text for x in lb]
        a.apply(la[int(ra.random() * len(la))].text)
        b.apply_unchecked(lb[int(rb.random() * len(lb))])
    assert a.history == b.history and a.sheet.totals() == b.sheet.totals()


def test_public_tables_are_the_engine_tables():
    """``play_actions`` gives the cached action of each card; ``bid_texts`` the variant's bids."""
    v = load_variant("fivehundred")
    s = State(v, seed=1)
    assert len(s.play_actions) == v.deck.size
    assert s.play_actions[3] is s.play_action(3) and s.play_actions[3].text == "play " + v.deck.name(3)
    assert s.bid_texts[0] == "6S" and "10NT" in s.bid_texts
    assert State(load_variant("whist"), seed=1).bid_texts == ()


def test_unchecked_path_skips_a_phase_that_does_not_apply():
    """The unchecked path advances phases like ``apply``: after an auction with a no-trump contract the
    trump naming does not apply (rules/fivehundred.md [A4]), so play starts."""
    s = State(load_variant("fivehundred"), seed=2)
    assert s.kind is not None and s.kind.role == "auction"
    s.apply_unchecked(Action.make_bid("6NT"))
    while s.phase_kind == "ladder_auction":
        s.apply_unchecked(Action.pass_())
    assert s.phase_kind == "widow_exchange"
    s.apply(s.legal_actions()[0])
    assert s.phase_kind == "tricks" and s.hand.trump == "NT"
