"""The two-seat table of a game from a stock (``rulekit play schnapsen``, the human against one
bot): the turned trump and the stock's size, the exchange, melds, closing and the claim on
screen and in the ``--auto`` story; no face-down stock card on screen."""
from __future__ import annotations

import io
import os
import sys

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.cli.render import hand_summary, table_view
from rulekit.engine import State
from rulekit.variant import load_variant
from tests.helpers import order_for

runner = CliRunner()
EXAMPLE = {0: "KH QH AS 10S JC", 1: "AH JH KS QC 10D", "stock": "10H AD QS KC JD 10C KD JS AC QD"}


def screen(state, seat: int) -> str:
    buf = io.StringIO()
    Console(file=buf, width=120, color_system=None).print(table_view(state, seat))
    return buf.getvalue()


def rows(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        label, _, rest = line.strip().partition(" ")
        out.setdefault(label, rest.strip())
    return out


@pytest.fixture
def game():
    v = load_variant("schnapsen")
    return State(v, seed=0, deals=[order_for(v, 1, EXAMPLE)], dealer=1)


def test_table_shows_the_turned_card_and_the_stock_size_not_its_cards(game):
    """The turned trump under the stock and how many cards lie face down; none of them named."""
    text = screen(game, 0)
    r = rows(text)
    assert r["trumps"] == "♥" and r["turned"] == "10♥ under the stock" and r["stock"] == "9 cards face down"
    for card in ("A♦", "Q♠", "K♣", "J♦", "10♣", "K♦", "J♠", "A♣", "Q♦", "A♥", "J♥"):
        assert card not in text                       # the stock's and the other hand's cards
    assert text.count("stock") == 2                   # one stock row (and "under the stock")


def test_table_shows_melds_the_exchange_and_the_close(game):
    """A meld is shown to the other seat, the exchanged trump lies under the stock, a close is said."""
    game.apply("meld KH QH")
    assert "melds P0 Q♥ K♥ 40" in " ".join(screen(game, 1).split())
    for a in ("play QH", "play AH", "exchange"):
        game.apply(a)
    assert rows(screen(game, 0))["turned"] == "J♥ under the stock (10♥ exchanged for it)"
    for a in ("play 10D", "play KH", "close"):
        game.apply(a)
    assert rows(screen(game, 1))["stock"] == "closed, 5 cards face down"


def test_auto_story_says_each_turn_action():
    """``--auto``: the story names the exchange, the melds, the close and the claim of each hand."""
    out = runner.invoke(app, ["play", "schnapsen", "--auto", "--seed", "5"]).output
    assert "P0 wins" in out or "P1 wins" in out
    assert "claims: made" in out and "declares" in out and "(marriage, " in out
    assert "closes the stock" in out


def test_story_of_a_hand_lists_the_words_and_the_tricks(game):
    """``hand_summary``: the header, the phases' rows, the turn actions in order, the tricks."""
    for a in ("meld KH QH", "play QH", "play AH", "exchange", "play 10D", "play KH", "play AS", "play KS", "claim"):
        game.apply(a)
    buf = io.StringIO()
    con = Console(file=buf, width=120, color_system=None)
    for line in hand_summary(game, game.hand_log[0], game.sheet.rows):
        con.print(line)
    text = buf.getvalue()
    for words in ("P0 declares Q♥ K♥ (marriage, 40)", "P1 exchanges J♥ for the turned 10♥", "P0 claims: made",
                  "trick  1  P0 Q♥  P1 A♥  → P1", "P0 +2"):
        assert words in text, words


def test_human_against_one_bot_claims_and_sees_the_result(tmp_path, monkeypatch):
    """``rulekit play schnapsen --players human,bot`` (seed 35: the human on lead, J♠ turned): the
    prompt takes ``claim``; a claim made without 66 fails and the bot scores (3: the human had no
    trick)."""
    monkeypatch.chdir(tmp_path)   # (the game is saved when the input ends)
    out = runner.invoke(app, ["play", "schnapsen", "--players", "human,bot", "--seed", "35"],
                        input="claim\n").output
    assert "You claim: failed" in out and "P1 +3" in out
    assert "turned J♠ under the stock" in out and "stock 9 cards face down" in out


def test_help_names_the_turn_actions(tmp_path):
    """``help`` at the prompt lists the actions besides card play."""
    out = runner.invoke(app, ["play", "schnapsen", "--players", "human,bot", "--seed", "3",
                              "--save", str(tmp_path / "g.json")], input="help\n").output
    assert "on your turn: exchange (the turned card for your trump J), close (the stock), meld CARDS" in out


def test_pty_two_seat_game(tmp_path):
    """In a real terminal (seed 32: the bot leads, Q♠ turned): the table with the turned card, an
    exchange refused to the follower."""
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", COLUMNS="100", LINES="40", PYTHONIOENCODING="utf-8")
    child = pexpect.spawn(sys.executable, ["-m", "rulekit.cli.app", "play", "schnapsen", "--players", "human,bot",
                                           "--seed", "32", "--save", str(tmp_path / "g.json")],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=120, dimensions=(40, 100))
    try:
        child.expect("turned Q♠ under the stock")
        child.expect(r"\(play\) > ")
        child.sendline("exchange")
        child.expect("refused: you may exchange the turned card only on lead")
        child.expect(r"\(play\) > ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_auto_story_tells_the_turn_actions_between_the_tricks():
    """``--auto``: a combination declared after a trick won (Cinq-Cents) is told after that
    trick, never at the head of its hand; an exhausted stock has no "stock empty" row."""
    declared = 0
    for seed in (1, 2):
        out = runner.invoke(app, ["play", "cinqcents", "--auto", "--seed", str(seed)]).output
        tricks_seen = 0
        for line in out.splitlines():
            if line.startswith("Hand "):
                tricks_seen = 0
            elif line.strip().startswith("trick "):
                tricks_seen += 1
            elif " declares " in line:
                assert tricks_seen > 0, line
                declared += 1
        assert "stock  empty" not in out
    assert declared
