"""Every rule id and worked example of shared/rules/rams.md as a test.

Rams is a penalty game: low totals are good.  Examples 1-5 are scored with the
helpers of :mod:`rulekit.engine.scoring` (``envs_for`` + ``formulas_for``, and
``score_hand`` on a constructed hand); example 3 and the dealing / play rules
also go through real play from explicit deals.  Example 6 ([J1], house rule
``rams-jacks``) is tested at the end of this file.
"""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot
from rulekit.engine import State
from rulekit.engine.hand import Hand
from rulekit.engine.scoring import envs_for, formulas_for, score_hand
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant
from tests.helpers import deal_order, legal_texts, random_hand, variant_from
from tests.test_rules_fivehundred import play

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}   # [P2]


@pytest.fixture(scope="module")
def v4():
    return load_variant("rams")


@pytest.fixture(scope="module")
def v3():
    return load_variant("rams", players=3)


def deal_rams(dealer: int, hands: dict, aside: list = ()) -> list:
    """Dealing order giving ``hands``: [D1] one card at a time clockwise from the dealer's left,
    then (three players) the 2 cards put aside."""
    return deal_order(hands, first=dealer + 1) + list(aside)


def entries(v, points: list, tricks: list):
    """Entries from card points and trick counts (``None`` when the deal is void, [S3])."""
    envs = envs_for(v, None, -1, "NT", tricks, points)
    if v.scoring.void_if(envs[0]):
        return None
    fs = formulas_for(v, None, -1)
    return [int(fs[s](envs[s])) for s in range(v.players)]


def refused(state, text) -> str:
    with pytest.raises(IllegalActionError) as e:
        state.check(state.parse_action(text))
    return str(e.value)


def card_points(v, names) -> int:
    return sum(v.card_points[v.deck.parse(n)] for n in names)


def play_out(state, bots=None) -> State:
    """Play the current hand (or the match with bots) to its end with the first legal card."""
    start = len(state.sheet.rows)
    while not state.is_over and len(state.sheet.rows) == start:
        if bots:
            seat = state.to_move
            state.apply(bots[seat].act(state.observation(seat)))
        else:
            state.apply(state.legal_actions()[0])
    return state


# 4 players, dealer 3 so seat 0 is eldest.
T_HANDS = {0: "AS 7S 8S 9S 7C 8C 9C 10C".split(),
           1: "KS QS 7D 8D 9D 10D JD QD".split(),
           2: "AH KH QH JH 10H 9H 8H 7H".split(),
           3: "JS 10S AC KC QC JC KD AD".split()}

T_DEAL = deal_rams(3, T_HANDS)


# 3 players, dealer 2: seat 0 holds every spade and the two top clubs (example 3).
SLAM_HANDS = {0: "AS KS QS JS 10S 9S 8S 7S AC KC".split(),
              1: "QC JC 10C 9C 8C 7C AD KD QD JD".split(),
              2: "10D 9D 8D 7D AH KH QH JH 10H 9H".split()}

SLAM_ASIDE = ["8H", "7H"]

SLAM_DEAL = deal_rams(2, SLAM_HANDS, SLAM_ASIDE)


# --------------------------------------------------------------------------- players, cards
def test_P1_three_or_four_players(v4, v3):
    """[P1] three or four players, each for himself; default 4."""
    assert v4.players == 4 and v3.players == 3
    with pytest.raises(VariantError):
        load_variant("rams", players=5)


def test_P2_deck_and_card_points(v4):
    """[P2] 32 cards 7..A in four suits; A 11, 10 10, K 4, Q 3, J 2, 9 8 7 0; 120 in the pack."""
    deck = v4.deck
    assert deck.size == 32 and deck.jokers == 0
    assert set(deck.names) == {r + s for s in "SCDH" for r in POINTS}
    for name in deck.names:
        assert v4.card_points[deck.parse(name)] == POINTS[name[:-1]], name
    assert sum(v4.card_points) == 120


