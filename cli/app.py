"""``rulekit`` commands: play, list, validate, replay.

Exit codes: 0 success; 1 invalid input (a broken file, a record that does not
replay); 2 usage errors (unknown option, missing argument, bad value).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from rulekit import records
from rulekit.engine import State
from rulekit.errors import RulekitError, VariantError
from rulekit.variant import builtin_ids, check_file, load_variant

from .game import Game
from .render import sheet_table

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Describe, check, play and score trick-taking card games and their house rules.")
console = Console()
err = Console(stderr=True)

CONTROLLERS = ("human", "bot", "random")


def _fail(msg: str, code: int = 1):
    err.print(f"[red]error:[/] {msg}", highlight=False)
    raise typer.Exit(code)


def _load(variant: str, players: int | None = None):
    try:
        return load_variant(variant, players=players)
    except VariantError as e:
        for d in e.diagnostics:
            err.print(str(d), highlight=False, markup=False)
        raise typer.Exit(1)


@app.command("list")
def list_variants():
    """List the installed variants (id, players, name)."""
    for vid in builtin_ids():
        try:
            v = load_variant(vid)
            base = v.data.get("extends") or ""
            console.print(f"{vid:32} {v.players} players  {v.name}" + (f"  [dim](house rule of {base})[/]" if base else ""),
                          highlight=False)
        except RulekitError as e:  # a broken installed file must not hide the others
            console.print(f"{vid:32} [red]invalid[/]: {str(e).splitlines()[0]}", highlight=False)


@app.command()
def validate(files: List[str] = typer.Argument(..., help="Variant files to check."),
             format: str = typer.Option("text", "--format", help="text or json"),
             players: Optional[int] = typer.Option(None, "--players", help="Number of players setting to check.")):
    """Check variant files; print every problem as FILE:LINE:COL: path: message. Exit 1 if any."""
    if format not in ("text", "json"):
        _fail(f"--format must be text or json, not {format!r}", 2)
    problems = []
    for f in files:
        problems += check_file(f, players)
    if format == "json":
        console.print_json(json.dumps([d.as_dict() for d in problems]))
    else:
        for d in problems:
            console.print(str(d), highlight=False, markup=False, soft_wrap=True)
        if not problems:
            console.print(f"{len(files)} file{'s' if len(files) != 1 else ''} valid")
    raise typer.Exit(1 if problems else 0)


@app.command()
def play(variant: str = typer.Argument(..., help="Variant id (see `rulekit list`) or path to a .yaml file."),
         auto: bool = typer.Option(False, "--auto", help="Bots in every seat."),
         seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the cut and every shuffle."),
         players: Optional[str] = typer.Option(None, "--players",
                                               help="Controller of each seat, comma separated: human, bot, random. "
                                                    "Its length sets the number of players."),
         save: Optional[Path] = typer.Option(None, "--save", help="Keep the game record in this file."),
         resume: Optional[Path] = typer.Option(None, "--resume", help="Resume a saved game record."),
         quiet: bool = typer.Option(False, "--quiet", help="Bot-only games: print only the sheets.")):
    """Play a variant in the terminal (you are the first human seat)."""
    if resume is not None:
        try:
            rec = records.load(resume)
            state = records.replay(rec, source=str(resume))
        except RulekitError as e:
            _fail(str(e))
        controllers = _controllers(players, state.variant.players, auto) if players or auto else \
            list(rec.get("players") or ["human"] + ["bot"] * (state.variant.players - 1))
        save = save or resume
        console.print(f"resumed {state.variant.name} at hand {state.hand.number + 1} "
                      f"({len(state.history)} actions replayed)")
    else:
        n = len(players.split(",")) if players else None
        v = _load(variant, n if _has_setting(variant, n) else None)
        controllers = _controllers(players, v.players, auto)
        seed = seed if seed is not None else int.from_bytes(__import__("os").urandom(4), "big")
        names = [("You" if c == "human" and controllers.count("human") == 1 else f"P{i}") for i, c in enumerate(controllers)]
        state = State(v, seed=seed, names=names)
        console.print(f"[bold]{v.name}[/] — seed {seed}, {v.players} players, first dealer "
                      f"{state.names[state.first_dealer]}")
    if len(controllers) != state.variant.players:
        _fail(f"--players names {len(controllers)} seats but this game has {state.variant.players}", 2)
    game = Game(state, controllers, console, save, verbose=not quiet, bot_seed=state.seed)
    raise typer.Exit(game.run())


def _has_setting(variant: str, n: int | None) -> bool:
    """True when the variant offers a choice of player count (so --players sets it)."""
    if n is None:
        return False
    try:
        v = load_variant(variant)
    except RulekitError:
        return False
    return isinstance(v.data.get("players"), dict)


def _controllers(players: str | None, n: int, auto: bool) -> list:
    if auto:
        if players and any(p.strip() == "human" for p in players.split(",")):
            _fail("--auto puts bots in every seat; drop human from --players", 2)
        return [p.strip() for p in players.split(",")] if players else ["bot"] * n
    if not players:
        return ["human"] + ["bot"] * (n - 1)
    out = [p.strip().lower() for p in players.split(",")]
    for p in out:
        if p not in CONTROLLERS:
            _fail(f"--players: {p!r} is not a controller (expected {', '.join(CONTROLLERS)})", 2)
    return out


@app.command()
def replay(file: Path = typer.Argument(..., help="A game record (JSON) written by `rulekit play --save`.")):
    """Replay a record and print its score sheet; exit 1 if it does not replay."""
    try:
        rec = records.load(file)
        state = records.replay(rec, source=str(file))
    except RulekitError as e:
        _fail(str(e))
    console.print(sheet_table(state.sheet, f"{state.variant.name} — replayed {len(state.history)} actions"))
    if rec.get("sheet") and rec["sheet"].get("rows") != state.sheet.as_dict()["rows"]:
        _fail("the replayed sheet differs from the sheet stored in the record")
    if state.is_over:
        console.print(f"winner: {', '.join(state.names[s] for s in state.winners)} ({state.end_reason})")
    else:
        console.print(f"game in progress: hand {state.hand.number + 1}, {state.names[state.to_move]} to move")


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except RulekitError as e:  # a user error that slipped through: message, not traceback
        err.print(f"error: {e}", highlight=False, markup=False)
        sys.exit(1)


if __name__ == "__main__":
    main()
