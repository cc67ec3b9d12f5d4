"""User pass (gallery), findings 1-7: files that validate must play, and right results.

Each test cites its finding.  Made-up house rules of the shipped gallery (hearts, spades,
pitch) are written to ``tmp_path`` and checked with :func:`rulekit.variant.check_file` or
loaded with :func:`rulekit.variant.load_variant`.
"""
from __future__ import annotations

import dataclasses
import random

import pytest

from rulekit.engine import State
from rulekit.variant import check_file, load_variant
from rulekit.variant.loader import builtin_dir, builtin_ids


def _write(tmp_path, name: str, text: str) -> str:
    f = tmp_path / name
    f.write_text(text)
    return str(f)


def _problems(path: str) -> list:
    return [f"{d.line}:{d.column}: {d.message}" for d in check_file(path)]


# ---------------------------------------------------------------- findings 1-3: hands too small
P14 = "id: p14\nextends: hearts\nname: Hearts pass 14\nphases:\n  passing:\n    count: 14\n"
H1 = ("id: h1\nextends: hearts\nname: Hearts with hand sizes\nphases:\n  deal:\n    pattern: \"13\"\n"
      "    hand_sizes: [1, 2, 13]\n")
S1 = ("id: s1\nextends: spades\nname: Spades short hands\nphases:\n"
      "  deal: {pattern: \"13\", hand_sizes: [1, 2, 3]}\n"
      "  bidding: {blind_nil: {behind: 0, exchange: 2}}\nmatch: {target: 100}\n")


def test_pass_count_above_the_hand_is_refused_at_the_count(tmp_path):
    """User pass (gallery) finding 1: passing 14 cards from a 13-card hand validated and then
    crashed in play; now refused at the count's line:col."""
    assert _problems(_write(tmp_path, "p14.yaml", P14)) == [
        "6:12: passes 14 cards but a hand holds 13 (expected at most 13)"]


def test_pass_with_a_smaller_scheduled_hand_is_refused_at_the_schedule(tmp_path):
    """User pass (gallery) finding 2: hearts dealt 1, 2, 13 cards passes 3 from a hand of 1;
    the house file's hand_sizes entry that makes the hand too small is blamed."""
    assert _problems(_write(tmp_path, "h1.yaml", H1)) == [
        "7:18: deal 1 gives each player 1 card, but phase passing passes 3 cards from a hand "
        "(expected hand sizes of at least 3)"]


def test_blind_nil_exchange_above_the_hand_is_refused(tmp_path):
    """User pass (gallery) finding 3: a blind nil exchange of 2 cards with hands of 1 card."""
    assert _problems(_write(tmp_path, "s1.yaml", S1)) == [
        "5:38: deal 1 gives each player 1 card, but phase bidding exchanges 2 cards from a hand "
        "(expected hand sizes of at least 2)"]


def test_set_aside_and_split_choice_use_the_same_check(tmp_path):
    """User pass (gallery) finding 2, generalised: putting aside or handing the chooser more
    cards than a hand holds is refused at the count."""
    base = """id: t
name: T
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "4 4"}
  bidding: {kind: list_auction, contracts: [{call: a, tricks: 1, value: 1}]}
  aside: {kind: set_aside, count: 9}
  play: {kind: tricks, lead: eldest}
scoring: {declarer: "1", defender: "0"}
match: {deals: 1}
"""
    got = _problems(_write(tmp_path, "t.yaml", base))
    assert got == ["9:35: puts aside 9 cards but a hand holds 8 (expected at most 8)"]


def test_widow_exchange_with_hand_sizes_is_refused(tmp_path):
    """User pass (gallery) finding 2: a hand-size schedule deals no widow, so a widow exchange
    would take nothing and discard from a hand that may be too small."""
    f = _write(tmp_path, "w.yaml", "id: w\nextends: fivehundred\nname: W\nphases:\n"
                                   "  deal: {hand_sizes: [2, 10]}\n")
    got = _problems(f)
    assert any("a widow_exchange needs a widow, but the deal follows hand_sizes" in p for p in got), got


