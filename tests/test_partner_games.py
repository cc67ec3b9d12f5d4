"""The made-up games of the partnerships by a card (``tests/data/partners/``: a called ace, a
called king, a named card, the black queens' party) validate strictly and play to a winner:
random legal play for several seeds, and the bots of ``rulekit play --auto``."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.cli.app import app
from tests.helpers import assert_plays_to_a_winner, runner

GAMES = sorted(str(p) for p in (Path(__file__).parent / "data" / "partners").glob("*.yaml"))


@pytest.mark.parametrize("vid", GAMES, ids=lambda p: Path(p).stem)
def test_valid_strictly(vid):
    """No problem and no warning."""
    result = runner.invoke(app, ["validate", "--strict", vid])
    assert result.exit_code == 0 and "1 file valid" in result.output, result.output


@pytest.mark.parametrize("vid", GAMES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("seed", range(4))
def test_random_play_ends_with_a_winner(vid, seed):
    """Random legal actions (calls, announcements and cards) play every match to its end."""
    s = assert_plays_to_a_winner(vid, seed)
    assert sum(s.sheet.totals()) == 0   # each game's scores add up to nothing, hand by hand


@pytest.mark.parametrize("vid", GAMES, ids=lambda p: Path(p).stem)
def test_bots_play_to_a_winner(vid):
    """``rulekit play --auto`` (the Monte Carlo bots, who call, announce and play) ends the match
    with a winner."""
    result = runner.invoke(app, ["play", vid, "--auto", "--seed", "2", "--quiet"])
    assert result.exit_code == 0 and "deals played" in result.output and "stopped" not in result.output, result.output
