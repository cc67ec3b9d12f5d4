"""A failed nil's tricks count as bags (``nil_tricks``: per score column, the tricks taken by
its players who bid nil, blind or not).  Spades per pagat.com "Spades" and MSN Zone's rules:
the nil bidder's tricks do not count toward his partner's bid, but count as bags for the side
(MSN's worked example: nil and 2, one trick each: -120 and one bag)."""
from __future__ import annotations

from rulekit.engine import State
from rulekit.engine.scoring import carry_counters, player_envs, score_hand
from rulekit.variant import load_variant

SIDE = """id: side
name: Side
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "1 x 3"}
  bidding: {kind: trick_bids}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  let: {made: "bid_tricks >= bid"}
  each: "(if made then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed"
  counters:
    bags: {add: "(if made then bid_tricks - bid else 0) + nil_tricks", every: 3, score: -50}
match: {deals: 1}
"""


def test_failed_nil_tricks_are_bags_on_a_made_up_variant(tmp_path):
    """N bids nil holding the three top hearts and takes all three tricks: NS lose 100 for the
    nil and 10 for S's failed bid of 1 (the nil bidder's tricks are not S's), and N's three
    tricks are three bags: at 3 bags NS lose 50 more (-160) and the count drops to 0."""
    f = tmp_path / "side.yaml"
    f.write_text(SIDE)
    v = load_variant(str(f))
    hands = {0: ["AH", "KH", "QH"], 1: ["AS", "KS", "QS"], 2: ["9H", "10H", "JH"], 3: ["JS", "10S", "9S"]}
    s = State(v, deals=[[hands[k][i] for i in range(3) for k in range(4)]], dealer=3)
    for b in ("bid 0", "bid 1", "bid 1", "bid 1"):
        s.apply(b)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert s.hand_log[0].won == [3, 0, 0, 0]
    assert s.sheet.totals() == [-160, -20]
    assert s.counters["bags"] == [0, 0]
    assert "bags 3 to NS (-50)" in s.sheet.rows[0].note


def test_spades_failed_nil_counts_one_bag():
    """MSN Zone's worked example on spades.yaml: N bids nil, S bids 2, each takes one trick:
    NS -100 (failed nil) -20 (S's 2 not made: N's trick is not S's) = -120 and one bag; EW bid
    5 + 4 and took 11: 90 + 2, two bags."""
    v = load_variant("spades")
    s = State(v, seed=1, dealer=3)
    for b in ("bid 0", "bid 5", "bid 2", "bid 4"):   # N (nil), E, S, W
        s.apply(b)
    h = s.hand
    h.won = [1, 6, 1, 5]
    envs = player_envs(v, h)
    assert [e.vars["nil_tricks"] for e in envs] == [1, 0]
    entries = score_hand(v, h, envs)[0]
    assert entries == [-120, 92]
    counts = {"bags": [9, 0]}                       # NS had nine bags: the tenth costs 100
    note = carry_counters(v, counts, envs, entries, ["NS", "EW"])
    assert entries == [-220, 92] and counts == {"bags": [0, 2]}
    assert note == "; bags 10 to NS (-100)"
