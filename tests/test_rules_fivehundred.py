"""Every rule id and worked example of shared/rules/fivehundred.md as a test.

Each test names the rule ids it checks.  Most situations are reached by real
play from explicit deals (``deal_500`` builds the dealing order of [D3] from
the hands we want); a few scoring examples are scored directly with the
helpers of :mod:`rulekit.engine.scoring` on constructed counts or hands.
Expected numbers come from the rules page, never from the engine.
"""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.actions import PASS
from rulekit.engine.hand import Hand
from rulekit.engine.phases import kind_of
from rulekit.engine.scoring import envs_for, formulas_for, match_result, score_hand
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant


def deal_500(dealer: int, hands: dict, widow: list) -> list:
    """Dealing order that gives ``hands`` (seat -> 10 card texts) and ``widow``.

    [D3]: from the eldest hand (dealer + 1) clockwise, three rounds of 3 cards
    then one round of 1; [D4]: the last 3 cards are the widow.
    """
    eldest = (dealer + 1) % 3
    pos = {s: 0 for s in range(3)}
    order: list = []
    for size in (3, 3, 3, 1):
        for k in range(3):
            s = (eldest + k) % 3
            order += hands[s][pos[s]:pos[s] + size]
            pos[s] += size
    assert all(len(hands[s]) == 10 for s in range(3)) and len(widow) == 3
    return order + list(widow)


def split(text: str) -> list:
    return text.split()


def relabel(cards, mapping: dict):
    """Rename suits in card texts (``JS`` -> ``JH`` with ``{"S": "H"}``); bids too."""
    def one(c: str) -> str:
        if c == "JK" or c.startswith("JK:"):
            return c if ":" not in c else "JK:" + mapping.get(c[3:], c[3:])
        return c[:-1] + mapping.get(c[-1], c[-1])
    if isinstance(cards, str):
        return " ".join(one(c) for c in cards.split())
    return [one(c) for c in cards]


def play(state: State, script: list) -> State:
    """Apply calls, discards and tricks.  A trick is a string of cards in the order
    played from its leader; ``JK:H`` leads the Joker naming hearts."""
    for item in script:
        if item == "pass" or item.startswith("discard") or item.startswith("trump") or " " not in item:
            state.apply(item)
            continue
        for c in item.split():
            state.apply(c.replace(":", " "))
    return state


def legal_texts(state: State) -> list:
    return sorted(a.text for a in state.legal_actions())


def refused(state: State, text: str) -> str:
    """The reason the engine gives for refusing ``text`` (fails if it is accepted)."""
    with pytest.raises(IllegalActionError) as e:
        state.check(state.parse_action(text))
    return str(e.value)


def bid(v, text: str):
    return next(b for b in v.phase("ladder_auction").bids if b.text == text)


def entries_for(v, bid_text: str, won: list, declarer: int = 0, trump: str | None = None) -> list:
    """Score entries from trick counts alone (scoring helpers, no play)."""
    b = bid(v, bid_text)
    trump = trump or b.strain
    envs = envs_for(v, b, declarer, trump, won, [0] * v.players)
    fs = formulas_for(v, b, declarer)
    return [int(fs[s](envs[s])) for s in range(v.players)]


def constructed_hand(v, bid_text: str | None, declarer: int, trump: str, trick_winners: list) -> Hand:
    """A finished :class:`Hand` built by hand (no play): tricks won in this order."""
    h = Hand(0, 2, v.players)
    if bid_text is not None:
        h.contract = bid(v, bid_text)
    h.declarer = declarer
    h.trump = trump
    h.ctx = v.contexts[trump]
    for w in trick_winners:
        h.tricks.append((w, (), w, ""))
        h.trick_winners.append(w)
        h.won[w] += 1
    return h


@pytest.fixture(scope="module")
def v():
    return load_variant("fivehundred")


# --------------------------------------------------------------------------- deals
# Deal A (dealer 2, so seat 0 is eldest and bids first): seat 0 holds 8 trumps in
# spades.  Used by worked examples 1, 2, 8, 9 and the 500 end-of-game rules.
A_HANDS = {0: split("JK JS JC AS KS QS 10S 9S 7H 7D"),
           1: split("8S AH KH QH JH 8H AD KD QD JD"),
           2: split("7S AC KC QC 10C 9C 8C 10D 10H 9H")}

A_WIDOW = split("7C 9D 8D")

A_DEAL = deal_500(2, A_HANDS, A_WIDOW)

A_TRUMP_TRICKS = ["JK 8S 7S", "JS AH AC", "JC KH KC", "AS QH QC", "KS JH 10C", "QS JD 9C"]


# 8 tricks for the declarer: discard the widow, run 8 trumps, lose 7H and 7D.
A_EIGHT = ["8S", "pass", "pass", "discard 7C 9D 8D", *A_TRUMP_TRICKS,
           "10S QD 10D", "9S KD 8C", "7H 8H 10H", "9H 7D AD"]


# 7 tricks: discard 9S; seat 1 wins tricks 8 and 9, seat 2 trick 10.
A_SEVEN = ["8S", "pass", "pass", "discard 9S 7C 9D", *A_TRUMP_TRICKS,
           "10S QD 8C", "7D AD 10D", "KD 9H 8D", "8H 10H 7H"]