def _short_variants():
    """The made-up files of findings 1-3 as the engine would run them had the compiler let
    them through (the compiled spec changed after the checks)."""
    hearts = load_variant("hearts")
    ph = tuple(dataclasses.replace(p, count=14) if p.kind == "pass_cards" else p for p in hearts.phases)
    yield "p14", dataclasses.replace(hearts, phases=ph)
    ph = tuple(dataclasses.replace(p, sizes=(1, 2, 13)) if p.kind == "deal" else p for p in hearts.phases)
    yield "h1", dataclasses.replace(hearts, phases=ph)
    spades = load_variant("spades")
    ph = tuple(dataclasses.replace(p, sizes=(1, 2, 3)) if p.kind == "deal" else
               dataclasses.replace(p, blind_behind=0, blind_exchange=2) if p.kind == "trick_bids" else p
               for p in spades.phases)
    yield "s1", dataclasses.replace(spades, phases=ph)


def _walk(v, seed: int, steps: int) -> int:
    """Random legal actions from a fresh match; asserts a legal action exists at every step
    while the match is not over; returns the steps taken."""
    rng = random.Random(seed)
    s = State(v, seed=seed)
    for i in range(steps):
        if s.is_over:
            return i
        legal = s.legal_actions()
        assert len(legal) > 0, f"{v.id}: no legal action in phase {s.phase_kind} for seat {s.to_move}"
        s.apply(legal[rng.randrange(len(legal))])
    return steps


@pytest.mark.parametrize("name,variant", list(_short_variants()), ids=lambda x: x if isinstance(x, str) else "")
def test_short_hands_never_leave_a_player_without_a_move(name, variant):
    """User pass (gallery) finding 3: a player holding fewer cards than the exchange (blind
    nil holding 1 card) got an empty legal list and could never continue; now he gives all
    he holds.  The short hands are played through three deals."""
    for seed in (1, 2):
        assert _walk(variant, seed, 400) > 0


@pytest.mark.parametrize("vid", builtin_ids())
def test_shipped_variants_always_offer_a_move(vid):
    """User pass (gallery) finding 3: every shipped variant offers a legal action at every
    state of a random walk until the match is over."""
    _walk(load_variant(vid), 3, 250)


# ---------------------------------------------------------------- finding 4: everyone winning
def _end(vid: str, after: list, before: list | None = None):
    from rulekit.engine.scoring import match_result
    v = load_variant(vid)
    s = State(v, seed=1)
    return match_result(v, s.hand, before or [0] * len(after), after, 1, names=list(s.sheet.columns))


def test_both_sides_falling_together_the_higher_total_wins():
    """User pass (gallery) finding 4: both spades sides fall below -200 in the same hand: the
    higher total wins, not both."""
    assert _end("spades", [-300, -250]) == ([1], "NS and EW fell to -300, -250, at or below -200")


def test_both_sides_falling_to_the_same_total_is_a_declared_tie():
    """User pass (gallery) finding 4: ``rulekit play spades --auto --seed 1`` ended with both
    sides at -400 and said "NS and EW win"; it is a tie, said in words."""
    from types import SimpleNamespace

    from rulekit.cli.render import winner_text
    assert _end("spades", [-400, -400]) == ([0, 1], "NS and EW fell to -400, at or below -200")
    s = State(load_variant("spades"), seed=1)
    # the screen's last line for that end (a stand-in state: the bots' bids no longer reach it)
    end = SimpleNamespace(variant=s.variant, winning_columns=[0, 1], winners=[0, 1, 2, 3],
                          sheet=s.sheet, names=s.names, result=dict,
                          end_reason="NS and EW fell to -400, at or below -200")
    assert winner_text(end).plain == "A tie: NS and EW (NS and EW fell to -400, at or below -200)."


def test_target_reached_by_several_the_higher_total_wins():
    """User pass (gallery) finding 4: both spades sides reach 500 in the same hand (no tie
    rules): the higher total wins; equal totals are a tie."""
    assert _end("spades", [520, 510]) == ([0], "reached 500")
    assert _end("spades", [510, 510]) == ([0, 1], "reached 500")