# --------------------------------------------------------------------------- deal
@pytest.mark.parametrize("players", [3, 4])
def test_D1_one_card_at_a_time_from_dealers_left(players, v3, v4):
    """[D1] one card at a time clockwise from the dealer's left: 8 each with four players;
    10 each with three and the last 2 put aside face down."""
    v = v3 if players == 3 else v4
    order = list(v.deck.names)
    for dealer in range(players):
        s = State(v, deals=[order], dealer=dealer)
        h = s.hand
        eldest = (dealer + 1) % players
        size = 10 if players == 3 else 8
        for k in range(players):
            seat = (eldest + k) % players
            want = [order[i * players + k] for i in range(size)]
            assert v.deck.names_of(h.hands[seat]) == want
        aside = order[size * players:]
        if players == 3:
            assert aside == order[30:] and len(aside) == 2
            assert v.deck.names_of(h.zones["widow"]) == aside
            assert not h.zone_up["widow"]
            for seat in range(3):
                assert s.observation(seat).widow == 0   # face down: nobody sees them
        else:
            assert aside == [] and not any(h.zones.values())


def test_D1_aside_cards_go_to_last_trick_winner(v3):
    """[D1] (choice) the 2 cards put aside go to the winner of the last trick and count for him."""
    hands = {0: "AS KS QS JS 10S 9S 8S 7S AC KC".split(),
             1: "QC JC 10C 9C 8C 7C AD KD QD JD".split(),
             2: "10D 9D 8D 7D KH QH JH 9H 8H 7H".split()}
    aside = ["AH", "10H"]
    s = play_out(State(v3, deals=[deal_rams(2, hands, aside)], dealer=2))
    h = s.hand_log[0]
    last = h.tricks[-1][2]
    mask = v3.deck.parse_mask(aside)
    assert h.won_cards[last] & mask == mask
    assert all(h.won_cards[o] & mask == 0 for o in range(3) if o != last)
    # the 21 points of A♥ 10♥ count: the pack's 120 are all in someone's tricks
    pts = [card_points(v3, v3.deck.names_of(m)) for m in h.won_cards]
    assert sum(pts) == 120
    trick_pts = card_points(v3, [v3.deck.name(c) for _l, plays, w, _n in h.tricks if w == last
                                 for _s, c in plays])
    assert pts[last] == trick_pts + 21


def test_D1_deal_passes_clockwise(v4):
    """[D1] the deal passes clockwise."""
    s = play_out(State(v4, deals=[T_DEAL], dealer=3))
    assert s.hand.number == 1 and s.hand.dealer == 0 and s.to_move == 1


def test_first_dealer_highest_cut(v4):
    """(choice, rams.md is silent) the highest cut deals: A > K > ... > 7, hearts > diamonds > clubs > spades."""
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"]
    suits = ["S", "C", "D", "H"]
    for seed in range(100):
        s = State(v4, seed=seed)
        names = [v4.deck.name(c) for c in s.cut]
        want = max(range(4), key=lambda i: (ranks.index(names[i][:-1]), suits.index(names[i][-1])))
        assert s.first_dealer == want


# --------------------------------------------------------------------------- play
def test_T1_eldest_leads_follow_suit_no_trumps(v4):
    """[T1] eldest leads; must follow suit; a void player may play any card; highest card of the
    suit led wins (no trumps: the A♥ thrown on a spade lead does not win)."""
    s = State(v4, deals=[T_DEAL], dealer=3)
    assert s.to_move == 0 and s.phase_kind == "tricks"
    s.apply("7S")
    assert sorted(a.text for a in s.legal_actions()) == ["play KS", "play QS"]
    assert refused(s, "7D") == "you must follow spades: you hold Q♠ K♠"
    s.apply("QS")
    assert len(s.legal_actions()) == 8          # seat 2 has no spade
    s.apply("AH")
    assert sorted(a.text for a in s.legal_actions()) == ["play 10S", "play JS"]
    s.apply("10S")
    assert s.hand.tricks[0][2] == 1 and s.to_move == 1   # Q♠ wins; the winner leads


