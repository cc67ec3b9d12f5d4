"""A file that validates plays right; what cannot play is refused with file:line:col.

The broken files for options that cannot play are in ``tests/broken/`` (checked by tests/test_validate.py);
here are the warnings, ``--strict``, and the files that must stay valid.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
import random

import pytest
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.variant import VariantWarning, check_file, load_variant
from rulekit.variant.loader import builtin_ids
from tests.helpers import write_variant

ROOT = Path(__file__).resolve().parent.parent

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def write(tmp_path, name, text) -> Path:
    f = tmp_path / name
    f.write_text(text)
    return f

NO_EFFECT = """\
id: no-effect
extends: bridge
ranking:
  top_led: name_suit
phases:
  auction:
    double: false
    redouble: true
match:
  ties: [declarer]
"""


def test_options_with_no_effect_are_warnings(tmp_path):
    """top_led without top, redouble without double, ties without target
    are reported as warnings at their keys; validate still exits 0."""
    f = write(tmp_path, "no-effect.yaml", NO_EFFECT)
    result = run("validate", f)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{f}:4:3: warning: ranking.top_led: has no effect without ranking.top (no card is above the suits)",
        f"{f}:8:5: warning: phases.auction.redouble: has no effect with double: false "
        f"(only a doubled bid is redoubled)",
        f"{f}:10:3: warning: match.ties: has no effect without match.target "
        f"(ties break a target reached together)",
        "1 file valid (3 warnings)",
    ]


def test_strict_counts_warnings_as_errors(tmp_path):
    """--strict makes a warning fail the file (exit 1)."""
    f = write(tmp_path, "no-effect.yaml", NO_EFFECT)
    result = run("validate", "--strict", f)
    assert result.exit_code == 1
    assert "3 problems in 1 of 1 file" in result.stderr
    data = json.loads(run("validate", "--format", "json", f).stdout)
    assert [(d["line"], d["column"], d["severity"]) for d in data] == [(4, 3, "warning"), (8, 5, "warning"),
                                                                       (10, 3, "warning")]


def test_other_options_with_no_effect(tmp_path):
    """The kind: every option that needs another one that is absent."""
    f = write(tmp_path, "more.yaml", """\
id: more
extends: rams
dealer:
  first: {seat: 1, cut: low}
match:
  unfinished: {game: 300}
  immediate_win: "tricks == 8"
""")
    found = check_file(str(f), warnings=True)
    assert all(isinstance(d, VariantWarning) for d in found)
    assert [(d.line, d.path) for d in found] == [(4, "dealer.first.cut"), (6, "match.unfinished"),
                                                 (7, "match.immediate_win")]
    assert check_file(str(f)) == []  # without warnings=True, a valid file has no problems


def test_shipped_variants_have_no_warnings():
    """The shipped files pass --strict (no option without effect)."""
    result = run("validate", "--strict", *sorted((ROOT / "variants").glob("*.yaml")))
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stdout


def test_a_guarded_division_is_accepted(tmp_path):
    """The static bounds flag `100 / tricks`, but run on every possible
    value the guarded formula never divides by zero, so it is not refused."""
    f = write(tmp_path, "guarded.yaml", 'id: g\nextends: fivehundred\nscoring:\n'
              '  defender: "if tricks > 0 then 100 / tricks else 0"\n')
    assert check_file(str(f)) == []
    f = write(tmp_path, "unguarded.yaml", 'id: g\nextends: fivehundred\nscoring:\n'
              '  defender: "if tricks > 9 then 100 / tricks else 100 / (tricks - 3)"\n')
    [d] = check_file(str(f))
    assert (d.line, d.column, d.path) == (4, 14, "scoring.defender")  # two divisions: the formula
    assert d.message.startswith("division by zero when tricks = 3")


def test_bridge_duplicate_without_its_match_block_is_refused(tmp_path):
    """Removing the match block of the duplicate house rule
    brings back the base's rubber, but no part of the duplicate score counts toward a game: the
    match could never end (it played forever); validate refuses it, once, at the house file's
    own extends: line, naming the base's rubber."""
    text = (ROOT / "variants" / "bridge-duplicate.yaml").read_text()
    text = text[:text.index("\nmatch:")] + "\n"
    f = write(tmp_path, "bridge-duplicate.yaml", text)   # extends: bridge (the installed file)
    [here] = check_file(str(f))
    assert here.file == str(f) and here.path == "extends"
    assert "variants/bridge.yaml:" in here.message and "(match.rubber)" in here.message
    assert "no part of the score counts toward a game" in here.message


def test_float_counts_are_refused_at_their_position(tmp_path):
    """`players` choice 4.0 and `dealer.first.seat: 0.0` were TypeErrors in play."""
    f = write(tmp_path, "f.yaml", "id: f\nextends: rams\nplayers: {default: 3, choices: [3, 4.0]}\n"
                                  "dealer:\n  first: {seat: 0.0}\n")
    found = check_file(str(f))
    assert [(d.line, d.column, d.path) for d in found] == [(3, 36, "players.choices.1"), (5, 17, "dealer.first.seat")]
    assert all("found number" in d.message and "expected a whole number" in d.message for d in found)

