"""The ``split_choice`` kind on a small made-up variant: the deal split by the chooser's
decision, turned cards as chance events, and the chooser rotating."""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError
from tests.helpers import ROUNDS_BASE, load_text

CHOICE = ROUNDS_BASE + """\
rounds:
  - name: trumps
    objective: take tricks; the chooser decides trumps after seeing two cards
    times: players
    phases:
      choose: {kind: split_choice, first: 2}
    scoring: {each: "3 * tricks"}
"""


def choice_state(first_two: list[str], deals: int = 1) -> State:
    """CHOICE with the chooser's (P1's) first two cards ``first_two`` in the first deal."""
    v = load_text(CHOICE)
    names = [v.deck.name(c) for c in range(v.deck.size)]
    rest = [x for x in names if x not in first_two]
    return State(v, seed=5, deals=[first_two + rest])


def test_split_choice_shows_part_of_the_deal_then_deals_the_rest():
    """Deal split by a decision: the chooser holds only his first cards while he
    decides; the others hold nothing yet; after the decision everyone has the whole deal."""
    s = choice_state(["9S", "KH"])
    assert s.kind.name == "split_choice" and s.to_move == 1
    deck = s.variant.deck
    obs = s.observation(1)
    assert deck.names_of(obs.hand) == ["9S", "KH"] and obs.hand_sizes == [0, 2, 0]
    assert [a.text for a in s.legal_actions()][-1] == "turn"
    with pytest.raises(IllegalActionError, match="choose trumps now: trump SUIT, ask SUIT, turn"):
        s.apply("pass")
    s.apply("trump D")
    assert s.hand.trump == "D" and s.observation(0).hand_sizes == [8, 8, 8]
    assert s.kind.name == "tricks" and s.to_move == 1 and s.chance == []


@pytest.mark.parametrize("first, action, trumps, turned", [
    (["9S", "KH"], "turn", "H", ["9S", "KH"]),          # the highest turned names trumps
    (["KS", "KH"], "turn", "S", ["KS", "KH"]),          # equal ranks: the first turned
    (["9S", "KH"], "ask S", "S", ["9S"]),               # the asked suit turns up at once
    (["9S", "KH"], "ask H", "H", ["9S", "KH"]),
    (["9S", "KH"], "ask D", "H", ["9S", "KH"]),         # no diamond: the highest's suit
])
def test_split_choice_turned_cards_are_chance_events(first, action, trumps, turned):
    """Asking for a suit or turning the cards decides trumps by the turned cards,
    which are seen by every seat and recorded as chance events."""
    s = choice_state(first)
    s.apply(action)
    assert s.hand.trump == trumps
    assert s.chance == [(0, 1, "turned " + " ".join(turned))]
    assert [s.variant.deck.name(c) for c in s.observation(2).phase_data["turned"]] == turned
    assert (1, "turned " + " ".join(turned)) in s.hand.actions
    from rulekit.records import to_record
    assert to_record(s)["chance"] == [[0, 1, "turned " + " ".join(turned)]]


def test_split_choice_chooser_rotates_so_each_player_chooses_once():
    """With ``times: players`` the deal passes on and each player chooses once."""
    s = State(load_text(CHOICE), seed=2)
    choosers = []
    bots = [SensibleBot(1), RandomBot(2), SensibleBot(3)]
    while not s.is_over:
        if s.kind.name == "split_choice":
            choosers.append(s.to_move)
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    assert sorted(choosers) == [0, 1, 2] and choosers == [1, 2, 0]
    assert [r.note.split(":")[0] for r in s.sheet.rows] == ["trumps 1", "trumps 2", "trumps 3"]
    assert all(sum(r.entries) == 3 * 8 for r in s.sheet.rows)
