"""``rulekit play`` / ``replay`` / ``list`` through typer's CliRunner (piped stdin).

The human's input is computed, not guessed: :class:`Scripted` runs the very
same :class:`~rulekit.cli.game.Game` loop (same bots, same per-decision bot
seeds) with a policy in place of the prompt and records what a human would
type; the CLI then gets those lines on stdin and must follow the same course.
Random bots keep the tests fast; ``fivehundred-minus-500`` (a player at -500
loses) makes games against them end.
"""
from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rulekit import records
from rulekit.cards import bits
from rulekit.cli.app import app
from rulekit.cli.game import Game
from rulekit.engine import Action, State
from rulekit.variant import builtin_ids, load_variant
from tests.cli_helpers import Scripted

runner = CliRunner()

SHORT = "fivehundred-minus-500"   # ends fast against random bots


# ---------------------------------------------------------------------- helpers
@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Games without --save are saved in the current folder when interrupted: keep it a temporary one."""
    monkeypatch.chdir(tmp_path)


def bold_policy(g, st, seat):
    """Bid the highest bid; discard/name/play the first legal action, typed in varied forms.

    Types ``?`` at the first prompt and, once, a card that does not follow suit
    before the legal one (so the refusal is seen).
    """
    legal = st.legal_actions()
    kind = st.phase_kind
    out = []
    if not g.lines:
        out.append("?")
        if any(a.kind == "bid" for a in legal):   # (the help then lists a bid after pass)
            g.events.add("asked")
    if kind == "ladder_auction":
        bids = [a for a in legal if a.kind == "bid"]
        g.events.add("bid" if bids else "pass")
        return out + [bids[-1].text.lower() if bids else "pass"]
    if kind == "tricks":
        h = st.hand
        ok = 0
        for a in legal:
            ok |= 1 << a.card
        bad = h.hands[seat] & ~ok
        if h.trick and bad and "refused" not in g.events:
            g.events.add("refused")
            out.append(st.variant.deck.name(next(bits(bad))))
        g.events.add("play")
        text = legal[0].text
        # alternate the documented forms: "play QS", "QS"
        return out + [text if len(g.lines) % 2 else text[len("play "):]]
    g.events.add(kind)
    return out + [legal[0].text]


def simulate(variant, seed, controllers, policy, names=None, max_rows=30, stop=None):
    v = load_variant(variant, players=len(controllers))
    st = State(v, seed=seed, names=names or ["You"] + [f"P{i}" for i in range(1, len(controllers))])
    g = Scripted(st, controllers, Console(file=io.StringIO()), None, policy=policy)
    while not st.is_over and len(st.sheet.rows) < max_rows and not (stop and stop(g)):
        g.step()
    return g


@pytest.fixture(scope="module")
def scripted_game():
    """A seed where the human bids, declares, takes the widow, names trumps, is refused once and
    the match ends; with the lines to type."""
    for seed in range(200):
        g = simulate(SHORT, seed, ["human", "random", "random"], bold_policy)
        if g.state.is_over and {"asked", "widow_exchange", "name_trump", "refused", "bid", "play"} <= g.events:
            return seed, g
    pytest.fail("no seed in 0..199 gives a game with every step (engine or bots changed?)")


def sheet_block(output: str) -> str:
    """The last score sheet table printed (title line to bottom border)."""
    lines = output.splitlines()
    end = max(i for i, line in enumerate(lines) if line.lstrip().startswith("└"))
    start = max(i for i in range(end) if "Score sheet" in lines[i])
    return "\n".join(lines[start:end + 1])


def play(args, input=None):
    return runner.invoke(app, ["play", *args], input=input)


def assert_clean(result):
    """No traceback: the command ended by its own exit code."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------- a human game