def test_penalty_limit_equal_lowest_totals_tie():
    """User pass (gallery) finding 4, lower_is_better: hearts ends at 100; the two lowest
    equal totals share a tie, the others lose."""
    cols, why = _end("hearts", [104, 40, 40, 90])
    assert cols == [1, 2] and why.endswith("reached the limit of 100; the lowest total wins")


# ---------------------------------------------------------------- finding 5: strain of worded strains
def test_strain_is_the_place_of_a_worded_strain_and_low_wins_says_the_order(tmp_path):
    """User pass (gallery) finding 5: with strains ``{call: hi, strain: chosen}``, ``{call: lo,
    strain: chosen, wins: low}``, ``NT`` a declarer formula "100 + strain" gave 100 for 3hi and
    3lo whatever suit was named; ``strain`` is the strain's place in the list (hi 0, lo 1, NT 2),
    and ``low_wins`` is 1 when the lowest cards win the hand (lo, or NT played low)."""
    from tests.test_low_wins import UPDOWN, LOW, POWERLESS
    from rulekit.engine.scoring import player_envs
    text = UPDOWN % dict(low=LOW, extra=POWERLESS, lo="low")
    text = text.replace('declarer: "if made then level else -level"', 'declarer: "100 + strain + 10 * low_wins"')
    v = load_variant(_write(tmp_path, "updown.yaml", text))
    bids = {b.text: b for b in v.auction().bids}
    got = {}
    for bid, suit, low in (("3hi", "S", False), ("3hi", "H", False), ("3lo", "S", True), ("3lo", "D", True),
                           ("3NT", "NT", False), ("3NT", "NT", True)):
        s = State(v, seed=1)
        h = s.hand
        h.contract, h.declarer = bids[bid], 1
        s.set_trump(suit, low=low)
        env = player_envs(v, h)[1]
        got[(bid, suit, low)] = (env.vars["strain"], env.vars["low_wins"])
    assert got == {("3hi", "S", False): (0, False), ("3hi", "H", False): (0, False),
                   ("3lo", "S", True): (1, True), ("3lo", "D", True): (1, True),
                   ("3NT", "NT", False): (2, False), ("3NT", "NT", True): (2, True)}
    from rulekit.engine.scoring import HandFacts, score_facts
    entries = score_facts(v, HandFacts(bids["3lo"], 1, "S", [0, 5, 0]))[0]
    assert entries[1] == 111   # 100 + strain 1 + 10 for low cards winning


def test_five_hundred_ten_t_scores_as_ten_in_the_suit_named():
    """User pass (gallery) finding 5: an extra bid with strain chosen (Five Hundred's 10T) keeps
    ``strain`` = the place of the suit named."""
    from rulekit.engine.scoring import envs_for
    v = load_variant("fivehundred")
    bids = {b.text: b for b in v.auction().bids}
    strains = v.auction().strains
    for suit in ("S", "C", "D", "H"):
        env = envs_for(v, bids["10T"], 0, suit, [10, 0, 0, 0], [0] * 4)[0]
        assert env.vars["strain"] == strains.index(suit)
        assert env.vars["strain"] == envs_for(v, bids["10" + suit], 0, suit, [10, 0, 0, 0], [0] * 4)[0].vars["strain"]


# ---------------------------------------------------------------- finding 6: the house file's deck
def test_house_deck_minus_is_named_as_the_cause(tmp_path):
    """User pass (gallery) finding 6: a hearts house rule removing the 2s was reported only at
    the base file, with a self-contradicting message (JK offered in a deck without jokers, "a
    card such as 2C" for 2C).  Now the house file's minus line is named as the cause and the
    card message says the deck leaves the card out."""
    f = _write(tmp_path, "hm.yaml", "id: hm\nextends: hearts\nname: Hearts no twos\n"
                                    "deck: {minus: [2C, 2D, 2S, 2H]}\n")
    got = [(d.file == f, d.line, d.column, d.message) for d in check_file(f)]
    base = next(i for i, ln in enumerate(open(builtin_dir() / "hearts.yaml", encoding="utf-8").read().splitlines(), 1) if "lead: 2C" in ln)
    lead = ("'2C' is not a card of this deck: the deck leaves it out (expected one of the cards it holds, "
            "such as 3C)")
    assert (True, 4, 15, f"this change of the base file's deck breaks its rule at variants/hearts.yaml:{base}:25 "
            "(phases.play.first_trick.lead; override that rule here too, or keep the deck): " + lead) in got
    assert (False, base, 25, lead) in got
    assert not any("JK" in m or "such as 2C" in m for *_x, m in got)


