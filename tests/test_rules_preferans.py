"""Balkan preferans (rules/preferans.md, seed 004): every worked example and the auction,
defence and match rules, on variants/preferans.yaml."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.app import app
from rulekit.bots.sensible import SensibleBot
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.engine.phases.defence import outcome
from rulekit.engine.phases.step_auction import contract_values
from rulekit.engine.scoring import against_entries, entries_for, envs_for, final_results
from rulekit.errors import IllegalActionError
from rulekit.sheets.scorepad import FactError, ScorePad
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


def _declared(auction, contract, defence):
    """A hand dealt by C (A = 0 is eldest): the auction's calls, the talon, the contract
    announced, then the defence's words."""
    s = State(V, seed=1, dealer=2)
    _calls(s, *auction)
    s.apply(s.legal_actions()[0])   # discard two cards
    _calls(s, contract, *defence)
    assert s.phase_kind == "tricks"
    return s


def test_t1_eldest_leads_when_he_plays():
    """[T1]: the player left of the dealer (A) leads to the first trick."""
    s = _declared(("2", "pass", "pass"), "herc", ("follow", "follow", "pass", "pass"))
    assert s.hand.leader == 0 and s.to_move == 0


def test_t1_lead_passes_on_from_a_defender_who_passed():
    """[T1]: A (eldest) passed in the defence, so the next player who plays (B, the declarer)
    leads to the first trick."""
    s = _declared(("pass", "2", "pass"), "herc", ("follow", "pass", "alone", "pass"))
    assert s.hand.declarer == 1 and kind_of("defence").data_of(s.hand).roles == {2: "follow", 0: "pass"}
    assert s.hand.leader == 1 and s.to_move == 1


def test_t1_sans_declarer_does_not_lead_first():
    """[T1]: at sans the declarer (A, the eldest) may not lead to the first trick: B leads."""
    s = _declared(("2", "pass", "pass"), "sans", ("follow", "follow", "pass", "pass"))
    assert s.hand.contract.text == "sans" and s.to_move == 1


def test_t1_sans_lead_passes_over_the_declarer_and_a_passing_defender():
    """[T1]: sans declared by A, B passes and C plays alone: the lead passes over A (declarer
    at sans) and B (not playing) to C."""
    s = _declared(("2", "pass", "pass"), "sans", ("pass", "follow", "alone", "pass"))
    assert s.to_move == 2


def test_t3_betl_ends_at_the_declarers_first_trick():
    """[T3] [S5]: a betl ends as soon as the declarer wins a trick: he plays his highest card,
    the defenders their lowest; the hand stops after his first trick and is scored failed:
    declarer +12, each defender writes 60 (example 8's figures)."""
    s = _declared(("2", "pass", "pass"), "betl", ("pass", "pass"))
    order = {c: i for i, c in enumerate(V.deck.ranks)}
    while not s.hand_log:
        acts = s.legal_actions()
        key = lambda a: order[V.deck.name(a.card)[:-1]]   # noqa: E731 - rank of a play action
        s.apply(max(acts, key=key) if s.to_move == 0 else min(acts, key=key))
    h = s.hand_log[0]
    assert h.won[0] == 1 and h.trick_winners[-1] == 0 and len(h.tricks) < 10
    row = s.sheet.rows[-1]
    assert row.entries == [12, 0, 0]
    assert sorted((a["column"], a["value"]) for a in row.against) == [(1, 60), (2, 60)]


def _pad_file(tmp_path, start: int):
    p = tmp_path / "pref.yaml"
    p.write_text(f"extends: preferans\nid: pref-start\nname: Preferans\nscoring: {{start: {start}}}\n")
    return p


def test_example_10_typed_into_rulekit_score(tmp_path):
    """Example 10 [S7] [S8]: bulas 6/6/6; A makes karo 6-2-2, B karo 6-3-1 (A 3, C 1), C karo
    with A alone taking 2: typed into `rulekit score`, the match ends and the final result
    reads A -6, B +12, C -6."""
    pad = tmp_path / "pad.json"
    typed = ["karo", "P0", "follow follow", "-", "6 2 2",       # A = P0, B = P1, C = P2
             "karo", "P1", "follow follow", "-", "3 6 1",
             "karo", "P2", "follow pass", "-", "2 0 8", "quit"]
    variant = _pad_file(tmp_path, 6)
    r = CliRunner().invoke(app, ["score", str(variant), "--dealer", "0", "--file", str(pad)], input="\n".join(typed) + "\n",
                           terminal_width=200)
    assert r.exit_code == 0, r.output
    final = r.output[r.output.rindex("Final result"):]
    assert "lower is better  │ -6 │ +12 │ -6" in final
    assert "the totals add up to 0" in final
    loaded = ScorePad.from_dict(load_variant(str(variant)), __import__("json").loads(pad.read_text()))
    assert loaded.sheet.totals() == [0, 0, 0]
    assert final_results(loaded.variant, loaded.sheet) == [-6, 12, -6]


