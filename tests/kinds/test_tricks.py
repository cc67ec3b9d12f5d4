"""The ``tricks`` kind's options, each on a small made-up variant: early end (``end_if``), lead
restrictions (``lead_broken``, ``lead_never``, ``first_trick``), the leader chosen by the caller
(``lead_if`` / ``lead_then``), the lead passing on (``lead_pass_if``), the first lead making
trumps (``first_lead_trump``), ``may_trump``, ``must_trump`` with permanent trumps, and
overtrumping with the partner's trick (``must_overtrump`` / ``partner_frees``)."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import player_envs
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant.compiler import compile_variant
from rulekit.variant.explain import explain
from rulekit.variant.loader import resolve
from tests.helpers import (LEAD_TOY_HANDS, deal_order, jacknine, lead_toy, lead_toy_order, legal_texts, make_trumps,
                           play_first_legal, table_toy, trick_toy, variant_from)

LONE_TOY = """id: lonetoy
name: Lone toy
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
  trump: "A K Q J 10 9"
dealer:
  first: {seat: 3}
phases:
  deal: {kind: deal, pattern: "3 2, widow 4"}
  making: {kind: order_up, alone: true}
  play:
    kind: tricks
    lead: eldest
%(lead)s
scoring:
  by: side
  each: "tricks"
match:
  deals: 1
"""


def lone_toy(tmp_path, lead='    lead_if: "alone"\n    lead_then: declarer_left'):
    return variant_from(tmp_path, "toy.yaml", LONE_TOY % {"lead": lead})


@pytest.mark.parametrize("call, maker, leader", [
    ("order alone", 2, 3),   # S alone, N (the eldest) sits out: W, on S's left, leads (was E)
    ("order alone", 0, 1),   # N alone (the eldest himself): E leads (was N)
    ("order", 2, 0),         # with his partner: the eldest hand leads as usual
])
def test_lone_maker_left_leads(tmp_path, call, maker, leader):
    """A leader chosen by the caller: with ``lead_if: alone`` and ``lead_then:
    declarer_left`` the player left of a lone maker leads; otherwise the eldest hand."""
    s = State(lone_toy(tmp_path), seed=1, dealer=3)
    make_trumps(s, call, maker)
    assert s.phase_kind == "tricks" and s.hand.declarer == maker and s.to_move == leader


def test_lead_if_needs_lead_then(tmp_path):
    """``lead_if`` without ``lead_then`` is refused at the key, with file:line:col."""
    with pytest.raises(VariantError) as e:
        lone_toy(tmp_path, lead='    lead_if: "alone"')
    msg = str(e.value)
    assert "toy.yaml:20:14:" in msg and "phases.play.lead_if: lead_if needs lead_then" in msg

LEAD_PASS_TOY = """
id: toy-lead-pass
name: Toy lead pass
players: 3
deck: {suits: [S, H], ranks: ["7", "8", "9", "10", J, Q]}
ranking: {suit: "Q J 10 9 8 7"}
phases:
  deal: {kind: deal, pattern: "4"}
  play: {kind: tricks, lead: eldest, lead_pass_if: "seat == 1 or seat == 2"}
scoring:
  each: "tricks"
