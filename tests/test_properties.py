"""Properties over random bot-only hands (hypothesis chooses the variant and the seeds).

* every card is dealt exactly once, and every card ends up played, discarded or in the widow;
* every trick is won by the highest card under the variant's ranking, re-derived here from
  the ranking strings of the variant file (not from the engine's compiled tables):
  rules/fivehundred.md [R1]-[R3] [T3] [T4] [T5], rules/rams.md [T1] [J1];
* the sheet's totals are the starting scores plus the sum of the entries (fivehundred [S6]);
* replaying the record of a match gives the identical sheet (DESIGN.md "Records");
* ``observation(seat)`` does not change when cards that seat cannot see are swapped.
"""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.bots import RandomBot
from rulekit.engine import State
from rulekit.records import replay, to_record
from rulekit.variant import load_variant

# Loaded with the players setting spelled out, as records store it (see
# test_record_of_default_settings_replays for the case without it).
VARIANTS = {
    "fivehundred": load_variant("fivehundred", players=3),
    "fivehundred-must-trump": load_variant("fivehundred-must-trump", players=3),
    "fivehundred-widow-down": load_variant("fivehundred-widow-down", players=3),
    "fivehundred-eight-trick-slam": load_variant("fivehundred-eight-trick-slam", players=3),
    "fivehundred-minus-500": load_variant("fivehundred-minus-500", players=3),
    "rams4": load_variant("rams", players=4),
    "rams3": load_variant("rams", players=3),
    "rams-jacks4": load_variant("rams-jacks", players=4),
    "rams-jacks3": load_variant("rams-jacks", players=3),
}

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
variant_names = st.sampled_from(sorted(VARIANTS))
seeds = st.integers(min_value=0, max_value=2 ** 32 - 1)


# --------------------------------------------------------------------------- independent ranking
class Ranking:
    """Trick ranking re-derived from ``variant.data['ranking']`` and ``deck`` (plain strings).

    Tokens (highest first): ``JK`` a joker, ``JC`` a card, ``A`` a rank of the suit in
    question, ``J:trump`` / ``J:sister`` that rank of the trump suit / of the other suit of
    the trump's colour.  With a trump suit the ``trump`` list (else ``suit``) ranks the trump
    group; at no trump the ``top`` list ranks cards above every suit.  Every other card ranks
    in its own suit by the ``suit`` list.
    """

    def __init__(self, data: dict):
        rk = data["ranking"]
        self.suit_ranks = rk["suit"].split()
        self.trump_tokens = (rk.get("trump") or rk["suit"]).split()
        self.top_tokens = rk.get("top", "").split()
        deck = data["deck"]
        self.suits = list(deck["suits"])
        default = {"S": "black", "C": "black", "D": "red", "H": "red"}
        self.colours = {s: (deck.get("colours") or {}).get(s, default.get(s)) for s in self.suits}

    def _resolve(self, token: str, trump: str | None) -> str:
        if token.startswith("JK"):
            return token
        if ":" in token:
            rank, ref = token.split(":")
            if ref == "trump":
                return rank + trump
            sister = [s for s in self.suits if s != trump and self.colours[s] == self.colours[trump]]
            return rank + sister[0]
        if token[-1] in self.suits and len(token) >= 2 and token[:-1] in self.suit_ranks + ["J"]:
            return token                                     # a full card such as JC
        return token + trump

    def special(self, trump: str) -> list:
        """The group above the suits, highest first: trumps, or the top cards at no trump."""
        if trump != "NT":
            return [self._resolve(t, trump) for t in self.trump_tokens]
        return [self._resolve(t, None) for t in self.top_tokens]

    def group(self, card: str, trump: str) -> str:
        if card in self.special(trump):
            return "*"
        return card[-1]

    def winner(self, plays: list, named: str, trump: str) -> int:
        """Seat winning ``plays`` ((seat, card text) in order) with suit ``named`` (or "")."""
        special = self.special(trump)
        led = named or self.group(plays[0][1], trump)
        best, win = None, None
        for seat, card in plays:
            if card in special:
                key = (1, -special.index(card))
            elif self.group(card, trump) == led:
                key = (0, -self.suit_ranks.index(card[:-1]))
            else:
                continue
            if best is None or key > best:
                best, win = key, seat
        return win


