"""French Tarot (variants/tarot.yaml) against docs/rules/tarot.md: each worked example of the
rules page on explicit deals, then random deals played side by side with the independent
referee (tests/referees/tarot.py): the same legal set at every decision, the same result.

The rules page numbers the seats in the order of play (seat s + 1 plays after seat s); rulekit
numbers them clockwise and plays counter-clockwise, so the page's seat ``r`` is rulekit's seat
``-r mod 4``.  Cards are written alike but for the trumps: the page's ``T5`` is ``5T``.  The
poignée and the announced chelem are not in the variant (its ``omitted:``); the referee runs
without them."""
from __future__ import annotations

import random

import pytest

from rulekit.dsl import Env
from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, explicit_order
from tests.referees import tarot as ref

V = load_variant("tarot")
N = 4
OPTIONS = {"poignee": False, "chelem_announce": False}
CALLS = {"pass": "pass", "bid prise": "prise", "bid garde": "garde", "bid garde sans": "sans",
         "bid garde contre": "contre"}
BIDS = {v: k for k, v in CALLS.items()}


def seat(r: int) -> int:
    """The rules page's seat ``r`` (order of play) as rulekit's seat."""
    return -r % N


def card(c: str) -> str:
    """A card of the page (``T5``, ``KS``, ``EX``) in rulekit's text (``5T``)."""
    return c[1:] + "T" if c.startswith("T") else c


def page_card(c: str) -> str:
    return "T" + c[:-1] if c.endswith("T") and c[:-1].isdigit() else c


def state(hands: list[list[str]], dog: list[str], dealer: int) -> State:
    """A deal of the page's ``hands`` (by the page's seats) and ``dog``, ``dealer`` a page seat."""
    by_seat = [[] for _ in range(N)]
    for r, h in enumerate(hands):
        by_seat[seat(r)] = [card(c) for c in h]
    order = explicit_order(V, seat(dealer), by_seat, {"dog": [card(c) for c in dog]})
    return State(V, seed=0, deals=[order], dealer=seat(dealer))


def rk_action(a: str) -> str:
    """A page action in rulekit's words (``bid garde sans`` -> ``sans``, ``play T5`` -> ``play 5T``)."""
    if a in CALLS:
        return CALLS[a]
    word, _, c = a.partition(" ")
    return f"{word} {card(c)}"


def page_legal(s: State) -> list[str]:
    """The legal actions of ``s`` in the page's words, sorted as the referee sorts them."""
    out = []
    for a in s.legal_actions():
        if a.kind == "play":
            out.append("play " + page_card(V.deck.name(a.card)))
        else:
            out.append(BIDS.get(a.text, a.text))
    return sorted(out)


def legal_cards(s: State) -> set[str]:
    return {page_card(V.deck.name(a.card)) for a in s.legal_actions() if a.kind == "play"}


# ------------------------------------------------------------------ the worked examples
def random_hands(rng, dealer=3):
    hands, extra = ref.deal_random(rng, dealer)
    while any(ref.petit_sec(h) for h in hands):
        hands, extra = ref.deal_random(rng, dealer)
    return hands, extra["dog"]


def test_example1_bidding():
    """[TA-B1]-[TA-B3] Dealer 3: seat 0 may pass or bid any contract; after ``garde`` seat 1 may
    pass, ``garde sans`` or ``garde contre``; four passes: nothing is scored."""
    hands, dog = random_hands(random.Random(1))
    s = state(hands, dog, 3)
    assert s.to_move == seat(0) and page_legal(s) == ["bid garde", "bid garde contre", "bid garde sans",
                                                      "bid prise", "pass"]
    s.apply("garde")
    assert s.to_move == seat(1) and page_legal(s) == ["bid garde contre", "bid garde sans", "pass"]
    s = state(hands, dog, 3)
    for _ in range(4):
        s.apply("pass")
    row = s.sheet.rows[0]
    assert row.void and s.hand_log[0].void and s.hand.number == 1


