"""Shared primitives of issue 6 part 3, each on a small made-up variant (not a real game).

Helper J's primitives: early end of play (``end_if``), tallies and card points by card,
suit and trick, lead and first-trick restrictions, per-hand roles (declarer, called
partner, defenders), contracts as records with a ``list_auction``, seats that sit out and
a card put aside, open hands, and chance events (a card turned from a second pack).
"""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant

TOY = """id: toy
name: Toy
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "4 4"}
  play: {kind: tricks%(play)s}
scoring:
%(scoring)s
match:
  deals: 1
"""


def toy(tmp_path, play="", scoring='  each: "tricks"', text=TOY, name="toy.yaml"):
    """A made-up three-handed 24-card variant; ``play`` adds keys to the tricks entry."""
    f = tmp_path / name
    f.write_text(text % {"play": play, "scoring": scoring}, encoding="utf-8")
    return load_variant(str(f))


def play_out(s: State, hand_number: int = 0) -> None:
    """Play the first legal action until hand ``hand_number`` is over."""
    while not s.is_over and s.hand.number == hand_number:
        s.apply(s.legal_actions()[0])


# ---------------------------------------------------------------------- early end
def test_end_if_stops_play_after_the_trick_where_it_holds(tmp_path):
    """issue 6 part 3 (early end): ``end_if`` is checked after each trick; play stops at the
    first trick after which some column has 3 tricks; unplayed cards stay in the hands."""
    v = toy(tmp_path, play=', end_if: "tricks >= 3"')
    s = State(v, seed=5)
    h = s.hand
    play_out(s)
    assert max(h.won) == 3
    assert len(h.tricks) < 8
    assert [m.bit_count() for m in h.hands] == [8 - len(h.tricks)] * 3
    assert s.result()["totals"] == h.won
    # without end_if the same deal plays all eight tricks
    s2 = State(toy(tmp_path, name="toy2.yaml"), seed=5)
    play_out(s2)
    assert len(s2.hand_log[0].tricks) == 8


def test_end_if_errors_carry_file_line_col(tmp_path):
    """A bad ``end_if`` is refused at load with its place in the file."""
    with pytest.raises(VariantError) as e:
        toy(tmp_path, play=', end_if: "trics >= 3"')
    first = str(e.value).splitlines()[0]
    assert "toy.yaml:13:" in first and "phases.play.end_if" in first and "unknown variable trics" in first


# ---------------------------------------------------------------------- tallies, card points
TALLY_SCORING = """  tallies:
    hearts: {suits: H, in: tricks}
    queen_spades: {cards: QS, in: tricks}
    last: {tricks: [-1], count: tricks, in: tricks}
    first_two: {tricks: [1, 2], count: tricks, in: tricks}
    black_aces: {ranks: A, suits: S C, in: hand}
  each: "tricks + 100 * hearts + 1000 * queen_spades + 10000 * last + 100000 * first_two"
"""


def test_tallies_by_suit_card_and_trick_index(tmp_path):
    """issue 6 part 3 (tallies by trick index, card and suit): counted from the hand's own
    tricks, and agreeing with a count made here by hand."""
    v = toy(tmp_path, scoring=TALLY_SCORING)
    s = State(v, seed=11)
    h = s.hand
    play_out(s)
    from rulekit.engine.scoring import player_envs
    envs = player_envs(v, h)
    deck = v.deck
    for seat in range(3):
        mine = [t for t in h.tricks if t[2] == seat]
        cards = [c for t in mine for _s, c in t[1]]
        e = envs[seat].vars
        assert e["hearts"] == sum(deck.suit_of(c) == "H" for c in cards)
        assert e["queen_spades"] == int(deck.index["QS"] in cards)
        assert e["last"] == int(h.tricks[-1][2] == seat)
        assert e["first_two"] == sum(t[2] == seat for t in h.tricks[:2])
        assert e["black_aces"] == sum(deck.index[x] in set(_bits(h.dealt[seat])) for x in ("AS", "AC"))
        assert h.entries[seat] == (e["tricks"] + 100 * e["hearts"] + 1000 * e["queen_spades"]
                                   + 10000 * e["last"] + 100000 * e["first_two"])


def _bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def test_tally_trick_index_out_of_range_is_refused(tmp_path):
    """A trick number the hand does not have is refused with file:line:col."""
    with pytest.raises(VariantError) as e:
        toy(tmp_path, scoring='  tallies:\n    late: {tricks: [9], count: tricks, in: tricks}\n  each: "late"')
    assert "scoring.tallies.late.tricks.0: there is no trick 9 in a hand of 8 tricks" in str(e.value)


