"""Whist as specified by rules/whist.md (the seed's rules, ``variants/whist.yaml``) and its
house-rule files ``whist-declared`` ([K2]) and ``whist-english`` (English short whist).

The worked examples 1-6 are played out for real where the seed's scoring allows it (an
explicit deal and a line of play found by the cooperative search of
:func:`tests.test_rules_bridge.plan`, via ``play_out``), and checked on the formulas and the game/rubber
counter (:class:`~rulekit.engine.progress.Progress`) with the spec's exact numbers.
"""
from __future__ import annotations

import pytest

from rulekit.cards import bits
from rulekit.dsl import Env
from rulekit.engine import State
from rulekit.engine.progress import Progress
from rulekit.engine.scoring import entries_for, envs_for, formulas_for
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.test_rules_bridge import (EW, NS, E, N, S, W, deal, deck_order, interleaved, make_hands, play_out,
                                     strong)

PICTURES = ["A", "K", "Q", "J", "10"]


@pytest.fixture(scope="module")
def whist():
    return load_variant("whist")


@pytest.fixture(scope="module")
def declared():
    return load_variant("whist-declared")


@pytest.fixture(scope="module")
def english():
    return load_variant("whist-english")


def cards(spec: str) -> list:
    """``"A,K,QS 2,3C"`` -> ``["AS", "KS", "QS", "2C", "3C"]``."""
    out = []
    for part in spec.split():
        for r in part[:-1].split(","):
            out.append(r + part[-1])
    return out


def turn(hands: list, dealer: int, card: str) -> list:
    """``hands`` with ``card`` moved to the end of the dealer's cards: it is dealt last and
    turned up for trumps [K1]."""
    hs = [list(h) for h in hands]
    hs[dealer].remove(card)
    hs[dealer].append(card)
    return hs


def pictures_won(variant, h, side) -> int:
    """Trump pictures (A K Q J 10) among the cards of ``side``'s won tricks."""
    m = h.won_cards[side[0]] | h.won_cards[side[1]]
    return sum(1 for r in PICTURES if m >> variant.deck.parse(r + h.trump) & 1)


def picture_points(n: int) -> int:
    """[S2] three pictures 2, four 4, all five 6."""
    return {3: 2, 4: 4, 5: 6}.get(n, 0)


def score(variant, tricks_ns: int, tallies: list, game_score=(0, 0)) -> dict:
    """The variant's formulas for a deal where NS win ``tricks_ns`` tricks: part -> [NS, EW]."""
    won = [tricks_ns, 13 - tricks_ns, 0, 0]
    envs = envs_for(variant, None, -1, "S", won, [0] * 4, {"tallies": tallies, "game_score": list(game_score)})
    out = {}
    for part in variant.scoring.parts:
        fs = formulas_for(variant, None, -1, part)
        out[part.name] = [int(fs[c](envs[c])) for c in range(2)]
    assert [sum(p[c] for p in out.values()) for c in range(2)] == entries_for(variant, None, -1, envs)
    return out


# ---------------------------------------------------------------------------- [P1] [P2] [D1]
def test_partners_sit_opposite(whist):
    """[P1] four players; seats 0 and 2 against 1 and 3; [P2] 52 cards A high."""
    assert whist.players == 4 and [tuple(s) for s in whist.sides] == [NS, EW]
    assert whist.deck.size == 52 and whist.scoring.by_side


def test_deal_one_at_a_time_and_passes_clockwise(whist):
    """[D1] one card at a time clockwise from the dealer's left, 13 each; the deal passes
    clockwise."""
    hands = interleaved(1)
    s = deal(whist, [hands, interleaved(2)], dealer=S)
    order = deck_order(hands, S)
    h = s.hand
    for i, c in enumerate(order):
        assert h.dealt[(S + 1 + i) % 4] >> whist.deck.parse(c) & 1
    assert [m.bit_count() for m in h.dealt] == [13] * 4
    while s.hand is h:
        s.play_fast(next(bits(s.legal_play_mask())))
    assert s.hand.dealer == W


# ---------------------------------------------------------------------------- trumps [K1] [K2]
def test_turned_up_card_is_dealers_last_and_sets_trumps(whist):
    """[K1] the dealer's last card is turned up; its suit is trumps; it belongs to the dealer."""
    for dealer, card in [(N, "7D"), (E, "AS"), (S, "2C"), (W, "10H")]:
        hands = turn(make_hands({dealer: [card]}, seed=dealer), dealer, card)
        s = deal(whist, [hands], dealer=dealer)
        h = s.hand
        assert whist.deck.name(h.turned) == card and h.trump == card[-1]
        assert h.hands[dealer] >> h.turned & 1


