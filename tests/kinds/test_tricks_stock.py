"""Trick play from a stock (``tricks`` with ``stock:``) on small made-up variants: the draw after
each trick (winner first), the card turned under the stock drawn last, a face-up top card
(German Whist), the exchange of the low trump, closing, and the follow rules switched on once
the stock is closed or exhausted; what each seat may know of the stock."""
from __future__ import annotations

import random

import pytest

from rulekit.cards import bits
from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.errors import IllegalActionError, VariantError
from tests.helpers import STOCK_PLAY, mask, order_for, stock_toy, variant_from

#: German Whist made small (pagat.com/whist/germanwhist.html): 24 cards, six each, the rest a
#: stock whose top card lies face up; the first one turned makes trumps.
WHISTLE = """id: whistle
name: Whistle
players: 2
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "1 x 6, stock 12"}
  trumps: {kind: turn_up, card: stock}
  play:
    kind: tricks
    lead: eldest
    stock: {turned: top, top_up: true}
scoring:
  each: "tricks"
match:
  deals: 2
"""

#: docs/rules/schnapsen.md, worked example 2: dealer 1, the turn-up 10♥ under the stock.
EXAMPLE = {0: "KH QH AS 10S JC", 1: "AH JH KS QC 10D", "stock": "10H AD QS KC JD 10C KD JS AC QD"}


def schnapsen_deal(v) -> State:
    return State(v, seed=0, deals=[order_for(v, 1, EXAMPLE)], dealer=1)


def texts(s: State) -> list:
    return [a.text for a in s.legal_actions()]


def names(v, m: int) -> set:
    return set(v.deck.names_of(m))


def test_winner_draws_the_face_up_top_card_and_the_next_is_turned(tmp_path):
    """German Whist: the winner of a trick takes the face-up top card (every seat knows he
    holds it), the loser the next one face down; then the next card is turned face up."""
    v = variant_from(tmp_path, "w.yaml", WHISTLE)
    hands = {1: "AS KS QS JS 10S 9S", 0: "9H 10H JH QH KH AH"}
    stock = "AD 9C 10C JC QC KC AC 9D 10D JD QD KD"
    s = State(v, seed=0, deals=[order_for(v, 0, {**hands, "stock": stock})], dealer=0)
    assert s.hand.trump == "D" and s.to_move == 1
    s.apply("play AS")
    s.apply("play 9H")   # no need to follow: seat 0 holds no spade anyway
    assert names(v, s.hand.hands[1]) == {"KS", "QS", "JS", "10S", "9S", "AD"}
    assert names(v, s.hand.hands[0]) == {"10H", "JH", "QH", "KH", "AH", "9C"}
    obs = s.observation(0)
    assert obs.placed[1] == mask(v, "AD")            # taken face up: known in his hand
    assert obs.zone_known == {"stock": mask(v, "10C")}   # the new top card, turned up
    assert obs.hidden_zones == {"stock": 9}
    assert obs.hand & mask(v, "9C")
    assert not REGISTRY["tricks"].data_of(s.hand).shown[0]   # 9♣ was drawn face down


def test_german_whist_hands_play_to_the_end(tmp_path):
    """A German Whist hand plays every card: the stock runs out after the twelfth draw, the last
    six tricks are played from the hands, each player's tricks are scored."""
    v = variant_from(tmp_path, "w.yaml", WHISTLE)
    for seed in range(5):
        s = State(v, seed=seed)
        rng = random.Random(seed)
        h = s.hand
        while s.hand is h:
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        assert len(h.tricks) == 12 and not h.zones["stock"] and not any(h.hands)
        assert s.sheet.rows[0].entries == list(h.won)


def test_card_turned_under_the_stock_is_drawn_last_by_the_loser(tmp_path):
    """[SN-T4]: winner first, then loser, from the top; the loser of the fifth trick draws the
    turn-up; then the stock is exhausted and nobody draws."""
    v = stock_toy(tmp_path, play="    stock: {}\n")
    s = schnapsen_deal(v)
    order = "AD QS KC JD 10C KD JS AC QD 10H".split()
    drawn = []
    rng = random.Random(4)
    for _ in range(5):
        before = list(s.hand.hands)
        while True:
            s.apply(rng.choice([a for a in s.legal_actions() if a.kind == "play"]))
            if not s.hand.trick:
                break
        winner = s.hand.trick_winners[-1]
        for seat in (winner, 1 - winner):
            new = s.hand.hands[seat] & ~before[seat]
            assert new.bit_count() == 1
            drawn.append(v.deck.name(new.bit_length() - 1))
    assert drawn == order
    assert s.hand.zones["stock"] == 0 and sum(m.bit_count() for m in s.hand.hands) == 10


