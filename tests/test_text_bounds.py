"""Every text of a variant file is bounded at validation by the constants records and pads are
read with (:mod:`rulekit.text`), so a game of a variant that validates always writes a record
that replays: ids by ``MAX_ID``, keys and seat names by ``MAX_NAME``, other strings by
``MAX_TEXT``; a seat name holds no control or format character (a pad refuses one)."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from rulekit import records
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.text import MAX_ID, MAX_NAME, MAX_TEXT
from rulekit.variant import check_file, load_variant
from tests.helpers import play_random

runner = CliRunner()


def _house(tmp_path, body: str):
    f = tmp_path / "house.yaml"
    f.write_text("extends: fivehundred\n" + body)
    return f


def test_an_id_past_the_bound_is_refused_at_its_position(tmp_path):
    f = _house(tmp_path, "id: " + "a" * (MAX_ID + 1) + "\n")
    [d] = check_file(str(f))
    assert (d.line, d.column, d.path) == (2, 5, "id")
    assert d.message.endswith(f"is {MAX_ID + 1} characters long (expected an id of at most {MAX_ID})")


def test_the_longest_id_that_validates_writes_a_record_that_replays(tmp_path):
    """A game of a variant whose id has MAX_ID characters saves, loads and replays."""
    f = _house(tmp_path, "id: " + "a" * MAX_ID + "\n")
    assert check_file(str(f)) == []
    s = play_random(State(load_variant(str(f)), seed=4, max_hands=1), seed=4)
    rec = tmp_path / "g.json"
    records.save(rec, records.to_record(s))
    again = records.replay(records.load(rec))
    assert again.history == s.history and again.variant.id == "a" * MAX_ID
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code == 0, r.output


def test_keys_seat_names_and_texts_past_their_bounds_are_refused(tmp_path):
    f = _house(tmp_path, "scoring:\n  let:\n    " + "k" * (MAX_NAME + 1) + ': "1"\n'
               'seats: [' + "N" * (MAX_NAME + 1) + ', "E\\u202e", W]\n'
               "source: " + "s" * (MAX_TEXT + 1) + "\n")
    found = {(d.line, d.path): d.message for d in check_file(str(f))}
    assert found[(4, "scoring.let." + "k" * (MAX_NAME + 1))].endswith(
        f"is {MAX_NAME + 1} characters long (expected a name of at most {MAX_NAME})")
    assert found[(5, "seats.0")].endswith(f"(expected a seat name of at most {MAX_NAME})")
    assert found[(5, "seats.1")].startswith("the seat name 'E\\u202e' holds a control or format character")
    assert found[(6, "source")].endswith(f"(expected a text of at most {MAX_TEXT})")


def test_a_record_with_an_id_past_the_bound_is_refused_with_the_reason(tmp_path):
    s = play_random(State(load_variant("fivehundred"), seed=1, max_hands=1), seed=1)
    data = records.to_record(s)
    data["variant"] = "a" * (MAX_ID + 1)
    rec = tmp_path / "g.json"
    rec.write_text(json.dumps(data))
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code != 0 and f"expected at most {MAX_ID}" in r.output
