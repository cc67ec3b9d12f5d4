"""Contract bridge as specified by rules/bridge.md (rubber scoring) and its house-rule files
``bridge-duplicate`` and ``bridge-chicago``.

Every worked example 1-12 is played out for real where it can be: an explicit deal, the auction
call by call, then a line of play (found by a small cooperative search, :func:`plan`) that gives
the declaring side exactly the tricks of the example; the sheet row's below/above parts must then
hold the spec's values.  The score formulas are also checked directly (envs_for + entries_for) for
each example, and the auction rules [A1]-[A6], the opening lead and the dummy [T1], the rubber
[S2] [S8] [S9] [S10], honours [S7] and the duplicate / Chicago vulnerability cycles.

The helpers here (deals in dealing order, :func:`plan`) are shared with the whist and property
tests.
"""
from __future__ import annotations

import random

import pytest

from rulekit.cards import bits
from rulekit.dsl import Env
from rulekit.engine import State
from rulekit.engine.scoring import entries_for, envs_for, formulas_for
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import deal_order

SEATS = "NESW"
N, E, S, W = range(4)
NS, EW = (0, 2), (1, 3)
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()


# ---------------------------------------------------------------------------- shared helpers
@pytest.fixture(scope="module")
def bridge():
    return load_variant("bridge")


@pytest.fixture(scope="module")
def duplicate():
    return load_variant("bridge-duplicate")


@pytest.fixture(scope="module")
def chicago():
    return load_variant("bridge-chicago")


def deck_order(hands: list, dealer: int) -> list:
    """The 52 card texts in dealing order for ``hands`` (seat -> 13 cards) dealt "1 x 13"
    starting left of ``dealer`` ([D2]): ``deck_order[i]`` goes to seat ``(dealer + 1 + i) % 4``."""
    return deal_order(hands, first=dealer + 1)


def make_hands(fixed: dict | None = None, seed: int = 0) -> list:
    """Four 13-card hands: the ``fixed`` cards of each seat, the rest shuffled by ``seed``."""
    fixed = {s: list(c) for s, c in (fixed or {}).items()}
    used = {c for cs in fixed.values() for c in cs}
    rest = [r + su for su in "CDHS" for r in RANKS if r + su not in used]
    random.Random(seed).shuffle(rest)
    hands = []
    for s in range(4):
        h = fixed.get(s, [])
        k = 13 - len(h)
        hands.append(h + rest[:k])
        rest = rest[k:]
    return hands


def interleaved(shift: int = 0) -> list:
    """Every suit dealt round the table by rank (A K Q J ...), each suit starting one seat further:
    a 4-3-3-3 deal without honours [S7] in which either side can win most tricks."""
    hands = [[] for _ in range(4)]
    for si, su in enumerate("CDHS"):
        for i, r in enumerate(RANKS):
            hands[(si + i + shift) % 4].append(r + su)
    return hands


def strong(side: tuple, ranks: str = "AKQ", seed: int = 0) -> list:
    """``side`` holds the ``ranks`` of every suit (shared out between its two seats)."""
    fixed = {side[0]: [], side[1]: []}
    i = 0
    for r in ranks:
        for su in "CDHS":
            fixed[side[i % 2]].append(r + su)
            i += 1
    return make_hands(fixed, seed)


def calls(state: State, texts) -> None:
    """Apply auction calls (or any actions) in order."""
    for t in (texts.split() if isinstance(texts, str) else texts):
        state.apply(t)


def _key(ctx, card, led):
    g = ctx.group_of[card]
    return (2 if g == ctx.trump_group else 1 if g == led else 0, ctx.strength[card])


def _respond(st, side, want):
    """A card for the seat to move so that the trick goes to ``side`` (``want``) or not."""
    h = st.hand
    ctx, led = h.ctx, h.led_group
    best, best_seat = max((_key(ctx, c, led), s) for s, c in h.trick)
    keys = sorted(bits(st.legal_play_mask()), key=lambda c: _key(ctx, c, led))
    beat = [c for c in keys if _key(ctx, c, led) > best and _key(ctx, c, led)[0] > 0]
    if (h.to_move in side) == want:
        if (best_seat in side) != want and beat:
            return beat[0]
        return keys[0]
    low = [c for c in keys if c not in beat]
    return (low or keys)[0]


