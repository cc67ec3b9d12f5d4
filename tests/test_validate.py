"""`rulekit validate`: exit codes, FILE:LINE:COL diagnostics, every problem at once.

The corpus ``tests/broken/*.yaml`` holds small variant files, each based on a
valid variant with exactly one deliberate defect.  Each file's header says what
is wrong and carries a machine-readable line::

    # expect: LINE:COL key phrase of the message

and the test checks that ``rulekit validate FILE`` exits 1 and reports exactly
that one problem, at ``FILE:LINE:COL``, with that phrase.
"""
from __future__ import annotations

import json
from pathlib import Path
import re
import shutil

import pytest
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.variant import builtin_ids, check_file
from rulekit.variant.loader import builtin_dir
from rulekit.variant.yamlpos import load_yaml
from tests.helpers import write_variant

ROOT = Path(__file__).resolve().parent.parent

BROKEN = Path(__file__).resolve().parent / "broken"

VARIANTS = sorted((ROOT / "variants").glob("*.yaml"))

CORPUS = sorted(BROKEN.glob("*.yaml"))

EXPECT = re.compile(r"^# expect: (\d+):(\d+) (.+)$", re.M)

runner = CliRunner()


def run(*args):
    """Invoke the CLI in-process; a traceback escaping would show as a non-exit exception."""
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def expectations(path: Path) -> list[tuple[int, int, str]]:
    text = path.read_bytes().decode("utf-8", "replace")
    return [(int(m[1]), int(m[2]), m[3].strip()) for m in EXPECT.finditer(text)]


def diag_lines(output: str, file: str) -> list[str]:
    """The diagnostic lines (not excerpts) of ``file`` in ``output``."""
    return [ln for ln in output.splitlines() if ln.startswith(file + ":")]


