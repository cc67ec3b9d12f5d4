"""A record saved during play holds no hidden card and not the seed (fair play): its secret part
(the seed, explicit deals, the hand in progress, undos) is sealed with the key file beside it
(rulekit.sealing) until the match is over."""
from __future__ import annotations

import json
import os
import random
import re
import stat

import pytest
from typer.testing import CliRunner

from rulekit import records, sealing
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.errors import RecordError
from rulekit.variant import load_variant

SEED = 8_123_456_789_012_345   # (digits no other field of a record holds)


def _named(text: str, card: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", text) is not None


def _mid_first_hand(v, rng: random.Random) -> State:
    """Five Hundred, hand 1: the auction, the declarer's discard and three tricks played."""
    s = State(v, seed=SEED)
    while s.phase_kind != "tricks" or len(s.hand.tricks) < 3:
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    return s


def test_a_record_saved_in_the_first_hand_names_no_unplayed_card_and_not_the_seed(tmp_path):
    """Mid-hand (a discard made, three tricks played): the record's text names no card that is
    not yet played — neither a hand's, nor the discard's, nor a played one of the hand in
    progress — and not the seed; the key file is 0600; loading unseals the same record, which
    replays to the same state."""
    v = load_variant("fivehundred")
    s = _mid_first_hand(v, random.Random(2))
    rec = records.to_record(s, explicit_deals=True)
    path = tmp_path / "g.json"
    records.save_game(path, rec, played=len(s.record.codes))
    text = path.read_text()
    assert str(SEED) not in text and json.loads(text)["seed"] is None
    assert any(a.startswith("discard") for _seat, a in s.history)
    for c in range(v.deck.size):
        assert not _named(text, v.deck.name(c)), v.deck.name(c)
    assert stat.S_IMODE(os.stat(sealing.key_path(path)).st_mode) == 0o600
    back = records.load(path)
    assert back == json.loads(json.dumps(rec))
    assert records.replay(back).history == s.history


def test_a_later_hand_keeps_the_finished_hands_plain_and_seals_the_one_in_progress(tmp_path):
    """In hand 2 the finished hand's actions stay readable; those of hand 2 and the seed do not;
    the match over, the record is plain (its seed shown) and the key file is gone."""
    v = load_variant("fivehundred")
    s = State(v, seed=SEED)
    rng = random.Random(3)
    while s.hands_played < 1 or len(s.hand.tricks) < 2:
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    played = len(s.record.codes)
    path = tmp_path / "g.json"
    records.save_game(path, records.to_record(s), played=played)
    stored = json.loads(path.read_text())
    assert [tuple(a) for a in stored["actions"]] == s.history[:played] and played < len(s.history)
    assert str(SEED) not in path.read_text()
    assert records.replay(records.load(path)).history == s.history
    while not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    records.save_game(path, records.to_record(s), played=None)
    assert json.loads(path.read_text())["seed"] == SEED and not sealing.key_path(path).exists()


def test_a_sealed_record_without_its_key_or_changed_is_refused(tmp_path):
    """Without its key file, with another game's key, or with a public action changed, a sealed
    record is refused with a message naming the key file."""
    v = load_variant("fivehundred")
    s = _mid_first_hand(v, random.Random(4))
    path = tmp_path / "g.json"
    records.save_game(path, records.to_record(s), played=len(s.record.codes))
    other = tmp_path / "h.json"
    records.save_game(other, records.to_record(s), played=len(s.record.codes))
    os.replace(sealing.key_path(other), sealing.key_path(path))
    with pytest.raises(RecordError, match=r"does not match its key file g\.json\.key"):
        records.load(path)
    sealing.key_path(path).unlink()
    with pytest.raises(RecordError, match=r"its key file g\.json\.key is missing"):
        records.load(path)


def test_play_saves_a_game_in_progress_sealed_and_resumes_it(tmp_path):
    """``rulekit play --save``: quitting mid-hand leaves a record without the seed and without
    the hand's actions; ``--resume`` plays it on from where it stood."""
    save = tmp_path / "g.json"
    runner = CliRunner()
    r = runner.invoke(app, ["play", "fivehundred", "--players", "human,random,random", "--seed", str(SEED),
                            "--save", str(save)], input="pass\nquit\n")
    assert r.exit_code == 0, r.output
    stored = json.loads(save.read_text())
    assert stored["seed"] is None and stored["actions"] == [] and "sealed" in stored
    assert str(SEED) not in save.read_text()
    first = records.load(save)["actions"]
    assert [0, "pass"] in first
    r = runner.invoke(app, ["play", "--resume", str(save)], input="quit\n")
    assert r.exit_code == 0, r.output
    assert records.load(save)["actions"][:len(first)] == first


def test_two_processes_creating_one_sealed_record_share_the_key_that_stays(tmp_path, monkeypatch):
    """Two processes create the same record at once: the second makes its key file while the
    first has just saved its record with its own. Key creation is exclusive, so the second takes
    the key that is there, its exclusive save fails, and the record that stays opens with the key
    file that stays (before, the second's key replaced the first's: the record was lost)."""
    v = load_variant("fivehundred")
    path = tmp_path / "game.json"
    first = _mid_first_hand(v, random.Random(1))
    second = _mid_first_hand(v, random.Random(2))
    real = sealing.new_key
    calls = []

    def racing_key():
        key = real()
        if not calls:           # the second process, between its checks and its key file:
            calls.append(1)     # the first one saves its whole record now
            records.save_game(path, records.to_record(first), len(first.record.codes), exclusive=True)
        return key
    monkeypatch.setattr(sealing, "new_key", racing_key)
    with pytest.raises(FileExistsError):
        records.save_game(path, records.to_record(second), len(second.record.codes), exclusive=True)
    stored = json.loads(path.read_text())
    key = sealing.read_key(sealing.key_path(path), str(path))
    mine = records.to_record(first)["actions"]
    assert mine != records.to_record(second)["actions"]
    assert sealing.unseal(stored, key, str(path))["actions"] == mine


def test_an_exclusive_key_file_is_never_replaced(tmp_path):
    """``write_key(exclusive=True)`` refuses an existing key file and leaves it, and no
    temporary file stays behind; ``key_for`` reads the key that is there."""
    path = tmp_path / "g.json.key"
    k1, k2 = sealing.new_key(), sealing.new_key()
    sealing.write_key(path, k1, exclusive=True)
    with pytest.raises(FileExistsError):
        sealing.write_key(path, k2, exclusive=True)
    assert sealing.read_key(path, "g") == k1 == sealing.key_for(path, "g")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json.key"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
