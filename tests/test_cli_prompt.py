"""The prompt of ``rulekit play``: what Tab completes (the legal actions' words, cards of the
hand for a discard, the table commands), and at a real terminal (pexpect) line editing with the
arrow keys, history and completion by readline."""
from __future__ import annotations

import io
import os
import sys

import pytest

from rulekit.cli.prompt import COMMANDS, completions, readline_prompt, undecodable
from rulekit.engine import State
from rulekit.variant import load_variant
from tests.helpers import deal_order, load_text


def test_completions_of_a_bid_are_the_legal_calls_and_the_commands():
    """At Five Hundred's first call: ``6`` completes to the five bids of six; nothing typed, to
    ``pass``, every bid and every table command."""
    s = State(load_variant("fivehundred"), seed=1)
    assert completions(s, "6") == ["6S", "6C", "6D", "6H", "6NT"]
    everything = completions(s, "")
    assert everything[0] == "pass" and "10NT" in everything and set(COMMANDS) <= set(everything)
    assert completions(s, "h") == ["help", "hint"]
    assert completions(s, "pass ") == []


def test_completions_in_trick_play_are_cards_of_the_legal_plays():
    """In trick play ``play`` completes to the legal cards, a card alone too (``QS`` is read as a
    play); case is ignored and the card is written as the action writes it."""
    v = load_text("""id: toy
name: Toy
players: 3
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "1 x 4"}
  play: {kind: tricks}
scoring: {each: "tricks"}
match: {deals: 1}
""")
    s = State(v, seed=1, deals=[deal_order([["QH", "9S", "10S", "JS"], ["AS", "KS", "AH", "KH"],
                                            ["QS", "JH", "10H", "9H"]])])
    assert completions(s, "play ") == ["KS", "AS", "KH", "AH"]       # (in the deck's order)
    assert completions(s, "play k") == ["KS", "KH"]
    assert completions(s, "a") == ["AS", "AH"]
    s.apply("AS")
    assert completions(s, "play ") == ["QS"]          # seat 2 must follow spades
    assert completions(s, "") == ["play", "QS", *COMMANDS]


def test_completions_of_a_discard_are_the_cards_of_the_hand():
    """A discard's choices are too many to list: after ``discard`` each card of the hand not yet
    typed is offered."""
    s = State(load_variant("fivehundred"), seed=3)
    for call in ("10NT", "pass", "pass"):
        s.apply(call)
    assert s.kind.role == "exchange"
    held = [s.variant.deck.name(c) for c in s.hand_cards(s.to_move)]
    assert completions(s, "disc") == ["discard"]
    assert completions(s, "discard ") == held
    assert completions(s, f"discard {held[0]} ") == held[1:]


def test_readline_prompt_marks_escape_codes_as_invisible():
    """readline counts a prompt's width without its colour codes (marked by \\x01 \\x02)."""
    assert readline_prompt("\x1b[1mYou\x1b[0m (bid) > ") == "\x01\x1b[1m\x02You\x01\x1b[0m\x02 (bid) > "


pexpect = pytest.importorskip("pexpect")

PROMPT = r"\((bid|discard|trumps|play)\) > "


def _spawn(args, cwd):
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", COLUMNS="100", LINES="40", PYTHONIOENCODING="utf-8")
    return pexpect.spawn(sys.executable, ["-m", "rulekit.cli.app", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=120, dimensions=(40, 100))


def test_pty_arrow_keys_edit_the_line_history_recalls_it_tab_completes(tmp_path):
    """At a terminal: ``ass``, three Left arrows and ``p`` make ``pass`` (no ``^[[D`` printed);
    Up recalls the last line (``sheet`` again); Tab completes ``she`` to ``sheet`` and lists the
    completions of ``q`` (a card and ``quit``)."""
    child = _spawn(["play", "fivehundred", "--players", "human,random,random", "--seed", "11",
                    "--save", str(tmp_path / "g.json")], tmp_path)
    seen = io.StringIO()
    child.logfile_read = seen
    try:
        child.expect(r"\(bid\) > ")
        child.send("ass")
        child.send("\x1b[D\x1b[D\x1b[D")
        child.send("p\r")
        child.expect(r"auction: [^\r\n]*You pass")       # (the bots' calls: whatever the deal brings)
        child.expect(PROMPT)
        child.send("she\t")
        child.expect("sheet ")
        child.send("\r")
        child.expect("Score sheet")
        child.expect(PROMPT)
        child.send("\x1b[A\r")                           # Up: the last line again
        child.expect("Score sheet")
        child.expect(PROMPT)
        child.send("q\t\t")
        child.expect("quit")
        child.sendcontrol("u")                          # (readline: clear the line)
        child.send("quit\r")
        child.expect("game saved to")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "^[[D" not in seen.getvalue() and "ass\b\b\bpass" in seen.getvalue()   # redrawn by readline


def test_a_line_of_bytes_that_are_not_utf8_is_said_readably():
    """Bytes that are no UTF-8 (read as lone surrogates) are named as bytes, never echoed as
    ``'\\udcff'``; text without them (``10♥``, ``é``) is fine."""
    assert undecodable(b"\xff\xfe".decode("utf-8", "surrogateescape")) == \
        "the line holds bytes that are not UTF-8 text (\\xff\\xfe); type it again"
    assert undecodable("play 10♥ é") is None


def test_piped_bytes_that_are_not_utf8_are_refused_and_asked_again(tmp_path):
    import subprocess
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="200", PYTHONUNBUFFERED="1")
    r = subprocess.run([sys.executable, "-c", "from rulekit.cli.app import main; main()", "play", "fivehundred",
                        "--seed", "1", "--save", str(tmp_path / "g.json")],
                       input=b"\xff\xfe\nquit\n", capture_output=True, env=env, timeout=120)
    out = r.stdout.decode("utf-8")
    assert "refused: the line holds bytes that are not UTF-8 text (\\xff\\xfe); type it again" in out
    assert "udc" not in out and "is not an action here" not in out
    assert out.count("You (bid) > ") == 2 and r.returncode == 0   # asked again, then quit
