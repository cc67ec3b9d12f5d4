"""Each house-rule file changes exactly the results it should, and nothing else.

For every house rule of rules/fivehundred.md ([S3] eight-trick slam, [T2] must trump,
[D4] widow face down, [G4] minus 500 loses) and rules/rams.md ([J1] jacks):

* its merged document differs from the base only at the keys it overrides;
* a crafted real-play situation shows the changed result beside the default one;
* paired runs (same deals, same random bots) show that nothing else changes.
"""
from __future__ import annotations

import random

import pytest

from rulekit.bots import RandomBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.helpers import random_hand
from tests.test_rules_fivehundred import (A_DEAL, A_EIGHT, A_HANDS, A_SEVEN, A_SEVEN_B, A_WIDOW, E_AUCTION,
    E_DEAL, J_DEAL, N_DEAL, N_PLAY, N_WIDOW, deal_500, entries_for, legal_texts, play, refused, relabel,
    relabel_script)


@pytest.fixture(scope="module")
def base():
    return load_variant("fivehundred")


def flat(d, path=()):
    if isinstance(d, dict):
        out = {}
        for k, x in d.items():
            out.update(flat(x, path + (k,)))
        return out
    return {path: d}


@pytest.mark.parametrize("house,parent,keys", [
    ("fivehundred-eight-trick-slam", "fivehundred", {("scoring", "declarer")}),
    ("fivehundred-must-trump", "fivehundred", {("phases", "play", "must_trump")}),
    ("fivehundred-widow-down", "fivehundred", {("phases", "deal", "pattern")}),
    ("fivehundred-minus-500", "fivehundred", {("match", "lose_at")}),
    ("rams-jacks", "rams", {("ranking", "suit"), ("ranking", "top")}),
])
def test_house_file_overrides_only_its_keys(house, parent, keys):
    """Each house file extends its base and overrides only the keys of its rule (plus id and name)."""
    a = flat(load_variant(parent).data)
    b = flat(load_variant(house).data)
    changed = {k for k in set(a) | set(b) if a.get(k) != b.get(k)}
    assert changed == keys | {("id",), ("name",)}


# --------------------------------------------------------------------------- eight-trick slam [S3]
@pytest.fixture(scope="module")
def slam8():
    return load_variant("fivehundred-eight-trick-slam")


def test_example4_eight_trick_slam_real_play(base, slam8):
    """Example 4 [S3]: 6♦ with 8 tricks is +250 under fivehundred-eight-trick-slam, +80 by default."""
    to_d = {"S": "D", "C": "H", "D": "S", "H": "C"}
    hands = {s: relabel(A_HANDS[s], to_d) for s in range(3)}
    deal = deal_500(2, hands, relabel(A_WIDOW, to_d))
    script = ["6D", "pass", "pass"] + relabel_script(A_EIGHT[3:], to_d)
    got = {}
    for v in (base, slam8):
        s = play(State(v, deals=[deal], dealer=2), script)
        assert s.hand_log[0].won == [8, 0, 2]
        got[v.id] = s.sheet.rows[0].entries
    assert got["fivehundred"] == [80, 0, 20]
    assert got["fivehundred-eight-trick-slam"] == [250, 0, 20]


def test_eight_trick_slam_changes_exactly_its_cases(base, slam8):
    """Over every bid and trick count: the house rule differs from the default exactly when a
    contract below eight is made with 8 or 9 tricks (250 instead of the value), and for 8♠ with
    all 10 tricks, where seed 001's reading (no bonus for bids of eight or more) gives its value
    240 instead of the default [S3] slam 250.  Opponents' entries never change."""
    diffs = {}
    for b in base.phase("ladder_auction").bids:
        if b.strain == "chosen":
            continue
        for t in range(11):
            won = [t, 10 - t, 0]
            d, h = entries_for(base, b.text, won), entries_for(slam8, b.text, won)
            assert d[1:] == h[1:]
            if d != h:
                diffs[(b.text, t)] = (d[0], h[0])
    want = {}
    for lv in (6, 7):
        for i, st in enumerate(("S", "C", "D", "H", "NT")):
            value = 40 + 20 * i + 100 * (lv - 6)
            for t in (8, 9):
                want[(f"{lv}{st}", t)] = (value, 250)
    want[("8S", 10)] = (250, 240)
    assert diffs == want


