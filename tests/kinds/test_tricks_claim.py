"""A claim that stops trick play (``tricks`` with ``claim:``) on small made-up variants: judged at
once by its condition, on lead or at any turn, the claims made for the players when the cards
run out, the formula variables, and the misuse ``validate`` refuses."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.errors import IllegalActionError, VariantError
from tests.helpers import STOCK_PLAY, STOCK_TOY, order_for, stock_toy, variant_from

CLAIM = STOCK_PLAY + '    claim: {made_if: "points >= 20"}\n'
SCORE = '  each: "if claim_made then 3 else if count(claimed) > count(claim_made) and not claimed then 2 else 0"'
EXAMPLE = {0: "KH QH AS 10S JC", 1: "AH JH KS QC 10D", "stock": "10H AD QS KC JD 10C KD JS AC QD"}


def deal(v) -> State:
    return State(v, seed=0, deals=[order_for(v, 1, EXAMPLE)], dealer=1)


def texts(s) -> list:
    return [a.text for a in s.legal_actions()]


def test_a_claim_stops_play_and_is_judged_at_once(tmp_path):
    """[SN-G1]: on lead a player claims; play stops and the claim is made when its condition
    holds for him then (a failed claim scores for the other here)."""
    v = stock_toy(tmp_path, play=CLAIM, scoring=SCORE)
    s = deal(v)
    assert texts(s)[-1] == "claim"
    s.apply("play AS")
    assert "claim" not in texts(s)                  # not as the follower
    with pytest.raises(IllegalActionError, match="only on lead"):
        s.apply("claim")
    s.apply("play KS")                              # seat 0: 15 points
    s.apply("claim")
    assert s.sheet.rows[0].entries == [0, 2]        # 15 < 20: failed
    h = s.hand_log[0] if s.hand_log else None
    assert h is not None and REGISTRY["tricks"].data_of(h).claimer == 0
    s2 = deal(v)
    for a in ("play AS", "play KS", "play 10S", "play QC"):   # seat 0: 15 + 13 = 28
        s2.apply(a)
    s2.apply("claim")
    assert s2.sheet.rows[0].entries == [3, 0] and "P0 claimed (made)" in s2.sheet.rows[0].note


def test_claim_at_any_turn(tmp_path):
    """``when: turn``: the follower may claim too."""
    v = stock_toy(tmp_path, play=CLAIM.replace('"points >= 20"}', '"points >= 20", when: turn}'), scoring=SCORE)
    s = deal(v)
    s.apply("play AS")
    assert texts(s)[-1] == "claim"


def test_claims_made_for_the_players_when_the_cards_run_out(tmp_path):
    """``at_end``: when the last trick is played with no claim, the winner of the last trick
    (then the other) claims if his claim is made (docs/rules/schnapsen.md [SN-S5])."""
    play = STOCK_PLAY + '    claim: {made_if: "points >= 61", at_end: true}\n'
    v = stock_toy(tmp_path, play=play, scoring=SCORE)
    for seed in range(12):
        s = State(v, seed=seed)
        while not s.sheet.rows:
            acts = [a for a in s.legal_actions() if a.text not in ("claim", "close")]
            s.apply(acts[0])
        h = s.hand_log[0]
        d = REGISTRY["tricks"].data_of(h)
        pts = [e.vars["points"] for e in _envs(v, h)]
        assert d.played_out
        if max(pts) >= 61:
            assert d.claim_made and pts[d.claimer] >= 61
            assert s.sheet.rows[0].entries[d.claimer] == 3
        else:
            assert d.claimer == -1 and s.sheet.rows[0].entries == [0, 0]


def _envs(v, h):
    from rulekit.engine.scoring import player_envs
    return player_envs(v, h)


def test_claim_variables_and_words(tmp_path):
    """Formulas read ``claimed``, ``claim_made`` and ``played_out``; the story says the claim."""
    v = stock_toy(tmp_path, play=CLAIM, scoring=SCORE)
    s = deal(v)
    s.apply("claim")
    h = s.hand_log[0]
    e = [x.vars for x in _envs(v, h)]
    assert (e[0]["claimed"], e[0]["claim_made"], e[0]["played_out"], e[1]["claimed"]) == (1, 0, 0, 0)
    said = REGISTRY["tricks"].said(v.phases[-1], h, v, 0, "claim", s.names)
    assert said.third == "claims: failed"
    assert "A player may claim on lead, before leading: play stops at once, and the claim is made when" in \
        REGISTRY["tricks"].describe(v.phases[-1], v)


@pytest.mark.parametrize("made_if, words", [
    ('"pointz >= 66"', "unknown variable pointz"),
    ('"points >= "', "expected"),
    ('"points + 1"', "condition"),
])
def test_claim_condition_misuse_is_refused_at_its_line(tmp_path, made_if, words):
    """``validate``: a claim condition with an unknown name, bad syntax or a number for a
    condition, at its file:line:column."""
    text = STOCK_TOY % {"play": (STOCK_PLAY + f"    claim: {{made_if: {made_if}}}").rstrip("\n"), "scoring": SCORE}
    with pytest.raises(VariantError) as e:
        variant_from(tmp_path, "bad.yaml", text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "made_if" in t)
    d = next(d for d in e.value.diagnostics if words in d.message)
    assert d.line == line and d.column > 0


#: A made-up game with no stock: every card dealt, melds shown in the first trick, a claim made
#: for the players when the cards run out (Belote-like declarations, plain following).
NO_STOCK = """id: nostock
name: No stock
players: 2
deck:
  suits: [S, H, D, C]
  ranks: ["7", "8", "9", J, Q, K, "10", A]
  card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
ranking:
  suit: "A 10 K Q J 9 8 7"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "4 4 4 4"}
  play:
    kind: tricks
    lead: eldest
    melds:
      when: first_trick
      per_turn: 0
      list:
        marriage: {ranks: "K Q", points: 20}
    claim: {made_if: "points + melds >= 70", at_end: true}
scoring:
  each: "if claim_made then 2 else 0"
match:
  deals: 4
"""


def test_a_claim_without_a_stock_is_played_the_same_on_every_path(tmp_path):
    """Melds and a claim on a phase with plain following: the random playout and the checked
    path give the same hands (the one-loop playouts leave such a phase to ``play_card``)."""
    import random
    from rulekit.engine.playout import random_hand
    from tests.test_fast_path import checked_hand, outcome
    v = variant_from(tmp_path, "nostock.yaml", NO_STOCK)
    made = 0
    for seed in range(6):
        checked, fast = State(v, seed=seed), State(v, seed=seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        while not checked.is_over:
            checked_hand(checked, r1)
            random_hand(fast, r2)
            assert outcome(fast) == outcome(checked)
        made += sum(1 for h in checked.hand_log if REGISTRY["tricks"].data_of(h).claim_made)
    assert made > 0
