"""``rulekit`` commands: play, list, validate, replay, score, diff, compare, serve, schema, explain.

Exit codes: 0 success; 1 invalid input (a broken variant file or record, a
record that does not replay, the input of a game ended before the game);
2 usage errors (unknown option, missing argument, bad value, unknown
variant, a file that does not exist); 128+N when a game was stopped by
signal N (130 for Ctrl-C; the game, or a scorepad's finished hands, is saved first).
"""
from __future__ import annotations

import difflib
import inspect
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import List, NoReturn, Optional

import typer
import typer.completion as typer_completion
from typer._completion_shared import Shells
from rich.console import Console
from rich.markup import escape
from rich.segment import Segment

from rulekit import __version__
from rulekit import pbn as pbn_format
from rulekit import records
from rulekit.engine import State
from rulekit.bots.base import EXTERNAL_PREFIX
from rulekit.errors import RulekitError, VariantError
from rulekit.text import json_text, visible
from rulekit.variant import VariantWarning, builtin_ids, check_file, load_variant
from rulekit.variant.loader import builtin_dir

from .game import SHEET_TITLE, Game, _silence_stdout, resume_command
from .render import one_line, player_names, score_sheet, seat_label, settlement_text, vulnerability_text, winner_text
from .prompt import undecodable

def _flags_show_no_type(command, ctx) -> None:
    """Give every flag of ``command`` (``--auto``, ``--help``) an empty metavar: typer's rich help
    writes a ``<bool>`` type after a flag, as if it took a value (its plain help writes none)."""
    for param in command.get_params(ctx):
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


class _Group(typer.core.TyperGroup):
    """The command group of ``rulekit``: the commands' flags are listed in ``--help`` without a
    type (see :func:`_flags_show_no_type`)."""

    def get_command(self, ctx, cmd_name: str):
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _flags_show_no_type(command, ctx)
        return command

    def format_help(self, ctx, formatter) -> None:
        _flags_show_no_type(self, ctx)
        super().format_help(ctx, formatter)


#: Bounds of the numeric options (a value outside is a usage error, exit 2): a variant is for
#: 2 to 8 players and a match stops after at most 1,000,000 hands (the schema's bounds for
#: ``players`` and ``match.max_hands``); ``compare`` starts at most :data:`MAX_JOBS` worker
#: processes and ``serve`` keeps at most :data:`MAX_TABLES` tables.
MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_HANDS = 1_000_000
MAX_JOBS = 256
MAX_TABLES = 10_000


def _players_option(help_text: str):
    """The ``--players N`` option (a number of players, :data:`MIN_PLAYERS` to :data:`MAX_PLAYERS`)."""
    return typer.Option(None, "--players", min=MIN_PLAYERS, max=MAX_PLAYERS, help=help_text)

app = typer.Typer(cls=_Group, no_args_is_help=True, rich_markup_mode="rich", add_completion=False,
                  help="Describe, check, play and score trick-taking card games and their house rules.")


# ---------------------------------------------------------------------- shell completion
# Typer's completion scripts take every value printed as a candidate (they ignore click's "file"
# items), and a shell falls back to its own file completion when none is printed (bash's
# `complete -o default`, zsh's `_files`, fish's file arguments); so a completer offers what it
# knows (installed ids, files of the expected kind) and nothing when nothing fits, never the
# word itself.

def _files_like(incomplete: str, suffixes) -> list:
    """The files of the folder ``incomplete`` names whose names start like it and end in one
    of ``suffixes`` (sorted; folders are left to the shell)."""
    folder, slash, start = incomplete.rpartition("/")
    try:
        names = sorted(f.name for f in Path(folder + slash or ".").iterdir()
                       if f.name.startswith(start) and f.suffix in suffixes and f.is_file())
    except (OSError, ValueError):
        return []
    return [folder + slash + n for n in names]


def _installed_names() -> dict:
    """Installed id -> its ``name:`` line (a completion's help), read without compiling."""
    out = {}
    for vid in builtin_ids():
        try:
            text = builtin_dir().joinpath(f"{vid}.yaml").read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        m = re.search(r"^name:\s*[\"']?(.*?)[\"']?\s*(#.*)?$", text, re.M)
        out[vid] = m.group(1) if m else ""
    return out


def complete_variant(incomplete: str) -> list:
    """Completion of a variant argument: the installed ids that start like the word (with their
    names as help), then the .yaml files of the folder it names."""
    ids = [] if "/" in incomplete else [(vid, name) for vid, name in _installed_names().items()
                                        if vid.startswith(incomplete)]
    return ids + _files_like(incomplete, (".yaml", ".yml"))


def _complete_files(*suffixes: str):
    """A completer of files ending in one of ``suffixes``."""
    def complete(incomplete: str) -> list:
        return _files_like(incomplete, suffixes)
    complete.__doc__ = f"Completion of a {', '.join(suffixes) or 'folder'} argument."
    return complete


def _complete_list(choices):
    """A completer of one of ``choices`` or, after commas, of the next item of a comma list."""
    def complete(incomplete: str) -> list:
        done, _, last = incomplete.rpartition(",")
        return [f"{done},{c}" if done else c for c in choices if c.startswith(last)]
    return complete


_VARIANT = complete_variant
_RECORD = _complete_files(".json")
_PBN = _complete_files(".pbn")
_FORMAT = _complete_list(("text", "json"))
_FOLDER = _complete_files()   # offers nothing: the shell completes folders itself


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"rulekit {__version__}")
        raise typer.Exit()


# typer's own --install-completion and --show-completion are flags that guess the shell from the
# parent process (`sh -c 'rulekit --show-completion bash'` printed "Shell sh not supported."): these
# take the shell as their value instead, so the shell named is the one served, from any shell.
typer_completion.completion_init()   # typer's completion scripts and protocol (_RULEKIT_COMPLETE)
_SHELLS = tuple(s.value for s in Shells)


