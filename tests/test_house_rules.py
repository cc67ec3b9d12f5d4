"""Each house-rule file changes exactly the results it should, and nothing else.

For every house rule of rules/fivehundred.md ([S3] eight-trick slam, [T2] must trump,
[D4] widow face down, [G4] minus 500 loses) and rules/rams.md ([J1] jacks):

* its merged document differs from the base only at the keys it overrides;
* a crafted real-play situation shows the changed result beside the default one;
* paired runs (same deals, same random bots) show that nothing else changes.
"""
from __future__ import annotations

import pytest

from rulekit.bots import RandomBot
from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from tests.test_rules_fivehundred import (A_DEAL, A_EIGHT, A_HANDS, A_SEVEN, A_WIDOW, E_AUCTION, E_DEAL, N_DEAL,
                                          N_PLAY, N_WIDOW, deal_500, entries_for, legal_texts, play, relabel,
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


def random_hand(v, seed: int, scores=None, hands: int = 1):
    """Play ``hands`` hands (or to the end of the match) with random bots."""
    s = State(v, seed=seed, scores=scores)
    bots = [RandomBot(seed * 7 + i) for i in range(v.players)]
    while not s.is_over and len(s.sheet.rows) < hands:
        seat = s.to_move
        s.apply(bots[seat].act(s.observation(seat)))
    return s


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


# --------------------------------------------------------------------------- rams jacks [J1]
@pytest.fixture(scope="module")
def jacks():
    return load_variant("rams-jacks")


def deal_rams4(dealer, hands):
    eldest = (dealer + 1) % 4
    return [hands[(eldest + k) % 4][i] for i in range(8) for k in range(4)]


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


def test_minus_500_everyone_falls_best_total_wins():
    """[G4] when every player falls to -500 or below on one hand, the best total still wins
    (found by the property tests: the match used to end with no winner)."""
    from rulekit.engine.hand import Hand
    from rulekit.engine.scoring import match_result
    v = load_variant("fivehundred-minus-500")
    h = Hand(0, 0, 3)
    winners, reason = match_result(v, h, [0, 0, 0], [-520, -500, -610], 1)
    assert winners == [1] and "at or below -500" in reason