def plan(state: State, side: tuple, target: int, accept=None, budget: int = 4000) -> list:
    """Card texts that play the current hand out so that the seats of ``side`` win exactly
    ``target`` tricks, ``accept(hand)`` (when given) holding after every trick.

    A depth-first search over the leads of each trick, the other three seats playing
    cooperatively for the wanted trick winner; the tricks are won first, or spread out.  The
    moves are legal by construction (the engine's own legal masks); the search only steers
    the result.
    """
    n = [0]
    total = state.variant.hand_size

    def rec(st):
        h = st.hand
        won = sum(h.won[s] for s in side)
        left = total - len(h.tricks)
        need = target - won
        if need < 0 or need > left:
            return None
        wants = ([True] if need > 0 else []) + ([False] if need < left else [])
        if spread and 2 * need < left:         # spread the wins and losses over the hand
            wants.reverse()
        for want in wants:
            leads = sorted(bits(st.legal_play_mask()), key=lambda c: _key(h.ctx, c, h.ctx.group_of[c]),
                           reverse=(h.to_move in side) == want)
            for lead in leads:
                n[0] += 1
                if n[0] > budget:
                    return None
                s2 = st.clone(light=True)
                h2 = s2.hand
                seq = [lead]
                s2.play_fast(lead)
                while h2.trick:
                    c = _respond(s2, side, want)
                    seq.append(c)
                    s2.play_fast(c)
                if (h2.trick_winners[-1] in side) != want or (accept is not None and not accept(h2)):
                    continue
                if len(h2.tricks) == total:
                    if sum(h2.won[s] for s in side) == target:
                        return seq
                    continue
                r = rec(s2)
                if r is not None:
                    return seq + r
        return None

    r = None
    for spread in (False, True):               # two orders of search, each with the budget
        n[0] = 0
        r = rec(state)
        if r is not None:
            break
    assert r is not None, f"no line of play gives {side} exactly {target} tricks"
    return [state.variant.deck.name(c) for c in r]


def play_out(state: State, side: tuple, target: int, accept=None):
    """Play the current hand so that ``side`` wins ``target`` tricks; return the hand and the
    sheet rows it added (the deal's row, then a rubber-bonus row if any)."""
    h = state.hand
    before = len(state.sheet.rows)
    for c in plan(state, side, target, accept):
        state.apply(c)
    assert h.to_move == -1 and sum(h.won[s] for s in side) == target
    return h, state.sheet.rows[before:]


def deal(variant, hands_list, dealer: int = N, **kw) -> State:
    """A match whose hands are dealt from ``hands_list`` (seat -> cards, one per deal), the
    dealer of the first being ``dealer`` and the deal passing clockwise [D3]."""
    orders = [deck_order(hs, (dealer + k) % 4) for k, hs in enumerate(hands_list)]
    return State(variant, deals=orders, dealer=dealer, **kw)


def parts_of(variant, level, strain, declarer, won_by_declarer, doubled=0, vulnerable=(False, False),
             tallies=None) -> dict:
    """The spec formulas of ``variant`` for one outcome: part name -> entries ``[NS, EW]``."""
    bid = next(b for b in variant.auction().bids if b.text == f"{level}{strain}")
    won = [0] * 4
    won[declarer] = won_by_declarer
    won[(declarer + 1) % 4] = 13 - won_by_declarer
    extra = {"vulnerable": list(vulnerable), "doubled": doubled}
    if tallies is not None:
        extra["tallies"] = tallies
    envs = envs_for(variant, bid, declarer, strain, won, [0] * 4, extra)
    out = {}
    for part in variant.scoring.parts:
        fs = formulas_for(variant, bid, declarer, part)
        out[part.name] = [int(fs[c](envs[c])) for c in range(2)]
    assert [sum(p[c] for p in out.values()) for c in range(2)] == entries_for(variant, bid, declarer, envs)
    return out


def no_tally(n=2):
    return [{"honours": 0, "aces": 0} for _ in range(n)]


# ---------------------------------------------------------------------------- [P1] [P2] [D1]-[D3]
def test_players_sides_and_deck(bridge):
    """[P1] four seats N E S W, NS against EW, the score by side; [P2] 52 cards A high."""
    assert bridge.players == 4 and list(bridge.seat_names) == list("NESW")
    assert [tuple(s) for s in bridge.sides] == [NS, EW]
    assert bridge.scoring.by_side and bridge.deck.size == 52
    s = State(bridge, seed=1)
    assert s.sheet.columns == ["NS", "EW"]


def test_first_dealer_is_the_highest_cut(bridge):
    """[D1] each player cuts; the highest card deals, ties of rank broken S > H > D > C."""
    deck = bridge.deck
    for seed in range(30):
        s = State(bridge, seed=seed)
        assert len(s.cut) == 4

        def strength(card):
            name = deck.name(card)
            return (RANKS[::-1].index(name[:-1]), "CDHS".index(name[-1]))

        assert s.first_dealer == max(range(4), key=lambda seat: strength(s.cut[seat]))


def test_deal_one_at_a_time_from_dealers_left_and_dealer_rotates(bridge):
    """[D2] one card at a time clockwise from the dealer's left, 13 each; [D3] the deal passes."""
    order = [r + su for su in "CDHS" for r in RANKS]
    random.Random(5).shuffle(order)
    s = State(bridge, deals=[order], dealer=W)
    h = s.hand
    for i, c in enumerate(order):
        assert h.dealt[(W + 1 + i) % 4] >> bridge.deck.parse(c) & 1
    assert [m.bit_count() for m in h.dealt] == [13] * 4
    calls(s, "pass pass pass pass")              # thrown in [A5]: the next dealer deals
    assert s.hand.dealer == N and s.to_move == N