def test_exchange_takes_the_turned_card_and_shows_it(tmp_path):
    """[SN-X1]: the player on lead holding the trump jack swaps it for the turn-up; the other
    seat then knows the turn-up is in his hand and sees the jack under the stock."""
    v = stock_toy(tmp_path)
    s = schnapsen_deal(v)
    assert "exchange" not in texts(s)                 # seat 0 has no J♥
    s.apply("play QH")
    assert "exchange" not in texts(s)                 # only the leader exchanges
    with pytest.raises(IllegalActionError, match="only on lead"):
        s.apply("exchange")
    s.apply("play AH")
    assert s.to_move == 1 and "exchange" in texts(s)
    s.apply("exchange")
    assert names(v, s.hand.hands[1]) & {"10H", "JH"} == {"10H"}
    obs = s.observation(0)
    assert obs.zone_known == {"stock": mask(v, "JH")} and obs.placed[1] == mask(v, "10H")
    assert "exchange" not in texts(s)
    assert "P1 exchanges J♥ for the turned 10♥" in _said(s, 1, "exchange")


def _said(s, seat, text):
    said = REGISTRY["tricks"].said(s.variant.phases[-1], s.hand, s.variant, seat, text, s.names)
    return f"{s.names[seat]} {said.third}"


def test_exchange_only_after_a_trick_won(tmp_path):
    """``needs_trick``: only a player who has won a trick may exchange ([SS-X1])."""
    play = STOCK_PLAY.replace("exchange: {rank: J}", "exchange: {rank: J, needs_trick: true}")
    v = stock_toy(tmp_path, play=play)
    s = State(v, seed=0, deals=[order_for(v, 1, {0: "JH QH AS 10S JC", 1: "AH KH KS QC 10D",
                                                  "stock": EXAMPLE["stock"]})], dealer=1)
    assert "exchange" not in texts(s)
    with pytest.raises(IllegalActionError, match="only after winning a trick"):
        s.apply("exchange")
    s.apply("play AS")
    s.apply("play 10D")
    assert s.to_move == 0 and "exchange" in texts(s)


def test_no_exchange_in_the_last_round_when_the_option_says_so(tmp_path):
    """``last_round: false``: neither the exchange nor (with its own option) closing when the stock
    holds only one round of cards (the Austrian club rule of docs/rules/schnapsen.md)."""
    play = STOCK_PLAY.replace("exchange: {rank: J}", "exchange: {rank: J, last_round: false}")
    text = STOCK_PLAY_TEXT(play).replace('"3, stock 1, 2, stock 9"', '"3, stock 1, 6, stock 1"')
    v = variant_from(tmp_path, "late.yaml", text)
    s = State(v, seed=0, deals=[order_for(v, 1, {0: "JH QH AS 10S JC KD QD JD 10D", 1: "AH KH KS QS JS AC KC QC 10C",
                                                  "stock": "10H AD"})], dealer=1)
    assert texts(s)[-1:] == ["close"] and "exchange" not in texts(s)
    with pytest.raises(IllegalActionError, match="in the stock's last round"):
        s.apply("exchange")


def test_closing_stops_the_draw_and_switches_the_follow_rules(tmp_path):
    """[SN-C1] [SN-C2] [SN-T5]: after a close nobody draws; the follower must head the trick in
    the suit led, else follow suit, else trump (docs/rules/schnapsen.md example 3)."""
    v = stock_toy(tmp_path)
    s = schnapsen_deal(v)
    for a in ("play QH", "play AH", "exchange", "play 10D", "play KH"):
        s.apply(a)
    assert s.to_move == 0 and "close" in texts(s)
    s.apply("close")
    assert "exchange" not in texts(s) and "close" not in texts(s)
    assert s.observation(1).phase_data["closed_by"] == 0
    s.apply("play JC")
    assert texts(s) == ["play QC"]                    # heads J♣ with Q♣
    with pytest.raises(IllegalActionError, match="you must follow clubs: you hold Q♣"):
        s.apply("play KS")
    s.apply("play QC")
    assert s.hand.hands[1].bit_count() == 4 and s.hand.zones["stock"].bit_count() == 6   # no draw
    assert s.to_move == 1