def test_T1_rank_order_within_suit(v4):
    """[T1] A K Q J 10 9 8 7 within a suit: K♠ beats J♠ and 9♠; A♠ beats Q♠ and 10♠."""
    s = State(v4, deals=[T_DEAL], dealer=3)
    for c in ["9S", "KS", "7H", "JS"]:
        s.apply(c)
    assert s.hand.tricks[0][2] == 1
    for c in ["QS", "8H", "10S", "AS"]:      # seat 1 leads Q♠; seat 0 wins with A♠
        s.apply(c)
    assert s.hand.tricks[1][2] == 0


# --------------------------------------------------------------------------- scoring
def test_example1_S1_loser_gets_10(v4):
    """Example 1 [S1]: four players, points 50/40/20/10: the 50 gets 10 penalty."""
    assert entries(v4, [50, 40, 20, 10], [3, 2, 2, 1]) == [10, 0, 0, 0]


def test_example2_S1_loser_gets_15_when_someone_won_no_trick(v4):
    """Example 2 [S1]: 70/30/20/0 with the last player winning no trick: 70 gets 15."""
    assert entries(v4, [70, 30, 20, 0], [4, 2, 2, 0]) == [15, 0, 0, 0]
    # 0 points is not "no trick": the same points with a pointless trick won -> 10
    assert entries(v4, [70, 30, 20, 0], [4, 2, 1, 1]) == [10, 0, 0, 0]


def test_example3_S1_all_tricks_20(v3):
    """Example 3 [S1]: three players, one wins every trick: 20 penalty.  (The two others then
    have equal points, 0 and 0, so [S2] literally gives each 5.)"""
    assert entries(v3, [120, 0, 0], [10, 0, 0]) == [20, 5, 5]
    s = State(v3, deals=[SLAM_DEAL], dealer=2)
    for card in SLAM_HANDS[0]:
        s.apply(card)
        s.apply(s.legal_actions()[0])
        s.apply(s.legal_actions()[0])
    h = s.hand_log[0]
    assert h.won == [10, 0, 0]
    assert s.sheet.rows[0].entries == [20, 5, 5]


def test_example4_S1_S2_equal_winners_get_5(v3):
    """Example 4 [S1][S2]: three players 60/30/30: 60 gets 10, each 30 gets 5."""
    assert entries(v3, [60, 30, 30], [4, 3, 3]) == [10, 5, 5]
    assert entries(v3, [60, 40, 20], [4, 3, 3]) == [10, 0, 0]


def test_S2_four_players_equal_winners(v4):
    """[S2] with four players the three winners must all be equal for the extra 5."""
    assert entries(v4, [60, 20, 20, 20], [2, 2, 2, 2]) == [10, 5, 5, 5]
    assert entries(v4, [60, 30, 20, 10], [2, 2, 2, 2]) == [10, 0, 0, 0]
    assert entries(v4, [60, 25, 25, 10], [2, 2, 2, 2]) == [10, 0, 0, 0]


def test_example5_S3_all_equal_void(v3, v4):
    """Example 5 [S3]: three players 40/40/40: the deal is void, nothing is written."""
    assert entries(v3, [40, 40, 40], [4, 3, 3]) is None
    assert entries(v4, [30, 30, 30, 30], [2, 2, 2, 2]) is None
    h = Hand(0, 2, 3)
    won = {0: "AS 10S AC KS JS JC", 1: "AD 10D AH KD JD JH", 2: "10C 10H KC KH QS QC QD QH"}
    for seat, cards in won.items():
        h.won_cards[seat] = v3.deck.parse_mask(cards.split())
        assert card_points(v3, cards.split()) == 40
    for w in [0, 0, 0, 0, 1, 1, 1, 2, 2, 2]:
        h.tricks.append((w, (), w, ""))
        h.won[w] += 1
    assert score_hand(v3, h) == ([0, 0, 0], True)


