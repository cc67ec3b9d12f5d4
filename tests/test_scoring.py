"""Scoring on small made-up variants: tallies (by suit, card, trick index; the highest / lowest
card of a kind in play), counters carried across deals with a threshold and a penalty, and
``scoring.each`` standing in for a missing ``declarer`` or ``defender`` formula."""
from __future__ import annotations

import random
import textwrap

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import MATCH_NAMES, formulas_for
from rulekit.errors import VariantError
from rulekit.variant import builtin_ids, load_variant
from tests.helpers import (LEAD_TOY, LEAD_TOY_HANDS, lead_toy, lead_toy_order, play_first_legal, table_toy,
                           trick_toy)


# ---------------------------------------------------------------------- tallies, card points
TALLY_SCORING = """  tallies:
    hearts: {suits: H, in: tricks}
    queen_spades: {cards: QS, in: tricks}
    last: {tricks: [-1], count: tricks, in: tricks}
    first_two: {tricks: [1, 2], count: tricks, in: tricks}
    black_aces: {ranks: A, suits: S C, in: hand}
  each: "tricks + 100 * hearts + 1000 * queen_spades + 10000 * last + 100000 * first_two"
"""


def test_tallies_by_suit_card_and_trick_index(tmp_path):
    """Tallies by trick index, card and suit: counted from the hand's own
    tricks, and agreeing with a count made here by hand."""
    v = trick_toy(tmp_path, scoring=TALLY_SCORING)
    s = State(v, seed=11)
    h = s.hand
    play_first_legal(s)
    from rulekit.engine.scoring import player_envs
    envs = player_envs(v, h)
    deck = v.deck
    for seat in range(3):
        mine = [t for t in h.tricks if t[2] == seat]
        cards = [c for t in mine for _s, c in t[1]]
        e = envs[seat].vars
        assert e["hearts"] == sum(deck.suit_of(c) == "H" for c in cards)
        assert e["queen_spades"] == int(deck.index["QS"] in cards)
        assert e["last"] == int(h.tricks[-1][2] == seat)
        assert e["first_two"] == sum(t[2] == seat for t in h.tricks[:2])
        assert e["black_aces"] == sum(deck.index[x] in set(_bits(h.dealt[seat])) for x in ("AS", "AC"))
        assert h.entries[seat] == (e["tricks"] + 100 * e["hearts"] + 1000 * e["queen_spades"]
                                   + 10000 * e["last"] + 100000 * e["first_two"])


def _bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def test_tally_trick_index_out_of_range_is_refused(tmp_path):
    """A trick number the hand does not have is refused with file:line:col."""
    with pytest.raises(VariantError) as e:
        trick_toy(tmp_path, scoring='  tallies:\n    late: {tricks: [9], count: tricks, in: tricks}\n  each: "late"')
    assert "scoring.tallies.late.tricks.0: there is no trick 9 in a hand of 8 tricks" in str(e.value)

BAGS = ("  counters:\n    bags: {add: \"tricks\", every: 4, score: -10}\n")


