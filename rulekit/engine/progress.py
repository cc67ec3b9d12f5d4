"""Games, rubbers and vulnerability of a match (rules/bridge.md [S2] [S8] [S9],
whist.md [S3]-[S6], the duplicate and Chicago vulnerability cycles).

Only the parts of an entry marked ``game: true`` count toward a game; parts are
counted in their declared order, so that (whist [S3]) trick points can win a
game before picture points are added.  When a column reaches
``match.game.target`` it wins the game: a line is drawn, every column starts
the next game from zero, and the winner may get game points.  The first
column to win ``match.rubber.games`` games wins the rubber and its bonus.
Points of the same deal's later parts (whist pictures after trick points won
the game) do not carry into the next game, which starts from zero (choice:
whist.md is silent).
"""
from __future__ import annotations

from rulekit.dsl import Env


class Progress:
    """Game scores, games won, game points and rubbers of each score column.

    :ivar game_score: game-counting points of each column since the last line.
    :ivar games: games won in the current rubber.
    :ivar game_points: game points (game values and rubber bonuses sent there).
    :ivar rubbers: rubbers finished.
    """

    def __init__(self, columns: int):
        self.columns = columns
        self.game_score = [0] * columns
        self.games = [0] * columns
        self.game_points = [0] * columns
        self.rubbers = 0
        self.rubbers_won = [0] * columns

    def clone(self) -> "Progress":
        """An independent copy."""
        p = Progress(self.columns)
        p.game_score = list(self.game_score)
        p.games = list(self.games)
        p.game_points = list(self.game_points)
        p.rubbers = self.rubbers
        p.rubbers_won = list(self.rubbers_won)
        return p

    def vulnerable(self, variant, deal_number: int, dealer: int) -> list:
        """Vulnerability of each column for deal ``deal_number`` (0-based) dealt by ``dealer``."""
        vul = variant.vulnerability
        if not vul:
            return [False] * self.columns
        if vul[0] == "games":
            return [g > 0 for g in self.games]
        cycle = vul[1:]
        x = cycle[deal_number % len(cycle)]
        if x == "none":
            return [False] * self.columns
        if x == "both":
            return [True] * self.columns
        col = variant.side_of[dealer] if x == "dealer" else variant.side_names.index(x)
        return [c == col for c in range(self.columns)]

    def record(self, variant, parts: dict) -> list:
        """Count a deal's game parts; return the events it caused.

        :param parts: part name -> entries per column (in the variant's part order).
        :returns: a list of ``("game", column, game_points)`` and
            ``("rubber", column, bonus)`` events.
        """
        m = variant.match
        events: list = []
        if m.game_target is None:
            return events
        for part in variant.scoring.parts:
            if not part.game:
                continue
            for c, e in enumerate(parts.get(part.name, [])):
                self.game_score[c] += e
            winner = next((c for c in range(self.columns) if self.game_score[c] >= m.game_target), None)
            if winner is None:
                continue
            their = max(self.game_score[c] for c in range(self.columns) if c != winner)
            value = int(m.game_value(Env({"their_points": their}))) if m.game_value else 0
            self.game_points[winner] += value
            self.games[winner] += 1
            self.game_score = [0] * self.columns
            events.append(("game", winner, value))
            if m.rubber_games and self.games[winner] >= m.rubber_games:
                their_games = max(self.games[c] for c in range(self.columns) if c != winner)
                bonus = int(m.rubber_bonus(Env({"their_games": their_games}))) if m.rubber_bonus else 0
                if m.bonus_to == "game_points":
                    self.game_points[winner] += bonus
                events.append(("rubber", winner, bonus))
                self.games = [0] * self.columns
                self.rubbers += 1
                self.rubbers_won[winner] += 1
            break  # the deal's later parts do not open the next game: it starts from zero
        return events

    def write(self, variant, parts: dict, sheet, row) -> list:
        """Count a deal's game parts (:meth:`record`) and write what they caused on ``sheet``
        below the deal's ``row``: a game draws the line under the row and gives its column
        the game points; a rubber gives its bonus as game points (``bonus_to: game_points``,
        noted on the row) or as a bonus row of its own (rules/bridge.md [S2] [S8],
        whist.md [S3]-[S5]).  The played match and a hand-scored sheet both write through here.

        :param sheet: the :class:`~rulekit.sheets.sheet.Sheet`; ``row``: the deal's row on it.
        :returns: the bonus rows added.
        """
        added = []
        for kind, col, value in self.record(variant, parts):
            if kind == "game":
                row.line = True
                row.games[col] += value
            elif variant.match.bonus_to == "game_points":
                row.games[col] += value
                row.note = (row.note + "; " if row.note else "") + f"rubber to {sheet.columns[col]} (+{value})"
            else:
                bonus = [value if c == col else 0 for c in range(len(sheet.columns))]
                part = next((p.name for p in variant.scoring.parts if not p.game), variant.scoring.parts[-1].name)
                added.append(sheet.add(row.hand, bonus, note=f"rubber to {sheet.columns[col]}",
                                       parts={part: bonus}, bonus=True))
        return added

    def unfinished(self, variant) -> list:
        """Bonuses of an unfinished rubber ([S9]): a side that alone won a game, and a side
        that alone has a part-score in the unfinished game."""
        m = variant.match
        out = [0] * self.columns
        won = [c for c in range(self.columns) if self.games[c] > 0]
        if len(won) == 1:
            out[won[0]] += m.unfinished_game
        part = [c for c in range(self.columns) if self.game_score[c] > 0]
        if len(part) == 1:
            out[part[0]] += m.unfinished_part
        return out