match: {deals: 1}
"""


def test_lead_pass_if_primitive_on_a_made_up_variant(tmp_path):
    """rules/preferans.md [T1] as a general option: `lead_pass_if` passes the first lead on while it holds (seat 0
    deals, so seat 1 is eldest; seats 1 and 2 pass the lead, seat 0 leads)."""
    p = tmp_path / "toy.yaml"
    p.write_text(LEAD_PASS_TOY)
    v = compile_variant(resolve(str(p)))
    s = State(v, seed=0, dealer=0)
    assert s.hand.leader == 0 and s.to_move == 0


# ---------------------------------------------------------------------- early end
def test_end_if_stops_play_after_the_trick_where_it_holds(tmp_path):
    """Early end: ``end_if`` is checked after each trick; play stops at the
    first trick after which some column has 3 tricks; unplayed cards stay in the hands."""
    v = trick_toy(tmp_path, play=', end_if: "tricks >= 3"')
    s = State(v, seed=5)
    h = s.hand
    play_first_legal(s)
    assert max(h.won) == 3
    assert len(h.tricks) < 8
    assert [m.bit_count() for m in h.hands] == [8 - len(h.tricks)] * 3
    assert s.result()["totals"] == h.won
    # without end_if the same deal plays all eight tricks
    s2 = State(trick_toy(tmp_path, name="toy2.yaml"), seed=5)
    play_first_legal(s2)
    assert len(s2.hand_log[0].tricks) == 8


def test_end_if_errors_carry_file_line_col(tmp_path):
    """A bad ``end_if`` is refused at load with its place in the file."""
    with pytest.raises(VariantError) as e:
        trick_toy(tmp_path, play=', end_if: "trics >= 3"')
    first = str(e.value).splitlines()[0]
    assert "toy.yaml:13:" in first and "phases.play.end_if" in first and "unknown variable trics" in first


# ---------------------------------------------------------------------- lead and first-trick restrictions
#: dealt "4 4" from seat 1: seat 1 hearts and diamonds, seat 2 two hearts and the spades, seat 0 clubs
RESTRICT_DEAL = ("AH KH QH JH  10H 9H AS KS  AC KC QC JC  AD KD QD JD  QS JS 10S 9S  10C 9C 10D 9D").split()


def test_lead_broken_and_first_trick(tmp_path):
    """Lead restrictions, first-trick restrictions: hearts may not be led while
    the leader holds another suit until a heart has been played; the queen of spades may not be
    played to the first trick while the player has another card; both refused with the reason."""
    v = trick_toy(tmp_path, play=', lead_broken: [H], first_trick: {no_play: "QS"}')
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


def test_each_refused_lead_gets_the_reason_of_the_rule_that_removed_it(tmp_path):
    """Hearts may not be led until broken, AD and KD (and AS) may not be led to the first trick,
    QS not played to it: leading from AH KH QH JH AD KD QD JD leaves QD JD; each other card is
    refused with the words of the rule that removed it, naming only the cards held (in the deck's
    order); the next hand, void in diamonds, may throw any card but QS, refused by its rule."""
    v = trick_toy(tmp_path, play=', lead_broken: [H], first_trick: {no_lead: "AD KD AS", no_play: "QS"}')
    s = State(v, seed=1, deals=[RESTRICT_DEAL])
    assert sorted(a.text for a in s.legal_actions()) == ["play JD", "play QD"]
    hearts = "hearts may not be led until one has been played, while you hold another suit"
    first = "KD AD may not be led to the first trick while you hold another card"
    for card, reason in {"AH": hearts, "KH": hearts, "QH": hearts, "JH": hearts, "AD": first, "KD": first}.items():
        with pytest.raises(IllegalActionError) as e:
            s.apply(card)
        assert str(e.value) == reason, card
    s.apply("QD")
    with pytest.raises(IllegalActionError) as e:
        s.apply("QS")
    assert str(e.value) == "QS may not be played to the first trick while you hold another card"
    assert sorted(a.text for a in s.legal_actions()) == \
        ["play 10H", "play 10S", "play 9H", "play 9S", "play AS", "play JS", "play KS"]


def test_lead_broken_gives_way_when_only_that_suit_is_left(tmp_path):
    """A leader holding only the restricted suit may lead it (the rule's "while he holds another")."""
    deal = ("AH KH QH JH  AS KS QS JS  AC KC QC JC  10H 9H AD KD  10S 9S 10C 9C  QD JD 10D 9D").split()
    v = trick_toy(tmp_path, play=", lead_broken: [H]")
    s = State(v, seed=1, deals=[deal])
    assert sorted(a.text for a in s.legal_actions()) == ["play AD", "play KD"]
    with pytest.raises(VariantError) as e:
        trick_toy(tmp_path, play=", lead_broken: [X]", name="toy3.yaml")
    assert "phases.play.lead_broken.0:" in str(e.value)


def test_lead_never_holds_after_the_suit_is_played(tmp_path):
    """rules/king.md [K2]: with ``lead_never: [H]`` hearts may not be led while
    the leader holds another suit, even after hearts have been played; a hearts-only hand leads one."""
    v = trick_toy(tmp_path, play=", lead_never: [H]")
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
        trick_toy(tmp_path, play=", lead_never: [X]", name="toy4.yaml")
    assert "phases.play.lead_never.0:" in str(e.value)


def test_first_trick_lead_card(tmp_path):
    """The holder of a named card leads it to the first trick (Hearts' two of clubs)."""
    v = table_toy(tmp_path, play=", first_trick: {lead: 9C}")
    s = State(v, seed=5)
    holder = next(p for p in range(4) if s.hand.hands[p] >> v.deck.parse("9C") & 1)
    assert s.to_move == holder and [a.text for a in s.legal_actions()] == ["play 9C"]
    other = v.deck.names_of(s.hand.hands[holder] & ~(1 << v.deck.parse("9C")))[0]
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"play {other}")
    assert "9C must lead the first trick" in str(e.value)


