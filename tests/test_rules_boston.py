"""Boston (rules/boston.md, seed 003 section БОСТОН): every rule id and worked example.

Hands are built from explicit deals (``1 x 13`` from the dealer's left: card ``i`` goes to
seat ``(dealer + 1 + i) % 4``) and the card of the second pack is named (``turn 2H``), so
each test knows the suit classes.
"""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.engine.scoring import entries_for, envs_for
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from rulekit.variant.explain import explain
from tests.helpers import deal_order


@pytest.fixture(scope="module")
def v():
    return load_variant("boston")


def deal_of(hands: dict, dealer: int = 0) -> list:
    """The dealing order that gives each seat the cards ``hands[seat]`` (13 card texts)."""
    return deal_order(hands, first=dealer + 1)


#: seat 1 (eldest, declarer in the null tests): low spades, hearts and diamonds with the AH
NULL_HANDS = {1: "2S 3S 4S AH 2H 3H 4H 5H 6H 2D 3D 4D 5D".split(),
              2: "AS KS QS 7H 8H 9H 6D 7D 8D 2C 3C 4C 5C".split(),
              3: "JS 10S 9S 10H JH QH 9D 10D JD 6C 7C 8C 9C".split(),
              0: "8S 7S 6S 5S KH 10C JC QC KC AC QD KD AD".split()}


def start(v, hands=NULL_HANDS, turn="2H", dealer=0, seed=1):
    s = State(v, seed=seed, deals=[deal_of(hands, dealer)], dealer=dealer)
    assert s.phase_kind == "turn_card"
    s.apply(f"turn {turn}")
    return s


def bids_to(s, *calls):
    for c in calls:
        s.apply(c)


def score(v, s, text, declarer, won, partner=-1):
    """Entries for contract ``text`` (valued for this hand) by ``declarer`` with tricks ``won``."""
    bid = next(b for b in s.current_bids() if b.text == text)
    envs = envs_for(v, bid, declarer, bid.strain, won, [0] * 4, {"partner": partner})
    return entries_for(v, bid, declarer, envs, partner)


# ---------------------------------------------------------------------- players, cards, deal
def test_P1_four_players_each_for_himself(v):
    """[P1]: four players, each his own score column."""
    assert v.players == 4 and State(v, seed=1).sheet.columns == ["N", "E", "S", "W"]
    assert not v.scoring.by_side


def test_P2_two_packs_pack_two_only_decides_suits(v):
    """[P2]: 52 cards A high to 2 low are dealt; the second pack's card may be one a player
    holds (it is another pack) and only classes the suits."""
    assert v.deck.size == 52 and v.hand_size == 13
    s = start(v, turn="AS")                      # AS is also in seat 2's hand
    assert s.hand.hands[2] >> v.deck.index["AS"] & 1
    assert s.observation(0).phase_data["suit_classes"] == {"S": 1, "C": 2, "H": 3, "D": 3}


def test_D1_thirteen_each_one_at_a_time_from_the_dealers_left(v):
    """[D1]: one card at a time clockwise from the dealer's left, 13 each."""
    s = start(v, dealer=0)
    for seat, cards in NULL_HANDS.items():
        assert sorted(v.deck.names_of(s.hand.dealt[seat])) == sorted(cards)
    order = s.hand.deck_order
    assert [v.deck.name(order[i]) for i in range(4)] == ["2S", "AS", "JS", "8S"]   # seats 1 2 3 0


@pytest.mark.parametrize("turn, classes", [("2H", {"H": 1, "D": 2, "S": 3, "C": 3}),
                                           ("7D", {"D": 1, "H": 2, "S": 3, "C": 3}),
                                           ("QC", {"C": 1, "S": 2, "H": 3, "D": 3})])
def test_D2_turned_card_sets_first_second_third_suits(v, turn, classes):
    """[D2]: the player opposite the dealer (choice) turns pack 2's top card; its suit is first,
    the other of its colour second, both of the other colour third; everyone sees it."""
    s = State(v, seed=3, deals=[deal_of(NULL_HANDS, 1)], dealer=1)
    assert s.to_move == 3                          # opposite dealer 1
    s.apply(f"turn {turn}")
    assert s.history[0] == (3, f"turn {turn}")     # stored in the record like an action
    for seat in range(4):
        assert s.observation(seat).phase_data["suit_classes"] == classes


def test_D3_deal_passes_clockwise(v):
    """[D3]: the next dealer is the player on the dealer's left."""
    s = start(v, dealer=0)
    for _ in range(4):
        s.apply("pass")                            # [A3] all pass: thrown in
    assert s.hand.number == 1 and s.hand.dealer == 1


