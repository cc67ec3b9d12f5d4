"""Rulekit against the independent referees of the two-hand stock games (tests/referees/schnapsen.py,
sixtysix.py): the same deals played side by side, the same actions mapped between the two
notations, the legal sets compared at every decision and the deal's result at its end.

The notations differ only in the order of a meld's cards (``meld KH QH`` there, the deck's order
``meld QH KH`` here): :func:`norm` writes both alike."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.variant import load_variant
from tests.helpers import order_for


def norm(text: str) -> str:
    """An action text in one notation for both sides (a meld's cards sorted)."""
    words = text.split()
    return "meld " + " ".join(sorted(words[1:])) if words and words[0] == "meld" else text


@dataclass
class Tally:
    """What a cross-check run compared."""

    deals: int = 0
    decisions: int = 0
    claims: int = 0
    closes: int = 0
    exchanges: int = 0
    melds: int = 0
    played_out: int = 0
    differences: list = field(default_factory=list)


def rulekit_deal(v, hands, extra, dealer: int) -> State:
    """The referee's deal (``hands``, ``extra``) as a one-hand rulekit state."""
    order = order_for(v, dealer, {0: hands[0], 1: hands[1], "stock": extra["trump"] + extra["stock"]})
    return State(v, seed=0, deals=[order], dealer=dealer)


def choose(rng: random.Random, d) -> str:
    """A referee action at random, a claim that is made mostly taken, others rarely."""
    acts = d.legal()
    others = [a for a in acts if a != "claim"]
    if "claim" in acts and (d.points(d.to_move()) >= 66 and rng.random() < 0.9 or rng.random() < 0.03):
        return "claim"
    return rng.choice(others) if others else "claim"


def hidden_stock(v, d) -> int:
    """The referee's face-down stock cards as a rulekit mask (the turn-up is public)."""
    m = 0
    for c in d.stock:
        if c != d.turnup:
            m |= 1 << v.deck.parse(c)
    return m


def play_side_by_side(v, module, seed: int, deals: int, tally: Tally | None = None, options=None) -> Tally:
    """Play ``deals`` random deals of referee ``module`` through rulekit ``v`` too; every legal set,
    each seat's hand after every trick, what observations show of the stock, and the scores
    are compared (a difference is recorded, not raised, so a run reports all of them);
    ``options``: the referee's (``late_exchange``)."""
    tally = tally or Tally()
    rng = random.Random(seed)
    deck = v.deck
    for i in range(deals):
        dealer = i % 2
        hands, extra = module.deal_random(rng, dealer)
        d = module.Deal(hands, extra, dealer, options)
        s = rulekit_deal(v, hands, extra, dealer)
        where = f"seed {seed} deal {i}"
        tally.deals += 1
        while not d.is_over():
            tally.decisions += 1
            mine = sorted(norm(a.text) for a in s.legal_actions())
            theirs = sorted(norm(a) for a in d.legal())
            if s.to_move != d.to_move() or mine != theirs:
                tally.differences.append((where, len(d.trick_winners), s.to_move, d.to_move(), mine, theirs))
                break
            hidden = hidden_stock(v, d)
            for seat in (0, 1):
                obs = s.observation(seat)
                if obs._visible() & hidden or any(m & hidden for m in obs.placed):
                    tally.differences.append((where, "observation shows a stock card", seat))
            a = choose(rng, d)
            word = a.split()[0]
            tally.claims += word == "claim"
            tally.closes += word == "close"
            tally.exchanges += word == "exchange"
            tally.melds += word == "meld"
            before = len(d.trick_winners)
            d.apply(a)
            s.apply(next(x for x in s.legal_actions() if norm(x.text) == norm(a)))
            if len(d.trick_winners) > before and not d.is_over():   # after a trick and its draw
                for seat in (0, 1):
                    if set(deck.names_of(s.hand.hands[seat])) != set(d.hands[seat]):
                        tally.differences.append((where, "hands after the draw", seat))
        else:
            r = d.result()
            row = s.sheet.rows[0] if s.sheet.rows else None
            tally.played_out += not d.hands[0] and not d.hands[1]
            if row is None or list(row.entries) != r["scores"]:
                tally.differences.append((where, "scores", row.entries if row else None, r["scores"], r["reason"]))
            h = s.hand_log[0]
            envs = [e.vars for e in _envs(v, h)]
            if [e["points"] + e.get("melds", 0) for e in envs] != [r["card_points"][k] + _counted(r, k) for k in (0, 1)]:
                tally.differences.append((where, "points", [e["points"] for e in envs], r["card_points"]))
            if REGISTRY["tricks"].data_of(h).closed_by != (-1 if r["closed_by"] is None else r["closed_by"]):
                tally.differences.append((where, "closed by"))
    return tally


def _counted(r, seat: int) -> int:
    """The referee's marriage points that count for ``seat`` ([M2]: once he has won a trick)."""
    return sum(p for _s, p in r["marriages"][seat]) if r["tricks"][seat] else 0


def _envs(v, h):
    from rulekit.engine.scoring import player_envs
    return player_envs(v, h)


def match_side_by_side(v, module, seed: int, hands_max: int = 40) -> tuple:
    """A whole match of random deals: rulekit's winner and the referee's ``match_winner`` of the
    entries rulekit wrote (each deal's entries checked against the referee's own)."""
    rng = random.Random(seed)
    deals, refs = [], []
    first = seed % 2
    for k in range(hands_max):
        dealer = (first + k) % 2
        hands, extra = module.deal_random(rng, dealer)
        refs.append((hands, extra, dealer))
        deals.append(order_for(v, dealer, {0: hands[0], 1: hands[1], "stock": extra["trump"] + extra["stock"]}))
    s = State(v, seed=seed, deals=deals, dealer=first)
    entries = []
    while not s.is_over:
        k = s.hand.number
        d = module.Deal(*refs[k][:2], refs[k][2])
        while not d.is_over():
            a = choose(rng, d)
            d.apply(a)
            s.apply(next(x for x in s.legal_actions() if norm(x.text) == norm(a)))
        assert list(s.sheet.rows[k].entries) == d.result()["scores"], (seed, k)
        entries.append(d.result()["scores"])
    return s.winners, module.match_winner(entries)


def cross_check(vid: str, module, seed: int, deals: int, options=None) -> Tally:
    """:func:`play_side_by_side` of the installed variant ``vid`` against the referee ``module``,
    asserting that no decision, draw or score differs; the tally, for the counts of what was met."""
    t = play_side_by_side(load_variant(vid), module, seed=seed, deals=deals, options=options)
    assert not t.differences, t.differences[:3]
    return t


def assert_match_agrees(vid: str, module, seed: int) -> None:
    """:func:`match_side_by_side` of the installed variant ``vid``: the same winner as the
    referee's of the same entries."""
    mine, theirs = match_side_by_side(load_variant(vid), module, seed)
    assert mine == [theirs], (vid, seed)


def check_random_hands(v, seeds) -> int:
    """Random hands of ``v``: after each trick while the stock is open the winner draws the next
    card in dealing order, then the loser, the card turned under it last; no close or exchange is
    offered once the stock is closed or exhausted; no observation shows or places a face-down
    stock card.  Returns the number of draws checked."""
    checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        s = State(v, seed=seed)
        h = s.hand
        while s.hand is h:
            d = REGISTRY["tricks"].data_of(h)
            stock = h.zones.get("stock", 0)
            acts = s.legal_actions()
            open_ = d.closed_by < 0 and stock
            assert open_ or not {"close", "exchange"} & {a.text for a in acts}
            hidden = stock & ~(1 << d.turned if d.turned >= 0 else 0)
            for seat in (0, 1):
                obs = s.observation(seat)
                assert not obs._visible() & hidden and not any(m & hidden for m in obs.placed)
            before, tricks, turned = list(h.hands), len(h.tricks), d.turned
            s.apply(acts[rng.randrange(len(acts))])
            if s.hand is h and len(h.tricks) > tricks and open_ and d.closed_by < 0:
                w = h.trick_winners[-1]
                got = [(h.hands[k] & ~before[k]).bit_length() - 1 for k in (w, 1 - w)]
                assert got == ([c for c in h.deck_order if stock >> c & 1 and c != turned] + [turned])[:2]
                checked += 1
    return checked
