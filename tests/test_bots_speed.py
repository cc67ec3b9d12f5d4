"""The faster SensibleBot.

The speed itself is measured by ``benchmarks/bots.py --vs-old REV`` (never timed here); these
tests pin the pieces the speed-up rests on: deals tested before a world is built, the
sampling law kept, the fast policy's card tried first and winning ties.
"""
from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from rulekit.bots import RandomBot, SensibleBot
import rulekit.bots.sensible as sensible
from rulekit.bots.sensible import _equivalent, calls_test, distinct_plays, fits_calls, greedy_card
from rulekit.cli.app import app
from rulekit.engine import State, actions
from rulekit.engine.actions import Action
from rulekit.engine.observation import _fill, _rules
from rulekit.engine.phases.exchange import DiscardChoices
from rulekit.engine.phases.trick_bids import LOOK
from rulekit.variant import load_variant


@pytest.fixture(scope="module")
def bridge():
    return load_variant("bridge")


@pytest.fixture(scope="module")
def fivehundred():
    return load_variant("fivehundred")


def test_sample_world_tests_the_deal_before_building_the_world(bridge):
    """``sample_world(rng, fits, tries)`` hands each drawn deal (the hidden seats'
    hands as dealt) to ``fits`` and keeps the first it accepts: here East must hold the ace of
    spades, which a random deal gives him one time in three."""
    s = State(bridge, seed=3)
    o = s.observation(0)
    ace = bridge.deck.parse("AS")
    if o.hand >> ace & 1:
        pytest.skip("North holds the ace")
    seen = []

    def fits(dealt):
        seen.append(sorted(dealt))
        return bool(dealt[1] >> ace & 1)
    for k in range(10):
        seen.clear()
        w = o.sample_world(random.Random(k), fits, tries=200)
        assert w.hand.hands[1] >> ace & 1
        assert w.hand.hands[0] == o.hand                  # the seat's own cards never move
        assert all(keys == [1, 2, 3] for keys in seen)    # the hidden seats, and only them
    seen.clear()
    o.sample_world(random.Random(0), lambda d: seen.append(1) and False, tries=1)
    assert seen == [1]                                   # one draw, kept although refused


def test_fill_keeps_counts_voids_and_placed_cards():
    """The deal of hidden cards (constrained cards first, the free ones as slices
    of one shuffle) gives each place exactly its count, no card of a group a hand is known to
    lack, and a placed card only to its owner; free cards go to each place in proportion to
    its room (1000 seeded draws: within 4 points of the share)."""
    ctx = load_variant("bridge").contexts["NT"]
    pool = (1 << 39) - 1                                   # 39 hidden cards, three hands of 13
    places = [("hand", s, 13, s) for s in (1, 2, 3)]
    placed = [0, 1 << 5, 0, 0]                              # card 5 is known to be East's
    failed = [0, 0, 1, 0]                                   # South shows out of group 0
    for k in range(1000):
        out = _fill(random.Random(k), places, _rules(pool, places, placed, 1 << 5, failed, ctx))
        assert [m.bit_count() for m in out] == [13, 13, 13]
        assert out[0] | out[1] | out[2] == pool
        assert out[0] >> 5 & 1
        assert not out[1] & ctx.group_mask[0] & pool
    # without constraints: a card is in a hand of 13 one time in three, in a hand of 26 two
    wide = [("hand", 1, 13, 1), ("hand", 2, 26, 2)]
    in_first = sum(_fill(random.Random(k), wide, _rules(pool, wide, [0] * 4, 0, None, ctx))[0] >> 30 & 1 for k in range(1000))
    assert abs(in_first / 1000 - 1 / 3) < 0.05


def test_calls_test_agrees_with_fits_calls(bridge):
    """The calls test run on each drawn deal says what :func:`fits_calls` says of
    the world built from it (after East opened 1S: three spades and an average hand)."""
    s = State(bridge, seed=1, dealer=3)
    for call in ("pass", "pass", "1S"):
        s.apply(call)
    o = s.observation(0)
    test = calls_test(o)
    rng = random.Random(5)
    verdicts = []
    for _ in range(60):
        w = o.sample_world(rng)
        verdicts.append(fits_calls(w, o))
        assert verdicts[-1] == test({x: w.hand.dealt[x] or w.hand.hands[x] for x in (1, 2, 3)})
    assert any(verdicts) and not all(verdicts)
    assert calls_test(State(bridge, seed=1).observation(0)) is None   # no call yet: nothing to test


