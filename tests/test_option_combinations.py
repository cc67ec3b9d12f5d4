"""issue 11: every file that validates must play.  Random valid combinations of options on a
small made-up variant (deck by rule, deal schedule, trump source, bids with or without the hook,
partnerships or not, scoring by side, must_trump, a target or a number of deals) are each
played to their end by random legal moves."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import VariantError
from rulekit.variant import load_variant


def combination(rng: random.Random) -> str:
    sides = rng.random() < 0.5
    players = 4 if sides else rng.choice([3, 4])
    minus = rng.choice(["", ", minus: [9S]", ", plus: [9H]"])
    deck_size = 24 - (1 if minus.startswith(", minus") else 3 if minus else 0)  # plus [9H]: no 9S 9D 9C
    size = deck_size // players
    sched = rng.choice(["", f", hand_sizes: [1, {size}]"])
    trump = rng.choice(["", "  trump: {kind: turn_up}\n", "  trump: {kind: turn_up, card: stock}\n"])
    if sched and trump == "  trump: {kind: turn_up}\n":
        trump = ""
    bids = rng.choice(["", "  bidding: {kind: trick_bids}\n", "  bidding: {kind: trick_bids, hook: true}\n"])
    each = "if tricks == bid then 10 + bid else 0" if bids and not sides else "tricks"
    if bids and sides:
        each = "(if bid_tricks >= bid then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed"
    total = size * players
    rest = deck_size - total
    pattern = f"{size}" + (f", widow {rest}" if rest else "")
    end = rng.choice(["deals: 3", "target: 15"])
    return f"""id: combo
name: Combo
players: {players}
{"sides: {A: [0, 2], B: [1, 3]}" if sides else ""}
deck: {{suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]{minus}}}
ranking: {{suit: "A K Q J 10 9"}}
phases:
  deal: {{kind: deal, pattern: "{pattern}"{sched}}}
{trump}{bids}  play: {{kind: tricks, lead: eldest, must_trump: {str(rng.random() < 0.5).lower()}}}
scoring:
  {"by: side" if sides else ""}
  each: "{each}"
match: {{{end}}}
"""


@pytest.mark.parametrize("seed", range(24))
def test_random_option_combination_plays_to_its_end(tmp_path, seed):
    rng = random.Random(seed)
    text = combination(rng)
    f = tmp_path / "combo.yaml"
    f.write_text(text)
    try:
        v = load_variant(str(f))
    except VariantError as e:  # pragma: no cover - every combination built here is valid
        pytest.fail(f"{e}\n{text}")
    s = State(v, seed=seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners, text
