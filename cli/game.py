"""The terminal game loop of ``rulekit play``: humans at the prompt, bots elsewhere.

Three ways to show a match:

* ``live`` (a human plays): before each prompt the table as that seat sees it
  (hand sorted by suit, widow, auction, contract, trick, tricks won, totals);
  one line per finished auction, exchange and trick; the whole score sheet
  between hands and at the end.
* ``summary`` (``--auto``): per hand a compact story (auction in one line, the
  contract, one line per trick, the hand's sheet row), the whole sheet at the end.
* ``quiet`` (``--quiet``): only the final sheet and the winner.

A human's wrong move is refused with the reason and asked again.  With
``--save`` the record is written atomically before every human decision and
after every hand; on Ctrl-C (SIGINT, also SIGTERM/SIGHUP), end of input or
``quit`` the game is saved and the command says how to resume it.  A signal
that arrives while an action is being applied or the record written is held
until that step is complete, so a saved record always replays.

Bots are re-seeded before every decision from ``(bot seed, seat, action
index)``: a match interrupted and resumed goes on exactly as it would have
without the interruption.
"""
from __future__ import annotations

import os
import random
import shlex
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.control import Control
from rich.segment import ControlType, Segment
from rich.markup import escape
from rich.text import Text

from rulekit import records
from rulekit.bots import SensibleBot, make_bot
from rulekit.bots.base import EXTERNAL_PREFIX
from rulekit.bots.remote import ProcessBot
from rulekit.cards import SUIT_SYMBOLS
from rulekit.bots.claim import bot_accepts, claim_of, claim_problem, play_out, prove
from rulekit.engine.actions import Action
from rulekit.engine.phases import REGISTRY
from rulekit.dsl import FormulaError
from rulekit.errors import InvalidActionError, RulekitError

from .prompt import completions, line_editor
from .render import (auction_table, auction_text, bid_worth, worth_words, contract_text, exchange_text, hand_header, hand_summary,
                     round_objective, hand_text, legal_text, partnership, prompt_label, role_of, row_text, score_sheet,
                     settlement_text, table_view, trick_text, trump_named_text, winner_text, kind_said, WORTH_REMARK,
                     action_words, hint_text, open_hand_text, dealt_diagram, seen_diagram)

HELP_COMMANDS = ("  ?        list the legal actions\n"
                 "  help     this text\n"
                 "  sheet    show the score sheet\n"
                 "  table    show the table again\n"
                 "  hint     what the bot would do here, and why (its mean outcome per choice)\n"
                 "  undo     take back your last action of this hand and what followed it (against bots)\n"
                 "  claim    claim the rest of the tricks (in trick play; where a game's own action is\n"
                 "           called claim, the word is that action)\n"
                 "  save     write the game record now\n"
                 "  quit     save and stop (resume later with --resume)\n"
                 "At a terminal: arrow keys edit the line and recall earlier ones; Tab completes cards,\n"
                 "calls and commands.")


def help_text(variant, state=None) -> str:
    """The action forms this variant uses (each phase kind's help line), with ``state`` what each
    bid outside the ladder is (:func:`extra_bid_lines`), then the prompt commands."""
    forms = []
    for spec in variant.phases:
        line = REGISTRY[spec.kind].help_line(spec, variant)
        if line and line not in forms:
            forms.append(line)
    extra = "".join(line + "\n" for line in extra_bid_lines(state)) if state is not None else ""
    return "Type an action: " + "; ".join(forms) + ".\n" + extra + HELP_COMMANDS


