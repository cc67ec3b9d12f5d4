"""The ``domino`` kind (Sevens / Fan Tan rows) on a small made-up variant: rows built from a
starter, passing when unable, bots that play it to the end, and its former word ``layout``."""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.engine.phases import canonical
from rulekit.variant import check_file
from tests.helpers import ROUNDS_BASE, load_text, write_variant

DOMINO = ROUNDS_BASE + """\
rounds:
  - name: sevens
    objective: be the first out of cards
    phases:
      play: null
      lay: {kind: domino, starts: ["9"], order: "7 8 9 10 J Q K A", end_when_out: 1}
    scoring: {each: "if out_place == 1 then 5 else -cards_left"}
"""


def test_domino_rows_passes_and_end():
    """Domino kind: rows begin with a starter card, one per suit, and are built up or
    down at either end; a player who cannot lay a card passes (and may not pass when he can);
    the round ends when the given number of players are out."""
    v = load_text(DOMINO)
    hands = {1: "9S 10S JS QS KS AS 8H 7H", 2: "8S 7S 9H 10H JH QH KH AH", 0: "9D 10D JD QD KD AD 8D 7D"}
    order = []
    for k in range(2):
        for seat in (1, 2, 0):
            order += hands[seat].split()[4 * k:4 * k + 4]
    s = State(v, seed=0, deals=[order])
    assert s.kind.name == "domino" and s.to_move == 1
    with pytest.raises(IllegalActionError, match="cannot be laid: it does not start a row"):
        s.apply("10S")
    with pytest.raises(IllegalActionError, match="you must lay a card when you can"):
        s.apply("pass")
    s.apply("9S")
    assert [a.text for a in s.legal_actions()] == ["play 8S", "play 9H"]
    s.apply("8S")
    s.apply("9D")
    rows = s.observation(0).phase_data["layout_rows"]
    assert [(r[0], v.deck.name(r[1]), v.deck.name(r[2])) for r in rows] == [("S", "8S", "9S"), ("D", "9D", "9D")]
    for t in ["10S", "7S", "8D", "JS", "9H", "7D", "QS", "10H", "10D", "8H", "JH", "JD", "KS", "QH", "QD",
              "AS", "KH", "KD"]:
        s.apply(t)
    s.apply("7H")                                 # P1 is out first: the round is over
    assert s.is_over
    assert s.sheet.rows[-1].entries == [-1, 5, -1]
    assert s.sheet.rows[-1].note.startswith("sevens")


def test_domino_pass_when_unable():
    """A player without a card to lay must pass; the turn goes on."""
    v = load_text(DOMINO)
    hands = {1: "9S 10S JS QS KS AS 8H 9D", 2: "8S 7S 9H 10H JH QH KH AH", 0: "7H 10D JD QD KD AD 8D 7D"}
    order = []
    for k in range(2):
        for seat in (1, 2, 0):
            order += hands[seat].split()[4 * k:4 * k + 4]
    s = State(v, seed=0, deals=[order])
    s.apply("9S")
    s.apply("8S")
    assert s.to_move == 0 and [a.text for a in s.legal_actions()] == ["pass"]
    with pytest.raises(IllegalActionError, match="7♥ cannot be laid"):
        s.apply("7H")
    s.apply("pass")
    assert s.to_move == 1 and "play 9D" in [a.text for a in s.legal_actions()]


@pytest.mark.parametrize("seed", range(4))
def test_domino_bots_play_to_the_end(seed):
    """Random and sensible bots play a domino round to its end."""
    v = load_text(DOMINO)
    s = State(v, seed=seed)
    bots = [SensibleBot(seed), RandomBot(seed), SensibleBot(seed + 2)]
    while not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    assert len(s.sheet.rows) == 1 and s.sheet.rows[0].entries.count(5) == 1


def test_the_former_word_layout_still_reads_as_domino(tmp_path):
    """A file written with the kind's former word (``kind: layout``) loads without a message as
    the ``domino`` kind, with the same hash as the file that says ``domino`` (the same rules)."""
    old = load_text(DOMINO.replace("kind: domino", "kind: layout"))
    new = load_text(DOMINO)
    assert [p.kind for p in old.rounds[0].phases] == [p.kind for p in new.rounds[0].phases] == ["deal", "domino"]
    assert old.hash == new.hash
    assert check_file(write_variant(tmp_path, "old.yaml", DOMINO.replace("kind: domino", "kind: layout")),
                      warnings=True) == []
    assert canonical("layout") == "domino" and canonical("tricks") == "tricks"
