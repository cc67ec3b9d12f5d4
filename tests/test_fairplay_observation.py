"""Fair play: an observation holds only what its seat may know (issue 12 cases 1 and 4).

DESIGN.md: "An observation is a value: exactly what that seat may know ... with no
reference back to the state. Bots resample the unseen cards from it alone, consistent
with every public fact."
"""
from __future__ import annotations

import random

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.bots.sensible import playout, trick_preferences
from rulekit.engine import State
from rulekit.variant import load_variant
from tests.test_rules_bridge import E, N, S, W, deck_order

SEED = 987_654_321_123          # a seed that cannot turn up by chance in an observation

# South plays 1S; West holds A K Q J of spades (four trump honours [S7], 100 to EW) in the
# true deal, while in the twin deal East holds the ace instead (no honours for anyone).
SOUTH = "10S 9S 8S 7S 6S AH KH QH AD KD AC KC QC".split()
NORTH = "3H 2H 6D 5D 4D 3D 2D 7C 6C 5C 4C 3C 2C".split()
WEST = "AS KS QS JS JH 10H 9H 8H QD JD 10D JC 10C".split()
EAST = "5S 4S 3S 2S 7H 6H 5H 4H 9D 8D 7D 9C 8C".split()


@pytest.fixture(scope="module")
def bridge():
    return load_variant("bridge")


def _swap(hands, a, ca, b, cb):
    hs = [list(h) for h in hands]
    hs[a][hs[a].index(ca)] = cb
    hs[b][hs[b].index(cb)] = ca
    return hs


def _twins(bridge):
    """Two matches that South cannot tell apart (other seeds, West's ace of spades with East)."""
    hands = [NORTH, EAST, SOUTH, WEST]
    twin = _swap(hands, W, "AS", E, "2S")
    out = []
    for seed, hs in ((SEED, hands), (SEED + 1, twin)):
        s = State(bridge, seed=seed, deals=[deck_order(hs, N)], dealer=N)
        for call in ("pass", "pass", "1S", "pass", "pass", "pass", "play JH"):
            s.apply(call)
        out.append(s)
    return out


def _walk(root, skip):
    """Every object reachable from ``root`` through attributes, slots and containers,
    skipping the objects in ``skip`` (the public compiled variant)."""
    seen, stack = set(), [root]
    while stack:
        x = stack.pop()
        if id(x) in seen or id(x) in skip or callable(x) and not hasattr(x, "__dict__"):
            continue
        seen.add(id(x))
        yield x
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif not isinstance(x, (int, str, float, bytes, type(None))):
            mod = type(x).__module__ or ""
            if mod.startswith(("rulekit.variant", "rulekit.dsl")) or isinstance(x, type):
                continue            # the compiled variant and its tables: public
            stack.extend(getattr(x, "__dict__", {}).values())
            for k in getattr(type(x), "__slots__", ()):
                if hasattr(x, k):
                    stack.append(getattr(x, k))


def test_observation_has_no_path_to_the_state_seed_or_hidden_cards(bridge):
    """issue 12 case 1: nothing reachable from South's observation is the State, its hand,
    sheet or lists, the seed, the deck order, or the mask of a hand South cannot see."""
    s, _ = _twins(bridge)
    o = s.observation(S)
    h = s.hand
    live = {id(x) for x in (s, h, s.sheet, s.progress, s.log, s.deals, h.hands, h.dealt, h.deck_order,
                            h.calls, h.tricks, h.zones, h.won)}
    hidden = {h.hands[E], h.hands[W], h.dealt[E], h.dealt[W]}
    objs = list(_walk(o, {id(bridge)}))
    assert not [x for x in objs if id(x) in live]
    assert not [x for x in objs if isinstance(x, State) and x.seed is not None]
    assert SEED not in [x for x in objs if type(x) is int]
    assert not hidden & {x for x in objs if type(x) is int}
    assert not [x for x in objs if isinstance(x, list) and x == h.deck_order]
    # the dummy (North) is face up after the opening lead: South may see it
    assert o.dummy_hand == h.hands[N] and o.hand == h.hands[S]


def test_sampled_worlds_and_their_scores_do_not_depend_on_hidden_cards(bridge):
    """issue 12 case 1 ([S7] honours): two matches identical from South's seat but with
    other hidden cards and seeds give equal observations, identical sampled worlds (hands,
    hands as dealt, later seeds), identical scores of those worlds played out (honours
    counted from each world's own cards) and the same decision for the same bot seed."""
    a, b = _twins(bridge)
    assert a.hand.dealt[W] != b.hand.dealt[W]
    oa, ob = a.observation(S), b.observation(S)
    assert oa == ob
    for k in range(12):
        wa, wb = oa.sample_world(random.Random(k)), ob.sample_world(random.Random(k))
        assert wa.hand.hands == wb.hand.hands and wa.hand.dealt == wb.hand.dealt
        assert wa.seed == wb.seed and wa.seed not in (SEED, SEED + 1)
        assert wa.hand.hands[S] == a.hand.hands[S] and wa.hand.hands[N] == a.hand.hands[N]
        for w in (wa, wb):
            playout(w, trick_preferences(w), w.hand)
        ea, eb = wa.hand_log[-1].entries, wb.hand_log[-1].entries
        assert ea == eb
    # the worlds do not copy the true hidden hands
    true_w = [a.hand.dealt[s] for s in (E, W)]
    worlds = [oa.sample_world(random.Random(k)).hand.dealt for k in range(12)]
    assert any([d[E], d[W]] != true_w for d in worlds)
    assert SensibleBot(seed=5, samples=4).act(oa) == SensibleBot(seed=5, samples=4).act(ob)