# ---------------------------------------------------------------------- auction
def test_A1_eldest_speaks_first_then_clockwise(v):
    """[A1]: the player left of the dealer speaks first."""
    s = start(v, dealer=2)
    assert s.phase_kind == "list_auction" and s.to_move == 3
    s.apply("5S")
    assert s.to_move == 0


def test_A2_values_by_suit_class_and_ties_cannot_overcall(v):
    """[A2]: bids rank by value; with hearts first, 5H is worth 3, 5D 2, 5S and 5C 1, and the
    two third suits cannot overcall each other."""
    s = start(v)
    vals = {b.text: b.value for b in s.current_bids()}
    assert [vals[t] for t in ("5H", "5D", "5S", "5C")] == [3, 2, 1, 1]
    assert [vals[t] for t in ("6H", "7H", "8H", "9H", "13H")] == [8, 13, 18, 23, 50]
    assert [vals[t] for t in ("6D", "7D", "8D", "9D", "13D")] == [7, 12, 17, 22, 49]
    assert [vals[t] for t in ("6C", "7C", "8C", "9C", "13C")] == [6, 11, 16, 21, 48]
    assert [vals[t] for t in ("LN", "BN", "LO", "BO")] == [15, 25, 35, 45]
    s.apply("5S")
    with pytest.raises(IllegalActionError, match=r"5C \(1\) is not worth more than the highest bid 5S \(1\) "
                                                 r"\(equal games cannot overcall each other\)"):
        s.apply("5C")
    s.apply("5D")


def test_A3_pass_is_final_and_all_pass_throws_in(v):
    """[A3]: a player who passes is out (choice); after a bid the auction ends when all others
    have passed; four passes throw the deal in (choice) and the next dealer deals."""
    s = start(v)
    bids_to(s, "pass", "5S", "pass")               # seats 1 2 3
    assert s.to_move == 0
    s.apply("pass")
    assert s.hand.contract is not None and s.hand.declarer == 2
    s2 = start(v)
    bids_to(s2, "pass", "pass", "pass", "pass")
    assert s2.sheet.rows[0].void and s2.hand.number == 1 and s2.hand.dealer == 1


def test_example5_A2_six_then_little_null_then_eight_in_second(v):
    """Worked example 5 [A2]: 6 in a third suit (6), then little null (15), then 8 in the
    second suit (17): 8 in the second suit is the contract."""
    s = start(v, turn="2H")
    bids_to(s, "6S", "LN", "8D", "pass", "pass", "pass")
    assert s.hand.contract.text == "8D" and s.hand.contract.value == 17 and s.hand.declarer == 3


# ---------------------------------------------------------------------- partners
def _five_spades_by_seat1(v):
    s = start(v)
    bids_to(s, "5S", "pass", "pass", "pass")
    assert s.phase_kind == "call_partner" and s.to_move == 1
    return s


def test_B5_invite_first_acceptance_wins(v):
    """[B5]: the declarer of a 5-trick game invites; each other player in turn, clockwise from
    him, may accept; the first acceptance wins."""
    s = _five_spades_by_seat1(v)
    s.apply("invite")
    assert s.to_move == 2
    s.apply("pass")
    s.apply("accept")                              # seat 3
    assert s.hand.partner == 3 and s.phase_kind == "tricks" and s.to_move == 1


def test_B5_offer_may_be_refused(v):
    """[B5]: a player may offer ("I play with you") when his turn comes; the declarer may refuse."""
    s = _five_spades_by_seat1(v)
    s.apply("alone")
    s.apply("offer")                               # seat 2
    s.apply("refuse")
    assert s.to_move == 3 and s.hand.partner == -1
    s.apply("pass")
    s.apply("pass")                                # seat 0
    assert s.hand.partner == -1 and s.phase_kind == "tricks"


@pytest.mark.parametrize("calls", [("7S", "pass", "pass", "pass"), ("BN", "pass", "pass", "pass")])
def test_B5_seven_or_more_and_nulls_are_played_alone(v, calls):
    """[B5]: games of 7 or more tricks and null games are always played alone."""
    s = start(v)
    bids_to(s, *calls)
    assert s.phase_kind == "tricks" and s.hand.partner == -1


def test_example2_B5_S1_S2_five_third_with_partner(v):
    """Worked example 2 [B5][S1][S2]: 5 in spades (third, hearts first) with a partner: together
    8 needed; 9 won: each scores 1 + 2 = 3; 7 won: each loses 1."""
    s = start(v, turn="2H")
    assert score(v, s, "5S", 1, [0, 5, 4, 4], partner=2) == [0, 3, 3, 0]
    assert score(v, s, "5S", 1, [3, 4, 3, 3], partner=2) == [0, -1, -1, 0]