@pytest.mark.parametrize("seed", range(6))
def test_eight_trick_slam_same_play_same_sheet(base, slam8, seed):
    """Paired random hands: the same actions are legal and chosen; entries differ only by the slam rule."""
    a, b = random_hand(base, seed), random_hand(slam8, seed)
    assert a.history == b.history
    h = a.hand_log[0]
    ea, eb = a.sheet.rows[0].entries, b.sheet.rows[0].entries
    if h.contract is not None and h.contract.level < 8 and 8 <= h.won[h.declarer] < 10:
        assert eb[h.declarer] == 250
        ea, eb = ea[:h.declarer] + ea[h.declarer + 1:], eb[:h.declarer] + eb[h.declarer + 1:]
    assert ea == eb


# --------------------------------------------------------------------------- must trump [T2]
@pytest.fixture(scope="module")
def must():
    return load_variant("fivehundred-must-trump")


def test_must_trump_void_player_must_trump(base, must):
    """[T2] house option: a player void in the suit led must trump if able (the left bower J♣ is
    his trump); by default he may discard any card."""
    d = play(State(base, deals=[E_DEAL], dealer=2), E_AUCTION + ["9D"])
    assert len(d.legal_actions()) == 10
    d.apply("10H")                                # a discard is fine by default
    m = play(State(must, deals=[E_DEAL], dealer=2), E_AUCTION + ["9D"])
    assert legal_texts(m) == ["play JC"]
    with pytest.raises(IllegalActionError, match="cannot follow diamonds and must trump: you hold J♣"):
        m.apply("10H")
    # the Joker counts as a trump too: void in hearts, seat 2 must play it
    m2 = play(State(must, deals=[E_DEAL], dealer=2), E_AUCTION + ["7H", "AH"])
    assert legal_texts(m2) == ["play JK"]
    d2 = play(State(base, deals=[E_DEAL], dealer=2), E_AUCTION + ["7H", "AH"])
    assert len(d2.legal_actions()) == 10


def test_must_trump_without_trumps_any_card(base, must):
    """[T2] a void player with no trump may still play any card: a hand with no such case plays and
    scores identically under both rules (example 1)."""
    for v in (base, must):
        s = play(State(v, deals=[A_DEAL], dealer=2), A_EIGHT[:5])   # after trick 1: 8♠ 7♠ gone
        s.apply("JS")
        assert len(s.legal_actions()) == 9      # seat 1 has no trump left: any card
    a = play(State(base, deals=[A_DEAL], dealer=2), A_EIGHT)
    b = play(State(must, deals=[A_DEAL], dealer=2), A_EIGHT)
    assert a.sheet.as_dict()["rows"] == b.sheet.as_dict()["rows"]


def _trumps(names, trump):
    """Trump cards among ``names`` by [R1], derived from the rules page (not the engine tables)."""
    if trump == "NT":
        return set()
    sister = {"S": "C", "C": "S", "D": "H", "H": "D"}[trump]
    return {n for n in names if n == "JK" or n[-1] == trump or n == "J" + sister}


def _effective_suit(name, trump):
    if name in _trumps([name], trump):
        return trump
    return "top" if name == "JK" else name[-1]


@pytest.mark.parametrize("seed", range(8))
def test_must_trump_changes_only_void_with_trump(base, must, seed):
    """Decision by decision (same deals, same actions): the legal sets are equal except when a
    player cannot follow and holds a trump; then the house allows exactly his trumps."""
    a, b = State(base, seed=seed), State(must, seed=seed)
    bot = RandomBot(seed)
    deck = base.deck
    while not b.is_over and len(b.sheet.rows) < 2:
        la = [x.text for x in a.legal_actions()]
        lb = [x.text for x in b.legal_actions()]
        h = a.hand
        want = la
        if a.phase_kind == "tricks" and h.trick:
            held = deck.names_of(h.hands[h.to_move])
            led = h.named or _effective_suit(deck.name(h.trick[0][1]), h.trump)
            void = all(_effective_suit(n, h.trump) != led for n in held)
            trumps = _trumps(held, h.trump)
            if void:
                assert len(la) == len(held)          # [T2] default: any card
                if trumps:
                    want = [x for x in la if x.split()[1] in trumps]
        assert lb == want
        act = lb[int(bot.rng.random() * len(lb))]
        a.apply(act)
        b.apply(act)
    assert a.history == b.history


# --------------------------------------------------------------------------- widow down [D4]
@pytest.fixture(scope="module")
def down():
    return load_variant("fivehundred-widow-down")


