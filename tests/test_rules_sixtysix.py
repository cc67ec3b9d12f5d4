"""Sixty-Six (variants/sixtysix.yaml, docs/rules/sixtysix.md): the page's worked examples, the
cross-check against the independent referee (tests/referees/sixtysix.py), and play to a winner."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.engine.scoring import player_envs
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import assert_plays_to_a_winner, legal_texts as texts, order_for, run
from tests.referees import sixtysix as referee
from tests.stock_crosscheck import assert_match_agrees, check_random_hands, cross_check

#: Example 2's deal: dealer 0, the thirteenth card A♠ turned up (first of the stock, drawn last).
EXAMPLE = {1: "9S KH QH 10C JD AD", 0: "KS QS AH 10H JC 9C",
           "stock": "AS 10S JS KC QC AC 9H JH KD QD 10D 9D"}


@pytest.fixture(scope="module")
def v():
    return load_variant("sixtysix")


def example(v, scores=None) -> State:
    return State(v, seed=0, deals=[order_for(v, 0, EXAMPLE)], dealer=0, scores=scores)


def held(v, s, seat: int) -> set:
    return set(v.deck.names_of(s.hand.hands[seat]))


def score(s, seat: int) -> int:
    e = s.score_envs()[seat].vars
    return e["points"] + e["melds"]


def test_example1_pack_and_points(v):
    """[SS-P1] [SS-P2]: 24 cards, 120 card points, nines worth 0."""
    assert v.deck.size == 24 and sum(v.card_points) == 120
    assert all(v.card_points[v.deck.parse("9" + s)] == 0 for s in "SHDC")


def test_example2_marriages_and_a_claim_for_three(v):
    """[SS-D1] [SS-D2] [SS-X1] [SS-M1] [SS-M2] [SS-T4] [SS-G1] [SS-S1]: no exchange before a trick
    is won; a marriage declared before it counts only once its player wins one, so seat 1 ends
    with no trick and nothing: 3 game points to seat 0."""
    s = example(v)
    assert s.hand.trump == "S" and s.to_move == 1
    assert "exchange" not in texts(s)
    with pytest.raises(IllegalActionError, match="only after winning a trick"):
        s.apply("exchange")
    run(s, "meld KH QH", "play KH", "play AH")
    assert score(s, 0) == 15 and score(s, 1) == 0
    assert "10S" in held(v, s, 0) and "JS" in held(v, s, 1)
    s.apply("meld KS QS")
    assert score(s, 0) == 55
    run(s, "play QS", "play AD")
    assert score(s, 0) == 69 and "KC" in held(v, s, 0) and "QC" in held(v, s, 1)
    s.apply("claim")
    assert s.sheet.rows[0].entries == [3, 0]


def test_example3_exchange_after_a_trick_then_close(v):
    """[SS-X1] [SS-C1] [SS-M3]: with a trick won the leader exchanges the nine of trumps for the
    turn-up, closes, and may declare no marriage then; nobody draws."""
    s = run(example(v), "play 10C", "play 9C")
    assert score(s, 1) == 10 and "10S" in held(v, s, 1) and "JS" in held(v, s, 0)
    assert "exchange" in texts(s) and "meld QH KH" in texts(s)
    run(s, "exchange", "close")
    assert "AS" in held(v, s, 1) and "meld QH KH" not in texts(s)
    with pytest.raises(IllegalActionError, match="while the stock is open"):
        s.apply("meld KH QH")
    s.apply("play AS")
    s.apply(next(a for a in s.legal_actions() if a.kind == "play"))
    assert [m.bit_count() for m in s.hand.hands] == [5, 5]     # no draw after the close


def _played_out(v, seed: int, close: bool = False) -> tuple:
    """A deal played card by card (no meld, no claim; a close at the second lead when ``close``):
    its entries, card points and the last trick's winner."""
    s = State(v, seed=seed)
    while not s.sheet.rows:
        acts = s.legal_actions()
        if close and len(s.hand.tricks) == 1 and any(a.text == "close" for a in acts):
            s.apply("close")
            continue
        plays = [a for a in acts if a.kind == "play"]
        s.apply(plays[(seed + len(s.hand.tricks)) % len(plays)])
    h = s.hand_log[0]
    d = REGISTRY["tricks"].data_of(h)
    return list(s.sheet.rows[0].entries), [e.vars["points"] for e in player_envs(v, h)], h.trick_winners[-1], d


def test_example4_the_last_trick(v):
    """[SS-S5] [SS-S6]: a talon played out gives the last trick 10: 55-65 in cards with the last
    trick to the 55 is 65-65, nobody scores; a winner brought to 66 by it claims; after a close
    the last trick adds nothing."""
    seen = set()
    for seed in range(300):
        entries, pts, last, d = _played_out(v, seed)
        if d.claimer >= 0 and not d.played_out:
            continue
        with_last = [p + (10 if k == last else 0) for k, p in enumerate(pts)]
        if max(with_last) < 66:
            assert with_last == [65, 65] and entries == [0, 0]
            seen.add("65-65")
        elif pts[last] < 66 <= with_last[last]:
            assert d.claimer == last and entries[last] >= 1 and entries[1 - last] == 0
            seen.add("made by the last trick")
        if len(seen) == 2:
            break
    assert seen == {"65-65", "made by the last trick"}
    for seed in range(100):
        entries, pts, last, d = _played_out(v, seed, close=True)
        if d.closed_by >= 0 and d.played_out:
            closer = d.closed_by
            made = pts[closer] >= 66
            assert (entries[closer] > 0) == made and sum(entries) > 0
            if not made:
                assert entries[1 - closer] in (2, 3)
            break
    else:
        pytest.fail("no closed deal played out")


def test_example5_game_of_seven(v):
    """[SS-B1]: a game is won by the first to 7 game points (4 + 3 here)."""
    s = example(v, scores=[4, 3])
    run(s, "meld KH QH", "play KH", "play AH", "meld KS QS", "play QS", "play AD", "claim")
    assert s.is_over and s.winners == [0] and s.sheet.totals() == [7, 3]


def test_referee_cross_check():
    """Random deals through rulekit and the referee side by side: the same legal actions at every
    decision, the same hands after every draw, no stock card in any observation, the same points
    and game points."""
    t = cross_check("sixtysix", referee, seed=1, deals=250)
    assert t.decisions > 3500 and t.claims > 100 and t.closes > 100 and t.exchanges > 5 and t.melds > 15


@pytest.mark.slow
def test_referee_cross_check_many_deals():
    """The cross-check over 2,000 deals."""
    cross_check("sixtysix", referee, seed=12, deals=2000)


@pytest.mark.parametrize("seed", range(4))
def test_match_winner_agrees_with_the_referee(seed):
    """[SS-B1]: whole matches of random deals end with the referee's winner of the same entries."""
    assert_match_agrees("sixtysix", referee, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sixtysix_plays_to_a_winner(seed):
    """Random legal play reaches a winner for any seed (not the match cap)."""
    assert_plays_to_a_winner("sixtysix", seed)


def test_random_hands_draw_in_order_and_keep_the_stock_hidden(v):
    """Random hands: the winner draws first, the turn-up (or the nine exchanged for it) last; no
    close or exchange once the stock is closed or exhausted; no stock card in any observation."""
    assert check_random_hands(v, range(100)) > 100
