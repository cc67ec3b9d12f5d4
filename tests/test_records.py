"""Game records (DESIGN.md "Records"): exact replay, atomic saving, clear errors on bad files."""
from __future__ import annotations

import io
import json
import os
import random

import pytest
from rich.console import Console

from rulekit import records
from rulekit.bots import RandomBot
from rulekit.cli.game import Game
from rulekit.engine import State, state as state_module
from rulekit.errors import RecordError
from rulekit.variant import load_variant


def random_state(variant, seed=1, actions=60, **kw):
    st = State(variant, seed=seed, **kw)
    rng = random.Random(seed)
    for _ in range(actions):
        if st.is_over:
            break
        legal = st.legal_actions()
        st.apply(legal[int(rng.random() * len(legal))])
    return st


def test_round_trip_replays_exactly(tmp_path, fivehundred):
    st = random_state(fivehundred, seed=3, actions=80)
    f = tmp_path / "r.json"
    records.save(f, records.to_record(st, ["human", "bot", "random"]))
    rec = records.load(f)
    assert rec["format"] == records.FORMAT and rec["variant"] == "fivehundred"
    assert rec["players"] == ["human", "bot", "random"]
    again = records.replay(rec)
    assert again.history == st.history
    assert again.sheet.as_dict() == st.sheet.as_dict()
    assert records.sheet_mismatch(rec, again) == ""
    assert records.replay(rec, upto=5).history == st.history[:5]


def test_round_trip_three_player_rams(tmp_path):
    v = load_variant("rams", players=3)
    st = random_state(v, seed=2, actions=45)
    f = tmp_path / "rams.json"
    records.save(f, records.to_record(st))
    again = records.replay(records.load(f))
    assert again.variant.players == 3 and again.history == st.history


def test_explicit_deals_round_trip(tmp_path, fivehundred):
    order = list(range(fivehundred.deck.size))
    random.Random(9).shuffle(order)
    st = State(fivehundred, seed=0, deals=[order], dealer=1)
    for _ in range(5):
        st.apply(st.legal_actions()[0])
    rec = records.to_record(st, explicit_deals=True)
    assert rec["deals"][0] == [fivehundred.deck.name(c) for c in order]
    assert records.replay(json.loads(json.dumps(rec))).history == st.history


def test_variant_from_a_file_replays_from_anywhere(tmp_path, monkeypatch):
    house = tmp_path / "rules" / "house.yaml"
    house.parent.mkdir()
    house.write_text("id: my-house\nextends: fivehundred\nname: My house\nmatch:\n  target: 300\n")
    v = load_variant(str(house))
    st = random_state(v, seed=4, actions=40)
    rec = records.to_record(st)
    # the record carries the merged variant and only the file's name
    assert rec["variant"] == "my-house" and rec["variant_file"] == "house.yaml" and "target: 300" in rec["variant_text"]
    monkeypatch.chdir(tmp_path / "rules")
    assert records.replay(rec).history == st.history
    house.write_text(house.read_text().replace("300", "250"))
    assert records.replay(rec).history == st.history       # the file is not read
    rec["variant_text"] = rec["variant_text"].replace("300", "250")
    with pytest.raises(RecordError, match="does not match its hash"):
        records.replay(rec)


# ---------------------------------------------------------------------- atomic saving
def test_save_is_atomic_when_serialising_fails(tmp_path):
    f = tmp_path / "g.json"
    f.write_text('{"old": true}')
    with pytest.raises((TypeError, ValueError)):
        records.save(f, {"bad": object()})
    assert f.read_text() == '{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_save_is_atomic_when_the_rename_fails(tmp_path, monkeypatch):
    f = tmp_path / "g.json"
    f.write_text('{"old": true}')

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(records.os, "replace", boom)
    with pytest.raises(OSError):
        records.save(f, {"new": True})
    assert f.read_text() == '{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_save_needs_its_folder_and_makes_a_new_record_private(tmp_path):
    """A new record is the owner's only (0600: it holds the seed and, in play, every hidden card),
    whatever the umask; a record it replaces keeps the permissions its owner gave it."""
    f = tmp_path / "a" / "b" / "g.json"
    with pytest.raises(FileNotFoundError):     # a mistyped path creates no folder
        records.save(f, {"x": 1})
    assert not (tmp_path / "a").exists()
    f.parent.mkdir(parents=True)
    old = os.umask(0o022)
    try:
        records.save(f, {"x": 1})
    finally:
        os.umask(old)
    assert json.loads(f.read_text()) == {"x": 1}
    assert f.stat().st_mode & 0o777 == 0o600
    f.chmod(0o640)
    records.save(f, {"x": 2})
    assert f.stat().st_mode & 0o777 == 0o640      # an existing file keeps its permissions


