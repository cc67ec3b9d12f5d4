"""The primitives Belote needed (issue 11, the Jass family), each on a small made-up variant:
a trump suit with its own order and card points (``ranking.trump`` + ``deck.trump_points``),
overtrumping and the partner's trick (``tricks`` ``must_overtrump`` / ``partner_frees``), and
the rest of the pack dealt after an order-up auction (``order_up`` ``deal_rest``)."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import player_envs
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant
from rulekit.variant.explain import explain

JACKNINE = """id: jacknine
name: Jack Nine (made up)
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
  card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
  trump_points: %(trump_points)s
ranking: {suit: "A 10 K Q J 9", trump: "J 9 A 10 K Q"}
phases:
  deal: {kind: deal, pattern: "3 3"}
  trumps: {kind: fixed_trump, suit: H}
  play: {kind: tricks, lead: eldest, must_trump: %(must_trump)s, must_overtrump: true, partner_frees: true}
scoring:
  by: side
  each: "points"
match: {deals: 1}
"""


def jacknine(tmp_path, trump_points='{J: 20, "9": 14}', must_trump="true"):
    f = tmp_path / "jacknine.yaml"
    f.write_text(JACKNINE % dict(trump_points=trump_points, must_trump=must_trump))
    return load_variant(str(f))


# Hands for the made-up deal (hearts are trumps; N, the eldest hand, leads).
HANDS = {0: "AH KH AS KS QS JS", 1: "KD QD JD KC QC JC", 2: "JH 10H AD AC 9C 10C", 3: "9H QH 9D 10D 10S 9S"}


def deal_3_3(hands: dict) -> list:
    """The dealing order giving ``hands`` (seat -> 6 cards) by the pattern "3 3" from seat 0."""
    order = []
    for half in (slice(0, 3), slice(3, 6)):
        for seat in range(4):
            order += hands[seat].split()[half]
    return order


def legal(s) -> set:
    return {a.text.split()[1] for a in s.legal_actions()}


def test_trump_points_live_in_each_trump_table(tmp_path):
    """issue 11 (Belote primitives): the trump suit's cards count by deck.trump_points, the same
    cards of a plain suit by card_points; every table is the variant's per-trump Context."""
    v = jacknine(tmp_path)
    d = v.deck
    h, nt = v.contexts["H"].points, v.contexts["NT"].points
    assert (h[d.parse("JH")], h[d.parse("9H")], h[d.parse("AH")], h[d.parse("JS")], h[d.parse("9S")]) == (20, 14, 11, 2, 0)
    assert (nt[d.parse("JH")], nt[d.parse("9H")]) == (2, 0)
    assert sum(h) == 30 * 3 + 62 and v.points_total("H") == 152 and v.points_total() == 152
    # the trump order: J 9 A 10 K Q, the plain suits A 10 K Q J 9
    ctx = v.contexts["H"]
    assert sorted(("JH", "9H", "AH", "10H", "KH", "QH"), key=lambda c: -ctx.strength[d.parse(c)]) == \
        ["JH", "9H", "AH", "10H", "KH", "QH"]
    assert max(("AS", "10S", "JS", "9S"), key=lambda c: ctx.strength[d.parse(c)]) == "AS"


def test_trump_led_must_overtrump_even_the_partner(tmp_path):
    """issue 11 (Belote primitives): on a trump lead each must beat the best trump so far if he
    can, even his partner's; one who cannot plays any trump; a void player without trumps plays
    anything. The trick's card points count the trumps at their trump value."""
    v = jacknine(tmp_path)
    s = State(v, deals=[deal_3_3(HANDS)], dealer=3)
    assert s.kind.name == "tricks" and s.to_move == 0
    s.apply("play AH")
    assert legal(s) == set(HANDS[1].split())                  # E: no heart, no trump: any card
    s.apply("play JC")
    assert legal(s) == {"JH"}                                 # S must beat his partner's AH
    with pytest.raises(IllegalActionError) as e:
        s.apply("play 10H")
    assert str(e.value) == "you must play a trump higher than A♥: you hold J♥"
    s.apply("play JH")
    assert legal(s) == {"9H", "QH"}                           # W cannot beat JH: any trump
    s.apply("play QH")
    assert s.hand.trick_winners == [2]
    envs = player_envs(v, s.hand)
    assert [e.vars["points"] for e in envs] == [11 + 2 + 20 + 3, 0]   # AH JC JH(20) QH


