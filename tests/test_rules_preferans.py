"""Balkan preferans (rules/preferans.md, seed 004): every worked example and the auction,
defence and match rules, on variants/preferans.yaml."""
from __future__ import annotations

import pytest

from rulekit.bots.sensible import SensibleBot
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.engine.phases.defence import outcome
from rulekit.engine.phases.step_auction import contract_values
from rulekit.engine.scoring import against_entries, entries_for, envs_for, final_results
from rulekit.errors import IllegalActionError
from rulekit.sheets.sheet import Sheet
from rulekit.variant import load_variant

V = load_variant("preferans")
AUCTION = V.auction()
DEFENCE = V.phase("defence")
BIDS = {b.text: b for b in AUCTION.bids}


def score(contract, declarer, won, roles=None, kontra=0, kontra_seat=-1, refe=1, played=True):
    """(bula changes, soups as {(writer, target): value}) of one hand by the file's formulas."""
    bid = BIDS[contract]
    opps = [(declarer + 1) % 3, (declarer + 2) % 3]
    roles = roles or {s: "follow" for s in opps}
    envs = envs_for(V, bid, declarer, bid.strain, won, [0, 0, 0], {"markers": {"refe": refe}})
    for env, vals in zip(envs, outcome(DEFENCE, 3, declarer, roles, kontra, kontra_seat, won, played)):
        env.vars.update(vals)
        env.vars.update(contract_values(AUCTION, bid))
    bula = entries_for(V, bid, declarer, envs)
    soups = {(a["column"], a["target"]): a["value"] for a in against_entries(V, declarer, envs)}
    return bula, soups


def test_example_1_tref_made_6_2_2():
    """Example 1 [S2] [S3]: tref (V 10) made 6-2-2: declarer -10; each defender writes 20."""
    assert score("tref", 0, [6, 2, 2]) == ([-10, 0, 0], {(1, 0): 20, (2, 0): 20})


def test_example_2_nobody_fails_with_four_together():
    """Example 2 [F3]: tref made 6-3-1: soups 30 and 10; nobody fails (3 + 1 = 4)."""
    assert score("tref", 0, [6, 3, 1]) == ([-10, 0, 0], {(1, 0): 30, (2, 0): 10})


def test_example_3_one_trick_defender_fails():
    """Example 3 [F3] [S4]: tref made 7-2-1: the 1-trick defender fails +10; soups 20 and 10."""
    assert score("tref", 0, [7, 2, 1]) == ([-10, 0, 10], {(1, 0): 20, (2, 0): 10})


def test_example_4_igra_karo():
    """Example 4 [C2]: igra-karo (V 8) made: declarer -8."""
    bula, _ = score("igra-karo", 0, [6, 2, 2])
    assert bula[0] == -8


def test_example_5_betl_made_against_kontra():
    """Example 5 [F5] [S2] [S5]: betl (V 12) made against kontra: declarer -24; the kontra player
    fails +24; his partner nothing; no soup."""
    roles = {1: "forced", 2: "forced"}
    assert score("betl", 0, [0, 5, 5], roles, kontra=1, kontra_seat=1) == ([-24, 24, 0], {})


def test_example_6_invited_defence():
    """Example 6 [F4]: herc (V 8), declarer 7, inviter and invited together 3: declarer -8;
    the inviter writes 24 and fails +8; the invited writes nothing."""
    roles = {1: "follow", 2: "invited"}
    assert score("herc", 0, [7, 1, 2], roles) == ([-8, 8, 0], {(1, 0): 24})


def test_example_7_refe_doubles():
    """Example 7 [R1] [R2]: all pass, then A declares karo with his refe, 6-2-2: A -12; B and C
    write 24 each; A's refe is marked passed (played through the engine)."""
    s = State(V, seed=3, dealer=2)
    for _ in range(3):
        s.apply("pass")
    assert s.sheet.rows[-1].marks == [{"marker": "refe", "column": c, "state": "new"} for c in range(3)]
    assert s.markers.factor_for(1) == 2
    assert score("karo", 0, [6, 2, 2], refe=2) == ([-12, 0, 0], {(1, 0): 24, (2, 0): 24})
    assert s.markers.played(0, True) == [{"marker": "refe", "column": 0, "state": "passed"}]
    assert s.markers.marks["refe"][0] == ["passed"]


