"""The ``ladder_auction`` kind on small made-up variants: extra bids placed inside the ladder
(``above``), allowed only after a given bid (``only_after``), null, open and alone bids with their
own value (``bid_value``)."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant
from tests.helpers import deal_order, variant_from

TINY = """id: tinyladder
name: Tiny ladder
players: 4
seats: [N, E, S, W]
%(sides)s
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 3}
phases:
  deal: {kind: deal, pattern: "3 3"}
  bidding:
    kind: ladder_auction
    levels: [3, 4, 5, 6]
    strains: [S, H, NT]
    extra_bids:
      - {call: MIS, level: 0, strain: NT, null: true, alone: true, value: 25, above: %(above)s, only_after: 3H}
      - {call: OPEN, level: 0, strain: NT, null: true, alone: true, value: 50, above: 5H, open: after_first_trick}
    all_pass: redeal
  play: {kind: tricks, lead: declarer, end_if: "null and declarer_tricks > 0"}
scoring:
  by: %(by)s
  let:
    value: "if null then bid_value else 10 * level + strain"
    made: "if null then declarer_tricks == 0 else declarer_tricks >= level"
  declarer: "if made then value else -value"
  defender: "if null then 0 else tricks"
match:
  deals: 1
"""


def tiny(tmp_path, above="4S", sides="sides: {NS: [0, 2], EW: [1, 3]}", by="side"):
    return variant_from(tmp_path, "tiny.yaml", TINY % {"above": above, "sides": sides, "by": by})


def deal_of(hands: dict) -> list:
    """The deck order that deals ``hands`` (seat -> six cards) with pattern ``3 3`` from seat 0."""
    return deal_order(hands, (3, 3), first=0)


def test_extra_bids_take_their_place_in_the_order(tmp_path):
    """Misère in a ladder auction: MIS sits just above 4S and OPEN above 5H; MIS is
    refused before a bid of 3H or higher, with the reason; OPEN may open the bidding."""
    v = tiny(tmp_path)
    assert [b.text for b in v.auction().bids] == [
        "3S", "3H", "3NT", "4S", "MIS", "4H", "4NT", "5S", "5H", "OPEN", "5NT", "6S", "6H", "6NT"]
    s = State(v, seed=1)
    legal = [a.text for a in s.legal_actions()]
    assert "MIS" not in legal and "OPEN" in legal
    with pytest.raises(IllegalActionError, match="MIS may only be bid after a bid of 3H or higher"):
        s.apply("MIS")
    s.apply("3H")
    assert "MIS" in [a.text for a in s.legal_actions()]
    s.apply("4S")
    s.apply("MIS")                                   # over 4S
    legal = [a.text for a in s.legal_actions()]
    assert "4S" not in legal and legal[1] == "4H"
    with pytest.raises(IllegalActionError, match="4S does not outrank the highest bid MIS"):
        s.apply("4S")
    assert "MIS (above 4S, after 3H or higher)" in s.kind.help_line(s.current_phase, v)


def misere_bid(v, bidder: list) -> State:
    """A deal where seat 1 holds ``bidder`` and, after 3H, bids MIS and everyone passes."""
    hands = {1: bidder, 0: ["AS", "KS", "QS", "JS", "AH", "KH"],
             2: ["QH", "JH", "10D", "JD", "QD", "KD"], 3: ["AD", "10C", "JC", "QC", "KC", "AC"]}
    s = State(v, deals=[deal_of(hands)], dealer=3)
    s.apply("3H")
    s.apply("MIS")
    for _ in range(3):
        s.apply("pass")
    return s


def test_misere_made_partner_sits_out_no_trump(tmp_path):
    """A misère is played at no trump by the bidder alone (his partner's cards are
    put aside) and the bidder leads; holding the lowest cards he takes no trick: his side scores
    the bid's own value, 25, the other side nothing."""
    v = tiny(tmp_path)
    s = misere_bid(v, ["9S", "9H", "9D", "9C", "10S", "10H"])
    h = s.hand
    assert (h.declarer, h.trump, h.hands[3], s.phase_kind, s.to_move) == (1, "NT", 0, "tricks", 1)
    strength = v.contexts["NT"].strength
    while not s.is_over:
        legal = s.legal_actions()
        pick = min if s.to_move == 1 else max       # the bidder ducks, the others try to give him one
        s.apply(pick(legal, key=lambda a: strength[a.card]))
    assert h.won[1] == 0 and len(h.tricks) == 6 and h.entries == [0, 25]