def _random_until(state, bots, stop):
    while not state.is_over and not stop(state):
        seat = state.controller(state.to_move)
        state.apply(bots[seat].act(state.observation(seat)))
    return state


def test_declarer_discards_are_hidden_from_others(fivehundred):
    """issue 12 case 1: after a Five Hundred exchange, a defender's observation holds neither
    the declarer's discards (mask or the text of the discard action) nor a path to them;
    two matches differing only in those discards give the defender identical worlds."""
    for seed in range(40):
        s = State(fivehundred, seed=seed)
        bots = [RandomBot(seed * 3 + i) for i in range(3)]
        _random_until(s, bots, lambda st: st.hand.discards or st.hands_played)
        if s.hands_played == 0 and s.hand.discards:
            break
    h = s.hand
    d = h.declarer
    defender = (d + 1) % 3
    discard_text = next(t for _s, t in h.actions if t.startswith("discard"))
    o = s.observation(defender)
    objs = list(_walk(o, {id(fivehundred)}))
    assert h.discards not in {x for x in objs if type(x) is int}
    assert not [x for x in objs if isinstance(x, str) and x == discard_text]
    assert o.hidden_discards == 3 and o.discards == 0
    # swap a discard with a card of the other defender: the defender cannot tell
    t = s.clone()
    other = 3 - d - defender
    cd = (h.discards & -h.discards).bit_length() - 1
    co = (h.hands[other] & -h.hands[other]).bit_length() - 1
    t.hand.discards = h.discards & ~(1 << cd) | (1 << co)
    t.hand.hands[other] = h.hands[other] & ~(1 << co) | (1 << cd)
    ot = t.observation(defender)
    assert ot == o
    for k in range(5):
        wa, wb = o.sample_world(random.Random(k)), ot.sample_world(random.Random(k))
        assert (wa.hand.hands, wa.hand.discards, wa.hand.dealt) == (wb.hand.hands, wb.hand.discards, wb.hand.dealt)


def test_worlds_keep_a_taken_face_up_widow_with_the_declarer(fivehundred):
    """issue 12 case 4 (rules/fivehundred.md [D4] [W1]): the face-up widow was seen by all;
    after the exchange every sampled world of a defender has its cards (less those played)
    in the declarer's hand or among his discards, never with the other defender."""
    checked = 0
    for seed in range(30):
        s = State(fivehundred, seed=seed)
        bots = [RandomBot(seed * 7 + i) for i in range(3)]
        _random_until(s, bots, lambda st: st.phase_kind == "tricks" and len(st.hand.tricks) >= 2
                      or st.hands_played)
        h = s.hand
        if s.hands_played or h.declarer < 0:
            continue
        held = 0
        for m in h.dealt:
            held |= m
        widow = fivehundred.deck.full_mask & ~held       # dealt face up to the widow
        played = 0
        for m in h.won_cards:
            played |= m
        for seat in range(3):
            if seat == h.declarer:
                continue
            o = s.observation(seat)
            for k in range(15):
                w = o.sample_world(random.Random(k)).hand
                assert widow & ~played & ~(w.hands[h.declarer] | w.discards) == 0
                assert w.hands[3 - h.declarer - seat] & widow == 0
            assert o.widow_taken == widow
        checked += 1
    assert checked >= 5


def test_worlds_keep_the_turned_up_card_with_the_dealer():
    """issue 12 case 4 (rules/whist.md [K1]): after the first trick the turned-up trump card
    is no longer face up, but everyone knows the dealer holds it until he plays it: every
    sampled world of every other seat gives it to the dealer."""
    whist = load_variant("whist")
    checked = 0
    for seed in range(20):
        s = State(whist, seed=seed)
        bots = [RandomBot(seed + i) for i in range(4)]
        _random_until(s, bots, lambda st: len(st.hand.tricks) >= 1 or st.hands_played)
        h = s.hand
        if s.hands_played or not h.hands[h.dealer] >> h.turned & 1:
            continue                                    # the dealer played it to trick 1
        for seat in range(4):
            if seat == h.dealer:
                continue
            o = s.observation(seat)
            assert o.exposed == 0
            for k in range(10):
                assert o.sample_world(random.Random(k)).hand.hands[h.dealer] >> h.turned & 1
            assert o.placed[h.dealer] == 1 << h.turned
        checked += 1
    assert checked >= 5