def test_example2_petit_sec_annuls_the_deal():
    """[TA-D3] A hand whose only trump is the Petit, without the Excuse, annuls the deal (thrown
    in unscored, the next dealer deals); with the Excuse it does not."""
    plain = [r + s for s in ref.SUITS for r in ref.RANKS]
    seat0 = ["T1"] + plain[:17]
    rest = [c for c in ref.PACK if c not in seat0]
    hands = [seat0, rest[:18], rest[18:36], rest[36:54]]
    dog = rest[54:]
    s = state(hands, dog, 3)
    assert s.hand_log and s.hand_log[0].void and s.sheet.rows[0].void and s.hand.number == 1
    where = next(h for h in hands + [dog] if "EX" in h)   # give seat 0 the Excuse for a plain card
    where[where.index("EX")] = seat0[-1]
    seat0[-1] = "EX"
    s = state(hands, dog, 3)
    assert not s.hand_log and s.hand.number == 0 and s.kind.name == "list_auction"


def follow(trick: list[str], hand: str) -> set[str]:
    """The cards a player holding ``hand`` may play after ``trick`` (the page's notation): page
    seats 0, 1... play the trick (seat 0 leads, having bid garde sans: no dog to take), then he
    plays.  His other cards are of a suit not led, never a trump or the Excuse (they change
    nothing he may play);
    the others' cards are drawn at random until the trick's cards are theirs to play."""
    mine = hand.split()
    me = len(trick)
    rng = random.Random(len(trick) * 100 + len(mine))
    for _ in range(200):
        spare = [c for c in ref.PACK if c not in mine and c not in trick]
        rng.shuffle(spare)
        led = next(ref.suit_of(c) for c in trick if c != "EX")
        neutral = [c for c in spare if ref.suit_of(c) not in (led, "T", "")]
        page = [[] for _ in range(N)]
        for i, c in enumerate(trick):
            page[i].append(c)
        page[me] = mine + neutral[:18 - len(mine)]
        rest = [c for c in spare if c not in page[me]]
        for i in range(N):
            if i != me:
                while len(page[i]) < 18:
                    page[i].append(rest.pop())
        if any(ref.petit_sec(h) for h in page):
            continue
        s = state(page, rest, N - 1)          # dealer 3: page seat 0 speaks and leads first
        s.apply("sans")
        for _ in range(3):
            s.apply("pass")
        try:
            for c in trick:
                s.apply("play " + card(c))
        except IllegalActionError:
            continue                          # an earlier player could not play his card: draw again
        assert s.to_move == seat(me)
        return legal_cards(s) & set(mine)
    raise AssertionError("no deal lets the trick be played")


def test_example3_following():
    """[TA-P2]-[TA-P4] [TA-E1] 5♥ led: 2♥ K♥ T3 EX may play 2♥, K♥, EX. After 5♥ T8: T5 T12 K♠ EX
    may play T12 or EX; T5 K♠ must play T5; K♠ 4♦ either. After T10 T15: T3 T17 K♠ must play T17;
    T3 K♠ must play T3. After an Excuse lead and 7♣: 2♣ T5 must play 2♣."""
    assert follow(["5H"], "2H KH T3 EX") == {"2H", "KH", "EX"}
    assert follow(["5H", "T8"], "T5 T12 KS EX") == {"T12", "EX"}
    assert follow(["5H", "T8"], "T5 KS") == {"T5"}
    assert follow(["5H", "T8"], "KS 4D") == {"KS", "4D"}
    assert follow(["T10", "T15"], "T3 T17 KS") == {"T17"}
    assert follow(["T10", "T15"], "T3 KS") == {"T3"}
    assert follow(["EX", "7C"], "2C T5") == {"2C"}


def per_defender(value: int, halves: int, oudlers: int, au_bout: str = "", slam: str = "") -> int:
    """What each defender pays the taker by the variant's own formula, for a contract worth
    ``value`` made with ``halves`` card points (in half points) and ``oudlers``."""
    f = V.scoring.declarer
    envs = []
    for col in range(N):
        taker = col == 0
        env = Env({"is_declarer": taker, "oudlers": oudlers if taker else 0, "declarer_points": halves,
                   "value": value, "total_tricks": 18,
                   "declarer_tricks": 18 if slam == "taker" else 0 if slam == "defence" else 9,
                   "petit_last": int(au_bout == "taker" and taker or au_bout == "defence" and col == 1),
                   "petit_before": 0, "excuse_led_last": 0})
        envs.append(env)
    for e in envs:
        e.everyone = envs
    total = int(f(envs[0]))
    assert total % 3 == 0 and int(V.scoring.defender(envs[1])) == -total // 3
    return total // 3