# ---------------------------------------------------------------------- bad files
@pytest.mark.parametrize("content, message", [
    (b"", "the file is empty"),
    (b"{nope", "not valid JSON"),
    (b'{"a": 1,\n "b": }', ":2:"),
    (b"\xff\xfe\x00\x01", "not UTF-8"),
    (b"[" * 100000 + b"]" * 100000, "JSON"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1' + b"1" * 5000 + b', "actions": []}',
     "JSON"),
    (b"[]", "not a rulekit record"),
    (b'{"format": "something/2"}', "not a rulekit record"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1}', "no 'actions'"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": "x", "actions": []}', "seed"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": true, "actions": []}', "seed"),
    (b'{"format": "rulekit-record/1", "variant": 3, "seed": 1, "actions": []}', "variant"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1, "actions": {}}', "actions"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1, "actions": [[0, 1]]}', "action 0"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1, "actions": [], "names": "ab"}',
     "names"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1, "actions": [], "players": ["cat"]}',
     "controller"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1, "actions": [], "deals": [[true]]}',
     "deals"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1, "actions": [], "settings": []}',
     "settings"),
    (b'{"format": "rulekit-record/1", "variant": "fivehundred", "seed": 1, "actions": [], "sheet": 5}', "sheet"),
])
def test_load_refuses_bad_files(tmp_path, content, message):
    f = tmp_path / "bad.json"
    f.write_bytes(content)
    with pytest.raises(RecordError) as e:
        records.load(f)
    assert message in str(e.value) and str(f) in str(e.value)


