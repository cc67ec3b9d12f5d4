"""``key: null`` in an ``extends:`` file removes the base's key (docs/authoring.md): a null at a
key the schema does not know there is a typo, refused at its file:line:col as any unknown key;
a null at a known key the base does not set removes nothing and is a warning."""
from __future__ import annotations

from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.variant import check_file, load_variant

runner = CliRunner()


def write(tmp_path, text: str):
    f = tmp_path / "house.yaml"
    f.write_text(text)
    return f


def test_a_null_removes_the_bases_key(tmp_path):
    f = write(tmp_path, "extends: fivehundred\nid: h\nphases:\n  play:\n    must_trump: null\n")
    assert check_file(str(f), warnings=True) == []
    assert "must_trump" not in load_variant(str(f)).data["phases"]["play"]


def test_a_null_at_an_unknown_key_is_refused_at_the_key(tmp_path):
    f = write(tmp_path, "extends: fivehundred\nid: h\ntypo: null\nphases:\n  play:\n    must_trumpp: null\n")
    found = [(d.line, d.column, d.path, d.message) for d in check_file(str(f))]
    assert [x[:3] for x in found] == [(3, 1, "typo"), (6, 5, "phases.play.must_trumpp")]
    assert found[0][3].startswith("a null at an unknown key removes nothing: unknown key 'typo' (expected one "
                                  "of: dealer, deck, ")
    assert found[1][3].startswith("a null at an unknown key removes nothing: unknown key 'must_trumpp'; did you "
                                  "mean must_trump? (expected one of: ")
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 1
    assert f"{f}:3:1: typo: a null at an unknown key removes nothing" in r.stdout


def test_a_null_at_a_known_key_the_base_does_not_set_is_a_warning(tmp_path):
    """fivehundred's play phase has no must_overtrump, and it has no phase named widow2: the file
    is valid, each null is said to have no effect, and --strict counts them."""
    f = write(tmp_path, "extends: fivehundred\nid: h\nphases:\n  play:\n    must_overtrump: null\n"
                        "  widow2: null\n")
    found = check_file(str(f), warnings=True)
    assert [(d.line, d.column, d.path) for d in found] == [(5, 5, "phases.play.must_overtrump"),
                                                           (6, 3, "phases.widow2")]
    assert all(d.message.startswith("null removes nothing here: the base variant does not set this key")
               for d in found)
    assert check_file(str(f)) == []
    assert runner.invoke(app, ["validate", str(f)]).exit_code == 0
    assert runner.invoke(app, ["validate", "--strict", str(f)]).exit_code == 1


def test_a_null_in_a_base_file_is_said_there_not_in_the_house_rule(tmp_path):
    """A warning belongs to the file that has the line: a house rule of a house rule is not
    blamed for its base's null."""
    (tmp_path / "base.yaml").write_text("extends: fivehundred\nid: b\nphases:\n  play:\n    must_overtrump: null\n")
    top = tmp_path / "top.yaml"
    top.write_text("extends: base\nid: t\n")
    assert check_file(str(top), warnings=True) == []
    assert len(check_file(str(tmp_path / "base.yaml"), warnings=True)) == 1


def test_a_key_set_again_by_a_more_derived_file_is_no_problem(tmp_path):
    (tmp_path / "base.yaml").write_text("extends: fivehundred\nid: b\nphases:\n  play:\n    must_overtrump: null\n")
    top = tmp_path / "top.yaml"
    top.write_text("extends: base\nid: t\nphases:\n  play:\n    must_overtrump: true\n")
    assert check_file(str(top), warnings=True) == []
    assert load_variant(str(top)).data["phases"]["play"]["must_overtrump"] is True