# ---------------------------------------------------------------------- play
def test_T1_declarer_leads_T2_null_has_no_trumps(v):
    """[T1]: the declarer leads to the first trick. [T2]: a null game has no trumps."""
    s = start(v)
    bids_to(s, "pass", "BN", "pass", "pass")
    assert s.hand.declarer == 2 and s.to_move == 2 and s.hand.trump == "NT"


def test_T2_follow_suit_else_any_card_highest_trump_wins(v):
    """[T2]: players must follow suit; one who cannot may play any card (choice); the highest
    trump wins the trick, else the highest card of the suit led."""
    s = start(v)
    bids_to(s, "7H", "pass", "pass", "pass")       # seat 1 declares hearts
    s.apply("2S")
    with pytest.raises(IllegalActionError, match="you must follow spades"):
        s.apply("7H")
    s.apply("AS")
    s.apply("JS")
    s.apply("8S")
    assert s.hand.trick_winners == [2]
    s.apply("2C")                                  # seat 2 leads clubs
    s.apply("6C")
    s.apply("AC")
    assert [a.text for a in s.legal_actions()][:1] and "play AH" in [a.text for a in s.legal_actions()]
    s.apply("2H")                                  # seat 1 has no club: any card, a trump
    assert s.hand.trick_winners == [2, 1]


def test_example3_T3_S2_big_null_failed_on_trick_4(v):
    """Worked example 3 [S2][T3]: a big null whose declarer wins trick 4: −25, play stops at trick 4."""
    s = start(v)
    bids_to(s, "BN", "pass", "pass", "pass")
    h = s.hand
    for card in ("2S", "AS", "JS", "8S",      # seat 2 wins
                 "7H", "10H", "KH", "2H",     # seat 0 wins
                 "5S", "3S", "KS", "10S",     # seat 2 wins
                 "8H", "JH", "AC", "AH"):     # seat 1, the declarer, wins trick 4
        s.apply(card)
    assert len(h.tricks) == 4 and h.won[1] == 1
    assert h.entries == [0, -25, 0, 0] and s.hand is not h
    assert "BN failed (1 trick)" in s.sheet.rows[0].note


def test_T3_little_null_card_aside_and_thirteenth_trick_of_three(v):
    """[T3]: little null: the declarer puts one card aside face down and plays 12 against 13;
    the 13th trick is played by the other three alone; made: +15."""
    s = start(v)
    bids_to(s, "LN", "pass", "pass", "pass")
    assert s.phase_kind == "set_aside" and s.to_move == 1
    s.apply("discard AH")
    h = s.hand
    assert h.hands[1].bit_count() == 12 and s.observation(2).hidden_discards == 1
    strength = v.contexts["NT"].strength
    while s.hand is h:
        legal = s.legal_actions()
        # the declarer ducks as low as he can; the others play their highest
        pick = min if s.to_move == 1 else max
        s.apply(pick(legal, key=lambda a: strength[a.card]))
    assert len(h.tricks) == 13 and h.won[1] == 0
    assert sorted(p for p, _c in h.tricks[-1][1]) == [0, 2, 3]
    assert h.entries == [0, 15, 0, 0]


def test_open_games_lie_face_up(v):
    """Little open: the declarer's 12 cards lie face up before the first lead; big open: his
    12 remaining cards after the first trick (rules/boston.md, null games)."""
    s = start(v)
    bids_to(s, "LO", "pass", "pass", "pass")
    s.apply("discard AH")
    assert s.observation(0).open_hands == s.hand.hands[1] and s.observation(0).open_hands.bit_count() == 12
    s2 = start(v)
    bids_to(s2, "BO", "pass", "pass", "pass")
    assert s2.observation(0).open_hands == 0
    for c in ("2S", "AS", "JS", "8S"):
        s2.apply(c)
    assert s2.observation(3).open_hands == s2.hand.hands[1] and s2.hand.hands[1].bit_count() == 12


# ---------------------------------------------------------------------- scoring
def test_example1_S1_seven_in_second_made_with_eight(v):
    """Worked example 1 [S1]: hearts first: 7 in diamonds (second) made with 8 tricks: 12 + 2 = 14."""
    s = start(v, turn="2H")
    assert score(v, s, "7D", 1, [2, 8, 2, 1]) == [0, 14, 0, 0]


def test_example4_S1_thirteen_in_first_made(v):
    """Worked example 4 [S1]: 13 tricks in the first suit made: +50."""
    s = start(v, turn="2H")
    assert score(v, s, "13H", 3, [0, 0, 0, 13]) == [0, 0, 0, 50]


