"""``rulekit score VARIANT``: the scorepad of a table that plays with real cards (thin: prompts
and printing; the pad itself is :class:`rulekit.sheets.scorepad.ScorePad`)."""
from __future__ import annotations

import json
from pathlib import Path

from rich.markup import escape

from rulekit import records
from rulekit.errors import RulekitError
from rulekit.sheets.render import renderable
from rulekit.sheets.scorepad import FactError, ScorePad

EXPORTS = (".csv", ".json", ".txt")
COMMANDS = ("undo (take back the last answer, or the last hand), stop (end the match now), quit (save and leave), "
            "help")


def _read_pad(path: Path) -> dict:
    """The JSON data of a pad file."""
    try:
        return json.loads(records.read_bytes(path).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise FactError(f"{path}: not a scorepad file ({e})") from None


def export(pad: ScorePad, out: Path) -> str:
    """Write the pad's sheet to ``out`` (``.csv``, ``.json`` or ``.txt``, by its suffix)."""
    text = {".csv": pad.export_csv, ".json": pad.export_json, ".txt": pad.export_text}[out.suffix.lower()]()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return f"sheet written to {out}"


def run(console, err, load, fail, variant: str | None, file: Path | None, out: Path | None,
        players: int | None, dealer: str | None) -> None:
    """The ``score`` command (see ``rulekit score --help``); ``load`` and ``fail`` are the app's
    variant loader and error exit."""
    if out is not None and out.suffix.lower() not in EXPORTS:
        fail(f"{out}: cannot export to {out.suffix or 'a file without a suffix'} (expected .csv, .json or .txt)", 2)
    data = None
    if file is not None and file.exists():
        try:
            data = _read_pad(file)
        except RulekitError as e:
            fail(str(e))
        saved = data.get("variant") if isinstance(data, dict) and isinstance(data.get("variant"), str) else None
        if saved is None:
            fail(f"{file}: not a rulekit scorepad (expected a file written by `rulekit score`)")
        variant = variant or saved
        if players is None and variant == saved and isinstance(data.get("players"), int):
            players = data["players"]
    if out is not None and data is None:
        fail(f"{file or 'the pad'}: no such file (export needs --file PAD.json written by `rulekit score`)", 2)
    if variant is None:
        fail("missing argument VARIANT (an installed id or a .yaml file)", 2)
    v = load(variant, players)
    lock = None
    try:
        if out is None and file is not None:
            lock = records.RecordLock(file)
        if data is not None:
            pad = ScorePad.from_dict(v, data, str(file))
        else:
            first = None
            if dealer is not None:
                first = ScorePad(v).seat(dealer)
            pad = ScorePad(v, first_dealer=first)
        if out is not None:
            console.print(escape(export(pad, out)), highlight=False)
            return
        _loop(console, pad, file, new=data is None)
    except RulekitError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write {file}: {e.strerror or e}")
    finally:
        if lock is not None:
            lock.release()


def _save(pad: ScorePad, file: Path | None, new: bool) -> None:
    if file is not None:
        records.save(file, pad.as_dict(), exclusive=new)


def _show(console, pad: ScorePad) -> None:
    console.print(renderable(pad.sheet, pad.variant, we=None, title=f"{pad.variant.name} — score sheet"))
    if pad.is_over:
        names = " and ".join(pad.columns[c] for c in pad.winners)
        # equal best totals are a tie, not everyone winning, as `rulekit play` says (user pass 2, finding 4)
        head = f"A tie: {names}" if len(pad.winners) > 1 else f"{names} wins"
        console.print(f"[bold]{escape(head)}[/] ({escape(pad.end_reason)}).", highlight=False)


def _header(pad: ScorePad) -> str:
    vul = [c for c, x in zip(pad.columns, pad.vulnerable()) if x]
    vtext = f", vulnerable: {' '.join(vul)}" if vul and pad.variant.vulnerability else ""
    rules = pad.rules   # a schedule's round: its name and objective
    rtext = f" — {rules.round_name}" + (f": {rules.objective}" if rules.objective else "") if rules.round_name else ""
    return f"hand {pad.number + 1}, {pad.names[pad.dealer]} deals{vtext}{rtext}"


def _loop(console, pad: ScorePad, file: Path | None, new: bool) -> None:
    """Ask each hand's facts until the input ends or the players quit; save after every change."""
    where = f"saved to {file} after every hand" if file is not None else "not saved (use --file PAD.json)"
    console.print(f"[bold]{escape(pad.variant.name)}[/] scorepad — {escape(where)}; type {COMMANDS}.",
                  highlight=False)
    if pad.hands:
        _show(console, pad)
    saved = not new
    facts: dict = {}
    answered: list = []   # the facts before each answer of this hand (for undo)
    shown = None
    while True:
        q = None if pad.is_over else pad.next_question(facts)
        if q is None and not pad.is_over:  # the hand is complete
            pad.add(facts)
            _save(pad, file, not saved)
            saved, facts, answered = True, {}, []
            _show(console, pad)
            continue
        if not pad.is_over and shown != pad.number:
            console.print(escape(_header(pad)), style="bold", highlight=False)
            shown = pad.number
        text = _ask(console, "match over (undo, quit) > " if pad.is_over else f"{q.prompt} > ")
        word = (text or "").strip().lower()
        if text is None or word == "quit":
            _left(console, pad, file, saved, facts)
            return
        if not word:
            continue  # a blank line asks again
        if word in ("help", "?"):   # ? as at the play prompt (user pass 2, finding 9)
            console.print(escape(f"{q.help}; or {COMMANDS}" if q else COMMANDS), highlight=False)
        elif word == "undo" and answered:   # within a hand: take back the last answer
            facts = answered.pop()
            console.print("undone: the last answer", highlight=False)
        elif word == "undo":
            try:
                last = pad.undo()
            except FactError as e:
                console.print(f"[red]refused:[/] {escape(str(e))}", highlight=False)
                continue
            _save(pad, file, not saved)
            saved, facts, shown = True, {}, None
            console.print("undone: " + ("the stop" if last.get("stop") else "the last hand"), highlight=False)
            _show(console, pad)
        elif word == "stop" and not pad.is_over:
            pad.stop()
            _save(pad, file, not saved)
            saved, facts, answered = True, {}, []
            _show(console, pad)
        elif pad.is_over:
            console.print("the match is over: undo the last hand, or quit", highlight=False)
        else:
            before = dict(facts)
            try:
                pad.answer(q, text, facts)
                answered.append(before)
            except FactError as e:
                console.print(f"[red]refused:[/] {escape(str(e))}", highlight=False)


def _left(console, pad: ScorePad, file: Path | None, saved: bool, facts: dict) -> None:
    """On leaving: what was kept, so that a quit never passes in silence (user pass 2, finding 9).
    A hand not finished is never saved (the pad stores whole hands only)."""
    lost = f"hand {pad.number + 1} was not finished: its answers are not saved" if facts else ""
    if file is not None and saved:
        kept = f"the pad is saved in {file}"
    elif file is not None:
        kept = "nothing was saved (no hand was finished)"
    else:
        kept = "nothing was saved (use --file PAD.json to keep the pad)"
    console.print(escape("; ".join(w for w in (lost, kept) if w) + "."), highlight=False)


def _ask(console, prompt: str) -> str | None:
    """A typed line, or ``None`` at the end of the input."""
    try:
        return console.input(prompt)
    except EOFError:
        console.print()
        return None
