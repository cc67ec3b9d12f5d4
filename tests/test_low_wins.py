"""Low-wins contracts ("what rulekit cannot express yet": Bid Whist's downtown), on a
small made-up game that is not Bid Whist: three players, 25 cards (9 to A and a joker), seven
cards each and a widow of four; one round of bids hi (trumps named later, high cards win),
lo (trumps named later, low cards win) and NT (no trump, the declarer says high or low).

Also the pieces that came with it: ``ranking.low`` (a second set of trick tables),
``ranking.powerless`` (a joker with no power at no trump), ``once`` and ``book`` in a ladder
auction, and ``high``/``low`` as the declarer's choice in ``name_trump``."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine import State
from rulekit.engine.phases import tricks as _tricks
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import check_file, load_variant
from rulekit.variant.explain import explain
from tests.helpers import mask, write_variant

UPDOWN = """id: updown
name: Up and Down
source: "made up for tests/test_low_wins.py"
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A], jokers: 1}
ranking:
  suit: "A K Q J 10 9"
  trump: "JK A K Q J 10 9"
%(extra)s%(low)sdealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "1 x 7, widow 4"}
  auction:
    kind: ladder_auction
    once: true
    book: 2
    levels: [2, 3, 4]
    strains:
      - {call: hi, strain: chosen}
      - {call: lo, strain: chosen, wins: %(lo)s}
      - {call: NT, strain: NT, wins: chosen}
    all_pass: redeal
  exchange: {kind: widow_exchange, discard: 4}
  trump: {kind: name_trump, choices: [S, H, D, C]}
  play: {kind: tricks, lead: declarer}
scoring:
  let: {made: "declarer_tricks >= 2 + level"}
  declarer: "if made then level else -level"
  defender: "0"