def test_while_the_stock_is_open_any_card_may_be_played(tmp_path):
    """[SN-T2]: any card to any lead; a card of another suit shows no void then."""
    v = stock_toy(tmp_path)
    s = schnapsen_deal(v)
    s.apply("play AS")
    assert set(texts(s)) == {"play AH", "play JH", "play KS", "play QC", "play 10D"}
    s.apply("play 10D")   # seat 1 holds K♠ and plays a diamond
    assert not any(s.observation(0).failed)


def test_after_the_stock_a_void_is_shown_again(tmp_path):
    """Once the stock is exhausted the strict rules hold, and a player who does not follow is
    known to lack the suit; while the stock is open nothing is marked, and a draw forgets it."""
    v = stock_toy(tmp_path)
    for seed in range(20):
        s = State(v, seed=seed)
        while s.hand.number == 0 and not s.is_over:
            h = s.hand
            d = REGISTRY["tricks"].data_of(h)
            if d is not None and (d.closed_by >= 0 or not h.zones.get("stock")) and h.trick:
                seat = s.to_move
                led = h.ctx.group_of[h.trick[0][1]]
                lacks = not h.hands[seat] & h.ctx.group_mask[led]
                s.apply(s.legal_actions()[0])
                assert bool(h.failed[seat] >> led & 1) == lacks
                continue
            if d is not None and d.closed_by < 0 and h.zones.get("stock"):
                assert not any(h.failed)
            acts = [a for a in s.legal_actions() if a.text != "close"]
            s.apply(acts[seed % len(acts)])


def test_no_observation_shows_a_stock_card(tmp_path):
    """A face-down stock card is in nobody's observation (not seen, not placed) until drawn;
    the turned card and a face-up top card are public."""
    for text in (None, WHISTLE):
        v = stock_toy(tmp_path) if text is None else variant_from(tmp_path, "w.yaml", text)
        for seed in range(6):
            s = State(v, seed=seed)
            rng = random.Random(seed)
            while not s.is_over and s.hand.number < 2:
                h = s.hand
                d = REGISTRY["tricks"].data_of(h)
                if d is not None:
                    up = (1 << d.turned if d.turned >= 0 else 0) | (1 << d.top if d.top >= 0 else 0)
                    hidden = h.zones.get("stock", 0) & ~up
                    for seat in range(2):
                        obs = s.observation(seat)
                        assert not obs._visible() & hidden
                        assert not any(m & hidden for m in obs.placed)
                        assert not any(m & hidden for m in obs.zone_known.values())
                        assert obs.zone_known.get("stock", 0) == h.zones.get("stock", 0) & up
                        world = obs.sample_world(rng)
                        assert world.hand.zones.get("stock", 0).bit_count() == h.zones.get("stock", 0).bit_count()
                        assert world.hand.zones.get("stock", 0) & up == h.zones.get("stock", 0) & up
                acts = s.legal_actions()
                s.apply(acts[rng.randrange(len(acts))])


def test_sampled_worlds_draw_their_own_stock(tmp_path):
    """A world sampled from an observation has no deal order: its hidden stock cards are drawn
    at random, and the game plays on to the end in it."""
    v = stock_toy(tmp_path)
    s = schnapsen_deal(v)
    first = set()
    for k in range(12):
        world = s.observation(0).sample_world(random.Random(k))
        assert world.hand.deck_order == []
        for _ in range(4):
            world.apply(next(a for a in world.legal_actions() if a.kind == "play"))
        assert sum(m.bit_count() for m in world.hand.hands) == 10
        assert world.hand.zones["stock"].bit_count() == 6 and world.hand.zones["stock"] >> v.deck.parse("10H") & 1
        first.add(world.hand.hands[0] & ~s.hand.hands[0])
    assert len(first) > 3     # seat 0's draws differ from world to world