def test_load_missing_file_and_folder(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        records.load(tmp_path / "none.json")
    with pytest.raises(RecordError, match="folder"):
        records.load(tmp_path)


def _base(fivehundred, **over):
    st = random_state(fivehundred, seed=5, actions=20)
    rec = json.loads(json.dumps(records.to_record(st)))
    rec.update(over)
    return rec


@pytest.mark.parametrize("change, message", [
    (lambda r: r["actions"].insert(0, [r["actions"][0][0], "play ZZ"]), "action 0 (play ZZ by P0, seat 0) does not replay: P0 would be told"),
    (lambda r: r["actions"].insert(0, [9, "pass"]), "is by seat 9"),
    (lambda r: r.update(variant="nosuch"), "cannot be loaded"),
    (lambda r: r.update(variant_hash="f" * 16), "has changed"),
    (lambda r: r.update(names=["a", "b"]), "2 names"),
    (lambda r: r.update(start=[0]), "starting scores"),
    (lambda r: r.update(dealer=-1), "dealer"),
    (lambda r: r.update(deals=[["AS", "AS"]]), "cannot start the match"),
    (lambda r: r.update(settings={"players": 7}),
     'x.json: "settings": {"players": 7} is not a number of players the variant offers (expected 3)'),
])
def test_replay_refuses_records_that_do_not_replay(fivehundred, change, message):
    rec = _base(fivehundred)
    change(rec)
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        records.replay(rec, source="x.json")


def test_an_illegal_card_in_a_record_is_said_with_the_seat_that_plays_it(fivehundred):
    """An edited record whose card the seat does not hold: the message names the seat (the
    engine's "you" is the player at the prompt, not the reader of the replay)."""
    rec = _base(fivehundred)
    i = next(k for k, (_, text) in enumerate(rec["actions"]) if text.startswith("play "))
    st = records.replay(rec, upto=i)
    seat = st.to_move
    deck = fivehundred.deck
    card = next(c for c in range(deck.size) if not st.hand.hands[seat] >> c & 1)
    rec["actions"][i] = [seat, f"play {deck.name(card)}"]
    with pytest.raises(RecordError) as e:
        records.replay(rec, source="x.json")
    assert str(e.value) == (f"x.json: action {i} (play {deck.name(card)} by P{seat}, seat {seat}) does not replay: "
                            f"P{seat} would be told \"you do not hold {deck.pretty(card)}\"")


def test_a_record_player_count_the_variant_does_not_offer_names_the_field():
    """settings.players out of the variant's choices: the record's field is named (not the
    --players option of the command line), with the counts the variant offers."""
    v = load_variant("rams")
    rec = records.to_record(State(v, seed=1))
    rec["settings"] = {"players": 400}
    with pytest.raises(RecordError) as e:
        records.replay(rec, source="x.json")
    choices = v.player_choices
    assert len(choices) > 1
    assert str(e.value) == (f'x.json: "settings": {{"players": 400}} is not a number of players the variant '
                            f'offers (expected {", ".join(map(str, choices[:-1]))} or {choices[-1]})')


def test_actions_after_the_end_are_refused():
    st = State(load_variant("fivehundred-minus-500"), seed=1)   # ends fast in random play
    rng = random.Random(0)
    while not st.is_over and len(st.history) < 5000:
        legal = st.legal_actions()
        st.apply(legal[int(rng.random() * len(legal))])
    if not st.is_over:
        pytest.skip("random match did not end")
    rec = records.to_record(st)
    rec["actions"].append([0, "pass"])
    with pytest.raises(RecordError, match="after the end of the match"):
        records.replay(rec)


def test_sheet_mismatch_names_the_hand(fivehundred):
    st = random_state(fivehundred, seed=6, actions=80)
    rec = json.loads(json.dumps(records.to_record(st)))
    assert st.sheet.rows, "the random game should finish a hand in 80 actions"
    rec["sheet"]["rows"][0]["entries"][0] += 10
    assert "hand 1 differs" in records.sheet_mismatch(rec, records.replay(rec))
    rec["sheet"]["rows"] = []
    assert "rows" in records.sheet_mismatch(rec, records.replay(rec))


# --------------------------------------------------------------------------- linear history
def test_history_converts_each_action_once(monkeypatch):
    """Reading ``State.history`` after every move converts only the new
    action (it rebuilt the whole list each time: quadratic ``--auto`` games)."""
    calls = []
    real = state_module.history_entry
    monkeypatch.setattr(state_module, "history_entry", lambda *a: calls.append(1) or real(*a))
    s = State(load_variant("fivehundred"), seed=3, max_hands=3)
    bot = RandomBot(3)
    moves = 0
    while not s.is_over:
        seat = s.to_move
        action = bot.act(s.observation(seat))
        s.apply(action)
        moves += 1
        before = len(calls)
        assert s.history[-1] == (seat, action.text)
        assert len(calls) - before == 1            # one conversion per move, whatever the length
    assert len(calls) == moves == len(s.history)
    assert s.clone().history == s.history           # a clone keeps its own history


def test_auto_game_converts_history_a_constant_number_of_times_per_move(monkeypatch):
    """A bot-only CLI game (``--auto --quiet``) converts each action to its
    history text at most once over the whole match (the record at the end)."""
    calls = []
    real = state_module.history_entry
    monkeypatch.setattr(state_module, "history_entry", lambda *a: calls.append(1) or real(*a))
    s = State(load_variant("fivehundred"), seed=5, max_hands=4)
    g = Game(s, ["random"] * 3, Console(file=io.StringIO()), quiet=True)
    assert g.run() == 0
    assert s.actions_taken > 100 and len(calls) <= s.actions_taken