def test_human_game_to_the_end(tmp_path, scripted_game):
    seed, g = scripted_game
    f = tmp_path / "game.json"
    r = play([SHORT, "--seed", str(seed), "--players", "human,random,random", "--save", str(f)],
             input="\n".join(g.lines) + "\n")
    assert_clean(r)
    assert r.exit_code == 0, r.output
    out = r.output
    assert re.search(r"legal: pass, \d+(S|C|D|H|NT|T)\b", out)   # ? lists the legal actions
    assert "refused: you must follow" in out and "you hold" in out
    assert re.search(r"auction: .*→ 10(NT|T) by You", out)    # the human declared
    assert "You take the widow and discard" in out            # the human's own discards, shown to him
    assert re.search(r"You name trumps [♠♥♦♣]", out)
    assert re.search(r"trick +1 ", out)
    assert "your hand" in out and "tricks won" in out
    assert re.search(r"\b(wins?)\b \(", out)                  # the winner line
    # the whole sheet between hands (a human is playing) and once at the end
    assert out.count("Score sheet") == len(g.state.sheet.rows) >= 2
    # the record replays to the same sheet
    rec = json.loads(f.read_text())
    assert rec["players"] == ["human", "random", "random"]
    assert [a for _, a in rec["actions"]] == [a for _, a in g.state.history]
    rep = runner.invoke(app, ["replay", str(f)])
    assert rep.exit_code == 0, rep.output
    assert sheet_block(rep.output) == sheet_block(out)
    assert sheet_block(out).count("│") > 0 and "total" in sheet_block(out)


def test_save_and_resume_after_end_of_input(tmp_path, scripted_game):
    seed, g = scripted_game
    f = tmp_path / "game.json"
    whole = play([SHORT, "--seed", str(seed), "--players", "human,random,random"],
                 input="\n".join(g.lines) + "\n")
    assert whole.exit_code == 0
    cut = len(g.lines) // 2
    r1 = play([SHORT, "--seed", str(seed), "--players", "human,random,random", "--save", str(f)],
              input="\n".join(g.lines[:cut]) + "\n")
    assert_clean(r1)
    assert r1.exit_code == 1
    assert f"input ended: game saved to {f}" in r1.output
    assert f"rulekit play --resume {f}" in r1.output
    saved = records.load(f)
    assert 0 < len(saved["actions"]) < len(g.state.history)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]   # atomic: no leftovers
    r2 = play(["--resume", str(f)], input="\n".join(g.lines[cut:]) + "\n")
    assert_clean(r2)
    assert r2.exit_code == 0, r2.output
    assert "resumed" in r2.output
    assert sheet_block(r2.output) == sheet_block(whole.output)   # bots re-seeded per decision: same game
    rep = runner.invoke(app, ["replay", str(f)])
    assert rep.exit_code == 0
    assert sheet_block(rep.output) == sheet_block(whole.output)


def test_quit_and_save_commands(tmp_path, scripted_game):
    seed, g = scripted_game
    f = tmp_path / "g.json"
    r = play([SHORT, "--seed", str(seed), "--players", "human,random,random", "--save", str(f)],
             input="help\nsheet\nsave\n" + g.lines[1] + "\nquit\n")
    assert_clean(r)
    assert r.exit_code == 0
    assert "list the legal actions" in r.output
    assert f"saved to {f}" in r.output
    assert "game saved to" in r.output and "--resume" in r.output
    assert records.replay(records.load(f)).history


def test_resume_without_save_path_uses_a_fresh_default_file(tmp_path, monkeypatch, scripted_game):
    seed, g = scripted_game
    monkeypatch.chdir(tmp_path)
    # the default name has no seed in it: that would show the hidden cards
    (tmp_path / f"rulekit-{SHORT}.json").write_text("keep me")
    r = play([SHORT, "--seed", str(seed), "--players", "human,random,random"], input="pass\n")
    assert r.exit_code == 1
    assert (tmp_path / f"rulekit-{SHORT}.json").read_text() == "keep me"   # never overwritten
    assert records.load(tmp_path / f"rulekit-{SHORT}-1.json")


def test_illegal_and_malformed_input_is_refused_and_asked_again(tmp_path, scripted_game):
    seed, g = scripted_game
    junk = ["plya QS", "discard", "play", "play ZZ", "7Q", "11NT", "play QS H H", "☃", "x" * 5000,
            "discard 7C 7C 8C", "trump X", "play JK Q"]
    r = play([SHORT, "--seed", str(seed), "--players", "human,random,random"],
             input="\n".join(junk) + "\n")
    assert_clean(r)
    assert r.exit_code == 1            # input ended, nothing crashed
    assert r.output.count("refused:") == len(junk)


