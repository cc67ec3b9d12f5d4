"""Fair play: an observation holds only what its seat may know.

DESIGN.md: "An observation is a value: exactly what that seat may know ... with no
reference back to the state. Bots resample the unseen cards from it alone, consistent
with every public fact."
"""
from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from rulekit.bots import RandomBot, SensibleBot
from rulekit.bots.sensible import playout, trick_preferences
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.variant import load_variant
from tests.kinds.test_ladder_auction import tiny
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
    """Nothing reachable from South's observation is the State, its hand,
    sheet or lists, the seed, the deck order, or the mask of a hand South cannot see."""
    s, _ = _twins(bridge)
    o = s.observation(S)
    h = s.hand
    live = {id(x) for x in (s, h, s.sheet, s.progress, s.record, s.record.codes, s.deals, h.hands, h.dealt,
                            h.deck_order, h.calls, h.tricks, h.zones, h.won, h.choices)}
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
    """[S7] honours: two matches identical from South's seat but with
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
    """After a Five Hundred exchange, a defender's observation holds neither
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
    """rules/fivehundred.md [D4] [W1]: the face-up widow was seen by all;
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
    """rules/whist.md [K1]: after the first trick the turned-up trump card
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


def _at(vid: str, kind: str, seed: int = 3) -> State:
    s = State(load_variant(vid), seed=seed)
    while s.kind.name != kind:
        s.apply(s.legal_actions()[0])
    return s


def _places(s: State, seat: int, card: int, worlds: int = 30) -> set:
    obs = s.observation(seat)
    rng = random.Random(7)
    out = set()
    for _ in range(worlds):
        w = obs.sample_world(rng)
        out |= {z for z, m in w.hand.zones.items() if m >> card & 1}
        out |= {p for p, m in enumerate(w.hand.hands) if m >> card & 1}
    return out


@pytest.mark.parametrize("vid, kind, zone", [("euchre", "order_up", "widow"), ("belote", "order_up", "talon"),
                                             ("ohhell", "trick_bids", "stock")])
def test_turned_card_stays_on_its_zone_in_every_sampled_world(vid, kind, zone):
    s = _at(vid, kind)
    turned = s.observation(0).phase_data["turned"]
    face_down = s.hand.zones[zone].bit_count() - 1
    for seat in range(s.variant.players):
        obs = s.observation(seat)
        assert obs.zone_known == {zone: 1 << turned}
        assert obs.hidden_zones[zone] == face_down        # the turned card is not a hidden one
        assert _places(s, seat, turned) == {zone}


def test_turned_card_picked_up_is_placed_in_the_dealers_hand():
    """Euchre: after a first-round order the dealer takes the turned card; every other seat
    knows he holds it, and every sampled world gives it to him."""
    s = _at("euchre", "order_up")
    turned = s.observation(0).phase_data["turned"]
    dealer = s.hand.dealer
    s.apply(next(a for a in s.legal_actions() if a.text == "order"))
    assert s.hand.hands[dealer] >> turned & 1
    for seat in range(4):
        if seat == dealer:
            continue
        obs = s.observation(seat)
        assert obs.placed[dealer] == 1 << turned and obs.zone_known == {}
        assert _places(s, seat, turned) == {dealer}


@pytest.fixture(scope="module")
def euchre():
    return load_variant("euchre")


def _lone_euchre(euchre, seed=36):
    s = State(euchre, seed=seed)
    for _ in range(3):   # the bots pass; the dealer (seat 0) orders up alone
        s.apply("pass")
    s.apply("order alone")
    s.apply("discard 9S")
    return s


def _hidden_walk(o, variant) -> set:
    return {x for x in _walk(o, {id(variant)}) if type(x) is int}


def _check_worlds(o, s, k=20):
    """Every world sampled from ``o`` deals each card once, keeps the public hand sizes and
    the number of cards each seat laid out of play."""
    v = s.variant
    for i in range(k):
        w = o.sample_world(random.Random(i)).hand
        masks = list(w.hands) + list(w.out) + list(w.zones.values()) + [w.discards]
        masks += [1 << c for _l, plays, _w, _n in w.tricks for _s, c in plays]
        masks += [1 << c for _s, c in w.trick]
        assert sum(m.bit_count() for m in masks) == sum(m.bit_count() for m in (
            list(s.hand.hands) + list(s.hand.out) + list(s.hand.zones.values()) + [s.hand.discards]))
        union = 0
        for m in masks:
            assert not union & m          # no card twice
            union |= m
        assert not union & ~v.deck.full_mask
        assert [m.bit_count() for m in w.hands] == o.hand_sizes
        assert [m.bit_count() for m in w.out] == o.out_sizes
        assert w.hands[o.seat] == o.hand and w.discards & o.discards == o.discards