# ---------------------------------------------------------------------------- auction [A1]-[A6]
def test_dealer_calls_first_then_clockwise(bridge):
    """[A1] the dealer calls first, then clockwise; a call is pass, a bid, X or XX."""
    for dealer in range(4):
        s = deal(bridge, [interleaved()], dealer=dealer)
        seen = []
        for t in ["pass", "1C", "X", "XX"]:
            seen.append(s.to_move)
            s.apply(t)
        assert seen == [(dealer + k) % 4 for k in range(4)]


def test_bids_must_rise(bridge):
    """[A2] 35 bids 1C < 1D < 1H < 1S < 1NT < 2C < ... < 7NT; each must be higher than the last."""
    bids = [b.text for b in bridge.auction().bids]
    assert bids == [f"{lv}{st}" for lv in range(1, 8) for st in ["C", "D", "H", "S", "NT"]]
    s = deal(bridge, [interleaved()])
    s.apply("1NT")
    legal = [a.text for a in s.legal_actions()]
    assert legal[:2] == ["pass", "2C"] and "1S" not in legal and "1NT" not in legal and "7NT" in legal
    for low in ("1S", "1NT"):
        with pytest.raises(IllegalActionError):
            s.apply(low)
    s.apply("2C")
    assert s.hand.high.text == "2C"


def test_double_only_an_opponents_bid(bridge):
    """[A3] X only of the last bid, made by an opponent and not yet doubled."""
    s = deal(bridge, [interleaved()])
    assert "X" not in [a.text for a in s.legal_actions()]           # no bid yet
    with pytest.raises(IllegalActionError):
        s.apply("X")
    calls(s, "1H")                                                 # N bids
    assert "X" in [a.text for a in s.legal_actions()]              # E, an opponent, may double
    s.apply("pass")
    assert "X" not in [a.text for a in s.legal_actions()]          # S, N's partner, may not
    with pytest.raises(IllegalActionError, match="own side"):
        s.apply("X")
    s.apply("pass")
    s.apply("X")                                                   # W doubles N's 1H
    assert s.hand.doubled == 1
    # N (the bidder) may redouble, not double again; E (the doubling side) may do neither
    legal = [a.text for a in s.legal_actions()]
    assert "XX" in legal and "X" not in legal
    s.apply("pass")
    legal = [a.text for a in s.legal_actions()]
    assert "X" not in legal and "XX" not in legal
    with pytest.raises(IllegalActionError):
        s.apply("X")
    with pytest.raises(IllegalActionError):
        s.apply("XX")


def test_redouble_only_own_sides_doubled_bid(bridge):
    """[A3] XX only of one's own side's bid, doubled by an opponent, not yet redoubled."""
    s = deal(bridge, [interleaved()])
    calls(s, "1S")                                                 # N
    assert "XX" not in [a.text for a in s.legal_actions()]         # not doubled yet
    calls(s, "X")                                                  # E doubles
    assert "XX" in [a.text for a in s.legal_actions()]             # S, N's partner, may redouble
    calls(s, "XX")
    assert s.hand.doubled == 2
    for seat in (W, N, E):                                         # nobody may X or XX again
        assert s.to_move == seat
        legal = [a.text for a in s.legal_actions()]
        assert "X" not in legal and "XX" not in legal
        s.apply("pass")
    assert s.hand.contract.text == "1S" and s.hand.doubled == 2 and s.hand.declarer == N


def test_new_bid_cancels_double(bridge):
    """[A3] a new bid cancels any double or redouble; [A6] the contract keeps the last state."""
    s = deal(bridge, [interleaved()])
    calls(s, "1H X XX 2C")
    assert s.hand.doubled == 0
    calls(s, "pass pass pass")
    assert s.hand.contract.text == "2C" and s.hand.doubled == 0 and s.hand.declarer == W
    s = deal(bridge, [interleaved()])
    calls(s, "1H X 2H pass pass pass")
    assert s.hand.contract.text == "2H" and s.hand.doubled == 0
    s = deal(bridge, [interleaved()])
    calls(s, "1H X pass pass XX pass pass pass")                   # N redoubles after two passes
    assert s.hand.contract.text == "1H" and s.hand.doubled == 2


def test_pass_does_not_stop_later_bidding(bridge):
    """[A4] a player who passed may bid later."""
    s = deal(bridge, [interleaved()])
    calls(s, "pass 1C pass pass")
    assert s.to_move == N and "2C" in [a.text for a in s.legal_actions()]
    calls(s, "2C pass pass pass")
    assert s.hand.contract.text == "2C" and s.hand.declarer == N


def test_three_passes_end_the_auction(bridge):
    """[A5] three passes in a row after a bid, double or redouble end it; two do not."""
    s = deal(bridge, [interleaved()])
    calls(s, "1C pass pass")
    assert s.phase_kind == "contract_auction"
    calls(s, "X pass pass")
    assert s.phase_kind == "contract_auction"
    calls(s, "pass")
    assert s.phase_kind == "tricks" and s.hand.contract.text == "1C" and s.hand.doubled == 1
    s = deal(bridge, [interleaved()])
    calls(s, "1C X XX pass pass")
    assert s.phase_kind == "contract_auction"
    calls(s, "pass")
    assert s.phase_kind == "tricks" and s.hand.doubled == 2


