"""``scoring.each`` stands in for a missing ``declarer`` or ``defender`` formula
(docs/authoring.md, "scoring"): a file that validates must play (issue 11). A made-up
six-handed ladder game with ``declarer`` and ``each`` but no ``defender`` crashed at its first
score (``'NoneType' object is not callable``), found by the primitives helper's report."""
from __future__ import annotations

import textwrap

from rulekit.engine import State
from rulekit.engine.scoring import formulas_for
from rulekit.variant import load_variant

FILE = textwrap.dedent("""\
    id: declarer-and-each
    name: Declarer and each
    players: 4
    sides: {A: [0, 2], B: [1, 3]}
    deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
    ranking: {suit: "A K Q J 10 9"}
    dealer: {first: {seat: 3}}
    phases:
      deal: {kind: deal, pattern: "3 3"}
      bidding: {kind: ladder_auction, levels: [3, 4], strains: [S, NT], all_pass: redeal}
      play: {kind: tricks, lead: declarer}
    scoring:
      by: side
      declarer: "if declarer_tricks >= level then 10 * level else -10 * level"
      each: "tricks"
    match: {deals: 1}
    """)


def test_each_scores_the_defenders_when_defender_is_missing(tmp_path):
    """The declarer's side is scored by ``declarer``, the other side by ``each``."""
    path = tmp_path / "declarer-and-each.yaml"
    path.write_text(FILE)
    v = load_variant(str(path))
    bid = next(b for b in v.auction().bids if b.text == "3S")
    fs = formulas_for(v, bid, declarer=1)
    assert fs == [v.scoring.each, v.scoring.declarer]
    s = State(v, seed=5)
    s.apply("3S")                      # seat 0 (eldest) bids; the others pass
    for _ in range(3):
        s.apply("pass")
    assert s.hand.declarer == 0
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    won = [s.hand.won[0] + s.hand.won[2], s.hand.won[1] + s.hand.won[3]]
    side_a = 30 if won[0] >= 3 else -30
    assert s.sheet.totals() == [side_a, won[1]]