def play_trump(tmp_path):
    return lead_toy(tmp_path, play=", first_lead_trump: true, may_trump: true")


def test_first_lead_makes_trumps_and_later_leads_do_not(tmp_path):
    """Auction Pitch: "the suit of the card led becomes trump", Bicycle / Hoyle: the
    suit of the hand's first lead becomes trumps, here diamonds; a later club lead changes nothing,
    and a diamond then wins over the clubs."""
    v = play_trump(tmp_path)
    s = State(v, deals=[lead_toy_order(LEAD_TOY_HANDS)])
    assert s.hand.trump == "NT"
    s.apply("play 9D")
    assert s.hand.trump == "D"
    # a trump led must be followed (may_trump only widens a plain-suit lead)
    assert [a.text for a in s.legal_actions()] == ["play QD", "play KD", "play AD"]
    s.apply("play AD")
    s.apply("play 9S")
    assert s.hand.trick_winners == [2]
    s.apply("play 10C")                 # seat 2 leads a plain suit
    assert s.hand.trump == "D"
    s.apply("play 9H")                  # seat 0 has no club
    s.apply("play 10D")                 # seat 1 trumps though he holds 9C
    assert s.hand.trick_winners == [2, 1]


def test_may_trump_instead_of_following(tmp_path):
    """All Fours "follow suit or trump", pagat.com/allfours: a player holding the
    suit led may play it or a trump, nothing else; the refusal says so."""
    v = play_trump(tmp_path)
    s = State(v, deals=[lead_toy_order(LEAD_TOY_HANDS)])
    for a in ("play 9D", "play AD", "play 9S", "play 10C", "play 9H"):
        s.apply(a)
    assert [a.text for a in s.legal_actions()] == ["play 10D", "play JD", "play 9C"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("play AH")
    assert str(e.value) == "you must follow clubs or play a trump: you hold 10♦ J♦ 9♣"


def test_without_may_trump_a_player_must_follow(tmp_path):
    """The same position without ``may_trump``: only the club."""
    v = lead_toy(tmp_path, play=", first_lead_trump: true")
    s = State(v, deals=[lead_toy_order(LEAD_TOY_HANDS)])
    for a in ("play 9D", "play AD", "play 9S", "play 10C", "play 9H"):
        s.apply(a)
    assert [a.text for a in s.legal_actions()] == ["play 9C"]


def test_first_lead_trump_describes_itself(tmp_path):
    """``rulekit explain`` reads both rules back."""
    from rulekit.variant.explain import explain
    text = explain(play_trump(tmp_path))
    assert "The suit of the first card led in the hand becomes trumps for the hand." in text
    assert "a player who can follow a plain suit may play a trump instead" in text


# Hands for the made-up deal (hearts are trumps; N, the eldest hand, leads).
JACKNINE_HANDS = {0: "AH KH AS KS QS JS", 1: "KD QD JD KC QC JC", 2: "JH 10H AD AC 9C 10C", 3: "9H QH 9D 10D 10S 9S"}


def deal_3_3(hands: dict) -> list:
    """The dealing order giving ``hands`` (seat -> 6 cards) by the pattern "3 3" from seat 0."""
    return deal_order({seat: cards.split() for seat, cards in hands.items()}, (3, 3), first=0)


def legal(s) -> set:
    return {a.text.split()[1] for a in s.legal_actions()}


def test_trump_led_must_overtrump_even_the_partner(tmp_path):
    """Belote primitives: on a trump lead each must beat the best trump so far if he
    can, even his partner's; one who cannot plays any trump; a void player without trumps plays
    anything. The trick's card points count the trumps at their trump value."""
    v = jacknine(tmp_path)
    s = State(v, deals=[deal_3_3(JACKNINE_HANDS)], dealer=3)
    assert s.kind.name == "tricks" and s.to_move == 0
    s.apply("play AH")
    assert legal(s) == set(JACKNINE_HANDS[1].split())                  # E: no heart, no trump: any card
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
    """Belote primitives: a player who cannot follow may play any card while his
    partner holds the trick (partner_frees); otherwise he must trump, beating a trump already
    played if he can, else with a lower trump (he still must trump)."""
    v = jacknine(tmp_path)
    s = State(v, deals=[deal_3_3(JACKNINE_HANDS)], dealer=3)
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
    """Belote primitives: partner_frees frees a player from trumping: without
    must_trump it says so, with the file position."""
    with pytest.raises(VariantError) as e:
        jacknine(tmp_path, must_trump="false")
    assert "jacknine.yaml:15:94: phases.play.partner_frees: partner_frees frees a player from trumping, " \
           "but nobody must trump (expected must_trump: true)" in str(e.value)
    with pytest.raises(VariantError) as e:
        jacknine(tmp_path, trump_points="{B: 20}")
    assert "jacknine.yaml:10:18: deck.trump_points.B: unknown rank 'B' (expected a rank of 9 10 J Q K A)" in str(e.value)


def test_explain_says_the_trump_points_and_the_overtrump_rule(tmp_path):
    """Each new primitive describes itself in `rulekit explain`."""
    text = explain(jacknine(tmp_path))
    assert "The cards of the trump suit count instead: J 20 points; 9 14 points" in text
    assert "unless his partner's card is winning the trick (then he may play any card)" in text
    assert "must play one higher than every card already in the trick if he can; if he cannot, any trump" in text

SPADES_TOP = """id: spades-on-top
name: Spades are permanent trumps
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
  top: "AS KS QS JS 10S 9S"
dealer:
  first: {seat: 0}
  rotation: left
phases:
  deal: {kind: deal, pattern: "4 4"}
  play: {kind: tricks, lead: eldest, must_trump: %s}
scoring:
  each: "tricks"
match:
  deals: 1
"""


def deal_3x8(dealer: int, hands: dict) -> list:
    """Dealing order for pattern ``4 4``: two packets of 4 from the eldest hand clockwise."""
    eldest = (dealer + 1) % 3
    return [c for part in (0, 4) for k in range(3) for c in hands[(eldest + k) % 3][part:part + 4]]

SPADE_HANDS = {1: "AH KH QH JH 9D 10D JD QD".split(),
               2: "9S 10S KD AD 9C 10C JC QC".split(),
               0: "JS QS KS AS 10H 9H KC AC".split()}


@pytest.mark.parametrize("must", [True, False])
def test_must_trump_with_a_top_suit(tmp_path, must):
    """A made-up variant whose spades are permanent trumps by ``ranking.top``:
    hearts led, seat 2 (no heart, two spades) must play a spade with ``must_trump: true``,
    and may discard anything without it."""
    v = variant_from(tmp_path, "spades-on-top.yaml", SPADES_TOP % str(must).lower())
    s = State(v, deals=[deal_3x8(0, SPADE_HANDS)], dealer=0)
    assert s.to_move == 1
    s.apply("AH")
    if must:
        assert legal_texts(s) == ["play 10S", "play 9S"]
        with pytest.raises(IllegalActionError, match="cannot follow hearts and must trump: you hold 9♠ 10♠"):
            s.apply("KD")
    else:
        assert len(s.legal_actions()) == 8
    s.apply("9S")
    assert legal_texts(s) == ["play 10H", "play 9H"]   # seat 0 follows hearts
    s.apply("9H")
    assert s.hand.tricks[0][2] == 2                       # the spade wins


def test_trump_lead_rule_follows_each_hands_trumps(tmp_path):
    """``lead_broken: [trump]`` forbids leading the suit named trumps in this hand, whichever it
    is: the dealer names hearts, then (another hand, the same cards) diamonds; at no trump
    nothing is restricted."""
    v = lead_toy(tmp_path, extra="  trumps: {kind: name_trump, by: dealer, choices: [H, D, NT]}\n",
                 play=", lead_broken: [trump]")
    order = lead_toy_order(LEAD_TOY_HANDS)
    for named, refused in (("H", ["JH", "QH", "KH", "AH"]), ("D", ["9D", "10D", "JD"]), ("NT", [])):
        s = State(v, seed=1, deals=[order])
        s.apply(f"trump {named}")
        plays = sorted(a.text.split()[1] for a in s.legal_actions())
        assert plays == sorted(c for c in LEAD_TOY_HANDS[1] if c not in refused), named
        if refused:
            with pytest.raises(IllegalActionError, match=f"{'hearts' if named == 'H' else 'diamonds'} may not be "
                                                         f"led until one has been played"):
                s.apply(refused[0])