def _completion_option(callback):
    """A root option's callback that gives typer's ``callback`` the shell named.
    :raises typer.BadParameter: a shell typer has no script for."""
    def run(ctx: typer.Context, param: typer.CallbackParam, value: Optional[str]) -> None:
        if value is None or ctx.resilient_parsing:
            return
        if value not in _SHELLS:
            raise typer.BadParameter(f"unknown shell {visible(value)!r}; one of: {', '.join(_SHELLS)}")
        callback(ctx, param, value)
    return run


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                       help="Print the version of rulekit and exit."),
          install_completion: Optional[str] = typer.Option(
              None, "--install-completion", metavar="SHELL",
              expose_value=False, callback=_completion_option(typer_completion.install_callback),
              autocompletion=_complete_list(_SHELLS),
              help="Install completion for SHELL (bash, zsh, fish, powershell or pwsh), for every new shell."),
          show_completion: Optional[str] = typer.Option(
              None, "--show-completion", metavar="SHELL",
              expose_value=False, callback=_completion_option(typer_completion.show_callback),
              autocompletion=_complete_list(_SHELLS),
              help="Print the completion script of SHELL, to copy it or load it yourself.")) -> None:
    # the root options (--version, --install-completion, --show-completion) only; no command of its own
    pass


class _SafeConsole(Console):
    """A console for text that comes from files (variant, seat and player names, records,
    diagnostics): emoji codes stay text (``FILE:100:COL`` is not turned into an emoji, issue 13
    case 12) and control characters are made visible (``^[``), so that no name can clear the screen
    or retitle the window (issue 13 case 6). Rich's own control codes (colours) pass."""

    def __init__(self, **kwargs):
        super().__init__(emoji=False, **kwargs)

    def _render_buffer(self, buffer) -> str:
        return super()._render_buffer(Segment(visible(text), style, None) if control is None
                                      else Segment(text, style, control) for text, style, control in buffer)


class _Console(_SafeConsole):
    """The standard output console: a closed output (``rulekit play --auto | head``) raises
    BrokenPipeError, so that the game loop saves the record before stopping (rich itself would
    exit at once)."""

    def on_broken_pipe(self) -> None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        raise BrokenPipeError

    def print(self, *objects, soft_wrap=None, **kwargs) -> None:
        """Print as rich does, but lines written to a file or a pipe are never folded at the
        default 80 columns (a long auction line stays one line in ``play --auto > FILE``), and a
        table is laid out as wide as its cells need (``compare > FILE`` keeps every interval
        whole instead of cutting it to ``-24.2%..1…``)."""
        if self.is_terminal:
            super().print(*objects, soft_wrap=soft_wrap, **kwargs)
            return
        width = self.width
        unbounded = self.options.update_width(1 << 16)
        try:   # rich never prints wider than the console: widen it for this print
            self.width = max([width] + [self.measure(o, options=unbounded).maximum
                                        for o in objects if not isinstance(o, str)])
            super().print(*objects, soft_wrap=True if soft_wrap is None else soft_wrap, **kwargs)
        finally:
            self.width = width

    def input(self, prompt="", **kwargs) -> str:
        """A line typed at the prompt, of at most :data:`LINE_LIMIT` characters (``< /dev/zero``
        must not fill the memory): a longer line is refused, the rest of it up to its newline
        is skipped, and the prompt is asked again; so is a line holding bytes that are not UTF-8
        (:func:`~rulekit.cli.prompt.undecodable`).

        :raises EOFError: the input ended.
        """
        while True:
            if not _interactive():
                self.print(prompt, end="", **kwargs)
                line = _bounded_line(sys.stdin)
            else:   # a terminal's line editing (its own line limit is about 4096 bytes)
                line = super().input(prompt, **kwargs)
            if len(line) > LINE_LIMIT:
                self.print(f"\n[red]refused:[/] a line of more than {LINE_LIMIT} characters", highlight=False)
                continue
            problem = undecodable(line)    # bytes that are no UTF-8: said readably, asked again
            if problem is None:
                return line
            self.print("[red]refused:[/] " + escape(problem), highlight=False)


LINE_LIMIT = 1000   # characters of a typed line; no action or command is near this long


def _bounded_line(stream) -> str:
    """The next line of ``stream`` without its newline, read in bounded pieces; a line longer
    than :data:`LINE_LIMIT` is returned as its first ``LINE_LIMIT + 1`` characters, the rest of it
    discarded.

    :raises EOFError: the stream is at its end (or closed: ``stream`` is ``None``).
    """
    if stream is None:
        raise EOFError("no input")
    line = stream.readline(LINE_LIMIT + 1)
    if not line:
        raise EOFError("input ended")
    if len(line) > LINE_LIMIT and not line.endswith("\n"):
        rest = line
        while rest and not rest.endswith("\n"):   # skip to the newline, 64 KB at a time
            rest = stream.readline(1 << 16)
    return line.rstrip("\r\n") if line.endswith("\n") else line


console = _Console()
err = _SafeConsole(stderr=True)

CONTROLLERS = ("human", "bot", "random")


