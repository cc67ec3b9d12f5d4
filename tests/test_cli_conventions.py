"""Conventions every ``rulekit`` command shares (docs/cli.md): ``--version``; one exit code per
kind of failure (2 for a usage error, an unknown name with "did you mean" and the list of known
ones; 1 for input that was read and is wrong); shell completion of variant ids and files; help
text wrapped by rich (no hard line breaks inside a paragraph); ``explain`` as Markdown text when
piped or with ``--plain`` / ``NO_COLOR``."""
from __future__ import annotations

import importlib.metadata
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest
import rich.markup
import typer
import typer.main
from typer.testing import CliRunner

import rulekit
from rulekit.cli.app import app
from rulekit.variant import builtin_ids, check_file, load_variant
from rulekit.variant.explain import explain as explain_text

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken" / "unknown-key.yaml"   # rankng: ... at line 7
runner = CliRunner()


def run(*args, **kw):
    r = runner.invoke(app, [str(a) for a in args], **kw)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (rich folds stderr)."""
    return " ".join(text.split())


# ---------------------------------------------------------------------- --version
def test_version_is_the_installed_version():
    r = run("--version")
    assert r.exit_code == 0
    assert r.output == f"rulekit {rulekit.__version__}\n"
    assert rulekit.__version__ == importlib.metadata.version("rulekit")


# ---------------------------------------------------------------------- exit codes
# every command that takes a variant, with the rest of a command line that would otherwise run
VARIANT_COMMANDS = {
    "validate": lambda v: ["validate", v],
    "play": lambda v: ["play", v, "--auto", "--quiet", "--max-hands", "1"],
    "explain": lambda v: ["explain", v],
    "diff A": lambda v: ["diff", v, "fivehundred"],
    "diff B": lambda v: ["diff", "fivehundred", v],
    "compare": lambda v: ["compare", "fivehundred", v, "--deals", "1", "--jobs", "1"],
    "score": lambda v: ["score", v],
}


@pytest.mark.parametrize("command", sorted(VARIANT_COMMANDS))
def test_an_unknown_variant_is_a_usage_error_with_did_you_mean(command):
    """An id that is no installed variant and no file: exit 2, one `error:` line that says the
    closest id and lists the installed ones (never a made-up FILE:1:1 position)."""
    r = run(*VARIANT_COMMANDS[command]("fivehundrd"), input="quit\n")
    assert r.exit_code == 2, r.output
    said = flat(r.stderr)
    assert said.startswith("error: no such variant or file 'fivehundrd'; did you mean fivehundred? (installed: ")
    assert ", ".join(builtin_ids()) in said and "see `rulekit list`" in said
    assert "fivehundrd:1:1" not in r.output


@pytest.mark.parametrize("command", sorted(VARIANT_COMMANDS))
def test_a_missing_file_suggests_the_file_of_its_folder(command, tmp_path):
    """A path to no file: the .yaml files of its folder are candidates too."""
    (tmp_path / "house.yaml").write_text((ROOT / "variants" / "fivehundred-must-trump.yaml").read_text())
    r = run(*VARIANT_COMMANDS[command](str(tmp_path / "huose.yaml")), input="quit\n")
    assert r.exit_code == 2, r.output
    assert f"did you mean {tmp_path / 'house.yaml'}?" in flat(r.stderr)


@pytest.mark.parametrize("command", sorted(VARIANT_COMMANDS))
def test_a_folder_is_not_a_variant_file(command, tmp_path):
    r = run(*VARIANT_COMMANDS[command](f"{tmp_path}/"), input="quit\n")
    assert r.exit_code == 2, r.output
    assert f"error: {tmp_path}/: is a folder (expected a variant .yaml file)" in flat(r.stderr)


@pytest.mark.parametrize("command", sorted(VARIANT_COMMANDS))
def test_a_bare_folder_name_is_said_to_be_a_folder(command, tmp_path, monkeypatch):
    """A word without ``/`` that is no installed id but a folder of the current folder: said to
    be a folder, not "no such variant"; an installed id wins over a folder of its name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad").mkdir()
    (tmp_path / "hearts").mkdir()
    r = run(*VARIANT_COMMANDS[command]("bad"), input="quit\n")
    assert r.exit_code == 2, r.output
    assert flat(r.stderr) == "error: bad: is a folder (expected a variant .yaml file)"
    assert check_file("hearts") == []


