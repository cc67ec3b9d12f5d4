"""``rulekit score VARIANT``: the scorepad of a table that plays with real cards (thin: prompts
and printing; the pad itself is :class:`rulekit.sheets.scorepad.ScorePad`)."""
from __future__ import annotations

import shlex
import signal
from pathlib import Path
from typing import Callable, NoReturn

from rich.markup import escape

from rulekit import records
from rulekit.errors import RulekitError
from rulekit.sheets import padfile
from rulekit.sheets.render import renderable
from rulekit.sheets.scorepad import FIRST_DEALER, FactError, ScorePad
from rulekit.text import visible

from .game import Stopped, stop_signals
from .render import one_line

EXPORTS = (".csv", ".json", ".txt")
COMMANDS = ("undo (take back the last answer, or the last hand), stop (end the match now), save (try saving "
            "again), quit (save and leave), help")


def _read_pad(path: Path) -> dict:
    """The data of a pad file, read with the limits and checks of game records."""
    return padfile.read(path)


def export(pad: ScorePad, out: Path, pad_file: Path | None = None, force: bool = False) -> str:
    """Write the pad's sheet to ``out`` (``.csv``, ``.json`` or ``.txt``, by its suffix), never over
    the pad file, nor over another existing file without ``force``."""
    text = {".csv": pad.export_csv, ".json": pad.export_json, ".txt": pad.export_text}[out.suffix.lower()]()
    padfile.write_export(text, out, pad_file, force)
    return f"sheet written to {out}"


def run(console, err, load, fail: Callable[..., NoReturn], variant: str | None, file: Path | None, out: Path | None,
        players: int | None, dealer: str | None, force: bool = False) -> int:
    """The ``score`` command (see ``rulekit score --help``); ``load`` and ``fail`` are the app's
    variant loader and error exit; returns the exit code (128 + N when signal N stopped it).  A
    pad that will be written is locked before it is read, so a second ``rulekit score`` on it is
    refused instead of losing a hand."""
    if out is not None and out.suffix.lower() not in EXPORTS:
        fail(f"{out}: cannot export to {out.suffix or 'a file without a suffix'} (expected .csv, .json or .txt)", 2)
    if out is not None and file is None:
        fail("the pad: no such file (export needs --file PAD.json written by `rulekit score`)", 2)
    lock = None
    try:
        if out is None and file is not None:
            try:
                lock = records.RecordLock(file)
            except records.RecordInUse:
                fail(f"{file}: the pad is in use by another rulekit process (another `rulekit score` on it?): "
                     f"finish there, or choose another file", 2)
            except OSError as e:
                fail(f"{file}: cannot use this pad: {e.strerror or e}", 2)
        data = None
        if file is not None and file.exists():
            data = _read_pad(file)
        if out is not None and data is None:
            fail(f"{file}: no such file (export needs --file PAD.json written by `rulekit score`)", 2)
        if variant is None and data is None:
            fail("missing argument VARIANT (an installed id or a .yaml file)", 2)
        v = _variant(load, variant, players, data, file)
        if data is not None:
            pad = ScorePad.from_dict(v, data, str(file))
            for what in pad.ignored:   # dropped at the next save: said, never in silence
                said = visible(f"{file}: {what} is not a fact this hand asks: ignored (the pad no longer holds "
                               f"it once saved)")
                err.print(f"[yellow]warning:[/] {escape(said)}", highlight=False, soft_wrap=True)
        else:
            first = None
            if dealer is not None:
                try:
                    first = ScorePad(v).seat(dealer)
                except RulekitError as e:   # a bad value of an option: a usage error
                    fail(visible(str(e)), 2)
            pad = ScorePad(v, first_dealer=first)
        if out is not None:
            try:
                console.print(escape(export(pad, out, file, force)), highlight=False)
            except padfile.PadFileError as e:
                fail(str(e), 2)
            except OSError as e:
                fail(f"{out}: cannot write the export: {e.strerror or e}")
            return 0
        stop = _Signals()
        with stop_signals(stop.handler):
            return _loop(console, pad, file, data is None, stop)
    except RulekitError as e:
        fail(visible(str(e)))
    finally:
        if lock is not None:
            lock.release()