def test_turned_up_card_visible_until_dealer_plays_to_first_trick(whist):
    """[K1] the turned card stays face up, seen by every seat, until the dealer plays to the
    first trick; he may play it to that trick.  [T1] the eldest hand leads."""
    # dealer N turns the 2 of spades; E leads a spade, so N may follow with the turned card
    hands = turn(make_hands({N: ["2S", "3H"], E: ["AS"]}, seed=3), N, "2S")
    s = deal(whist, [hands], dealer=N)
    bit = 1 << whist.deck.parse("2S")
    assert s.to_move == E                                          # [T1] eldest leads
    for seat in range(4):
        assert s.observation(seat).exposed == bit
    s.apply("AS")
    for _ in range(2):
        s.play_fast(next(bits(s.legal_play_mask())))
        assert all(s.observation(seat).exposed == bit for seat in range(4))
    assert s.to_move == N and "play 2S" in [a.text for a in s.legal_actions()]
    s.apply("2S")
    assert all(s.observation(seat).exposed == 0 for seat in range(4))
    # if the dealer plays another card, the turned card joins his hand unseen
    hands = turn(make_hands({N: ["2S", "3S"], E: ["AS"]}, seed=3), N, "2S")
    s = deal(whist, [hands], dealer=N)
    s.apply("AS")
    for _ in range(2):
        s.play_fast(next(bits(s.legal_play_mask())))
    s.apply("3S")
    assert s.hand.hands[N] & bit and all(s.observation(seat).exposed == 0 for seat in range(4))
    assert s.observation(N).hand & bit


def test_declared_dealer_names_or_passes_to_partner(declared):
    """[K2] whist-declared: no card is turned; the dealer names trumps or passes and lets his
    partner name them; the partner cannot pass back; then the eldest hand leads."""
    s = deal(declared, [interleaved()], dealer=E)
    h = s.hand
    assert h.turned == -1 and s.observation(N).exposed == 0
    assert s.phase_kind == "name_trump" and s.to_move == E
    assert [a.text for a in s.legal_actions()] == ["trump C", "trump D", "trump H", "trump S", "pass"]
    with pytest.raises(IllegalActionError):
        s.apply("trump NT")
    s.apply("pass")
    assert s.to_move == W
    assert [a.text for a in s.legal_actions()] == ["trump C", "trump D", "trump H", "trump S"]
    with pytest.raises(IllegalActionError):
        s.apply("pass")
    s.apply("trump D")
    assert h.trump == "D" and s.phase_kind == "tricks" and s.to_move == S
    s = deal(declared, [interleaved()], dealer=N)
    s.apply("trump H")
    assert s.hand.trump == "H" and s.to_move == E


# ---------------------------------------------------------------------------- play [T1]-[T3]
# N deals and turns the 2 of hearts; E holds every club; S has hearts and diamonds; W spades.
T2_HANDS = [cards("3,4,5,6,AH 2,3,4,5,6,7,8D") + ["2H"],
            cards("2,3,4,5,6,7,8,9,10,J,Q,K,AC"),
            cards("7,8,9,10,J,Q,KH 9,10,J,Q,K,AD"),
            cards("2,3,4,5,6,7,8,9,10,J,Q,K,AS")]


def test_t2_hands_are_a_deal():
    assert sorted(sum(T2_HANDS, [])) == sorted(r + s for s in "CDHS" for r in PICTURES + list("98765432"))


def test_example_6_must_trump(whist):
    """Example 6 [T2]: clubs led; a player with no clubs but a trump must trump; with neither
    he may play any card.  [T3] the highest trump wins."""
    s = deal(whist, [T2_HANDS], dealer=N)
    assert s.hand.trump == "H" and s.to_move == E
    s.apply("2C")                                                  # E leads a club
    assert sorted(a.text for a in s.legal_actions()) == sorted("play " + c for c in T2_HANDS[S][:7])
    with pytest.raises(IllegalActionError, match="must trump"):
        s.apply("9D")
    s.apply("8H")                                                  # S trumps
    assert len(s.legal_actions()) == 13                            # W: no club, no trump
    s.apply("2S")
    assert sorted(a.text for a in s.legal_actions()) == sorted("play " + c for c in T2_HANDS[N][:5] + ["2H"])
    s.apply("AH")                                                  # N over-trumps
    assert s.hand.tricks[-1][2] == N and s.to_move == N            # [T3], [T1] winner leads


def test_must_trump_not_in_english_whist(english):
    """whist-english: no obligation to trump (any card when void in the suit led)."""
    s = deal(english, [T2_HANDS], dealer=N)
    s.apply("2C")
    assert len(s.legal_actions()) == 13
    s.apply("9D")                                                  # a discard is fine