def _fail(msg: str, code: int = 1) -> NoReturn:
    """Print ``msg`` as an error and exit with ``code``."""
    err.print(f"[red]error:[/] {escape(msg)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _did_you_mean(value: str, known) -> str:
    """``"; did you mean X?"`` for the closest of ``known`` to ``value``, or ``""``: said by every
    command for every unknown name (a variant, a file, a choice), before the list of known ones."""
    close = difflib.get_close_matches(value, [str(k) for k in known], n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _choice(option: str, value: str, choices, noun: str = "a choice") -> str:
    """``value`` when it is one of ``choices``, else exit 2 with the closest and the list."""
    if value not in choices:
        _fail(f"{option}: {value!r} is not {noun}{_did_you_mean(value, choices)} (expected {_or_list(choices)})", 2)
    return value


def _load(variant: str, players: int | None = None, broken: int = 1):
    """The compiled variant; exit ``broken`` (1; 2 for ``diff``) with its diagnostics when the
    file has problems."""
    try:
        return load_variant(variant, players=players)
    except VariantError as e:
        for d in e.diagnostics:
            err.print(str(d), highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(broken)
    except RulekitError as e:
        _fail(str(e), broken)


def _or_list(xs) -> str:
    xs = [str(x) for x in xs]
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " or " + xs[-1]


@app.command("list")
def list_variants():
    """List the installed variants (id, players, name; house rules name their base)."""
    rows = []
    for vid in builtin_ids():
        try:
            v = load_variant(vid)
        except RulekitError as e:  # a broken installed file must not hide the others
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            rows.append((vid, "", f"[red]invalid[/]: {escape(first)}"))
            continue
        files = list(getattr(v, "files", ()) or ())
        base = Path(files[1]).stem if len(files) > 1 else ""
        rows.append((vid, f"{_or_list(v.player_choices)} players",
                     one_line(v.name) + (f"  [dim](house rule of {escape(base)})[/]" if base else "")))
    w0 = max((len(r[0]) for r in rows), default=0)
    w1 = max((len(r[1]) for r in rows), default=0)
    for vid, players, name in rows:
        console.print(f"[bold]{escape(vid.ljust(w0))}[/]  {players.rjust(w1)}  {name}", highlight=False,
                      soft_wrap=True)


@app.command()
def validate(files: List[str] = typer.Argument(..., autocompletion=_VARIANT,
                                               help="Variant files (or ids of installed variants) to check."),
             format: str = typer.Option("text", "--format", autocompletion=_FORMAT,
                                        help="Output: text (FILE:LINE:COL: path: message) "
                                             "or json (a list of {file, line, column, path, message})."),
             players: Optional[int] = _players_option("Check for this number of players "
                                                      "only (default: every choice the variant offers)."),
             strict: bool = typer.Option(False, "--strict", help="Count warnings (options that have no "
                                         "effect) as errors.")):
    """Check variant files; print every problem as FILE:LINE:COL: path: message.

    Options that have no effect are printed as FILE:LINE:COL: warning: path: message.
    Exit 0 when every file is valid (warnings allowed, unless --strict), 1 when any
    problem is found, 2 on a usage error (a file or id that does not exist, or is not a
    regular file: the others are still checked).
    """
    _choice("--format", format, ("text", "json"), "a format")
    found = []
    bad_files = 0
    named = {f: _variant_problem(f) for f in files}
    unknown = [p for p in named.values() if p is not None]
    for problem in unknown:   # usage errors (exit 2): every other file is still checked
        err.print(f"[red]error:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    files = [f for f in files if named[f] is None]
    for f in files:
        mine = check_file(f, players, warnings=True)
        found += mine
        bad_files += any(strict or not isinstance(d, VariantWarning) for d in mine)
    errors = sum(1 for d in found if not isinstance(d, VariantWarning))
    warned = len(found) - errors
    failing = errors + (warned if strict else 0)
    if format == "json":
        # every control, format or separator character of the file's text written as a JSON escape
        # (json itself leaves DEL, C1 controls, bidi and zero-width characters raw)
        typer.echo(json_text([d.as_dict() for d in found]))
    else:
        for d in found:   # messages quote file text: control characters made visible (issue 13 case 6)
            typer.echo(visible(str(d)))
        n = len(files)
        note = f" ({warned} warning{'s' if warned != 1 else ''})" if warned and not failing else ""
        if failing:
            typer.echo(f"{failing} problem{'s' if failing != 1 else ''} in {bad_files} of {n} "
                       f"file{'s' if n != 1 else ''}", err=True)
        elif files:
            typer.echo(f"{n} file{'s' if n != 1 else ''} valid{note}")
    raise typer.Exit(2 if unknown else 1 if failing else 0)


@app.command()
def play(ctx: typer.Context,
         variant: Optional[str] = typer.Argument(None, autocompletion=_VARIANT,
                                                 help="Variant id (see `rulekit list`) or path to a .yaml "
                                                      "file; optional with --resume."),
         auto: bool = typer.Option(False, "--auto", help="Bots in every seat; print each hand as it is played "
                                   "(its auction, one line per trick, its score)."),
         seed: Optional[int] = typer.Option(None, "--seed", min=0, max=records.MAX_SEED,
                                            help="Seed of the cut and every shuffle (and of the bots)."),
         players: Optional[str] = typer.Option(None, "--players",
                                               autocompletion=_complete_list(CONTROLLERS),
                                               help="Controller of each seat, comma separated: human, bot, random, "
                                                    "or bot:PATH, a bot file run in its own process "
                                                    "(e.g. human,bot,bot:mybot.py). Its length sets the number of "
                                                    "players when the variant offers a choice. A number N means you "
                                                    "and N-1 bots."),
         save: Optional[Path] = typer.Option(None, "--save", autocompletion=_RECORD,
                                             help="Keep the game record in this file (written atomically "
                                                  "before each of your moves and after each hand; bot-only "
                                                  "games save after a hand while saving takes under a tenth "
                                                  "of the time, and at the end)."),
         resume: Optional[Path] = typer.Option(None, "--resume", autocompletion=_RECORD,
                                               help="Resume a saved game record (and keep "
                                                    "saving into it)."),
         quiet: bool = typer.Option(False, "--quiet", help="Bot-only games: print only the final sheet and the "
                                    "winner."),
         deal: Optional[Path] = typer.Option(None, "--deal", autocompletion=_PBN,
                                             help="Play the deal of this PBN file (its Deal, Dealer "
                                                  "and Vulnerable tags) first; later deals are shuffled from the "
                                                  "seed."),
         max_hands: Optional[int] = typer.Option(None, "--max-hands", min=1, max=MAX_HANDS,
                                                 help="Stop the match after this many hands if it has not "
                                                      "ended by then (the best total wins)."),
         reveal: bool = typer.Option(False, "--reveal", help="Continue a game without its human, which shows "
                                     "the seed and deals at the end.")):
    """Play a variant in the terminal against bots, or watch bots play (--auto).

    At the prompt type an action: pass, a bid (7H, 10NT, 10T, 1H, 2NT), X or
    double, XX or redouble, discard 7C 8C 9D, play QS (or just QS), play JK H
    (or JK H) to lead the Joker naming hearts; a declarer also plays his
    dummy's cards. ? lists the legal actions, help the commands, sheet the
    score sheet, save writes the record, quit saves and stops. Ctrl-C and the
    end of the input also save the game; resume it with --resume FILE.
    """
    spec = _parse_players(players)
    if isinstance(spec, list) and auto and "human" in spec:
        _fail("--auto puts bots in every seat; drop human from --players", 2)
    if resume is not None and seed is not None:
        _fail("--seed cannot be used with --resume (the record keeps its seed)", 2)
    if resume is None and variant is None:
        _fail("missing VARIANT (see `rulekit list`), or --resume FILE", 2)
    if resume is not None and deal is not None:
        _fail("--deal cannot be used with --resume (the record keeps its deals)", 2)
    if resume is not None and max_hands is not None:
        _fail("--max-hands cannot be used with --resume (the record keeps its setting)", 2)
    if deal is not None and not deal.is_file():
        _fail(f"--deal {deal}: no such file" if not deal.exists() else f"--deal {deal}: not a file", 2)
    if save is not None:
        _check_save_path(save, resume)
    ctx.call_on_close(_lock_record(save, resume).release)   # held for the game: no other process writes it
    rec: dict = {}
    if resume is not None:
        state, rec = _resumed(resume, variant)
        n = state.variant.players
        if spec is not None and _count(spec) != n:
            _fail(f"--players names {_count(spec)} seats but the saved game has {n} players", 2)
        controllers = _controllers(spec, state.variant, auto, rec.get("players"))
        _check_reveal(rec, state, controllers, resume, reveal)
    else:
        assert variant is not None   # (refused above without --resume)
        v = _variant_for_play(variant, _count(spec) if spec is not None else None)
        controllers = _controllers(spec, v, auto, None)
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        names = player_names(controllers, v)
        extra, pbn_hands = _pbn_deal(deal, v) if deal is not None else ({}, None)
        try:
            state = State(v, seed=seed, names=names, max_hands=max_hands, **extra)
        except RulekitError as e:
            _fail(str(e))
        if pbn_hands is not None and deal is not None:
            _check_dealt(state, pbn_hands, deal)
    if quiet and "human" in controllers:
        _fail("--quiet is for games without a human seat (add --auto, or --players bot,bot,...)", 2)
    game = Game(state, controllers, console, save or resume, quiet=quiet, status=err, pauses=_interactive(),
                line_editing=_interactive() and _terminal_out(),
                undone=rec.get("undone") if resume is not None else None)
    if save is not None:    # a new record is created exclusively (never over another process's file)
        game.new_record = resume is None or not _same_file(save, resume)
    if not quiet:
        if resume is not None:
            console.print(f"resumed [bold]{one_line(state.variant.name)}[/] from {escape(str(resume))}: "
                          f"hand {state.hand.number + 1}, "
                          f"{len(state.history)} actions replayed", highlight=False)
        else:
            seats = ", ".join(f"{seat_label(state, i)}: {c}" for i, c in enumerate(controllers))
            # no seed here: with it, `play --auto --seed N` elsewhere shows every hidden card (issue 12 case 2)
            console.print(f"[bold]{one_line(state.variant.name)}[/] — {state.variant.players} "
                          f"players ({escape(seats)}), first dealer {escape(state.names[state.first_dealer])}",
                          highlight=False, soft_wrap=True)
            if deal is not None:
                vul = vulnerability_text(state, state.hand)
                console.print(f"deal 1 from {escape(str(deal))}"
                              + (f" ({escape(vul.plain)})" if vul is not None else ""), highlight=False,
                              soft_wrap=True)
        if "human" in controllers:
            console.print("[dim]Type ? for the legal actions, help for the commands; Ctrl-C saves the game.[/]")
    if game.save_path is not None:
        try:
            game.save()
        except FileExistsError:
            _fail(f"--save {save}: the file already exists (another process created it just now); "
                  f"choose another file", 2)
        except OSError as e:
            _fail(f"cannot write the record {game.save_path}: {e.strerror or e}", 2)
    raise typer.Exit(game.run())


def _check_reveal(rec: dict, state, controllers: list, resume: Path, reveal: bool) -> None:
    """Exit 2 when a game in progress that a human played is resumed with bots in his seat and no
    ``--reveal``: its record holds the seed, and bots playing it out would print the seed and
    every hand, the human's unplayed deals included."""
    saved = rec.get("players") or []
    gone = [s for s, c in enumerate(saved) if c == "human" and s < len(controllers) and controllers[s] != "human"]
    if gone and not state.is_over and not reveal:
        seats = ", ".join(state.names[s] for s in gone)
        _fail(f"{resume} is a game in progress with a human at {seats}; played out by bots it shows its "
              f"seed and deals at the end. Add --reveal to do so, or continue it with its human: "
              f"`{resume_command(resume)}`", 2)


def _interactive() -> bool:
    """True when a person types at a terminal (the game then pauses for Enter); piped input is a
    script, which never waits."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def _terminal_out() -> bool:
    """True when the standard output is a terminal (readline then draws the prompt's line)."""
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (ValueError, OSError):
        return False


def _parse_players(players: str | None):
    """``None``, a seat count (``"3"``) or the list of controllers; exit 2 when malformed."""
    if players is None:
        return None
    text = players.strip()
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= 16:
            _fail(f"--players {text}: expected a number of players such as 3, or controllers such as "
                  f"human,bot,bot", 2)
        return n
    out = [p.strip() if p.strip().lower().startswith(EXTERNAL_PREFIX) else p.strip().lower()
           for p in text.split(",")]
    if not text or any(not p for p in out):
        _fail(f"--players {players!r}: an empty seat (expected controllers separated by commas, "
              f"e.g. human,bot,bot)", 2)
    for p in out:
        if p.lower().startswith(EXTERNAL_PREFIX):   # a bot file, run in its own process
            path = Path(p[len(EXTERNAL_PREFIX):]).expanduser()
            if not path.is_file():
                _fail(f"--players {p}: no such bot file (expected bot:PATH of a Python file defining "
                      f"choose(observation) or a class Bot; docs/cli.md)", 2)
            out[out.index(p)] = EXTERNAL_PREFIX + str(path.resolve())
            continue
        _choice("--players", p, CONTROLLERS, "a controller")
    return out


def _count(spec) -> int:
    return spec if isinstance(spec, int) else len(spec)


def _controllers(spec, v, auto: bool, saved: list | None) -> list:
    """The controller of each seat of variant ``v``: as listed, bots only (``--auto``), the saved
    ones, else you at the variant's home seat (``home_seat``) and bots elsewhere."""
    n = v.players
    if isinstance(spec, list):
        return list(spec)
    if auto:
        return ["bot"] * n
    if isinstance(spec, int) or not saved or len(saved) != n:
        home = getattr(v, "home_seat", 0)
        home = home if 0 <= home < n else 0
        return ["human" if s == home else "bot" for s in range(n)]
    return ["bot" if c == "external" else c for c in saved]   # a record never names a bot file


def _pbn_deal(path: Path, v) -> tuple:
    """State arguments for the deal of a PBN file (``deals``, ``dealer``, and ``vulnerable`` when the
    file gives it) and the hands it deals (seat -> card texts). Exit 1: a file that is not a usable
    PBN deal, or a variant it does not fit."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        _fail(f"--deal {path}: cannot read the file: {e.strerror or e}", 2)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")      # PBN files are often ISO 8859-1
    try:
        found = pbn_format.read(text, str(path))
    except RulekitError as e:
        _fail(str(e))
    if v.players != 4 or v.deck.size != 52:
        _fail(f"--deal {path}: a PBN deal is four hands of 13 cards, but {visible(v.name, newlines=False)} deals "
              f"{v.deck.size} cards to {v.players} players")
    try:
        order = [v.deck.parse(c) for c in found.deck_order()]
    except RulekitError as e:
        _fail(f"--deal {path}: {e}")
    out = {"deals": [order], "dealer": found.dealer}
    if found.vulnerable is not None and v.vulnerability:     # a game without vulnerability ignores the tag
        out["vulnerable"] = found.vulnerability(v.side_names)
    return out, found.hands


def _check_dealt(state, hands: dict, path: Path) -> None:
    """Exit 1 unless every seat was dealt the hand the PBN file gives it (a variant that does not
    deal one card at a time from the dealer's left would scramble the hands)."""
    deck = state.variant.deck
    for seat, cards in hands.items():
        want = 0
        for c in cards:
            want |= 1 << deck.parse(c)
        if state.hand.dealt[seat] != want:
            _fail(f"--deal {path}: {visible(state.variant.name, newlines=False)} does not deal 13 cards one at a "
                  f"time from the dealer's left, so the PBN hands cannot be dealt as written")


def _variant_problem(variant: str) -> str | None:
    """Why ``variant`` names no variant (no installed id and no file, or not a regular file), or
    ``None``. A file that exists but cannot be read or is broken is left to the loader (exit 1,
    with its position)."""
    from rulekit.variant.loader import locate, not_regular_file
    problem = not_regular_file(variant)
    if problem is not None:
        return f"{variant}: {problem}"
    try:
        missing = locate(variant) is None
    except Exception:  # noqa: BLE001 - exists but unreadable: load_variant reports it with its position
        missing = False
    if not missing:
        return None
    return (f"no such variant or file {variant!r}{_did_you_mean(variant, _variant_names(variant))} "
            f"(installed: {', '.join(builtin_ids())}; see `rulekit list`)")


def _variant_names(near: str) -> list:
    """What a variant argument close to ``near`` may have meant: the installed ids and the
    .yaml files of the folder ``near`` names (the current folder for a bare name)."""
    folder = Path(near).parent
    try:
        files = sorted(str(folder / f.name) if str(folder) != "." else f.name
                       for f in folder.iterdir() if f.suffix in (".yaml", ".yml") and f.is_file())
    except (OSError, ValueError):
        files = []
    return builtin_ids() + files


def _find_variant(variant: str) -> None:
    """Exit 2 (a usage error, for every command alike) when ``variant`` names no variant, with
    the closest name and the installed ids (:func:`_variant_problem`)."""
    problem = _variant_problem(variant)
    if problem is not None:
        _fail(problem, 2)


def _find_file(path: Path, what: str, suffixes=(".json",), label: str = "") -> None:
    """Exit 2 (a usage error) when ``path`` does not exist (with the closest file of its folder
    that ends in one of ``suffixes``) or is not a regular file (a folder, a FIFO, a device);
    ``what`` names the file expected, ``label`` the option that names it (``--resume``)."""
    import stat
    at = f"{label} {path}" if label else str(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        try:
            near = [str(path.parent / f.name) if str(path.parent) != "." else f.name
                    for f in path.parent.iterdir() if f.suffix in suffixes]
        except (OSError, ValueError):
            near = []
        _fail(f"{at}: no such file{_did_you_mean(str(path), near)}", 2)
    except (OSError, ValueError):
        return   # cannot even be looked at: the reader says why (exit 1)
    if not stat.S_ISREG(mode):
        _fail(f"{at}: {'is a folder' if stat.S_ISDIR(mode) else 'not a regular file'} (expected {what})", 2)


def _variant(variant: str, n: int | None = None, broken: int = 1, hint: str = ""):
    """Load ``variant`` for ``n`` players. Exit 2: no such variant, or a number of players it
    does not offer (``hint`` says more); exit ``broken`` (1; 2 for ``diff``): a file with problems."""
    _find_variant(variant)
    v = _load(variant, broken=broken)
    if n is None or n == v.players:
        return v
    choices = v.player_choices
    if n not in choices:
        _fail(f"{visible(v.name, newlines=False)} is played by {_or_list(choices)} players, not {n}{hint}", 2)
    return _load(variant, n, broken=broken)


def _variant_for_play(variant: str, n: int | None):
    """Load ``variant`` for ``n`` players (exit 2: unknown variant or impossible count; 1: broken file)."""
    return _variant(variant, n, hint=" (--players gives one controller per seat, or the number of players)")


def _check_save_path(save: Path, resume: Path | None) -> None:
    """Refuse a --save target that is a folder, in a folder that does not exist (none is created),
    not a regular file (a FIFO, a device), or another existing file (exit 2): resuming is
    suggested only for a file that is a game record."""
    if save.is_dir():
        _fail(f"--save {save}: is a folder (expected a file name such as game.json)", 2)
    folder = save.parent
    if not folder.is_dir():
        _fail(f"--save {save}: folder {folder} does not exist" if not folder.exists()
              else f"--save {save}: {folder} is not a folder", 2)
    if save.exists() and not save.is_file():
        _fail(f"--save {save}: not a regular file (expected a file name such as game.json)", 2)
    if save.exists() and (resume is None or save.resolve() != resume.resolve()):
        if not records.is_record(save):
            _fail(f"--save {save}: the file already exists and is not a game record (saving would replace "
                  f"it); choose a new file name such as game.json", 2)
        _fail(f"--save {save}: the file already exists; continue that game with "
              f"`{resume_command(save)}`, or choose another file", 2)


def _same_file(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _lock_record(save: Path | None, resume: Path | None):
    """The :class:`~rulekit.records.RecordLock` of the record this game writes (``--save``, else
    an existing ``--resume`` file), or one that holds nothing; exit 2 when another rulekit
    process plays into that record."""
    target = save if save is not None else resume
    if target is None or (save is None and not target.exists()):
        return records.RecordLock(None)
    try:
        return records.RecordLock(target)
    except RulekitError as e:
        _fail(str(e), 2)
    except OSError as e:
        _fail(f"cannot write the record {target}: {e.strerror or e}", 2)


def _resumed(resume: Path, variant: str | None):
    """The replayed state and the record of ``--resume FILE`` (exit 2: missing file; 1: broken
    record, or one whose stored sheet disagrees with its replay, as ``replay`` says)."""
    _find_file(resume, "a record file written by rulekit", label="--resume")
    try:
        rec = records.load(resume)
    except RulekitError as e:
        _fail(str(e))
    if variant is not None and variant != rec["variant"]:
        from rulekit.variant.loader import locate
        try:
            same = locate(variant) is not None and load_variant(variant).id == rec["variant"]
        except RulekitError:
            same = False
        except Exception:  # noqa: BLE001
            same = False
        if not same:
            _fail(f"{resume} is a game of {rec['variant']!r}, not {variant!r} "
                  f"(drop VARIANT: `{resume_command(resume)}`)", 2)
    named = _load(variant, (rec.get("settings") or {}).get("players")) \
        if variant is not None and Path(variant).is_file() else None   # a file the user names is trusted
    try:
        state = records.replay(rec, source=str(resume), folder=resume.parent, variant=named)
        records.verify(rec, state, str(resume))
    except RulekitError as e:
        _fail(str(e))
    return state, rec


@app.command()
def replay(file: Path = typer.Argument(..., autocompletion=_RECORD,
                                       help="A game record (JSON) written by `rulekit play --save`."),
           out: Optional[Path] = typer.Argument(None, autocompletion=_PBN,
                                                help="With --pbn: the PBN file to write (default: "
                                                     "standard output)."),
           pbn: bool = typer.Option(False, "--pbn", help="Export the played deals that had an auction as PBN "
                                    "(Deal, Dealer, Vulnerable, Auction, Contract, Declarer, Result, Score, and the "
                                    "Play section of each played deal) instead of printing the sheet.")):
    """Replay a record and print its score sheet; exit 1 if it is broken or does not replay."""
    _find_file(file, "a record file written by rulekit")
    if out is not None and not pbn:
        _fail(f"unexpected argument {out} (an output file is only for --pbn)", 2)
    if out is not None and out.is_dir():
        _fail(f"{out}: is a folder (expected a file name such as deals.pbn)", 2)
    try:
        rec = records.load(file)
        state = records.replay(rec, source=str(file), folder=file.parent)
        records.verify(rec, state, str(file))
    except RulekitError as e:
        _fail(str(e))
    if pbn:
        _export_pbn(state, file, out)
        return
    # the seed of a game in progress would show every hidden card (issue 12 case 2)
    seed = f"seed {state.seed}, " if state.is_over else ""
    console.print(f"[bold]{one_line(state.variant.name)}[/] — {seed}replayed {len(state.history)} actions",
                  highlight=False)
    console.print(score_sheet(state, title=SHEET_TITLE))
    for u in rec.get("undone") or ():     # an undo is part of the story the record tells
        n = len(u["actions"])
        who = state.names[u["by"]] if 0 <= u["by"] < len(state.names) else f"seat {u['by']}"
        # (counted, not listed: a bot's discard taken back would show cards still hidden)
        console.print(f"undo by {escape(who)}: {n} action{'s' if n != 1 else ''} taken back at action "
                      f"{u['at'] + 1}", highlight=False)
    if state.is_over:
        console.print(winner_text(state))
        settle = settlement_text(state)
        if settle is not None:
            console.print(settle)
    else:
        console.print(f"game in progress: hand {state.hand.number + 1}, {state.names[state.to_move]} to move "
                      f"(continue with `{resume_command(file)}`)", highlight=False, markup=False)


def _export_pbn(state, file: Path, out: Path | None) -> None:
    """Write the finished deals of ``state`` that had an auction (a contract, or passed out) as PBN."""
    hands = [h for h in state.hand_log if h.contract is not None or (h.calls and h.void)]
    if not hands:
        _fail(f"{file}: no finished deal with an auction to export as PBN")
    try:
        games = [pbn_format.write(state, h) for h in hands]
    except RulekitError as e:
        _fail(f"{file}: {e}")
    text = "% PBN 2.1\n% exported by rulekit from " + file.name + "\n\n" + "\n".join(games)
    if out is None:   # names and comments come from the record: their control characters made visible
        sys.stdout.write(visible(text))
        sys.stdout.flush()
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        _fail(f"cannot write {out}: {e.strerror or e}", 1)
    console.print(f"{len(games)} deal{'s' if len(games) != 1 else ''} written to {escape(str(out))}",
                  highlight=False)


def main() -> None:
    """Console-script entry point."""
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show ♠ gets '?' instead of a crash
        reconfigure = getattr(stream, "reconfigure", None)   # a TextIOWrapper's (not a replaced stream's)
        try:
            if reconfigure is not None:
                reconfigure(errors="replace")
        except ValueError:
            pass
    try:
        app(prog_name="rulekit")   # also under `python -m rulekit.cli.app`: the completion scripts name it
    except BrokenPipeError:  # `rulekit replay x.json | head`: the reader left; nothing to report
        _silence_stdout()
        sys.exit(141)
    except RulekitError as e:  # a user error that slipped through: message, not traceback
        err.print(f"error: {e}", highlight=False, markup=False, soft_wrap=True)
        sys.exit(1)
    except OSError as e:  # `rulekit list > /dev/full`: a message, not a traceback (issue 13 case 9)
        _silence_stdout()
        try:
            err.print(f"error: cannot write the output ({e.strerror or e})", highlight=False, markup=False,
                      soft_wrap=True)
        except OSError:
            pass
        sys.exit(1)
    except KeyboardInterrupt:  # Ctrl-C outside a game (a game saves itself first)
        err.print("interrupted", highlight=False)
        sys.exit(130)



@app.command()
def diff(a: str = typer.Argument(..., autocompletion=_VARIANT,
                                 help="The first variant: an installed id or a path to a .yaml file."),
         b: str = typer.Argument(..., autocompletion=_VARIANT, help="The second variant, compared with the first."),
         format: str = typer.Option("text", "--format", autocompletion=_FORMAT,
                                    help="Output: text (one line per rule) or json."),
         players: Optional[int] = _players_option("Number of players, for variants "
                                                  "that offer a choice.")):
    """Say which rules differ between two variant files, in rule words, after extends:.

    Exit 0 when no rule differs, 1 when some rule differs, 2 on an error (a variant
    that does not load, a usage error), like diff(1).
    """
    from rulekit.sim.diff import diff_variants
    _choice("--format", format, ("text", "json"), "a format")
    for name in (a, b):
        _variant(name, players, broken=2)   # as diff(1): any trouble is 2, a difference 1
    try:
        d = diff_variants(a, b, players=players)
    except VariantError as e:
        for dg in e.diagnostics:
            err.print(str(dg), highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(2)
    except RulekitError as e:
        _fail(str(e), 2)
    if format == "json":
        typer.echo(json_text(d.as_dict()))   # (never through the console: its escaping is not JSON's)
    else:
        for line in d.lines():
            console.print(line, highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(0 if d.same else 1)


@app.command()
def compare(variants: List[str] = typer.Argument(..., autocompletion=_VARIANT,
                                                 help="Two or more variants (ids or .yaml paths); the "
                                                      "first is the reference the others are compared with."),
            deals: Optional[int] = typer.Option(None, "--deals", help="Number of single deals to play under "
                                                "each variant (default 1000)."),
            matches: Optional[int] = typer.Option(None, "--matches", help="Play this many whole matches "
                                                  "instead of single deals."),
            bots: str = typer.Option("sensible", "--bots", autocompletion=_complete_list(("random", "sensible")),
                                     help="Players: sensible (the default) or random, one for every seat "
                                          "or a comma list per seat (sensible,random,random)."),
            seed: int = typer.Option(1, "--seed", min=0, max=records.MAX_SEED, help="Root seed: deal i of every "
                                     "variant is seeded from (seed, i)."),
            jobs: int = typer.Option(0, "--jobs", min=0, max=MAX_JOBS,
                                     help="Worker processes (0: one per CPU; 1: no pool); "
                                          "the numbers do not depend on it."),
            scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Run on this dask.distributed "
                                                    "scheduler (tcp://host:8786) instead of local processes."),
            out: Optional[Path] = typer.Option(None, "--out", autocompletion=_FOLDER,
                                               help="Folder for rows.csv, "
                                                    "columns.json, rows.jsonl, summary.json and PNG plots."),
            max_hands: int = typer.Option(200, "--max-hands", min=1, max=MAX_HANDS,
                                          help="With --matches: stop a match after this "
                                               "many hands."),
            players: Optional[int] = _players_option("Number of players, for variants "
                                                     "that offer a choice.")):
    """Play the same deals under each variant and compare them: every metric's paired
    difference with its 95% confidence interval and its test (paired t, or McNemar's exact
    test for a 0/1 metric), the p-values also adjusted together (Holm).

    Exit 0 when the comparison ran, 1 for a variant file with problems, 2 on a usage
    error (a missing variant file, files that cannot share deals, bad options).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from rulekit.sim.compare import CompareError
    from rulekit.sim.compare import compare as run_compare
    from rulekit.sim.output import write_plots, write_rows
    if deals is not None and matches is not None:
        _fail("give --deals or --matches, not both", 2)
    unit, n = ("matches", matches) if matches is not None else ("deals", deals if deals is not None else 1000)
    from rulekit.sim.compare import BOT_KINDS
    for kind in bots.split(","):
        _choice("--bots", kind.strip(), BOT_KINDS, "a bot")
    for name in variants:
        _variant(name, players)
    if out is not None:
        _check_out(out)
    executor = client = None
    if scheduler:
        try:
            from distributed import Client
        except ImportError:
            _fail("--scheduler needs dask.distributed: pip install 'rulekit[dask]'", 2)
        try:
            client = Client(scheduler, timeout=30)
        except (OSError, TimeoutError, ValueError) as e:
            _fail(f"cannot reach the dask scheduler {scheduler}: {e}", 2)
        executor = client.get_executor()
    def stop(_signum, _frame):   # a TERM to this process alone: end the pool's workers too, then exit
        raise SystemExit(143)
    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:   # not the main thread: leave signals alone
        before = None
    try:
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err, transient=True) as bar:
            task = bar.add_task(f"{n} {unit} x {len(variants)} variants", total=n)
            result = run_compare(list(variants), n=n, unit=unit, bots=[b.strip() for b in bots.split(",")],
                                 seed=seed, jobs=jobs or (os.cpu_count() or 1), executor=executor,
                                 max_hands=max_hands, progress=lambda k: bar.advance(task, k), players=players)
    except VariantError as e:
        for dg in e.diagnostics:
            err.print(str(dg), highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(1)
    except CompareError as e:
        _fail(str(e), 2)
    finally:
        if client is not None:
            client.close()
        if before is not None:
            signal.signal(signal.SIGTERM, before)
    from rulekit.sim.compare import format_p, format_percent, format_value, interval_text
    ref = result.variants[0]
    for other in result.variants[1:]:
        console.print(f"A = {ref}, B = {other}: {result.n} paired {unit}, bots {','.join(result.bots)}, seed {seed}",
                      highlight=False, markup=False, soft_wrap=True)
        table = Table()
        for col in ("metric", "A", "B", "B - A", "95% CI", "p", "Holm", "n", ""):
            table.add_column(col, justify="left" if col == "metric" else "right")
        ours = [d for d in result.differences if d.b == other]
        for d in ours:
            m = d.metric
            mark = ("[bold]higher[/]" if d.diff > 0 else "[bold]lower[/]") if d.detectable else \
                "[dim]same[/]" if d.agree else "[dim]-[/]"
            if d.agree:   # never 0..0: no pair differed, which bounds how many could
                ci = f"±{format_percent(d.bound or 0.0)}" if d.lo is not None else "none differ"
            else:
                ci = "-" if d.lo is None or d.hi is None else interval_text(d.lo, d.hi, m)
            table.add_row(escape(m.label), format_value(d.mean_a, m), format_value(d.mean_b, m), format_value(d.diff, m), ci,
                          format_p(d.p), format_p(d.p_holm), str(d.n), mark)
        console.print(table)
        for d in (d for d in ours if d.detectable):
            console.print("- " + d.sentence(), highlight=False, markup=False, soft_wrap=True)
        for k in sorted({d.n for d in ours if d.agree}, reverse=True):
            same = [d for d in ours if d.agree and d.n == k]
            bound = same[0].bound or 0.0
            console.print(f"No difference in {k} pairs (none differs; at most {format_percent(bound)} of such {unit} "
                          f"would, 95% upper bound) in: {', '.join(d.metric.label for d in same)}.",
                          highlight=False, markup=False, soft_wrap=True)
        none = [d.metric.label for d in ours if not d.detectable and not d.agree]
        if none:
            console.print(f"No difference is detectable at this N ({result.n} {unit}) in: {', '.join(none)}.",
                          highlight=False, markup=False, soft_wrap=True)
    note = result.holm_note()
    if note:
        console.print(note, highlight=False, markup=False, soft_wrap=True)
    if out is not None:
        try:
            files = write_rows(result, out)
            plots = write_plots(result, out)
        except OSError as e:
            _fail(f"cannot write to {out}: {e.strerror or e}", 1)
        if isinstance(plots, str):
            console.print(plots, highlight=False, markup=False)
        else:
            files += plots
        console.print("wrote " + ", ".join(str(f) for f in files), highlight=False, markup=False, soft_wrap=True)


def _check_out(out: Path) -> None:
    """Exit 2 unless ``out`` is a folder (created when missing) that files can be written in:
    checked before a comparison that may run for hours."""
    import tempfile
    if out.exists() and not out.is_dir():
        _fail(f"--out {out}: not a folder (expected a folder for rows.csv, summary.json and the plots)", 2)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        _fail(f"--out {out}: cannot write in this folder: {e.strerror or e}", 2)


@app.command()
def score(variant: Optional[str] = typer.Argument(None, autocompletion=_VARIANT,
                                                  help="The variant (an installed id or a .yaml file); "
                                                       "with --file of an existing pad, the pad's variant by default."),
          file: Optional[Path] = typer.Option(None, "--file", autocompletion=_RECORD,
                                              help="The pad (JSON): saved after every hand, "
                                                   "resumed when it exists."),
          export: Optional[Path] = typer.Option(None, "--export",
                                                autocompletion=_complete_files(".csv", ".json", ".txt"),
                                                help="Write the sheet of --file to FILE.csv, "
                                                     ".json or .txt and stop."),
          players: Optional[int] = _players_option("Number of players, for variants that "
                                                   "offer a choice."),
          dealer: Optional[str] = typer.Option(None, "--dealer", help="The seat that deals the first hand "
                                               "(a seat name or number; default the variant's, else the first)."),
          force: bool = typer.Option(False, "--force", help="Let --export replace an existing file (never the "
                                     "pad itself).")):
    """Keep the score sheet of a game played with real cards: per hand it asks only the facts the
    variant's scoring needs, refuses impossible entries, and shows the sheet after each hand."""
    from .score import run
    code = run(console, err, _variant, _fail, variant, file, export, players, dealer, force)
    if code:
        raise typer.Exit(code)


def _tables_folder() -> Path:
    """Where ``rulekit serve`` keeps its tables by default: ``$XDG_DATA_HOME/rulekit/tables``
    (``~/.local/share/rulekit/tables``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "rulekit" / "tables"


@app.command()
def serve(host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (default: this "
                                   "computer only; 0.0.0.0 lets other devices of the network join)."),
          port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
          tables: Optional[Path] = typer.Option(None, "--tables", autocompletion=_RECORD,
                                                help="Folder of the tables, each saved after every action "
                                                     "and resumed when the server starts again (default "
                                                     "~/.local/share/rulekit/tables)."),
          max_tables: int = typer.Option(100, "--max-tables", min=1, max=MAX_TABLES,
                                          help="The most tables at once.")):
    """Play in a web browser: choose a variant (or upload a file), the seats (you, sensible or
    random bots, other people with a link each), and play by clicking. Needs the web extra:
    pip install 'rulekit\\[web]'."""   # rich would read [web] as a style: \\[ escapes it
    try:
        import uvicorn
        from rulekit.web.app import create_app
    except ImportError as e:
        _fail(f"rulekit serve needs the web extra ({e.name or e} is not installed): pip install 'rulekit[web]'", 2)
    folder = tables if tables is not None else _tables_folder()
    try:
        web = create_app(folder, max_tables)
    except OSError as e:
        _fail(f"--tables {folder}: {e.strerror or e}", 2)
    for problem in web.state.tables.problems:
        err.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    shown = f"[{host}]" if ":" in host else host
    console.print(f"rulekit serve: open http://{shown}:{port}/ (tables in {escape(str(folder))}; Ctrl-C stops)",
                  highlight=False, soft_wrap=True)
    uvicorn.run(web, host=host, port=port, log_level="warning")


@app.command()
def schema(output: Optional[Path] = typer.Option(None, "--output", "-o", autocompletion=_RECORD,
                                                 help="Write the schema to FILE "
                                                      "instead of standard output."),
           merged: bool = typer.Option(False, "--merged", help="Print the schema of a merged variant (what "
                                       "validate checks once extends: is applied) instead of the editor's.")):
    """Print the JSON Schema of variant files as written (with every registered phase kind), for an
    editor's YAML language server: completion and inline errors in variants/*.yaml, house rules with
    extends: included (docs/authoring.md)."""
    from rulekit.schemas import composed_schema, editor_schema
    text = json.dumps(composed_schema() if merged else editor_schema(), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        _fail(f"cannot write {output}: {e.strerror or e}", 2)
    console.print(f"wrote {output}", highlight=False, markup=False, soft_wrap=True)


@app.command()
def explain(variant: str = typer.Argument(..., autocompletion=_VARIANT,
                                          help="The variant: an installed id or a path to a .yaml file."),
            players: Optional[int] = _players_option("Number of players, for variants "
                                                     "that offer a choice."),
            plain: bool = typer.Option(False, "--plain", help="Print the Markdown text as it is, also on a "
                                       "terminal (as when piped, or with NO_COLOR set).")):
    """Print the rulebook of a variant in plain English (Markdown), generated from the compiled file:
    the deck, ranking, deal, each phase, the scoring and how the match ends.

    On a terminal the Markdown is rendered (headings, lists, tables); piped, redirected, with
    --plain or with NO_COLOR set, it is printed as Markdown text.
    """
    from rulekit.variant.explain import explain as explain_text
    text = explain_text(_variant(variant, players))   # its file's text made visible (rulekit.text)
    if plain or not console.is_terminal or os.environ.get("NO_COLOR"):
        sys.stdout.write(text)
        return
    from rich.markdown import Markdown
    console.print(Markdown(text, hyperlinks=False))   # a [link](url) of the file stays text


def _reflow(doc: str) -> str:
    """A docstring as paragraphs of one line each (blank lines kept between them): rich wraps
    each paragraph to the terminal's width, so no line breaks in the middle of a sentence."""
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


for _info in app.registered_commands:   # each command's help: its docstring, reflowed
    if _info.help is None and _info.callback is not None and _info.callback.__doc__:
        _info.help = _reflow(_info.callback.__doc__)


if __name__ == "__main__":
    main()
