"""The SensibleBot as it was before issue 10 (benchmark-only baseline for benchmarks/bots.py).

A frozen copy of rulekit/bots/sensible.py at commit 3190404; do not use it outside benchmarks.

A generic Monte Carlo bot (perfect-information sampling).

For each decision the bot samples worlds consistent with its observation
(:meth:`~rulekit.engine.observation.Observation.sample_world`), applies each
candidate action and plays the hand out with a fast greedy policy, then picks
the action with the best mean utility: its own entry minus the mean entry of
the others (negated when lower scores are better).

Whether a seat wants tricks or wants to avoid them is not known by game name:
it is probed from the variant's scoring formulas (:func:`trick_preferences`).
Bids: for each strain, the declarer's tricks are estimated by bidding its
lowest legal bid in sampled worlds where the others pass; a bid is made only
when its expected value is positive and it is made in at least ``min_make`` of
the samples.  The value of an outcome is its entry (the variant's own formulas)
plus what it does to the match (:func:`match_value`): a game won with the
part-score already held, a rubber and its bonus.

Sampled worlds are kept consistent with the auction (:func:`fits_calls`): a
player who bid a suit holds at least his share of it and at least an average
hand by a simple high-card count; a world that breaks this is drawn again.
"""
from __future__ import annotations

from rulekit.bots.base import Bot
from rulekit.cards import bits
from rulekit.dsl import Env
from rulekit.engine.actions import PASS, Action
from rulekit.engine.phases import REGISTRY
from rulekit.engine.progress import Progress
from rulekit.engine.scoring import column_of, entries_for, envs_for, formulas_for


def _role(w) -> str:
    """The role of the current phase of state ``w`` (``over`` once the match is over)."""
    kind = w.kind
    return "over" if kind is None else kind.role