def test_example_8_betl_failed():
    """Example 8 [S5]: betl failed, declarer 1 trick, defenders 5 and 4: declarer +12; each
    defender writes 60."""
    roles = {1: "forced", 2: "forced"}
    assert score("betl", 0, [1, 5, 4], roles) == ([12, 0, 0], {(1, 0): 60, (2, 0): 60})


def _sheet(totals, soups):
    sh = Sheet(["A", "B", "C"], True, [totals[0], totals[1], totals[2]])
    sh.add(0, [0, 0, 0], against=[{"column": c, "target": t, "value": x, "part": None} for c, t, x in soups])
    return sh


def test_example_9_final_result():
    """Example 9 [S8]: bula 12, wrote 100 + 100, 80 + 40 written against him: +40 (balanced by
    the others so the three add up to zero)."""
    sh = _sheet([12, -6, -6], [(0, 1, 100), (0, 2, 100), (1, 0, 80), (2, 0, 40)])
    finals = final_results(V, sh)
    assert finals[0] == -200 + 120 + 120 == 40
    assert sum(finals) == 0


def test_example_10_match_of_three_karos():
    """Example 10 [S7] [S8]: bulas 6/6/6, three karos; results A -6, B +12, C -6."""
    sh = Sheet(["A", "B", "C"], True, [6, 6, 6])
    hands = [("karo", 0, [6, 2, 2], None), ("karo", 1, [3, 6, 1], None),
             ("karo", 2, [2, 0, 8], {0: "follow", 1: "pass"})]
    for contract, decl, won, roles in hands:
        bula, soups = score(contract, decl, won, roles)
        sh.add(0, bula, against=[{"column": c, "target": t, "value": x, "part": None}
                                 for (c, t), x in soups.items()])
    assert sh.totals() == [0, 0, 0]
    assert final_results(V, sh) == [-6, 12, -6]


# ---------------------------------------------------------------------- auction [A1]-[A7]
def _state():
    return State(V, seed=1, dealer=2)   # A = 0 speaks first


def _calls(s, *texts):
    for t in texts:
        s.apply(t)


def test_a2_numbers_in_steps_of_one():
    """[A2]: the first number is 2; no jumps."""
    s = _state()
    with pytest.raises(IllegalActionError, match="the next is 2, not 3"):
        s.apply("3")
    s.apply("2")
    with pytest.raises(IllegalActionError, match="the next is 3, not 4"):
        s.apply("4")


def test_a3_hold_by_the_earlier_seat_seed_example_2():
    """[A3] seed example 2: A pass, B 2, C 3, B hold, C 4, B hold, C pass: B declares at 4."""
    s = _state()
    _calls(s, "pass", "2", "3", "hold", "4", "hold", "pass")
    assert s.hand.declarer == 1
    assert s.phase_kind == "widow_exchange"
    with pytest.raises(IllegalActionError):
        State(V, seed=1, dealer=2).apply("hold")


def test_a3_later_seat_may_not_hold():
    """[A3]: only the player earlier in rotation may hold (C after B's 3 may not)."""
    s = _state()
    _calls(s, "pass", "2", "3", "hold")
    with pytest.raises(IllegalActionError, match="only a player who said a number"):
        s.apply("hold")


def test_x1_announce_at_least_the_bid():
    """[X1] seed example 3: A 2, B 3, C 4, A pass, B hold, C 5, B pass: C takes the talon and
    may announce tref, betl or sans only."""
    s = _state()
    _calls(s, "2", "3", "4", "pass", "hold", "5", "pass")
    assert s.hand.declarer == 2
    s.apply(s.legal_actions()[0])  # discard two cards
    assert [a.text for a in s.legal_actions()] == ["tref", "betl", "sans"]
    with pytest.raises(IllegalActionError, match="at least as high as your bid"):
        s.apply("karo")


def test_a5_igra_only_at_first_turn_and_beats_numbers():
    """[A5]: igra beats numbers; no number after it; a player who bid a number may not igra."""
    s = _state()
    _calls(s, "2", "igra")
    with pytest.raises(IllegalActionError, match="no number may be bid after igra"):
        s.apply("3")
    s.apply("pass")   # A, who bid a number, is not asked again: the auction is over
    assert s.hand.declarer == 1
    assert s.phase_kind == "announce"       # [X2] the talon stays hidden: no exchange
    assert [a.text for a in s.legal_actions()] == ["igra-pik", "igra-karo", "igra-herc", "igra-tref"]