# ---------------------------------------------------------------------- the documented text forms
def _typed_forms(state, text: str, k: int) -> str:
    """One way a player may type ``text`` (canonical), varied by ``k``."""
    if text.startswith("play "):
        return text[len("play "):] if k % 2 else text          # QS / play QS / JK H / play JK H
    if text.startswith("discard ") or text.startswith("trump "):
        return text
    return text if k % 2 else text.lower()


@pytest.mark.parametrize("case_no", [19, 43])    # 10NT with a Joker lead naming a suit; 10T with trumps named
def test_prompt_accepts_documented_forms(case_no):
    from pathlib import Path
    data = Path(__file__).parent / "data" / "fivehundred-hands.json"
    if not data.exists():
        pytest.skip("conformance data not present")
    case = json.loads(data.read_text())["hands"][case_no]
    v = load_variant("fivehundred")
    st = State(v, deals=[case["deck_order"]], dealer=case["dealer"], scores=case["start_scores"])
    texts = [Action.parse(s["action"], v.deck, st._bid_texts).text for s in case["steps"]]
    typed = [_typed_forms(st, t, k) for k, t in enumerate(texts)]
    feed = iter(typed)

    class FakeConsole(Console):
        def input(self, prompt="", **kw):
            self.print(prompt, end="")
            return next(feed)

    buf = io.StringIO()
    game = Game(st, ["human"] * 3, FakeConsole(file=buf, width=100), None)
    for _ in texts:
        game.step()
    assert [a for _, a in st.history] == texts
    assert st.sheet.rows[0].entries == case["entries"]
    assert "refused" not in buf.getvalue()
    assert any(t.startswith(("JK ", "play JK ")) or t.upper() == "10T" for t in typed)


# ---------------------------------------------------------------------- bots only
def test_auto_seed_1_reaches_a_winner_and_replays(tmp_path):
    f = tmp_path / "auto.json"
    r = play(["fivehundred", "--auto", "--seed", "1", "--save", str(f)])
    assert_clean(r)
    assert r.exit_code == 0, r.output
    out = r.output
    assert re.search(r"^P\d wins? \(", out, re.M)
    hands = len(re.findall(r"^Hand \d+ — dealer", out, re.M))
    assert hands >= 1
    assert out.count("Score sheet") == 1                 # the whole sheet once, at the end
    assert len(out.splitlines()) <= hands * 20 + 40      # compact: ~15 lines a hand
    assert re.search(r"^  auction   ", out, re.M) and re.search(r"^  hand 1  P0 ", out, re.M)
    rep = runner.invoke(app, ["replay", str(f)])
    assert rep.exit_code == 0, rep.output
    assert sheet_block(rep.output) == sheet_block(out)
    assert re.search(r"^P\d wins? \(", rep.output, re.M)


def test_quiet_prints_only_the_final_sheet_and_winner():
    r = play([SHORT, "--auto", "--players", "random,random,random", "--seed", "3", "--quiet"])
    assert r.exit_code == 0, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert "Score sheet" in lines[0]
    assert re.match(r"P\d( and P\d)* wins? \(", lines[-1])
    assert not any(x.startswith("Hand ") or "trick  1" in x or "auction" in x for x in lines)


def test_same_seed_same_game():
    a = play([SHORT, "--auto", "--players", "random,random,random", "--seed", "5"])
    b = play([SHORT, "--auto", "--players", "random,random,random", "--seed", "5"])
    assert a.exit_code == b.exit_code == 0
    assert a.output == b.output