def test_highest_card_of_suit_led_wins_without_trumps(whist):
    """[T2] follow suit; [T3] without trumps in the trick the highest card of the suit led wins."""
    hands = turn(make_hands({E: ["2D"], S: ["KD"], W: ["AD"], N: ["QD", "2S"]}, seed=1), N, "2S")
    s = deal(whist, [hands], dealer=N)
    s.apply("2D")
    legal = [a.text for a in s.legal_actions()]
    assert "play KD" in legal and all(t.endswith("D") for t in legal)   # S must follow diamonds
    s.apply("KD")
    s.apply("AD")
    s.apply("QD")
    assert s.hand.tricks[-1][2] == W and s.to_move == W


# ---------------------------------------------------------------------------- scoring [S1] [S2]
def test_trick_points(whist):
    """[S1] the first six tricks count nothing; each further trick 2 (7 = 2, 13 = 14)."""
    none = [{"pictures": 0}, {"pictures": 0}]
    for t, pts in [(0, 0), (6, 0), (7, 2), (9, 6), (13, 14)]:
        got = score(whist, t, none)
        assert got["tricks"][0] == pts and got["pictures"] == [0, 0]
        assert score(whist, 13 - t, none)["tricks"][1] == pts


def test_picture_points(whist):
    """[S2] trump pictures among a side's won tricks: three 2, four 4, five 6."""
    for n, pts in [(0, 0), (1, 0), (2, 0), (3, 2), (4, 4), (5, 6)]:
        tal = [{"pictures": n}, {"pictures": 5 - n}]
        assert score(whist, 6, tal)["pictures"] == [pts, picture_points(5 - n)]


def test_example_1_nine_tricks(whist):
    """Example 1 [S1]: side A wins 9 tricks, side B 4: A scores 6 for tricks."""
    s = deal(whist, [interleaved()])
    h, rows = play_out(s, NS, 9)
    assert rows[0].parts["tricks"] == [6, 0]
    assert rows[0].parts["pictures"] == [picture_points(pictures_won(whist, h, NS)),
                                         picture_points(pictures_won(whist, h, EW))]


def test_example_2_pictures_counted_in_won_tricks(whist):
    """Example 2 [S1] [S2]: A wins 6 tricks holding three trump pictures in its tricks: A scores
    2 (pictures only); B, 7 tricks: 2."""
    assert score(whist, 6, [{"pictures": 3}, {"pictures": 2}]) == {"tricks": [0, 2], "pictures": [2, 0]}
    hands = turn(make_hands({N: cards("A,K,QS"), E: cards("J,2,3,4S"), W: cards("10,5,6,7S")}, seed=0), N, "AS")
    s = deal(whist, [hands])

    def three_two(h):
        return pictures_won(whist, h, NS) <= 3 and pictures_won(whist, h, EW) <= 2

    h, rows = play_out(s, NS, 6, accept=three_two)
    assert pictures_won(whist, h, NS) == 3
    assert rows[0].parts == {"tricks": [0, 2], "pictures": [2, 0]} and rows[0].entries == [2, 2]


def test_pictures_in_tricks_not_in_hands(whist):
    """[S2] pictures count where they were won, not where they were dealt: NS's ace, king and
    queen always end in NS's tricks; EW's jack and ten too when NS take the tricks they fall on."""
    hands = turn(make_hands({N: cards("A,KS"), S: cards("QS"), E: cards("JS"), W: cards("10S")}, seed=2), N, "AS")
    s = deal(whist, [hands])

    def four(h):
        return pictures_won(whist, h, EW) <= 1

    h, rows = play_out(s, NS, 8, accept=four)
    assert pictures_won(whist, h, NS) >= 4
    assert rows[0].parts["pictures"] == [picture_points(pictures_won(whist, h, NS)), 0]


# ---------------------------------------------------------------------------- games [S3] [S4]
def test_example_3_game_worth_two(whist):
    """Example 3 [S4]: A at 8, B at 3; A takes 8 tricks (+4): game to A worth 2 (B below 5)."""
    p = Progress(2)
    p.game_score = [8, 3]
    assert p.record(whist, {"tricks": [4, 0], "pictures": [0, 0]}) == [("game", 0, 2)]
    assert p.games == [1, 0] and p.game_points == [2, 0] and p.game_score == [0, 0]


