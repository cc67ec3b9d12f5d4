"""Claims of the remaining tricks at the table (``claim``): proved against every deal of the
unseen cards and every defence, else agreed by the opponents' bots, else refused with the reason;
an accepted claim is played out on the real cards, so the record and the score are those of the
hand played to its end."""
from __future__ import annotations

import io
import random

from rich.console import Console

from rulekit import records
from rulekit.bots.claim import _sure, bot_accepts, claim_of, claim_problem, deals, play_out, prove
from rulekit.cli.game import Game
from rulekit.engine import State
from rulekit.variant import load_variant
from tests.helpers import deal_order, load_text, plain

#: three players, twelve cards (spades and hearts, 9 to A), four each, no trumps; seat 1 leads
SMALL = """id: toy
name: Toy
players: 3
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "1 x 4"}
  play: {kind: tricks}
scoring:
  each: "tricks"
match: {deals: 1}
"""


def small(hands) -> State:
    """The toy of :data:`SMALL` dealt ``hands`` (per seat, four card texts)."""
    return State(load_text(SMALL), seed=1, deals=[deal_order(hands)])


#: seat 1 holds the top spades and hearts; the others hold the rest
COLD = [["QH", "9S", "10S", "JS"], ["AS", "KS", "AH", "KH"], ["QS", "JH", "10H", "9H"]]
#: after seat 1's JH, seat 2's QH and seat 0's KH, seat 0 leads 9S: seat 1 (AS QS AH) takes every
#: trick if he plays AS when seat 2 holds KS, QS when seat 0 does (a guess, unless he sees them)
GUESS = [["KH", "9S", "10S", "JS"], ["JH", "AS", "QS", "AH"], ["QH", "KS", "9H", "10H"]]


def to_guess() -> State:
    s = small(GUESS)
    for card in ("JH", "QH", "KH", "9S"):
        s.apply(card)
    assert s.to_move == 1
    return s


def test_a_claim_of_top_cards_is_proved_and_played_out():
    """The leader holding only masters (each beats every card not yet played) takes every trick
    whatever the others hold: proved at once, and the play-out gives him every trick."""
    s = small(COLD)
    assert s.to_move == 1
    c = claim_of(s, 1)
    assert (c.side, c.mine) == ({1}, {1})
    assert prove(s, c) is True
    line = play_out(s, c)
    assert len(line) == 12
    for a in line:
        s.apply(a)
    assert s.hand_log[0].won == [0, 4, 0] and s.sheet.totals() == [0, 4, 0]


def test_a_claim_that_needs_a_guess_is_not_proved():
    """[a claim must hold against every deal the claimer cannot tell apart]: each of two deals
    alone lets seat 1 take every trick, but with another card each; both at once (he cannot see
    which is real) do not, and over every deal of the five unseen cards the proof fails."""
    s = to_guess()
    c = claim_of(s, 1)
    v = s.variant
    real = s.hand.clone()
    other = s.hand.clone()
    other.hands[0] = (1 << v.deck.parse("KS")) | (1 << v.deck.parse("JS"))
    other.hands[2] = (1 << v.deck.parse("10S")) | (1 << v.deck.parse("9H")) | (1 << v.deck.parse("10H"))
    assert _sure(s, c, [real], 10_000) is True
    assert _sure(s, c, [other], 10_000) is True
    assert _sure(s, c, [real, other], 10_000) is False
    assert s.hand.hands == real.hands                   # the search puts every hand back
    assert len(deals(s.observation(1))) == 10            # seat 0's two cards of the five unseen
    assert prove(s, c) is False
    ok, why = bot_accepts(s, c, 2, random.Random(1))
    assert not ok and "defence" in why


def test_claims_only_in_trick_play_at_ones_turn():
    """Before the tricks and at another's turn a claim is refused with the reason."""
    pre = State(load_variant("fivehundred"), seed=1)
    assert claim_problem(pre, pre.to_move) == "a claim is of the remaining tricks: make it during trick play"
    s = small(COLD)
    assert claim_problem(s, 0) == "claim at your own turn to play"
    assert claim_problem(s, 1) == ""


class Typed(Console):
    """A console that answers the prompt with the next of ``lines``."""

    def __init__(self, lines):
        super().__init__(file=io.StringIO(), width=120, color_system=None)
        self.lines = list(lines)

    def input(self, prompt="", **kw):
        self.print(prompt, end="")
        line = self.lines.pop(0)
        self.print(line)
        return line