def test_cannot_follow_partner_frees_else_trump_and_overtrump(tmp_path):
    """issue 11 (Belote primitives): a player who cannot follow may play any card while his
    partner holds the trick (partner_frees); otherwise he must trump, beating a trump already
    played if he can, else with a lower trump (he still must trump)."""
    v = jacknine(tmp_path)
    s = State(v, deals=[deal_3_3(HANDS)], dealer=3)
    for c in ("AH", "JC", "JH", "QH"):
        s.apply(f"play {c}")
    s.apply("play AD")                                        # S leads
    assert legal(s) == {"9D", "10D"}                          # W follows
    s.apply("play 9D")
    assert legal(s) == {"KH", "AS", "KS", "QS", "JS"}         # N: partner S holds the trick
    s.apply("play QS")
    s.apply("play KD")
    assert s.hand.trick_winners == [2, 2]
    s.apply("play AC")                                        # S leads again
    with pytest.raises(IllegalActionError) as e:
        s.apply("play 10S")
    assert str(e.value) == "you cannot follow clubs and must trump: you hold 9♥"
    assert legal(s) == {"9H"}
    s.apply("play 9H")
    assert legal(s) == {"KH"}                                 # N cannot beat 9H: still trumps


def test_without_partner_frees_the_rule_is_refused_unless_must_trump(tmp_path):
    """issue 11 (Belote primitives): partner_frees frees a player from trumping: without
    must_trump it says so, with the file position."""
    with pytest.raises(VariantError) as e:
        jacknine(tmp_path, must_trump="false")
    assert "jacknine.yaml:15:94: phases.play.partner_frees: partner_frees frees a player from trumping, " \
           "but nobody must trump (expected must_trump: true)" in str(e.value)
    with pytest.raises(VariantError) as e:
        jacknine(tmp_path, trump_points="{B: 20}")
    assert "jacknine.yaml:10:18: deck.trump_points.B: unknown rank 'B' (expected a rank of 9 10 J Q K A)" in str(e.value)


def test_explain_says_the_trump_points_and_the_overtrump_rule(tmp_path):
    """issue 11: each new primitive describes itself in `rulekit explain`."""
    text = explain(jacknine(tmp_path))
    assert "The cards of the trump suit count instead: J 20 points; 9 14 points" in text
    assert "unless his partner's card is winning the trick (then he may play any card)" in text
    assert "must play one higher than every card already in the trick if he can; if he cannot, any trump" in text


ORDERUP = """id: rest
name: Rest dealt later (made up)
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "2 2, widow 8"}
  making: {kind: order_up, deal_rest: %(rest)s}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "if maker then tricks else 0"
match: {deals: 2}
"""


def orderup(tmp_path, rest="{maker: 1, others: 2}"):
    f = tmp_path / "rest.yaml"
    f.write_text(ORDERUP % dict(rest=rest))
    return load_variant(str(f))


def test_deal_rest_maker_takes_the_turned_card(tmp_path):
    """issue 11 (Belote primitives): order_up with deal_rest: the maker (not the dealer) takes
    the turned card and the rest of the widow is dealt, 1 to him and 2 to each other player,
    from the eldest hand; every hand then holds 6 cards and a hand is 6 tricks."""
    v = orderup(tmp_path)
    assert v.hand_size == 6
    s = State(v, seed=3, dealer=3)
    h = s.hand
    turned = s.observation(0).phase_data["turned"]
    widow = [c for c in h.deck_order if h.zones["widow"] >> c & 1]
    assert widow[0] == turned and [m.bit_count() for m in h.hands] == [4, 4, 4, 4]
    s.apply("pass")
    s.apply("order")                                           # E (seat 1) takes
    assert h.declarer == 1 and h.trump == v.deck.suit_of(turned) and s.kind.name == "tricks"
    assert h.hands[1] >> turned & 1 and not h.hands[3] >> turned & 1
    assert [m.bit_count() for m in h.hands] == [6, 6, 6, 6] and h.zones["widow"] == 0
    rest = widow[1:]                                           # N 2, E 1, S 2, W 2 in turn
    assert h.hands[0] & (1 << rest[0] | 1 << rest[1]) == 1 << rest[0] | 1 << rest[1]
    assert h.hands[1] >> rest[2] & 1 and h.hands[2] >> rest[3] & 1 and h.hands[3] >> rest[6] & 1
    assert h.dealt == h.hands
    envs = player_envs(v, h)
    assert envs[0].vars["total_tricks"] == 6


def test_deal_rest_in_the_second_round_and_its_checks(tmp_path):
    """issue 11 (Belote primitives): a suit named in the second round also gives the maker the
    turned card; a deal_rest that leaves unequal hands is refused with its position."""
    v = orderup(tmp_path)
    s = State(v, seed=3, dealer=3)
    turned = s.observation(0).phase_data["turned"]
    for _ in range(4):
        s.apply("pass")
    other = next(x for x in "SHDC" if x != v.deck.suit_of(turned))
    s.apply("pass")
    s.apply(f"trump {other}")
    assert s.hand.declarer == 1 and s.hand.hands[1] >> turned & 1 and s.hand.trump == other
    assert [m.bit_count() for m in s.hand.hands] == [6, 6, 6, 6]
    with pytest.raises(VariantError) as e:
        orderup(tmp_path, rest="{maker: 2, others: 2}")
    assert "rest.yaml:10:39: phases.making.deal_rest: the maker would get 3 cards (the turned card and 2) " \
           "and the others 2 (expected maker to be others - 1)" in str(e.value)