# 7 tricks again, but seat 2 wins trick 8 and seat 1 tricks 9 and 10.
A_SEVEN_B = ["8S", "pass", "pass", "discard 9S 7C 9D", *A_TRUMP_TRICKS,
             "10S QD 8C", "7H 8H 10H", "10D 7D AD", "KD 9H 8D"]


# 6 tricks: discard 10S and 9S too.
A_SIX = ["8S", "pass", "pass", "discard 10S 9S 7C", *A_TRUMP_TRICKS,
         "7D AD 10D", "KD 8C 8D", "QD 9H 9D", "8H 10H 7H"]


# Deal E (example 13, trumps spades): seat 1 holds J♣, clubs and hearts, no spades;
# seat 2 holds the Joker as his only trump.
E_HANDS = {0: split("AS KS QS 10S 9S 7H 8H 7D 8D 9D"),
           1: split("JC 7C 8C 9C 9H AH KH QH JH 10H"),
           2: split("JK AC KC QC 10C AD KD QD JD 10D")}

E_WIDOW = split("JS 8S 7S")

E_DEAL = deal_500(2, E_HANDS, E_WIDOW)

E_AUCTION = ["6S", "pass", "pass", "discard 8H 7D 8D"]


# Deal N (no contract, example 11): tricks 5 / 3 / 2.
N_HANDS = {0: split("AS KS QS JS 10S 7C 8C 9C 7D 8D"),
           1: split("AC KC QC 7H 8H JC 10C QH JH 10H"),
           2: split("AH KH 7S 9D 10D JD QD KD AD 9H")}

N_WIDOW = split("JK 9S 8S")

N_DEAL = deal_500(2, N_HANDS, N_WIDOW)

N_PLAY = ["pass", "pass", "pass",
          "AS JC 7S", "KS 10C 9D", "QS QH 10D", "JS JH JD", "10S 10H QD",
          "7C AC KD", "KC AD 8C", "QC 9H 9C", "7H AH 7D", "KH 8D 8H"]


# Deal J (example 12, no contract): seat 1 fails diamonds, then leads the Joker.
J_HANDS = {0: split("7D 8D 9D 8S 9S 10S 7H 8H 7C 8C"),
           1: split("JK AS KS QS 9C 10C JC QC KC AC"),
           2: split("AD KD QD 7S AH KH QH JH 10H 9H")}

J_WIDOW = split("JS JD 10D")

J_DEAL = deal_500(2, J_HANDS, J_WIDOW)


# Deal T (10NT then 10T): seat 1 holds all ten hearts trumps.
T_HANDS = {0: split("AS KS QS JS 10S 9S 8S 7S AC KC"),
           1: split("JK JH JD AH KH QH 10H 9H 8H 7H"),
           2: split("QC JC 10C 9C 8C 7C AD KD QD 10D")}

T_WIDOW = split("9D 8D 7D")

T_DEAL = deal_500(2, T_HANDS, T_WIDOW)


# Deal X (example 10): seat 0 can take all ten tricks at no trump.
X_HANDS = {0: split("JK AS KS QS JS 10S 9S 8S 7S AH"),
           1: split("AC KC QC JC 10C 9C 8C 7C KH QH"),
           2: split("AD KD QD JD 10D 9D 8D 7D JH 10H")}

X_WIDOW = split("9H 8H 7H")

X_DEAL = deal_500(2, X_HANDS, X_WIDOW)

X_PLAY = ["10NT", "pass", "pass", "discard 9H 8H 7H",
          "AS 7C 7D", "KS 8C 8D", "QS 9C 9D", "JS 10C 10D", "10S JC JD", "9S QC QD",
          "8S KC KD", "7S AC AD", "AH QH 10H", "JK:H KH JH"]


# --------------------------------------------------------------------------- players, cards
def test_P1_three_players_seats_clockwise(v):
    """[P1] three players, each for himself; seats 0 1 2 clockwise; [A1] eldest speaks first."""
    assert v.players == 3
    with pytest.raises(VariantError):
        load_variant("fivehundred", players=4)
    s = State(v, deals=[A_DEAL], dealer=2)
    assert s.to_move == 0
    s.apply("pass")
    assert s.to_move == 1
    s.apply("pass")
    assert s.to_move == 2


