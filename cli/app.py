"""``rulekit`` commands: play, list, validate, replay.

Exit codes: 0 success; 1 invalid input (a broken variant file or record, a
record that does not replay, the input of a game ended before the game);
2 usage errors (unknown option, missing argument, bad value, unknown
variant, a file that does not exist); 128+N when a game was stopped by
signal N (130 for Ctrl-C; the game is saved first).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape

from rulekit import pbn as pbn_format
from rulekit import records
from rulekit.engine import State
from rulekit.errors import RulekitError, VariantError
from rulekit.variant import builtin_ids, check_file, load_variant

from .game import SHEET_TITLE, Game, _silence_stdout, resume_command
from .render import score_sheet, seat_label, settlement_text, vulnerability_text, winner_text

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Describe, check, play and score trick-taking card games and their house rules.")


class _Console(Console):
    """A console whose closed output (``rulekit play --auto | head``) raises BrokenPipeError, so that
    the game loop saves the record before stopping (rich itself would exit at once)."""

    def on_broken_pipe(self) -> None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        raise BrokenPipeError


console = _Console()
err = Console(stderr=True)

CONTROLLERS = ("human", "bot", "random")


def _fail(msg: str, code: int = 1):
    err.print(f"[red]error:[/] {escape(msg)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _load(variant: str, players: int | None = None):
    try:
        return load_variant(variant, players=players)
    except VariantError as e:
        for d in e.diagnostics:
            err.print(str(d), highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(1)
    except RulekitError as e:
        _fail(str(e))


def _player_choices(v) -> list:
    """The player counts a variant offers (``[3, 4]`` for a choice, else ``[v.players]``)."""
    p = v.data.get("players")
    if isinstance(p, dict) and isinstance(p.get("choices"), list):
        return sorted(x for x in p["choices"] if isinstance(x, int))
    return [v.players]


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
        rows.append((vid, f"{_or_list(_player_choices(v))} players",
                     escape(v.name) + (f"  [dim](house rule of {escape(base)})[/]" if base else "")))
    w0 = max((len(r[0]) for r in rows), default=0)
    w1 = max((len(r[1]) for r in rows), default=0)
    for vid, players, name in rows:
        console.print(f"[bold]{escape(vid.ljust(w0))}[/]  {players.rjust(w1)}  {name}", highlight=False,
                      soft_wrap=True)


@app.command()
def validate(files: List[str] = typer.Argument(..., help="Variant files (or ids of installed variants) to check."),
             format: str = typer.Option("text", "--format", help="Output: text (FILE:LINE:COL: path: message) "
                                        "or json (a list of {file, line, column, path, message})."),
             players: Optional[int] = typer.Option(None, "--players", help="Check for this number of players "
                                                   "only (default: every choice the variant offers).")):
    """Check variant files; print every problem as FILE:LINE:COL: path: message.

    Exit 0 when every file is valid, 1 when any problem is found (or a file is
    missing), 2 on a usage error.
    """
    if format not in ("text", "json"):
        _fail(f"--format must be text or json, not {format!r}", 2)
    problems = []
    bad_files = 0
    for f in files:
        found = check_file(f, players)
        problems += found
        bad_files += bool(found)
    if format == "json":
        typer.echo(json.dumps([d.as_dict() for d in problems], indent=2, ensure_ascii=False))
    else:
        for d in problems:
            typer.echo(str(d))
        n = len(files)
        if problems:
            typer.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in {bad_files} of {n} "
                       f"file{'s' if n != 1 else ''}", err=True)
        else:
            typer.echo(f"{n} file{'s' if n != 1 else ''} valid")
    raise typer.Exit(1 if problems else 0)


@app.command()
def play(ctx: typer.Context,
         variant: Optional[str] = typer.Argument(None, help="Variant id (see `rulekit list`) or path to a .yaml "
                                                 "file; optional with --resume."),
         auto: bool = typer.Option(False, "--auto", help="Bots in every seat; print a short summary per hand."),
         seed: Optional[int] = typer.Option(None, "--seed",
                                            help="Seed of the cut and every shuffle (and of the bots)."),
         players: Optional[str] = typer.Option(None, "--players",
                                               help="Controller of each seat, comma separated: human, bot, random "
                                                    "(e.g. human,bot,bot). Its length sets the number of players "
                                                    "when the variant offers a choice. A number N means you and "
                                                    "N-1 bots."),
         save: Optional[Path] = typer.Option(None, "--save", help="Keep the game record in this file (written "
                                             "atomically before each of your moves and after each hand)."),
         resume: Optional[Path] = typer.Option(None, "--resume", help="Resume a saved game record (and keep "
                                               "saving into it)."),
         quiet: bool = typer.Option(False, "--quiet", help="Bot-only games: print only the final sheet and the "
                                    "winner."),
         deal: Optional[Path] = typer.Option(None, "--deal", help="Play the deal of this PBN file (its Deal, Dealer "
                                             "and Vulnerable tags) first; later deals are shuffled from the "
                                             "seed."),
         max_hands: Optional[int] = typer.Option(None, "--max-hands", min=1,
                                                 help="Stop the match after this many hands if it has not "
                                                      "ended by then (the best total wins).")):
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
    if resume is not None:
        state, rec = _resumed(resume, variant)
        n = state.variant.players
        if spec is not None and _count(spec) != n:
            _fail(f"--players names {_count(spec)} seats but the saved game has {n} players", 2)
        controllers = _controllers(spec, state.variant, auto, rec.get("players"))
    else:
        v = _variant_for_play(variant, _count(spec) if spec is not None else None)
        controllers = _controllers(spec, v, auto, None)
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        names = _names(controllers, v)
        extra, pbn_hands = _pbn_deal(deal, v) if deal is not None else ({}, None)
        try:
            state = State(v, seed=seed, names=names, max_hands=max_hands, **extra)
        except RulekitError as e:
            _fail(str(e))
        if pbn_hands is not None:
            _check_dealt(state, pbn_hands, deal)
    if quiet and "human" in controllers:
        _fail("--quiet is for games without a human seat (add --auto, or --players bot,bot,...)", 2)
    game = Game(state, controllers, console, save or resume, quiet=quiet, status=err)
    if save is not None:    # a new record is created exclusively (never over another process's file)
        game.new_record = resume is None or not _same_file(save, resume)
    if not quiet:
        if resume is not None:
            console.print(f"resumed [bold]{escape(state.variant.name)}[/] from {escape(str(resume))}: "
                          f"hand {state.hand.number + 1}, "
                          f"{len(state.history)} actions replayed", highlight=False)
        else:
            seats = ", ".join(f"{seat_label(state, i)}: {c}" for i, c in enumerate(controllers))
            console.print(f"[bold]{escape(state.variant.name)}[/] — seed {state.seed}, {state.variant.players} "
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
    out = [p.strip().lower() for p in text.split(",")]
    if not text or any(not p for p in out):
        _fail(f"--players {players!r}: an empty seat (expected controllers separated by commas, "
              f"e.g. human,bot,bot)", 2)
    for p in out:
        if p not in CONTROLLERS:
            _fail(f"--players: {p!r} is not a controller (expected {', '.join(CONTROLLERS)})", 2)
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
    return list(saved)


def _names(controllers: list, v) -> list:
    """``You`` for a single human, the seat names (``N``, ``E``... or ``P1``, ``P2``...) for the others."""
    one = controllers.count("human") == 1
    seats = list(v.seat_names) if len(v.seat_names) == len(controllers) else []
    return ["You" if c == "human" and one else (seats[i] if seats else f"P{i}") for i, c in enumerate(controllers)]


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
        _fail(f"--deal {path}: a PBN deal is four hands of 13 cards, but {v.name} deals "
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
            _fail(f"--deal {path}: {state.variant.name} does not deal 13 cards one at a time from the dealer's "
                  f"left, so the PBN hands cannot be dealt as written")


def _variant_for_play(variant: str, n: int | None):
    """Load ``variant`` for ``n`` players (exit 2: unknown variant or impossible count; 1: broken file)."""
    from rulekit.variant.loader import locate
    try:
        found = locate(variant)
    except Exception:  # noqa: BLE001 - exists but unreadable: load_variant reports it with its position
        found = True
    if found is None:
        _fail(f"no such variant or file {variant!r} (installed: {', '.join(builtin_ids())}; "
              f"see `rulekit list`)", 2)
    v = _load(variant)
    if n is None or n == v.players:
        return v
    choices = _player_choices(v)
    if n not in choices:
        _fail(f"{v.name} is played by {_or_list(choices)} players, not {n} (--players gives one "
              f"controller per seat, or the number of players)", 2)
    return _load(variant, n)


def _check_save_path(save: Path, resume: Path | None) -> None:
    """Refuse a --save target that is a folder or another existing file (exit 2)."""
    if save.is_dir():
        _fail(f"--save {save}: is a folder (expected a file name such as game.json)", 2)
    if save.exists() and (resume is None or save.resolve() != resume.resolve()):
        _fail(f"--save {save}: the file already exists; continue that game with "
              f"`{resume_command(save)}`, or choose another file", 2)


def _same_file(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _lock_record(save: Path | None, resume: Path | None):
    """The :class:`~rulekit.records.RecordLock` of the record this game writes (``--save``, else
    an existing ``--resume`` file), or one that holds nothing; exit 2 when another rulekit
    process plays into that record."""
    target = save if save is not None else resume
    if target is None or (save is None and not resume.exists()):
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
    if not resume.exists():
        _fail(f"--resume {resume}: no such file", 2)
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
def replay(file: Path = typer.Argument(..., help="A game record (JSON) written by `rulekit play --save`."),
           out: Optional[Path] = typer.Argument(None, help="With --pbn: the PBN file to write (default: "
                                                "standard output)."),
           pbn: bool = typer.Option(False, "--pbn", help="Export the played deals that had an auction as PBN "
                                    "(Deal, Dealer, Vulnerable, Auction, Contract, Declarer, Result, Score) "
                                    "instead of printing the sheet.")):
    """Replay a record and print its score sheet; exit 1 if it is broken or does not replay."""
    if not file.exists():
        _fail(f"{file}: no such file", 2)
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
    console.print(f"[bold]{escape(state.variant.name)}[/] — seed {state.seed}, replayed {len(state.history)} actions",
                  highlight=False)
    console.print(score_sheet(state, title=SHEET_TITLE))
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
    if out is None:
        sys.stdout.write(text)
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
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    try:
        app()
    except BrokenPipeError:  # `rulekit replay x.json | head`: the reader left; nothing to report
        _silence_stdout()
        sys.exit(141)
    except RulekitError as e:  # a user error that slipped through: message, not traceback
        err.print(f"error: {e}", highlight=False, markup=False, soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:  # Ctrl-C outside a game (a game saves itself first)
        err.print("interrupted", highlight=False)
        sys.exit(130)


if __name__ == "__main__":
    main()
