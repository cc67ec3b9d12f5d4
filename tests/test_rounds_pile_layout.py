"""Round schedules, the running-total pile, the layout (domino) and the deal split by a
decision (issue 7): each a general primitive, tested here on small made-up variants
that are not King."""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import compile_variant, resolve_text

BASE = """\
id: toy-rounds
name: Toy rounds
players: 3
deck: {suits: [S, H, D], ranks: ["7", "8", "9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9 8 7"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "4 4"}
  play: {kind: tricks, lead: eldest}
scoring:
  each: "tricks"
"""


def load(text: str, name: str = "toy.yaml"):
    """Compile a variant from YAML text (errors as :class:`VariantError`)."""
    return compile_variant(resolve_text(name, text))


def play_out(state: State, bots=None, seed: int = 0) -> State:
    """Play ``state`` to its end with bots (random by default)."""
    bots = bots or [RandomBot(seed + i) for i in range(state.variant.players)]
    steps = 0
    while not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].act(state.observation(seat)))
        steps += 1
        assert steps < 10000
    return state


ROUNDS = BASE + """\
rounds:
  - name: most tricks
    objective: take tricks
  - name: no tricks
    objective: take no tricks
    times: players
    scoring: {each: "-2 * tricks"}
"""


def test_schedule_rounds_overlay_and_sheet_lines():
    """issue 7: a match is an ordered list of rounds, each an overlay of the base rules with its
    name; the deal passes on after each round; ``times: players`` repeats a round once per
    dealer; the match ends after the last round; the sheet has one line per round, named."""
    v = load(ROUNDS)
    assert [r.round_name for r in v.rounds] == ["most tricks", "no tricks 1", "no tricks 2", "no tricks 3"]
    assert v.rounds[1].objective == "take no tricks"
    s = play_out(State(v, seed=3))
    rows = [r for r in s.sheet.rows]
    assert [r.note.split(":")[0] for r in rows] == ["most tricks", "no tricks 1", "no tricks 2", "no tricks 3"]
    assert [h.dealer for h in s.hand_log] == [0, 1, 2, 0]
    first, later = s.hand_log[0], s.hand_log[1:]
    assert rows[0].entries == first.won                      # base scoring: +1 per trick
    for r, h in zip(rows[1:], later):                        # the overlay: -2 per trick
        assert r.entries == [-2 * w for w in h.won]
    assert s.end_reason == "all 4 rounds played"
    totals = s.sheet.totals()
    assert s.winners == [c for c, t in enumerate(totals) if t == max(totals)]


def test_round_overlay_error_points_at_the_round_line():
    """issue 7: a bad overlay is reported at its own line in the file, with the path."""
    bad = ROUNDS.replace('scoring: {each: "-2 * tricks"}', 'scoring: {each: "-2 * trickz"}')
    with pytest.raises(VariantError) as e:
        load(bad)
    msg = str(e.value)
    line = bad.splitlines().index('    scoring: {each: "-2 * trickz"}') + 1
    assert f"toy.yaml:{line}:" in msg and "trickz" in msg


PILE = BASE + """\
rounds:
  - name: tricks
  - name: adder
    objective: do not bring the pile to a threshold
    phases:
      play: null
      pile:
        kind: pile
        values: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
        thresholds: [{at: 20, score: -1}, {at: 40, score: -3}]
    scoring: {each: "pile_score"}
"""


def test_pile_running_total_thresholds_and_end():
    """issue 7 (pile kind): cards go one at a time onto one pile from the eldest hand; the player
    whose card brings the total to a threshold or beyond scores it; the round ends at the last."""
    v = load(PILE)
    # round 2 is dealt by P1, so P2 plays first; packets of 4: P2, P0, P1, P2, P0, P1
    hands = {2: "AS AH AD KS", 0: "10S 10H 10D KH", 1: "QS QH QD JS"}
    order = hands[2].split() + hands[0].split() + hands[1].split()
    rest = [v.deck.name(c) for c in range(v.deck.size) if v.deck.name(c) not in order]
    order += rest[:12]
    s = State(v, seed=0, deals=[[v.deck.name(c) for c in range(v.deck.size)], order])
    while s.hands_played == 0:
        s.apply(s.legal_actions()[0])
    assert s.variant.round_name == "adder" and s.kind.name == "pile" and s.to_move == 2
    for text in ["AS", "10S", "QS"]:          # 11, 21 (P0 reaches 20: -1), 24
        s.apply(text)
    assert s.observation(1).phase_data["pile_total"] == 24
    assert s.observation(1).phase_data["pile_score"] == [-1, 0, 0]
    # the pile's rows name who took each threshold's score as it happens (user pass, last stop)
    from rulekit.engine.phases import kind_of
    rows = kind_of("pile").show(kind_of("pile").data_of(s.hand), s.variant)
    assert rows[0] == ("pile", "P2 A♠ 11 · P0 10♠ 21 (-1) · P1 Q♠ 24")
    with pytest.raises(IllegalActionError, match="you do not hold"):
        s.apply("AS")
    for text in ["AH", "10H"]:                 # 35, 45 (P0 reaches 40: -3) and the round ends
        s.apply(text)
    assert s.is_over
    assert s.sheet.rows[-1].entries == [-4, 0, 0]
    assert s.sheet.rows[-1].note.startswith("adder")


