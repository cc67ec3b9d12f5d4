"""Words a fresh user reads at the table and in ``explain`` (user pass 2, findings 3-9): a
passing phase says ``pass``, a tie on the scorepad is a tie, ``nil`` is typed and shown as such,
no raw setting names in ``explain``, the physical pass direction, and small wordings."""
from __future__ import annotations

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.cli.game import help_text
from rulekit.cli.render import legal_text
from rulekit.engine import State
from rulekit.errors import IllegalActionError, InvalidActionError
from rulekit.variant import load_variant

runner = CliRunner()


def plain(renderable, width: int = 200) -> str:
    """The text a terminal without colours shows."""
    con = Console(width=width, record=True, color_system=None, force_terminal=False)
    con.print(renderable)
    return con.export_text().rstrip("\n")


# ---------------------------------------------------------------- finding 3
def test_hearts_passing_says_pass(tmp_path, monkeypatch):
    """user pass 2, finding 3: Hearts passing shows, lists and accepts ``pass CARD CARD CARD``
    (and the bare cards); the refusal's example names real cards (it said ``discard C C C``)."""
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["play", "hearts", "--players", "human,bot,bot,bot", "--seed", "3"],
                      input="?\nhelp\nxyz\npass\npass 2C 3C 4C\npass 10C JC KC\nquit\n")
    out = r.output
    assert ("pass any 3 of your cards (286 choices), e.g. pass 10C JC KC: "
            "J♥ 10♥ A♠ K♠ J♠ 9♦ 8♦ 7♦ 6♦ 5♦ K♣ J♣ 10♣") in out
    assert "Type an action: pass CARD CARD CARD (or just the cards); play CARD" in out
    assert "refused: 'xyz' is not an action here; expected pass 3 cards (e.g. pass 10C JC KC)" in out
    assert "refused: pass 3 cards now (pass CARD CARD CARD)" in out
    assert "refused: you do not hold 2C 3C 4C" in out
    assert "You pass 3 cards to the left (to P1): 10♣ J♣ K♣" in out
    assert "discard" not in out


def test_hearts_bare_cards_pass():
    """user pass 2, finding 3: the bare cards ``10C JC KC`` are a pass too."""
    s = State(load_variant("hearts"), seed=3)
    while s.to_move != 0:
        s.apply(s.legal_actions()[0])
    a = s.parse_action("10C JC KC")
    assert a.kind == "discard" and s.variant.deck.names_of(a.cards) == ["10C", "JC", "KC"]


def test_blind_nil_exchange_says_pass(tmp_path):
    """user pass 2, finding 3: the Spades-like blind nil exchange lists ``pass 9H`` and accepts
    ``pass JH`` and the bare card; the refusal says what to type."""
    from tests.test_blind_nil import LOW_N, order, side
    v = side(tmp_path, "behind: 0, exchange: 1")
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 2", "look", "bid 0"):
        s.apply(a)
    assert plain(legal_text(s)) == "legal: pass 9H, pass 10H, pass JH"
    assert s.expected_forms() == "expected pass 1 card (e.g. pass 9H)"
    s.apply("pass JH")
    with pytest.raises(IllegalActionError, match=r"^pass 1 of your cards face down to your partner now "
                                                 r"\(pass CARD\)$"):
        s.apply("9S")
    s.apply("AH")
    assert sorted(v.deck.names_of(s.hand.hands[0])) == sorted(["9H", "10H", "AH"])
    assert "a blind nil exchange: pass CARD CARD (or just the cards)" in help_text(load_variant("spades"))