def test_P2_deck_33_cards_with_joker_and_colours(v):
    """[P2] 7..A in four suits plus one Joker; spades and clubs black, diamonds and hearts red."""
    deck = v.deck
    assert deck.size == 33
    expected = {r + s for s in "SCDH" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")} | {"JK"}
    assert set(deck.names) == expected
    assert deck.colours == {"S": "black", "C": "black", "D": "red", "H": "red"}


# --------------------------------------------------------------------------- first dealer, deal
CUT_RANKS = ["JK", "A", "7", "8", "9", "10", "J", "Q", "K"]      # [D1] low to high

CUT_SUITS = ["S", "C", "D", "H"]                                 # [D1] low to high


def _cut_key(name: str):
    if name == "JK":
        return (0, -1)
    return (CUT_RANKS.index(name[:-1]), CUT_SUITS.index(name[-1]))


def test_D1_lowest_cut_deals_with_special_order(v):
    """[D1] each player cuts; lowest deals; Joker < A < 7 < ... < K; ties spades < clubs < diamonds < hearts."""
    seen_joker = seen_ace_vs_seven = seen_suit_tie = False
    for seed in range(300):
        s = State(v, seed=seed)
        names = [v.deck.name(c) for c in s.cut]
        assert len(names) == 3
        want = min(range(3), key=lambda i: _cut_key(names[i]))
        assert s.first_dealer == want, (seed, names)
        assert s.hand.dealer == want
        ranks = [n if n == "JK" else n[:-1] for n in names]
        seen_joker |= "JK" in names
        seen_ace_vs_seven |= "A" in ranks and any(r in ranks for r in ("7", "K"))
        seen_suit_tie |= len(set(ranks)) < 3
    assert seen_joker and seen_ace_vs_seven and seen_suit_tie


def test_D1_cut_order_table(v):
    """[D1] the whole cut order: JK, then aces, then 7..K, each rank spades < clubs < diamonds < hearts."""
    st = v.first_dealer["strength"]
    order = sorted(v.deck.names, key=lambda n: st[v.deck.parse(n)])
    want = ["JK"] + [r + s for r in ["A", "7", "8", "9", "10", "J", "Q", "K"] for s in CUT_SUITS]
    assert order == want


def test_D2_deal_passes_left(v):
    """[D2] after a hand the deal passes to the left (next seat clockwise)."""
    s = play(State(v, deals=[N_DEAL], dealer=2), N_PLAY)
    assert len(s.sheet.rows) == 1 and not s.is_over
    assert s.hand.number == 1 and s.hand.dealer == 0 and s.hand.eldest == 1
    assert s.to_move == 1  # [A1] eldest hand of the new deal speaks first


def test_D3_deal_packets_from_eldest(v):
    """[D3] three rounds of 3 then one of 1, clockwise from the dealer's left; [D4] last 3 are the widow."""
    order = list(v.deck.names)  # deck order as the dealing order: position i is card i
    for dealer in range(3):
        s = State(v, deals=[order], dealer=dealer)
        h = s.hand
        eldest = (dealer + 1) % 3
        for k in range(3):
            seat = (eldest + k) % 3
            positions = [9 * r + 3 * k + j for r in range(3) for j in range(3)] + [27 + k]
            assert v.deck.names_of(h.hands[seat]) == sorted(
                (order[p] for p in positions), key=v.deck.parse), (dealer, seat)
        assert v.deck.names_of(h.zones["widow"]) == order[30:33]


def test_D4_widow_face_up_during_auction(v):
    """[D4] the widow lies face up during the auction: every seat sees it."""
    s = State(v, deals=[A_DEAL], dealer=2)
    widow = v.deck.parse_mask(A_WIDOW)
    for seat in range(3):
        assert s.observation(seat).widow == widow
    s.apply("7S")
    for seat in range(3):
        assert s.observation(seat).widow == widow


# --------------------------------------------------------------------------- ranking
def _order(ctx, deck, group):
    cards = [c for c in range(deck.size) if ctx.group_of[c] == group]
    return [deck.name(c) for c in sorted(cards, key=lambda c: -ctx.strength[c])]

SISTER = {"S": "C", "C": "S", "D": "H", "H": "D"}


@pytest.mark.parametrize("trump", ["S", "C", "D", "H"])
def test_R1_R2_trump_ranking_tables(v, trump):
    """[R1] Joker > right bower > left bower > A K Q 10 9 8 7 of trumps (10 trumps);
    [R2] the sister suit has 7 cards A K Q 10 9 8 7, the others A K Q J 10 9 8 7."""
    ctx, deck = v.contexts[trump], v.deck
    ti = deck.suits.index(trump)
    assert _order(ctx, deck, ti) == ["JK", "J" + trump, "J" + SISTER[trump]] + \
        [r + trump for r in ("A", "K", "Q", "10", "9", "8", "7")]
    assert ctx.trump_group == ti
    for s in deck.suits:
        if s == trump:
            continue
        ranks = ["A", "K", "Q", "10", "9", "8", "7"] if s == SISTER[trump] else \
            ["A", "K", "Q", "J", "10", "9", "8", "7"]
        assert _order(ctx, deck, deck.suits.index(s)) == [r + s for r in ranks]


def test_R3_no_trump_ranking(v):
    """[R3] at no trump the Joker is highest and belongs to no suit; suits rank A K Q J 10 9 8 7."""
    ctx, deck = v.contexts["NT"], v.deck
    for i, s in enumerate(deck.suits):
        assert _order(ctx, deck, i) == [r + s for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]
    assert _order(ctx, deck, len(deck.suits)) == ["JK"]


def test_example13_R1_T2_left_bower_must_follow_trump_lead(v):
    """Example 13 [R1][T2]: trumps spades; holding J♣, clubs and hearts, a spade lead forces the J♣."""
    s = play(State(v, deals=[E_DEAL], dealer=2), E_AUCTION)
    assert s.hand.trump == "S" and s.to_move == 0  # [T1] declarer leads
    s.apply("7S")
    assert legal_texts(s) == ["play JC"]
    assert "must follow trumps (spades): you hold J♣" in refused(s, "10H")
    assert "must follow" in refused(s, "7C")
    s.apply("JC")
    # [T5] the Joker is seat 2's last trump: he must play it to a trump lead ...
    assert legal_texts(s) == ["play JK"]
    s.apply("JK")
    # [T3] ... and it wins: Joker > left bower > 7♠.
    assert s.hand.tricks[0][2] == 2


def test_example13_R1_T2_left_bower_is_not_a_club(v):
    """Example 13 [R1][T2]: to a club lead he must play a club, and the J♣ is not a club."""
    s = play(State(v, deals=[E_DEAL], dealer=2), E_AUCTION)
    s.apply("9D")
    # [T2] default: void in diamonds, seat 1 may play any card (his trump too).
    assert len(s.legal_actions()) == 10
    s.apply("9H")
    # seat 2 holds diamonds: he must follow; the Joker is a trump, not a diamond [T5].
    assert legal_texts(s) == ["play 10D", "play AD", "play JD", "play KD", "play QD"]
    assert "must follow diamonds" in refused(s, "JK")
    s.apply("AD")
    assert s.hand.tricks[0][2] == 2 and s.to_move == 2  # [T1] winner leads
    s.apply("AC")
    s.apply("7H")
    assert legal_texts(s) == ["play 7C", "play 8C", "play 9C"]
    assert refused(s, "JC") == "you must follow clubs: you hold 7♣ 8♣ 9♣"


def test_T3_trump_beats_higher_card_of_led_suit(v):
    """[T3] a trick is won by the highest trump in it: the left bower (a trump) beats A♦ on a diamond lead."""
    s = play(State(v, deals=[E_DEAL], dealer=2), E_AUCTION)
    play(s, ["9D JC AD"])
    assert s.hand.tricks[0][2] == 1
    # with no trump in it, the highest card of the suit led wins: 7♥ led, A♥ beats it, J♦ is off-suit
    s2 = play(State(v, deals=[E_DEAL], dealer=2), E_AUCTION)
    play(s2, ["7H AH JD"])
    assert s2.hand.tricks[0][2] == 1


def test_T5_joker_may_be_played_when_void(v):
    """[T5] at trumps the Joker may be played whenever its holder cannot follow, and wins as the top trump."""
    s = play(State(v, deals=[E_DEAL], dealer=2), E_AUCTION)
    s.apply("7H")
    s.apply("AH")
    assert "play JK" in legal_texts(s) and len(s.legal_actions()) == 10
    s.apply("JK")
    assert s.hand.tricks[0][2] == 2


# --------------------------------------------------------------------------- auction
def test_A1_A2_bid_ladder(v):
    """[A1] eldest first; [A2] 25 bids 6♠ < 6♣ < 6♦ < 6♥ < 6NT < 7♠ ... < 10NT; a bid must be higher."""
    s = State(v, deals=[A_DEAL], dealer=2)
    ladder = [f"{lv}{st}" for lv in range(6, 11) for st in ("S", "C", "D", "H", "NT")]
    assert [a.text for a in s.legal_actions()] == ["pass"] + ladder   # 10T not yet [A4]
    s.apply("7H")
    assert [a.text for a in s.legal_actions()] == ["pass"] + ladder[ladder.index("7NT"):]
    assert refused(s, "7H") == "7H does not outrank the highest bid 7H"
    assert "does not outrank" in refused(s, "6NT")
    assert "does not outrank" in refused(s, "7D")


def test_A3_pass_is_final_bidder_may_rebid(v):
    """[A3] a player who passed may not bid again; one who was outbid may bid again."""
    s = State(v, deals=[A_DEAL], dealer=2)
    play(s, ["pass", "6S", "6C"])
    assert s.to_move == 1            # seat 0 passed: skipped
    s.apply("7S")                    # seat 1 bids again after being outbid
    assert s.to_move == 2
    s.apply("pass")
    # only seat 1 is left holding the highest bid: the auction is over [A5]
    assert s.hand.declarer == 1 and s.hand.contract.text == "7S"
    passed = kind_of("ladder_auction").data_of(s.hand).passed
    assert 0 in passed and 2 in passed


def test_A4_ten_with_trump(v):
    """[A4] 10T only over 10NT; nothing outranks 10T; trumps named after the widow; scored as a
    ten-level contract in that suit ([S1] 10♥ = 500) and [G2] 10T in hearts wins at once."""
    s = State(v, deals=[T_DEAL], dealer=2, scores=[0, -200, 0])
    assert refused(s, "10T") == "10T may only overcall 10NT"
    s.apply("10NT")
    assert [a.text for a in s.legal_actions()] == ["pass", "10T"]
    s.apply("10T")
    assert [a.text for a in s.legal_actions()] == ["pass"]   # nothing outranks 10T
    play(s, ["pass", "pass"])
    assert s.hand.declarer == 1 and s.hand.contract.text == "10T"
    assert s.phase_kind == "widow_exchange"
    s.apply("discard 9D 8D 7D")
    assert s.phase_kind == "name_trump" and s.to_move == 1
    assert [a.text for a in s.legal_actions()] == ["trump S", "trump C", "trump D", "trump H"]
    s.apply("trump H")
    assert s.hand.trump == "H" and s.to_move == 1   # [T1] the declarer leads
    for card in ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H"]:
        s.apply(card)
        s.apply(s.legal_actions()[0])
        s.apply(s.legal_actions()[0])
    row = s.sheet.rows[0]
    assert row.entries == [0, 500, 0]
    assert row.totals == [0, 300, 0]
    assert s.winners == [1] and "at once" in s.end_reason


def test_A5_auction_ends_when_all_others_passed(v):
    """[A5] the auction ends when all but one have passed and he holds the highest bid."""
    s = play(State(v, deals=[A_DEAL], dealer=2), ["pass", "pass"])
    assert s.phase_kind == "ladder_auction" and s.to_move == 2
    s.apply("6S")
    assert s.hand.declarer == 2 and s.hand.contract.text == "6S"
    assert s.phase_kind == "widow_exchange"
    # all three pass: played without a contract [N1]
    s2 = play(State(v, deals=[A_DEAL], dealer=2), ["pass", "pass", "pass"])
    assert s2.hand.contract is None and s2.hand.declarer == -1 and s2.phase_kind == "tricks"


# --------------------------------------------------------------------------- widow exchange
def test_W1_widow_exchange(v):
    """[W1] declarer takes the widow, discards any 3 (widow cards too), seen by nobody else."""
    s = play(State(v, deals=[E_DEAL], dealer=2), ["6S", "pass", "pass"])
    h = s.hand
    widow = v.deck.parse_mask(E_WIDOW)
    assert h.zones["widow"] == 0 and h.hands[0] & widow == widow and h.hands[0].bit_count() == 13
    assert len(s.legal_actions()) == 286          # C(13, 3)
    assert refused(s, "discard 7H 8H") == "discard exactly 3 cards, not 2"
    assert "you do not hold AH" in refused(s, "discard AH 7H 8H")
    s.apply("discard JS 8S 7S")                   # just-taken cards may be discarded
    assert h.hands[0].bit_count() == 10
    assert s.observation(0).discards == widow
    for seat in (1, 2):
        o = s.observation(seat)
        assert o.discards == 0 and o.widow == 0 and o.hand & widow == 0


# --------------------------------------------------------------------------- play
def test_T1_declarer_leads_then_trick_winner(v):
    """[T1] the declarer leads to the first trick; the winner of each trick leads to the next."""
    s = play(State(v, deals=[A_DEAL], dealer=2), A_SEVEN)
    tricks = s.hand_log[0].tricks
    assert tricks[0][0] == 0
    for prev, nxt in zip(tricks, tricks[1:]):
        assert nxt[0] == prev[2]
    assert [t[2] for t in tricks] == [0] * 7 + [1, 1, 2]


def test_T4a_example12_joker_led_names_suit(v):
    """Example 12 [T4]: a player who failed diamonds leads the Joker at no trump: naming diamonds
    is refused, naming hearts is accepted and a player holding hearts must play one; the Joker wins."""
    s = play(State(v, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    assert s.hand.trump == "NT" and s.to_move == 0     # [N1] eldest leads
    play(s, ["7D 9C AD"])                               # seat 1 fails to follow diamonds
    play(s, ["7S 8S AS"])                               # seat 1 wins and leads
    assert s.to_move == 1
    assert [a.text for a in s.legal_actions() if a.card == v.deck.parse("JK")] == \
        ["play JK S", "play JK C", "play JK H"]
    msg = refused(s, "JK D")
    assert "diamonds" in msg and "failed to follow" in msg
    assert "name the suit" in refused(s, "JK")
    s.apply("JK H")
    assert legal_texts(s) == ["play 10H", "play 9H", "play AH", "play JH", "play KH", "play QH"]
    assert refused(s, "KD").startswith("you must follow hearts")
    s.apply("9H")
    assert legal_texts(s) == ["play 7H", "play 8H"]
    s.apply("7H")
    assert s.hand.tricks[2][2] == 1 and s.hand.tricks[2][3] == "H"


def test_T4b_joker_on_a_suit_lead_only_when_void(v):
    """[T4](b) the Joker may be played to a suit lead only when void in it; it then wins the trick."""
    s = play(State(v, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    s.apply("7D")
    assert "play JK" in legal_texts(s)                  # seat 1 has no diamond
    s.apply("JK")
    s.apply("AD")
    assert s.hand.tricks[0][2] == 1                     # the Joker beats A♦
    s2 = play(State(v, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass", "7D 9C AD"])
    s2.apply("7S")
    s2.apply("8S")
    assert "play JK" not in legal_texts(s2)             # seat 1 holds spades
    assert refused(s2, "JK").startswith("you must follow spades")


def test_T4_exception_all_four_failed(v):
    """[T4] a leader who has failed in all four suits may name any suit.

    This case cannot arise in legal play: the Joker's holder gets the lead by winning
    the previous trick with a card of its led suit X (or as the first leader, before
    any failure), so he still held an X card and cannot have failed X before.  The
    test therefore marks the failures directly on the hand ([Hand.failed])."""
    s = play(State(v, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass", "7D 9C AD", "7S 8S AS"])
    s.hand.failed[1] = 0b1111
    assert [a.text for a in s.legal_actions() if a.card == v.deck.parse("JK")] == \
        ["play JK S", "play JK C", "play JK D", "play JK H"]
    s.apply("JK D")


def test_T6_illegal_plays_refused_with_reason(v):
    """[T6] illegal plays are refused with the reason; nothing changes."""
    s = play(State(v, deals=[E_DEAL], dealer=2), E_AUCTION)
    assert refused(s, "AH") == "you do not hold A♥"
    with pytest.raises(IllegalActionError, match="play a card now"):
        s.check(PASS)
    s.apply("7S")
    before = list(s.hand.hands)
    with pytest.raises(IllegalActionError):
        s.apply("AH")
    assert s.hand.hands == before and s.to_move == 1


# --------------------------------------------------------------------------- no contract
def test_example11_N1_N2_all_pass(v):
    """Example 11 [N1][N2]: all pass; no trump, eldest leads, widow unused; tricks 5/3/2 score +50 +30 +20."""
    s = State(v, deals=[N_DEAL], dealer=2)
    play(s, ["pass", "pass", "pass"])
    assert s.phase_kind == "tricks" and s.hand.trump == "NT" and s.to_move == 0
    h = s.hand
    play(s, N_PLAY[3:])
    assert h.won == [5, 3, 2]
    assert s.sheet.rows[0].entries == [50, 30, 20]
    widow = v.deck.parse_mask(N_WIDOW)
    assert h.zones["widow"] == widow                      # nobody took it
    assert all(m & widow == 0 for m in h.won_cards)
    assert h.discards == 0 and h.declarer == -1


# --------------------------------------------------------------------------- contract scoring
@pytest.mark.parametrize("level", range(6, 11))
@pytest.mark.parametrize("strain,s", [("S", 0), ("C", 1), ("D", 2), ("H", 3), ("NT", 4)])
def test_S1_contract_values(v, level, strain, s):
    """[S1] value = 40 + 20 s + 100 (level - 6): 6♠ 40 ... 6NT 120, 7♠ 140 ... 10NT 520."""
    value = 40 + 20 * s + 100 * (level - 6)
    made = entries_for(v, f"{level}{strain}", [level, 10 - level, 0])[0]
    failed = entries_for(v, f"{level}{strain}", [level - 1, 11 - level, 0])[0]
    assert (made, failed) == (value, -value)


def test_S1_anchor_values(v):
    """[S1] the values the page spells out."""
    anchors = {"6S": 40, "6NT": 120, "7S": 140, "10NT": 520}
    for text, value in anchors.items():
        level = bid(v, text).level
        assert entries_for(v, text, [level, 10 - level, 0])[0] == value


def test_example1_S1_S2_eight_spades_made(v):
    """Example 1 [S1][S2]: 8♠ bid and made with exactly 8 tricks: declarer +240."""
    s = play(State(v, deals=[A_DEAL], dealer=2), A_EIGHT)
    row = s.sheet.rows[0]
    assert s.hand_log[0].won == [8, 0, 2]
    assert row.entries == [240, 0, 20]
    assert row.note == "P0 8S made (8 tricks)"


def test_example2_S4_S5_eight_spades_failed(v):
    """Example 2 [S4][S5]: 8♠ with 7 tricks: declarer −240; opponents with 2 and 1 tricks +20, +10."""
    s = play(State(v, deals=[A_DEAL], dealer=2), A_SEVEN)
    assert s.hand_log[0].won == [7, 2, 1]
    assert s.sheet.rows[0].entries == [-240, 20, 10]


def test_example3_S1_S4_seven_hearts(v):
    """Example 3 [S1][S4]: 7♥ made +200; 7♥ failed with 6 tricks −200."""
    assert entries_for(v, "7H", [7, 2, 1])[0] == 200
    assert entries_for(v, "7H", [6, 3, 1])[0] == -200


def test_example4_S3_slam_250(v):
    """Example 4 [S3]: 6♦ with all 10 tricks scores +250, not 80 (helpers and real play)."""
    assert entries_for(v, "6D", [10, 0, 0]) == [250, 0, 0]
    assert entries_for(v, "6D", [9, 1, 0])[0] == 80
    assert entries_for(v, "6D", [8, 1, 1])[0] == 80
    hands = {0: split("JK JD JH AD KD QD 10D 9D 8D 7D"),
             1: split("AS KS QS JS 10S 9S 8S 7S AC KC"),
             2: split("QC JC 10C 9C 8C 7C AH KH QH 10H")}
    s = State(v, deals=[deal_500(2, hands, split("9H 8H 7H"))], dealer=2)
    play(s, ["6D", "pass", "pass", "discard 9H 8H 7H"])
    for card in hands[0]:
        s.apply(card)
        s.apply(s.legal_actions()[0])
        s.apply(s.legal_actions()[0])
    assert s.hand_log[0].won == [10, 0, 0]
    assert s.sheet.rows[0].entries == [250, 0, 0]


def test_example5_S2_S3_no_bonus_above_eight(v):
    """Example 5 [S2][S3]: 8♦ bid, 9 tricks: +280 (extra tricks earn nothing)."""
    assert entries_for(v, "8D", [9, 1, 0]) == [280, 10, 0]
    assert entries_for(v, "8D", [10, 0, 0])[0] == 280


def test_example6_S3_slam_not_for_big_contracts(v):
    """Example 6 [S3]: 10♠ with 10 tricks: +440 (the slam value does not apply, 440 > 250)."""
    assert entries_for(v, "10S", [10, 0, 0])[0] == 440


def test_S3_slam_threshold_is_value_below_250(v):
    """[S3] the slam applies when the value is below 250: 8♠ (240) with 10 tricks scores 250,
    8♣ (260) scores 260."""
    assert entries_for(v, "8S", [10, 0, 0])[0] == 250
    assert entries_for(v, "7NT", [10, 0, 0])[0] == 250
    assert entries_for(v, "8C", [10, 0, 0])[0] == 260


def test_S5_opponents_score_own_tricks(v):
    """[S5] each opponent scores 10 per trick he won, made or not."""
    assert entries_for(v, "6H", [6, 4, 0], declarer=0) == [100, 40, 0]
    assert entries_for(v, "6H", [5, 1, 4], declarer=1) == [50, -100, 40]
    assert entries_for(v, "9NT", [3, 5, 2], declarer=2) == [30, 50, -420]


def test_example7_S6_sheet_column_running_total(v):
    """Example 7 [S6]: a player makes 8♥ (+300) then fails 7♦ (−180): column total 120.
    Two real hands: the first dealt by seat 2, the second by seat 0 [D2]."""
    to_h = {"S": "H", "C": "D", "D": "S", "H": "C"}     # spades deal -> hearts deal
    to_d = {"S": "D", "C": "H", "D": "S", "H": "C"}     # spades deal -> diamonds deal
    hand1 = {s: relabel(A_HANDS[s], to_h) for s in range(3)}
    deal1 = deal_500(2, hand1, relabel(A_WIDOW, to_h))
    hand2 = {s: relabel(A_HANDS[s], to_d) for s in range(3)}
    deal2 = deal_500(0, hand2, relabel(A_WIDOW, to_d))
    s = State(v, deals=[deal1, deal2], dealer=2)
    play(s, ["8H", "pass", "pass"])
    play(s, relabel_script(A_EIGHT[3:], to_h))
    assert s.sheet.rows[0].entries == [300, 0, 20]
    assert s.hand.dealer == 0 and s.to_move == 1
    play(s, ["pass", "pass", "7D"])
    play(s, relabel_script(A_SIX[3:], to_d))
    rows = s.sheet.rows
    assert s.hand_log[1].won == [6, 3, 1]
    assert rows[1].entries == [-180, 30, 10]
    assert [r.entries[0] for r in rows] == [300, -180]
    assert [r.totals[0] for r in rows] == [300, 120]
    assert rows[1].totals == [120, 30, 30]


def relabel_script(script: list, mapping: dict) -> list:
    out = []
    for item in script:
        if item.startswith("discard"):
            out.append("discard " + relabel(item[8:], mapping))
        else:
            out.append(relabel(item, mapping))
    return out


def test_S6_scores_may_go_negative(v):
    """[S6] scores may go negative; the sheet keeps each entry and the running total."""
    s = play(State(v, deals=[A_DEAL], dealer=2), A_SEVEN)
    assert s.sheet.rows[0].totals == [-240, 20, 10]
    assert not s.is_over


# --------------------------------------------------------------------------- end of game
def test_G1_first_to_500_wins(v):
    """[G1] the first player to reach 500 or more wins."""
    s = play(State(v, deals=[A_DEAL], dealer=2, scores=[260, 0, 0]), A_EIGHT)
    assert s.sheet.totals() == [500, 0, 20] and s.winners == [0]
    s2 = play(State(v, deals=[A_DEAL], dealer=2, scores=[250, 0, 0]), A_EIGHT)
    assert s2.sheet.totals() == [490, 0, 20] and not s2.is_over


def test_example8_G3_declarer_wins_same_hand_tie(v):
    """Example 8 [G3]: opponent at 480 wins 2 tricks (+20 = 500), the declarer at 300 makes 8♠
    (+240 = 540): the declarer wins."""
    s = play(State(v, deals=[A_DEAL], dealer=2, scores=[300, 0, 480]), A_EIGHT)
    assert s.sheet.rows[0].entries == [240, 0, 20]
    assert s.sheet.totals() == [540, 0, 500]
    assert s.winners == [0]


def test_example9_G3_opponents_by_trick_order(v):
    """Example 9 [G3]: both opponents cross 500 on a failed contract: the one whose trick took him
    to 500 earlier wins.  Seat 1 (480) reaches 500 at trick 9, seat 2 (490) at trick 10."""
    s = play(State(v, deals=[A_DEAL], dealer=2, scores=[0, 480, 490]), A_SEVEN)
    assert s.sheet.rows[0].trick_winners == [0] * 7 + [1, 1, 2]
    assert s.sheet.totals() == [-240, 500, 500]
    assert s.winners == [1]


def test_example9_G3_trick_order_beats_higher_total(v):
    """[G3] trick order, not the total, decides: seat 2 (490) reaches 500 at trick 8; seat 1 (490)
    reaches it at trick 9 and ends higher (510), but seat 2 wins."""
    s = play(State(v, deals=[A_DEAL], dealer=2, scores=[0, 490, 490]), A_SEVEN_B)
    assert s.sheet.rows[0].trick_winners == [0] * 7 + [2, 1, 1]
    assert s.sheet.totals() == [-240, 510, 500]
    assert s.winners == [2]


def test_example10_G2_ten_no_trump_wins_at_once(v):
    """Example 10 [G2]: 10NT made by a player at −200: he wins the game at once."""
    s = play(State(v, deals=[X_DEAL], dealer=2, scores=[-200, 0, 0]), X_PLAY)
    assert s.hand_log[0].won == [10, 0, 0]
    assert s.sheet.rows[0].entries == [520, 0, 0]
    assert s.sheet.totals() == [320, 0, 0]
    assert s.winners == [0] and s.is_over


@pytest.mark.parametrize("text,trump,wins", [
    ("10H", "H", True), ("10NT", "NT", True), ("10T", "H", True),
    ("10T", "S", False), ("10S", "S", False), ("10D", "D", False), ("9NT", "NT", False)])
def test_G2_immediate_win_contracts(v, text, trump, wins):
    """[G2] 10♥, 10NT or 10T with hearts made wins at once; other contracts do not; a failed one never."""
    h = constructed_hand(v, text, 0, trump, [0] * 10)
    entries, void = score_hand(v, h)
    before = [-200, 0, 0]
    after = [b + e for b, e in zip(before, entries)]
    assert max(after) < 500
    result = match_result(v, h, before, after, 1)
    assert (result is not None and result[0] == [0]) == wins
    failed = constructed_hand(v, text, 0, trump, [0] * 8 + [1, 2])
    entries, _ = score_hand(v, failed)
    assert match_result(v, failed, before, [b + e for b, e in zip(before, entries)], 1) is None


def test_G3_trick_order_on_constructed_hand(v):
    """[G3] on a constructed hand: declarer 0 fails 8♠; seat 2 (480) wins tricks 1 and 2, seat 1
    (490) wins trick 3: seat 2 reached 500 first."""
    h = constructed_hand(v, "8S", 0, "S", [2, 2, 1, 0, 0, 0, 0, 0, 0, 0])
    entries, _ = score_hand(v, h)
    assert entries == [-240, 10, 20]
    before = [0, 490, 480]
    after = [b + e for b, e in zip(before, entries)]
    assert after == [-240, 500, 500]
    assert match_result(v, h, before, after, 1)[0] == [2]


def test_G4_minus_500_not_in_default_rules(v):
    """[G4] is a house option: under the default rules a player at −500 does not lose."""
    s = play(State(v, deals=[A_DEAL], dealer=2, scores=[-260, 0, 0]), A_SEVEN)
    assert s.sheet.totals()[0] == -500 and not s.is_over



def test_G1_house_rule_only_a_bid_made_wins():
    """[G1] under the house rule ``fivehundred-bid-to-win`` (Australian): declarer 0 fails 8♠;
    seat 1 (490) and seat 2 (480) pass 500 with defence tricks and play on (the standard rules
    end the match, [G3]); then seat 1 at 500 makes 6♠ with 6 tricks (+40): he wins; seat 2 at
    510 defending gets there too, but did not bid."""
    v = load_variant("fivehundred")
    house = load_variant("fivehundred-bid-to-win")
    h = constructed_hand(house, "8S", 0, "S", [2, 2, 1, 0, 0, 0, 0, 0, 0, 0])
    entries, _ = score_hand(house, h)
    before = [0, 490, 480]
    after = [b + e for b, e in zip(before, entries)]
    assert after == [-240, 500, 500]
    assert match_result(v, h, before, after, 1)[0] == [2]          # standard: [G3] trick order
    assert match_result(house, h, before, after, 1) is None         # house: nobody bid and made
    made = constructed_hand(house, "6S", 1, "S", [1] * 6 + [2] * 3 + [0])
    entries, _ = score_hand(house, made)
    assert entries == [10, 40, 30]
    after2 = [b + e for b, e in zip(after, entries)]
    assert after2 == [-230, 540, 530]
    assert match_result(house, made, after, after2, 2)[0] == [1]
    failed = constructed_hand(house, "6S", 1, "S", [1] * 5 + [2] * 5)
    entries, _ = score_hand(house, failed)
    after3 = [b + e for b, e in zip(after, entries)]
    assert after3 == [-240, 460, 550] and match_result(house, failed, after, after3, 2) is None


# --------------------------------------------------------------------------- conformance of the deals
def test_crafted_deals_are_complete(v):
    """Every crafted deal lists each of the 33 cards once (a guard on the test data)."""
    for d in (A_DEAL, E_DEAL, N_DEAL, J_DEAL, T_DEAL, X_DEAL):
        assert sorted(d) == sorted(v.deck.names)


def test_five_hundred_ten_t_scores_as_ten_in_the_suit_named():
    """An extra bid with strain chosen (Five Hundred's 10T) keeps
    ``strain`` = the place of the suit named."""
    from rulekit.engine.scoring import envs_for
    v = load_variant("fivehundred")
    bids = {b.text: b for b in v.auction().bids}
    strains = v.auction().strains
    for suit in ("S", "C", "D", "H"):
        env = envs_for(v, bids["10T"], 0, suit, [10, 0, 0, 0], [0] * 4)[0]
        assert env.vars["strain"] == strains.index(suit)
        assert env.vars["strain"] == envs_for(v, bids["10" + suit], 0, suit, [10, 0, 0, 0], [0] * 4)[0].vars["strain"]