def test_counter_carries_across_deals_with_a_threshold(tmp_path):
    """A match counter (bags): every deal adds the tricks taken; each time a
    player's count reaches 4 it drops by 4 and his entry gets -10."""
    v = table_toy(tmp_path, scoring=BAGS, deals=3)
    s = State(v, seed=2)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    won = [sum(h.won[p] for h in s.hand_log) for p in range(4)]
    assert s.sheet.totals() == [w - 10 * (w // 4) for w in won]
    assert s.counters["bags"] == [w % 4 for w in won]
    assert any("bags 4 to P" in (r.note or "") for r in s.sheet.rows)


def test_counter_formula_is_checked(tmp_path):
    with pytest.raises(VariantError) as e:
        table_toy(tmp_path, scoring="  counters:\n    bags: {add: \"trick\", every: 4, score: -10}\n")
    assert "scoring.counters.bags.add: unknown variable trick; did you mean tricks?" in str(e.value)


# ---------------------------------------------------------------- tallies: the highest / lowest in play
PICK = """  tallies:
    top: {suit: trump, pick: highest, in: hand}
    bottom: {suit: trump, pick: lowest, in: tricks}
    tens: {ranks: "10", pick: highest, in: hand}
  each: "100 * top + 10 * bottom + tens"
"""


def test_tally_pick_highest_and_lowest_in_play(tmp_path):
    """All Fours' High "the highest trump in play" and Low, Bicycle "Auction Pitch": diamonds are trumps (first lead 9D); the trumps dealt are 9D 10D JD QD KD AD; the highest,
    AD, was dealt to seat 2; the lowest, 9D, was led by seat 1 and taken by seat 2 (AD wins);
    of the four tens the trump ten, 10D (seat 1), ranks highest."""
    v = lead_toy(tmp_path, play=", first_lead_trump: true, may_trump: true", scoring=PICK)
    s = State(v, deals=[lead_toy_order(LEAD_TOY_HANDS)])
    for a in ("play 9D", "play AD", "play 9S"):
        s.apply(a)
    from rulekit.engine.scoring import player_envs
    envs = player_envs(v, s.hand)
    assert [e.vars["top"] for e in envs] == [0, 0, 1]
    assert [e.vars["bottom"] for e in envs] == [0, 0, 1]
    assert [e.vars["tens"] for e in envs] == [0, 1, 0]
    assert [e.vars["top"] for e in player_envs(v, s.hand, upto=0)] == [0, 0, 1]  # dealt: known at once


def test_tally_pick_counts_only_cards_in_play(tmp_path):
    """A card not dealt is not in play: with two players dealt 8 cards each from 24, the lowest
    trump in play is the lowest one dealt."""
    two = LEAD_TOY.replace("players: 3", "players: 2")
    f = tmp_path / "two.yaml"
    f.write_text((two % dict(extra="", lead="eldest", play=", first_lead_trump: true",
                            scoring="  tallies:\n    low: {suit: trump, pick: lowest, in: hand}\n  each: \"low\"",
                            match="{deals: 1}")).replace('"1 x 8"', '"1 x 8, aside 8"'))
    v = load_variant(str(f))
    # seat 1 (eldest) gets the even positions, seat 0 the odd ones, the last 8 cards aside
    seat1 = ["QH", "KH", "AH", "JD", "QD", "9C", "10C", "JC"]
    seat0 = ["9S", "10S", "JS", "QS", "KS", "AS", "9H", "KD"]
    aside = ["10H", "JH", "9D", "10D", "AD", "QC", "KC", "AC"]
    deck = [c for pair in zip(seat1, seat0) for c in pair] + aside
    s = State(v, deals=[deck])
    assert v.deck.names_of(s.hand.hands[1]) == ["QH", "KH", "AH", "JD", "QD", "9C", "10C", "JC"]
    s.apply("play QD")             # diamonds trumps; 9D and 10D lie aside: JD is the lowest in play
    from rulekit.engine.scoring import player_envs
    assert [e.vars["low"] for e in player_envs(v, s.hand)] == [0, 1]

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


def _phase_names(v) -> frozenset:
    from rulekit.engine.tables import phase_variables
    return frozenset(n for _k, _s, defaults in phase_variables(v) for n in defaults)


@pytest.mark.parametrize("vid", builtin_ids())
def test_phase_envs_give_the_full_environments_values(vid):
    """A formula that reads only the phases' own variables (``lead_if: alone``) is given
    environments of just those (``scoring.phase_envs``): at every decision of seeded random
    hands of every shipped variant, each such variable has in every score column the value
    the full environments (``hand_envs``) give it."""
    from rulekit.engine.scoring import hand_envs, phase_envs
    v = load_variant(vid)
    names = _phase_names(v) - MATCH_NAMES
    if not names:
        return
    for seed in range(3):
        s = State(v, seed=seed)
        rng = random.Random(seed)
        while s.hands_played < 2 and not s.is_over:
            h = s.hand
            small = phase_envs(s.variant, h, names)
            if small is not None:
                full = hand_envs(s.variant, h)
                assert [{n: e.vars[n] for n in names} for e in small] == \
                       [{n: e.vars[n] for n in names} for e in full]
                assert all(e.everyone is small for e in small)
            ch = s.legal_choices()
            s.apply_choice(ch[int(rng.random() * len(ch))])


@pytest.mark.parametrize("vid", builtin_ids())
def test_values_key_fixes_the_phase_values(vid):
    """The score cache keys a hand's phase variables on each kind's ``values_key``: over seeded
    random hands of every shipped variant, hands whose keys are equal have equal ``values``
    (each phase's, in every score column), so a remembered outcome is never another's."""
    from rulekit.engine.playout import random_hand
    from rulekit.engine.tables import phase_variables
    seen: dict = {}
    kept: list = []
    for seed in range(3):
        s = State(load_variant(vid), seed=seed, keep_hands=True)
        rng = random.Random(seed)
        while s.hands_played < 40 and not s.is_over:
            random_hand(s, rng)
        for h in s.hand_log:
            v = s.rules_of(h.number)
            for kind, spec, _d in phase_variables(v):
                kept.append(spec)   # (a round's own rules: its specs stay alive, their ids unique)
                key = (id(spec), kind.values_key(v, h, spec))
                hash(key)
                assert seen.setdefault(key, kind.values(v, h, spec)) == kind.values(v, h, spec), key
    assert seen or not any(phase_variables(load_variant(vid)))


def test_phase_envs_refuse_a_formula_reading_more(tmp_path):
    """A formula naming a variable besides the phases' own (``tricks``, or the match's
    ``total``) gets the full environments."""
    from rulekit.engine.scoring import hand_envs, phase_envs
    v = load_variant("euchre")
    s = State(v, seed=1)
    assert phase_envs(v, s.hand, frozenset({"alone", "maker"})) is not None
    assert phase_envs(v, s.hand, frozenset({"alone", "tricks"})) is None
    assert phase_envs(v, s.hand, frozenset({"alone", "total"})) is None
    assert len(hand_envs(v, s.hand, frozenset({"alone", "tricks"}))[0].vars) > 10
