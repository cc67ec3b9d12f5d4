"""``rulekit diff``: which rules differ between two variant files, in rule words (issue 9)."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.sim.diff import diff_variants, scored_differently

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_eight_trick_slam_names_the_one_rule():
    """issue 9 "done when": the slam reading of rules/fivehundred.md [S3] is the only difference,
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
    """issue 9: the must-trump house rule ([T2]) said with the schema's description, old -> new."""
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