def _first_deal_8_2(whist, later):
    """A match whose first deal gives NS 10 tricks (8) and EW three pictures (2): [8, 2]."""
    s = deal(whist, [interleaved(3)] + later)

    def ns_two(h):
        return pictures_won(whist, h, NS) <= 2 and pictures_won(whist, h, EW) <= 3

    h, rows = play_out(s, NS, 10, accept=ns_two)
    assert rows[0].parts == {"tricks": [8, 0], "pictures": [0, 2]}
    assert s.progress.game_score == [8, 2] and not rows[0].line
    return s


def test_example_3_played(whist):
    """Example 3 played: NS at 8, EW at 2; NS take 8 tricks (+4): the game, worth 2 [S3] [S4];
    a line is drawn and both sides start the next game from zero."""
    s = _first_deal_8_2(whist, [interleaved(1)])
    h, rows = play_out(s, NS, 8, accept=lambda h: pictures_won(whist, h, EW) <= 2)
    assert rows[0].parts["tricks"] == [4, 0]
    assert rows[0].line and rows[0].games == [2, 0]
    assert s.progress.games == [1, 0] and s.progress.game_points == [2, 0]


def test_tricks_counted_before_pictures(whist):
    """[S3] both sides would reach 10 on the same deal: trick points count first.  NS at 8 and
    EW at 2; EW take 10 tricks (+8 = 10) while NS's tricks hold three pictures (+2 = 10):
    the game is EW's, worth 1 (NS had 8)."""
    s = _first_deal_8_2(whist, [interleaved(0)])

    def ns_three(h):
        return pictures_won(whist, h, NS) <= 3 and pictures_won(whist, h, EW) <= 2

    h, rows = play_out(s, EW, 10, accept=ns_three)
    assert rows[0].parts == {"tricks": [0, 8], "pictures": [2, 0]}
    assert rows[0].line and rows[0].games == [0, 1] and s.progress.games == [0, 1]
    assert s.progress.game_score == [0, 0]  # NS's pictures do not open the next game (choice)
    p = Progress(2)
    p.game_score = [8, 8]
    assert p.record(whist, {"tricks": [2, 0], "pictures": [0, 2]})[0] == ("game", 0, 1)


def test_example_4_game_worth_three(whist):
    """Example 4 [S4]: A wins a game with B on 0: worth 3 (NS take all 13 tricks: 14 + 6)."""
    s = deal(whist, [strong(NS, "AKQ", seed=0)])
    h, rows = play_out(s, NS, 13)
    assert rows[0].parts == {"tricks": [14, 0], "pictures": [6, 0]}
    assert rows[0].line and rows[0].games == [3, 0] and s.progress.game_points == [3, 0]


def test_game_values(whist):
    """[S4] game value 1; 2 if the losers have fewer than 5; 3 if they have no point."""
    f = whist.match.game_value
    assert [f(Env({"their_points": x})) for x in (0, 1, 4, 5, 8, 9)] == [3, 2, 2, 1, 1, 1]
    assert whist.match.game_target == 10


# ---------------------------------------------------------------------------- rubber [S5] [S6]
def _game(p, variant, winner, loser_points):
    """Record a deal that wins a game for ``winner`` with the loser on ``loser_points``."""
    p.game_score = [0, 0]
    p.game_score[1 - winner] = loser_points
    parts = {"tricks": [0, 0], "pictures": [0, 0]}
    parts["tricks"][winner] = variant.match.game_target
    return p.record(variant, parts)


def test_example_5_rubber_bonus(whist):
    """Example 5 [S5]: games A, A: a short rubber: A 1 + 1 game values + 5 bonus; games A, B, A:
    a long rubber, + 3.  The bonus goes to game points."""
    p = Progress(2)
    assert _game(p, whist, 0, 6) == [("game", 0, 1)]
    assert _game(p, whist, 0, 7) == [("game", 0, 1), ("rubber", 0, 5)]
    assert p.game_points == [7, 0] and p.rubbers == 1 and p.games == [0, 0]
    p = Progress(2)
    _game(p, whist, 0, 5)
    _game(p, whist, 1, 9)
    assert _game(p, whist, 0, 6) == [("game", 0, 1), ("rubber", 0, 3)]
    assert p.game_points == [5, 1]


def test_match_of_one_rubber_won_on_game_points(whist):
    """[S5] [S6] a match of one rubber (the default setting) played by bots: it ends when a side
    has won two games; the winners are the side with more game points, which are the game
    values and the rubber bonus on the sheet."""
    from rulekit.bots import RandomBot
    assert whist.match.rubbers == 1 and whist.match.result == "game_points"
    s = State(whist, seed=11)
    bots = [RandomBot(i) for i in range(4)]
    while not s.is_over:
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    gp = s.progress.game_points
    assert s.progress.rubbers == 1 and gp == s.sheet.game_points()
    lines = [r for r in s.sheet.rows if r.line]
    won = [sum(1 for r in lines if r.games[c] > 0) for c in range(2)]
    assert max(won) == 2 and min(won) <= 1
    best = max(range(2), key=lambda c: gp[c])
    assert gp[best] > gp[1 - best] and set(s.winners) == set(whist.sides[best])