def test_S4_tie_for_most_each_is_loser(v3, v4):
    """[S4] (choice) players tied for the most points each get the loser's penalty."""
    assert entries(v3, [50, 50, 20], [4, 4, 2]) == [10, 10, 0]
    assert entries(v4, [40, 40, 30, 10], [2, 2, 2, 2]) == [10, 10, 0, 0]
    assert entries(v4, [50, 50, 20, 0], [3, 3, 2, 0]) == [15, 15, 0, 0]
    # the winners of a tie are equal too: [S2] adds 5 each
    assert entries(v4, [40, 40, 20, 20], [2, 2, 2, 2]) == [10, 10, 5, 5]


@pytest.mark.parametrize("players,deals", [(3, 6), (4, 8)])
def test_S5_match_length_lowest_total_wins(players, deals, v3, v4):
    """[S5] a match lasts 2 deals per player (setting); the lowest penalty total wins."""
    v = v3 if players == 3 else v4
    for seed in (1, 2):
        s = State(v, seed=seed)
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        while not s.is_over:
            play_out(s, bots)
        assert len(s.sheet.rows) == deals
        totals = s.sheet.totals()
        assert totals == [sum(r.entries[i] for r in s.sheet.rows) for i in range(players)]
        assert s.winners == [i for i, t in enumerate(totals) if t == min(totals)]
        dealers = [h.dealer for h in s.hand_log]
        assert all(b == (a + 1) % players for a, b in zip(dealers, dealers[1:]))   # [D1]


# --------------------------------------------------------------------------- rams jacks [J1]
@pytest.fixture(scope="module")
def jacks():
    return load_variant("rams-jacks")


def deal_rams4(dealer, hands):
    return deal_order(hands, first=dealer + 1)

J_HANDS = {0: "JH 7S 8S 9S 10S 7C 8C 9C".split(),
           1: "JC AH KH QH 7D 8D 9D 10D".split(),
           2: "10H 9H 8H 7H QS KS AS 10C".split(),
           3: "JS JD QD KD AD QC KC AC".split()}

J_DEAL = deal_rams4(3, J_HANDS)


def test_example6_J1_jack_lead_must_be_followed_by_jack(rams, jacks):
    """Example 6 [J1]: J♥ led, a player with J♣ and hearts must play the J♣; it wins.
    In plain Rams the J♥ is a heart: he must play a heart and the J♣ is refused."""
    s = State(jacks, deals=[J_DEAL], dealer=3)
    s.apply("JH")
    assert legal_texts(s) == ["play JC"]
    with pytest.raises(IllegalActionError, match="must follow the top cards"):
        s.apply("AH")
    s.apply("JC")
    assert len(s.legal_actions()) == 8            # seat 2 has no jack: any card
    s.apply("7H")
    assert legal_texts(s) == ["play JD", "play JS"]
    s.apply("JD")
    assert s.hand.tricks[0][2] == 1               # J♣ is the highest card
    d = State(rams, deals=[J_DEAL], dealer=3)
    d.apply("JH")
    assert legal_texts(d) == ["play AH", "play KH", "play QH"]
    with pytest.raises(IllegalActionError, match="you must follow hearts"):
        d.apply("JC")


def test_J1_jack_on_suit_lead_only_when_void(rams, jacks):
    """[J1] a jack may be played on a suit lead only by a player who cannot follow; it then wins.
    The jacks have left their suits: J♠ is no spade, so a spade lead does not force it."""
    s = State(jacks, deals=[J_DEAL], dealer=3)
    s.apply("7C")
    assert "play JC" in legal_texts(s) and len(s.legal_actions()) == 8   # seat 1: no clubs
    s.apply("JC")
    s.apply("10C")
    assert legal_texts(s) == ["play AC", "play KC", "play QC"]           # seat 3 holds clubs
    with pytest.raises(IllegalActionError, match="must follow clubs"):
        s.apply("JD")
    s.apply("AC")
    assert s.hand.tricks[0][2] == 1                                       # the jack beats A♣
    d = State(rams, deals=[J_DEAL], dealer=3)
    d.apply("7C")
    assert legal_texts(d) == ["play JC"]                                  # plain Rams: J♣ is a club
    play(d, ["JC", "10C", "AC"])
    assert d.hand.tricks[0][2] == 3                                       # and A♣ wins
    # a spade lead: seat 3's J♠ is a spade in plain Rams (forced), a free top card with jacks
    s2 = State(jacks, deals=[J_DEAL], dealer=3)
    play(s2, ["7S", "7D", "AS"])
    assert "play JS" in legal_texts(s2) and len(s2.legal_actions()) == 8
    d2 = State(rams, deals=[J_DEAL], dealer=3)
    play(d2, ["7S", "7D", "AS"])
    assert legal_texts(d2) == ["play JS"]


