"""Cards out of play face down are seen by nobody else (fresh-user pass finding 1, fair play).

``rulekit play euchre --players human,bot,bot,bot --seed 8``, ``order alone`` then
``discard 9S`` showed ``discarded 9♠ 10♠ A♠ J♥ Q♦ A♦``: the partner who sits out had his five
cards put among the lone maker's discards, which the maker sees.  They now lie in
``Hand.out`` (seen by their owner only); the same for a lone ladder bid and for the dealer's
discard when another player ordered up.
"""
from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from rulekit.bots import RandomBot
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.variant import load_variant
from tests.test_fairplay_observation import _walk
from tests.test_ladder_misere import tiny


@pytest.fixture(scope="module")
def euchre():
    return load_variant("euchre")


def _lone_euchre(euchre, seed=8):
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
    """finding 1 (rules/euchre.md, going alone): the lone maker's observation holds his
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


def test_lone_euchre_screen_shows_only_the_own_discard():
    """finding 1: the terminal's ``discarded`` row of the lone maker is ``9♠`` alone."""
    r = CliRunner().invoke(app, ["play", "euchre", "--players", "human,bot,bot,bot", "--seed", "8"],
                           input="order alone\ndiscard 9S\n")
    rows = [line.split() for line in r.output.splitlines() if line.split()[:1] == ["discarded"]]
    assert rows and all(row == ["discarded", "9♠"] for row in rows), r.output


def test_dealer_discard_for_another_maker_is_hidden_from_him(euchre):
    """finding 1, the other place that lays a seat's cards aside: when another player orders
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
    """finding 1 on a made-up ladder auction (tests/test_ladder_misere.py's tiny variant): after
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