def test_lone_euchre_maker_sees_only_his_own_discard(euchre):
    """rules/euchre.md, going alone: the lone maker's observation holds his
    discard 9♠ only; nothing reachable from it is the sitting-out partner's cards; a twin
    match where the partner holds a defender's card instead gives the same observation and
    the same sampled worlds, which stay consistent."""
    s = _lone_euchre(euchre)
    h = s.hand
    maker, partner = 0, 2
    assert h.declarer == maker and h.hands[partner] == 0 and h.out[partner].bit_count() == 5
    o = s.observation(maker)
    assert euchre.deck.names_of(o.discards) == ["9S"] and o.out == 0 and o.out_sizes == [0, 0, 5, 0]
    assert not o.discards & h.out[partner] and not o.unseen() & ~euchre.deck.full_mask
    assert o.unseen() & h.out[partner] == h.out[partner]
    ints = _hidden_walk(o, euchre)
    assert h.out[partner] not in ints and h.dealt[partner] not in ints
    # the partner's card and a defender's swapped: the maker cannot tell
    t = s.clone()
    cp = (h.out[partner] & -h.out[partner]).bit_length() - 1
    cd = (h.hands[1] & -h.hands[1]).bit_length() - 1
    t.hand.out[partner] = h.out[partner] & ~(1 << cp) | 1 << cd
    t.hand.hands[1] = h.hands[1] & ~(1 << cd) | 1 << cp
    ot = t.observation(maker)
    assert ot == o
    for k in range(5):
        wa, wb = o.sample_world(random.Random(k)).hand, ot.sample_world(random.Random(k)).hand
        assert (wa.hands, wa.out, wa.dealt) == (wb.hands, wb.out, wb.dealt)
    _check_worlds(o, s)
    # the defenders see neither the partner's cards nor the maker's discard
    for seat in (1, 3):
        od = s.observation(seat)
        assert od.discards == 0 and od.hidden_discards == 1 and od.out_sizes[partner] == 5
        assert h.out[partner] not in _hidden_walk(od, euchre)
        _check_worlds(od, s)
    # the partner himself still knows the cards he laid down
    assert s.observation(partner).out == h.out[partner]


def test_lone_euchre_screen_shows_only_the_own_discard(tmp_path):
    """The terminal's ``discarded`` row of the lone maker is ``9♠`` alone."""
    r = CliRunner().invoke(app, ["play", "euchre", "--players", "human,bot,bot,bot", "--seed", "36",
                                 "--save", str(tmp_path / "g.json")], input="order alone\ndiscard 9S\n")
    rows = [line.split() for line in r.output.splitlines() if line.split()[:1] == ["discarded"]]
    assert rows and all(row == ["discarded", "9♠"] for row in rows), r.output


def test_dealer_discard_for_another_maker_is_hidden_from_him(euchre):
    """The other place that lays a seat's cards aside: when another player orders
    the card up, the dealer's discard is his own (``out``), not shown to the maker."""
    for seed in range(40):
        s = State(euchre, seed=seed)
        bots = [RandomBot(seed * 5 + i) for i in range(4)]
        while s.phase_kind == "order_up" and not s.hands_played:
            d = kind_of("order_up").data_of(s.hand)
            if d.discard or s.hand.declarer >= 0:
                break
            s.apply(bots[s.to_move].act(s.observation(s.to_move)))
        h = s.hand
        if s.phase_kind == "order_up" and kind_of("order_up").data_of(h).discard and h.declarer != h.dealer:
            break
    else:
        pytest.fail("no deal where another player orders the dealer's card up")
    dealer, maker = h.dealer, h.declarer
    text = s.observation(dealer).legal[0].text
    s.apply(text)
    assert h.discards == 0 and h.out[dealer].bit_count() == 1
    o = s.observation(maker)
    assert o.discards == 0 and o.out_sizes[dealer] == 1 and h.out[dealer] & o.unseen()
    assert text not in [x for x in _walk(o, {id(euchre)}) if isinstance(x, str)]
    assert s.observation(dealer).out == h.out[dealer]
    _check_worlds(o, s)


def test_lone_ladder_bid_partner_cards_hidden_from_the_declarer(tmp_path):
    """Cards laid aside on a made-up ladder auction (the ``tiny`` variant of tests/kinds/test_ladder_auction.py): after
    the lone bid OPEN, the declarer's observation holds no discard and the partner's six cards
    are unseen by him and every defender; sampled worlds stay consistent."""
    v = tiny(tmp_path)
    s = State(v, seed=3)
    s.apply("OPEN")
    for _ in range(3):
        s.apply("pass")
    h = s.hand
    decl = h.declarer
    partner = (decl + 2) % 4
    assert h.hands[partner] == 0 and h.out[partner].bit_count() == 6 and h.discards == 0
    for seat in range(4):
        if seat == partner:
            continue
        o = s.observation(seat)
        assert o.discards == 0 and o.out == 0 and o.out_sizes[partner] == 6
        assert h.out[partner] not in _hidden_walk(o, v) and o.unseen() & h.out[partner] == h.out[partner]
        _check_worlds(o, s)
