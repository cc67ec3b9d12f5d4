"""Bids of a value with the game named afterwards (``list_auction``'s ``values``): the bids are
numbers, spoken in pairs as in Skat (the second player bids to the first, who holds or passes;
the next then bids to the survivor; the survivor nobody bid to may bid the lowest value), or in
turn; the declarer names his game from the contracts after the widow (``announce``), formulas
read his ``bid``, and a game worth less than the bid is lost as the scoring says.  Checked on
the made-up ``tests/data/values/number-whist.yaml``."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.engine.scoring import hand_facts
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, legal_texts, load_text, runner

GAME = str(Path(__file__).parent / "data" / "values" / "number-whist.yaml")
VALUES = ["10", "11", "12", "14", "16", "18", "20", "22", "24", "27", "30", "33", "36"]
GAMES = ["clubs", "diamonds", "hearts", "misere", "notrump", "spades"]

# seat 1 (the eldest: the dealer is seat 0) holds every club, the ace of spades and the ace of hearts
HANDS = {1: "7C 8C 9C 10C JC QC KC AC AS AH",
         2: "7S 8S 9S 10S JS QS 7H 8H 9H 10H",
         0: "JH QH 7D 8D 9D 10D JD QD KD AD"}
WIDOW = "KS KH"


def pack(hands: dict = HANDS, widow: str = WIDOW) -> list:
    """The pack order dealing ``hands`` and ``widow`` by the pattern ``3, widow 2, 4, 3`` from
    seat 1 (the dealer is seat 0)."""
    cards = {s: h.split() for s, h in hands.items()}
    order: list = []
    at = 0
    for size in (3, "widow", 4, 3):
        if size == "widow":
            order += widow.split()
            continue
        for s in (1, 2, 0):
            order += cards[s][at:at + size]
        at += size
    return order


def new(text: str | None = None) -> State:
    v = load_variant(GAME) if text is None else load_text(text)
    return State(v, deals=[pack()], dealer=0)


def test_valid_strictly_and_explained():
    """The made-up game validates with no warning; ``explain`` says how the auction runs, that
    the declarer names his game afterwards, and the bid formulas read."""
    result = runner.invoke(app, ["validate", "--strict", GAME])
    assert result.exit_code == 0 and "1 file valid" in result.output, result.output
    words = runner.invoke(app, ["explain", GAME]).output
    assert "An auction of values (10, 11, 12, 14, 16, 18, 20, 22 ... up to 36)" in words
    assert "the second player bids to the first, who holds the value or passes" in words
    assert "The declarer then names his game, at his bid (formula variable bid), from 7 games" in words
    assert "The declarer names his game from the auction's list, whatever his bid" in words


def test_pairs_speaker_listener_then_the_next_speaks_to_the_survivor():
    """[SK-B3]-[SK-B5] in shape: the second player bids to the first (who holds or passes), the one
    who passes is out, then the third bids to the survivor, above every value named so far."""
    s = new()
    assert (s.phase_kind, s.to_move) == ("list_auction", 2)          # middlehand speaks to forehand
    assert legal_texts(s) == sorted(["pass"] + VALUES)
    s.apply("12")
    assert s.to_move == 1 and legal_texts(s) == ["hold", "pass"]     # forehand listens
    with pytest.raises(IllegalActionError, match="you listen: hold the value or pass"):
        s.apply("14")
    s.apply("hold")
    assert s.to_move == 2 and legal_texts(s) == sorted(["pass"] + VALUES[3:])   # above 12
    s.apply("pass")
    assert s.to_move == 0 and legal_texts(s) == sorted(["pass"] + VALUES[3:])   # rearhand to the survivor
    s.apply("20")
    s.apply("hold")
    s.apply("pass")
    assert s.hand.declarer == 1 and s.hand.contract is None and s.phase_kind == "widow_exchange"
    assert legal_texts(s) == ["hand", "take"]
    s.apply("take")
    assert len(s.legal_actions()) == 66 and "take" not in legal_texts(s)   # any 2 of his 12 cards
    s.apply("discard KS KH")
    assert s.phase_kind == "announce" and legal_texts(s) == GAMES and s.to_move == 1
    s.apply("clubs")
    assert s.hand.trump == "C"
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    # ten tricks at clubs and every card point (the discards KS KH counting for him): worth
    # 12 x (1 + 4) x 2 = 120, at least the bid of 20
    assert hand_facts(s.variant, s.hand_log[0])["points"] == [0, 120, 0]
    assert s.sheet.rows[0].entries == [0, 120, 0]


def test_an_overbid_game_loses_twice_the_bid():
    """A game worth less than the bid is lost whatever the play: a misere (23) after a bid of 36
    scores -2 x 36."""
    s = new()
    s.apply("36")
    s.apply("hold")
    s.apply("pass")
    s.apply("pass")
    s.apply("take")
    s.apply("discard KS KH")
    s.apply("misere")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert s.sheet.rows[0].entries == [0, -72, 0]


def test_nobody_named_a_value_the_survivor_may_bid_the_lowest():
    """[SK-B6] in shape: both others pass without a bid; forehand may bid the lowest value or pass;
    [SK-B7] all three passing throws the deal in."""
    s = new()
    s.apply("pass")
    assert s.to_move == 0 and legal_texts(s) == sorted(["pass"] + VALUES)   # rearhand to forehand
    s.apply("pass")
    assert s.to_move == 1 and legal_texts(s) == ["10", "pass"]
    with pytest.raises(IllegalActionError):
        s.apply("11")
    s.apply("10")
    assert s.hand.declarer == 1 and s.phase_kind == "widow_exchange"
    t = new()
    for _ in range(3):
        t.apply("pass")
    row = t.sheet.rows[0]
    assert t.hand.number == 1 and row.void and row.note == "passed out" and row.entries == [0, 0, 0]


def test_in_turn_the_values_rise_and_the_last_bidder_declares():
    """``speaking: round``: each in turn from the eldest, a bid above the highest so far, a pass is
    final; the last bidder declares at his bid."""
    text = Path(GAME).read_text().replace("speaking: pairs", "speaking: round")
    s = new(text)
    assert s.to_move == 1 and legal_texts(s) == sorted(["pass"] + VALUES)
    s.apply("14")
    assert s.to_move == 2 and "14" not in legal_texts(s) and "16" in legal_texts(s)
    s.apply("pass")
    s.apply("16")
    s.apply("18")
    s.apply("pass")
    assert s.hand.declarer == 1 and s.phase_kind == "widow_exchange"
    s.apply("take")
    s.apply("discard KS KH")
    s.apply("notrump")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert s.sheet.rows[0].entries == [0, 14 * 5 * 2, 0]   # ten tricks at no trump, 120 points: 14 x (1 + 4) x 2


def test_formulas_read_the_bid():
    """``bid`` is the declarer's bid (0 in a hand without one); its bounds are the values'."""
    from rulekit.engine.scoring import player_envs
    s = new()
    for a in ("27", "hold", "pass", "pass", "take", "discard KS KH", "clubs"):
        s.apply(a)
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    h = s.hand_log[0]
    assert [e.vars["bid"] for e in player_envs(s.variant, h)] == [27, 27, 27]
    assert s.sheet.rows[0].entries == [0, 120, 0]


def test_a_hand_game_leaves_the_widow_and_allows_the_hand_games():
    """``hand``: the declarer plays without the widow (nobody sees it; it counts for him at the end
    with ``widow_to: declarer``); a game marked ``hand`` may be named only then; ``hand_game``
    doubles the worth here: a slam of ten tricks and 120 points is 30 x 5 x 2 x 2."""
    s = new()
    for a in ("20", "hold", "pass", "pass"):
        s.apply(a)
    obs = s.observation(1)
    assert not obs.hand & (1 << s.variant.deck.parse("KS"))
    s.apply("hand")
    assert s.phase_kind == "announce" and legal_texts(s) == sorted(GAMES + ["slam"])
    assert s.hand.hands[1].bit_count() == 10 and s.hand.zones["widow"].bit_count() == 2
    s.apply("slam")
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    assert s.sheet.rows[0].entries == [0, 600, 0]
    t = new()
    for a in ("20", "hold", "pass", "pass", "take", "discard KS KH"):
        t.apply(a)
    assert "slam" not in legal_texts(t)   # not after taking the widow


@pytest.mark.parametrize("old, new_, at, col, message", [
    ("values: [10, 11, 12,", "values: [10, 12, 11,", "values:", 22, "11 is not above 12: the values rise"),
    ("    speaking: pairs\n", "    speaking: pairs\n    once: true\n", "once:", 11,
     "once does not go with speaking: pairs"),
    ("  announce:\n    kind: announce\n", "", "values:", 13, "it needs an announce phase"),
    ("    values: [10, 11, 12, 14, 16, 18, 20, 22, 24, 27, 30, 33, 36]\n", "", "speaking:", 15,
     "speaking: pairs bids numbers: it needs values"),
    ("{call: clubs,", "{call: \"12\",", "values:", 22, "12 is also the call of a contract"),
    ("    hand: true                        # take the widow, or play without it\n", "", "- {call: slam", 51,
     "needs an auction of values and a widow_exchange with hand: true"),
])
def test_misuse_is_refused_at_its_place(tmp_path, old, new_, at, col, message):
    """Values that do not rise, pairs with ``once`` or without values, no phase to name the game,
    a value that is also a contract's call: each refused at the option's line and column."""
    text = Path(GAME).read_text()
    assert old in text
    bad = text.replace(old, new_)
    line = next(k for k, t in enumerate(bad.splitlines(), 1) if t.strip().startswith(at))
    f = tmp_path / "bad.yaml"
    f.write_text(bad)
    with pytest.raises(VariantError) as e:
        load_variant(str(f))
    assert f"bad.yaml:{line}:{col}:" in str(e.value) and message in str(e.value), str(e.value)


@pytest.mark.parametrize("seed", range(4))
def test_random_play_ends_with_a_winner(seed):
    """Random legal bids, holds, discards, games and cards play the match to its end."""
    assert_plays_to_a_winner(GAME, seed)


def test_bots_play_to_a_winner():
    """``rulekit play --auto``: the bots bid up to the game they can make, name a game worth their
    bid and play; the match ends with a winner."""
    result = runner.invoke(app, ["play", GAME, "--auto", "--seed", "3", "--quiet"])
    assert result.exit_code == 0 and "deals played" in result.output, result.output


def test_the_scorepad_asks_the_bid():
    """A scorer types the game, the declarer and the bid: a value not of the list is refused."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(load_variant(GAME))
    facts: dict = {}
    q = pad.next_question(facts)
    assert q.name == "contract" and q.help == "a bid from clubs to slam, or pass"
    pad.answer(q, "clubs", facts)
    pad.answer(pad.next_question(facts), "P1", facts)
    q = pad.next_question(facts)
    assert q.name == "phase:auction:bid"
    with pytest.raises(Exception, match="'13' is not a bid of this auction"):
        pad.answer(q, "13", facts)
    pad.answer(q, "20", facts)
    while (q := pad.next_question(facts)) is not None:
        pad.answer(q, {"tricks": "0 10 0", "points": "0 120 0", "phase:widow:hand": "no"}[q.name], facts)
    pad.add(facts)
    assert pad.sheet.rows[0].entries == [0, 120, 0]