def test_a5_betl_and_sans_said_blind_seed_example_7():
    """[A5] seed example 7: A 2, B betl, C sans: C plays sans without the talon."""
    s = _state()
    _calls(s, "2", "betl", "sans")
    assert s.hand.declarer == 2 and s.hand.contract.text == "igra-sans"


def test_a6_naming_round():
    """[A6] seed example 4: A 2, B igra, C igra; B names herc, C names tref and wins."""
    s = _state()
    _calls(s, "2", "igra", "igra", "herc")
    assert [a.text for a in s.legal_actions()] == ["pass", "igra-tref"]
    s.apply("tref")
    assert s.hand.declarer == 2 and s.hand.contract.text == "igra-tref"


def test_a7_all_pass_refe():
    """[A7] [R1]: all three pass: not played, a refe for everyone, the deal passes on."""
    s = _state()
    _calls(s, "pass", "pass", "pass")
    assert s.sheet.rows[0].void and len(s.sheet.rows[0].marks) == 3
    assert s.hand.dealer == 0


def test_r1_at_most_two_refes_and_not_under_the_hat():
    """[R1]: at most `max_refe` (2) per player; none for a bula below zero."""
    from rulekit.engine.markers import Markers
    m = Markers(V.scoring.markers, 3)
    m.thrown_in([60, 60, 60])
    m.thrown_in([60, -2, 60])
    m.thrown_in([60, 60, 60])
    assert [len(x) for x in m.marks["refe"]] == [2, 2, 2][:1] + [2, 2]
    m2 = Markers(V.scoring.markers, 3)
    assert [e["column"] for e in m2.thrown_in([4, -2, 0])] == [0, 2]


# ---------------------------------------------------------------------- defence [F1]-[F5]
def _to_defence(contract_calls=("2", "pass", "pass"), announce="herc"):
    s = _state()
    _calls(s, *contract_calls)
    s.apply(s.legal_actions()[0])
    s.apply(announce)
    return s


def test_f2_both_pass_counts_as_made():
    """[F2]: both opponents pass: not played, declarer scored as made, no soup."""
    s = _to_defence()
    _calls(s, "pass", "pass")
    row = s.sheet.rows[-1]
    assert row.entries == [-8, 0, 0] and row.against == []


def test_f2_plain_pik_only_against_kontra():
    """[F2]: a plain pik with the talon is played only if an opponent says kontra."""
    s = _to_defence(announce="pik")
    assert [a.text for a in s.legal_actions()] == ["pass", "kontra"]
    with pytest.raises(IllegalActionError, match="played only against kontra"):
        s.apply("follow")
    _calls(s, "pass", "pass")
    assert s.sheet.rows[-1].entries == [-4, 0, 0]


def test_f4_invite_and_f5_kontra_chain():
    """[F4] [F5]: one follows and invites; kontra x2, rekontra x4 ... up to mortkontra x16."""
    s = _to_defence()
    _calls(s, "pass", "follow")
    assert [a.text for a in s.legal_actions()] == ["alone", "invite"]
    _calls(s, "invite", "kontra", "rekontra", "subkontra", "mortkontra")
    d = kind_of("defence").data_of(s.hand)
    assert d.level == 4 and d.kontra_seat == 1 and d.roles == {1: "invited", 2: "follow"}
    assert s.phase_kind == "tricks"


def test_f1_betl_both_must_play():
    """[F1]: at betl both opponents play; only kontra or pass is asked."""
    s = _to_defence(announce="betl")
    assert kind_of("defence").data_of(s.hand).roles == {1: "forced", 2: "forced"}
    assert [a.text for a in s.legal_actions()] == ["pass", "kontra"]


# ---------------------------------------------------------------------- whole matches [S7]
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_s7_auto_matches_end_with_final_results_summing_to_zero(seed):
    """[S7] [S8]: bots play to the end (from bulas of 10, to stay fast); the bulas add up to zero
    or less; the final results add up to 0."""
    s = State(V, seed=seed, scores=[10, 10, 10])
    bots = [SensibleBot(seed + i, samples=2, budget=6) for i in range(3)]
    while not s.is_over:
        s.apply_unchecked(bots[s.to_move].act(s.observation(s.to_move)))
    r = s.result()
    assert sum(r["final"]) == 0
    assert "add up to" in r["reason"] and sum(r["totals"]) <= 0