def test_example4_scores():
    """[TA-S1]-[TA-S7] Garde, 2 oudlers, 49 points: (25+8)x2 = 66, the taker +198. Prise, 1 oudler,
    47: -29. Garde contre, 3 oudlers, 36: 150. Garde sans, 0 oudlers, 60, the defence takes the
    Petit au bout: (25+4-10)x4 = 76. Prise, 1 oudler, exactly 51, the taker's Petit au bout:
    25 + 10 = 35. (The three scores with a poignée or an announced chelem are not in the variant.)"""
    assert per_defender(2, 98, 2) == 66
    assert per_defender(1, 94, 1) == -29
    assert per_defender(6, 72, 3) == 150
    assert per_defender(4, 120, 0, au_bout="defence") == 76
    assert per_defender(1, 102, 1, au_bout="taker") == 35


def slam_deal():
    """Example 5: dealer 0; seat 1 holds T4..T21; seat 2 T1, EX, the 14 spades, K♥ Q♥; seat 3
    T2, T3, the other 12 hearts, K♦ Q♦ C♦ J♦; seat 0 the other 10 diamonds and K♣..7♣; the dog
    the six low clubs."""
    spades = [r + "S" for r in ref.RANKS]
    hearts = [r + "H" for r in ref.RANKS]
    diamonds = [r + "D" for r in ref.RANKS]
    clubs = [r + "C" for r in ref.RANKS]
    s1 = [f"T{n}" for n in range(4, 22)]
    s2 = ["T1", "EX"] + spades + ["KH", "QH"]
    s3 = ["T2", "T3"] + [c for c in hearts if c not in ("KH", "QH")] + ["KD", "QD", "CD", "JD"]
    s0 = [c for c in diamonds if c not in ("KD", "QD", "CD", "JD")] + clubs[:8]
    dog = clubs[8:]
    return [s0, s1, s2, s3], dog


def test_example5_the_slam_deal():
    """[TA-E2] [TA-E3] [TA-S6] [TA-K4] Seat 1 bids garde sans and leads T21 down to T4, winning all
    18 tricks. (a) Seat 2 plays the Excuse to the first trick: the defence keeps it for a half
    point: 87 points, 2 oudlers, (25+46)x4 + 200 = 484, the taker +1452. (b) Seat 2 keeps the
    Excuse for the last trick, where it goes with the trick: 91 points, 3 oudlers, (25+55)x4 +
    200 = 520, the taker +1560."""
    for excuse_first, taker_gets in ((True, 1452), (False, 1560)):
        hands, dog = slam_deal()
        s = state(hands, dog, 0)
        s.apply("pass")                                  # page seat 1 speaks first... (dealer 0)
        assert s.to_move == seat(2)
        s = state(hands, dog, 0)
        assert s.to_move == seat(1)
        s.apply("sans")
        for _ in range(3):
            s.apply("pass")
        assert s.hand.declarer == seat(1) and s.kind.name == "tricks"
        for n in range(21, 3, -1):
            s.apply(f"play {n}T")
            for r in (2, 3, 0):
                opts = legal_cards(s)
                if r == 2:
                    pick = ("EX" if excuse_first and n == 21 else "T1" if "T1" in opts and not excuse_first
                            else "T1" if "T1" in opts else sorted(opts - {"EX"})[0] if opts - {"EX"} else "EX")
                else:
                    pick = sorted(opts)[0]
                s.apply("play " + card(pick))
        h = s.hand_log[0]
        assert all(w == seat(1) for w in h.trick_winners)
        assert h.entries[seat(1)] == taker_gets and h.entries[seat(0)] == -taker_gets // 3