def _jacks_deal(lead_jacks: dict) -> list:
    """A four-player deal (dealer 3) giving each seat the listed jacks; seat 0 gets the rest."""
    jacks_all = ["JC", "JS", "JD", "JH"]
    hands = {s: list(lead_jacks.get(s, [])) for s in range(4)}
    for j in jacks_all:
        if not any(j in h for h in hands.values()):
            hands[0].append(j)
    others = [r + s for s in "SCDH" for r in ("7", "8", "9", "10", "Q", "K", "A")]
    for s in range(4):
        while len(hands[s]) < 8:
            hands[s].append(others.pop())
    return deal_rams4(3, hands)


@pytest.mark.parametrize("assign,lead,winner", [
    ({0: ["JH"], 1: ["JD"]}, "JH", 1),
    ({0: ["JH", "JC"], 1: ["JD"], 2: ["JS"]}, "JH", 2),
    ({0: ["JH"], 1: ["JD"], 2: ["JS"], 3: ["JC"]}, "JH", 3),
    ({0: ["JD", "JS", "JC"], 1: ["JH"]}, "JD", 0),
    ({0: ["JS", "JD", "JH"], 3: ["JC"]}, "JS", 3),
])
def test_J1_jack_order(jacks, assign, lead, winner):
    """[J1] J♣ > J♠ > J♦ > J♥: on a jack lead everyone with a jack must play one; the highest wins."""
    s = State(jacks, deals=[_jacks_deal(assign)], dealer=3)
    s.apply(lead)
    for seat in (1, 2, 3):
        mine = assign.get(seat, [])
        if mine:
            assert legal_texts(s) == sorted("play " + j for j in mine)
        s.apply(s.legal_actions()[0])
    assert s.hand.tricks[0][2] == winner


def test_J1_card_points_unchanged(rams, jacks):
    """[J1] card points unchanged: a jack still counts 2, the pack 120."""
    assert jacks.card_points == rams.card_points
    assert sum(jacks.card_points) == 120


@pytest.mark.parametrize("seed", range(4))
def test_J1_scoring_unchanged_for_same_tricks(rams, jacks, seed):
    """The scoring rules are not touched: re-scoring a jacks hand's won cards under plain Rams
    gives the same entries."""
    from rulekit.engine.scoring import score_hand
    s = random_hand(jacks, seed)
    h = s.hand_log[0]
    assert score_hand(rams, h) == (s.sheet.rows[0].entries, s.sheet.rows[0].void)


# --------------------------------------------------------------------------- must_trump and top
MUST_JACKS = """id: rams-jacks-must-trump
extends: rams-jacks
phases:
  play:
    must_trump: true
"""


def test_must_trump_with_permanent_jacks(tmp_path):
    """rules/rams.md [J1]: the jacks are permanent trumps (a ``ranking.top``
    group); with ``must_trump: true`` a player void in clubs who holds a jack must play it."""
    v = variant_from(tmp_path, "rams-jacks-must-trump.yaml", MUST_JACKS)
    s = State(v, deals=[J_DEAL], dealer=3)
    s.apply("7C")                                   # seat 1 holds no club, but the J♣
    assert legal_texts(s) == ["play JC"]
    with pytest.raises(IllegalActionError, match="you cannot follow clubs and must trump: you hold J♣"):
        s.apply("AH")
    s.apply("JC")
    assert legal_texts(s) == ["play 10C"]          # seat 2 follows clubs as before
    free = State(load_variant("rams-jacks"), deals=[J_DEAL], dealer=3)
    free.apply("7C")
    assert len(free.legal_actions()) == 8           # the shipped file keeps "any card"
