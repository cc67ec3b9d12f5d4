"""Fair play both ways (table-ux helper's report, this stop): a card every seat has seen turned
up (Euchre's and Belote's turned card, Oh Hell's trump card turned from the stock) is public:
observations show where it lies, and a bot's sampled worlds keep it there instead of dealing it
to another player as if it were hidden (``PhaseKind.known_cards``, ``Observation.zone_known``)."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant


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