def extra_bid_lines(state) -> list:
    """One line per bid that is not a plain level and strain of the ladder (``10T``, from the
    variant's ``extra_bids``; a contract of a list): its text, its tricks (``take no trick`` for a
    null contract; the contract's number when levels are no tricks) and trump, the bid it must go over, and what it
    is worth made (from the variant's scoring, as ``?`` shows it), e.g.
    ``  10T      10 tricks, the declarer names the trump later; only over 10NT; worth 440 to 500 made,
    by the trump named``."""
    auction = state.variant.auction()
    if auction is None:
        return []
    kind = REGISTRY[auction.kind]
    bids = list(kind.contracts(auction))
    first_lead = any(REGISTRY[p.kind].lead_makes_trumps(p) for p in state.variant.phases)
    out = []
    for b in bids:
        if b.text == f"{b.level}{b.strain}" and b.only_over < 0:
            continue
        trump = {"chosen": "the declarer names the trump later",
                 "NT": "trumps: the first card led" if first_lead else "no trump"}.get(
            b.strain, f"{SUIT_SYMBOLS.get(b.strain, b.strain)} trumps")
        trump += {"low": ", the lowest cards win", "chosen": ", the declarer says high or low"}.get(
            getattr(b, "wins", "high"), "")
        null = kind.null_bid(auction, b)
        # the tricks to win (over a book: book + level); None: a level that is a contract's number
        need = kind.bid_tricks(auction, b)
        # a contract that names no number of tricks (level 0: its scoring counts other things)
        aim = "take no trick" if null else (_tricks(need) if need else "")
        words = [", ".join(w for w in ((f"number {b.level}" if need is None else ""), aim, trump,
                                       *_game_terms(b)) if w)]
        name = getattr(b, "label", "")
        if name and name != b.text and null:   # games of no tricks told apart by name: little null
            words[0] = f"{name}: {words[0]}"
        if b.only_over >= 0:
            words.append(f"only over {bids[b.only_over].text}")
        if b.strain == "chosen":    # scored in the suit named later: the range over the suits
            worths = sorted({w for w in (bid_worth(state, replace(b, strain=x)) for x in state.variant.deck.suits)
                             if w is not None})
            if worths:
                words.append(f"worth {worths[0]} made" if len(worths) == 1 else
                             f"worth {worths[0]} to {worths[-1]} made, by the trump named")
        elif (worth := worth_words(state, b)) is not None:
            words.append(f"worth {worth} made")
        elif getattr(b, "value", None) is not None:   # a contract of a list: its value
            words.append(f"value {b.value}")
        out.append(f"  {b.text:<8} " + "; ".join(words))
    return out
SHEET_TITLE = "Score sheet"

# clear the screen (ESC[2J) and the scrollback (ESC[3J; rich's clear() leaves it, so a hand could be
# scrolled back to), cursor home
WIPE = Control()
WIPE.segment = Segment("\x1b[2J\x1b[3J\x1b[H", None, [(ControlType.CLEAR,), (ControlType.HOME,)])


class Stopped(KeyboardInterrupt):
    """The match was stopped by a signal (Ctrl-C, SIGTERM, SIGHUP); ``signum`` says which."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def stop_signals(handler):
    """``handler(signum, frame)`` in place of the process's own for SIGINT, SIGTERM and SIGHUP
    (those this system has, and only where a handler may be set: the main thread), the old ones
    put back after: how ``play`` and ``score`` stop with 128 + the signal after saving."""
    old = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            try:
                old[sig] = signal.signal(sig, handler)
            except (ValueError, OSError):
                pass
    try:
        yield
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)


class Quit(Exception):
    """The human typed ``quit``."""


class _Replanned(Exception):
    """A table command changed the state at the prompt (``undo``, a claim played out): the game
    loop goes on from the state now in place."""


def resume_command(path: Path) -> str:
    """The command line that resumes the game saved at ``path``."""
    return f"rulekit play --resume {shlex.quote(str(path))}"


def _recorded(controller: str) -> str:
    """A seat's controller as a record keeps it: a bot file (``bot:PATH``) as ``external``."""
    return "external" if controller.startswith(EXTERNAL_PREFIX) else controller