def test_card_points_by_card_and_by_suit(tmp_path):
    """issue 6 part 3 (card points by card and by suit): every heart 1, the queen of spades
    13 (its own entry wins), kings 2 by rank plus their suit's."""
    text = TOY.replace("  ranks: [\"9\", \"10\", J, Q, K, A]\n",
                       "  ranks: [\"9\", \"10\", J, Q, K, A]\n  card_points: {H: 1, QS: 13, K: 2}\n")
    v = toy(tmp_path, text=text, scoring='  each: "points"')
    pts = {v.deck.name(c): p for c, p in enumerate(v.card_points) if p}
    assert pts["QS"] == 13 and pts["9H"] == 1 and pts["KH"] == 3 and pts["KS"] == 2 and "QD" not in pts
    assert sum(v.card_points) == 6 + 13 + 4 * 2
    bad = TOY.replace("  ranks: [\"9\", \"10\", J, Q, K, A]\n",
                      "  ranks: [\"9\", \"10\", J, Q, K, A]\n  card_points: {ZZ: 1}\n")
    with pytest.raises(VariantError) as e:
        toy(tmp_path, text=bad)
    assert "deck.card_points.ZZ: unknown rank 'ZZ'" in str(e.value) and "a suit (S H D C) or a card" in str(e.value)


# ---------------------------------------------------------------------- lead and first-trick restrictions
#: dealt "4 4" from seat 1: seat 1 hearts and diamonds, seat 2 two hearts and the spades, seat 0 clubs
RESTRICT_DEAL = ("AH KH QH JH  10H 9H AS KS  AC KC QC JC  AD KD QD JD  QS JS 10S 9S  10C 9C 10D 9D").split()


def test_lead_broken_and_first_trick(tmp_path):
    """issue 6 part 3 (lead restrictions, first-trick restrictions): hearts may not be led while
    the leader holds another suit until a heart has been played; the queen of spades may not be
    played to the first trick while the player has another card; both refused with the reason."""
    v = toy(tmp_path, play=', lead_broken: [H], first_trick: {no_play: "QS"}')
    s = State(v, seed=1, deals=[RESTRICT_DEAL])
    deck = v.deck
    assert s.to_move == 1 and deck.names_of(s.hand.hands[1]) == deck.names_of(
        sum(1 << deck.index[c] for c in "AH KH QH JH AD KD QD JD".split()))
    assert sorted(a.text for a in s.legal_actions()) == ["play AD", "play JD", "play KD", "play QD"]
    with pytest.raises(IllegalActionError, match="hearts may not be led until one has been played, while you hold"):
        s.apply("AH")
    s.apply("AD")
    assert "play QS" not in [a.text for a in s.legal_actions()] and len(s.legal_actions()) == 7
    with pytest.raises(IllegalActionError, match="QS may not be played to the first trick while you hold another"):
        s.apply("QS")
    s.apply("10H")   # hearts are broken now
    s.apply("9D")
    assert s.to_move == 1 and "play AH" in [a.text for a in s.legal_actions()]
    s.apply("KD")
    assert "play QS" in [a.text for a in s.legal_actions()]   # not the first trick any more


def test_lead_broken_gives_way_when_only_that_suit_is_left(tmp_path):
    """A leader holding only the restricted suit may lead it (the rule's "while he holds another")."""
    deal = ("AH KH QH JH  AS KS QS JS  AC KC QC JC  10H 9H AD KD  10S 9S 10C 9C  QD JD 10D 9D").split()
    v = toy(tmp_path, play=", lead_broken: [H]")
    s = State(v, seed=1, deals=[deal])
    assert sorted(a.text for a in s.legal_actions()) == ["play AD", "play KD"]
    with pytest.raises(VariantError) as e:
        toy(tmp_path, play=", lead_broken: [X]", name="toy3.yaml")
    assert "phases.play.lead_broken.0:" in str(e.value)