def test_a_record_replays_the_bids_holds_and_games(tmp_path):
    """A match's record (values, ``hold``, discards, the games named, the cards) replays to the
    same history and sheet."""
    import random

    from rulekit import records
    s = State(load_variant(GAME), seed=5)
    rng = random.Random(5)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    assert "hold" in [str(x[-1]) for x in s.history]
    f = tmp_path / "r.json"
    records.save(f, records.to_record(s, ["random"] * 3))
    again = records.replay(records.load(f))
    assert again.history == s.history and again.sheet.as_dict() == s.sheet.as_dict()


def test_the_discards_count_for_the_declarer_only_with_widow_to():
    """``discards_to: declarer`` (with ``widow_to: declarer``): his two discards are among his won
    cards (every card point is his when he takes every trick); without them they count for nobody."""
    text = Path(GAME).read_text()
    for widow_to, points in ((True, 120), (False, 112)):
        s = new(text if widow_to else text.replace("    widow_to: declarer", "").replace("    discards_to: declarer", ""))
        for a in ("12", "hold", "pass", "pass", "take", "discard KS KH", "clubs"):
            s.apply(a)
        while s.hand.number == 0:
            s.apply(s.legal_actions()[0])
        h = s.hand_log[0]
        table = s.variant.points_table(h.ctx)
        assert [sum(table[c] for c in range(32) if m >> c & 1) for m in h.won_cards] == [0, points, 0]