class Game:
    """A match with a controller per seat.

    :param state: the :class:`~rulekit.engine.State` (new or replayed from a record).
    :param controllers: ``"human"``, ``"bot"`` (sensible) or ``"random"`` per seat.
    :param console: where the game is shown.
    :param save_path: record file kept up to date (atomic writes), or ``None``
        (then a record is written only on interruption, to a fresh file in the
        current folder).
    :param quiet: bot-only games: print only the final sheet and the winner.
    :param bot_seed: seeds the bots' own randomness (default: the match seed).
    :param status: console for messages about saving (default: ``console``).
    :param pauses: a human reads the screen at a terminal: wait for Enter between hands, after each
        trick of a hand he only watches (as dummy), and before the turn of another human at the same
        terminal, whose hand is hidden until then (issue 12 cases 2 and 18). Off for piped input.
    :param line_editing: read the prompt with readline (:mod:`rulekit.cli.prompt`): a person at a
        terminal (standard input and output both terminals).
    :param undone: the actions taken back by ``undo`` so far (a resumed record's ``undone``).
    """

    def __init__(self, state, controllers: list, console: Console, save_path: Path | None = None,
                 quiet: bool = False, bot_seed: int | None = None, status: Console | None = None,
                 pauses: bool = False, line_editing: bool = False, undone: list | None = None):
        self.state = state
        self.controllers = list(controllers)
        self.console = console
        self.status = status or console
        self.save_path = Path(save_path) if save_path else None
        self.bot_seed = state.seed if bot_seed is None else bot_seed
        self.bots = {s: make_bot(c, seed=0) for s, c in enumerate(self.controllers) if c != "human"}
        for bot in self.bots.values():   # a bot file's process says here why it was stopped
            if isinstance(bot, ProcessBot):
                bot.warn = lambda msg: self.status.print(f"[yellow]warning:[/] {escape(msg)}", highlight=False)
        self.humans = [s for s, c in enumerate(self.controllers) if c == "human"]
        self.mode = "live" if self.humans else ("quiet" if quiet else "summary")
        v = state.variant
        # the seat whose view the tables take (the auction with this seat last) and its score column
        self.viewer = self.humans[0] if self.humans else getattr(v, "home_seat", 0)
        self.we = v.side_of[self.humans[0]] if self.humans and v.scoring.by_side else 0
        self._saved_at = -1          # len(history) at the last successful save
        self._saved_clock = 0.0      # time.monotonic() after it, and how long it took
        self._save_cost = 0.0
        self.new_record = save_path is None  # the next save creates its file (never over an existing one)
        self._critical = False
        self._pending: int | None = None
        self._stopping = False       # saving after an interruption: ignore further signals
        self.pauses = pauses and bool(self.humans)
        self._at_table: int | None = None   # the human whose hand the screen last showed
        self._before = 0             # len(log) before the action being applied
        # the cards played before each of the hand's actions (``Hand.actions``), for the story
        # to tell an exchange or a meld between the tricks; unknown for a hand resumed mid-play
        h = state.hand
        self._plays_at: dict = {h.number: [0] * len(h.actions)} if not (h.tricks or h.trick) else {}
        self.undone: list = [dict(u) for u in undone or ()]   # what undo took back, for the record
        self.editor = line_editor(lambda line: completions(self.state, line)) if line_editing else None

    # ------------------------------------------------------------------ records
    def record(self) -> dict:
        """The match record so far (:func:`rulekit.records.to_record`), with what ``undo`` took
        back."""
        return records.to_record(self.state, [_recorded(c) for c in self.controllers], undone=self.undone)

    def sheet(self):
        """The score sheet in the variant's layout, the human's side as WE."""
        return score_sheet(self.state, we=self.we, title=SHEET_TITLE)

    def default_path(self) -> Path:
        """A file name in the current folder that does not exist yet (``rulekit-ID.json``; not the
        seed, which would show every hidden card of a game in progress, issue 12 case 2)."""
        base = f"rulekit-{self.state.variant.id}"
        p = Path(f"{base}.json")
        k = 1
        while p.exists():
            p = Path(f"{base}-{k}.json")
            k += 1
        return p

    def save(self, path: Path | None = None) -> Path:
        """Write the record atomically to ``path`` (or the save path, or a fresh default); return it.

        :raises OSError: the file cannot be written (the previous record is intact).
        """
        if path is None:
            if self.save_path is None:
                self.save_path = self.default_path()
            path = self.save_path
        t = time.monotonic()
        rec = self.record()
        # during play the seed, the deals and the hand in progress are sealed (rulekit.sealing)
        played = None if self.state.is_over else len(self.state.record.codes)
        with self._shielded():
            records.save_game(path, rec, played, exclusive=self.new_record)
        self.new_record = False
        self._saved_at = self.state.actions_taken
        self._saved_clock = time.monotonic()
        self._save_cost = self._saved_clock - t
        return path

    def autosave(self) -> None:
        """Save to ``--save`` if anything changed; a failure is reported, not fatal."""
        if self.save_path is None or self._saved_at == self.state.actions_taken:
            return
        try:
            self.save()
        except OSError as e:
            self.status.print(f"[yellow]warning:[/] could not save to {escape(str(self.save_path))}: "
                              f"{escape(str(e.strerror or e))}", highlight=False)

    # ------------------------------------------------------------------ signals
    @contextmanager
    def _signals(self):
        """Turn SIGINT/SIGTERM/SIGHUP into :class:`Stopped` (held inside critical steps)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum, frame):
            if self._stopping:
                return
            if self._critical:
                self._pending = signum
                return
            raise Stopped(signum)

        with stop_signals(handler):
            yield

    @contextmanager
    def _shielded(self):
        """Hold signals while the state or the record file changes."""
        if self._critical:  # nested
            yield
            return
        self._critical = True
        try:
            yield
        finally:
            self._critical = False
        if self._pending is not None:
            sig, self._pending = self._pending, None
            raise Stopped(sig)

    # ------------------------------------------------------------------ the match
    def run(self) -> int:
        """Play until the match ends; return the process exit code.

        0 when the match is over (or the human quit after saving); 1 when the
        input ended; 128+signal (130 for Ctrl-C) when stopped by a signal.
        """
        st = self.state
        with self._signals():
            try:
                if self.mode == "live" and not st.is_over:
                    if st.sheet.rows:
                        self.console.print(self.sheet())
                    self._header()
                self.autosave()
                while not self.state.is_over:   # (undo puts a new state in place)
                    self.step()
            except Stopped as e:
                why = "interrupted" if e.signum == signal.SIGINT else f"stopped by signal {e.signum}"
                return self._stop(why, 128 + int(e.signum))
            except KeyboardInterrupt:
                return self._stop("interrupted", 130)
            except EOFError:
                return self._stop("input ended", 1)
            except Quit:
                return self._stop("", 0)
            except FormulaError as e:
                return self._formula_failed(e)
            except BrokenPipeError:          # `rulekit play --auto | head`: save (if asked to), then go quietly
                _silence_stdout()
                if self.save_path is None and not self.humans:
                    return 141
                return self._stop("output closed", 141)
            except OSError as e:             # `> /dev/full`: say so on stderr, save, exit 1 (issue 13 case 9)
                _silence_stdout()
                why = f"cannot write the output ({e.strerror or e})"
                if self.save_path is None and not self.humans:
                    self._say(f"[red]error:[/] {escape(why)}")
                    return 1
                return self._stop(why, 1)
        if self.save_path:
            try:
                self.save()
            except OSError as e:
                self.status.print(f"[yellow]warning:[/] could not save to {escape(str(self.save_path))}: "
                                  f"{escape(str(e.strerror or e))}", highlight=False)
        try:
            self.show_end()
        except BrokenPipeError:              # `rulekit play --auto | head` closed before the end
            _silence_stdout()
            return 141
        except OSError as e:
            _silence_stdout()
            self._say(f"[red]error:[/] cannot write the output ({escape(str(e.strerror or e))})")
            return 1
        return 0

    def show_end(self) -> None:
        """The final sheet, the winner, and the seed: only now, when no card is hidden any more
        (issue 12 case 2), so that the same deals can be played again."""
        st = self.state
        self.console.print(self.sheet())
        self.console.print(winner_text(st))
        settle = settlement_text(st)
        if settle is not None:
            self.console.print(settle)
        if self.mode != "quiet":     # --quiet: only the sheet and the winner
            self.console.print(f"seed {st.seed} (play these deals again with --seed {st.seed})",
                               highlight=False, markup=False)

    def _stop(self, why: str, code: int) -> int:
        """Save after an interruption and say how to resume (further signals are ignored meanwhile)."""
        self._stopping = True
        try:
            path = self.save()
        except OSError as e:
            self._say(f"\n[red]error:[/] {why or 'stopped'}, and the game could not be saved to "
                      f"{escape(str(self.save_path))}: {escape(str(e.strerror or e))}")
            return code or 1
        head = f"\n{why}: game saved" if why else "game saved"
        self._say(escape(f"{head} to {path}. Resume with:\n  {resume_command(path)}"))
        return code

    def _formula_failed(self, e: FormulaError) -> int:
        """A variant formula failed in play (issue 13 case 10): say where (FILE:LINE:COL of the
        formula), save the game as it was before the failing action (a record that resumes),
        and return 1.  The half-applied action leaves the state inconsistent, so the saved
        state is rebuilt by replaying the actions before it."""
        st = self.state
        if st.actions_taken > self._before:
            self.state = records.replay(self.record(), upto=self._before)
        try:
            self.status.print(Text(f"error: {e}"), highlight=False, soft_wrap=True)
        except OSError:
            pass
        return self._stop("the game stopped on this error", 1)

    def _say(self, markup: str) -> None:
        """A status message; a closed terminal (SIGHUP) must not turn a saved game into a traceback."""
        try:
            self.status.print(markup, highlight=False, soft_wrap=True)
        except OSError:
            pass

    def decider(self, seat: int) -> int:
        """The seat whose controller decides for ``seat`` (the declarer for his dummy)."""
        controller = getattr(self.state, "controller", None)
        return controller(seat) if controller is not None else seat

    def bot_action(self, seat: int):
        """The action of the bot at ``seat`` (re-seeded from the seat and the action index)."""
        bot = self.bots[seat]
        bot.rng.seed(f"rulekit-bot:{self.bot_seed}:{seat}:{self.state.actions_taken}")
        return bot.act(self.state.observation(seat))

    def step(self) -> None:
        """One action by the seat to move (asking a human until the action is legal)."""
        st = self.state
        self._before = st.actions_taken   # the clean point if a formula fails during this step
        seat = st.to_move
        decider = self.decider(seat)
        kind = st.kind
        if kind is not None and kind.role == "chance":   # a chance event (a card turned): no one decides
            action = st.legal_actions()[0]
        elif self.controllers[decider] == "human":
            self.autosave()
            self.hand_to(decider)
            try:
                action = self.ask(decider)
            except _Replanned:     # undo, or a claim played out: the loop goes on from the new state
                return
        else:
            action = self.bot_action(decider)
        self.perform(action)

    def perform(self, action) -> None:
        """Apply ``action`` for the seat to move and show what happened (the end of a hand too)."""
        st = self.state
        seat = st.to_move
        h = st.hand
        rows = len(st.sheet.rows)
        tricks = len(h.tricks)
        phase = st.phase_kind
        told, plays = len(h.actions), sum(len(trick[1]) for trick in h.tricks) + len(h.trick)
        with self._shielded():
            st.apply(action)
        at = self._plays_at.get(h.number)
        if at is not None and len(at) == told:
            at += [plays] * (len(h.actions) - told)
        if st.hand is not h:
            self._plays_at = {h.number: at, st.hand.number: [0] * len(st.hand.actions)}
        if self.mode == "live":
            self.announce(seat, action, h, phase, tricks)
        if st.hand is not h or st.is_over:
            self.hand_over(h, st.sheet.rows[rows:])

    def announce(self, seat: int, action, h, phase: str, tricks_before: int) -> None:
        """Live mode: what just happened that the prompt's table will not show."""
        st = self.state
        out = self.console
        if role_of(phase) == "auction" and _auction_over(st, h) and partnership(st.variant):
            out.print(Text("auction:", style="dim"))
            out.print(auction_table(st, h, self.viewer))
            ct = contract_text(st, h)
            if ct is not None:
                out.print(Text("contract: ", style="dim") + ct)
            dummy = getattr(h, "dummy", -1)
            if st.hand is h and dummy is not None and dummy >= 0:
                ctl = self.decider(dummy)
                d, c = st.names[dummy], st.names[ctl]
                if self.controllers[dummy] == "human" and self.controllers[ctl] != "human":
                    out.print(Text(f"{d} {'are' if d == 'You' else 'is'} dummy: {c} plays both hands.", style="bold"))
                elif self.controllers[ctl] == "human":
                    out.print(Text(f"{c} {'declare' if c == 'You' else 'declares'}: {c.lower() if c == 'You' else c} "
                                   f"{'play' if c == 'You' else 'plays'} {'your' if c == 'You' else 'his'} own hand "
                                   f"and dummy {d}'s.", style="bold"))
        elif role_of(phase) == "auction" and _auction_over(st, h):
            t = Text("auction: ", style="dim")
            t.append_text(auction_text(st, h))
            ct = contract_text(st, h)
            if ct is not None:
                t.append("  → ")
                t.append_text(ct)
            out.print(t)
        elif action.kind == "discard":
            reveal = self.controllers[seat] == "human"
            out.print(exchange_text(st, h, action.text, seat, reveal=reveal))
        elif action.kind == "trump":
            out.print(trump_named_text(st, h, seat))
        elif action.kind != "play" and (said := kind_said(st, h, seat, action.text)) is not None:
            out.print(said)     # a kind's own words (high, low)
        dummy = getattr(h, "dummy", -1)
        if (action.kind == "play" and dummy is not None and dummy >= 0 and not h.tricks and len(h.trick) == 1
                and self.controllers[dummy] != "human"):
            # after the opening lead: the dummy at its place, with the hands the viewer sees (his
            # own only when he is the one person at this terminal)
            out.print(Text(f"dummy {st.names[dummy]} goes down:", style="dim"))
            out.print(seen_diagram(st, self.viewer, others_shown=len(self.humans) == 1))
        if len(h.tricks) > tricks_before:
            out.print(trick_text(st, h, len(h.tricks) - 1))
            if st.hand is h and not st.is_over and not self._human_plays():
                self.pause("press Enter for the next trick")   # as dummy: trick by trick, not 13 at once

    def _human_plays(self) -> bool:
        """True when a human decides some seat's cards in this hand (False for a human dummy)."""
        return any(self.controllers[self.decider(s)] == "human" for s in range(self.state.variant.players))

    def pause(self, text: str) -> None:
        """Wait for Enter, when a human reads the screen at a terminal (``pauses``).

        :raises EOFError: the input ended.
        """
        if self.pauses:
            self.read(Text(f"{text} ", style="dim"))

    def read(self, prompt) -> str:
        """A line typed at the prompt.

        :raises EOFError: the input ended, is closed (``<&-``) or cannot be read (issue 13 case 9).
        """
        try:
            if self.editor is not None:
                return self.editor.input(self.console, prompt)
            return self.console.input(prompt)
        except RuntimeError as e:       # input(): lost sys.stdin
            raise EOFError(str(e)) from None
        except OSError as e:
            raise EOFError(str(e.strerror or e)) from None

    def hand_to(self, seat: int) -> None:
        """Several humans at one terminal: before a human's turn (the first one's too) when the last
        turn was another's, clear the screen and the terminal's scrollback (the last one's hand) and
        wait until the next one is at the keyboard (issue 12 case 2, fixes-h case 2)."""
        last, self._at_table = self._at_table, seat
        if len(self.humans) < 2 or last == seat or not self.pauses:
            return
        if self.editor is not None:
            self.editor.forget()      # the last one's typed lines (his discards) are his
        self.console.control(WIPE)
        self.pause(f"Pass to {self.state.names[seat]}, press Enter")

    def hand_over(self, h, rows) -> None:
        """A hand has ended: its summary (``--auto``) or its rows and the sheet (live)."""
        st = self.state
        if self.mode == "summary":
            for line in hand_summary(st, h, rows, self._plays_at.get(h.number)):
                self.console.print(line)
        elif self.mode == "live":
            self.console.print(dealt_diagram(st, h, self.viewer))   # the hand is over: every card is public
            for r in rows:
                self.console.print(row_text(st.sheet, r))
            if not st.is_over:
                self.console.print(self.sheet())
                self.pause("press Enter for the next hand")   # time to read the last trick and the sheet
                self._header()
        if self.save_path and (self.humans or self._save_due()):
            self.autosave()

    def _header(self) -> None:
        """The rule that opens a hand, and a round's objective on its own line below it."""
        st = self.state
        self.console.rule(hand_header(st, st.hand), align="left")
        objective = round_objective(st, st.hand)
        if objective is not None:
            self.console.print(objective)

    def _save_due(self) -> bool:
        """Bot-only games: whether to save after this hand.  A save writes the whole record,
        so saving after every hand makes a long ``--auto --save`` match quadratic; saving only
        when at least nine times the last save's duration has passed since it keeps the saves
        under a tenth of the time (the game is saved at its end, and when stopped, anyway)."""
        return time.monotonic() - self._saved_clock >= 9 * self._save_cost

    # ------------------------------------------------------------------ the prompt
    def prompt(self, seat: int) -> str:
        """``You (bid) > ``."""
        st = self.state
        label = prompt_label(st)   # the kind's word now (an order-up said in the game's word: "take")
        if st.to_move != seat and st.to_move >= 0:
            dummy = getattr(st.hand, "dummy", -1)
            label += f" from dummy {st.names[st.to_move]}" if st.to_move == dummy else f" for {st.names[st.to_move]}"
        return f"[bold]{escape(st.names[seat])}[/] ({escape(label)}) > "

    def ask(self, seat: int):
        """Prompt the human at ``seat`` until a legal action is typed.

        :raises EOFError: the input ended.  :raises Quit: the human typed ``quit``.
        """
        st = self.state
        self.console.print(table_view(st, seat))
        while True:
            try:
                text = self.read(self.prompt(seat)).strip()
            except UnicodeDecodeError:
                self.console.print(Text.assemble(Text("refused: ", style="red"), "that line is not UTF-8 text"))
                continue
            low = text.lower()
            if not text:
                continue
            if low in ("?", "help", "h"):
                if low != "?":
                    self.console.print(help_text(st.variant, st), markup=False, highlight=False)
                self.console.print(legal_text(st))
                continue
            if low == "sheet":
                self.console.print(self.sheet())
                continue
            if low == "hint":
                self.console.print(self.hint(seat))
                continue
            if low == "undo":
                self.undo(seat)           # raises _Replanned once done
                continue
            if low == "claim" and not self._claim_is_an_action():
                self.claim(seat)          # raises _Replanned once played out
                continue
            if low in ("table", "hand") and not any(a.text == low for a in st.legal_actions()):
                # ("hand" is also an action: a hand game, played without the widow)
                self.console.print(table_view(st, seat))
                continue
            if low == "save":
                try:
                    self.status.print(f"saved to {self.save()}", highlight=False, markup=False)
                except OSError as e:
                    self.status.print(f"[red]could not save:[/] {escape(str(e.strerror or e))}", highlight=False)
                continue
            if low in ("quit", "exit", "q"):
                raise Quit()
            try:
                action = self.parse(text)
                st.check(action)
                return action
            except RulekitError as e:
                self.console.print(Text.assemble(Text("refused: ", style="red"), str(e)))
            except Exception as e:  # noqa: BLE001 - odd text must never end the game
                self.console.print(Text.assemble(Text("refused: ", style="red"),
                                                 f"cannot read {text!r} ({type(e).__name__}: {e})"))


    # ------------------------------------------------------------------ table commands
    def hint(self, seat: int) -> Text:
        """What the Monte Carlo bot would do in ``seat``'s place, from ``seat``'s observation
        only, and why (:meth:`~rulekit.bots.SensibleBot.explain`); its randomness is seeded from
        the game and the action index, so asking twice gives the same answer and the bots' own
        choices are not changed."""
        st = self.state
        bot = SensibleBot(seed=0)
        bot.rng.seed(f"rulekit-hint:{self.bot_seed}:{seat}:{st.actions_taken}")
        action, notes = bot.explain(st.observation(seat))
        return hint_text(st, action, notes)

    def _deciders(self, rec: dict) -> list:
        """Per action of ``rec``: ``(hand number, the seat that decided it)`` (-1 for a chance
        event), found by replaying the record."""
        walk = records.replay(rec, upto=0, variant=self.state.match_variant)
        out = []
        for _seat, text in rec["actions"]:
            kind = walk.kind
            chance = kind is not None and kind.role == "chance"
            out.append((walk.hand.number, -1 if chance else walk.controller(walk.to_move)))
            walk.apply(text)
        return out

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision of this hand and every action after it (the bots'
        replies), so that he decides again; bots then decide anew (as they would have from the
        same position).  The record keeps the actions taken back (``undone``).  Refused, with
        the reason, when he has made no decision in this hand, or when another person's
        decision would be taken back.

        :raises _Replanned: once the state is back at his decision.
        """
        st = self.state
        rec = self.record()
        who = self._deciders(rec)
        mine = [i for i, (hand, d) in enumerate(who) if hand == st.hand.number and d == seat]
        if not mine:
            self._refuse("nothing of yours to take back in this hand (undo goes back to your own "
                         "last action of the hand being played)")
            return
        at = mine[-1]
        others = {d for _h, d in who[at:]} - {seat, -1}
        people = sorted(st.names[d] for d in others if self.controllers[d] == "human")
        if people:
            self._refuse(f"undo would take back the decisions of {' and '.join(people)} too "
                         f"(undo is for games against bots)")
            return
        taken = [list(a) for a in rec["actions"][at:]]
        with self._shielded():
            self.state = records.replay(rec, upto=at, variant=st.match_variant)
            self.undone.append({"by": seat, "at": at, "actions": taken})
            self._saved_at = -1          # the record changed though it may have as many actions
        rest = len(taken) - 1
        t = Text("taken back: ", style="bold")
        t.append_text(action_words(self.state, taken[0][1]))
        t.append(f" and the {rest} action{'s' if rest != 1 else ''} after it" if rest else "")
        t.append(f" (the record keeps them, marked as taken back)", style="dim")
        self.console.print(t)
        raise _Replanned()

    def _claim_is_an_action(self) -> bool:
        """True when the game has an action of its own called ``claim`` (a declaration such as "I
        have 66"): a legal action's text starts with the word, or the phase reads the word as one of
        its actions (then legal or not, the game answers it).  The word then goes to the game, not
        to the table command."""
        st = self.state
        legal = st.legal_actions()
        if isinstance(legal, list) and any(st.action_text(a).split()[:1] == ["claim"] for a in legal):
            return True
        kind = st.kind
        return kind is not None and kind.parse("claim", st) is not None

    def claim(self, seat: int) -> None:
        """``seat`` claims every remaining trick for his side (:mod:`rulekit.bots.claim`): accepted
        when the engine proves it against every deal of the cards he cannot see and every
        defence, else when every opponent agrees (a bot when it finds no defence in its own
        sampled deals; a person when he says yes); then the rest is played out in the record.
        A refused claim is said with its reason and play goes on.

        :raises _Replanned: once the claim is played out.
        """
        st = self.state
        problem = claim_problem(st, seat)
        if problem:
            self._refuse(problem)
            return
        c = claim_of(st, seat)
        left = st.hand.hands[st.to_move].bit_count()
        self.console.print(Text(f"{st.names[seat]} {'claim' if st.names[seat] == 'You' else 'claims'} "
                                f"the rest of the tricks", style="bold"))
        proved = prove(st, c)
        if proved is False:
            self._refuse("a deal of the cards you cannot see and a defence take a trick against every "
                         "line of yours; play on")
            return
        how = "proved against every deal of the unseen cards and every defence"
        if proved is None:
            agreed = []
            for o in sorted({self.decider(s) for s in range(st.variant.players)
                             if s not in c.side and st.hand.hands[s]}):
                if self.controllers[o] == "human":
                    if not self._asks_accept(o, seat, c):
                        self._refuse(f"{st.names[o]} does not accept; play on")
                        return
                else:
                    rng = random.Random(f"rulekit-claim:{self.bot_seed}:{o}:{st.actions_taken}")
                    ok, why = bot_accepts(st, c, o, rng)
                    if not ok:
                        self._refuse(f"{st.names[o]} does not accept: {why}; play on")
                        return
                agreed.append(st.names[o])
            how = "agreed by " + " and ".join(agreed)
        line = play_out(st, c)
        if line is None:
            self._refuse("the claim cannot be played out with the cards as they lie; play on")
            return
        self.console.print(Text(f"claim accepted ({how}): the remaining {left} trick"
                                f"{'s are' if left != 1 else ' is'} played out", style="bold"))
        for action in line:
            if self.state.is_over:
                break
            self._before = self.state.actions_taken
            self.perform(action)
        raise _Replanned()

    def _asks_accept(self, o: int, seat: int, c) -> bool:
        """Ask the person at ``o`` whether he accepts ``seat``'s claim, the claimer's hand (and his
        dummy's) shown face up as a claimer shows it."""
        st = self.state
        self.hand_to(o)
        for s in sorted(c.mine):
            t = Text(f"{st.names[s]} shows: ")
            t.append_text(open_hand_text(st, s))
            self.console.print(t)
        while True:
            answer = self.read(f"{escape(st.names[o])}, accept the claim? (yes/no) > ").strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")

    def _refuse(self, why: str) -> None:
        self.console.print(Text.assemble(Text("refused: ", style="red"), why))

    def parse(self, text: str):
        """The action typed (short forms such as ``QS`` and ``JK H`` included).

        When the short-form reading fails, the plain reading is tried so that
        ``pass`` typed during play is refused for what it is ("play a card now").

        :raises InvalidActionError: text that is no action.
        """
        st = self.state
        remark = WORTH_REMARK.search(text)
        if remark and remark.start():   # ``3 (worth 3)`` copied from the ``?`` list: the call is ``3``
            try:
                return st.parse_action(text[:remark.start()])
            except InvalidActionError:
                pass
        try:
            return st.parse_action(text)
        except InvalidActionError as e:
            try:
                return Action.parse(text, st.variant.deck, st.bid_texts)
            except RulekitError as plain:
                # say which card was wrong (``7C is named twice``), not only what may be typed
                detail = str(plain)
                if "is not an action" not in detail and detail not in str(e):
                    raise InvalidActionError(f"{e} ({detail})") from None
            raise


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _game_terms(b) -> list:
    """What else a contract asks of its declarer, from its attributes: cards put aside face down
    (``aside``), his hand laid face up (``open``: before the first lead, after the first trick),
    his partner sitting out (``alone``)."""
    out = []
    aside = getattr(b, "aside", 0)
    if aside:
        out.append(f"{aside} card{'s' if aside != 1 else ''} put aside face down")
    opened = getattr(b, "open", "")
    if opened:
        out.append("the declarer's hand laid face up " +
                   ("before the first lead" if opened == "before_lead" else "after the first trick"))
    if getattr(b, "alone", False):
        out.append("the declarer's partner sits the hand out")
    return out


def _tricks(n: int) -> str:
    """``1 trick``, ``7 tricks``."""
    return f"{n} trick{'' if n == 1 else 's'}"


def _auction_over(st, h) -> bool:
    """True when the auction of ``h`` has just ended (a contract, all passed, or a new hand)."""
    return st.hand is not h or st.is_over or role_of(st.phase_kind) != "auction"