def test_four_passes_throw_the_deal_in(bridge):
    """[A5] all four pass at the start: thrown in unscored, the next dealer deals."""
    s = deal(bridge, [interleaved(), interleaved(1)], dealer=E)
    calls(s, "pass pass pass")
    assert s.phase_kind == "contract_auction"
    calls(s, "pass")
    row = s.sheet.rows[-1]
    assert row.void and row.entries == [0, 0] and s.sheet.totals() == [0, 0]
    assert s.hand.number == 1 and s.hand.dealer == S and s.to_move == S
    assert s.progress.game_score == [0, 0] and s.progress.games == [0, 0]


def test_declarer_is_first_of_the_side_to_name_the_strain(bridge):
    """[A6] the declarer is the player of the contracting side who first bid the strain."""
    s = deal(bridge, [interleaved()])
    # N 1H, S 2H, N 4H: N named hearts first -> N declares
    calls(s, "1H pass 2H pass 4H pass pass pass")
    assert s.hand.contract.text == "4H" and s.hand.declarer == N
    # N 1C, S 1H, N 2H, S 4H: S named hearts first -> S declares though N bid 2H
    s = deal(bridge, [interleaved()])
    calls(s, "1C pass 1H pass 2H pass 4H pass pass pass")
    assert s.hand.declarer == S
    # the opponents' earlier heart bid does not count: N pass, E 1H, S pass, W pass, N 2C,
    # E pass, S 2H, W pass, N 3H, E X, three passes -> S declares 3H doubled
    s = deal(bridge, [interleaved()])
    calls(s, "pass 1H pass pass 2C pass 2H pass 3H X pass pass pass")
    assert s.hand.contract.text == "3H" and s.hand.declarer == S and s.hand.doubled == 1


def test_chicago_passed_out_deal_redealt_by_same_dealer(chicago):
    """bridge-chicago: a passed-out deal is redealt by the same dealer and is not a deal of the
    round (deal 1 stays non-vulnerable)."""
    s = deal(chicago, [interleaved(), interleaved(1)], dealer=E)
    calls(s, "pass pass pass pass")
    assert s.sheet.rows == [] and s.hand.number == 1 and s.hand.dealer == E and s.to_move == E
    assert s.hand.vulnerable == [False, False] and s.board == 0


# ---------------------------------------------------------------------------- play [T1]-[T3]
def test_opening_lead_from_declarers_left_then_dummy_exposed(bridge):
    """[T1] the player on the declarer's left leads; dummy's cards are shown to every seat only
    after the opening lead; the declarer plays dummy's cards."""
    s = deal(bridge, [interleaved()])
    calls(s, "pass 1NT pass 3NT pass pass pass")                  # E 1NT, W 3NT: E declares
    h = s.hand
    assert h.declarer == E and h.dummy == W and s.to_move == S
    for seat in range(4):
        o = s.observation(seat)
        assert o.dummy == W and o.dummy_hand == 0
    s.apply(bridge.deck.name(next(bits(s.legal_play_mask()))))   # the opening lead by S
    for seat in range(4):
        assert s.observation(seat).dummy_hand == h.hands[W] != 0
    assert s.to_move == W and s.controller(W) == E
    assert s.observation(E).legal and not s.observation(W).legal
    # nobody but the dummy's cards becomes visible
    assert s.observation(N).hand == h.hands[N]