FOUR_HANDED = """\
# A made-up four-handed partnership Five Hundred: 41 cards, 10 each, a one-card widow.
id: four-handed
extends: fivehundred
players: 4
sides: {NS: [0, 2], EW: [1, 3]}
deck:
  ranks: ["5", "6", "7", "8", "9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9 8 7 6 5"
  trump: "JK J:trump J:sister A K Q 10 9 8 7 6 5"
dealer:
  first: {ranks: "K Q J 10 9 8 7 6 5 A JK"}
phases:
  deal:
    pattern: "3 4 3, widow 1 down"
  exchange:
    discard: 1
scoring:
  by: side
match:
  target: 500
"""


def test_four_handed_partnership_with_a_points_target_validates(tmp_path):
    """A partnership game with sides and match.target: 500
    validates with no false refusal, plays, and keeps its target."""
    f = write(tmp_path, "four.yaml", FOUR_HANDED)
    result = run("validate", "--strict", f)
    assert result.exit_code == 0, result.output
    v = load_variant(str(f))
    assert (v.players, v.side_names, v.match.target, v.scoring.by_side) == (4, ("NS", "EW"), 500, True)


def test_every_shipped_variant_plays_to_its_end():
    """What validates plays: each shipped variant, random legal moves, ends by its own rules
    within 200 hands (none needs the cap)."""
    import random
    for path in sorted((ROOT / "variants").glob("*.yaml")):
        v = load_variant(str(path))
        s = State(v, seed=7, max_hands=200)
        rnd = random.Random(7)
        while not s.is_over:
            s.apply(rnd.choice(s.legal_actions()))
        assert s.winners, path.name


def _problems(path: str) -> list:
    return [f"{d.line}:{d.column}: {d.message}" for d in check_file(path)]


# ---------------------------------------------------------------- hands too small
P14 = "id: p14\nextends: hearts\nname: Hearts pass 14\nphases:\n  passing:\n    count: 14\n"

H1 = ("id: h1\nextends: hearts\nname: Hearts with hand sizes\nphases:\n  deal:\n    pattern: \"13\"\n"
      "    hand_sizes: [1, 2, 13]\n")

S1 = ("id: s1\nextends: spades\nname: Spades short hands\nphases:\n"
      "  deal: {pattern: \"13\", hand_sizes: [1, 2, 3]}\n"
      "  bidding: {blind_nil: {behind: 0, exchange: 2}}\nmatch: {target: 100}\n")


def test_pass_count_above_the_hand_is_refused_at_the_count(tmp_path):
    """Passing 14 cards from a 13-card hand is refused at the count's line:col (it cannot play)."""
    assert _problems(write_variant(tmp_path, "p14.yaml", P14)) == [
        "6:12: passes 14 cards but a hand holds 13 (expected at most 13)"]


def test_pass_with_a_smaller_scheduled_hand_is_refused_at_the_schedule(tmp_path):
    """Hearts dealt 1, 2, 13 cards passes 3 from a hand of 1;
    the house file's hand_sizes entry that makes the hand too small is blamed."""
    assert _problems(write_variant(tmp_path, "h1.yaml", H1)) == [
        "7:18: deal 1 gives each player 1 card, but phase passing passes 3 cards from a hand "
        "(expected hand sizes of at least 3)"]


def test_blind_nil_exchange_above_the_hand_is_refused(tmp_path):
    """A blind nil exchange of 2 cards with hands of 1 card."""
    assert _problems(write_variant(tmp_path, "s1.yaml", S1)) == [
        "5:38: deal 1 gives each player 1 card, but phase bidding exchanges 2 cards from a hand "
        "(expected hand sizes of at least 2)"]


def test_set_aside_and_split_choice_use_the_same_check(tmp_path):
    """Generalised: putting aside or handing the chooser more
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
    got = _problems(write_variant(tmp_path, "t.yaml", base))
    assert got == ["9:35: puts aside 9 cards but a hand holds 8 (expected at most 8)"]


def test_widow_exchange_with_hand_sizes_is_refused(tmp_path):
    """A hand-size schedule deals no widow, so a widow exchange
    would take nothing and discard from a hand that may be too small."""
    f = write_variant(tmp_path, "w.yaml", "id: w\nextends: fivehundred\nname: W\nphases:\n"
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
    """A player holding fewer cards than the exchange asks (blind nil holding 1 card) gives all he
    holds: no empty legal list. The short hands are played through three deals."""
    for seed in (1, 2):
        assert _walk(variant, seed, 400) > 0


@pytest.mark.parametrize("vid", builtin_ids())
def test_shipped_variants_always_offer_a_move(vid):
    """Every shipped variant offers a legal action at every
    state of a random walk until the match is over."""
    _walk(load_variant(vid), 3, 250)


def test_set_aside_by_contract_checks_the_largest_aside(tmp_path):
    """Generalised: ``set_aside`` with the contract's ``aside``
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
    assert _problems(write_variant(tmp_path, "t.yaml", text)) == [
        "9:10: puts aside 9 cards but a hand holds 8 (expected at most 8)"]