class SensibleBot(Bot):
    """Monte Carlo bot.

    :param seed: its own random seed.
    :param samples: worlds sampled per card decision.
    :param bid_samples: worlds sampled per auction decision.
    :param min_make: least fraction of samples in which a bid must be made.
    """

    name = "sensible-old"

    def __init__(self, seed: int = 0, samples: int = 10, bid_samples: int = 20, min_make: float = 0.6,
                 budget: int = 60):
        super().__init__(seed)
        self.samples = samples
        self.budget = budget
        self.bid_samples = bid_samples
        self.min_make = min_make

    def act(self, obs):
        """Choose an action among ``obs.legal``."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        kind = REGISTRY[obs.phase]
        role = kind.role  # the bot knows roles, not kinds (a new kind says which it plays)
        if role == "auction":
            return self.bid(obs)
        v = obs.variant
        if role == "exchange":
            n = obs.legal[0].cards.bit_count()
            return Action.discard(v.deck, choose_discards(v, obs.hand, obs.trump, n))
        if role == "trump":
            names = [a for a in obs.legal if a.kind == "trump"]
            best = max(names, key=lambda a: trump_strength(v, obs.hand, a.suit))
            if len(names) < len(obs.legal) and trump_strength(v, obs.hand, best.suit) < 4:
                return next(a for a in obs.legal if a.kind == "pass")  # let the partner name them
            return best
        if role == "play":
            return self.play(obs)
        own = kind.bot_act(self, obs)
        return own if own is not None else obs.legal[int(self.rng.random() * len(obs.legal))]

    def sample(self, obs, tries: int = 12):
        """A world of ``obs`` that fits the calls made so far (:func:`fits_calls`); after
        ``tries`` misfits, the last one drawn."""
        for _ in range(tries):
            world = obs.sample_world(self.rng)
            if fits_calls(world, obs):
                return world
        return world

    # ------------------------------------------------------------------ play
    def play(self, obs):
        """The legal play with the best mean utility over sampled worlds."""
        totals = [0.0] * len(obs.legal)
        samples = max(3, min(self.samples, self.budget // len(obs.legal)))
        for _ in range(samples):
            world = self.sample(obs)
            prefs = trick_preferences(world)
            for i, a in enumerate(obs.legal):
                w = world.clone(light=True)
                h0 = w.hand
                w.apply_unchecked(a)
                totals[i] += utility(playout(w, prefs, h0), obs.seat, world.variant)
        best = max(range(len(totals)), key=lambda i: totals[i])
        return obs.legal[best]

    # ------------------------------------------------------------------ auction
    def bid(self, obs):
        """Bid the legal bid with the best expected entry, or pass."""
        spec = obs.phase_spec
        by_text = {b.text: b for b in spec.bids}
        legal_bids = [by_text[a.bid] for a in obs.legal if a.kind == "bid"]
        if not legal_bids:
            return PASS
        reps = {}
        for b in legal_bids:  # the lowest legal bid of each strain stands for the strain
            reps.setdefault(b.strain, b)
        results = {s: [] for s in reps}
        for _ in range(self.bid_samples):
            world = self.sample(obs)
            for strain, rep in reps.items():
                w = world.clone(light=True)
                outcome = self._declare(w, obs.seat, rep)
                if outcome is not None:
                    results[strain].append(outcome)
        best, best_ev = None, 0.0
        v = obs.variant
        me = column_of(v, obs.seat)
        extra = {"vulnerable": obs.vulnerable, "game_score": obs.game_score}
        for b in legal_bids:
            outs = results[b.strain]
            if not outs:
                continue
            made = 0
            ev = 0.0
            for won, points, trump, declarer in outs:
                envs = envs_for(v, b, declarer, trump, won, points, extra)
                e = entries_for(v, b, declarer, envs)
                for c, x in enumerate(match_value(v, b, declarer, envs, obs)):
                    e[c] += x
                ev += e[me] - sum(e[c] for c in range(len(e)) if c != me) / max(len(e) - 1, 1)
                made += bool(v.scoring.made(envs[me])) if v.scoring.made is not None else won[declarer] >= b.level
            ev /= len(outs)
            if made / len(outs) >= self.min_make and ev > best_ev:
                best, best_ev = b, ev
        if best is None:
            return self.double_or_pass(obs)
        return Action.make_bid(best.text)

    def double_or_pass(self, obs):
        """Double the opponents' contract when, in sampled worlds where the auction then ends,
        doubling beats passing by a clear margin and the contract fails in most of them."""
        double = next((a for a in obs.legal if a.kind == "double"), None)
        if double is None:
            return PASS
        v = obs.variant
        gain = 0.0
        fails = 0
        n = max(4, self.bid_samples // 2)
        for _ in range(n):
            world = self.sample(obs)
            outcomes = []
            for first in (double, PASS):
                w = world.clone(light=True)
                h0 = w.hand
                w.apply_unchecked(first)
                guard = 0
                while w.hand is h0 and w.phase_kind == obs.phase and guard < 16:
                    w.apply_unchecked(PASS)
                    guard += 1
                if w.hand is not h0 or h0.declarer < 0:
                    return PASS
                playout(w, trick_preferences(w), h0)
                outcomes.append(utility(h0, obs.seat, v))
            gain += outcomes[0] - outcomes[1]
            fails += bool(v.scoring.made is not None and not v.scoring.made(
                envs_for(v, h0.contract, h0.declarer, h0.trump, list(h0.won), [0] * v.players)[
                    column_of(v, h0.declarer)]))
        return double if fails >= 0.9 * n and gain / n > 100 else PASS

    def _declare(self, w, seat, bid):
        """In world ``w``: bid ``bid``, others pass, exchange, name trumps, play out.

        :returns: ``(tricks per seat, points per seat, trump)`` or ``None``.
        """
        h0 = w.hand
        w.apply_unchecked(Action.make_bid(bid.text))
        guard = 0
        while w.hand is h0 and _role(w) == "auction" and guard < 64:
            w.apply_unchecked(PASS)
            guard += 1
        v = w.variant
        if w.hand is not h0 or h0.declarer < 0 or column_of(v, h0.declarer) != column_of(v, seat):
            return None
        while w.hand is h0 and _role(w) != "play" and not w.is_over:
            role = _role(w)
            if role == "exchange":
                n = w.current_phase.discard
                w.apply_unchecked(Action.discard(w.variant.deck, choose_discards(w.variant, h0.hands[seat],
                                                                                h0.trump, n)))
            elif role == "trump":
                choice = max(w.current_phase.choices, key=lambda s: trump_strength(w.variant, h0.hands[seat], s))
                w.apply_unchecked(Action.trump(choice))
            else:
                return None
        prefs = trick_preferences(w)
        h = playout(w, prefs, h0)
        pts = w.variant.card_points
        points = [sum(pts[c] for c in bits(m)) for m in h.won_cards]
        return list(h.won), points, h.trump, h0.declarer


# ---------------------------------------------------------------------- helpers
def match_value(variant, contract, declarer: int, envs: list, obs) -> list:
    """Per score column, what an outcome is worth to the match beyond its entry.

    The outcome's game parts are added to the part-scores of ``obs`` (``game_score``,
    ``games``) by the variant's own rule (:meth:`Progress.record`): a game won is worth
    its game points plus its share of the rubber (the variant's bonus for an unfinished
    game, else the rubber bonus over the games a rubber needs); a rubber won is worth
    its bonus.  Zero for variants without games (rules/bridge.md [S2] [S8] [S9]).

    :param envs: the outcome's scoring environments (:func:`envs_for`).
    :returns: points per column.
    """
    m = variant.match
    cols = len(envs)
    out = [0] * cols
    if m.game_target is None or not variant.scoring.parts or len(obs.game_score) != cols:
        return out
    parts = {}
    for part in variant.scoring.parts:
        fs = formulas_for(variant, contract, declarer, part)
        parts[part.name] = [int(fs[c](envs[c])) if fs[c] is not None else 0 for c in range(cols)]
    p = Progress(cols)
    p.game_score = list(obs.game_score)
    p.games = list(obs.games) or [0] * cols
    events = p.record(variant, parts)
    rubber = any(kind == "rubber" for kind, _c, _x in events)
    for kind, col, value in events:
        if kind == "rubber":
            out[col] += value
        elif not rubber:
            share = m.unfinished_game
            if not share and m.rubber_bonus is not None and m.rubber_games:
                share = int(m.rubber_bonus(Env({"their_games": 0}))) // m.rubber_games
            out[col] += value + share
    return out


def high_card_points(ctx, hand: int) -> int:
    """A simple strength count: the four best cards of each suit by rank at no trump
    count 4, 3, 2, 1 (the Milton Work count in a 13-card suit)."""
    total = 0
    for g, mask in enumerate(ctx.group_mask):
        order = sorted(bits(mask), key=lambda c: -ctx.strength[c])
        for i, c in enumerate(order[:4]):
            if hand >> c & 1:
                total += 4 - i
    return total


def fits_calls(world, obs) -> bool:
    """Whether the hands of ``world`` fit the bids made so far by the other seats: each
    bidder holds at least his share of a suit he bid (its cards times hand size over
    the deck) and at least an average hand by :func:`high_card_points`."""
    v = world.variant
    auction = v.auction()
    if auction is None or not obs.calls:
        return True
    by_text = {b.text: b for b in auction.bids}
    nt = v.contexts.get("NT") or next(iter(v.contexts.values()))
    h = world.hand
    size = v.deck.size
    average = None
    for seat, text in obs.calls:
        bid = by_text.get(text)
        if bid is None or seat == obs.seat or seat == obs.dummy and obs.dummy_hand:
            continue
        dealt = h.dealt[seat] or h.hands[seat]
        ctx = v.contexts.get(bid.strain)
        if ctx is not None and ctx.trump_group is not None:
            group = ctx.group_mask[ctx.trump_group]
            if (dealt & group).bit_count() < group.bit_count() * v.hand_size // size:
                return False
        if average is None:
            average = high_card_points(nt, v.deck.full_mask) / v.players
        if high_card_points(nt, dealt) < average:
            return False
    return True


def utility(hand, seat: int, variant) -> float:
    """Own (or own side's) entry minus the mean of the others' (sign flipped for penalty games)."""
    e = hand.entries or [0] * (len(variant.sides) if variant.scoring.by_side else variant.players)
    me = column_of(variant, seat)
    others = [e[c] for c in range(len(e)) if c != me]
    u = e[me] - (sum(others) / len(others) if others else 0)
    return -u if variant.scoring.lower_is_better else u


def trick_preferences(world) -> list:
    """Per seat: True if winning tricks raises its utility under this hand's scoring.

    Probes the variant's formulas with two made-up outcomes: the seat's column (its
    side, or itself) wins every trick and every card point, or none.
    """
    v = world.variant
    h = world.hand
    n = v.players
    T = v.hand_size
    P = sum(v.card_points)
    prefs = []
    cache = {}
    for s in range(n):
        col = column_of(v, s)
        if col not in cache:
            mates = [x for x in range(n) if column_of(v, x) == col]
            rest = [x for x in range(n) if x not in mates]
            us = []
            for taker in (mates[0], rest[0] if rest else -1):
                won = [T if x == taker else 0 for x in range(n)]
                points = [P if x == taker else 0 for x in range(n)]
                envs = envs_for(v, h.contract, h.declarer, h.trump, won, points,
                                {"vulnerable": h.vulnerable, "doubled": h.doubled})
                e = entries_for(v, h.contract, h.declarer, envs)
                u = e[col] - sum(e[c] for c in range(len(e)) if c != col) / max(len(e) - 1, 1)
                us.append(-u if v.scoring.lower_is_better else u)
            cache[col] = us[0] >= us[1]
        prefs.append(cache[col])
    return prefs


def playout(w, prefs, h0):
    """Play the hand ``h0`` of world ``w`` to its end with :func:`greedy_card`; return ``h0``."""
    while w.hand is h0 and not w.is_over:
        if _role(w) != "play":
            break
        w.play_fast(greedy_card(w, prefs))
    return h0


def greedy_card(w, prefs) -> int:
    """A fast policy: a seat that wants tricks wins as cheaply as it can, else throws its
    lowest card; a seat that avoids them plays its highest card that does not win."""
    h = w.hand
    mask = w.legal_play_mask()
    if not mask & (mask - 1):
        return mask.bit_length() - 1
    ctx = h.ctx
    strength = ctx.strength
    group_of = ctx.group_of
    tg = ctx.trump_group
    pts = w.variant.card_points
    want = prefs[h.to_move]
    cards = list(bits(mask))
    if not h.trick:
        return _lead(h, ctx, cards, want, pts)
    lg = h.led_group

    def key(c):
        g = group_of[c]
        return 1000 + strength[c] if g == tg else (strength[c] if g == lg else -1)
    best = max(key(c) for _s, c in h.trick)
    winners = [c for c in cards if key(c) > best]
    losers = [c for c in cards if key(c) <= best]
    if want:
        if winners:
            return min(winners, key=key)
        return min(cards, key=lambda c: (group_of[c] == tg, strength[c], pts[c]))
    if losers:
        return max(losers, key=lambda c: (pts[c], strength[c]))
    return max(winners, key=key)


def _lead(h, ctx, cards, want, pts) -> int:
    """Lead: a master card (the best left of its group) if the seat wants tricks,
    trumps first while it holds the master trump; else a low card of its longest side group."""
    strength = ctx.strength
    group_of = ctx.group_of
    tg = ctx.trump_group
    remaining = 0
    for m in h.hands:
        remaining |= m
    if want:
        masters = []
        for c in cards:
            g = group_of[c]
            rest = remaining & ctx.group_mask[g]
            if all(strength[x] <= strength[c] for x in bits(rest)):
                masters.append(c)
        trump_masters = [c for c in masters if group_of[c] == tg]
        if trump_masters:
            return trump_masters[0]
        side = [c for c in masters if group_of[c] != tg]
        if side:
            return max(side, key=lambda c: strength[c])
    counts = {}
    for c in cards:
        counts[group_of[c]] = counts.get(group_of[c], 0) + 1
    side = [c for c in cards if group_of[c] != tg] or cards
    if want:
        return min(side, key=lambda c: (-counts[group_of[c]], strength[c]))
    return min(side, key=lambda c: (strength[c], pts[c]))


def choose_discards(variant, hand: int, trump: str, n: int) -> int:
    """Bitmask of the ``n`` weakest cards of ``hand`` with ``trump`` (a strain) as trumps:
    never trumps first; short side suits go first."""
    ctx = variant.contexts.get(trump) or variant.contexts.get("NT")
    counts = {}
    for c in bits(hand):
        counts[ctx.group_of[c]] = counts.get(ctx.group_of[c], 0) + 1
    top_of_group = {}
    for c in bits(hand):
        g = ctx.group_of[c]
        if g not in top_of_group or ctx.strength[c] > ctx.strength[top_of_group[g]]:
            top_of_group[g] = c

    def keep(c):
        g = ctx.group_of[c]
        if g == ctx.trump_group:
            return 10_000 + ctx.strength[c]
        high = ctx.group_mask[g] and ctx.strength[c] == max(ctx.strength[x] for x in bits(ctx.group_mask[g]))
        return (500 if high else 0) + 10 * counts[g] + ctx.strength[c]
    drop = sorted(bits(hand), key=keep)[:n]
    m = 0
    for c in drop:
        m |= 1 << c
    return m


def trump_strength(variant, hand: int, strain: str) -> float:
    """How good ``strain`` is as trumps for ``hand``: trump count, then their strength."""
    ctx = variant.contexts[strain]
    if ctx.trump_group is None:
        return 0.0
    trumps = [c for c in bits(hand) if ctx.group_of[c] == ctx.trump_group]
    return len(trumps) + sum(ctx.strength[c] for c in trumps) / 1000.0