def _following_position(v):
    """A state whose seat to move follows to a trick with two or more distinct plays, the
    fast policy's card not being the first of them (so a tie-break on order would differ)."""
    for seed in range(200):
        s = State(v, seed=seed)
        bots = [RandomBot(seed=seed * 10 + x) for x in range(v.players)]
        while not s.is_over and s.hands_played == 0:
            seat = s.controller(s.to_move)
            o = s.observation(seat)
            if o.trick and s.kind is not None and s.kind.role == "play":
                cands = distinct_plays(o)
                if len(cands) >= 2:
                    g = greedy_card(s, [True] * v.players)
                    j = _equivalent(cands, o.legal, g, v.contexts.get(o.trump))
                    if j not in (None, 0):
                        return s, seat, o
            s.apply(bots[seat].act(o))
    raise AssertionError("no position found")


def test_greedy_card_wins_ties_and_ties_stop_after_prune_from_worlds(fivehundred, monkeypatch):
    """When every candidate scores the same in every sampled world, the bot plays
    the fast policy's card (before, the first legal one) and stops after ``prune_from + 1``
    worlds: three by default (stopping after two cost about 10 points a hand head to head,
    benchmarks/README.md), two with ``prune_from=1``.  Following to a trick, the policy reads
    only public facts and the seat's cards."""
    s, seat, o = _following_position(fivehundred)
    monkeypatch.setattr(sensible, "utility", lambda hand, seat, variant: 0.0)
    bot = SensibleBot(seed=1)
    draws = []
    real = bot.sample
    monkeypatch.setattr(bot, "sample", lambda obs, **kw: draws.append(1) or real(obs, **kw))
    choice = bot.act(o)
    prefs = bot.preferences(s)
    want = greedy_card(s, prefs)
    cands = distinct_plays(o)
    assert choice == o.legal[cands[_equivalent(cands, o.legal, want, fivehundred.contexts.get(o.trump))]]
    assert len(draws) == 3
    quick = SensibleBot(seed=1, prune_from=1)
    draws.clear()
    monkeypatch.setattr(quick, "sample", lambda obs, **kw: draws.append(1) or real(obs, **kw))
    assert quick.act(o) == choice
    assert len(draws) == 2


def test_equivalent_maps_a_card_to_the_candidate_standing_for_it(fivehundred):
    """:func:`distinct_plays` keeps the lowest of equivalent cards; the fast policy's
    card maps to itself when kept, else to the strongest lower kept card of its group."""
    from rulekit.engine.actions import Action
    v = fivehundred
    ctx = v.contexts["NT"]
    d = v.deck
    legal = [Action.play(d, d.parse(c)) for c in ("7S", "8S", "10S", "AH")]
    cands = [0, 2, 3]                    # 8S stands with 7S (say nothing lies between them)
    assert _equivalent(cands, legal, d.parse("10S"), ctx) == 1
    assert _equivalent(cands, legal, d.parse("8S"), ctx) == 0
    assert _equivalent(cands, legal, d.parse("AH"), ctx) == 2
    assert _equivalent(cands, legal, d.parse("KD"), ctx) is None

S7 = """\
id: s7
extends: spades
name: Spades exchange 7
phases:
  bidding:
    blind_nil: {behind: 0, exchange: 7}
match:
  target: 200
"""