def test_a_refused_claim_says_why_and_play_goes_on(tmp_path):
    """A claim the proof refutes is refused with its reason; the human then plays on."""
    s = to_guess()
    con = Typed(["claim", "AS", "quit"])
    g = Game(s, ["random", "human", "random"], con, save_path=tmp_path / "g.json")
    g.run()
    out = con.file.getvalue()
    assert ("refused: a deal of the cards you cannot see and a defence take a trick against every line of "
            "yours; play on") in out
    assert ("P1", "play AS") in [(s.names[x], a) for x, a in g.state.history]


def test_an_accepted_claim_is_played_out_in_the_record(tmp_path):
    """A proved claim: the rest of the hand is played in the record, the sheet is the one of the
    hand played to its end, and the record replays to the same sheet."""
    s = small(COLD)
    con = Typed(["claim"])
    g = Game(s, ["random", "human", "random"], con, save_path=tmp_path / "g.json")
    assert g.run() == 0
    out = plain(con.file.getvalue())
    assert "claim accepted (proved against every deal of the unseen cards and every defence): the remaining 4 " \
           "tricks are played out" in out
    rec = records.load(tmp_path / "g.json")
    assert len(rec["actions"]) == 12
    replayed = records.replay(rec)
    assert replayed.sheet.totals() == [0, 4, 0] == g.state.sheet.totals()


def _seven_nt() -> State:
    """Bridge: South holds the four top cards of spades, hearts and diamonds and the ace of
    clubs; dealt by North, the others' cards in a fixed shuffle."""
    v = load_variant("bridge")
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    south = ["AS", "KS", "QS", "JS", "AH", "KH", "QH", "JH", "AD", "KD", "QD", "JD", "AC"]
    rest = [r + s for s in "SHDC" for r in ranks if r + s not in south]
    random.Random(1).shuffle(rest)
    return State(v, seed=1, deals=[deal_order([rest[0:13], rest[13:26], south, rest[26:39]])], dealer=0)


def test_a_claim_too_large_to_prove_is_agreed_by_the_bots(tmp_path):
    """Bridge, 7NT by South with every top card: after the opening lead the deals of the unseen
    cards are too many to list, so each opponent's bot decides; both find no defence, the claim
    is played out and the hand is scored as made with 13 tricks."""
    s = _seven_nt()
    while s.kind.role == "auction":
        s.apply("7NT" if s.to_move == 2 and not s.hand.high else "pass")
    s.apply(s.legal_actions()[0])                          # West's opening lead
    assert s.to_move == 0 and s.controller(0) == 2         # South plays from dummy North
    c = claim_of(s, 2)
    assert prove(s, c) is None
    assert bot_accepts(s, c, 1, random.Random(1)) == (True, "")
    con = Typed(["claim"] + ["quit"] * 3)
    g = Game(s, ["bot", "random", "human", "random"], con, save_path=tmp_path / "b.json")
    g.run()
    out = plain(con.file.getvalue())
    assert "claim accepted (agreed by E and W): the remaining 13 tricks are played out" in out
    assert g.state.hand_log[0].won[0] + g.state.hand_log[0].won[2] == 13
    assert "S 7NT made (13 tricks)" in g.state.sheet.rows[0].note


def test_claim_is_the_games_own_word_where_an_action_is_called_claim():
    """Where a legal action's text is itself ``claim ...`` (a game's own claim), the table
    command gives way: the word goes to the game."""
    from rulekit.engine.actions import Action

    class Own:
        is_over = False
        kind = None

        def legal_actions(self):
            return [Action("claim", "claim 66"), Action("pass", "pass")]

        def action_text(self, a):
            return a.text

    class Reads:                 # a phase that reads the word though it is not legal now
        def parse(self, text, state):
            return Action("claim", "claim") if text == "claim" else None

    class NotNow(Own):
        kind = Reads()

        def legal_actions(self):
            return [Action("pass", "pass")]

    g = Game.__new__(Game)
    g.state = Own()
    assert g._claim_is_an_action()
    g.state = NotNow()
    assert g._claim_is_an_action()
    g.state = small(COLD)
    assert not g._claim_is_an_action()