def test_the_excuse_led_to_the_last_trick_of_a_slam_wins_it():
    """[TA-E3] [TA-S4] Not announced, a taker who won every trick and leads the Excuse to the
    last wins it, and the Petit he took in the trick before is au bout: 91 points, 3 oudlers,
    (25+55+10)x2 + 200 = 380 a defender (example 6's play, at garde, without the announcement)."""
    spades = [r + "S" for r in ref.RANKS]
    hearts = [r + "H" for r in ref.RANKS]
    diamonds = [r + "D" for r in ref.RANKS]
    clubs = [r + "C" for r in ref.RANKS]
    s2 = ["EX", "T1"] + [f"T{n}" for n in range(6, 22)]
    s1 = ["T2", "T3"] + spades + ["KH", "QH"]
    s3 = ["T4", "T5"] + [c for c in hearts if c not in ("KH", "QH")] + ["KD", "QD", "CD", "JD"]
    s0 = [c for c in diamonds if c not in ("KD", "QD", "CD", "JD")] + clubs[:8]
    dog = clubs[8:]
    s = state([s0, s1, s2, s3], dog, 0)
    s.apply("pass")
    s.apply("garde")
    s.apply("pass")
    s.apply("pass")
    assert s.kind.name == "widow_exchange" and s.hand.declarer == seat(2)
    legal = s.legal_actions()
    assert len(legal) == 1 and {page_card(c) for c in V.deck.names_of(legal[0].cards)} == set(dog)
    s.apply(legal[0])
    # seat 1 leads the first trick (no chelem announced): he leads a spade, the taker trumps
    s.apply("play AS")
    for r in (2, 3, 0):
        opts = legal_cards(s)
        s.apply("play " + card("T21" if r == 2 else sorted(opts)[0]))
    for n in range(20, 5, -1):
        s.apply(f"play {n}T")
        for r in (3, 0, 1):
            s.apply("play " + card(sorted(legal_cards(s))[0]))
    s.apply("play 1T")                                   # trick 17: no trump left against it
    for r in (3, 0, 1):
        s.apply("play " + card(sorted(legal_cards(s))[0]))
    s.apply("play EX")                                   # the last trick, led by the Excuse
    for r in (3, 0, 1):
        s.apply("play " + card(sorted(legal_cards(s))[0]))
    h = s.hand_log[0]
    assert h.trick_winners[-1] == seat(2) and h.won[seat(2)] == 18
    assert h.entries[seat(2)] == 3 * 380 and h.entries[seat(1)] == -380


def test_example7_the_discard():
    """[TA-K3] Example 6's deal with K♣ in the dog instead of 6♣: the taker may discard the five
    low clubs or any trump T6..T20, never K♣, T1, T21 or the Excuse; after discarding one trump
    he must discard the five clubs."""
    spades = [r + "S" for r in ref.RANKS]
    hearts = [r + "H" for r in ref.RANKS]
    diamonds = [r + "D" for r in ref.RANKS]
    clubs = [r + "C" for r in ref.RANKS]
    s2 = ["EX", "T1"] + [f"T{n}" for n in range(6, 22)]
    s1 = ["T2", "T3"] + spades + ["KH", "QH"]
    s3 = ["T4", "T5"] + [c for c in hearts if c not in ("KH", "QH")] + ["KD", "QD", "CD", "JD"]
    s0 = [c for c in diamonds if c not in ("KD", "QD", "CD", "JD")] + [c for c in clubs[:8] if c != "KC"] + ["6C"]
    dog = ["KC"] + [c for c in clubs[8:] if c != "6C"]
    s = state([s0, s1, s2, s3], dog, 0)
    for call in ("pass", "garde", "pass", "pass"):
        s.apply(call)
    legal = s.legal_actions()
    low = {"5C", "4C", "3C", "2C", "AC"}
    assert len(legal) == 15
    for a in legal:
        cards = {page_card(c) for c in V.deck.names_of(a.cards)}
        assert cards >= low and len(cards - low) == 1 and (cards - low).pop() in {f"T{n}" for n in range(6, 21)}
    with pytest.raises(IllegalActionError, match="may not be discarded"):
        s.apply("discard KC 5C 4C 3C 2C AC")
    with pytest.raises(IllegalActionError, match="only when you have not enough other cards"):
        s.apply("discard 6T 7T 5C 4C 3C 2C")
    s.apply("discard 10T 5C 4C 3C 2C AC")
    seen = s.observation(seat(1))
    assert seen.shown_discards == 1 << V.deck.parse("10T")   # a discarded trump is shown


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_auto_play_ends_with_a_winner(seed):
    """``rulekit play tarot --auto`` ends for any seed (the highest total wins)."""
    assert_plays_to_a_winner("tarot", seed)