def test_widow_down_hidden_during_auction(base, down):
    """[D4] house option: the widow is face down during the auction: no seat sees it (default: all do)."""
    widow = base.deck.parse_mask(A_WIDOW)
    sd, sh = State(base, deals=[A_DEAL], dealer=2), State(down, deals=[A_DEAL], dealer=2)
    for call in ("8S", "pass"):
        for seat in range(3):
            assert sd.observation(seat).widow == widow
            assert sh.observation(seat).widow == 0
            assert sh.observation(seat).unseen() & widow == widow
        sd.apply(call)
        sh.apply(call)
    # the declarer still takes it into his hand [W1]
    sh.apply("pass")
    assert sh.phase_kind == "widow_exchange" and sh.hand.hands[0] & widow == widow


def test_widow_down_observation_ignores_widow_cards(down):
    """[D4] with the widow down, swapping a widow card with another seat's card leaves every other
    seat's observation unchanged."""
    s = State(down, deals=[A_DEAL], dealer=2)
    t = s.clone()
    w = down.deck.parse("7C")
    c = down.deck.parse("8S")                      # seat 1's card
    t.hand.zones["widow"] = t.hand.zones["widow"] & ~(1 << w) | (1 << c)
    t.hand.hands[1] = t.hand.hands[1] & ~(1 << c) | (1 << w)
    for seat in (0, 2):
        assert s.observation(seat) == t.observation(seat)
    assert s.observation(1) != t.observation(1)


def test_widow_down_all_pass_stays_hidden(base, down):
    """[D4][N1] with no contract the widow stays unused; face down it is never seen."""
    s = State(down, deals=[N_DEAL], dealer=2)
    play(s, ["pass", "pass", "pass"])
    for item in N_PLAY[3:]:
        assert all(s.observation(seat).widow == 0 for seat in range(3))
        play(s, [item])
    d = play(State(base, deals=[N_DEAL], dealer=2), N_PLAY)
    assert s.sheet.as_dict()["rows"] == d.sheet.as_dict()["rows"]
    assert s.hand_log[0].zones["widow"] == down.deck.parse_mask(N_WIDOW)


@pytest.mark.parametrize("seed", range(5))
def test_widow_down_same_play_same_sheet(base, down, seed):
    """Paired random hands: identical legal sets, actions and sheets."""
    a, b = random_hand(base, seed, hands=2), random_hand(down, seed, hands=2)
    assert a.history == b.history
    assert a.sheet.as_dict()["rows"] == b.sheet.as_dict()["rows"]


# --------------------------------------------------------------------------- minus 500 [G4]
@pytest.fixture(scope="module")
def m500():
    return load_variant("fivehundred-minus-500")


def test_minus_500_loses(base, m500):
    """[G4] house option: a player at −500 or below loses (the best of the others wins);
    by default play goes on."""
    s = play(State(m500, deals=[A_DEAL], dealer=2, scores=[-260, 0, 0]), A_SEVEN)
    assert s.sheet.totals() == [-500, 20, 10]
    assert s.is_over and s.winners == [1]
    d = play(State(base, deals=[A_DEAL], dealer=2, scores=[-260, 0, 0]), A_SEVEN)
    assert d.sheet.totals() == [-500, 20, 10] and not d.is_over
    h = play(State(m500, deals=[A_DEAL], dealer=2, scores=[-250, 0, 0]), A_SEVEN)
    assert h.sheet.totals()[0] == -490 and not h.is_over


@pytest.mark.parametrize("seed", range(5))
def test_minus_500_only_ends_the_match_earlier(base, m500, seed):
    """Paired random matches: the house sheet is the default sheet cut after the first hand that
    leaves someone at −500 or below (when the default match has not ended before)."""
    a = random_hand(base, seed, hands=12)
    b = random_hand(m500, seed, hands=12)
    rows_a, rows_b = a.sheet.as_dict()["rows"], b.sheet.as_dict()["rows"]
    cut = next((i for i, r in enumerate(rows_a) if min(r["totals"]) <= -500), None)
    if cut is None:
        assert rows_a == rows_b and a.winners == b.winners
        return
    assert rows_b == rows_a[:cut + 1]
    assert b.is_over
    if not (a.is_over and len(rows_a) == cut + 1):
        totals = rows_b[-1]["totals"]
        rest = [s for s in range(3) if totals[s] > -500]
        assert b.winners == [s for s in rest if totals[s] == max(totals[x] for x in rest)]


