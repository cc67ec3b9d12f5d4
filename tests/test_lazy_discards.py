"""Bots never build every choice of discards to pick one (fresh-user pass finding 2).

A Spades house file with a 7-card blind nil exchange validated but ``--auto`` never ended:
estimating a bid, each sampled world finished the bidding by testing ``LOOK in legal`` on the
exchange's lazy choices, which built all C(13, 7) = 1716 discard actions, thousands of times.
"""
from __future__ import annotations

import random
import re

from typer.testing import CliRunner

from rulekit.bots import RandomBot
from rulekit.cli.app import app
from rulekit.engine import actions
from rulekit.engine.actions import Action
from rulekit.engine.phases.exchange import DiscardChoices
from rulekit.engine.phases.trick_bids import LOOK
from rulekit.variant import load_variant

S7 = """\
id: s7
extends: spades
name: Spades exchange 7
phases:
  bidding:
    blind_nil: {behind: 0, exchange: 7}
"""


def test_spades_exchange_seven_plays_to_its_end(tmp_path):
    """fresh-user pass finding 2: the file above plays ``--auto --seed 1`` to its end with a winner
    (which side wins is the bots' choice: the form of the line is checked, not the side)."""
    f = tmp_path / "s7.yaml"
    f.write_text(S7)
    r = CliRunner().invoke(app, ["play", str(f), "--auto", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert re.search(r"^(NS win: N and S|EW win: E and W) \(reached 500\)\.$", r.output, re.M), r.output


def test_a_random_discard_from_thirteen_choose_seven_builds_one_action(monkeypatch):
    """fresh-user pass finding 2: a random choice, ``in`` and ``len`` on the lazy sequence of
    the 1716 ways to discard 7 of 13 cards build at most one discard action each."""
    deck = load_variant("spades").deck
    built = []
    real = Action.discard

    def counting(deck, mask):
        built.append(mask)
        return real(deck, mask)

    monkeypatch.setattr(actions.Action, "discard", staticmethod(counting))
    hand = sum(1 << c for c in range(13))
    choices = DiscardChoices(deck, hand, 7)
    assert len(choices) == 1716 and built == []
    a = RandomBot(3).act(type("Obs", (), {"legal": choices})())
    assert len(built) == 1 and a.cards.bit_count() == 7 and not a.cards & ~hand
    assert LOOK not in choices and a in choices and len(built) == 1
    assert real(deck, (1 << 13) | 63) not in choices            # a card not held
    assert real(deck, 63) not in choices                         # six cards, not seven
    rng = random.Random(0)
    assert choices[int(rng.random() * len(choices))] in choices and len(built) == 2


def test_expected_forms_reads_one_discard_choice_not_all(monkeypatch):
    """Showing what a declarer may type at a widow exchange takes the first discard choice
    only: building every choice (1,716 of them for 7 cards from 13) is not needed for the
    words, and the message names real cards."""
    import random

    from rulekit.engine import State
    from rulekit.engine.phases.exchange import DiscardChoices
    from rulekit.variant import load_variant

    st = State(load_variant("fivehundred"), seed=2)
    rng = random.Random(0)
    while st.phase_kind != "widow_exchange":
        legal = [a for a in st.legal_actions() if a.kind != "pass"] or st.legal_actions()
        st.apply(legal[int(rng.random() * len(legal))])
    assert isinstance(st.legal_actions(), DiscardChoices)

    def every_choice(self):
        raise AssertionError("every discard choice was built")

    monkeypatch.setattr(DiscardChoices, "__iter__", every_choice)
    first = st.legal_actions()[0].text   # e.g. "discard 7S 8S 9S"
    assert st.expected_forms() == f"expected {st.discard_word()} 3 cards (e.g. {first})"


BIG = """\
id: bigwidow
extends: fivehundred
name: Five Hundred, a widow of 14
deck:
  suits: [S, C, D, H]
  ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A]
  jokers: 1
ranking:
  suit: "A K Q J 10 9 8 7 6 5 4 3 2"
  trump: "JK J:trump J:sister A K Q 10 9 8 7 6 5 4 3 2"
dealer:
  first: {cut: low, ranks: "K Q J 10 9 8 7 6 5 4 3 2 A JK", suits: "H D C S"}
phases:
  deal: {pattern: "1 x 13, widow 14 down"}
  exchange: {discard: 14}
"""


def test_help_at_a_fourteen_card_discard_answers_at_once(tmp_path, monkeypatch):
    """user pass (stop 7) finding 1: ``?`` at a 14-card discard from 27 cards (20 million
    choices) hung the game: the answer looked at every choice. It reads the hand instead."""
    from rulekit.cli.render import legal_text
    from rulekit.engine import State
    from rulekit.variant import load_variant as load

    f = tmp_path / "bigwidow.yaml"
    f.write_text(BIG)
    st = State(load(str(f)), seed=5)
    rng = random.Random(0)
    while st.phase_kind != "widow_exchange":
        legal = [a for a in st.legal_actions() if a.kind != "pass"] or st.legal_actions()
        st.apply(legal[int(rng.random() * len(legal))])

    def every_choice(self):
        raise AssertionError("every discard choice was built")

    monkeypatch.setattr(DiscardChoices, "__iter__", every_choice)
    text = legal_text(st).plain
    assert text.startswith("discard any 14 of your cards (20058300 choices), e.g. discard ")
    held = st.hand.hands[st.to_move]
    assert held.bit_count() == 27 and len(text.split(": ", 1)[1].split()) == 27
