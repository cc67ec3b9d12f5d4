"""Bots in a process of their own (``--players bot:PATH``, :class:`rulekit.bots.remote.ProcessBot`):
the bot file runs in a child process that receives only plain serialised observations (JSON) and
answers an action's text, within a time limit per decision; a bot that overruns, crashes or
answers badly is stopped with a message and a random bot plays its seat on."""
from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from rulekit import records
from rulekit.bots import Bot
from rulekit.bots.remote import TIME_LIMIT, ProcessBot, plain_observation
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.variant import builtin_ids, load_variant
from tests.test_fairplay_observation import _twins
from tests.test_rules_bridge import S, W

runner = CliRunner()

FIRST = "def choose(observation):\n    return observation['legal'][0]\n"


def _bot(tmp_path, text: str, name: str = "mybot.py"):
    f = tmp_path / name
    f.write_text(text)
    return f


def _play(state: State, bots: dict, limit: int = 5000) -> State:
    for _ in range(limit):
        if state.is_over:
            return state
        seat = state.to_move
        state.apply(bots[seat].act(state.observation(seat)))
    raise AssertionError("the game did not end")


class First(Bot):
    def act(self, obs):
        return obs.legal[0]


@pytest.fixture(scope="module")
def bridge():
    return load_variant("bridge")


def test_a_serialised_observation_holds_nothing_the_seat_may_not_know(bridge):
    """Two deals South cannot tell apart (West's ace of spades with East, another seed) give
    South the same JSON observation, byte for byte; West's differs (it holds the ace)."""
    a, b = _twins(bridge)
    south = [json.dumps(plain_observation(s.observation(S)), sort_keys=True) for s in (a, b)]
    assert south[0] == south[1]
    west = [json.dumps(plain_observation(s.observation(W)), sort_keys=True) for s in (a, b)]
    assert west[0] != west[1]
    seen = json.loads(south[0])
    assert str(a.seed) not in south[0] and str(b.seed) not in south[0]
    assert seen["seat"] == S and seen["legal"] and all(isinstance(x, str) for x in seen["legal"])
    assert seen["cards"][0] == bridge.deck.name(0) and seen["variant"]["id"] == "bridge"


@pytest.mark.parametrize("vid", builtin_ids())
def test_every_installed_variants_observations_are_plain_json(vid):
    """Each seat's observation of a random game serialises to JSON and reads back the same."""
    v = load_variant(vid)
    s, rnd = State(v, seed=5, max_hands=1), random.Random(5)
    for _ in range(60):
        if s.is_over:
            break
        for seat in range(v.players):
            data = plain_observation(s.observation(seat))
            assert json.loads(json.dumps(data)) == data
        s.apply(rnd.choice(s.legal_actions()))


def test_a_process_bot_plays_as_the_same_bot_in_the_players_process(tmp_path):
    """A bot file answering the first legal action plays the very game an in-process bot does."""
    v = load_variant("whist")
    f = _bot(tmp_path, FIRST)
    far = ProcessBot(f)
    try:
        a = _play(State(v, seed=3, max_hands=1), {0: far, 1: First(), 2: First(), 3: First()})
    finally:
        far.close()
    b = _play(State(v, seed=3, max_hands=1), {i: First() for i in range(4)})
    assert a.history == b.history and a.result() == b.result() and not far.stopped


HOSTILE = '''
import gc, json, sys
def choose(observation):
    found = [o for o in gc.get_objects() if type(o).__name__ in ("State", "Hand", "Variant")]
    f, in_frames = sys._getframe(), 0
    while f is not None:
        in_frames += sum(type(x).__name__ == "State" for x in f.f_locals.values())
        f = f.f_back
    with open("report.json", "w") as out:
        json.dump({"objects": len(found), "frames": in_frames, "keys": sorted(observation),
                   "rulekit": sorted(m for m in sys.modules if m.startswith("rulekit"))}, out)
    return 0
'''


def test_a_hostile_bot_file_cannot_reach_the_state(tmp_path):
    """The bot's process holds no State, hand or compiled variant (gc finds none, no rulekit module
    is loaded there): only the JSON of its observation."""
    f = _bot(tmp_path, HOSTILE)
    bot = ProcessBot(f)
    v = load_variant("whist")
    try:
        _play(State(v, seed=1, max_hands=1), {0: bot, 1: First(), 2: First(), 3: First()})
    finally:
        bot.close()
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["objects"], report["frames"], report["rulekit"]) == (0, 0, []) and not bot.stopped
    assert "hand" in report["keys"] and "legal" in report["keys"] and "variant" in report["keys"]


@pytest.mark.parametrize("text, reason", [
    ("import time\ndef choose(o):\n    time.sleep(30)\n", "took more than 0.5 s for one decision"),
    ("def choose(o):\n    raise ValueError('no idea')\n", "raised ValueError: no idea"),
    ("def choose(o):\n    return 'grand slam'\n", "answered 'grand slam', which is not a legal action"),
    ("x = 1\n", "defines neither a function choose(observation) nor a class Bot"),
    ("import os\ndef choose(o):\n    os._exit(3)\n", "its process ended (exit code 3)"),
    ("import sys\nprint('\\x1b]0;owned\\x07')\ndef choose(o):\n    sys.stdout.write('noise\\n')\n    return 0\n", None),
])
def test_a_bot_that_fails_is_stopped_with_the_reason_and_the_game_ends(tmp_path, text, reason):
    """A bot that overruns, crashes, answers badly or cannot load is stopped once with a message;
    a random bot plays its seat on and the game ends. What a bot prints never reaches the protocol."""
    said: list = []
    # only the bot that overruns meets a short limit: the others get the default, which a loaded
    # machine starting their process never reaches
    limit = 0.5 if "sleep" in text else TIME_LIMIT
    bot = ProcessBot(_bot(tmp_path, text), time_limit=limit, warn=said.append)
    v = load_variant("whist")
    try:
        s = _play(State(v, seed=2, max_hands=1), {0: bot, 1: First(), 2: First(), 3: First()})
    finally:
        bot.close()
    assert s.is_over
    if reason is None:
        assert said == [] and not bot.stopped
    else:
        assert len(said) == 1 and reason in said[0] and said[0].startswith("bot mybot.py: ")
        assert said[0].endswith("a random bot plays its seat from now on") and bot.proc is None


def test_play_with_a_bot_file_records_it_as_external(tmp_path):
    """`--players bot:PATH`: the record names the seat `external`, never the file (a record does
    not make rulekit run a program); replaying it needs no bot."""
    f = _bot(tmp_path, FIRST)
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "whist", "--players", f"bot:{f},bot,random,bot", "--seed", "4",
                            "--max-hands", "1", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    data = json.loads(rec.read_text())
    assert data["players"] == ["external", "bot", "random", "bot"] and str(f) not in rec.read_text()
    assert records.replay(records.load(rec)).is_over
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code == 0, r.output


def test_a_missing_bot_file_is_a_usage_error(tmp_path):
    r = runner.invoke(app, ["play", "whist", "--players", f"bot:{tmp_path}/nope.py,bot,bot,bot"])
    assert r.exit_code == 2 and "no such bot file" in r.output