@pytest.mark.parametrize("play, where, words", [
    ("    stock: {}\n", "pattern", "there is no stock"),
    ("    stock:\n      exchange: {rank: X}\n", "rank", "unknown rank X"),
    ("    stock:\n      turned: top\n      exchange: {rank: J}\n", "exchange", "needs a turn_up phase"),
])
def test_stock_misuse_is_refused_at_its_line(tmp_path, play, where, words):
    """``validate``: a stock without a stock zone, an unknown exchange rank, an exchange without
    a card turned under the stock, each at its file:line:column."""
    text = STOCK_PLAY_TEXT(play)
    if where == "pattern":
        text = text.replace('"3, stock 1, 2, stock 9"', '"5 x 2"')
    with pytest.raises(VariantError) as e:
        variant_from(tmp_path, "bad.yaml", text)
    d = next(d for d in e.value.diagnostics if words in d.message)
    assert d.file.endswith("bad.yaml") and d.line > 0 and d.column > 0


def test_stock_that_cannot_be_drawn_in_whole_rounds_is_refused(tmp_path):
    """A stock of 9 cards for two players leaves half a round: refused at ``stock``."""
    text = STOCK_PLAY_TEXT("    stock: {}\n").replace('"3, stock 1, 2, stock 9"', '"3, stock 1, 2, stock 8, widow 1"')
    with pytest.raises(VariantError, match="cannot be drawn in whole rounds") as e:
        variant_from(tmp_path, "bad.yaml", text)
    line = text.splitlines().index("    stock: {}") + 1
    assert any(d.line == line for d in e.value.diagnostics)


def STOCK_PLAY_TEXT(play: str) -> str:
    from tests.helpers import STOCK_TOY
    return STOCK_TOY % {"play": play.rstrip("\n"), "scoring": '  each: "tricks"'}


def test_explain_says_the_stock_rules(tmp_path):
    """``rulekit explain``'s words for the stock: the draw, the turned card, exchange, closing and
    the rules once the stock is out."""
    v = stock_toy(tmp_path)
    words = REGISTRY["tricks"].describe(v.phases[-1], v)
    for w in ("each player draws one card from it, the winner of the trick first",
              "lies face up under the stock and is drawn last",
              "holding the J of trumps may exchange it", "may close the stock",
              "Once the stock is closed or exhausted, a player must follow suit, beating the trick if he "
              "can; a player who cannot follow must trump if he can",
              "A player may play any card, whatever was led"):
            assert w in words, w


def test_must_head_and_free_follow_serve_games_without_a_stock(tmp_path):
    """The follow options on their own (no stock): ``must_head`` makes a player following suit
    beat the trick if he can, and says so when refusing; ``follow_suit: false`` allows any card."""
    from tests.helpers import deal_order, trick_toy
    hands = [["JS", "AC", "9H", "10H", "JH", "QH", "KH", "AH"], ["9S", "QS", "9D", "10D", "JD", "QD", "KD", "AD"],
             ["10S", "KS", "AS", "9C", "10C", "JC", "QC", "KC"]]
    v = trick_toy(tmp_path, play=", must_head: true")
    s = State(v, seed=0, deals=[deal_order(hands, (4, 4))], dealer=0)
    s.apply("play QS")
    assert texts(s) == ["play KS", "play AS"]
    with pytest.raises(IllegalActionError, match="you must head the trick, beating Q♠: you hold K♠ A♠"):
        s.apply("play 10S")
    s.apply("play KS")
    assert texts(s) == ["play JS"]            # he cannot beat K♠: any spade
    free = trick_toy(tmp_path, play=", follow_suit: false", name="free.yaml")
    s = State(free, seed=0, deals=[deal_order(hands, (4, 4))], dealer=0)
    s.apply("play QS")
    assert len(texts(s)) == 8
    s.apply("play 9C")
    assert not any(s.observation(0).failed)


def test_turned_without_a_turn_up_of_the_stock_is_a_warning(tmp_path):
    """``stock.turned`` says where the card a ``turn_up`` phase turned lies: with no phase
    turning the stock's top card it has no effect, a warning at its key."""
    from rulekit.variant import check_file
    from tests.helpers import STOCK_TOY, write_variant
    text = STOCK_TOY % {"play": "    stock: {turned: top}", "scoring": '  each: "tricks"'}
    assert not [d for d in check_file(write_variant(tmp_path, "ok.yaml", text), warnings=True)]
    text = text.replace("  trumps: {kind: turn_up, card: stock}\n", "")
    f = write_variant(tmp_path, "top.yaml", text)
    got = [(d.line, d.message) for d in check_file(f, warnings=True)]
    assert got == [(text.splitlines().index("    stock: {turned: top}") + 1,
                    "has no effect: no phase turns the stock's top card (expected a turn_up phase with card: stock)")]