RANKINGS = {k: Ranking(v.data) for k, v in VARIANTS.items()}


# --------------------------------------------------------------------------- driving random games
def run(name: str, seed: int, hands: int = 2, on_step=None) -> State:
    """Play ``hands`` hands (or to the end of the match) with random bots; call ``on_step(state)``
    before each action and record each new hand's deal."""
    v = VARIANTS[name]
    rng = random.Random(seed)
    scores = None
    if name.startswith("fivehundred") and rng.random() < 0.5:
        scores = [rng.randrange(-60, 50) * 10 for _ in range(v.players)]
    s = State(v, seed=seed, scores=scores)
    bots = [RandomBot(seed + 101 * i) for i in range(v.players)]
    s.dealt_log = []
    seen = None
    while not s.is_over and len(s.sheet.rows) < hands:
        if s.hand is not seen:
            seen = s.hand
            h = s.hand
            s.dealt_log.append((list(h.dealt), {z: m for z, m in h.zones.items()}, list(h.deck_order)))
        if on_step is not None:
            on_step(s)
        seat = s.to_move
        s.apply(bots[seat].act(s.observation(seat)))
    return s


# --------------------------------------------------------------------------- properties
@SETTINGS
@given(name=variant_names, seed=seeds)
def test_every_card_dealt_exactly_once(name, seed):
    """Each hand's deal gives every card of the deck exactly once (hands and widow/aside)."""
    s = run(name, seed)
    v = VARIANTS[name]
    for dealt, zones, order in s.dealt_log:
        assert sorted(order) == list(range(v.deck.size))
        parts = list(dealt) + list(zones.values())
        assert sum(m.bit_count() for m in parts) == v.deck.size
        union = 0
        for m in parts:
            assert union & m == 0
            union |= m
        assert union == v.deck.full_mask
        assert all(m.bit_count() == v.hand_size for m in dealt)
    for h in s.hand_log:           # and every card ends up played, discarded or left in a zone
        played = [c for _l, plays, _w, _n in h.tricks for _s, c in plays]
        assert len(played) == len(set(played)) == v.players * v.hand_size
        rest = h.discards | sum(h.zones.values())
        assert rest & sum(1 << c for c in played) == 0
        assert len(played) + rest.bit_count() == v.deck.size


@SETTINGS
@given(name=variant_names, seed=seeds)
def test_every_trick_won_by_highest_card(name, seed):
    """Every trick goes to the highest card under the ranking re-derived from the variant's strings;
    the first leader follows the variant, each later trick is led by the previous winner and
    played clockwise."""
    s = run(name, seed)
    v = VARIANTS[name]
    rk = RANKINGS[name]
    n = v.players
    assert s.hand_log
    for h in s.hand_log:
        for i, (leader, plays, winner, named) in enumerate(h.tricks):
            seats = [p[0] for p in plays]
            assert seats == [(leader + k) % n for k in range(n)]
            if i:
                assert leader == h.tricks[i - 1][2]
            cards = [(p[0], v.deck.name(p[1])) for p in plays]
            assert rk.winner(cards, named, h.trump) == winner, (h.trump, cards, named)
        assert sum(h.won) == v.hand_size


@SETTINGS
@given(name=variant_names, seed=seeds)
def test_sheet_totals_are_sums_of_entries(name, seed):
    """Totals of every row are the starting scores plus the entries so far ([S6])."""
    s = run(name, seed, hands=3)
    start = s.sheet.start
    running = list(start)
    for row in s.sheet.rows:
        running = [t + e for t, e in zip(running, row.entries)]
        assert row.totals == running
        if row.void:
            assert row.entries == [0] * len(start)
    assert s.sheet.totals() == running