@pytest.mark.parametrize("command", sorted(VARIANT_COMMANDS))
def test_a_variant_file_with_problems_exits_1_at_its_position(command):
    """The file was read and is wrong: its diagnostics at FILE:LINE:COL and exit 1; `diff`
    alone exits 2, as diff(1) does for any trouble (its 1 means "the rules differ")."""
    r = run(*VARIANT_COMMANDS[command](str(BROKEN)), input="quit\n")
    assert r.exit_code == (2 if command.startswith("diff") else 1), r.output
    assert f"{BROKEN}:7:1: rankng: unknown key 'rankng'; did you mean ranking?" in r.output


@pytest.mark.parametrize("args", [["play", "fivehundred", "--players", "4", "--auto"],
                                  ["explain", "fivehundred", "--players", "4"],
                                  ["score", "fivehundred", "--players", "4"],
                                  ["diff", "fivehundred", "fivehundred-must-trump", "--players", "4"],
                                  ["compare", "fivehundred", "fivehundred-must-trump", "--players", "4",
                                   "--deals", "1", "--jobs", "1"]])
def test_a_number_of_players_the_variant_does_not_offer_is_a_usage_error(args):
    r = run(*args, input="quit\n")
    assert r.exit_code == 2, r.output
    assert "error: Five Hundred is played by 3 players, not 4" in flat(r.stderr)


def test_validate_says_a_player_count_is_a_problem_of_the_file():
    """`validate --players N` asks whether the file can be played by N: no is a problem of the
    file, at its players: line (1)."""
    r = run("validate", "fivehundred", "--players", "4")
    assert r.exit_code == 1
    assert "variants/fivehundred.yaml:7:10: players: this variant is for 3 players, not 4" in r.stdout


@pytest.mark.parametrize("args, said", [
    (["validate", "--format", "jsn", "fivehundred"],
     "error: --format: 'jsn' is not a format; did you mean json? (expected text or json)"),
    (["diff", "fivehundred", "fivehundred", "--format", "txt"],
     "error: --format: 'txt' is not a format; did you mean text? (expected text or json)"),
    (["compare", "fivehundred", "fivehundred", "--bots", "sensibel", "--deals", "1"],
     "error: --bots: 'sensibel' is not a bot; did you mean sensible? (expected random, sensible or bot)"),
    (["play", "fivehundred", "--players", "humna,bot,bot"],
     "error: --players: 'humna' is not a controller; did you mean human? (expected human, bot or random)"),
    (["score", "bridge", "--dealer", "Q"], "error: there is no seat 'Q' (expected N, E, S, W)"),
])
def test_an_unknown_choice_is_a_usage_error_with_did_you_mean(args, said):
    r = run(*args, input="quit\n")
    assert r.exit_code == 2, r.output
    assert said in flat(r.stderr)


def test_unknown_commands_and_options_are_usage_errors_with_did_you_mean():
    r = run("plya", "fivehundred")
    assert r.exit_code == 2 and "No such command 'plya'. Did you mean 'play', 'replay'?" in flat(r.output)
    r = run("play", "fivehundred", "--sed", "1")
    assert r.exit_code == 2 and "No such option: --sed (Possible options: --save, --seed)" in flat(r.output)
    assert run().exit_code == 2   # no command: the list of commands, as a usage error