# ---------------------------------------------------------------------------- English short whist
def test_english_trick_points_and_game(english):
    """whist-english: 1 point per trick over six; a game is 5; treble (losers 0), double (1 or
    2), single (3 or 4); rubber bonus 2."""
    none = [{"honours": 0}, {"honours": 0}]
    for t, pts in [(6, 0), (7, 1), (9, 3), (13, 7)]:
        got = score(english, t, none)
        assert got["tricks"][0] == pts and got["honours"] == [0, 0]
    f = english.match.game_value
    assert [f(Env({"their_points": x})) for x in (0, 1, 2, 3, 4)] == [3, 2, 2, 1, 1]
    assert english.match.game_target == 5
    assert english.match.rubber_bonus(Env({"their_games": 0})) == 2
    assert english.match.rubber_bonus(Env({"their_games": 1})) == 2
    p = Progress(2)
    _game(p, english, 0, 0)
    assert _game(p, english, 0, 3) == [("game", 0, 1), ("rubber", 0, 2)]
    assert p.game_points == [3 + 1 + 2, 0]


def test_english_honours_formula(english):
    """whist-english: honours A K Q J of trumps held in a side's dealt hands: four 4, three 2;
    none counted by a side standing at 4."""
    for mine, pts in [(4, 4), (3, 2), (2, 0), (1, 0), (0, 0)]:
        tal = [{"honours": mine}, {"honours": 4 - mine}]
        assert score(english, 6, tal)["honours"] == [pts, {4: 4, 3: 2}.get(4 - mine, 0)]
    assert score(english, 6, [{"honours": 4}, {"honours": 0}], game_score=(4, 0))["honours"] == [0, 0]
    assert score(english, 6, [{"honours": 0}, {"honours": 4}], game_score=(4, 0))["honours"] == [0, 4]
    assert score(english, 6, [{"honours": 3}, {"honours": 1}], game_score=(3, 4))["honours"] == [2, 0]


@pytest.mark.parametrize("ns_cards,ew_cards,want,seed", [
    ({N: "AH", S: "KH QH"}, {E: "JH"}, [2, 0], 0),      # three honours held between the partners
    ({N: "AH KH", S: "QH JH"}, {}, [4, 0], 2),           # all four
    ({N: "AH KH"}, {E: "QH", W: "JH"}, [0, 0], 0),       # two each: nothing
    ({S: "AH"}, {E: "KH QH", W: "JH"}, [0, 2], 0),       # three to EW
])
def test_english_honours_counted_from_dealt_hands(english, ns_cards, ew_cards, want, seed):
    """whist-english: honours count from the dealt hands, whoever wins the cards in play."""
    fixed = {seat: c.split() for seat, c in {**ns_cards, **ew_cards}.items()}
    fixed.setdefault(N, []).append("2H")                        # N deals and turns up hearts
    hands = turn(make_hands(fixed, seed=seed), N, "2H")
    s = deal(english, [hands])
    assert s.hand.trump == "H"
    h, rows = play_out(s, NS, 6)
    assert rows[0].parts == {"tricks": [0, 1], "honours": want}


def test_english_no_honours_at_four(english):
    """whist-english: a side at 4 before the deal does not count honours; NS at 4 hold all four
    honours and take 6 tricks: nothing for NS; EW's seventh trick scores 1."""
    # deal 1, N turns the 2 of spades: EW hold three spade honours (2 for EW), NS take 10 tricks
    first = turn(make_hands({E: ["AS", "KS"], W: ["QS"], N: ["JS", "2S"]}, seed=6), N, "2S")
    # deal 2, E turns the 2 of hearts: NS hold all four heart honours
    second = turn(make_hands({N: ["AH", "KH"], S: ["QH", "JH"], E: ["2H"]}, seed=0), E, "2H")
    s = deal(english, [first, second])
    h, rows = play_out(s, NS, 10)
    assert rows[0].parts == {"tricks": [4, 0], "honours": [0, 2]} and s.progress.game_score == [4, 2]
    h, rows = play_out(s, NS, 6)
    assert h.trump == "H"
    assert rows[0].parts == {"tricks": [0, 1], "honours": [0, 0]}
    assert s.progress.game_score == [4, 3]