def test_follow_suit_no_obligation_to_trump(bridge):
    """[T2] follow suit if able, otherwise any card (no obligation to trump); the highest trump
    wins, else the highest card of the suit led; the winner leads next."""
    hands = [
        ["AC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],      # N
        ["2C", "3C", "4C", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"],      # E
        ["KC", "QC", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"],      # S
        ["5C", "6C", "7C", "8C", "9C", "10C", "JC", "AD", "QH", "KH", "AH", "KS", "AS"],     # W
    ]
    s = deal(bridge, [hands])
    calls(s, "pass pass 1S pass pass pass")                       # S declares spades; W leads
    s.apply("AD")                                                 # W leads a diamond
    assert sorted(a.text for a in s.legal_actions()) == sorted(f"play {r}D" for r in
                                                                "2 3 4 5 6 7 8 9 10 J Q K".split())
    s.apply("KD")                                                 # N (dummy) follows
    e_legal = {a.text for a in s.legal_actions()}
    assert len(e_legal) == 13                                     # E is void: any card
    s.apply("2C")                                                 # E discards
    assert len(s.legal_actions()) == 13                           # S void: may trump or not
    s.apply("2S")                                                 # S ruffs with the 2
    assert s.hand.tricks[-1][2] == S and s.to_move == S            # the trump wins, S leads
    s.apply("KC")
    s.apply("5C")
    s.apply("AC")                                                 # N overtakes his partner
    s.apply("3C")
    assert s.hand.tricks[-1][2] == N and s.to_move == N


def test_thirteen_tricks_count_for_the_side(bridge):
    """[T3] 13 tricks; tricks count for the side (declarer's and dummy's added)."""
    s = deal(bridge, [interleaved()])
    calls(s, "pass pass 2NT pass pass pass")
    h, rows = play_out(s, NS, 8)
    assert len(h.tricks) == 13 and h.won[N] + h.won[S] == 8 and h.won[E] + h.won[W] == 5
    assert rows[0].parts == {"below": [70, 0], "above": [0, 0]}


# ---------------------------------------------------------------------------- worked examples 1-12
def test_examples_formulas(bridge):
    """Examples 1-10 of rules/bridge.md straight from the variant's formulas: (below, above)."""
    nv, vul = (False, False), (True, False)
    tal = no_tally()
    cases = [
        # example, level, strain, declarer, tricks, doubled, vulnerable, below, above
        (1, 4, "S", S, 10, 0, nv, [120, 0], [0, 0]),
        (2, 3, "NT", S, 10, 0, nv, [100, 0], [30, 0]),
        (3, 2, "H", S, 8, 1, nv, [120, 0], [50, 0]),
        (4, 4, "H", S, 7, 1, vul, [0, 0], [0, 800]),
        (5, 1, "NT", N, 3, 2, nv, [0, 0], [0, 1600]),
        (6, 6, "C", S, 12, 0, vul, [120, 0], [750, 0]),
        (7, 7, "NT", S, 13, 0, nv, [220, 0], [1000, 0]),
        (8, 5, "D", S, 12, 1, vul, [200, 0], [250, 0]),
    ]
    for ex, lv, st, dec, won, dbl, v, below, above in cases:
        got = parts_of(bridge, lv, st, dec, won, dbl, v, tal)
        assert got == {"below": below, "above": above}, f"example {ex}"
    # example 9: North (dummy) holds A K Q J of spades, South declares 4S
    honours = [{"honours": 4, "aces": 0}, {"honours": 0, "aces": 0}]
    assert parts_of(bridge, 4, "S", S, 10, 0, nv, honours) == {"below": [120, 0], "above": [100, 0]}
    assert parts_of(bridge, 4, "S", S, 9, 0, nv, honours) == {"below": [0, 0], "above": [100, 50]}
    # example 10: 3NT by East, South holds all four aces
    aces = [{"honours": 0, "aces": 4}, {"honours": 0, "aces": 0}]
    assert parts_of(bridge, 3, "NT", E, 9, 0, nv, aces) == {"below": [0, 100], "above": [150, 0]}
    assert parts_of(bridge, 3, "NT", E, 8, 0, nv, aces) == {"below": [0, 0], "above": [200, 0]}


def test_example_1_4_6_11_rubber_won_two_nil(bridge):
    """A rubber played out: example 1 (4S, 10 tricks, not vulnerable: 120 below, a game; [S1]
    [S2]); example 4 (4H doubled, 7 tricks, vulnerable: defenders 800; [S6]); example 6 (6C
    vulnerable, 12 tricks: 120 below, 750 above; [S5]); example 11 (2-0: +700; [S8])."""
    s = deal(bridge, [interleaved(), interleaved(), strong(NS, "AKQ", seed=3)])
    calls(s, "pass pass 4S pass pass pass")                       # N deals; S declares 4S
    assert s.hand.vulnerable == [False, False]
    h, rows = play_out(s, NS, 10)
    assert h.declarer == S and rows[0].parts == {"below": [120, 0], "above": [0, 0]}
    assert rows[0].line and s.progress.games == [1, 0] and s.progress.game_score == [0, 0]

    calls(s, "pass 4H X pass pass pass")                           # E deals; S 4H, W doubles
    assert s.hand.vulnerable == [True, False]                      # [S2] NS won a game
    h, rows = play_out(s, NS, 7)
    assert h.declarer == S and h.doubled == 1
    assert rows[0].parts == {"below": [0, 0], "above": [0, 800]} and not rows[0].line

    calls(s, "6C pass pass pass")                                  # S deals and declares 6C
    assert s.hand.vulnerable == [True, False]
    h, rows = play_out(s, NS, 12)
    assert h.declarer == S
    assert rows[0].parts == {"below": [120, 0], "above": [750, 0]} and rows[0].line
    assert len(rows) == 2 and rows[1].bonus and rows[1].entries == [700, 0]   # [S8] 2-0
    assert rows[1].parts == {"above": [700, 0]}
    assert s.is_over and s.winners == [N, S]
    assert s.sheet.totals() == [120 + 120 + 750 + 700, 800]
    # [S10] difference 890 -> 9 per player
    assert bridge.match.settle(Env({"difference": 890})) == 9


def test_example_2_8_vulnerable_doubled_overtricks(bridge):
    """Example 2 (3NT, 10 tricks: 100 below, 30 above; [S1] [S3]), then example 8 (5D doubled,
    vulnerable, 12 tricks: 200 below, 200 overtrick + 50 insult above; [S3] [S4])."""
    s = deal(bridge, [interleaved(), strong(NS, "AKQ", seed=6)])
    calls(s, "pass pass 3NT pass pass pass")
    h, rows = play_out(s, NS, 10)
    assert rows[0].parts == {"below": [100, 0], "above": [30, 0]} and rows[0].line

    calls(s, "pass 5D X pass pass pass")
    assert s.hand.vulnerable == [True, False]
    h, rows = play_out(s, NS, 12)
    assert h.contract.text == "5D" and h.doubled == 1
    assert rows[0].parts == {"below": [200, 0], "above": [250, 0]}
    assert rows[1].entries == [700, 0]


def test_example_3_11_12_rubber_won_two_one(bridge):
    """Example 3 (2H doubled, 8 tricks, not vulnerable: 120 below, a game, 50 above; [S4]);
    example 11 (2-1: +500; [S8])."""
    s = deal(bridge, [interleaved(), interleaved(), interleaved(1)], dealer=N)
    calls(s, "pass 4H pass pass pass")                             # E declares 4H
    h, rows = play_out(s, EW, 10)
    assert rows[0].parts == {"below": [0, 120], "above": [0, 0]} and s.progress.games == [0, 1]

    calls(s, "pass 2H X pass pass pass")                           # E deals; S 2H, W doubles
    assert s.hand.vulnerable == [False, True]
    h, rows = play_out(s, NS, 8)
    assert rows[0].parts == {"below": [120, 0], "above": [50, 0]} and rows[0].line
    assert s.progress.games == [1, 1]

    calls(s, "3NT pass pass pass")                                 # S deals and declares 3NT
    assert s.hand.vulnerable == [True, True]
    h, rows = play_out(s, NS, 9)
    assert rows[0].parts == {"below": [100, 0], "above": [0, 0]}
    assert rows[1].bonus and rows[1].entries == [500, 0] and s.is_over


def test_example_12_part_scores_and_unfinished_rubber(bridge):
    """Example 12 [S2]: NS 2S (60), EW 3C (60), NS 2H (60): NS's 120 is a game, a line is drawn,
    and EW's 60 no longer counts toward game.  Then [S9]: the match stops with NS alone having
    won a game (300) and EW alone a part-score in the unfinished game (100)."""
    hands = [interleaved(k % 2) for k in range(4)]
    s = deal(bridge, hands)
    calls(s, "pass pass 2S pass pass pass")
    h, rows = play_out(s, NS, 8)
    assert rows[0].parts["below"] == [60, 0] and not rows[0].line
    calls(s, "3C pass pass pass")                                  # E deals and declares
    h, rows = play_out(s, EW, 9)
    assert rows[0].parts["below"] == [0, 60] and not rows[0].line
    assert s.progress.game_score == [60, 60]
    assert s.progress.unfinished(bridge) == [0, 0]                 # both have a part-score
    calls(s, "2H pass pass pass")                                  # S deals and declares
    h, rows = play_out(s, NS, 8)
    assert rows[0].parts["below"] == [60, 0] and rows[0].line     # 60 + 60 = 120: game
    assert s.progress.games == [1, 0] and s.progress.game_score == [0, 0]
    assert s.sheet.totals() == [120, 60]
    calls(s, "2C pass pass pass")                                  # W deals and declares 2C
    h, rows = play_out(s, EW, 8)
    assert rows[0].parts["below"] == [0, 40] and not rows[0].line  # 40 + (old 60) is no game
    assert s.progress.game_score == [0, 40] and s.progress.games == [1, 0]
    assert not s.is_over
    assert s.progress.unfinished(bridge) == [300, 100]             # [S9]


def test_unfinished_rubber_cases(bridge):
    """[S9] a side that alone has won a game scores 300, a side that alone has a part-score in
    the unfinished game 100; both having games or part-scores gives nothing."""
    from rulekit.engine.progress import Progress
    for games, part, want in [([1, 0], [0, 0], [300, 0]), ([1, 1], [0, 0], [0, 0]),
                              ([0, 0], [40, 0], [100, 0]), ([0, 1], [70, 20], [0, 300]),
                              ([1, 0], [0, 90], [300, 100]), ([0, 0], [0, 0], [0, 0])]:
        p = Progress(2)
        p.games, p.game_score = list(games), list(part)
        assert p.unfinished(bridge) == want, (games, part)


def test_example_9_honours_in_dummy(bridge):
    """Example 9 [S7]: 4S by South, North (dummy) holds A K Q J of spades: NS 100 honours above;
    failing by one, EW also score 50 (not vulnerable) [S6]."""
    hands = make_hands({N: ["AS", "KS", "QS", "JS"]}, seed=0)
    assert "10S" in hands[S]
    for tricks, want in [(10, {"below": [120, 0], "above": [100, 0]}),
                         (9, {"below": [0, 0], "above": [100, 50]})]:
        s = deal(bridge, [hands])
        calls(s, "pass pass 4S pass pass pass")
        h, rows = play_out(s, NS, tricks)
        assert h.declarer == S and h.dummy == N
        assert rows[0].parts == want


def test_honours_count_for_defenders_too(bridge):
    """[S7] honours score to the side holding them, whoever declared: E holds all five trump
    honours while South declares 4S: EW +150 whether NS make or not."""
    hands = make_hands({E: ["AS", "KS", "QS", "JS", "10S"]}, seed=4)
    s = deal(bridge, [hands])
    calls(s, "pass pass 1S pass pass pass")
    h, rows = play_out(s, NS, 7)
    assert rows[0].parts == {"below": [30, 0], "above": [0, 150]}
    # honours held four in one hand and one in the partner's hand: 100 (four in one hand)
    hands = make_hands({E: ["AS", "KS", "QS", "JS"], W: ["10S"]}, seed=4)
    s = deal(bridge, [hands])
    calls(s, "pass pass 1S pass pass pass")
    h, rows = play_out(s, NS, 6)
    assert rows[0].parts == {"below": [0, 0], "above": [0, 100 + 50]}
    # split between the partners (three and two): nothing
    hands = make_hands({E: ["AS", "KS", "QS"], W: ["JS", "10S"]}, seed=4)
    s = deal(bridge, [hands])
    calls(s, "pass pass 1S pass pass pass")
    h, rows = play_out(s, NS, 7)
    assert rows[0].parts == {"below": [30, 0], "above": [0, 0]}


def test_example_10_four_aces_at_no_trump(bridge):
    """Example 10 [S7]: 3NT by East, South holds all four aces: NS 150 above."""
    hands = make_hands({S: ["AC", "AD", "AH", "AS"], E: ["KC", "KD", "KH", "KS", "QC", "QD"],
                        W: ["QH", "QS", "JC", "JD", "JH", "JS"]}, seed=2)
    s = deal(bridge, [hands])
    calls(s, "pass 3NT pass pass pass")
    h, rows = play_out(s, EW, 9)
    assert h.declarer == E
    assert rows[0].parts == {"below": [0, 100], "above": [150, 0]}


def test_example_5_redoubled_undertricks(bridge):
    """Example 5 [S6]: 1NT redoubled, 3 tricks, not vulnerable: 200 + 400 + 400 + 600 = 1600."""
    s = deal(bridge, [strong(EW, "AKQ", seed=0)])
    calls(s, "1NT X XX pass pass pass")
    h, rows = play_out(s, NS, 3)
    assert h.declarer == N and h.doubled == 2
    assert rows[0].parts == {"below": [0, 0], "above": [0, 1600]}


def test_example_7_grand_slam(bridge):
    """Example 7 [S1] [S5]: 7NT not vulnerable, 13 tricks: 220 below, 1000 above."""
    s = deal(bridge, [strong(NS, "AKQ", seed=0)])
    calls(s, "7NT pass pass pass")
    h, rows = play_out(s, NS, 13)
    assert rows[0].parts == {"below": [220, 0], "above": [1000, 0]} and rows[0].line


def test_rubber_bonus_formula(bridge):
    """[S8] 700 if the losers won no game, 500 if one."""
    assert bridge.match.rubber_games == 2
    assert bridge.match.rubber_bonus(Env({"their_games": 0})) == 700
    assert bridge.match.rubber_bonus(Env({"their_games": 1})) == 500


@pytest.mark.parametrize("difference,want", [(1150, 12), (1149, 11), (1250, 13), (1251, 13), (1249, 12),
                                             (50, 1), (49, 0), (0, 0), (890, 9), (2000, 20)])
def test_settlement_rounds_half_up(bridge, difference, want):
    """[S10] the difference divided by 100, rounded to the nearest whole number, a half up."""
    assert bridge.match.settle(Env({"difference": difference})) == want


# ---------------------------------------------------------------------------- duplicate and Chicago
def test_duplicate_examples_formulas(duplicate):
    """bridge-duplicate examples: 4S made vulnerable 620; 3NT nv 400; 1NT made 90; 4H doubled
    down 3 vulnerable -800; 7NT made vulnerable 2220 (NS score = NS entry - EW entry)."""
    vul, nv = (True, True), (False, False)
    for lv, st, won, dbl, v, ns in [(4, "S", 10, 0, vul, 620), (3, "NT", 9, 0, nv, 400),
                                    (1, "NT", 7, 0, nv, 90), (1, "NT", 7, 0, vul, 90),
                                    (4, "H", 7, 1, vul, -800), (7, "NT", 13, 0, vul, 2220)]:
        got = parts_of(duplicate, lv, st, S, won, dbl, v)
        assert got["score"][0] - got["score"][1] == ns, (lv, st, won)
        assert 0 in got["score"]                                   # only one side scores


def test_duplicate_examples_played(duplicate):
    """The duplicate examples on the boards of a real set: board 1 (none) 3NT made 400; board 2
    (NS vulnerable) 4S made 620; board 3 (EW) 1NT by N made 90; board 4 (both) 7NT 2220;
    board 5 (NS) 4H doubled down 3 -800.  No honours [S7] and no rubber bonus in duplicate."""
    hands = [interleaved(), make_hands({S: ["AS", "KS", "QS", "JS", "10S"]}, seed=5), interleaved(),
             strong(NS, "AKQ"), interleaved()]
    s = deal(duplicate, hands, dealer=N)
    want = []
    calls(s, "pass pass 3NT pass pass pass")
    assert s.hand.vulnerable == [False, False]
    play_out(s, NS, 9)
    want.append([400, 0])
    calls(s, "pass 4S pass pass pass")                             # E deals; S 4S with 5 honours
    assert s.hand.vulnerable == [True, False]
    play_out(s, NS, 10)
    want.append([620, 0])                                          # no honours in duplicate
    calls(s, "pass pass 1NT pass pass pass")                       # S deals; N 1NT
    assert s.hand.vulnerable == [False, True]
    h, _ = play_out(s, NS, 7)
    assert h.declarer == N
    want.append([90, 0])
    calls(s, "pass 7NT pass pass pass")                            # W deals; N 7NT
    assert s.hand.vulnerable == [True, True]
    play_out(s, NS, 13)
    want.append([2220, 0])
    calls(s, "pass pass 4H X pass pass pass")                      # N deals; S 4H, W doubles
    assert s.hand.vulnerable == [True, False]
    play_out(s, NS, 7)
    want.append([0, 800])
    assert [r.entries for r in s.sheet.rows] == want
    assert not any(r.line or r.bonus for r in s.sheet.rows)
    assert s.sheet.totals() == [400 + 620 + 90 + 2220, 800]


STANDARD_16 = ["none", "NS", "EW", "both", "NS", "EW", "both", "none",
               "EW", "both", "none", "NS", "both", "none", "NS", "EW"]


def _vul_name(v):
    return {(False, False): "none", (True, False): "NS", (False, True): "EW", (True, True): "both"}[tuple(v)]


def test_duplicate_vulnerability_cycle_of_16_boards(duplicate):
    """bridge-duplicate: vulnerability by board number, the standard 16-board cycle; board 1 is
    dealt by North and the deal passes clockwise; a passed-out board is a board; the set is 16."""
    s = State(duplicate, seed=7)
    seen, dealers = [], []
    for board in range(16):
        assert not s.is_over
        seen.append(_vul_name(s.hand.vulnerable))
        dealers.append(s.hand.dealer)
        assert s.observation((board * 3) % 4).vulnerable == list(s.hand.vulnerable)
        calls(s, "pass pass pass pass")
    assert seen == STANDARD_16
    assert dealers == [b % 4 for b in range(16)]
    assert s.is_over and len(s.sheet.rows) == 16
    from rulekit.engine.progress import Progress
    p = Progress(2)
    assert [_vul_name(p.vulnerable(duplicate, b, b % 4)) for b in range(32)] == STANDARD_16 * 2


def _fast_deal(state, bid="1C"):
    """The dealer opens ``bid``, three passes, then the first legal card every time."""
    calls(state, [bid, "pass", "pass", "pass"])
    h = state.hand
    while state.hand is h and h.to_move >= 0:
        state.play_fast(next(bits(state.legal_play_mask())))


def test_chicago_vulnerability_and_round(chicago):
    """bridge-chicago: deal 1 nobody vulnerable, deals 2 and 3 the dealer's side, deal 4 both;
    a round is four deals; a passed-out deal is redealt by the same dealer and does not count."""
    s = State(chicago, seed=3, dealer=W)
    seen = []
    calls(s, "pass pass pass pass")                                # redealt by W: still deal 1
    assert s.hand.dealer == W
    for k in range(4):
        assert not s.is_over
        seen.append((s.hand.dealer, _vul_name(s.hand.vulnerable)))
        if k == 2:
            calls(s, "pass pass pass pass")                        # deal 3 passed out: redealt
            assert (s.hand.dealer, _vul_name(s.hand.vulnerable)) == seen[-1]
        _fast_deal(s)
    # W deals 1 (none), N deals 2 (NS), E deals 3 (EW), S deals 4 (both)
    assert seen == [(W, "none"), (N, "NS"), (E, "EW"), (S, "both")]
    assert s.is_over and len(s.sheet.rows) == 4


def test_chicago_scores_as_duplicate(chicago, duplicate):
    """bridge-chicago: bonuses as duplicate (4S made vulnerable 620; 3NT made not vulnerable 400)."""
    for lv, st, won, v, ns in [(4, "S", 10, (True, False), 620), (3, "NT", 9, (False, False), 400),
                               (4, "H", 7, (True, False), -100 * 3)]:
        a = parts_of(chicago, lv, st, S, won, 0, v)
        b = parts_of(duplicate, lv, st, S, won, 0, v)
        assert a == b and a["score"][0] - a["score"][1] == ns