# ---------------------------------------------------------------------------- the corpus
def test_corpus_is_big_enough_and_documented():
    assert len(CORPUS) >= 18
    for path in CORPUS:
        head = path.read_bytes().decode("utf-8", "replace").splitlines()[:3]
        assert head[0].startswith("# Broken: "), path.name
        assert any(ln.startswith("# Based on: ") for ln in head), path.name
        assert len(expectations(path)) == 1, f"{path.name}: one `# expect: LINE:COL phrase` line"


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_broken_file(path):
    [(line, col, phrase)] = expectations(path)
    result = run("validate", path)
    assert result.exit_code == 1, result.output
    found = diag_lines(result.stdout, str(path))
    assert len(found) == 1, f"expected exactly one problem, got:\n{result.stdout}"
    assert found[0].startswith(f"{path}:{line}:{col}: "), found[0]
    assert phrase in found[0], found[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_broken_file_json(path):
    [(line, col, phrase)] = expectations(path)
    result = run("validate", "--format", "json", path)
    assert result.exit_code == 1
    [d] = json.loads(result.stdout)
    assert (d["file"], d["line"], d["column"]) == (str(path), line, col)
    assert phrase in d["message"]


def test_dsl_errors_show_a_caret_under_the_column():
    path = BROKEN / "dsl-folded.yaml"
    out = run("validate", path).stdout.splitlines()
    i = next(i for i, ln in enumerate(out) if ln.startswith(f"{path}:9:20: "))
    src, caret = out[i + 1], out[i + 2]
    assert src.startswith(" 9 | ") and "tricks = 0" in src
    assert caret.index("^") == src.index("=")


# ---------------------------------------------------------------------------- valid files
def test_shipped_variants_validate():
    result = run("validate", *VARIANTS)
    assert result.exit_code == 0, result.output
    assert f"{len(VARIANTS)} files valid" in result.stdout


def test_installed_ids_validate():
    result = run("validate", *builtin_ids())
    assert result.exit_code == 0, result.output


def test_house_rule_extends_a_base_by_relative_path(tmp_path, monkeypatch):
    (tmp_path / "base").mkdir()
    (tmp_path / "house").mkdir()
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(ROOT / "variants" / "fivehundred.yaml", tmp_path / "base" / "five.yaml")
    house = tmp_path / "house" / "must-trump.yaml"
    house.write_text("id: my-house\nextends: ../base/five.yaml\nphases:\n  play:\n    must_trump: true\n")
    monkeypatch.chdir(tmp_path / "elsewhere")  # relative to the file, not to the working folder
    monkeypatch.setenv("RULEKIT_PATH", str(tmp_path / "base"))  # ../base is outside house/
    result = run("validate", "../house/must-trump.yaml")
    assert result.exit_code == 0, result.output
    # and a problem in the base is reported in the base file, at its line
    base = tmp_path / "base" / "five.yaml"
    base.write_text(base.read_text().replace('"10 * tricks"', '"10 * trick"', 1))
    result = run("validate", "../house/must-trump.yaml")
    assert result.exit_code == 1
    assert re.search(r"base/five\.yaml:\d+:\d+: scoring\.defender: unknown variable trick", result.stdout)


def test_house_rule_overrides_point_at_the_house_file(tmp_path):
    house = tmp_path / "h.yaml"
    house.write_text("id: h\nextends: fivehundred\nscoring:\n  defender: \"10 * trick\"\n")
    result = run("validate", house)
    assert f"{house}:4:19: scoring.defender: unknown variable trick" in result.stdout


# ---------------------------------------------------------------------------- all at once
SEVERAL = """\
id: several
extends: fivehundred
ranking:
  suit: "A K Q J 10 9 8 6"
phases:
  deal:
    pattern: "3 3 3 2, widow 3 up"
scoring:
  defender: "10 * trick"
  no_contract: "tricks +"
"""


def test_several_problems_are_all_reported_in_file_order(tmp_path):
    f = tmp_path / "several.yaml"
    f.write_text(SEVERAL)
    result = run("validate", f)
    assert result.exit_code == 1
    found = diag_lines(result.stdout, str(f))
    assert [ln.split(": ")[0] for ln in found] == [f"{f}:4:25", f"{f}:7:14", f"{f}:9:19", f"{f}:10:25"]
    assert "unknown rank 6" in found[0]
    assert "the deal gives out 36 cards" in found[1]
    assert "unknown variable trick" in found[2]
    assert "unexpected end of text" in found[3]
    assert "4 problems in 1 of 1 file" in result.stderr


def test_schema_and_dsl_syntax_problems_come_together(tmp_path):
    f = tmp_path / "mixed.yaml"
    f.write_text("id: mixed\nextends: fivehundred\nrankng: {}\nscoring:\n  defender: \"10 * (tricks\"\n"
                 "dealer:\n  rotation: clockwise\n")
    out = diag_lines(run("validate", f).stdout, str(f))
    assert [ln.split(": ")[0] for ln in out] == [f"{f}:3:1", f"{f}:5:26", f"{f}:7:13"]


def test_problems_of_several_files_follow_the_argument_order():
    a, b = BROKEN / "unknown-rank.yaml", BROKEN / "bad-enum.yaml"
    out = run("validate", a, VARIANTS[0], b).stdout
    assert out.index(str(a)) < out.index(str(b))
    out = run("validate", b, a).stdout
    assert out.index(str(b)) < out.index(str(a))


def test_no_cascade_from_a_broken_let(tmp_path):
    """A let that fails is reported once; formulas using it are not reported again."""
    f = tmp_path / "let.yaml"
    f.write_text("id: let\nextends: fivehundred\nscoring:\n  let:\n    value: \"40 + 20 * strian\"\n")
    found = diag_lines(run("validate", f).stdout, str(f))
    assert len(found) == 1 and "did you mean strain?" in found[0]


# ---------------------------------------------------------------------------- formats, usage
def test_json_format():
    path = BROKEN / "unknown-variable.yaml"
    result = run("validate", "--format", "json", path, VARIANTS[0])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert isinstance(data, list) and len(data) == 1
    assert set(data[0]) >= {"file", "line", "column", "path", "message"}
    assert data[0]["path"] == "scoring.defender"
    assert "^" in data[0]["excerpt"]
    ok = run("validate", "--format", "json", *VARIANTS)
    assert ok.exit_code == 0 and json.loads(ok.stdout) == []


@pytest.mark.parametrize("args", [["validate"], ["validate", "--format", "xml", "variants/rams.yaml"],
                                  ["validate", "--bogus", "variants/rams.yaml"],
                                  ["validate", "--players", "three", "variants/rams.yaml"]])
def test_usage_errors_exit_2(args):
    assert run(*args).exit_code == 2


def test_missing_file(tmp_path):
    """A file that does not exist is a usage error (2) said on stderr, with the closest file of
    its folder; the other files are still checked."""
    missing = tmp_path / "nope.yaml"
    result = run("validate", missing)
    assert result.exit_code == 2
    assert f"error: no such variant or file '{missing}'" in " ".join(result.stderr.split())
    assert result.stdout == ""
    (tmp_path / "rams-house.yaml").write_text("id: x\n")
    result = run("validate", tmp_path / "rams-hose.yaml", "rams")
    assert result.exit_code == 2
    assert f"did you mean {tmp_path / 'rams-house.yaml'}?" in " ".join(result.stderr.split())
    assert result.stdout == "1 file valid\n"


def test_players_setting(tmp_path):
    out = run("validate", "--players", "4", ROOT / "variants" / "fivehundred.yaml")
    assert out.exit_code == 1 and "this variant is for 3 players, not 4" in out.stdout
    out = run("validate", "--players", "5", ROOT / "variants" / "rams.yaml")
    assert out.exit_code == 1 and "5 players is not a choice" in out.stdout
    assert run("validate", "--players", "3", ROOT / "variants" / "rams.yaml").exit_code == 0


# ---------------------------------------------------------------------------- fuzzy inputs
FUZZ = {
    "empty": b"",
    "only-comments": b"# nothing\n",
    "a-list": b"- 1\n- 2\n",
    "a-scalar": b"42\n",
    "binary": bytes(range(256)) * 4,
    "nul": b"id: x\x00y\n",
    "tabs": b"id: x\n\tname: y\n",
    "tab-in-value": b"id: x\nextends: fivehundred\nscoring:\n  defender: \"10\t* trick\"\n",
    "huge-int": b"id: x\nextends: fivehundred\nmatch:\n  target: " + b"9" * 5000 + b"\n",
    "huge-players": b"id: x\nextends: fivehundred\nplayers: 99999999999999999999\n",
    "huge-deal": b"id: x\nextends: fivehundred\nphases:\n  deal:\n    pattern: \"1 x 99999999999999999999\"\n",
    "deep-formula": b"id: x\nextends: fivehundred\nscoring:\n  defender: \"" + b"-" * 3000 + b"1\"\n",
    "long-formula": b"id: x\nextends: fivehundred\nscoring:\n  defender: \"" + b"1 + " * 2000 + b"1\"\n",
    "deep-yaml": b"id: x\nname: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "aliases": b"a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + b"".join(
        b"%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n" % ((98 + i,) * 2 + (97 + i,) * 10)
        for i in range(8)),
    "recursive-alias": b"a: &a [*a]\n",
    "two-documents": b"id: x\n---\nid: y\n",
    "python-tag": b"id: !!python/object:os.system x\n",
    "bom": b"\xef\xbb\xbfid: x\n",
    "crlf-error": b"id: x\r\nextends: fivehundred\r\nscoring:\r\n  defender: \"10 * trick\"\r\n",
    "extends-number": b"id: x\nextends: 5\n",
    "extends-empty": b"id: x\nextends: ''\n",
    "extends-dir": b"id: x\nextends: ./\n",
    "key-list": b"? [a, b]\n: 1\n",
    "date": b"id: 2024-01-01\nextends: fivehundred\n",
    "float-players": b"id: x\nextends: rams\nplayers: 3.5\n",
    "null-phases": b"id: x\nextends: fivehundred\nphases: ~\n",
    "no-phases-left": b"id: x\nextends: fivehundred\nphases:\n  deal: ~\n  auction: ~\n  exchange: ~\n  trump: ~\n  play: ~\n",
    "merge-key": b"id: x\nextends: fivehundred\n<<: {name: y}\n",
    "extends-nul": b"id: x\nextends: \"a\\0b\"\n",
    "extends-long-name": b"id: x\nextends: " + b"a" * 5000 + b"\n",
    "extends-long-path": b"id: x\nextends: " + b"a/" * 3000 + b"b.yaml\n",
}


@pytest.mark.parametrize("name", list(FUZZ))
def test_fuzzy_input_gives_a_clean_diagnostic(tmp_path, name):
    f = tmp_path / f"{name}.yaml"
    f.write_bytes(FUZZ[name])
    result = run("validate", f)
    assert result.exit_code == 1, result.output
    lines = diag_lines(result.stdout, str(f))
    assert lines, result.output
    for ln in lines:
        assert re.match(rf"{re.escape(str(f))}:\d+:\d+: \S", ln), ln
    assert "Traceback" not in result.output


def test_a_directory_is_not_a_variant(tmp_path):
    result = run("validate", tmp_path)
    assert result.exit_code == 2 and f"error: {tmp_path}: is a folder" in result.stderr


@pytest.mark.parametrize("arg, phrase", [("z" * 5000, "no such variant or file"), ("/dev/null", "not a regular file"),
                                         ("a\0b.yaml", "no such variant or file")])
def test_odd_paths_on_the_command_line(arg, phrase):
    result = run("validate", arg)
    assert result.exit_code == 2 and phrase in result.stderr


def test_check_file_never_raises_on_mutations(tmp_path):
    """Every single-character deletion in a block of a real variant gives diagnostics, never a crash."""
    text = (ROOT / "variants" / "fivehundred.yaml").read_text()
    start = text.index("phases:")
    f = tmp_path / "m.yaml"
    for i in range(start, start + 400, 7):
        f.write_text(text[:i] + text[i + 1:])
        check_file(str(f))  # must not raise


# ---------------------------------------------------------------------------- positions in YAML strings
STYLES = {
    "plain": 'a: 10 * trics + 1\n',
    "double": 'a: "10 * trics + 1"\n',
    "single": "a: '10 * trics + 1'\n",
    "escapes": 'a: "\\u0031\\x30 * trics"\n',
    "plain-two-lines": 'a: 10 * tricks +\n   level * trics\n',
    "double-two-lines": 'a: "10 * tricks +\n     level * trics"\n',
    "escaped-break": 'a: "10 * tricks + \\\n     level * trics"\n',
    "literal": 'a: |\n  10 * tricks +\n    level * trics\n',
    "folded": 'a: >-\n  10 * tricks +\n  level * trics\nb: 1\n',
    "folded-blank-first": 'a: >\n\n  10 * trics\n',
    "flow": 'a: {x: 1, y: "10 * trics"}\n',
    "unicode-before": 'c: "é€"\na: "é€" \nd: "1 + trics"\n',
    "crlf": 'z: 1\r\na: "10 * trics"\r\n',
}


@pytest.mark.parametrize("name", list(STYLES))
def test_dsl_positions_map_through_every_scalar_style(name):
    from rulekit.dsl import compile_expr
    from rulekit.errors import DSLError
    text = STYLES[name]
    doc = load_yaml("t.yaml", text)
    path = next(p for p, v in _walk(doc.data) if isinstance(v, str) and "trics" in v)
    value = doc.data
    for k in path:
        value = value[k]
    with pytest.raises(DSLError) as e:
        compile_expr(value, ["tricks", "level"])
    line, col = doc.positions[path].dsl_offset(e.value.line, e.value.column)
    src = re.split("\r\n|\n", text)[line - 1]
    assert src[col - 1:].startswith("trics"), (line, col, src)


def _walk(v, path=()):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _walk(x, path + (k,))
    else:
        yield path, v


def test_end_of_text_points_just_past_the_last_character():
    doc = load_yaml("t.yaml", 'a: "1 +"\n')
    from rulekit.dsl import compile_expr
    from rulekit.errors import DSLError
    with pytest.raises(DSLError) as e:
        compile_expr(doc.data["a"], [])
    assert doc.positions[("a",)].dsl_offset(e.value.line, e.value.column) == (1, 8)  # the closing quote


def test_long_lines_show_a_window_around_the_column(tmp_path):
    f = tmp_path / "long.yaml"
    f.write_text('id: x\nextends: fivehundred\nscoring:\n  defender: "' + "1 + " * 40 + 'trick"\n')
    out = run("validate", f).stdout.splitlines()
    i = next(i for i, ln in enumerate(out) if ln.startswith(f"{f}:4:"))
    src, caret = out[i + 1], out[i + 2]
    assert len(src) < 130 and src[caret.index("^"):].startswith("trick")


def test_a_user_folder_named_variants_resolves_extends_next_to_the_file(tmp_path, monkeypatch):
    (tmp_path / "variants").mkdir()
    shutil.copy(ROOT / "variants" / "rams.yaml", tmp_path / "variants" / "mybase.yaml")
    (tmp_path / "variants" / "mine.yaml").write_text("id: mine\nextends: mybase\n")
    monkeypatch.chdir(tmp_path)
    assert run("validate", "variants/mine.yaml").exit_code == 0


# ---------------------------------------------------------------- the house file's deck
def test_house_deck_minus_is_named_as_the_cause(tmp_path):
    """A hearts house rule removing the 2s was reported only at
    the base file, with a self-contradicting message (JK offered in a deck without jokers, "a
    card such as 2C" for 2C).  Now the house file's minus line is named as the cause and the
    card message says the deck leaves the card out."""
    f = write_variant(tmp_path, "hm.yaml", "id: hm\nextends: hearts\nname: Hearts no twos\n"
                                    "deck: {minus: [2C, 2D, 2S, 2H]}\n")
    got = [(d.file == f, d.line, d.column, d.message) for d in check_file(f)]
    base = next(i for i, ln in enumerate(open(builtin_dir() / "hearts.yaml", encoding="utf-8").read().splitlines(), 1) if "lead: 2C" in ln)
    lead = ("'2C' is not a card of this deck: the deck leaves it out (expected one of the cards it holds, "
            "such as 3C)")
    assert (True, 4, 15, f"this change of the base file's deck breaks its rule at variants/hearts.yaml:{base}:25 "
            "(phases.play.first_trick.lead; override that rule here too, or keep the deck): " + lead) in got
    assert (False, base, 25, lead) not in got   # said once, at its cause
    assert not any("JK" in m or "such as 2C" in m for *_x, m in got)


def test_inherited_rule_failing_is_said_at_the_house_files_extends(tmp_path):
    """``extends: hearts`` with ``players: 3`` breaks the base's deal pattern: the problem is said
    once, at the house file's own ``extends:`` line, naming the inherited rule's place (the base
    file may not be in the user's folder, and it is right by itself)."""
    f = write_variant(tmp_path, "h3.yaml", "id: h3\nextends: hearts\nname: Hearts three\nplayers: 3\n")
    base = next(i for i, ln in enumerate(open(builtin_dir() / "hearts.yaml", encoding="utf-8").read()
                                         .splitlines(), 1) if ln.strip().startswith("pattern:"))
    got = [(d.file == f, d.line, d.column, d.message) for d in check_file(f)]
    deal = "the deal gives out 39 cards (3 players x 13) but the deck has 52 (expected the pattern to use every card once)"
    assert (True, 2, 10, f"a rule inherited from variants/hearts.yaml:{base}:14 (phases.deal.pattern) fails with "
                         f"this file's settings (override it here, or change them): {deal}") in got
    assert (False, base, 14, deal) not in got


def test_docs_broken_example_reports_each_problem_once():
    """`docs/examples/broken.yaml` has four mistakes and `validate` says four problems, each
    once: the inherited `discard: 3` that its 4-card widow breaks only at its `extends:` line."""
    result = run("validate", ROOT / "docs" / "examples" / "broken.yaml")
    found = diag_lines(result.stdout, str(ROOT / "docs" / "examples" / "broken.yaml"))
    assert [ln.split(": ")[0].rsplit(":", 2)[1:] + [ln.split(": ")[1]] for ln in found] == [
        ["4", "10", "extends"], ["8", "14", "phases.deal.pattern"], ["10", "19", "scoring.defender"],
        ["12", "34", "match.immediate_win"]]
    assert "variants/fivehundred.yaml:43:14 (phases.exchange.discard)" in found[0]
    assert "variants/fivehundred.yaml" not in "".join(ln.split(":")[0] for ln in result.stdout.splitlines())
    assert "4 problems in 1 of 1 file" in result.stderr


def test_a_base_files_own_problem_is_said_once_in_the_base(tmp_path):
    """A problem the base file has by itself (`discard: 4` after a 3-card widow) is reported at
    the base's line only; the same rule broken by the house file's widow is reported at the
    house file's `extends:` only."""
    base = write_variant(tmp_path, "base.yaml", (ROOT / "variants" / "fivehundred.yaml").read_text()
                         .replace("discard: 3", "discard: 4", 1))
    line = next(i for i, ln in enumerate(open(base, encoding="utf-8"), 1) if "discard: 4" in ln)
    house = write_variant(tmp_path, "house.yaml", "id: h\nextends: base.yaml\nphases:\n  play:\n"
                          "    must_trump: true\n")
    got = [(d.file, d.line, d.column, d.message) for d in check_file(house)]
    assert got == [(base, line, 14, "discarding 4 after taking the 3-card widow leaves the declarer 9 cards and "
                    "the others 10 (expected discard: 3)")]
    wide = write_variant(tmp_path, "wide.yaml", "id: w\nextends: fivehundred\nphases:\n  deal:\n"
                         "    pattern: \"3 3 3 1, widow 4 up\"\n")
    assert [(d.file, d.line, d.path) for d in check_file(wide)] == [(wide, 2, "extends"), (wide, 5, "phases.deal.pattern")]


def test_a_phase_without_kind_gets_one_message(tmp_path):
    """A phase written without `kind:` is refused once, with the kinds it may be, not with every
    kind's unknown keys."""
    from rulekit.engine.phases import REGISTRY
    f = tmp_path / "v.yaml"
    f.write_text("id: x\ndeck: {suits: [S], ranks: [A]}\nranking: {suit: A}\nphases:\n  play: {must_trump: true}\n")
    r = run("validate", f)
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines == [f"{f}:5:9: phases.play: missing required key 'kind', what the phase does (expected one of: "
                     f"{', '.join(REGISTRY)})"]


@pytest.mark.parametrize("value, found", [("[fivehundred]", "found a list"), ("{a: 1}", "found a mapping"),
                                          ("5", "found number 5"), ("", "found nothing (an empty value)")])
def test_an_extends_of_the_wrong_type_is_one_problem_at_its_value(tmp_path, value, found):
    """An ``extends:`` that is no text is not followed: one type error at the value, not the keys
    its base would have given (deck, ranking, phases) said missing at 1:1."""
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {value}\nname: House\n")
    [d] = check_file(str(path))
    assert (d.line, d.column, d.path) == (1, 10 if value else 9, "extends")
    assert d.message.startswith(f"wrong type: {found} (expected text: id or relative path of the base variant")


def test_a_duplicate_key_is_a_structure_error_before_any_meaning_check(tmp_path):
    """A key written twice is said at its second occurrence, and the meaning checks (here the
    deal, which the second ``players: 4`` would break) wait until the structure is right."""
    tiny = (ROOT / "docs" / "examples" / "tiny.yaml").read_text()
    path = tmp_path / "tiny.yaml"
    path.write_text(tiny + "players: 4\n")
    last = len(tiny.splitlines()) + 1
    first = next(i for i, ln in enumerate(tiny.splitlines(), 1) if ln.startswith("players:"))
    [d] = check_file(str(path))
    assert (d.line, d.column, d.path) == (last, 1, "players")
    assert d.message == (f"duplicate key 'players' (first defined at line {first}, column 1; "
                         f"expected each key once in a mapping)")


def test_a_duplicate_key_in_a_base_file_blocks_the_meaning_checks_too(tmp_path):
    base = (ROOT / "docs" / "examples" / "tiny.yaml").read_text() + "players: 4\n"
    (tmp_path / "base.yaml").write_text(base)
    (tmp_path / "house.yaml").write_text("extends: base.yaml\nname: House\n")
    found = check_file(str(tmp_path / "house.yaml"))
    assert [d.message.split(" (")[0] for d in found] == ["the base variant 'base.yaml' has 1 problem",
                                                         "duplicate key 'players'"]