# ------------------------------------------------------------------ the referee, side by side
def cross_check(deals: int, seed: int) -> tuple[int, int]:
    """Play ``deals`` random deals through rulekit and the referee (without the poignée and the
    announced chelem) with the same random choices: equal legal sets at every decision (the
    taker's six discards as one choice: the cards he may discard, and the choice played is one
    the referee accepts card by card), equal results. Returns ``(deals, decisions compared)``."""
    rng = random.Random(seed)
    decisions = 0
    for k in range(deals):
        dealer = rng.randrange(N)
        hands, extra = ref.deal_random(rng, dealer)
        r = ref.Deal(hands, extra, dealer, OPTIONS)
        s = state(hands, extra["dog"], dealer)
        if r.annulled:   # [TA-D3] the petit sec: rulekit threw the deal in as it was dealt
            assert s.hand_log and s.hand_log[0].void and s.hand.number == 1, k
            continue
        h = s.hand
        while not r.is_over():
            assert s.hand is h and s.to_move == seat(r.to_move()), (k, r.phase)
            if r.phase == "discard":
                choices = s.legal_actions()
                allowed = choices.fixed | sum(1 << c for c in choices.cards)
                assert sorted("discard " + page_card(V.deck.name(c)) for c in range(V.deck.size)
                              if allowed >> c & 1) == r.legal(), k
                decisions += 1
                pick = choices[rng.randrange(len(choices))]
                cards = [page_card(V.deck.name(c)) for c in range(V.deck.size) if pick.cards >> c & 1]
                for c in sorted(cards, key=lambda x: x.startswith("T")):   # plain cards first
                    r.apply("discard " + c)
                s.apply(pick)
                continue
            mine = page_legal(s)
            assert mine == r.legal(), (k, r.phase, mine, r.legal())
            decisions += 1
            act = mine[rng.randrange(len(mine))]
            r.apply(act)
            s.apply(rk_action(act))
        res = r.result()
        assert s.hand is not h
        h = s.hand_log[-1]   # the finished hand, as the record keeps it
        if res["taker"] is None:
            assert h.void, k
            continue
        assert h.declarer == seat(res["taker"]) and h.contract.text == CALLS["bid " + res["contract"]]
        assert h.trick_winners == [seat(w) for w in res["trick_winners"]]
        assert [h.entries[seat(x)] for x in range(N)] == res["scores"], (k, h.entries, res)
    return deals, decisions


def test_random_deals_agree_with_the_referee():
    """200 random deals: the same legal actions at every decision (bids, discards, plays), the same
    taker, trick winners and scores."""
    deals, decisions = cross_check(200, 7)
    assert decisions >= 200 * 40


@pytest.mark.slow
def test_many_random_deals_agree_with_the_referee():
    """2,000 more random deals (the slow run)."""
    deals, decisions = cross_check(2000, 78)
    assert decisions >= 2000 * 40


def test_the_dog_is_shown_at_garde_and_hidden_at_garde_sans():
    """[TA-K1] [TA-K4] Fair play: at garde the dog is turned up for all (every seat then knows the
    taker holds it) and the discard is seen by the taker only, but for the trumps he shows; at
    garde sans nobody sees the dog, the taker neither."""
    hands, dog = random_hands(random.Random(5))
    s = state(hands, dog, 3)
    s.apply("garde")
    for _ in range(3):
        s.apply("pass")
    taker = s.hand.declarer
    dog_mask = sum(1 << V.deck.parse(card(c)) for c in dog)
    defender = V.next_seat(taker)
    seen = s.observation(defender)
    assert seen.placed[taker] & dog_mask == dog_mask & ~seen.hand
    s.apply(s.legal_actions()[0])
    seen = s.observation(defender)
    assert seen.discards == 0 and seen.hidden_discards == 6 - seen.shown_discards.bit_count()
    assert s.observation(taker).discards == s.hand.discards
    s = state(hands, dog, 3)
    s.apply("sans")
    for _ in range(3):
        s.apply("pass")
    for who in range(N):
        obs = s.observation(who)
        assert obs.hidden_zones.get("dog") == 6 and not obs.hand & dog_mask and not obs.zones.get("dog")


def test_a_record_replays_the_deal():
    """A record of a played match (bids, discards, the Excuse's exchange) replays to the same sheet."""
    import json

    from rulekit.records import replay, to_record
    from tests.helpers import play_random
    s = play_random(State(V, seed=4), seed=4)
    rec = json.loads(json.dumps(to_record(s)))
    assert replay(rec).sheet.totals() == s.sheet.totals()