def test_spades_exchange_seven_plays_to_its_end(tmp_path):
    """The file above plays ``--auto --seed 1`` to its end with a winner
    (which side wins is the bots' choice: the form of the line is checked, not the side; a target
    of 200, not 500: every hand offers the blind nil's exchange, so fewer hands check the same)."""
    f = tmp_path / "s7.yaml"
    f.write_text(S7)
    r = CliRunner().invoke(app, ["play", str(f), "--auto", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert re.search(r"^(NS win: N and S|EW win: E and W) \(reached 200\)\.$", r.output, re.M), r.output


def test_a_random_discard_from_thirteen_choose_seven_builds_one_action(monkeypatch):
    """A random choice, ``in`` and ``len`` on the lazy sequence of
    the 1716 ways to discard 7 of 13 cards build at most one discard action each."""
    deck = load_variant("spades").deck
    built = []
    real = Action.discard

    def counting(deck, mask):
        built.append(mask)
        return real(deck, mask)

    monkeypatch.setattr(actions.Action, "discard", staticmethod(counting))
    hand = sum(1 << c for c in range(13))
    choices = DiscardChoices(deck, hand, 7)
    assert len(choices) == 1716 and built == []
    a = RandomBot(3).act(type("Obs", (), {"legal": choices})())
    assert len(built) == 1 and a.cards.bit_count() == 7 and not a.cards & ~hand
    assert LOOK not in choices and a in choices and len(built) == 1
    assert real(deck, (1 << 13) | 63) not in choices            # a card not held
    assert real(deck, 63) not in choices                         # six cards, not seven
    rng = random.Random(0)
    assert choices[int(rng.random() * len(choices))] in choices and len(built) == 2


def test_expected_forms_reads_one_discard_choice_not_all(monkeypatch):
    """Showing what a declarer may type at a widow exchange takes the first discard choice
    only: building every choice (1,716 of them for 7 cards from 13) is not needed for the
    words, and the message names real cards."""
    import random

    from rulekit.engine import State
    from rulekit.engine.phases.exchange import DiscardChoices
    from rulekit.variant import load_variant

    st = State(load_variant("fivehundred"), seed=2)
    rng = random.Random(0)
    while st.phase_kind != "widow_exchange":
        legal = [a for a in st.legal_actions() if a.kind != "pass"] or st.legal_actions()
        st.apply(legal[int(rng.random() * len(legal))])
    assert isinstance(st.legal_actions(), DiscardChoices)

    def every_choice(self):
        raise AssertionError("every discard choice was built")

    monkeypatch.setattr(DiscardChoices, "__iter__", every_choice)
    first = st.legal_actions()[0].text   # e.g. "discard 7S 8S 9S"
    assert st.expected_forms() == f"expected {st.discard_word()} 3 cards (e.g. {first})"

BIG = """\
id: bigwidow
extends: fivehundred
name: Five Hundred, a widow of 14
deck:
  suits: [S, C, D, H]
  ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A]
  jokers: 1
ranking:
  suit: "A K Q J 10 9 8 7 6 5 4 3 2"
  trump: "JK J:trump J:sister A K Q 10 9 8 7 6 5 4 3 2"
dealer:
  first: {cut: low, ranks: "K Q J 10 9 8 7 6 5 4 3 2 A JK", suits: "H D C S"}
phases:
  deal: {pattern: "1 x 13, widow 14 down"}
  exchange: {discard: 14}
"""


def test_help_at_a_fourteen_card_discard_answers_at_once(tmp_path, monkeypatch):
    """``?`` at a 14-card discard from 27 cards (20 million choices) answers at once: it reads the
    hand, not every choice."""
    from rulekit.cli.render import legal_text
    from rulekit.engine import State
    from rulekit.variant import load_variant as load

    f = tmp_path / "bigwidow.yaml"
    f.write_text(BIG)
    st = State(load(str(f)), seed=5)
    rng = random.Random(0)
    while st.phase_kind != "widow_exchange":
        legal = [a for a in st.legal_actions() if a.kind != "pass"] or st.legal_actions()
        st.apply(legal[int(rng.random() * len(legal))])

    def every_choice(self):
        raise AssertionError("every discard choice was built")

    monkeypatch.setattr(DiscardChoices, "__iter__", every_choice)
    text = legal_text(st).plain
    assert text.startswith("discard any 14 of your cards (20058300 choices), e.g. discard ")
    held = st.hand.hands[st.to_move]
    assert held.bit_count() == 27 and len(text.split(": ", 1)[1].split()) == 27


def test_the_playout_benchmark_times_every_decision_of_its_bot_hands(monkeypatch):
    """``benchmarks/playout.py``'s SensibleBot row plays whole single hands through
    ``bots.play_table``: every seat of a Five Hundred hand decides at least once (its call), and
    each decision's time is counted."""
    from pathlib import Path
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import playout
    r = playout.bot_speed("fivehundred", 1)["new"]
    assert r["decisions"] >= 4 and r["ms_per_decision"] > 0
