"""The ``trick_bids`` kind on small made-up variants and the shipped files that use it: each
player's bid of tricks, the dealer's hook, nil (typed and shown as ``nil`` when the scoring
reads it), blind nil (``blind_nil: {behind, exchange}``) and a failed nil's tricks as bags."""
from __future__ import annotations

import random

import pytest

from rulekit.cli.game import help_text
from rulekit.cli.render import legal_text
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.errors import IllegalActionError, InvalidActionError
from rulekit.variant import load_variant
from tests.helpers import STOCK_BIDS, assert_choices_play_as_actions, deal_order, plain, small_deck_toy, variant_from

SIDE = """id: side
name: Side
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "1 x 3"}
  bidding: {kind: trick_bids, blind_nil: {%(blind)s}}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "(if bid_tricks >= bid then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed + 200 * blind_nil_made - 200 * blind_nil_failed"
match: {deals: 1}
"""


def side(tmp_path, blind="behind: 0"):
    return variant_from(tmp_path, "side.yaml", SIDE % {"blind": blind})


def order(v, hands: dict, eldest: int = 0) -> list:
    """The deck order dealing ``hands`` (seat -> cards) one card at a time from ``eldest``."""
    assert len(hands) == v.players
    return deal_order(hands, first=eldest)

LOW_N = {0: ["9H", "10H", "JH"], 1: ["AS", "KS", "QS"], 2: ["AH", "KH", "QH"], 3: ["JS", "10S", "9S"]}

HIGH_N = {0: ["AH", "KH", "QH"], 1: ["AS", "KS", "QS"], 2: ["9H", "10H", "JH"], 3: ["JS", "10S", "9S"]}


def play_out(s):
    """Each player plays his first legal card to the end."""
    while not s.is_over:
        s.apply(s.legal_actions()[0])


def test_blind_nil_made_scores_200(tmp_path):
    """Blind nil made: N bids blind nil and takes no trick (his hearts are the lowest, S must
    follow above him): NS 30 for S's 3 made + 200 = 230; EW -30 for E's failed 3 + 100 for
    W's nil = 70."""
    v = side(tmp_path)
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    assert [a.text for a in s.legal_actions()] == ["blind nil", "look"]
    for a in ("blind nil", "look", "bid 3", "look", "bid 3", "look", "bid 0"):
        s.apply(a)
    assert s.hand.calls == [(0, "blind nil"), (1, "bid 3"), (2, "bid 3"), (3, "nil")]  # A nil is shown so
    play_out(s)
    assert s.hand_log[0].won == [0, 0, 3, 0]
    assert s.sheet.totals() == [230, 70]


