"""`rulekit explain` and `rulekit schema` (issue 11: authoring reach).

The rulebook is generated from the compiled variant; these tests assert the sentences a
player of the game would look for, with the values the rules give (rules/fivehundred.md).
"""
from __future__ import annotations

import json

from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.schemas import editor_schema
from rulekit.variant import load_variant
from rulekit.variant.explain import explain, formula_words

runner = CliRunner()


def flat(text: str) -> str:
    return " ".join(text.split())


def test_explain_fivehundred_reads_as_its_rulebook():
    """issue 11: `rulekit explain fivehundred` names the deck [P2], the bowers [R1] [T5], the
    deal [D3] [D4], the bids and their values [A2] [S1], the widow [W1], following suit [T2],
    the scores [S2]-[S5] and the target [G1]."""
    r = runner.invoke(app, ["explain", "fivehundred"])
    assert r.exit_code == 0, r.output
    t = flat(r.output)
    assert t.startswith("# Five Hundred")
    assert "**3 players**, each playing for himself." in t
    assert ("The deck has **33 cards**: 7 8 9 10 J Q K A in each of the 4 suits (spades, clubs, diamonds "
            "and hearts), and the Joker (JK).") in t
    assert ("In the trump suit they rank the Joker, the right bower (J of trumps), the left bower (J of the "
            "other suit of the same colour, which counts as a trump), A, K, Q, 10, 9, 8, 7") in t
    assert "a Joker led" not in t and "when it is led, its player names the suit the others must follow" in t
    assert "Each player cuts a card; the lowest cut deals first; the deal then passes to the left." in t
    assert "deals 10 cards to each player" in t and "and 3 to the widow (face up)" in t
    assert "the bids, lowest first, are 6S, 6C, 6D, 6H, 6NT, 7S" in t and "10H, 10NT; 10T may be bid only over 10NT" in t
    for bid, value in (("6S", 40), ("6NT", 120), ("7H", 200), ("8S", 240), ("10NT", 520)):
        assert f"| {bid} | {value} |" in r.output
    assert "| 10T | as 10 in the suit named |" in r.output
    assert "A player who passes drops out of the auction for good" in t
    assert "When all pass, the hand is played without a contract, at no trump." in t
    assert "The declarer takes the widow into his hand and then discards any 3 cards face down" in t
    assert "names trumps: spades, clubs, diamonds or hearts." in t
    assert "Each player must follow suit (play a card of the suit led) if he can" in t
    assert "the declarer leads to the first trick" in t
    assert "- **made** holds when the declarer's tricks are at least the bid level" in t
    assert "**value** is 40 plus 20 times the strain's rank plus 100 times (the bid level minus 6)" in t
    assert "Each defender scores 10 times the tricks taken (`10 * tricks`)." in t
    assert "The first to reach **500 points** wins." in t
    assert "the bid level is 10 and trumps are hearts or no trump" in t


def test_explain_house_rule_says_the_loss_floor():
    """issue 11: the -500 house rule's loss ([G1] variant) is said in the rulebook."""
    t = flat(explain(load_variant("fivehundred-minus-500")))
    assert "A total of **-500** or less loses the match." in t


def test_explain_partnerships_and_penalties_on_a_made_up_variant(tmp_path):
    """issue 11: sides, a penalty scoring and a formula in words, on a small made-up variant."""
    f = tmp_path / "toy.yaml"
    f.write_text("""id: toy
name: Toy
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "3"}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "if tricks > 3 then 0 else 3 - tricks"
  lower_is_better: true
match: {target: 10}
""")
    r = runner.invoke(app, ["explain", str(f)])
    assert r.exit_code == 0, r.output
    t = flat(r.output)
    assert "**4 players** in partnerships (NS: seats N, S; EW: seats E, W)" in t
    assert "Scores are kept for each side, and lower totals are better (points are penalties)." in t
    assert ("- Every side scores (`if tricks > 3 then 0 else 3 - tricks`): - if the tricks taken are more than "
            "3: 0 - otherwise: 3 minus the tricks taken") in t
    assert "The match ends when a total reaches 10 points; then the lowest total wins." in t


def test_explain_a_broken_file_fails_like_validate(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("id: bad\nname: Bad\n")
    r = runner.invoke(app, ["explain", str(f)])
    assert r.exit_code == 1
    assert "bad.yaml:1:1" in r.output


def test_formula_words_keeps_unparsable_text():
    assert formula_words("3 +") == "3 +"
    assert formula_words("max(tricks - 6, 0)") == "the larger of (the tricks taken minus 6) and 0"


def test_schema_prints_the_editor_schema(tmp_path):
    """issue 11: `rulekit schema` prints rulekit.schemas.editor_schema() (every phase kind)."""
    r = runner.invoke(app, ["schema"])
    assert r.exit_code == 0
    assert json.loads(r.output) == editor_schema()
    assert "phase_tricks" in json.loads(r.output)["$defs"]
    out = tmp_path / "s.json"
    r = runner.invoke(app, ["schema", "-o", str(out)])
    assert r.exit_code == 0 and json.loads(out.read_text()) == editor_schema()
    r = runner.invoke(app, ["schema", "-o", str(tmp_path / "no" / "s.json")])
    assert r.exit_code == 2 and "cannot write" in r.output


def test_explain_a_schedule_of_rounds_describes_each_round():
    """user pass (stop 5) case 3 (rules/king.md [K1]-[K12], [E1]): the rulebook of a variant with rounds
    names the twelve rounds in order, gives each its own objective, phases and scoring, and says
    the match ends after the last round, not "Every player scores 0" or "at most 1000 deals"."""
    text = explain(load_variant("king"))
    names = ["no tricks", "no hearts", "no boys", "no girls", "not the last two", "no king",
             "running total", "jacks domino", "trumps 1", "trumps 2", "trumps 3", "trumps 4"]
    listed = text.split("in this order:")[1].split("###")[0]
    assert [line.split(". ", 1)[1] for line in listed.strip().splitlines()] == names
    assert "### Round 6: no king" in text and "*Do not take the king of hearts: -8, and the round ends at once.*" in text
    assert "Every player scores minus 8 times **king** (`-8 * king`)." in text
    assert "### Rounds 9 to 12 (4 deals): trumps" in text and "Every player scores 3 times the tricks taken" in text
    king = text.split("### Round 6")[1].split("### Round 7")[0]
    assert "Hearts may not be led at any time while the leader holds another suit" in king
    assert "running total scores the player who reaches each threshold (25: -1, 50: -3, 75: -5, 100: -7)" in text
    assert "The match ends after the last round (round 12, trumps 4); the highest total wins." in text
    assert "Every player scores 0" not in text and "1000 deals" not in text
