"""Helpers shared by the CLI tests."""
from __future__ import annotations

from rulekit.cli.game import Game


class Scripted(Game):
    """The CLI's game loop with ``policy(game, state, seat) -> [lines]`` at the prompt."""

    def __init__(self, *a, policy, **k):
        super().__init__(*a, **k)
        self.policy = policy
        self.lines: list = []
        self.events: set = set()

    def ask(self, seat):
        lines = self.policy(self, self.state, seat)
        self.lines += lines
        return self.state.parse_action(lines[-1])