def _facts(pad, **kw):
    return pad.check(kw)


def test_questions_follow_the_defence():
    """[F1] [F2] [F5]: the pad asks who defended, then the doubling and who said it; at betl it
    does not ask who plays; when both pass it asks no tricks (the hand was not played)."""
    pad = ScorePad(V)
    f = {"contract": "herc", "declarer": 0}
    q = pad.next_question(f)
    assert (q.name, q.prompt) == ("phase:defence:roles", "defence P1 P2")
    pad.answer(q, "follow follow", f)
    assert pad.next_question(f).prompt == "doubling"
    pad.answer(pad.next_question(f), "rekontra", f)
    q = pad.next_question(f)
    assert q.prompt == "kontra by"
    with pytest.raises(FactError, match="not an opponent of the declarer"):
        pad.answer(q, "P0", f)
    pad.answer(q, "P2", f)
    assert pad.next_question(f).name == "tricks"
    g = {"contract": "betl", "declarer": 0}
    assert pad.next_question(g).prompt == "doubling" and g["phase:defence:roles"] == "follow follow"
    h = {"contract": "herc", "declarer": 0, "phase:defence:roles": "pass pass"}
    assert pad.next_question(h) is None


@pytest.mark.parametrize("contract,answer,reason", [
    ("herc", "follow", "expected 2 words"),
    ("herc", "invited pass", "called by the other opponent"),
    ("betl", "follow pass", "every opponent plays"),
])
def test_impossible_defence_refused(contract, answer, reason):
    """[F1] [F4]: impossible defences are refused with the reason."""
    pad = ScorePad(V)
    f = {"contract": contract, "declarer": 0}
    if contract == "betl":
        from rulekit.sheets.scorepad import Question
        q = Question("phase:defence:roles", "defence", "")
    else:
        q = pad.next_question(f)
    with pytest.raises(FactError, match=reason):
        pad.answer(q, answer, f)


def test_scorepad_kontra_invite_and_refe():
    """Example 6 [F4]: herc, 7 tricks, invited: A -8, B writes 24 and fails +8; then [A7] [R1]
    all pass writes a refe for everyone; [R2] example 7: A's karo 6-2-2 with his refe is -12,
    soups 24 each, the refe marked passed; [F5] kontra doubles: herc 6-2-2 with kontra by C is
    -16 and C, with 4 tricks together where kontra needs 5, writes 64 and fails +16."""
    pad = ScorePad(V)
    pad.add({"contract": "herc", "declarer": "P0", "phase:defence:roles": "follow invited",
             "phase:defence:kontra": "-", "tricks": [7, 1, 2]})
    assert pad.sheet.rows[-1].entries == [-8, 8, 0]
    assert [(a["column"], a["value"]) for a in pad.sheet.rows[-1].against] == [(1, 24)]
    pad.add({"contract": None})
    assert [m["state"] for m in pad.sheet.rows[-1].marks] == ["new"] * 3
    pad.add({"contract": "karo", "declarer": "P0", "phase:defence:roles": "follow follow",
             "phase:defence:kontra": "-", "tricks": [6, 2, 2]})
    row = pad.sheet.rows[-1]
    assert row.entries == [-12, 0, 0] and [a["value"] for a in row.against] == [24, 24]
    assert row.marks == [{"marker": "refe", "column": 0, "state": "passed"}]
    pad.add({"contract": "herc", "declarer": "P0", "phase:defence:roles": "follow follow",
             "phase:defence:kontra": "kontra", "phase:defence:kontra_by": "P2", "tricks": [6, 2, 2]})
    row = pad.sheet.rows[-1]
    assert row.entries == [-16, 0, 16] and [(a["column"], a["value"]) for a in row.against] == [(2, 64)]