def _variant(load, variant: str | None, players: int | None, data: dict | None, file: Path | None):
    """The variant of the pad: the one the user named (``load``: the app's loader, for an id or a
    path), for the pad's number of players when it is the pad's variant; else the pad's own, its
    stored text or its installed id, never a path the pad names (:func:`padfile.variant_of`)."""
    if variant is None:
        assert data is not None
        if players is not None and players != data["players"]:
            raise padfile.PadFileError(f"{file}: a pad of {data['players']} players, not {players} (--players)")
        return padfile.variant_of(data, str(file))
    v = load(variant, players)
    if data is not None and players is None and v.id == data["variant"] and v.players != data["players"]:
        v = load(variant, data["players"])
    return v


class _Saver:
    """Saves the pad after every change; a failed save (a full disk) keeps everything in memory
    and says how to try again."""

    def __init__(self, console, pad: ScorePad, file: Path | None, new: bool):
        self.console, self.pad, self.file = console, pad, file
        self.new = new          # the file does not exist yet: create it exclusively
        self.pending = False    # changes not yet saved

    def save(self) -> bool:
        """Save now; False (and a message) when the file cannot be written."""
        if self.file is None:
            return True
        try:
            records.save(self.file, self.pad.as_dict(), exclusive=self.new)
        except FileExistsError:
            self.pending = True
            self.console.print(f"[red]not saved:[/] {escape(str(self.file))} was created by someone else "
                               f"meanwhile; the pad is kept here: type save after moving that file away",
                               highlight=False)
            return False
        except OSError as e:
            self.pending = True
            self.console.print(f"[red]not saved:[/] cannot write {escape(str(self.file))}: "
                               f"{escape(e.strerror or str(e))}; every hand is kept here: free some room, "
                               f"then type save (quit tries again too)", highlight=False)
            return False
        self.new = self.pending = False
        return True


def _show(console, pad: ScorePad) -> None:
    console.print(renderable(pad.sheet, pad.variant, we=None, title=f"{one_line(pad.variant.name)} — score sheet"))
    if pad.is_over:
        names = " and ".join(pad.columns[c] for c in pad.winners)
        # equal best totals are a tie, not everyone winning, as `rulekit play` says (user pass 2, finding 4)
        head = f"A tie: {names}" if len(pad.winners) > 1 else f"{names} wins"
        console.print(f"[bold]{escape(head)}[/] ({escape(pad.end_reason)}).", highlight=False)


def pad_header(pad: ScorePad) -> str:
    """The line above a hand's questions: its number, the dealer, who is vulnerable and the
    schedule's round (``hand 3, E deals, vulnerable: NS — Misère: take no trick``)."""
    vul = [c for c, x in zip(pad.columns, pad.vulnerable()) if x]
    vtext = f", vulnerable: {' '.join(vul)}" if vul and pad.variant.vulnerability else ""
    rules = pad.rules   # a schedule's round: its name and objective
    rtext = f" — {rules.round_name}" + (f": {rules.objective}" if rules.objective else "") if rules.round_name else ""
    return f"hand {pad.number + 1}, {pad.names[pad.dealer]} deals{vtext}{rtext}"