def test_lead_never_holds_after_the_suit_is_played(tmp_path):
    """user pass (stop 5) case 1 (rules/king.md [K2]): with ``lead_never: [H]`` hearts may not be led while
    the leader holds another suit, even after hearts have been played; a hearts-only hand leads one."""
    v = toy(tmp_path, play=", lead_never: [H]")
    s = State(v, seed=1, deals=[RESTRICT_DEAL])
    with pytest.raises(IllegalActionError, match="^hearts may not be led, while you hold another suit"):
        s.apply("AH")
    for card in ("AD", "10H", "9D"):   # seat 2 throws a heart: hearts are played
        s.apply(card)
    assert s.to_move == 1 and sorted(a.text for a in s.legal_actions()) == ["play JD", "play KD", "play QD"]
    with pytest.raises(IllegalActionError, match="^hearts may not be led, while you hold another suit"):
        s.apply("KH")
    for card in ("KD", "9H", "10D", "QD", "AS", "9C", "JD", "KS", "10C"):
        s.apply(card)
    assert s.to_move == 1 and sorted(a.text for a in s.legal_actions()) == [
        "play AH", "play JH", "play KH", "play QH"]   # nothing else left: hearts may be led
    with pytest.raises(VariantError) as e:
        toy(tmp_path, play=", lead_never: [X]", name="toy4.yaml")
    assert "phases.play.lead_never.0:" in str(e.value)


# ---------------------------------------------------------------------- contracts, roles, aside, open, chance
LISTER = """id: lister
name: Lister
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
  colours: {S: black, C: black, H: red, D: red}
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "4 4"}
  turn: {kind: turn_card, by: dealer}
  bidding:
    kind: list_auction
    contracts:
      - {tricks: 3, trumps: each, value: "10 - suit_class", partner: true}
      - {call: MIS, name: misere, value: 8, null: true, aside: 1, open: before_lead}
      - {tricks: 5, trumps: each, value: "20 - suit_class"}
  partner: {kind: call_partner%(offers)s}
  aside: {kind: set_aside}
  play: {kind: tricks, lead: declarer, end_if: "null and declarer_tricks > 0"}
scoring:
  let:
    made: "if null then declarer_tricks == 0 else side_tricks >= level"
  declarer: "if made then value else -value"
  defender: "if is_defender then 0 else 99"
match:
  deals: 1
"""


@pytest.fixture
def lister(tmp_path):
    def make(offers=""):
        f = tmp_path / "lister.yaml"
        f.write_text(LISTER % {"offers": offers}, encoding="utf-8")
        return load_variant(str(f))
    return make


def test_chance_event_is_an_action_in_the_record_and_public(lister):
    """issue 6 part 3 (chance events stored in the record): the card turned from a second pack
    is the turner's one legal action, stored in the history; a record may name any card (a real
    table's), and every seat sees it and the suit classes it gives."""
    v = lister()
    s = State(v, seed=4)
    assert s.phase_kind == "turn_card" and s.to_move == 0
    drawn = s.legal_actions()
    assert len(drawn) == 1 and drawn[0].text.startswith("turn ")
    s.apply("turn KH")                     # what the table turned, not what the seed drew
    assert s.history[0] == (0, "turn KH")
    for seat in range(3):
        data = s.observation(seat).phase_data
        assert data["turned_card"] == v.deck.index["KH"]
        assert data["suit_classes"] == {"H": 1, "D": 2, "S": 3, "C": 3}
    with pytest.raises(Exception):
        State(v, seed=4).apply("turn 2H")  # not a card of this pack


def test_contracts_ranked_by_value_with_ties(lister):
    """issue 6 part 3 (contracts as records ranked by value, ties allowed): 3 tricks are worth
    9 in hearts (class 1), 8 in diamonds, 7 in either black suit; the misere (8) ties 3D and
    cannot overcall it; the value is a formula variable."""
    v = lister()
    s = State(v, seed=4)
    s.apply("turn KH")
    vals = {b.text: b.value for b in s.current_bids()}
    assert (vals["3H"], vals["3D"], vals["3S"], vals["3C"], vals["MIS"], vals["5H"]) == (9, 8, 7, 7, 8, 19)
    assert [a.text for a in s.legal_actions()][:4] == ["pass", "3S", "3C", "3D"]
    s.apply("3S")
    assert "3C" not in [a.text for a in s.legal_actions()]
    with pytest.raises(IllegalActionError, match=r"3C \(7\) is not worth more than the highest bid 3S \(7\) "
                                                 r"\(equal games cannot overcall each other\)"):
        s.apply("3C")
    s.apply("3D")
    with pytest.raises(IllegalActionError, match=r"MIS \(8\) is not worth more than the highest bid 3D \(8\)"):
        s.apply("MIS")
    s.apply("pass")
    s.apply("pass")
    assert s.hand.contract.text == "3D" and s.hand.declarer == 2 and s.hand.trump == "D"