def test_pile_kind_is_checked_at_compile_time():
    """issue 7: unknown ranks and falling thresholds are refused with file:line:col."""
    bad = PILE.replace('K: 4, Q: 3', 'Kx: 4, Q: 3').replace("at: 40", "at: 10")
    with pytest.raises(VariantError) as e:
        load(bad)
    msg = str(e.value)
    assert "unknown rank 'Kx'" in msg and "the thresholds must rise: 10 after 20" in msg
    assert "toy.yaml:" in msg


@pytest.mark.parametrize("seed", range(3))
def test_pile_bots_play_and_sensible_avoids_thresholds(seed):
    """issue 7: random and sensible bots play pile rounds; the sensible bot never reaches a
    costly threshold when it holds a card that avoids it."""
    v = load(PILE)
    s = State(v, seed=seed)
    bots = [SensibleBot(seed), RandomBot(seed), SensibleBot(seed + 1)]
    while not s.is_over:
        seat = s.to_move
        obs = s.observation(seat)
        a = bots[seat].act(obs)
        if s.kind.name == "pile" and isinstance(bots[seat], SensibleBot):
            spec = obs.phase_spec
            total = obs.phase_data["pile_total"]
            from rulekit.engine.phases.pile import crossed
            best = max(crossed(spec, total, total + spec.values[x.card]) for x in obs.legal)
            assert crossed(spec, total, total + spec.values[a.card]) == best
        s.apply(a)
    assert len(s.sheet.rows) == 2


LAYOUT = BASE + """\
rounds:
  - name: sevens
    objective: be the first out of cards
    phases:
      play: null
      lay: {kind: layout, starts: ["9"], order: "7 8 9 10 J Q K A", end_when_out: 1}
    scoring: {each: "if out_place == 1 then 5 else -cards_left"}
"""


def test_layout_rows_passes_and_end():
    """issue 7 (layout kind): rows begin with a starter card, one per suit, and are built up or
    down at either end; a player who cannot lay a card passes (and may not pass when he can);
    the round ends when the given number of players are out."""
    v = load(LAYOUT)
    hands = {1: "9S 10S JS QS KS AS 8H 7H", 2: "8S 7S 9H 10H JH QH KH AH", 0: "9D 10D JD QD KD AD 8D 7D"}
    order = []
    for k in range(2):
        for seat in (1, 2, 0):
            order += hands[seat].split()[4 * k:4 * k + 4]
    s = State(v, seed=0, deals=[order])
    assert s.kind.name == "layout" and s.to_move == 1
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


def test_layout_pass_when_unable():
    """issue 7: a player without a card to lay must pass; the turn goes on."""
    v = load(LAYOUT)
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
def test_layout_bots_play_to_the_end(seed):
    """issue 7: random and sensible bots play a layout round to its end."""
    v = load(LAYOUT)
    s = State(v, seed=seed)
    bots = [SensibleBot(seed), RandomBot(seed), SensibleBot(seed + 2)]
    while not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    assert len(s.sheet.rows) == 1 and s.sheet.rows[0].entries.count(5) == 1


CHOICE = BASE + """\
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
    v = load(CHOICE)
    names = [v.deck.name(c) for c in range(v.deck.size)]
    rest = [x for x in names if x not in first_two]
    return State(v, seed=5, deals=[first_two + rest])


def test_split_choice_shows_part_of_the_deal_then_deals_the_rest():
    """issue 7 (deal split by a decision): the chooser holds only his first cards while he
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
    """issue 7: asking for a suit or turning the cards decides trumps by the turned cards,
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
    """issue 7: with ``times: players`` the deal passes on and each player chooses once."""
    s = State(load(CHOICE), seed=2)
    choosers = []
    bots = [SensibleBot(1), RandomBot(2), SensibleBot(3)]
    while not s.is_over:
        if s.kind.name == "split_choice":
            choosers.append(s.to_move)
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    assert sorted(choosers) == [0, 1, 2] and choosers == [1, 2, 0]
    assert [r.note.split(":")[0] for r in s.sheet.rows] == ["trumps 1", "trumps 2", "trumps 3"]
    assert all(sum(r.entries) == 3 * 8 for r in s.sheet.rows)