def test_misere_failed_stops_at_the_first_trick_won(tmp_path):
    """Leading a card nobody can follow wins the trick: the misère fails at once
    (end_if), -25 for the bidder's side."""
    v = tiny(tmp_path)
    s = misere_bid(v, ["9C", "9H", "9D", "9S", "10S", "10H"])
    for card in ("9C", "QH", "AS"):   # clubs led: nobody left in play holds one
        s.apply(card)
    h = s.hand
    assert h.won == [0, 1, 0, 0] and len(h.tricks) == 1 and h.entries == [0, -25]


def test_open_misere_hand_face_up_after_the_first_trick(tmp_path):
    """In OPEN the bidder's hand lies face up for everyone after the first trick,
    not before."""
    v = tiny(tmp_path)
    s = State(v, seed=3)
    s.apply("OPEN")
    for _ in range(3):
        s.apply("pass")
    d = s.hand.declarer
    assert d == 0 and s.hand.hands[2] == 0
    assert s.observation(1).open_seats == []
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert not s.is_over   # the first trick went to an opponent: play goes on, the hand face up
    assert s.observation(1).open_seats == [0] and s.observation(1).open_hands == s.hand.hands[0]


def test_unknown_place_and_lone_bid_without_sides_are_refused(tmp_path):
    """``above`` must name a bid (with file:line:col), and ``alone`` needs sides."""
    with pytest.raises(VariantError) as e:
        tiny(tmp_path, above="4X")
    assert "tiny.yaml:20:86:" in str(e.value) and "phases.bidding.extra_bids.0.above" in str(e.value)
    assert "unknown bid '4X'" in str(e.value)
    with pytest.raises(VariantError) as e:
        tiny(tmp_path, sides="", by="seat")
    assert "a lone bid sits the partner out: it needs sides" in str(e.value)


def test_lone_bid_in_a_side_of_three_sits_both_partners_out(tmp_path):
    """Playing alone, general: with sides of three a lone bid puts both partners'
    cards aside; the bidder plays against the three opponents."""
    f = tmp_path / "six.yaml"
    f.write_text("""id: sixladder
name: Six ladder
players: 6
sides: {A: [0, 2, 4], B: [1, 3, 5]}
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 5}}
phases:
  deal: {kind: deal, pattern: "2 2"}
  bidding:
    kind: ladder_auction
    levels: [2, 3, 4]
    strains: [S, NT]
    extra_bids:
      - {call: MIS, level: 0, strain: NT, null: true, alone: true, value: 25}
    all_pass: redeal
  play: {kind: tricks, lead: declarer, end_if: "null and declarer_tricks > 0"}
scoring:
  by: side
  let: {made: "if null then declarer_tricks == 0 else declarer_tricks >= level"}
  declarer: "if made then bid_value + 10 * level else 0 - bid_value - 10 * level"
  defender: "0"
match: {deals: 1}
""", encoding="utf-8")
    s = State(load_variant(str(f)), seed=2)
    s.apply("MIS")
    for _ in range(5):
        s.apply("pass")
    h = s.hand
    assert h.declarer == 0 and [m.bit_count() for m in h.hands] == [4, 4, 0, 4, 0, 4]
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert h.entries == ([25, 0] if h.won[0] == 0 else [-25, 0])
    assert all(len(plays) == 4 for _l, plays, _w, _n in h.tricks)
