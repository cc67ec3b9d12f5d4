"""Cross-check rulekit's Skat (variants/skat.yaml) against OpenSpiel's simplified skat.

OpenSpiel 2.0.2 (``pip install open_spiel``; ``open_spiel/games/skat/skat.cc``) plays a single
deal with player 0 as forehand. docs/rules/skat.md ("Compared with OpenSpiel's skat") lists the
eight differences of rules; this script maps a deal of OpenSpiel's onto rulekit's where they
meet:

* the deal: OpenSpiel's chance actions give the cards 3 - skat 2 - 4 - 3 from player 0; rulekit
  deals the same cards with seat 2 dealing (seat 0 forehand);
* the auction: OpenSpiel's declarer names a game type at once; in rulekit he wins the auction at
  18 (the others pass), takes the skat, discards the same two cards and announces the same game
  (every game reaches 18);
* play: at every card decision the legal cards must be the same sets; at the end the
  declarer's card points (his tricks and the skat), and for null whether he took a trick, must
  agree (OpenSpiel's returns: (points - 60) / 120 for the declarer; null 90 or 30 points).

Hand games, ouvert, announcements, values, overbidding, the listener / speaker order and a
match are rulekit's alone (differences 1-6), so they are not compared.

Run: ``python benchmarks/skat_openspiel.py [DEALS] [SEED]``; ``tests/test_rules_skat.py`` runs
:func:`cross_check` when ``pyspiel`` is installed.
"""
from __future__ import annotations

import random
import sys

GAMES = {1: "diamonds", 2: "hearts", 3: "spades", 4: "clubs", 5: "grand", 6: "null"}  # 32 + k
#: OpenSpiel's dealing order of card positions (3 - skat - 4 - 3 from player 0); "skat" the skat
DEAL_ORDER = [0] * 3 + [1] * 3 + [2] * 3 + ["skat"] * 2 + [0] * 4 + [1] * 4 + [2] * 4 + [0] * 3 + [1] * 3 + [2] * 3


def rk_card(os_card: str) -> str:
    """OpenSpiel's ``DT`` / ``CJ`` as rulekit's ``10D`` / ``JC``."""
    suit, rank = os_card[0], os_card[1]
    return ("10" if rank == "T" else rank) + suit


def cross_check(deals: int, seed: int) -> dict:
    """Play ``deals`` random deals through OpenSpiel and rulekit side by side (random declarer
    and game in OpenSpiel, random legal cards); raise ``AssertionError`` at the first
    difference. Returns counts: deals, card decisions compared, games seen."""
    import pyspiel

    from rulekit.engine import State
    from rulekit.variant import load_variant
    from tests.helpers import explicit_order

    v = load_variant("skat")
    game = pyspiel.load_game("skat")
    rng = random.Random(seed)
    out = {"deals": 0, "card decisions": 0, "games": {}}
    for k in range(deals):
        s = game.new_initial_state()
        places: dict = {0: [], 1: [], 2: [], "skat": []}
        for where in DEAL_ORDER:
            assert s.is_chance_node()
            a = rng.choice(s.legal_actions())
            places[where].append(rk_card(s.action_to_string(a)))
            s.apply_action(a)
        # OpenSpiel: players 0, 1, 2 pass or name a game; the first to name one declares
        declarer, gtype = -1, 0
        for p in range(3):
            choice = rng.choice([0] + list(GAMES)) if p < 2 else rng.choice(list(GAMES))
            s.apply_action(32 + choice)
            if choice:
                declarer, gtype = p, choice
                break
        order = explicit_order(v, 2, [places[0], places[1], places[2]], {"widow": places["skat"]})
        r = State(v, seed=0, deals=[order], dealer=2)
        calls = {0: ["pass", "pass", "18"], 1: ["18", "pass", "pass"], 2: ["pass", "18", "pass"]}[declarer]
        for c in calls:
            r.apply(c)
        assert r.hand.declarer == declarer, (k, r.hand.declarer, declarer)
        r.apply("take")
        discards = []
        for _ in range(2):   # OpenSpiel's discard, one card at a time
            a = rng.choice(s.legal_actions())
            discards.append(rk_card(s.action_to_string(a)))
            s.apply_action(a)
        r.apply("discard " + " ".join(discards))
        if r.phase_kind == "announce":
            r.apply(GAMES[gtype])
        assert r.hand.contract.text == GAMES[gtype], (k, r.hand.contract.text)
        h = r.hand
        while not s.is_terminal():
            assert r.hand is h and r.to_move == s.current_player(), (k, r.to_move, s.current_player())
            mine = sorted(v.deck.name(a.card) for a in r.legal_actions())
            theirs = sorted(rk_card(s.action_to_string(a)) for a in s.legal_actions())
            assert mine == theirs, (k, GAMES[gtype], mine, theirs)
            out["card decisions"] += 1
            a = rng.choice(s.legal_actions())
            card = rk_card(s.action_to_string(a))
            s.apply_action(a)
            r.apply("play " + card)
        assert r.hand is not h, (k, "rulekit's play did not end with OpenSpiel's")
        done = r.hand_log[-1]
        ret = s.returns()
        if gtype == 6:   # null: +0.25 won (no trick), -0.25 lost
            assert (ret[declarer] > 0) == (done.won[declarer] == 0), (k, ret, done.won)
        else:
            pts = v.points_table(done.ctx)
            mine_pts = sum(pts[c] for c in range(v.deck.size) if done.won_cards[declarer] >> c & 1)
            assert abs(ret[declarer] - (mine_pts - 60) / 120) < 1e-9, (k, ret, mine_pts)
        out["deals"] += 1
        out["games"][GAMES[gtype]] = out["games"].get(GAMES[gtype], 0) + 1
    return out


if __name__ == "__main__":
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # (tests.helpers)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(cross_check(n, seed))
