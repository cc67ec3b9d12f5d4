"""The prompt of ``rulekit play`` at a terminal: line editing, history and completion.

At a terminal the line is read by the standard library's :mod:`readline` (GNU readline or
libedit): arrow keys move in the line and recall earlier lines (they no longer print
``^[[D``), Tab completes the word being typed from the legal actions now (cards, calls,
the words of the phase) and the table commands.  Without a terminal (piped input, a
platform without ``readline``) the line is read as before, by the console.

What may be completed is a pure function of the state (:func:`completions`), so it is tested
without a terminal; :class:`LineEditor` wires it to readline.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rulekit.errors import RulekitError

#: the table commands, as typed at the prompt (``help`` lists them)
COMMANDS = ("?", "help", "sheet", "table", "save", "quit", "undo", "hint", "claim")

#: characters of a typed line (no action or command is near this long)
LINE_LIMIT = 1000

#: a byte that was not UTF-8 text, as Python reads it (surrogateescape: ``\xff`` -> U+DCFF)
_UNDECODED = re.compile("[\udc80-\udcff]")


def undecodable(line: str) -> str | None:
    """Why ``line`` cannot be read as typed text, or ``None``: the bytes of it that were not
    UTF-8 (``\xff\xfe``), written so that they print as they read."""
    bad = _UNDECODED.findall(line)
    if not bad:
        return None
    shown = "".join(f"\\x{ord(ch) - 0xDC00:02x}" for ch in bad[:8]) + ("…" if len(bad) > 8 else "")
    return f"the line holds bytes that are not UTF-8 text ({shown}); type it again"


_ESCAPE = re.compile(r"(\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07)")


def readline_prompt(text: str) -> str:
    """``text`` (a prompt with terminal escape codes) with each escape sequence between
    ``\\x01`` and ``\\x02``, so that readline counts only the visible characters (else it
    redraws the line at the wrong column once the cursor moves)."""
    return _ESCAPE.sub(lambda m: "\x01" + m.group(1) + "\x02", text)


def _words(text: str) -> list[str]:
    return text.split()


def completions(state, line: str, commands: Sequence[str] = COMMANDS) -> list[str]:
    """The words that may complete the last word of ``line`` (the text before the cursor) at
    the prompt of the seat to move in ``state``: the next word of a legal action's text whose
    earlier words are those typed (``play`` -> its cards; a card alone where the phase reads one,
    ``QS``; ``trump`` -> its suits), a card of the hand after the word of a discard (the choices
    of a discard are too many to list), or a table command as the first word.  Matching ignores
    case; each completion is written as the action's text writes it.

    :param line: what is typed before the cursor (its last word may be empty).
    """
    if state.is_over or state.to_move < 0:
        return []
    typed = line.split(" ")
    done, word = [w.lower() for w in typed[:-1] if w], typed[-1].lower()
    found: list[str] = []

    def add(w: str) -> None:
        if w.lower().startswith(word) and w not in found:
            found.append(w)

    legal = state.legal_actions()
    texts: list[list[str]] = []
    lazy = not isinstance(legal, list)
    if lazy or len(legal) > 200:           # every choice of N cards: complete card by card
        first = state.action_text(legal[0]).split()[0] if len(legal) else ""
        if not done:
            add(first)
        elif done[0] == first.lower():
            deck = state.variant.deck
            held = [deck.name(c) for c in state.hand_cards(state.to_move)]
            for name in held:
                if name.lower() not in done:
                    add(name)
        return found
    for a in legal:
        texts.append(_words(state.action_text(a)))
        if a.kind == "play" and not done:      # a card alone, where the phase reads it so
            short = " ".join(_words(state.action_text(a))[1:])
            try:
                if short and state.parse_action(short) == a:
                    texts.append(_words(short))
            except RulekitError:
                pass
    for words in texts:
        if len(words) > len(done) and [w.lower() for w in words[:len(done)]] == done:
            add(words[len(done)])
    if not done:
        for c in commands:
            add(c)
    return found


class LineEditor:
    """Reads the prompt's lines with :mod:`readline`: editing, history (in memory, this game
    only), Tab completion from ``complete_for(line)``.

    :param complete_for: the completions of the last word of a line (:func:`completions`
        bound to the game).
    :raises ImportError: no ``readline`` module on this platform.
    """

    def __init__(self, complete_for: Callable[[str], list[str]]):
        import readline    # (not at import time: a pipe never needs it)
        self.readline = readline
        self.complete_for = complete_for
        self._matches: list[str] = []
        readline.set_completer(self._complete)
        readline.set_completer_delims(" \t\n")
        if "libedit" in (getattr(readline, "__doc__", "") or ""):   # macOS's readline
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        readline.set_history_length(500)

    def _complete(self, text: str, i: int) -> str | None:
        """readline's completer: the ``i``-th completion of the word ``text``."""
        if i == 0:
            rl = self.readline
            line = rl.get_line_buffer()[:rl.get_endidx()]
            try:
                self._matches = [m + " " for m in self.complete_for(line)]
            except Exception:  # noqa: BLE001 - a completion must never end the game
                self._matches = []
        return self._matches[i] if i < len(self._matches) else None

    def forget(self) -> None:
        """Clear the history: another player takes the keyboard (his predecessor's typed
        discards must not come back with the Up key)."""
        self.readline.clear_history()

    def input(self, console, prompt) -> str:
        """A line typed after ``prompt`` (rich markup or text, drawn by ``console``), edited by
        readline; a line longer than :data:`LINE_LIMIT` is refused and asked again.

        :raises EOFError: the input ended (Ctrl-D).
        """
        with console.capture() as cap:
            console.print(prompt, end="")
        shown = readline_prompt(cap.get())
        while True:
            console.file.flush()
            line = input(shown)
            problem = undecodable(line) if len(line) <= LINE_LIMIT else f"a line of more than {LINE_LIMIT} characters"
            if problem is None:
                return line
            console.print("[red]refused:[/] " + problem, highlight=False)


def line_editor(complete_for: Callable[[str], list[str]]) -> LineEditor | None:
    """A :class:`LineEditor`, or ``None`` where :mod:`readline` is missing (the console then
    reads plain lines)."""
    try:
        return LineEditor(complete_for)
    except ImportError:
        return None
