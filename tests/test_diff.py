"""``rulekit diff``: which rules differ between two variant files, in rule words."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.sim.diff import diff_variants, scored_differently
from rulekit.variant import load_variant
from tests.helpers import write_variant

ROOT = Path(__file__).resolve().parent.parent

runner = CliRunner()


def test_eight_trick_slam_names_the_one_rule():
    """The slam reading of rules/fivehundred.md [S3] is the only difference,
    said with both formulas and outcomes that score differently."""
    d = diff_variants("fivehundred", "fivehundred-eight-trick-slam")
    assert [c.path for c in d.changes] == ["scoring.declarer"]
    c = d.changes[0]
    assert c.meaning == "entry of the declarer"
    assert "declarer_tricks == total_tricks" in c.old and "level < 8 and declarer_tricks >= 8" in c.new
    # 6 and 7 bids taking 8 or 9 tricks score 250 now; 8 bids taking all 10 keep their value
    assert d.differing == 21 and d.outcomes == 297
    assert "6♠, declarer takes 8 tricks: declarer 40 -> 250" in d.examples
    r = runner.invoke(app, ["diff", "fivehundred", "fivehundred-eight-trick-slam"])
    assert r.exit_code == 1
    assert r.output.startswith("1 rule differs from fivehundred to fivehundred-eight-trick-slam:")
    assert "- entry of the declarer (scoring.declarer):" in r.output
    assert "6♠, declarer takes 8 tricks: declarer 40 -> 250" in r.output


def test_slam_outcome_eight_bid_all_tricks():
    """[S3]: under the base reading an 8♠ (240) taking all ten tricks scores 250; under the
    eight-trick reading it keeps 240."""
    from rulekit.variant import load_variant
    tried, differ = scored_differently(load_variant("fivehundred"), load_variant("fivehundred-eight-trick-slam"))
    assert tried == 297
    assert "8♠, declarer takes 10 tricks: declarer 250 -> 240" in differ
    assert "7♥, declarer takes 9 tricks: declarer 200 -> 250" in differ
    assert not any(x.startswith("6♠, declarer takes 10 tricks") for x in differ)  # 250 either way


def test_must_trump_in_schema_words():
    """The must-trump house rule ([T2]) said with the schema's description, old -> new."""
    r = runner.invoke(app, ["diff", "fivehundred", "fivehundred-must-trump"])
    assert r.exit_code == 1
    assert ("- a player who cannot follow suit must play a trump if he has one: no -> yes "
            "(phases.play.must_trump)") in r.output
    assert "scoring:" not in r.output  # no scoring rule differs, so no scored outcomes


def test_identical_files_exit_zero(tmp_path):
    """The same rules under another id and name: no rule differs (names are no rules), exit 0."""
    copy = tmp_path / "copy.yaml"
    text = (ROOT / "variants" / "fivehundred.yaml").read_text()
    copy.write_text(text.replace("id: fivehundred", "id: my-copy").replace("name: Five Hundred", "name: Mine"))
    r = runner.invoke(app, ["diff", "fivehundred", str(copy)])
    assert r.exit_code == 0, r.output
    assert r.output.strip() == f"no rule differs between fivehundred and {copy}"


def test_extends_chain(tmp_path):
    """A house rule of a house rule: differences are those of the merged documents."""
    f = tmp_path / "mine.yaml"
    f.write_text("extends: fivehundred-must-trump\nmatch:\n  lose_at: -500\n")
    d = diff_variants("fivehundred", str(f))
    assert [(c.path, c.old, c.new) for c in d.changes] == [("phases.play.must_trump", False, True),
                                                            ("match.lose_at", None, -500)]
    d = diff_variants("fivehundred-must-trump", str(f))
    assert [c.text() for c in d.changes] == [
        "a player whose total falls to this or below loses; the game ends: (not set) -> -500 (match.lose_at)"]