def test_minus_500_everyone_falls_best_total_wins():
    """[G4] when every player falls to -500 or below on one hand, the best total still wins
    (the match once ended with no winner)."""
    from rulekit.engine.hand import Hand
    from rulekit.engine.scoring import match_result
    v = load_variant("fivehundred-minus-500")
    h = Hand(0, 0, 3)
    winners, reason = match_result(v, h, [0, 0, 0], [-520, -500, -610], 1)
    assert winners == [1] and "at or below -500" in reason


def two(cards: list) -> list:
    return ["2C" if c == "JK" else c for c in cards]


@pytest.fixture(scope="module")
def two_clubs():
    return load_variant("fivehundred-two-clubs")


def test_P2_house_deck_33_cards_2c_instead_of_joker(two_clubs):
    """[P2] house: 7..A in four suits plus the 2♣, no Joker; it is displayed as 2♣."""
    assert two_clubs.deck.size == 33
    assert set(two_clubs.deck.names) == {r + s for s in "SCDH" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")} | {"2C"}
    assert two_clubs.deck.pretty(two_clubs.deck.parse("2C")) == "2♣"


def test_P2_house_R1_2c_is_the_highest_trump(two_clubs):
    """[R1] with the house 2♣: 2♣ > right bower > left bower > A K Q 10 9 8 7, also in clubs."""
    for trump in "SCDH":
        ctx = two_clubs.contexts[trump]
        keys = ctx.win_keys[ctx.trump_group]
        best = max(range(two_clubs.deck.size), key=lambda c: keys[c])
        assert two_clubs.deck.name(best) == "2C"


def test_P2_house_T4a_2c_led_at_no_trump_names_a_suit(two_clubs):
    """Example 12 [T4] with the 2♣ for the Joker: naming a failed suit is refused, naming hearts is
    accepted and followed, and the 2♣ wins."""
    s = play(State(two_clubs, deals=[two(J_DEAL)], dealer=2), ["pass", "pass", "pass", "7D 9C AD", "7S 8S AS"])
    assert s.to_move == 1
    assert [a.text for a in s.legal_actions() if a.card == two_clubs.deck.parse("2C")] == \
        ["play 2C S", "play 2C C", "play 2C H"]
    msg = refused(s, "2C D")
    assert "diamonds" in msg and "failed to follow" in msg
    s.apply("2C H")
    assert legal_texts(s) == ["play 10H", "play 9H", "play AH", "play JH", "play KH", "play QH"]
    s.apply("9H")
    s.apply("7H")
    assert s.hand.tricks[2][2] == 1 and s.hand.tricks[2][3] == "H"


def test_P2_house_T4b_2c_on_a_suit_lead_only_when_void(two_clubs):
    """[T4](b) the 2♣ may be played to a suit lead only when void in it, and then wins; it is not a
    club: a player holding it and other cards may not play it to a spade lead."""
    s = play(State(two_clubs, deals=[two(J_DEAL)], dealer=2), ["pass", "pass", "pass"])
    s.apply("7D")
    assert "play 2C" in legal_texts(s)
    s.apply("2C")
    s.apply("AD")
    assert s.hand.tricks[0][2] == 1
    s2 = play(State(two_clubs, deals=[two(J_DEAL)], dealer=2), ["pass", "pass", "pass", "7D 9C AD"])
    s2.apply("7S")
    s2.apply("8S")
    assert refused(s2, "2C").startswith("you must follow spades")


def test_P2_house_T5_2c_wins_as_top_trump(two_clubs):
    """[T5] at trumps the 2♣ may be played whenever its holder cannot follow, and wins."""
    s = play(State(two_clubs, deals=[two(E_DEAL)], dealer=2), E_AUCTION)
    s.apply("7H")
    s.apply("AH")
    assert "play 2C" in legal_texts(s) and len(s.legal_actions()) == 10
    s.apply("2C")
    assert s.hand.tricks[0][2] == 2


def test_P2_house_D1_2c_cuts_lowest(two_clubs):
    """[D1] the 2♣ takes the Joker's place as the lowest cut."""
    st = two_clubs.first_dealer["strength"]
    order = sorted(two_clubs.deck.names, key=lambda n: st[two_clubs.deck.parse(n)])
    assert order[0] == "2C" and order[1:5] == ["AS", "AC", "AD", "AH"]

SPADES = 0   # the group of spades (deck.suits order S C D H)


@pytest.fixture(scope="module")
def joker_follows():
    return load_variant("fivehundred-joker-follows")


def test_T4_house_joker_follows_a_lead_its_holder_can_follow_and_wins(joker_follows):
    """At no trump (all passed, [N1]) seat 1 holds spades, yet may play the Joker to a spade lead
    as a spade; it wins, and he is not marked as having failed spades."""
    s = play(State(joker_follows, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    s.apply("8S")
    assert legal_texts(s) == ["play AS", "play JK", "play KS", "play QS"]
    s.apply("JK")
    assert not s.hand.failed[1] >> SPADES & 1
    s.apply("7S")
    assert s.hand.tricks[0][2] == 1                      # [T4b] the Joker wins the trick


def test_T4_house_not_after_failing_that_suit(joker_follows):
    """The exception: a holder who has failed to follow the suit led may not play the Joker as a
    card of it. (In legal play a player who failed a suit holds none of it and may play any card,
    as [T4b] says; the failure is marked by hand, as in ``test_T4_exception_all_four_failed``.)"""
    s = play(State(joker_follows, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    s.apply("8S")
    s.hand.failed[1] |= 1 << SPADES
    assert "play JK" not in legal_texts(s)
    assert refused(s, "JK").startswith("you must follow spades")


def test_T4_base_rule_unchanged_without_the_house_option():
    """The reference file keeps [T4b]: the Joker goes to a spade lead only when void in spades."""
    s = play(State(load_variant("fivehundred"), deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    s.apply("8S")
    assert "play JK" not in legal_texts(s)


def test_T4_house_changes_nothing_at_trumps(joker_follows):
    """[T5] at trumps the Joker is the highest trump: the house option (a no-trump rule) leaves
    every legal set of a suit contract as the reference file has it (same seeded random play)."""
    base = load_variant("fivehundred")
    for seed in range(6):
        a, b = State(base, seed=seed), State(joker_follows, seed=seed)
        rng = random.Random(seed)
        while not a.is_over and a.hands_played < 3:
            la, lb = sorted(x.text for x in a.legal_actions()), sorted(x.text for x in b.legal_actions())
            if a.kind.name != "tricks" or a.hand.trump != "NT":
                assert la == lb
            if la != lb:
                break                                    # a no-trump hand: the rules differ there
            act = la[rng.randrange(len(la))]
            a.apply(act)
            b.apply(act)


def test_top_follows_without_top_cards_is_a_warning(tmp_path):
    """``top_follows`` needs ``ranking.top``: without it the option has no effect (a warning)."""
    from rulekit.variant import check_file
    f = tmp_path / "w.yaml"
    f.write_text("id: w\nextends: whist\nname: W\nphases:\n  play:\n    top_follows: true\n")
    assert [str(d) for d in check_file(str(f), warnings=True)] == [
        f"{f}:6:5: warning: phases.play.top_follows: has no effect without ranking.top (no card is above "
        f"the suits)"]


# --------------------------------------------------------------------------- [G3] before lose_at
def test_minus_500_keeps_the_G3_trick_order_winner():
    """rules/fivehundred.md [G3] [G4]: start totals -300/490/490; the declarer
    fails 8♠ (-240 -> -540) while both opponents pass 500 (510 and 500; seat 2's 500 was reached
    at trick 8, seat 1's at trick 9).  The player who reached 500 first by trick order wins, as
    under the default rules -- not the higher total."""
    for vid in ("fivehundred", "fivehundred-minus-500"):
        s = play(State(load_variant(vid), deals=[A_DEAL], dealer=2, scores=[-300, 490, 490]), A_SEVEN_B)
        assert s.sheet.rows[0].entries == [-240, 20, 10]
        assert s.sheet.totals() == [-540, 510, 500]
        assert s.sheet.rows[0].trick_winners == [0] * 7 + [2, 1, 1]
        assert s.winners == [2], vid
        assert s.end_reason == "reached 500"


def test_joker_at_no_trump_is_not_forced_by_must_trump():
    """The limit of the kind: a top card that names a suit when led (the Joker of
    Five Hundred at no trump, rules/fivehundred.md [R3] [T4]) is no trump: with the house rule
    must_trump a void player holding it may still discard."""
    v = load_variant("fivehundred-must-trump")
    assert v.contexts["NT"].trump_suit_group is None
    assert v.contexts["S"].trump_suit_group == v.deck.suits.index("S")
    jacks = load_variant("rams-jacks")
    assert jacks.contexts["NT"].trump_suit_group == len(jacks.deck.suits)   # the jacks' top group