def _loop(console, pad: ScorePad, file: Path | None, new: bool, stop: _Signals) -> int:
    """Ask each hand's facts until the input ends or the players quit; save after every change.
    The exit code: 0, or 128 + N when signal N (Ctrl-C: 130) stopped it at a prompt."""
    where = f"saved to {file} after every hand" if file is not None else "not saved (use --file PAD.json)"
    console.print(f"[bold]{one_line(pad.variant.name)}[/] scorepad — {escape(where)}; type {COMMANDS}.",
                  highlight=False)
    if pad.hands:
        _show(console, pad)
    saver = _Saver(console, pad, file, new)
    facts: dict = {}
    answered: list = []   # the facts before each answer of this hand (for undo)
    shown = None
    warned = False
    while True:
        q = None if pad.is_over else (pad.first_dealer_question() or pad.next_question(facts))
        if q is None and not pad.is_over:  # the hand is complete
            try:
                pad.add(facts)
            except FactError as e:   # never expected: the answers were each checked; take back the last
                console.print(f"[red]refused:[/] {escape(str(e))}", highlight=False)
                facts = answered.pop() if answered else {}
                continue
            saver.save()
            facts, answered = {}, []
            _show(console, pad)
            continue
        if not pad.is_over and shown != pad.number and (q is None or q.name != FIRST_DEALER):
            console.print(escape(pad_header(pad)), style="bold", highlight=False)
            shown = pad.number
        try:
            text = stop.ask(console, "match over (undo, quit) > " if q is None else f"{q.prompt} > ")
        except Stopped as e:   # Ctrl-C, TERM, HUP: what is finished is saved, then 128 + the signal
            console.print()
            if saver.pending:
                saver.save()
            console.print("interrupted" if e.signum == signal.SIGINT else f"stopped by signal {e.signum}",
                          highlight=False)
            _left(console, pad, file, saver, facts)
            return 128 + int(e.signum)
        word = (text or "").strip().lower()
        if text is None or word == "quit":
            if saver.pending and not saver.save() and text is not None and not warned:
                warned = True   # nothing is dropped in silence: a second quit leaves without it
                console.print("type save once the file can be written, or quit again to leave without saving",
                              highlight=False)
                continue
            _left(console, pad, file, saver, facts, ended=text is None)
            # the input ended before the match did: 1, as `play` (saved first, and said)
            return 1 if text is None and not pad.is_over else 0
        if not word:
            continue  # a blank line asks again
        if word in ("help", "?"):   # ? as at the play prompt (user pass 2, finding 9)
            console.print(escape(f"{q.help}; or {COMMANDS}" if q else COMMANDS), highlight=False)
        elif word == "save":
            if saver.save():
                console.print(escape(f"saved to {file}" if file is not None else "not saved (use --file PAD.json)"),
                              highlight=False)
        elif word == "undo" and answered:   # within a hand: take back the last answer
            facts = answered.pop()
            console.print("undone: the last answer", highlight=False)
        elif word == "undo":
            try:
                last = pad.undo()
            except FactError as e:
                console.print(f"[red]refused:[/] {escape(str(e))}", highlight=False)
                continue
            if FIRST_DEALER in last:   # before the first hand: who won the cut, asked again
                console.print("undone: the first dealer", highlight=False)
                shown = None
                continue
            saver.save()
            facts, shown = {}, None
            console.print("undone: " + ("the stop" if last.get("stop") else "the last hand"), highlight=False)
            _show(console, pad)
        elif word == "stop" and not pad.is_over:
            pad.stop()
            saver.save()
            facts, answered = {}, []
            _show(console, pad)
        elif pad.is_over:
            console.print("the match is over: undo the last hand, or quit", highlight=False)
        elif q is not None:
            before = dict(facts)
            try:
                pad.answer(q, text, facts)
                if q.name != FIRST_DEALER:   # (undo asks the first dealer again through the pad)
                    answered.append(before)
            except FactError as e:
                console.print(f"[red]refused:[/] {escape(str(e))}", highlight=False)


def _left(console, pad: ScorePad, file: Path | None, saver: _Saver, facts: dict, ended: bool = False) -> None:
    """On leaving: what was kept, so that a quit never passes in silence (user pass 2, finding 9);
    ``ended``: the input ended (end of file) rather than a quit. A hand not finished is never
    saved (the pad stores whole hands only)."""
    head = "input ended before the match did" if ended and not pad.is_over else ""
    lost = f"hand {pad.number + 1} was not finished: its answers are not saved" if facts else ""
    if file is not None and saver.pending:
        kept = f"the pad could NOT be saved in {file}: the changes since its last save are not kept"
    elif file is not None and not saver.new:
        kept = f"the pad is saved in {file}"
    elif file is not None:
        kept = "nothing was saved (no hand was finished)"
    else:
        kept = "nothing was saved (use --file PAD.json to keep the pad)"
    resume = f" (go on with `rulekit score --file {shlex.quote(str(file))}`)" if head and file is not None and not saver.new \
        and not saver.pending else ""
    console.print(escape("; ".join(w for w in (head, lost, kept) if w) + resume + "."), highlight=False)


class _Signals:
    """Ctrl-C, SIGTERM and SIGHUP while the pad asks: raised as :class:`Stopped` at the prompt;
    one that comes while a hand is added or the pad saved is held until the next prompt, so that
    a pad is never left half changed (as ``play`` shields its record)."""

    def __init__(self) -> None:
        self.waiting = False
        self.pending: int | None = None

    def handler(self, signum, frame) -> None:
        if self.waiting:
            raise Stopped(signum)
        self.pending = signum

    def ask(self, console, prompt: str) -> str | None:
        """:func:`_ask`, stopped by a signal held since the last prompt or come while waiting.
        :raises Stopped: a signal."""
        if self.pending is not None:
            raise Stopped(self.pending)
        self.waiting = True
        try:
            return _ask(console, prompt)
        finally:
            self.waiting = False


def _ask(console, prompt: str) -> str | None:
    """A typed line, or ``None`` at the end of the input."""
    try:
        return console.input(prompt)
    except EOFError:
        console.print()
        return None