@SETTINGS
@given(name=variant_names, seed=seeds, explicit=st.booleans(), cut=st.integers(0, 40))
def test_replay_of_record_gives_identical_sheet(name, seed, explicit, cut):
    """The JSON record of a match (finished or not) replays to the identical sheet and history."""
    s = run(name, seed, hands=2)
    bots = [RandomBot(seed + i) for i in range(VARIANTS[name].players)]
    for _ in range(cut):                  # stop somewhere inside a hand too
        if s.is_over:
            break
        s.apply(bots[s.to_move].act(s.observation(s.to_move)))
    rec = json.loads(json.dumps(to_record(s, explicit_deals=explicit)))
    r = replay(rec)
    assert r.sheet.as_dict() == s.sheet.as_dict()
    assert r.history == s.history
    assert r.winners == s.winners
    assert r.to_move == s.to_move
    assert [a.text for a in r.legal_actions()] == [a.text for a in s.legal_actions()]


def test_record_of_default_settings_replays():
    """A record of a match on ``load_variant(id)`` (no explicit setting, as ``rulekit play`` does
    when --players is not given) replays."""
    v = load_variant("fivehundred")
    s = State(v, seed=3)
    s.apply("pass")
    r = replay(json.loads(json.dumps(to_record(s))))
    assert r.history == s.history


def _view(state, seat) -> dict:
    """The observation of ``seat`` as plain data (legal actions as their texts)."""
    o = state.observation(seat)
    d = {k: getattr(o, k) for k in o.__dataclass_fields__ if not k.startswith("_")}
    d["legal"] = [a.text for a in o.legal]
    return d


def _hidden_places(state, seat):
    """Card places ``seat`` cannot see: other hands, face-down zones, another's discards."""
    h = state.hand
    places = [("hand", o) for o in range(state.variant.players) if o != seat and h.hands[o]]
    places += [("zone", z) for z, m in h.zones.items() if m and not h.zone_up.get(z)]
    if h.discards and h.declarer != seat:
        places.append(("discards", None))
    return places


def _get(h, place):
    kind, key = place
    return h.hands[key] if kind == "hand" else h.zones[key] if kind == "zone" else h.discards


def _set(h, place, m):
    kind, key = place
    if kind == "hand":
        h.hands[key] = m
    elif kind == "zone":
        h.zones[key] = m
    else:
        h.discards = m


@SETTINGS
@given(name=variant_names, seed=seeds)
def test_observation_blind_to_unseen_swaps(name, seed):
    """Swapping two cards that a seat cannot see (between other hands, a face-down widow or aside,
    another player's discards) leaves that seat's observation unchanged; swapping one of its own
    cards changes it."""
    rng = random.Random(seed ^ 0x5EED)
    checked = [0]

    def check(state):
        if rng.random() > 0.3:
            return
        seat = rng.randrange(state.variant.players)
        places = _hidden_places(state, seat)
        if len(places) < 2:
            return
        a, b = rng.sample(places, 2)
        t = state.clone()
        h = t.hand
        ma, mb = _get(h, a), _get(h, b)
        ca = rng.choice([c for c in range(t.variant.deck.size) if ma >> c & 1])
        cb = rng.choice([c for c in range(t.variant.deck.size) if mb >> c & 1])
        _set(h, a, ma & ~(1 << ca) | (1 << cb))
        _set(h, b, mb & ~(1 << cb) | (1 << ca))
        assert _view(state, seat) == _view(t, seat)
        checked[0] += 1
        # control: the seat's own card swapped with a hidden one is seen
        own = state.hand.hands[seat]
        if own:
            u = state.clone()
            hu = u.hand
            mine = rng.choice([c for c in range(u.variant.deck.size) if own >> c & 1])
            _set(hu, a, ma & ~(1 << ca) | (1 << mine))
            hu.hands[seat] = own & ~(1 << mine) | (1 << ca)
            assert _view(state, seat) != _view(u, seat)

    run(name, seed, hands=1, on_step=check)