match: {target: 12}
"""

LOW = '  low: {suit: "9 10 J Q K A", trump: "JK 9 10 J Q K A"}\n'

POWERLESS = '  powerless: "JK"\n'


def write(tmp_path, low=LOW, extra=POWERLESS, lo="low"):
    return Path(write_variant(tmp_path, "updown.yaml", UPDOWN % dict(low=low, extra=extra, lo=lo)))


def updown(tmp_path, **kw):
    return load_variant(str(write(tmp_path, **kw)))


# P0 deals, so P1 is eldest and bids first.
HANDS = ["9S 10S AS 9H KH QD JC", "JS KS 10H AH 9D AD 9C", "QS 10D JD KD 10C QC KC"]

WIDOW = "JH QH AC JK"


def dealt(v) -> State:
    """A state at the auction with the deal above (the cards replaced after the shuffle)."""
    s = State(v, seed=1)
    h = s.hand
    assert s.kind.name == "ladder_auction" and h.to_move == 1
    h.hands = [mask(v, t) for t in HANDS]
    h.dealt = list(h.hands)
    h.zones["widow"] = mask(v, WIDOW)
    return s


def to_play(s: State, calls, discard: str, *names) -> State:
    for c in calls:
        s.apply(s.parse_action(c))
    s.apply(s.parse_action("discard " + discard))
    for n in names:
        s.apply(s.parse_action(n))
    assert s.kind.name == "tricks"
    return s


def test_a_low_bid_makes_the_lowest_card_win(tmp_path):
    """Low-wins contracts: after `3lo` with hearts named, the lowest heart wins a heart
    trick, the low order's top trump (the joker, then 9) beats a plain suit, and the follow rule
    is unchanged (a refused card says which suit)."""
    v = updown(tmp_path)
    s = to_play(dealt(v), ["2hi", "3lo", "pass"], "10D JD KD 10C", "trump H")
    h = s.hand
    assert (h.declarer, h.trump, h.ctx.low) == (2, "H", True)
    assert h.hands[2] == mask(v, "QS QC KC JH QH AC JK")     # the widow taken, four discarded
    # P2 leads QS; P0 follows 9S (low wins), P1 must follow spades
    s.apply(s.parse_action("QS"))
    s.apply(s.parse_action("9S"))
    with pytest.raises(IllegalActionError, match="you must follow spades: you hold J♠ K♠"):
        s.apply(s.parse_action("9C"))
    s.apply(s.parse_action("KS"))
    assert h.tricks[-1][2] == 0                      # P0's nine of spades wins (the lowest)
    s.apply(s.parse_action("10S"))                   # P0 leads
    s.apply(s.parse_action("JS"))                    # P1
    s.apply(s.parse_action("JH"))                    # P2 has no spade: trumps with JH
    assert h.tricks[-1][2] == 2                      # a trump beats the plain suit
    s.apply(s.parse_action("JK"))                    # P2 leads the joker, the highest trump
    s.apply(s.parse_action("9H"))                    # P0: the best heart in the low order, second
    s.apply(s.parse_action("10H"))
    assert h.tricks[-1][2] == 2


def test_the_same_cards_win_high_under_a_high_bid(tmp_path):
    """The same deal under `3hi` (high cards win): the king of spades takes the trick
    the nine took under `3lo` — the bid, not the trump suit, chose the tables."""
    v = updown(tmp_path)
    s = to_play(dealt(v), ["2hi", "3hi", "pass"], "10D JD KD 10C", "trump H")
    h = s.hand
    assert (h.declarer, h.ctx.low) == (2, False)
    for c in ("QS", "9S", "KS"):
        s.apply(s.parse_action(c))
    assert h.tricks[-1][2] == 1


def test_no_trump_bid_asks_high_or_low(tmp_path):
    """A bid with `wins: chosen` (NT) makes its declarer say high or low in
    name_trump; a trump call is refused with the reason; `low` selects the low tables."""
    v = updown(tmp_path)
    s = dealt(v)
    for c in ("pass", "2NT", "pass"):
        s.apply(s.parse_action(c))
    s.apply(s.parse_action("discard 10D JD KD 10C"))
    assert s.kind.name == "name_trump" and [a.text for a in s.legal_actions()] == ["high", "low"]
    with pytest.raises(IllegalActionError, match="say which cards win this hand: high"):
        s.apply(s.parse_action("trump H"))
    s.apply(s.parse_action("low"))
    h = s.hand
    assert (h.trump, h.ctx.low, s.kind.name) == ("NT", True, "tricks")
    assert s.observation(0).low is True
    assert h.actions[-2:] == [(2, "discard 10D JD KD 10C"), (2, "low")]    # in the hand's record


def test_the_bidding_goes_round_once(tmp_path):
    """`once: true`: each player speaks once; the highest bid then wins, even when the
    first bidder was outbid and would have bid again in an open auction."""
    v = updown(tmp_path)
    s = dealt(v)
    for c in ("2hi", "2lo", "pass"):
        s.apply(s.parse_action(c))
    assert (s.hand.declarer, s.hand.contract.text, s.kind.name) == (2, "2lo", "widow_exchange")


def test_a_powerless_joker_at_no_trump(tmp_path):
    """`ranking.powerless`: at no trump the joker follows no suit — a player who can
    follow may not play it — never wins, and when led the next card sets the suit."""
    v = updown(tmp_path)
    s = dealt(v)
    for c in ("pass", "2NT", "pass"):
        s.apply(s.parse_action(c))
    s.apply(s.parse_action("discard 10D JD KD 10C"))  # P2 keeps the widow's joker
    s.apply(s.parse_action("high"))
    h = s.hand
    assert h.hands[2] >> v.deck.parse("JK") & 1
    s.apply(s.parse_action("JK"))                     # the joker led: no suit to follow yet
    assert _tricks.legal_mask(s, 0) == h.hands[0]
    s.apply(s.parse_action("9H"))                     # P0's heart sets the suit
    with pytest.raises(IllegalActionError, match="you must follow hearts: you hold 10♥ A♥"):
        s.apply(s.parse_action("9C"))
    s.apply(s.parse_action("AH"))
    assert h.tricks[-1][2] == 1                       # the ace of hearts, not the joker, wins
    ctx = v.contexts["NT"]
    assert ctx.trump_group is None and ctx.idle_group == len(v.deck.suits) + 1
    assert all(k == -1 for k in (ctx.win_keys[g][v.deck.parse("JK")] for g in range(5)))


def test_a_low_bid_without_a_low_order_is_refused(tmp_path):
    """A strain with `wins: low` needs `ranking.low`; the message says where and what."""
    f = write(tmp_path, low="")
    diags = check_file(str(f))
    assert [str(d) for d in diags] == [
        f"{f}:20:9: phases.auction.strains.1: bid 2lo is won by low cards (wins: low) but the variant has no low "
        f"order (expected a ranking.low block, e.g. low: {{suit: \"2 3 4 5 A\"}})"]
    with pytest.raises(VariantError):
        load_variant(str(f))


def test_a_low_order_without_a_low_bid_is_a_warning(tmp_path):
    """`ranking.low` when no bid is won by low cards has no effect (a warning)."""
    text = (UPDOWN % dict(low=LOW, extra=POWERLESS, lo="high")).replace(
        "{call: NT, strain: NT, wins: chosen}", "{call: NT, strain: NT}")
    f = tmp_path / "updown.yaml"
    f.write_text(text)
    diags = check_file(str(f), warnings=True)
    assert [str(d) for d in diags] == [
        f"{f}:10:3: warning: ranking.low: has no effect: no bid is won by low cards (expected a strain "
        f"with wins: low or chosen)"]


def test_explain_describes_the_low_order_and_the_bids(tmp_path):
    """`rulekit explain` says what each strain word means, the low order and the
    declarer's high/low choice."""
    text = explain(updown(tmp_path))
    assert "lo: the declarer names trumps, the lowest cards win (the low order)" in text
    assert "NT: no trump, the declarer says whether the highest or the lowest cards win" in text
    assert "the cards of a plain suit rank 9 10 J Q K A, best first" in text
    assert "a number (the tricks to win over the first 2, the book)" in text
    assert "then says `high` (the highest cards win) or `low`" in text
    assert "The bidding goes round once" in text


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_matches_end(tmp_path, seed):
    """Every file that validates must play: random legal moves end the match."""
    import random
    v = updown(tmp_path)
    s = State(v, seed=seed, max_hands=200)
    rng = random.Random(seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply(acts[int(rng.random() * len(acts))])
    assert s.winners


def test_jokers_top_the_trumps_in_both_orders_with_a_deck_that_is_not_a_grid(tmp_path):
    """Brief: jokers as top trumps with a non-grid deck: a deck without the nine of
    clubs (`minus`) and with two jokers; in the high and the low tables of hearts the jokers are the
    two best trumps, in that order, and at no trump both are powerless."""
    text = (UPDOWN % dict(low='  low: {suit: "9 10 J Q K A", trump: "JK1 JK2 9 10 J Q K A"}\n',
                          extra='  powerless: "JK1 JK2"\n', lo="low"))
    text = text.replace('jokers: 1}', 'jokers: 2, minus: [9C]}').replace('"JK A K Q J 10 9"',
                                                                        '"JK1 JK2 A K Q J 10 9"')
    f = tmp_path / "updown.yaml"
    f.write_text(text)
    v = load_variant(str(f))
    assert v.deck.size == 25 and "9C" not in v.deck.index
    jk1, jk2, ah, nh = (v.deck.parse(c) for c in ("JK1", "JK2", "AH", "9H"))
    for ctx, best_heart in ((v.contexts["H"], ah), (v.low_contexts["H"], nh)):
        led_spades = ctx.win_keys[0]
        assert led_spades[jk1] > led_spades[jk2] > led_spades[best_heart] > max(
            led_spades[c] for c in range(v.deck.size) if v.deck.suit_of(c) == "S")
    assert v.contexts["NT"].idle_group == v.low_contexts["NT"].idle_group == len(v.deck.suits) + 1


# ---------------------------------------------------------------- strain of worded strains
def test_strain_is_the_place_of_a_worded_strain_and_low_wins_says_the_order(tmp_path):
    """With strains ``{call: hi, strain: chosen}``, ``{call: lo,
    strain: chosen, wins: low}``, ``NT`` a declarer formula "100 + strain" gave 100 for 3hi and
    3lo whatever suit was named; ``strain`` is the strain's place in the list (hi 0, lo 1, NT 2),
    and ``low_wins`` is 1 when the lowest cards win the hand (lo, or NT played low)."""
    from tests.test_low_wins import UPDOWN, LOW, POWERLESS
    from rulekit.engine.scoring import player_envs
    text = UPDOWN % dict(low=LOW, extra=POWERLESS, lo="low")
    text = text.replace('declarer: "if made then level else -level"', 'declarer: "100 + strain + 10 * low_wins"')
    v = load_variant(write_variant(tmp_path, "updown.yaml", text))
    bids = {b.text: b for b in v.auction().bids}
    got = {}
    for bid, suit, low in (("3hi", "S", False), ("3hi", "H", False), ("3lo", "S", True), ("3lo", "D", True),
                           ("3NT", "NT", False), ("3NT", "NT", True)):
        s = State(v, seed=1)
        h = s.hand
        h.contract, h.declarer = bids[bid], 1
        s.set_trump(suit, low=low)
        env = player_envs(v, h)[1]
        got[(bid, suit, low)] = (env.vars["strain"], env.vars["low_wins"])
    assert got == {("3hi", "S", False): (0, False), ("3hi", "H", False): (0, False),
                   ("3lo", "S", True): (1, True), ("3lo", "D", True): (1, True),
                   ("3NT", "NT", False): (2, False), ("3NT", "NT", True): (2, True)}
    from rulekit.engine.scoring import HandFacts, score_facts
    entries = score_facts(v, HandFacts(bids["3lo"], 1, "S", [0, 5, 0]))[0]
    assert entries[1] == 111   # 100 + strain 1 + 10 for low cards winning