def test_S2_game_failed_loses_its_value(v):
    """[S2]: too few tricks loses the game's value (8 in the second suit: −17)."""
    s = start(v, turn="2H")
    assert score(v, s, "8D", 0, [7, 2, 2, 2]) == [-17, 0, 0, 0]


def test_S3_match_of_eight_deals_highest_total_wins(v):
    """[S3]: a match lasts 8 deals (setting); the highest total wins."""
    assert v.match.deals == 8 and not v.scoring.lower_is_better
    s = State(v, seed=5)
    bots = [RandomBot(i) for i in range(4)]
    while not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    totals = s.result()["totals"]
    assert s.hands_played == 8 and s.winners == [i for i, t in enumerate(totals) if t == max(totals)]


# ---------------------------------------------------------------------- bots, records, CLI
LOW = {1: "2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 2C 3C".split(),
       2: "AS KS QS JS AH KH QH JH 6D 7D 8D 4C 5C".split(),
       3: "10S 9S 8S 10H 9H 8H AD KD QD 6C 7C 8C 9C".split(),
       0: "7S 6S 7H 6H JD 10D 9D 5D 10C JC QC KC AC".split()}


def test_sensible_bot_bids_a_null_on_a_low_hand(v):
    """The sensible bot bids a null game when its hand suits it (all low cards)."""
    s = start(v, hands=LOW)
    bot = SensibleBot(seed=2, samples=3, bid_samples=8)
    a = bot.act(s.observation(1))
    assert a.kind == "bid" and a.text in ("LN", "BN", "LO", "BO")


def test_bots_play_several_seeded_matches_to_a_winner(v):
    """Done when: seeded matches end with a winner after 8 deals (a sensible
    bot, cheaply sampled, at seat 0 and random bots elsewhere, to keep the test fast)."""
    for seed in (1, 2, 3, 4):
        s = State(v, seed=seed)
        first = SensibleBot(seed=seed, samples=1, bid_samples=2) if seed == 1 else RandomBot(seed)
        bots = [first] + [RandomBot(seed + i) for i in (1, 2, 3)]
        while not s.is_over:
            s.apply(bots[s.to_move].act(s.observation(s.to_move)))
        assert s.winners and s.end_reason == "8 deals played"


def test_record_replays_the_turned_card_exactly(v):
    """Chance events are stored with the actions: replaying the history of a match (a real
    table's turned card included) gives the same sheet."""
    s = start(v, turn="KD")
    bots = [RandomBot(i) for i in range(4)]
    while s.hand.number == 0:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    r = State(v, seed=1, deals=[deal_of(NULL_HANDS, 0)], dealer=0)
    for _seat, text in s.history:
        if r.hand.number:
            break
        r.apply(text)
    assert r.sheet.totals() == s.sheet.totals() and r.hand_log[0].trump == s.hand_log[0].trump


def test_cli_shows_suit_classes_and_bid_values(v, tmp_path):
    """``rulekit play boston`` for a human: the turned card and suit classes are on the table and
    ``?`` shows each bid with its value this hand (the bid-worth display)."""
    from typer.testing import CliRunner
    from cli.app import app
    r = CliRunner().invoke(app, ["play", "boston", "--seed", "3", "--players", "human,bot,bot,bot",
                                 "--save", str(tmp_path / "g.json")], input="?\nquit\n")
    out = r.output
    assert "second pack" in out and "first" in out and "third" in out
    import re
    m = re.search(r"legal: pass, (.*)", out)
    assert m and "5" in m.group(1) and "(" in m.group(1)


def test_boston_explain_lists_the_contracts_with_values():
    """The list in its order, with what each contract undertakes and is worth (5
    tricks: 3, 2 or 1 by suit class, a partner; little open: 35, one card aside, the hand face
    up before the lead), in one paragraph (describe() is sentences, no line breaks)."""
    v = load_variant("boston")
    text = REGISTRY["list_auction"].describe(v.phase("list_auction"))
    assert "\n" not in text and "equal values cannot overcall each other" in text
    assert "The contracts, in the list's order: 5S, 5H, 5D, 5C: 5 tricks or more, the suit bid trumps, " \
           "a partner may be called, worth 3, 2 or 1 (suit class 1, 2, 3); " in text
    assert "; BN (big null): no trick (a null), at no trump, worth 25; " in text
    assert "; LO (little open): no trick (a null), at no trump, 1 card put aside, the hand face up before " \
           "the lead, worth 35; " in text
    assert "; BO (big open): no trick (a null), at no trump, the hand face up after the first trick, worth 45; " in text
    assert text.endswith("13S, 13H, 13D, 13C: 13 tricks or more, the suit bid trumps, worth 50, 49 or 48 "
                         "(suit class 1, 2, 3).")
    assert text in explain(v)
