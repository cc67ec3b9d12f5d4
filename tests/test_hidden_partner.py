"""A partner found by a card stays hidden until the rules reveal him: no seat's observation,
sampled world, terminal table, story line or record written during play tells him earlier.

The proof is by exchange: for a seat that does not yet know the party, the party card is moved
to another hidden hand (the truth moves with it: the declarer's partner is whoever holds the
card); everything that seat is shown must stay the same.  Worlds sampled for the seat must
place the card as the seat's knowledge allows only: with the seat's own cards, honouring what
play has shown, and not always where it really is."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rulekit.bots import RandomBot
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.engine.phases.base import revealed_seats
from rulekit.engine.phases.partner_card import holders
from rulekit.records import to_record
from rulekit.variant import load_variant
from tests.helpers import plain
from tests.test_properties import _view

DATA = Path(__file__).parent / "data" / "partners"
GAMES = sorted(str(p) for p in DATA.glob("*.yaml")) + ["doppelkopf"]
PARTNER = kind_of("call_partner")


def _party_data(state):
    d = PARTNER.data_of(state.hand)
    return d if d is not None and d.cards else None


def _screen(state, seat) -> tuple:
    """What the terminal shows ``seat`` now: his table, and the story lines of the hand so far
    (the header, the phases' rows, the words said for each action other than a card)."""
    from rulekit.cli.render import hand_header, kind_said, phase_rows, table_view
    h = state.hand
    said = [plain(x, strip=True) for s, a in h.actions if (x := kind_said(state, h, s, a)) is not None]
    return (plain(table_view(state, seat), strip=True), plain(hand_header(state, h), strip=True),
            tuple(phase_rows(state, h)), tuple(said))


def _moved(state, seat: int, rng: random.Random):
    """A copy of ``state`` with a copy of the party card moved from its hidden holder to another
    hidden hand (swapped with one of that hand's cards), the partner re-derived from the cards;
    ``None`` when no such move exists.  Hidden: neither ``seat``, nor the declarer, nor a seat
    whose side is public, nor one the public facts exclude."""
    d = _party_data(state)
    h = state.hand
    obs = state.observation(seat)
    known = revealed_seats(state) | 1 << seat | (1 << h.declarer if h.declarer >= 0 else 0)
    excluded = obs.excluded
    hidden = [s for s in range(state.variant.players) if not known >> s & 1]
    owners = [s for s in hidden if h.hands[s] & d.cards]
    targets = [s for s in hidden if not h.hands[s] & d.cards and not excluded[s] & d.cards and h.hands[s]]
    if not owners or not targets:
        return None
    x, y = rng.choice(owners), rng.choice(targets)
    t = state.clone()
    th = t.hand
    mine = th.hands[x] & d.cards
    a = (mine & -mine).bit_length() - 1
    cards_y = [c for c in range(t.variant.deck.size) if th.hands[y] >> c & 1]
    b = rng.choice(cards_y)
    th.hands[x] ^= 1 << a | 1 << b
    th.hands[y] ^= 1 << a | 1 << b
    PARTNER.resample(t)
    return t


def _decisions(vid: str, seeds=range(2)):
    """Random matches of ``vid`` whose auctions end at the first bid (the lowest, which allows a
    partner): yields the state before each action while a party card is in play."""
    v = load_variant(vid)
    for seed in seeds:
        s = State(v, seed=seed, max_hands=2)
        bots = [RandomBot(seed * 10 + i) for i in range(v.players)]
        while not s.is_over:
            if _party_data(s) is not None:
                yield s
            legal = s.legal_actions()
            if s.kind.role == "auction" and legal[0].text == "pass" and "reservation" in {a.text for a in legal}:
                s.apply(legal[0])   # (reservations: all healthy, the queens' party stays secret)
                continue
            if s.kind.role == "auction":
                bid = s.hand.calls and any(a != "pass" for _s, a in s.hand.calls)
                s.apply(legal[0] if bid or len(legal) < 2 else legal[1])
                continue
            s.apply(bots[s.to_move].act(s.observation(s.to_move)))


@pytest.mark.parametrize("vid", GAMES, ids=lambda p: Path(p).stem)
def test_no_seat_tells_the_hidden_party_from_another(vid):
    """A seat that does not know the party sees the same observation, table, story lines and
    record whoever really holds the party card; a seat that knows it sees the truth."""
    rng = random.Random(5)
    moved = checked = 0
    for s in _decisions(vid):
        h = s.hand
        d = _party_data(s)
        truth = PARTNER.party(s.hand)
        for seat in rng.sample(range(s.variant.players), 2):
            info = s.observation(seat).phase_data["partner_call"]
            if info["complete"]:
                assert sum(1 << x for x in info["party"]) == truth
                assert s.observation(seat).partner == h.partner
                checked += 1
                continue
            assert s.observation(seat).partner == -1 and s.observation(seat)._view.hand.partner == -1
            assert set(info["party"]) <= {x for x in range(s.variant.players) if truth >> x & 1}
            t = _moved(s, seat, rng)
            if t is None:
                continue
            assert PARTNER.party(t.hand) != truth or t.hand.partner != h.partner or d.cards.bit_count() > 1
            assert _view(t, seat) == _view(s, seat), (seat, len(h.tricks))
            if moved % 4 == 0:   # (the terminal's drawing is the slow part)
                assert _screen(t, seat) == _screen(s, seat)
                assert to_record(t) == to_record(s)
            moved += 1
    assert moved > 10 and checked > 10, (moved, checked)


def test_a_record_written_during_play_names_no_partner():
    """A record saved in the middle of a called-ace hand holds the calls and the cards played,
    and no field naming the partner."""
    for s in _decisions(str(DATA / "called-ace.yaml"), seeds=[0]):
        if s.hand.partner >= 0 and s.phase_kind == "tricks" and not s.hand.tricks:
            rec = to_record(s)
            rec.pop("variant_text")           # the rules themselves (a phase named partner)
            text = json.dumps(rec)
            assert "partner" not in text and "call A" in text and not rec["deals"]
            return
    pytest.fail("no partner game was played")


@pytest.mark.parametrize("vid", GAMES, ids=lambda p: Path(p).stem)
def test_sampled_worlds_place_the_party_card_as_the_seat_knows(vid):
    """Worlds sampled for a seat that does not know the party keep its own cards, make the
    partner whoever holds the card in the world, put the card in no hand the public facts
    exclude, and do not always put it where it really is."""
    rng = random.Random(3)
    spread = tries = 0
    for s in _decisions(vid, seeds=range(2)):
        for seat in range(s.variant.players):
            obs = s.observation(seat)
            if obs.phase_data["partner_call"]["complete"]:
                continue
            d = _party_data(s)
            places = set()
            for _ in range(6):
                w = obs.sample_world(rng)
                wh = w.hand
                assert wh.hands[seat] == s.hand.hands[seat]
                owners = holders(wh, d.cards)
                if wh.declarer >= 0:
                    others = owners & ~(1 << wh.declarer)
                    assert wh.partner == ((others & -others).bit_length() - 1 if others else -1)
                for x in range(s.variant.players):
                    assert not wh.hands[x] & obs.excluded[x]
                for x, m in obs.holds_some:
                    assert (wh.hands[x] | _played(wh, x)) & m
                places.add(owners)
            tries += 1
            spread += len(places) > 1
    assert tries > 10 and spread > tries // 4, (spread, tries)


def _played(h, seat: int) -> int:
    m = 0
    for _l, plays, _w, _n in h.tricks:
        for s, c in plays:
            m |= (1 << c) if s == seat else 0
    for s, c in h.trick:
        m |= (1 << c) if s == seat else 0
    return m


def test_worlds_follow_what_the_called_suit_showed():
    """Called ace: after the first club lead the followers who played small clubs hold no A♣;
    the declarer's worlds put it with the one player left, every time."""
    from tests.kinds.test_call_partner_card import ACE_B, _bid, called_ace
    s = called_ace(hands=ACE_B)
    _bid(s, 1)
    s.apply("call AC")
    s.apply("7C")
    s.apply("KC")          # seat 2: a small club, so no A♣
    s.apply("10C")         # seat 3: likewise
    obs = s.observation(1)
    assert obs.partner == -1
    assert obs.excluded[2] >> s.variant.deck.parse("AC") & 1 and obs.excluded[3] >> s.variant.deck.parse("AC") & 1
    rng = random.Random(1)
    assert {obs.sample_world(rng).hand.partner for _ in range(20)} == {0}