@pytest.mark.parametrize("args", [["replay", "gmae.json"], ["play", "--resume", "gmae.json"]])
def test_a_missing_record_suggests_the_record_of_its_folder(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_text("{}")
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "gmae.json: no such file; did you mean game.json?" in flat(r.stderr)


@pytest.mark.parametrize("args", [["replay", "."], ["play", "--resume", "."]])
def test_a_folder_is_not_a_record(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert ".: is a folder (expected a record file written by rulekit)" in flat(r.stderr)


def test_a_record_that_is_not_one_exits_1(tmp_path):
    """A regular file that is no record was read and is wrong: 1."""
    f = tmp_path / "game.json"
    f.write_text("[1, 2]")
    assert run("replay", f).exit_code == 1


# ---------------------------------------------------------------------- help text
def _commands():
    return typer.main.get_command(app).commands


@pytest.mark.parametrize("name", sorted(_commands()))
def test_help_paragraphs_have_no_hard_line_breaks(name):
    """Each paragraph of a command's help, and each option's help, is one line of source text:
    rich wraps it to the terminal, never in the middle of a sentence at a docstring's breaks."""
    cmd = _commands()[name]
    for para in (cmd.help or "").split("\n\n"):
        assert "\n" not in para.strip(), f"rulekit {name}: a line break inside {para!r}"
    for p in cmd.params:
        assert "\n" not in (getattr(p, "help", None) or ""), f"rulekit {name} {p.name}"


def test_help_is_wrapped_to_the_terminal_width():
    """At 200 columns the longest summary is one line in the list of commands; at 60, lines are
    cut between words (rich) and the text reads the same."""
    summary = inspect.getdoc(_commands()["score"].callback).split("\n\n")[0]
    wide = run("--help", env={"COLUMNS": "200"}).output
    assert " ".join(summary.split()) in wide
    narrow = run("score", "--help", env={"COLUMNS": "60"}).output
    assert max(len(line) for line in narrow.splitlines()) <= 60
    assert " ".join(summary.split()) in flat(narrow)


def test_replay_pbn_help_names_the_play_section():
    p = next(p for p in _commands()["replay"].params if p.name == "pbn")
    assert "Result, Score, and the Play section of each played deal" in p.help


# ---------------------------------------------------------------------- shell completion
def complete(line: str) -> list:
    """The candidates bash's completion gets for the last word of ``line`` (typer's protocol:
    COMP_WORDS and COMP_CWORD, one candidate per line)."""
    words = line.split(" ")
    env = {"_RULEKIT_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    r = runner.invoke(app, [], env=env, prog_name="rulekit")
    assert r.exit_code == 0, r.output
    return [x for x in r.output.split("\n") if x]


def test_completion_is_installed():
    assert "--install-completion" in run("--help", env={"COLUMNS": "200"}).output
    script = runner.invoke(app, ["--show-completion", "bash"], prog_name="rulekit").output
    assert "complete -o default -F _rulekit_completion rulekit" in script


def test_completion_script_is_of_the_shell_named_not_the_parent_shell():
    """`--show-completion SHELL` prints SHELL's script whatever shell runs rulekit (under
    `sh -c` too); an unknown shell is a usage error."""
    r = subprocess.run(["sh", "-c", f"'{sys.executable}' -m rulekit.cli.app --show-completion zsh"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("#compdef rulekit")
    r = subprocess.run(["sh", "-c", f"'{sys.executable}' -m rulekit.cli.app --show-completion bash"],
                       capture_output=True, text=True, timeout=120)
    assert "complete -o default -F _rulekit_completion rulekit" in r.stdout
    bad = runner.invoke(app, ["--show-completion", "sh"], prog_name="rulekit")
    assert bad.exit_code == 2 and "unknown shell 'sh'" in bad.output


def test_install_completion_writes_the_script_of_the_shell_named(tmp_path):
    r = runner.invoke(app, ["--install-completion", "bash"], prog_name="rulekit", env={"HOME": str(tmp_path)})
    assert r.exit_code == 0, r.output
    script = (tmp_path / ".bash_completions" / "rulekit.sh").read_text()
    assert "complete -o default -F _rulekit_completion rulekit" in script
    assert "source" in (tmp_path / ".bashrc").read_text()


FIVES = [v for v in builtin_ids() if v.startswith("fiveh")]


@pytest.mark.parametrize("line", ["rulekit play fiveh", "rulekit explain fiveh", "rulekit validate fiveh",
                                  "rulekit validate whist fiveh", "rulekit diff fiveh",
                                  "rulekit diff fivehundred fiveh", "rulekit compare fiveh",
                                  "rulekit compare fivehundred fiveh", "rulekit score fiveh",
                                  "rulekit play --auto fiveh"])
def test_variant_arguments_complete_installed_ids(line):
    assert complete(line) == FIVES


@pytest.mark.parametrize("command", ["play", "explain", "validate", "diff", "compare", "score"])
def test_variant_arguments_complete_yaml_files(command, tmp_path, monkeypatch):
    """Then the .yaml files of the folder the word names; no other file, and nothing (the
    shell's own file completion) when nothing fits."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text("id: h\n")
    (tmp_path / "houses").mkdir()
    (tmp_path / "houses" / "must.yml").write_text("id: m\n")
    (tmp_path / "house.json").write_text("{}")
    assert complete(f"rulekit {command} hou") == ["house.yaml"]
    assert complete(f"rulekit {command} houses/") == ["houses/must.yml"]
    assert complete(f"rulekit {command} {tmp_path}/houses/m") == [f"{tmp_path}/houses/must.yml"]
    assert complete(f"rulekit {command} nothing") == []
    assert "house.yaml" in complete(f"rulekit {command} ")


def test_record_and_other_file_arguments_complete_their_kind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("game.json", "game.yaml", "deal.pbn", "sheet.csv"):
        (tmp_path / name).write_text("x")
    assert complete("rulekit replay ga") == ["game.json"]
    assert complete("rulekit replay game.json ") == ["deal.pbn"]
    assert complete("rulekit play --resume g") == ["game.json"]
    assert complete("rulekit play fivehundred --deal ") == ["deal.pbn"]
    assert complete("rulekit score bridge --file ") == ["game.json"]
    assert complete("rulekit score bridge --file p.json --export s") == ["sheet.csv"]
    assert complete("rulekit compare a b --out ") == []     # a folder: the shell's own completion


def test_choices_complete_also_in_comma_lists():
    assert complete("rulekit validate --format j") == ["json"]
    assert complete("rulekit compare a b --bots sensible,r") == ["sensible,random"]
    assert complete("rulekit play fivehundred --players human,") == ["human,human", "human,bot", "human,random"]


def test_commands_and_options_complete():
    assert complete("rulekit ex") == ["explain"]
    assert "--plain" in complete("rulekit explain fivehundred --p")


# ---------------------------------------------------------------------- explain
def test_explain_piped_is_the_markdown_text():
    """Not a terminal (CliRunner, a pipe, a file): the Markdown text, byte for byte, with or
    without --plain."""
    text = explain_text(load_variant("whist"))
    assert text.startswith("# Whist\n")
    assert run("explain", "whist").output == text
    assert run("explain", "whist", "--plain").output == text


def test_explain_on_a_terminal_is_rendered_unless_plain_or_no_color(monkeypatch):
    import rulekit.cli.app as cli_app
    text = explain_text(load_variant("whist"))
    monkeypatch.setattr(type(cli_app.console), "is_terminal", property(lambda self: True))
    monkeypatch.delenv("NO_COLOR", raising=False)
    shown = run("explain", "whist", env={"COLUMNS": "100"}).output
    assert "# Whist" not in shown and "## The cards" not in shown and "**4 players**" not in shown
    assert "Whist" in shown and "The cards" in shown and "4 players" in shown
    assert run("explain", "whist", "--plain").output == text
    assert run("explain", "whist", env={"NO_COLOR": "1"}).output == text
    assert os.environ.get("NO_COLOR") is None


def _help_texts(cmd, path="rulekit"):
    """(where, text) of every help text of the click command ``cmd`` and its subcommands."""
    yield path, cmd.help or ""
    for p in cmd.params:
        yield f"{path} {p.name}", getattr(p, "help", "") or ""
    for name, sub in getattr(cmd, "commands", {}).items():
        yield from _help_texts(sub, f"{path} {name}")


def test_help_texts_keep_their_brackets():
    """Rich markup renders `[web]` as a (bad) style and drops it: every bracket of a help text
    (`pip install 'rulekit[web]'`) is escaped so that `--help` shows it."""
    for where, text in _help_texts(typer.main.get_command(app)):
        plain = rich.markup.render(text).plain
        assert plain.count("[") == text.count("["), f"{where}: rich ate a [...] of {text!r}"
    assert "pip install 'rulekit[web]'" in " ".join(run("serve", "--help", env={"COLUMNS": "200"}).output.split())


@pytest.mark.parametrize("name", [None, *sorted(_commands())])
def test_flags_show_no_value_type_in_help(name):
    """A flag takes no value, so `--help` lists it with none (`--auto`, not `--auto <bool>`),
    for the root and every command; options that take a value keep their type."""
    cmd = typer.main.get_command(app)
    args = ["--help"] if name is None else [name, "--help"]
    shown = run(*args, env={"COLUMNS": "200"}).output
    assert "<bool>" not in shown
    params = cmd.params if name is None else _commands()[name].params
    flags = [p.opts[0] for p in params if getattr(p, "is_flag", False)]
    for line in shown.splitlines():
        words = line.strip("│ ").split()
        if words and words[0] in flags + ["--help"]:
            assert not words[1].startswith("<"), f"rulekit {name or ''}: {line.strip()}"
    if name == "play":
        assert any(line.strip("│ ").split()[:2] == ["--seed", "<int"] for line in shown.splitlines())


# ---------------------------------------------------------------------- numeric options
#: Numeric options whose range the command checks itself, with a message saying why
#: (`compare --deals 1000001`: at most 1,000,000, since every row is kept for the statistics).
CHECKED_BY_THE_COMMAND = {("compare", "--deals"), ("compare", "--matches")}


def test_every_numeric_option_has_a_range():
    """Each number a command takes has a lower and an upper bound, so `--max-hands 10**20` or
    `--jobs 100000` is a usage error and not a match or a pool that never ends; the bounds of
    `--players` and `--max-hands` are the schema's for `players` and `match.max_hands`."""
    from rulekit.cli import app as cli
    from rulekit.schemas import base_schema
    found = {(name, p.opts[0]): (p.min, p.max) for name, cmd in _commands().items() for p in cmd.params
             if getattr(p, "type_descriptor", None) is not None and p.type_descriptor.annotation in (int, float)}
    assert set(found) > CHECKED_BY_THE_COMMAND
    for (name, opt), (lo, hi) in found.items():
        if (name, opt) not in CHECKED_BY_THE_COMMAND:
            assert lo is not None and hi is not None, f"rulekit {name} {opt} has no range"
    schema = base_schema()
    assert schema["properties"]["players"]["oneOf"][0] == {"type": "integer", "minimum": cli.MIN_PLAYERS,
                                                           "maximum": cli.MAX_PLAYERS}
    assert schema["$defs"]["match"]["properties"]["max_hands"]["maximum"] == cli.MAX_HANDS


@pytest.mark.parametrize("args, said", [
    (["play", "fivehundred", "--auto", "--max-hands", "99999999999999999999"],
     "Invalid value for '--max-hands': Input should be less than or equal to 1000000"),
    (["compare", "fivehundred", "fivehundred", "--deals", "1", "--jobs", "100000"],
     "Invalid value for '--jobs': Input should be less than or equal to 256"),
    (["explain", "fivehundred", "--players", "9"],
     "Invalid value for '--players': Input should be less than or equal to 8")])
def test_a_number_out_of_its_range_is_a_usage_error(args, said):
    r = run(*args, env={"COLUMNS": "200"})
    assert r.exit_code == 2
    assert said in flat(r.output)