# ---------------------------------------------------------------- finding 7: diff of tallies
def test_diff_says_a_tally_change_is_not_tried(tmp_path):
    """User pass (gallery) finding 7: Low to the player who takes it (``in: tricks`` for
    ``in: hand``) and the game to 11 said "scoring: 0 of 21 outcomes tried score differently";
    now the diff says the tally change was not tried, and prints no "0 of N"."""
    from rulekit.sim.diff import diff_variants
    f = _write(tmp_path, "pitch-house.yaml", "id: pitch-house\nextends: pitch\nname: Pitch house\n"
               "scoring:\n  tallies:\n    low: {in: tricks}\nmatch: {target: 11}\n")
    d = diff_variants("pitch", f)
    assert [c.path for c in d.changes] == ["scoring.tallies.low.in", "match.target"]
    assert d.untried == ["scoring.tallies.low"]
    assert d.lines()[-1] == ("scoring: how tallies count (scoring.tallies.low) differs: not tried (the outcomes "
                             "tried give tricks and tally counts, not the cards a tally counts)")
    assert not any("outcomes tried score differently" in line for line in d.lines())


def test_diff_tries_outcomes_where_a_tally_is_won(tmp_path):
    """User pass (gallery) finding 7: a formula reading a tally is tried with the tally won:
    Low counting 2 makes a bid of 2 with High 0, Low 1, Jack 0 and no Game (-2 -> 2)."""
    from rulekit.sim.diff import diff_variants
    f = _write(tmp_path, "pitch-h2.yaml", "id: pitch-h2\nextends: pitch\nname: Pitch low 2\n"
               "scoring:\n  let:\n    won: \"high + 2 * low + jack + game\"\n")
    d = diff_variants("pitch", f)
    assert d.outcomes == 84 and d.differing == 7
    assert "2, declarer takes 0 tricks, low to the declarer: declarer -2 -> 2" in d.examples


def test_set_aside_by_contract_checks_the_largest_aside(tmp_path):
    """User pass (gallery) finding 2, generalised: ``set_aside`` with the contract's ``aside``
    is checked against the most any contract puts aside."""
    text = """id: t
name: T
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "4 4"}
  bidding: {kind: list_auction, contracts: [{call: a, tricks: 1, value: 1}, {call: b, tricks: 1, value: 2, aside: 9}]}
  aside: {kind: set_aside}
  play: {kind: tricks, lead: eldest}
scoring: {declarer: "1", defender: "0"}
match: {deals: 1}
"""
    assert _problems(_write(tmp_path, "t.yaml", text)) == [
        "9:10: puts aside 9 cards but a hand holds 8 (expected at most 8)"]


def test_inherited_rule_failing_is_also_said_at_the_house_files_extends(tmp_path):
    """User pass 2, finding 8: ``extends: hearts`` with ``players: 3`` was reported only at
    ``variants/hearts.yaml:32:14``, a path that is not in the user's folder. The problem is now
    also said at the house file's own ``extends:`` line, naming the inherited rule's place."""
    f = _write(tmp_path, "h3.yaml", "id: h3\nextends: hearts\nname: Hearts three\nplayers: 3\n")
    base = next(i for i, ln in enumerate(open(builtin_dir() / "hearts.yaml", encoding="utf-8").read()
                                         .splitlines(), 1) if ln.strip().startswith("pattern:"))
    got = [(d.file == f, d.line, d.column, d.message) for d in check_file(f)]
    deal = "the deal gives out 39 cards (3 players x 13) but the deck has 52 (expected the pattern to use every card once)"
    assert (True, 2, 10, f"a rule inherited from variants/hearts.yaml:{base}:14 (phases.deal.pattern) fails with "
                         f"this file's settings (override it here, or change them): {deal}") in got
    assert (False, base, 14, deal) in got