def test_blind_nil_failed_loses_200(tmp_path):
    """Blind nil failed: N holds the top hearts and takes all three tricks: NS -200 for the
    blind nil and -10 for S's bid of 1 (S took none); EW -20 (bid 2, took none)."""
    v = side(tmp_path)
    s = State(v, deals=[order(v, HIGH_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 1", "look", "bid 1"):
        s.apply(a)
    play_out(s)
    assert s.hand_log[0].won == [3, 0, 0, 0]
    assert s.sheet.totals() == [-210, -20]


def test_hand_hidden_from_its_owner_until_he_decides(tmp_path):
    """Fair play: before N chooses (blind nil or look) his observation shows no cards (and
    says so: ``blind``), the terminal shows them face down, a bot's sampled world deals him
    cards at random; after ``look`` he sees his own three."""
    from cli.render import hand_text
    v = side(tmp_path)
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    o = s.observation(0)
    assert o.hand == 0 and o.blind and o.hand_sizes[0] == 3
    assert hand_text(s, 0).plain == "3 cards face down (not looked at yet)"
    assert s.observation(1).blind   # anyone may bid blind here (behind: 0): E has not looked either
    worlds = {o.sample_world(random.Random(k)).hand.hands[0] for k in range(20)}
    assert len(worlds) > 1  # his cards are unknown to him: sampled like another's
    with pytest.raises(IllegalActionError, match="decide first: blind nil"):
        s.apply("bid 2")
    s.apply("look")
    o = s.observation(0)
    assert not o.blind and sorted(v.deck.names_of(o.hand)) == sorted(LOW_N[0])
    assert [a.text for a in s.legal_actions()] == ["bid 0", "bid 1", "bid 2", "bid 3"]


def test_blind_nil_only_when_behind(tmp_path):
    """pagat: blind nil only for a side losing by 100 or more: at 0 to 150 NS (behind by 150)
    may, EW may not; at 0 to 50 nobody may, and the refusal says why."""
    v = load_variant("spades")
    s = State(v, seed=1, scores=[0, 150], dealer=3)
    tb = kind_of("trick_bids").data_of(s.hand)
    assert tb.undecided == [0, 2]
    assert [a.text for a in s.legal_actions()] == ["blind nil", "look"]
    assert s.observation(0).hand == 0 and s.observation(1).hand.bit_count() == 13   # E may not: he sees his cards
    s = State(v, seed=1, scores=[0, 50], dealer=3)
    assert kind_of("trick_bids").data_of(s.hand).undecided == []
    with pytest.raises(IllegalActionError) as e:
        s.apply("blind nil")
    assert "blind nil is not allowed now" in str(e.value) and "100 points or more behind" in str(e.value)


def test_blind_nil_from_exactly_the_points_behind():
    """pagat: "100 points or more" behind: at 0 to 100 NS may bid blind nil, at 0 to 99 nobody
    may (nor at 250 to 250, nobody behind at all)."""
    v = load_variant("spades")
    assert kind_of("trick_bids").data_of(State(v, seed=1, scores=[0, 100], dealer=3).hand).undecided == [0, 2]
    assert kind_of("trick_bids").data_of(State(v, seed=1, scores=[0, 99], dealer=3).hand).undecided == []
    assert kind_of("trick_bids").data_of(State(v, seed=1, scores=[250, 250], dealer=3).hand).undecided == []


def test_exchange_after_blind_nil(tmp_path):
    """pagat: the blind nil bidder passes cards face down to his partner, who adds them and
    passes as many back (here one card each way)."""
    v = side(tmp_path, "behind: 0, exchange: 1")
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 2", "look", "bid 0"):
        s.apply(a)
    assert s.phase_kind == "trick_bids" and s.to_move == 0
    assert [a.text for a in s.legal_actions()] == ["discard 9H", "discard 10H", "discard JH"]
    s.apply("discard JH")
    assert s.to_move == 2 and sorted(v.deck.names_of(s.hand.hands[2])) == sorted(["AH", "KH", "QH", "JH"])
    with pytest.raises(IllegalActionError, match="pass 1 of your cards"):
        s.apply("discard 9S")
    s.apply("discard AH")
    assert sorted(v.deck.names_of(s.hand.hands[0])) == sorted(["9H", "10H", "AH"])
    assert s.phase_kind == "tricks"

NIL_SIDE = """id: side
name: Side
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "1 x 3"}
  bidding: {kind: trick_bids}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  let: {made: "bid_tricks >= bid"}
  each: "(if made then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed"
  counters:
    bags: {add: "(if made then bid_tricks - bid else 0) + nil_tricks", every: 3, score: -50}
match: {deals: 1}
"""


def test_failed_nil_tricks_are_bags_on_a_made_up_variant(tmp_path):
    """N bids nil holding the three top hearts and takes all three tricks: NS lose 100 for the
    nil and 10 for S's failed bid of 1 (the nil bidder's tricks are not S's), and N's three
    tricks are three bags: at 3 bags NS lose 50 more (-160) and the count drops to 0."""
    f = tmp_path / "side.yaml"
    f.write_text(NIL_SIDE)
    v = load_variant(str(f))
    hands = {0: ["AH", "KH", "QH"], 1: ["AS", "KS", "QS"], 2: ["9H", "10H", "JH"], 3: ["JS", "10S", "9S"]}
    s = State(v, deals=[[hands[k][i] for i in range(3) for k in range(4)]], dealer=3)
    for b in ("bid 0", "bid 1", "bid 1", "bid 1"):
        s.apply(b)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert s.hand_log[0].won == [3, 0, 0, 0]
    assert s.sheet.totals() == [-160, -20]
    assert s.counters["bags"] == [0, 0]
    assert "bags 3 to NS (-50)" in s.sheet.rows[0].note


def test_trick_bids_hook_refuses_the_last_bid_that_adds_up(tmp_path):
    """Per-player trick bids with a constraint on their sum (the dealer's hook)."""
    v = small_deck_toy(tmp_path, sizes=", hand_sizes: [2, 3]", extra=STOCK_BIDS, each="if tricks == bid then 10 + bid else 0")
    s = State(v, seed=1, dealer=2)
    assert s.hand.hands[0].bit_count() == 2 and s.hand.zones["stock"].bit_count() == 12
    assert s.hand.trump == v.deck.suit_of(next(c for c in s.hand.deck_order[6:]))
    assert [a.text for a in s.legal_actions()] == ["bid 0", "bid 1", "bid 2"]
    s.apply("bid 1")
    s.apply("0")
    assert [a.text for a in s.legal_actions()] == ["bid 0", "bid 2"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("bid 1")
    assert "the bids would add up to the 2 tricks of the hand" in str(e.value)
    s.apply("bid 2")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    bids, won = [1, 0, 2], s.hand_log[0].won
    assert s.sheet.totals() == [10 + b if w == b else 0 for b, w in zip(bids, won)]
    assert s.hand.hands[0].bit_count() == 3  # the next deal gives 3 each


def test_nil_and_side_bids(tmp_path):
    """Nil scoring and a side's bids added (bid, bid_tricks, nil_made, nil_failed)."""
    f = tmp_path / "side.yaml"
    f.write_text("""id: side
name: Side
players: 4
sides: {A: [0, 2], B: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "3"}
  bidding: {kind: trick_bids}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "(if bid_tricks >= bid then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed"
match: {deals: 1}
""")
    v = load_variant(str(f))
    s = State(v, seed=4, dealer=3)
    for b in ("bid 0", "bid 1", "bid 2", "bid 1"):
        s.apply(b)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    won = s.hand_log[0].won
    a = (20 if won[2] >= 2 else -20) + (100 if won[0] == 0 else -100)
    b = 20 if won[1] + won[3] >= 2 else -20
    assert s.sheet.totals() == [a, b]


def test_trick_bids_describes_the_hook(tmp_path):
    from rulekit.variant.explain import explain
    v = small_deck_toy(tmp_path, sizes=", hand_sizes: [2, 3]", extra=STOCK_BIDS)
    t = " ".join(explain(v).split())
    assert "may not bid the number that would make the bids add up to the tricks of the hand" in t
    assert "changes from deal to deal: 2 3" in t
    assert "The top card of the undealt stock is turned face up; its suit is trumps" in t


def test_blind_nil_exchange_says_pass(tmp_path):
    """The Spades-like blind nil exchange lists ``pass 9H`` and accepts
    ``pass JH`` and the bare card; the refusal says what to type."""
    v = side(tmp_path, "behind: 0, exchange: 1")
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 2", "look", "bid 0"):
        s.apply(a)
    assert plain(legal_text(s), width=200, strip=True) == "legal: pass 9H, pass 10H, pass JH"
    assert s.expected_forms() == "expected pass 1 card (e.g. pass 9H)"
    s.apply("pass JH")
    with pytest.raises(IllegalActionError, match=r"^pass 1 of your cards face down to your partner now "
                                                 r"\(pass CARD\)$"):
        s.apply("9S")
    s.apply("AH")
    assert sorted(v.deck.names_of(s.hand.hands[0])) == sorted(["9H", "10H", "AH"])
    assert "a blind nil exchange: pass CARD CARD (or just the cards)" in help_text(load_variant("spades"))


def test_spades_nil_typed_and_shown():
    """In Spades (its scoring reads nil_made/nil_failed) ``nil`` is the
    bid 0 at the prompt, and the legal list, the refusal and the auction line say ``nil``."""
    from rulekit.cli.render import auction_text
    s = State(load_variant("spades"), seed=1)
    assert plain(legal_text(s), width=200, strip=True).startswith("legal: nil, bid 1, bid 2, ")
    with pytest.raises(InvalidActionError, match=r"expected nil or a bid from bid 1 to bid 13$"):
        s.apply("xyz")
    seat = s.to_move
    s.apply("nil")
    assert kind_of("trick_bids").data_of(s.hand).bids[seat] == 0
    s.apply("bid 3")
    assert plain(auction_text(s, s.hand), width=200, strip=True) == f"{s.names[seat]} nil · {s.names[s.next_seat(seat)]} bid 3"
    assert "bid N (the tricks you will take) or nil;" in help_text(s.variant)


def test_oh_hell_zero_stays_a_number():
    """Oh Hell's scoring reads no nil variable: a bid of 0 stays ``bid 0``
    and ``nil`` is no action there."""
    s = State(load_variant("ohhell"), seed=1)
    assert s.expected_forms() == "expected bid 0 or bid 1"
    with pytest.raises(InvalidActionError):
        s.apply("nil")



def test_oh_hell_hook_singular_and_turned_card_shown():
    """The hook's refusal says "the 1 trick" (singular), and the stock card turned for trumps is
    shown (``turned Q♣``), as Euchre shows its own."""
    from rulekit.cli.render import table_view
    s = State(load_variant("ohhell"), seed=3)
    for a in ("bid 0", "bid 0", "bid 0"):
        s.apply(a)
    with pytest.raises(IllegalActionError, match=r"^bid 1 is not allowed: the bids would add up to the 1 trick "
                                                 r"of the hand \(the last bidder must make someone fail\)$"):
        s.apply("bid 1")
    turned = kind_of("turn_up").data_of(s.hand).card
    assert s.variant.deck.pretty(turned) == "Q♣"
    screen = [line.strip() for line in plain(table_view(s, 0), width=200, strip=True).splitlines()]
    assert "turned Q♣" in screen and "trumps ♣" in screen


def test_blind_nil_exchange_announced_as_a_pass(tmp_path):
    """The blind nil exchange is told as a pass to the partner, not as
    "discards 1 card"."""
    from rulekit.cli.render import exchange_text
    v = side(tmp_path, "behind: 0, exchange: 1")
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 2", "look", "bid 0", "pass JH"):
        s.apply(a)
    h = s.hand
    assert plain(exchange_text(s, h, "discard JH", 0, reveal=True), width=200, strip=True) == \
        "N passes 1 card face down to his partner (S): J♥"
    s.apply("pass AH")
    assert plain(exchange_text(s, h, "discard AH", 2, reveal=False), width=200, strip=True) == "S passes 1 card face down to his partner (N)"


def test_trick_bids_are_public_calls_shown_in_the_hand():
    """The bids of a trick_bids phase (Oh Hell) are public calls: in observations, on screen and in
    the record, so a player can check a '+10'."""
    from typer.testing import CliRunner
    from rulekit.cli.app import app
    st = State(load_variant("ohhell"), seed=1)
    first = st.to_move
    st.apply(st.legal_actions()[0])
    assert st.hand.calls == [(first, "bid 0")]
    assert st.observation((first + 2) % 4).calls == [(first, "bid 0")]
    r = CliRunner().invoke(app, ["play", "ohhell", "--auto", "--seed", "2", "--max-hands", "1"])
    assert r.exit_code == 0 and "auction   P3 bid 1 · P0 bid 0 · P1 bid 0 · P2 bid 1" in r.output, r.output


def test_bids_as_numbers_play_as_the_checked_actions(tmp_path):
    """The choices as numbers of a trick bidding (a bid is its number; blind nil and look two
    numbers above every bid; the blind nil exchange the place of the cards passed) list the
    checked actions in their order and play as them: blind nil with its exchange, the dealer's
    hook, a lowest bid with nil beside it."""
    assert_choices_play_as_actions(side(tmp_path, "behind: 0, exchange: 1"), seeds=range(6), hands=2)
    hook = SIDE.replace("{kind: trick_bids, blind_nil: {%(blind)s}}", "{kind: trick_bids, hook: true, least: 1}")
    assert_choices_play_as_actions(variant_from(tmp_path, "hook.yaml", hook), seeds=range(6), hands=2)
