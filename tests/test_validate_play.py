"""A file that validates plays right; what cannot play is refused with file:line:col.

Issue 12 cases 8 (validate side), 9 and 10; issue 13 case 4.  The broken files
for these cases are in ``tests/broken/`` (checked by tests/test_validate.py);
here are the warnings, ``--strict``, and the files that must stay valid.
"""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.engine.state import State
from rulekit.variant import VariantWarning, check_file, load_variant

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
    """issue 12 case 9: top_led without top, redouble without double, ties without target
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
    """issue 12 case 9: --strict makes a warning fail the file (exit 1)."""
    f = write(tmp_path, "no-effect.yaml", NO_EFFECT)
    result = run("validate", "--strict", f)
    assert result.exit_code == 1
    assert "3 problems in 1 of 1 file" in result.stderr
    data = json.loads(run("validate", "--format", "json", f).stdout)
    assert [(d["line"], d["column"], d["severity"]) for d in data] == [(4, 3, "warning"), (8, 5, "warning"),
                                                                       (10, 3, "warning")]


def test_other_options_with_no_effect(tmp_path):
    """issue 12 case 9, the kind: every option that needs another one that is absent."""
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
    """issue 12 case 10: the static bounds flag `100 / tricks`, but run on every possible
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
    """issue 12 case 10 / issue 13 case 4: removing the match block of the duplicate house rule
    brings back the base's rubber, but no part of the duplicate score counts toward a game: the
    match could never end (it played forever); validate refuses it."""
    text = (ROOT / "variants" / "bridge-duplicate.yaml").read_text()
    text = text[:text.index("\nmatch:")] + "\n"
    f = write(tmp_path, "bridge-duplicate.yaml", text)   # extends: bridge (the installed file)
    d, here = sorted(check_file(str(f)), key=lambda x: x.file == str(f))
    assert d.file.endswith("variants/bridge.yaml") and d.path == "match.rubber"
    assert "no part of the score counts toward a game" in d.message
    # also said at the house file's own extends: line (user pass 2, finding 8)
    assert here.file == str(f) and here.path == "extends" and d.message in here.message


def test_float_counts_are_refused_at_their_position(tmp_path):
    """issue 12 case 10: `players` choice 4.0 and `dealer.first.seat: 0.0` were TypeErrors in play."""
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
    """issue 12 case 8 (validate side): a partnership game with sides and match.target: 500
    validates with no false refusal (helper C makes it play), and keeps its target."""
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
