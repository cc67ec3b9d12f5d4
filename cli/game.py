"""The terminal game loop of ``rulekit play``: humans at the prompt, bots elsewhere.

A human's wrong move is refused with the reason and asked again.  With
``--save`` the record is written (atomically) after every action; on Ctrl-C
or end of input the game is saved and the command says how to resume.
"""
from __future__ import annotations

from pathlib import Path

from rich.console import Console

from rulekit import records
from rulekit.bots import make_bot
from rulekit.errors import ActionError
from .render import card_text, sheet_table, table_view

HELP = ("Type an action: pass, a bid (7H, 10NT, 10T), discard 7C 8C 9D, trump H, play QS "
        "(or just QS), play JK H to lead the Joker naming hearts. ? lists the legal actions; "
        "save writes the game; quit saves and stops.")


class Game:
    """A match with a controller per seat.

    :param state: the :class:`~rulekit.engine.State`.
    :param controllers: ``"human"``, ``"bot"`` (sensible) or ``"random"`` per seat.
    :param console: where to print.
    :param save_path: record file kept up to date (atomic writes), or ``None``.
    :param verbose: print every call and trick of bot-only play.
    """

    def __init__(self, state, controllers: list, console: Console, save_path: Path | None,
                 verbose: bool = True, bot_seed: int = 0):
        self.state = state
        self.controllers = controllers
        self.console = console
        self.save_path = save_path
        self.verbose = verbose
        self.bots = {s: make_bot(c, seed=bot_seed * 1009 + s) for s, c in enumerate(controllers) if c != "human"}

    def record(self) -> dict:
        """The match record so far."""
        return records.to_record(self.state, self.controllers)

    def save(self, path: Path | None = None) -> Path:
        """Write the record atomically to ``path`` (or the save path); return the path."""
        path = path or self.save_path or Path(f"rulekit-{self.state.variant.id}-{self.state.seed}.json")
        records.save(path, self.record())
        return path

    def run(self) -> int:
        """Play until the match ends; return the process exit code."""
        st = self.state
        try:
            while not st.is_over:
                self.step()
        except (KeyboardInterrupt, EOFError) as e:
            path = self.save()
            why = "interrupted" if isinstance(e, KeyboardInterrupt) else "input ended"
            self.console.print(f"\n{why}: game saved to {path}. Resume with:\n"
                               f"  rulekit play {st.variant.id} --resume {path}")
            return 130 if isinstance(e, KeyboardInterrupt) else 1
        except _Quit:
            path = self.save()
            self.console.print(f"game saved to {path}. Resume with:\n  rulekit play {st.variant.id} --resume {path}")
            return 0
        if self.save_path:
            self.save()
        self.console.print(sheet_table(st.sheet, "Final score sheet"))
        names = " and ".join(st.names[s] for s in st.winners)
        self.console.print(f"[bold]{names} win{'s' if len(st.winners) == 1 else ''}[/] ({st.end_reason}).")
        return 0

    def step(self) -> None:
        """One action by the seat to move (asking a human until the action is legal)."""
        st = self.state
        seat = st.to_move
        hand_before = st.hands_played
        if self.controllers[seat] == "human":
            action = self.ask(seat)
        else:
            action = self.bots[seat].act(st.observation(seat))
        h = st.hand
        trick_before = len(h.tricks)
        st.apply(action)
        if self.verbose or "human" in self.controllers:
            self.announce(seat, action, h, trick_before)
        if self.save_path:
            self.save()
        if st.hands_played != hand_before:
            self.console.print(sheet_table(st.sheet))

    def announce(self, seat, action, h, trick_before) -> None:
        """Print what a seat did (and who won a trick that just closed)."""
        st = self.state
        name = st.names[seat]
        if action.kind == "play":
            line = f"{name} plays "
            self.console.print(f"  {line}", card_text(st.variant.deck, action.card),
                               f" naming {action.suit}" if action.suit else "", sep="", end="\n")
        elif action.kind == "discard" and self.controllers[seat] != "human":
            self.console.print(f"  {name} takes the widow and discards {action.cards.bit_count()} cards")
        else:
            self.console.print(f"  {name}: {action.text}")
        if len(h.tricks) > trick_before:
            winner = h.tricks[-1][2]
            self.console.print(f"  [dim]trick {len(h.tricks)} to {st.names[winner]}[/]")

    def ask(self, seat: int):
        """Prompt the human at ``seat`` until a legal action is typed."""
        st = self.state
        self.console.print(table_view(st, seat))
        while True:
            text = self.console.input(f"[bold]{st.names[seat]}[/] ({st.phase_kind.replace('_', ' ')}) > ").strip()
            if not text:
                continue
            if text in ("?", "help"):
                if text == "help":
                    self.console.print(HELP)
                self.console.print("legal: " + ", ".join(a.text for a in st.legal_actions()))
                continue
            if text == "save":
                self.console.print(f"saved to {self.save()}")
                continue
            if text in ("quit", "exit"):
                raise _Quit()
            try:
                action = st.parse_action(text)
                st.check(action)
                return action
            except ActionError as e:
                self.console.print(f"[red]refused:[/] {e}")


class _Quit(Exception):
    pass