def _to_partner_phase(v):
    s = State(v, seed=4)
    s.apply("turn KH")
    s.apply("3H")      # seat 1 (eldest)
    s.apply("pass")    # seat 2
    s.apply("pass")    # seat 0
    assert s.phase_kind == "call_partner" and s.to_move == 1
    return s


def test_called_partner_is_a_role_for_formulas_and_observations(lister):
    """issue 6 part 3 (per-hand partnerships and roles): the declarer invites; the first player
    clockwise who accepts partners him for this hand, is scored with the declarer's formula
    (``side_tricks`` counts both), is no defender, and every observation names him."""
    v = lister()
    s = _to_partner_phase(v)
    assert [a.text for a in s.legal_actions()] == ["alone", "invite"]
    s.apply("invite")
    assert s.to_move == 2 and [a.text for a in s.legal_actions()] == ["pass", "accept"]
    s.apply("pass")
    assert s.to_move == 0
    s.apply("accept")
    assert s.hand.partner == 0 and s.role(0) == "partner" and s.role(2) == "defender" and s.role(1) == "declarer"
    assert all(s.observation(x).partner == 0 for x in range(3))
    h = s.hand
    play_out(s)
    side = h.won[1] + h.won[0]
    value = 9 if side >= 3 else -9
    assert h.entries == [value, value, 0]
    assert "with P0" in s.sheet.rows[0].note


def test_offer_refused_then_accepted(lister):
    """issue 6 part 3 (called partner): after ``alone`` a player may offer himself; the declarer
    refuses one offer and accepts the next."""
    v = lister()
    s = _to_partner_phase(v)
    s.apply("alone")
    assert s.to_move == 2 and [a.text for a in s.legal_actions()] == ["pass", "offer"]
    s.apply("offer")
    assert s.to_move == 1 and [a.text for a in s.legal_actions()] == ["refuse", "accept"]
    with pytest.raises(IllegalActionError, match="invite is not an answer now: the declarer says accept or refuse"):
        s.apply("invite")
    s.apply("refuse")
    assert s.to_move == 0 and s.hand.partner == -1
    s.apply("offer")
    s.apply("accept")
    assert s.hand.partner == 0 and s.phase_kind == "tricks"


@pytest.mark.parametrize("seed, won, tricks, entries", [(4, [1, 0, 7], 8, [0, 8, 0]), (5, [0, 1, 1], 2, [0, -8, 0])])
def test_card_put_aside_unequal_hands_and_open_hand(lister, seed, won, tricks, entries):
    """issue 6 part 3 (a card put aside face down, seats that sit out, open hands): the misere
    declarer puts one card aside (seen by him only), his other 7 lie face up for everyone
    before the first lead, and he has no card for the last trick, which the others play alone
    (seed 4: made, 8 tricks); play stops at the first trick he wins (seed 5: trick 2, end_if)."""
    v = lister("")
    s = State(v, seed=seed)
    s.apply("turn KH")
    s.apply("MIS")
    s.apply("pass")
    s.apply("pass")
    assert s.phase_kind == "set_aside" and s.to_move == 1   # no partner for this contract
    h = s.hand
    low = min(s.hand_cards(1), key=lambda c: v.contexts["NT"].strength[c])
    s.apply(f"discard {v.deck.name(low)}")
    assert h.hands[1].bit_count() == 7 and h.discards == 1 << low
    assert s.observation(1).discards == 1 << low and s.observation(2).discards == 0
    assert s.observation(2).hidden_discards == 1
    assert s.observation(0).open_hands == h.hands[1] and s.observation(0).open_seats == [1]
    assert s.observation(1).open_hands == 0
    world = s.observation(2).sample_world(__import__("random").Random(1))
    assert world.hand.hands[1] == h.hands[1]              # the open hand is not resampled
    while not s.is_over:
        legal = s.legal_actions()
        # the declarer ducks when he can
        a = min(legal, key=lambda x: v.contexts["NT"].strength[x.card]) if s.to_move == 1 else legal[0]
        s.apply(a)
    assert h.won == won and len(h.tricks) == tricks and h.entries == entries
    if tricks == 8:
        assert sorted(p for p, _c in h.tricks[-1][1]) == [0, 2]   # the 8th trick: the two others