def test_json_output():
    r = runner.invoke(app, ["diff", "fivehundred", "fivehundred-widow-down", "--format", "json"])
    assert r.exit_code == 1
    out = json.loads(r.output)
    assert out["same"] is False
    assert out["changes"] == [{"path": "phases.deal.pattern", "meaning": "the dealing pattern, or a mapping "
                               "from the number of players to one", "old": "3 3 3 1, widow 3 up",
                               "new": "3 3 3 1, widow 3 down"}]


def test_errors_exit_two(tmp_path):
    """A variant that does not load is an error (2), never "differs" (1)."""
    r = runner.invoke(app, ["diff", "fivehundred", "no-such-variant"])
    assert r.exit_code == 2
    assert "no such variant or file 'no-such-variant'" in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: fivehundred\nphases:\n  play:\n    must_trump: maybe\n")
    r = runner.invoke(app, ["diff", "fivehundred", str(bad)])
    assert r.exit_code == 2
    assert f"{bad}:4:17:" in r.output
    r = runner.invoke(app, ["diff", "fivehundred", "fivehundred", "--format", "xml"])
    assert r.exit_code == 2


# ---------------------------------------------------------------- diff of tallies
def test_diff_says_a_tally_change_is_not_tried(tmp_path):
    """Low to the player who takes it (``in: tricks`` for ``in: hand``) and the game to 11: the diff
    says the tally change was not tried, and prints no "0 of N outcomes"."""
    from rulekit.sim.diff import diff_variants
    f = write_variant(tmp_path, "pitch-house.yaml", "id: pitch-house\nextends: pitch\nname: Pitch house\n"
               "scoring:\n  tallies:\n    low: {in: tricks}\nmatch: {target: 11}\n")
    d = diff_variants("pitch", f)
    assert [c.path for c in d.changes] == ["scoring.tallies.low.in", "match.target"]
    assert d.untried == ["scoring.tallies.low"]
    assert d.lines()[-1] == ("scoring: how tallies count (scoring.tallies.low) differs: not tried (the outcomes "
                             "tried give tricks and tally counts, not the cards a tally counts)")
    assert not any("outcomes tried score differently" in line for line in d.lines())


def test_diff_tries_outcomes_where_a_tally_is_won(tmp_path):
    """A formula reading a tally is tried with the tally won:
    Low counting 2 makes a bid of 2 with High 0, Low 1, Jack 0 and no Game (-2 -> 2)."""
    from rulekit.sim.diff import diff_variants
    f = write_variant(tmp_path, "pitch-h2.yaml", "id: pitch-h2\nextends: pitch\nname: Pitch low 2\n"
               "scoring:\n  let:\n    won: \"high + 2 * low + jack + game\"\n")
    d = diff_variants("pitch", f)
    assert d.outcomes == 84 and d.differing == 7
    assert "2, declarer takes 0 tricks, low to the declarer: declarer -2 -> 2" in d.examples


# ---------------------------------------------------------------------- diff's words
def test_diff_words_do_not_stop_at_e_g(tmp_path):
    """A description's first sentence does not end at "e.g." nor inside brackets: `seats`
    read "seat names clockwise from seat 0 (e.g: (not set) -> ..." before."""
    f = tmp_path / "c.yaml"
    f.write_text("extends: fivehundred\nid: fc\nname: Five hundred C\nseats: [A, B, C]\n")
    r = runner.invoke(app, ["diff", "fivehundred", str(f)])
    assert r.exit_code == 1, r.output
    assert ('- seat names clockwise from seat 0 (e.g. N E S W), for display and deal files: (not set) -> '
            '["A", "B", "C"] (seats)') in r.output


def test_diff_words_for_sides():
    """`sides` is said up to its first full stop outside brackets, "e.g. NS: [0, 2]" whole."""
    from rulekit.sim.diff import _meaning, _sentence
    data = load_variant("whist").data
    assert _meaning(("sides",), data) == ("partnerships: side name -> its seats (e.g. NS: [0, 2])", False)
    assert _meaning(("sides", "NS"), data) == ("partnerships: side name -> its seats: NS", False)
    assert _sentence("A rule (i.e. This one. And more), here. Then another.") == "a rule (i.e. This one. And more), here"