# ---------------------------------------------------------------------- rams, 3 players
def test_rams_three_players_human_and_bots(tmp_path):
    def first_legal(g, st, seat):
        return [st.legal_actions()[0].text]

    g = simulate("rams", 2, ["human", "bot", "bot"], first_legal,
                 stop=lambda g: len(g.lines) >= 4 and g.state.to_move == 0)
    f = tmp_path / "rams.json"
    r = play(["rams", "--players", "human,bot,bot", "--seed", "2", "--save", str(f)],
             input="?\n" + "\n".join(g.lines) + "\n")
    assert_clean(r)
    assert r.exit_code == 1                              # input ended: saved
    assert "3 players" in r.output
    hand = next(x for x in r.output.splitlines() if "your hand" in x)
    assert len(hand.split()) == 2 + 10                   # ten cards each with three players
    rec = records.load(f)
    assert rec["settings"]["players"] == 3 and len(rec["names"]) == 3
    assert [a for _, a in rec["actions"]] == [a for _, a in g.state.history]
    assert records.replay(rec).variant.players == 3


def test_rams_player_count_from_players_option():
    r = play(["rams", "--auto", "--players", "random,random,random", "--seed", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    header = next(x for x in r.output.splitlines() if "┃ #" in x)
    assert header.count("┃") == 6                         # #, 3 players, hand


def test_players_as_a_number_sets_the_count():
    r = play(["rams", "--players", "3", "--seed", "1"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "3 players (You: human, P1: bot, P2: bot)" in r.output


@pytest.mark.parametrize("variant", builtin_ids())
def test_every_installed_variant_can_be_started_by_a_human(variant):
    r = play([variant, "--players", ",".join(["human"] + ["random"] * (load_variant(variant).players - 1)),
              "--seed", "1"], input="?\nhelp\nsheet\nnonsense\n")
    assert_clean(r)
    assert r.exit_code == 1, r.output          # the input ended: saved
    assert "your hand" in r.output and "refused:" in r.output and "input ended: game saved" in r.output


# ---------------------------------------------------------------------- list
def test_list_shows_installed_variants():
    r = runner.invoke(app, ["list"])
    assert r.exit_code == 0
    assert re.search(r"^fivehundred\s+3 players\s+Five Hundred", r.output, re.M)
    assert re.search(r"^rams\s+3 or 4 players", r.output, re.M)
    assert "house rule of fivehundred" in r.output


# ---------------------------------------------------------------------- bad arguments: exit 2
@pytest.mark.parametrize("args, message", [
    (["nosuchgame"], "no such variant"),
    (["fivehundred", "--players", "human,robot,bot"], "'robot' is not a controller"),
    (["fivehundred", "--players", "human,,bot"], "empty seat"),
    (["fivehundred", "--players", "human,bot"], "played by 3 players"),
    (["rams", "--players", "human,bot"], "played by 3 or 4 players"),
    (["fivehundred", "--auto", "--players", "human,bot,bot"], "drop human"),
    (["fivehundred", "--seed", "abc"], "Invalid value for '--seed'"),
    (["fivehundred", "--bogus"], "bogus"),
    (["fivehundred", "--quiet"], "--quiet"),
    ([], "missing VARIANT"),
    (["--resume", "does-not-exist.json"], "no such file"),
    (["--resume", "x.json", "--seed", "3"], "--seed cannot be used with --resume"),
])
def test_bad_arguments_exit_2(args, message):
    r = play(args)
    assert_clean(r)
    assert r.exit_code == 2, r.output
    assert message.lower() in r.output.lower()


def test_broken_variant_file_exit_1_with_its_position(tmp_path):
    f = tmp_path / "house.yaml"
    f.write_text("id: house\nextends: fivehundred\nmatch:\n  target: lots\n")
    r = play([str(f), "--auto", "--seed", "1"])
    assert_clean(r)
    assert r.exit_code == 1
    assert f"{f}:4:" in r.output


def test_players_count_out_of_range_exit_2():
    r = play(["rams", "--players", "0"])
    assert r.exit_code == 2 and "--players 0" in r.output


def test_save_refuses_to_overwrite_or_a_folder(tmp_path):
    f = tmp_path / "old.json"
    f.write_text("precious")
    r = play(["fivehundred", "--save", str(f)])
    assert r.exit_code == 2 and "already exists" in r.output
    assert f.read_text() == "precious"
    r = play(["fivehundred", "--save", str(tmp_path)])
    assert r.exit_code == 2 and "folder" in r.output


def test_resume_checks_the_variant(tmp_path):
    f = tmp_path / "g.json"
    assert play([SHORT, "--auto", "--players", "random,random,random", "--seed", "1", "--save", str(f),
                 "--quiet"]).exit_code == 0
    r = play(["rams", "--resume", str(f)])
    assert r.exit_code == 2 and "is a game of" in r.output
    r = play([SHORT, "--resume", str(f), "--players", "random,random"])
    assert r.exit_code == 2 and "saved game has 3 players" in r.output
    r = play(["--resume", str(f)])                          # a finished game: shows the result
    assert r.exit_code == 0 and re.search(r"wins? \(", r.output)


# ---------------------------------------------------------------------- broken records: exit 1
def _record(tmp_path):
    f = tmp_path / "good.json"
    assert play([SHORT, "--auto", "--players", "random,random,random", "--seed", "2", "--save", str(f),
                 "--quiet"]).exit_code == 0
    return json.loads(f.read_text())

BREAKERS = {
    "not json": lambda rec: "{not json",
    "truncated": lambda rec: json.dumps(rec)[:200],
    "empty": lambda rec: "",
    "a list": lambda rec: "[1, 2]",
    "wrong format": lambda rec: json.dumps({**rec, "format": "other/9"}),
    "no actions": lambda rec: json.dumps({k: v for k, v in rec.items() if k != "actions"}),
    "actions not a list": lambda rec: json.dumps({**rec, "actions": "pass"}),
    "bad pair": lambda rec: json.dumps({**rec, "actions": [[0]] + rec["actions"]}),
    "seed text": lambda rec: json.dumps({**rec, "seed": "one"}),
    "illegal action": lambda rec: json.dumps({**rec, "actions": [[a[0], "play JK"] for a in rec["actions"]]}),
    "wrong seat": lambda rec: json.dumps({**rec, "actions": [[(a[0] + 1) % 3, a[1]] for a in rec["actions"]]}),
    "unknown variant": lambda rec: json.dumps({**rec, "variant": "nosuch", "variant_file": None}),
    "changed variant": lambda rec: json.dumps({**rec, "variant_hash": "0" * 16}),
    "names": lambda rec: json.dumps({**rec, "names": ["a"]}),
    "dealer": lambda rec: json.dumps({**rec, "dealer": 7}),
    "deals": lambda rec: json.dumps({**rec, "deals": [["AS"]]}),
    "sheet differs": lambda rec: json.dumps({**rec, "sheet": {**rec["sheet"], "rows": rec["sheet"]["rows"][:-1]}}),
    "extra actions": lambda rec: json.dumps({**rec, "actions": rec["actions"] + [[0, "pass"]]}),
    "binary": lambda rec: b"\xff\xfe\x00garbage",
}


@pytest.mark.parametrize("name", sorted(BREAKERS))
def test_broken_record_exit_1(tmp_path, name):
    rec = _record(tmp_path)
    f = tmp_path / "broken.json"
    data = BREAKERS[name](rec)
    f.write_bytes(data if isinstance(data, bytes) else data.encode())
    for cmd in (["replay", str(f)], ["play", "--resume", str(f)]):
        if name == "sheet differs" and cmd[0] == "play":
            continue                      # resuming recomputes the sheet; only replay compares it
        r = runner.invoke(app, cmd)
        assert_clean(r)
        assert r.exit_code == 1, (cmd, r.output)
        assert "error:" in r.output


def test_replay_missing_file_exit_2(tmp_path):
    r = runner.invoke(app, ["replay", str(tmp_path / "none.json")])
    assert r.exit_code == 2 and "no such file" in r.output


def test_replay_of_a_game_in_progress(tmp_path, scripted_game):
    seed, g = scripted_game
    f = tmp_path / "p.json"
    play([SHORT, "--seed", str(seed), "--players", "human,random,random", "--save", str(f)],
         input="\n".join(g.lines[:3]) + "\n")
    r = runner.invoke(app, ["replay", str(f)])
    assert r.exit_code == 0
    assert "game in progress" in r.output and "--resume" in r.output


# ---------------------------------------------------------------------- interruption inside the loop
def test_ctrl_c_at_the_prompt_saves(tmp_path):
    v = load_variant("fivehundred")
    st = State(v, seed=4, names=["You", "P1", "P2"])

    class CtrlC(Console):
        def input(self, prompt="", **kw):
            raise KeyboardInterrupt

    out = io.StringIO()
    game = Game(st, ["human", "random", "random"], CtrlC(file=out), tmp_path / "c.json")
    assert game.run() == 130
    assert "interrupted: game saved to" in out.getvalue()
    assert records.replay(records.load(tmp_path / "c.json")).history == st.history


def test_signal_while_applying_is_held_until_the_action_is_complete(tmp_path):
    """A SIGINT that lands in the middle of ``apply`` must not leave a half-applied action."""
    import os
    import signal

    v = load_variant(SHORT)
    st = State(v, seed=6, names=["P0", "P1", "P2"])
    real_apply = st.apply
    calls = []

    def apply(action):
        calls.append(action)
        if len(calls) == 5:
            os.kill(os.getpid(), signal.SIGINT)   # delivered now, inside the shielded step
        real_apply(action)

    st.apply = apply
    out = io.StringIO()
    game = Game(st, ["random"] * 3, Console(file=out), tmp_path / "s.json")
    assert game.run() == 130
    assert len(st.history) == 5                    # the fifth action completed, then the game stopped
    rec = records.load(tmp_path / "s.json")
    assert len(rec["actions"]) == 5
    assert records.replay(rec).history == st.history


def test_auto_lines_are_not_folded_in_a_file():
    """Last stop: ``play --auto > FILE`` kept rich's 80-column folding, so a long
    auction line was cut in two. Written to a pipe, every line stays whole, even with a narrow
    ``COLUMNS``: the title, each auction and each hand's result are one line each."""
    r = CliRunner().invoke(app, ["play", "boston", "--auto", "--seed", "3", "--max-hands", "2"],
                           env={"COLUMNS": "40"})
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert re.fullmatch(r"Boston — 4 players \(N: bot, E: bot, S: bot, W: bot\), first dealer [NESW]", lines[0])
    auctions = [ln for ln in lines if ln.startswith("  auction ")]
    results = [ln for ln in lines if ln.startswith("  hand ")]
    assert len(auctions) == 2 and len(results) == 2
    assert all(len(ln) > 40 for ln in auctions + results)
    assert all(" — " in ln for ln in results)
    assert not any(ln.startswith(("·", " ·")) for ln in lines)


# ---------------------------------------------------------------------- resuming without the human
def _saved_human_game(tmp_path):
    f = tmp_path / "game.json"
    r = runner.invoke(app, ["play", "fivehundred", "--seed", "424242", "--save", str(f)], input="pass\nquit\n")
    assert r.exit_code == 0, r.output
    return f


def test_resuming_a_human_game_with_bots_is_refused_without_reveal(tmp_path):
    """A copy of an auto-saved game played out by bots would print the seed of a game in
    progress (every deal); refused (exit 2) with --auto or with --players that drops the human."""
    f = _saved_human_game(tmp_path)
    for extra in (["--auto"], ["--players", "bot,bot,bot"], ["--players", "random,bot,human"]):
        r = runner.invoke(app, ["play", "--resume", str(f), *extra])
        assert r.exit_code == 2, (extra, r.output)
        assert (f"{f} is a game in progress with a human at You; played out by bots it shows its seed and "
                "deals at the end. Add --reveal to do so") in " ".join(r.output.split())
        assert "424242" not in r.output


def test_reveal_lets_bots_play_a_human_game_out(tmp_path):
    """With --reveal the bots play the game out and the seed is shown at the end."""
    f = _saved_human_game(tmp_path)
    r = runner.invoke(app, ["play", "--resume", str(f), "--auto", "--reveal"])
    assert r.exit_code == 0, r.output
    assert "seed 424242 (play these deals again with --seed 424242)" in r.output


def test_play_seed_range():
    """--seed takes 0..2**63-1, the range a record keeps."""
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--seed", "-1"])
    assert r.exit_code == 2 and "Invalid value for '--seed'" in r.output
