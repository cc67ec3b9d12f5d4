"""A generic Monte Carlo bot (perfect-information sampling).

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

from typing import TYPE_CHECKING, Any

from rulekit.bots.base import Bot
from rulekit.bots.policies import policy_for
from rulekit.bots.strength import choose_discards, trump_strength
from rulekit.cards import bits
from rulekit.dsl import Env
from rulekit.engine import kernel as _kernel
from rulekit.engine.actions import PASS, Action
from rulekit.engine.observation import LightWorld
from rulekit.engine.phases import REGISTRY, matadors
from rulekit.engine.phases import tricks as _tricks
from rulekit.engine.phases.exchange import DiscardChoices
from rulekit.engine.progress import Progress
from rulekit.engine.scoring import (column_of, entries_for, envs_for, formulas_for, match_extra, reads_match,
                                    remembered, score_played, tallies)
from rulekit.engine.tables import phase_variables

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.hand import Hand
    from rulekit.engine.observation import Observation
    from rulekit.engine.state import State
    from rulekit.variant.model import Variant


#: keys of the bots' tables in :meth:`Variant.cached <rulekit.variant.model.Variant.cached>` (public facts
#: only, shared by every bot of the process, so no bot learns another's cards; each bounded)
_PREFS = "bots.preferences"   # public facts of a hand -> trick preferences (SensibleBot.preferences)
_VALUES = "bots.values"       # match facts -> {(bid, outcome): (value, made)} (SensibleBot.bid)


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
    :param budget: playouts aimed at per card decision (worlds = budget / candidates, 3 to ``samples``).
    :param prune_from: in card play, the world (counted from 0) from which a candidate never
        better than the leader in any world so far is dropped (pruning from world 1 cost about
        10 points a hand head to head in Five Hundred: benchmarks/README.md).
    :param prune_bids: drop a strain early when its lowest bid is made in too few of the first worlds.
    """

    name = "sensible"

    def __init__(self, seed: int = 0, samples: int = 10, bid_samples: int = 16, min_make: float = 0.6,
                 budget: int = 60, prune_from: int = 2, prune_bids: bool = True):
        super().__init__(seed)
        self.samples = samples
        self.budget = budget
        self.bid_samples = bid_samples
        self.min_make = min_make
        self.prune_from = prune_from
        self.prune_bids = prune_bids
        self._fits: tuple = (None, None, 0)  # (the observation, its calls_test, draws per world)
        self._seen: tuple = (None, None, {})  # (match facts, the hand's bids, bid values by outcome): see bid()

    def act(self, obs: Observation) -> Action:
        """Choose an action among ``obs.legal``."""
        return self.decide(obs)

    def decide(self, obs: Observation, notes: list | None = None) -> Action:
        """:meth:`act`; with ``notes`` (a list), what the choice rests on is appended to it: per
        candidate ``(action, mean utility, sampled worlds)`` when the bot sampled worlds (card
        play), ``(action, mean utility, sampled worlds, fraction made)`` per bid of the auction,
        else one ``(rule,)`` entry naming how it chose.  The choice is the same with or without
        notes (the same random draws)."""
        if len(obs.legal) == 1:
            if notes is not None:
                notes.append(("the only legal action",))
            return obs.legal[0]
        kind = REGISTRY[obs.phase]
        own = policy_for(kind.name)   # a policy for the kind chooses first (rulekit/bots/policies/)
        if own is not None:
            act = own(self, obs)
            if act is not None:
                if notes is not None:
                    notes.append(("the bot's policy for this phase",))
                return act
        role = kind.role  # the bot knows roles, not kinds (a new kind says which it plays)
        if role == "auction":
            return self.bid(obs, notes)
        v = obs.variant
        if role == "exchange":
            legal = obs.legal
            fixed = getattr(legal, "fixed", 0)   # (discard choices: cards every choice holds)
            pool = sum(1 << c for c in legal.cards) if hasattr(legal, "cards") else obs.hand
            n = legal[0].cards.bit_count() - fixed.bit_count()
            if notes is not None:
                notes.append(("its weakest cards by the bot's hand measure",))
            act = Action.discard(v.deck, choose_discards(v, pool, obs.trump, n) | fixed)
            return act if act in legal else legal[0]
        if role == "trump":
            names = [a for a in obs.legal if a.kind == "trump"]
            best = max(names, key=lambda a: trump_strength(v, obs.hand, a.suit))
            if len(names) < len(obs.legal) and trump_strength(v, obs.hand, best.suit) < 4:
                if notes is not None:
                    notes.append(("no suit strong enough: the partner may name trumps",))
                return next(a for a in obs.legal if a.kind == "pass")  # let the partner name them
            if notes is not None:
                notes.append(("its strongest suit by the bot's trump measure",))
            return best
        if role == "play":
            return self.play(obs, notes)
        if notes is not None:
            notes.append(("chosen at random: the bot has no rule for this phase",))
        return obs.legal[int(self.rng.random() * len(obs.legal))]

    def explain(self, obs: Observation) -> tuple[Action, list]:
        """The action :meth:`act` would choose for ``obs`` and the notes it rests on
        (:meth:`decide`): for a hint at the table, from the seat's own observation only."""
        notes: list = []
        return self.decide(obs, notes), notes

    def sample(self, obs: Observation, tries: int = 12, light: bool = False) -> State:
        """A world of ``obs`` that fits the calls made so far (:func:`fits_calls`); after
        ``tries`` misfits, the last one drawn, and one draw per world for the rest of the
        decision.  The deals are tested before a world is built from them
        (:meth:`~rulekit.engine.observation.Observation.sample_world`; ``light``: a
        :class:`~rulekit.engine.observation.LightWorld` where it can be, by the same draws)."""
        if self._fits[0] is not obs:  # (the observation itself: an id is reused once it is freed)
            self._fits = (obs, calls_test(obs), tries)
        _o, test, n = self._fits
        if test is None:
            return obs.sample_world(self.rng, light=light)
        world = obs.sample_world(self.rng, test, n, light)
        if n > 1 and not fits_calls(world, obs, test):
            # none of the draws fitted: the calls are (almost) out of reach of the cards still
            # hidden (a third of card decisions in Five Hundred); the next worlds of this
            # decision are drawn once each, as the last of their draws would have been kept
            self._fits = (obs, test, 1)
        return world

    # ------------------------------------------------------------------ play
    def play(self, obs: Observation, notes: list | None = None) -> Action:
        """The legal play with the best mean utility over sampled worlds (with ``notes``, each
        candidate's ``(action, mean utility, worlds)`` is appended to it, best first).

        Cards that are equivalent for the seat (:func:`distinct_plays`) are evaluated once;
        the seats' trick preferences are probed once per hand (they depend on public facts
        only); each world is played out once per candidate on a light copy that is not
        dealt a next hand (:func:`capped`).  The fast policy's own card in the first world
        (:func:`greedy_card`) is tried first and wins ties.  From world ``prune_from`` on (the
        third by default), a candidate that did no better than the leader in every world so
        far is dropped (the worlds are shared, so the comparison is paired); sampling stops
        when one candidate is left.  Each world plays every candidate on its own hand, put
        back after each (:func:`_save`), through the engine's trick rules (:func:`_quick_tricks`)."""
        legal = obs.legal
        cands = distinct_plays(obs)
        if len(cands) == 1:
            if notes is not None:
                notes.append(("every legal card is worth the same",))
            return legal[cands[0]]
        samples = max(3, min(self.samples, self.budget // len(cands)))
        scores: list[list[float]] = [[] for _ in cands]
        active = list(range(len(cands)))
        prefs = None
        v = obs.variant
        by_counts: dict = {}   # counts key -> utility: the same in every world of the decision (below)
        k = 0
        while k < samples:
            # the worlds before pruning starts (prune_from) do not depend on each other's scores:
            # drawn together, their playouts are one call of the compiled kernel (the same draws
            # in the same order, so the same decision: the playouts draw nothing)
            # (light worlds, the same draws, but the first: the greedy card is found in a full world;
            # a light world becomes full where a candidate's playout needs the whole state)
            batch = [capped(self.sample(obs, light=k + i > 0))
                     for i in range(max(1, min(samples, self.prune_from + 1)) if k == 0 else 1)]
            if prefs is None:
                prefs = self.preferences(batch[0])
                if batch[0].kind is not None and batch[0].kind.role == "play":
                    first = _equivalent(cands, legal, greedy_card(batch[0], prefs), v.contexts.get(obs.trump))
                    if first is not None:
                        active.remove(first)
                        active.insert(0, first)
            quick = [_quick(world) for world in batch]
            plain = [q and _plain(v.phases[world.hand.phase], world.hand.ctx) for q, world in zip(quick, batch)]
            # every card's playout in each plain world (firsts: candidate -> its card)
            firsts = {j: legal[cands[j]].card for j in active if legal[cands[j]].kind == "play" and not legal[cands[j]].suit}
            at = {j: i for i, j in enumerate(firsts)}
            counts = [False] * len(batch)
            evals: list = [None] * len(batch)
            if any(plain) and _kernel.enabled(len(active) * sum(plain)):
                # (the counts key: what score_played's key reads of the play; the playouts change
                # nothing that remembered() reads)
                counts = [p and not v.scoring.tallies and not v.scoring.markers and remembered(v, world.hand, {})
                          for p, world in zip(plain, batch)]
                evals = _kernel.greedy_batch([(world, world.hand, prefs, list(firsts.values()) if p else [])
                                              for p, world in zip(plain, batch)], counts)
            for world, q, p, each, c in zip(batch, quick, plain, evals, counts):
                _value_world(world, q, p, each, by_counts if c else {}, obs, prefs, active, cands, at, scores)
                lead = max(active, key=lambda j: sum(scores[j]))  # the first of equals: the greedy card
                if k >= self.prune_from:
                    active = [j for j in active if j == lead or
                              any(x > y for x, y in zip(scores[j], scores[lead]))]
                k += 1
            if len(active) == 1:
                break
        best = max(active, key=lambda j: sum(scores[j]))
        if notes is not None:
            ranked = sorted(range(len(cands)), key=lambda j: (j != best, -sum(scores[j]) / max(len(scores[j]), 1)))
            notes += [(legal[cands[j]], sum(scores[j]) / len(scores[j]), len(scores[j])) for j in ranked if scores[j]]
        return legal[cands[best]]

    def preferences(self, world: State) -> list[bool]:
        """:func:`trick_preferences` of ``world``'s hand, cached by the public facts it reads
        (shared by all bots of the process: public facts only, so no bot learns another's cards)."""
        h = world.hand
        v = world.variant
        key = (h.contract.text if h.contract is not None else None, h.declarer, h.trump,
               tuple(h.vulnerable), h.doubled, h.partner,
               (h.totals, h.number, h.dealer) if reads_match(world.variant) else ())
        cache: dict[tuple, list[bool]] = v.cached(_PREFS, dict)
        hit = cache.get(key)
        if hit is None:
            if len(cache) > 4096:
                cache.clear()
            hit = cache[key] = trick_preferences(world)
        return hit

    # ------------------------------------------------------------------ auction
    def bid(self, obs: Observation, notes: list | None = None) -> Action:
        """Bid the legal bid with the best expected entry, or pass (with ``notes``, each bid
        valued is appended to it as ``(bid action, mean utility, worlds, fraction made)``)."""
        spec = obs.phase_spec
        by_text = {b.text: b for b in obs.phase_data.get("bids") or spec.bids}  # this hand's values
        legal_bids = [by_text[a.bid] for a in obs.legal if a.kind == "bid"]
        if not legal_bids:
            if notes is not None:
                notes.append(("no bid is allowed now",))
            return PASS
        reps: dict[tuple, Any] = {}
        for b in legal_bids:  # the lowest legal bid of each strain stands for the strain
            reps.setdefault(_family(b), b)
        results: dict = {s: [] for s in reps}
        v = obs.variant
        me = column_of(v, obs.seat)
        extra = {"vulnerable": obs.vulnerable, "game_score": obs.game_score, "totals": obs.totals,
                 "deal_number": obs.hand_number + 1, "dealer": obs.dealer}
        # (bid, outcome) -> (value, made): sampled outcomes repeat often, in this decision and
        # the seat's next ones in the same hand (the key holds the match facts they read)
        # (kept for every bot of the process when the bids are the variant's own: public facts only)
        facts = (obs.seat, tuple(obs.vulnerable), tuple(obs.game_score), tuple(obs.games),
                 (tuple(obs.totals), obs.hand_number, obs.dealer) if reads_match(v) else ())
        if "bids" in obs.phase_data:  # this hand's own bid values: this decision and the seat's next ones
            if self._seen[0] != facts or self._seen[1] is not obs.phase_data["bids"] or len(self._seen[2]) > 4096:
                self._seen = (facts, obs.phase_data["bids"], {})
            seen = self._seen[2]
        else:
            values: dict[tuple, dict] = v.cached(_VALUES, dict)
            seen = values.get(facts)
            if seen is None or len(seen) > 4096:
                if len(values) > 64:
                    values.clear()
                seen = values[facts] = {}

        def value(b, out) -> tuple:
            """(utility, made) of bid ``b`` with outcome ``out``, by the variant's formulas."""
            won, points, trump, declarer, partner, tal, phase = out
            key = (b.text, tuple(won), tuple(points), trump, declarer, partner, tal, phase)
            r = seen.get(key)
            if r is None:
                envs = envs_for(v, b, declarer, trump, won, points, {**extra, "partner": partner,
                                                                     "tallies": [dict(t) for t in tal] or None})
                for env, values in zip(envs, phase):   # the phases' own variables of the outcome
                    env.vars.update(values)
                e = entries_for(v, b, declarer, envs, partner)
                for c, x in enumerate(match_value(v, b, declarer, envs, obs)):
                    e[c] += x
                r = seen[key] = (e[me] - sum(e[c] for c in range(len(e)) if c != me) / max(len(e) - 1, 1),
                                 bool(v.scoring.made(envs[me])) if v.scoring.made is not None
                                 else won[declarer] >= b.level)
            return r

        # a strain whose lowest bid was made in (almost) none of the first worlds will not
        # reach min_make over all of them (a strain made 60 % of the time fails these checks
        # about 8 % of the time, and such a bid is worth little): it is not sampled further
        checks = {3: 0.5, max(4, self.bid_samples // 4): 0.5, self.bid_samples // 2: 0.3} if self.prune_bids else {}
        # the hands made ready between two checks are played out together (_outcomes: one
        # call of the compiled kernel); the playouts draw nothing, so the draws are the same
        pending: list = []   # (strain, world, hand, prefs), in the order of the worlds
        for k in range(self.bid_samples + 1):
            if pending and (k in checks or k == self.bid_samples):
                for (strain, *_w), outcome in zip(pending, _outcomes([p[1:] for p in pending])):
                    results[strain].append(outcome)
                pending = []
            if k == self.bid_samples:
                break
            if k in checks:
                reps = {st: rep for st, rep in reps.items()
                        if sum(value(rep, o)[1] for o in results[st]) >= (self.min_make - checks[k]) * k}
                if not reps:
                    break
            world = capped(self.sample(obs))
            last = len(reps) - 1
            for i, (strain, rep) in enumerate(reps.items()):
                w = world.clone(light=True) if i < last else world   # (the last strain plays on the world itself)
                h0 = self._contract(w, obs.seat, rep)
                if h0 is not None:
                    pending.append((strain, w, h0, self.preferences(w)))
        best, best_ev = None, 0.0
        short: dict = {}  # family -> the lowest level found made too rarely
        for b in legal_bids:
            fam = _family(b)
            outs = results[fam]
            if not outs or fam not in reps:
                continue
            if fam in short and isinstance(b.level, int) and b.level > short[fam]:
                continue  # the same tricks make a higher contract of the strain more rarely still
            made = 0
            ev = 0.0
            for out in outs:
                u, ok = value(b, out)
                ev += u
                made += ok
            ev /= len(outs)
            if notes is not None:
                notes.append((Action.make_bid(b.text), ev, len(outs), made / len(outs)))
            if made / len(outs) < self.min_make:
                if isinstance(b.level, int):
                    short[fam] = min(short.get(fam, b.level), b.level)
            elif ev > best_ev:
                best, best_ev = b, ev
        if notes is not None:
            notes.append((f"a bid is made when worth more than 0 and made in at least "
                          f"{self.min_make:.0%} of the deals",))
        if best is None:
            if not any(a.kind == "pass" for a in obs.legal):  # a forced bid (the dealer must bid)
                return Action.make_bid(legal_bids[0].text)
            return self.double_or_pass(obs)
        return Action.make_bid(best.text)

    def double_or_pass(self, obs: Observation) -> Action:
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
            world = capped(self.sample(obs))
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
                _play_out(w, self.preferences(w), h0)
                outcomes.append(utility(h0, obs.seat, v))
            gain += outcomes[0] - outcomes[1]
            fails += bool(v.scoring.made is not None and not v.scoring.made(
                envs_for(v, h0.contract, h0.declarer, h0.trump, list(h0.won), [0] * v.players, match_extra(h0))[
                    column_of(v, h0.declarer)]))
        return double if fails >= 0.9 * n and gain / n > 100 else PASS

    def _declare(self, w, seat, bid):
        """In world ``w``: bid ``bid``, others pass, exchange, name trumps, play out.

        :returns: ``(tricks per seat, points per seat, trump, declarer, partner, tallies, phase values)``
            or ``None`` (tallies: per column, its ``(name, count)`` pairs, which the scoring may read;
            phase values: per column, the phases' own variables of the hand played, as pairs).
        """
        h0 = self._contract(w, seat, bid)
        return None if h0 is None else _outcome(w, h0, self.preferences(w))

    def _contract(self, w, seat, bid):
        """In world ``w``: bid ``bid``, others pass, exchange, name trumps: the hand ready for
        its play (``w.hand``), or ``None`` when ``seat``'s column does not declare it."""
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
            legal = w.legal_actions()
            if role == "exchange" and type(legal) is DiscardChoices:   # (its k cards of its pool: one of them)
                w.apply_unchecked(Action.discard(w.variant.deck, choose_discards(w.variant, legal.hand, h0.trump, legal.k)
                                                 | legal.fixed))
            elif role == "exchange" and legal[0].kind == "discard":   # (else: take or hand)
                fixed = getattr(legal, "fixed", 0)   # (discard choices: cards every choice holds)
                pool = sum(1 << c for c in legal.cards) if hasattr(legal, "cards") else h0.hands[seat]
                n = legal[0].cards.bit_count() - fixed.bit_count()
                act = Action.discard(w.variant.deck, choose_discards(w.variant, pool, h0.trump, n) | fixed)
                w.apply_unchecked(act if act in legal else legal[0])
            elif role == "trump" and any(a.kind == "trump" for a in legal):
                names = [a.suit for a in legal if a.kind == "trump"]
                choice = max(getattr(w.current_phase, "choices", names),
                             key=lambda s: trump_strength(w.variant, h0.hands[seat], s))
                w.apply_unchecked(Action.trump(choice))
            else:   # another kind (a partner call, cards put aside): its policy's choice, else the first
                obs2 = w.observation(w.to_move)
                pick = policy_for(w.current_phase.kind)
                own = pick(self, obs2) if pick is not None and obs2.legal else None
                w.apply_unchecked(own if own is not None else legal[0])
        return h0


# ---------------------------------------------------------------------- helpers
def _outcome(w: State, h0: Hand, prefs: list) -> tuple:
    """The outcome of :meth:`SensibleBot._declare` once hand ``h0`` (``w.hand``, ready for its
    play) is played out by the greedy policy (:func:`_play_out`, not scored: ``value()``
    scores the outcome)."""
    v = w.variant
    h = _play_out(w, prefs, h0, score=False)
    if v.has_card_points:
        pts = v.points_table(h.ctx)   # the trump choice's card points
        points = [sum(pts[c] for c in bits(m)) for m in h.won_cards]
    else:
        points = [0] * len(h.won_cards)
    tal = tuple(tuple(t.items()) for t in tallies(v, h, h.won_cards)) if v.scoring.tallies else ()
    return list(h.won), points, h.trump, h0.declarer, h0.partner, tal, phase_values(v, h)


def _outcomes(pending: list) -> list:
    """:func:`_outcome` of each ``(world, hand, prefs)`` of ``pending``, in order.  Where the
    outcome is the tricks and card points each seat wins and nothing else (no tallies, no
    phase's own variables, no matadors) and the hand is played by :func:`_plain_tricks`, the
    compiled kernel plays all those hands in one call and returns just those counts, without
    writing the tricks back into worlds that are then thrown away (the same counts:
    tests/test_kernel.py); the others are played one by one."""
    out: list = [None] * len(pending)
    if not pending:
        return out
    v = pending[0][0].variant
    jobs = []
    if not (v.scoring.tallies or _valued_phases(v) or v.scoring.matadors is not None) and \
            _kernel.enabled(0):   # (not counted towards the warm-up: the Python loop counts the hands it plays)
        jobs = [(w, h, prefs, [-1] if w.hand is h and not w.is_over and _role(w) == "play" and _quick(w)
                 and _plain(v.phases[h.phase], h.ctx) else []) for w, h, prefs in pending]
    counted = _kernel.greedy_batch(jobs, counts=True) if jobs else out
    for i, ((w, h, prefs), got) in enumerate(zip(pending, counted)):
        if got is None:
            out[i] = _outcome(w, h, prefs)
            continue
        won, points = got[0][0]
        out[i] = (list(won), list(points) if v.has_card_points else [0] * len(won), h.trump, h.declarer, h.partner,
                  (), ())
    return out


def _valued_phases(v: Variant) -> list:
    """The phases whose own formula variables :func:`phase_values` reads (kind, spec, defaults)."""
    # (an auction's variables are the contract's attributes: the bid valued brings its own)
    return [k for k in phase_variables(v) if not (k[0].values_from_contract or k[0].role == "auction")]


def phase_values(v: Variant, h: Hand) -> tuple:
    """Per score column, the phases' own formula variables of the played hand ``h`` (a
    partnership by a card: the party's points) but those a contract fixes, as
    ``((name, value), ...)``; ``()`` when no phase gives any."""
    kinds = _valued_phases(v)
    if not kinds and v.scoring.matadors is None:
        return ()
    cols: list[dict] = []
    for kind, spec, _defaults in kinds:
        for c, values in enumerate(kind.values(v, h, spec)):
            if c == len(cols):
                cols.append({})
            cols[c].update(values)
    if v.scoring.matadors is not None:   # the world's run of top trumps (``scoring.matadors``)
        n, with_ = matadors.exact(v, h)
        cols = cols or [{} for _ in range(len(v.sides) if v.scoring.by_side else v.players)]
        for d in cols:
            d.update(matadors=n, with_matadors=with_)
    return tuple(tuple(sorted(d.items())) for d in cols)


def _family(bid) -> tuple:
    """Bids simulated together: same strain, and for contract records the same kind of game
    (a null is not a suit game, nor another null: they differ in cards put aside)."""
    return (bid.strain, bid.text if getattr(bid, "null", False) else "")


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
    return _points(hcp_masks(ctx), hand)


def hcp_masks(ctx) -> tuple[int, int, int, int]:
    """The cards worth 4, 3, 2 and 1 in :func:`high_card_points` under context ``ctx``."""
    by_value = [0, 0, 0, 0]
    for order in ctx.orders:
        for i, c in enumerate(order[:4]):
            by_value[i] |= 1 << c
    return by_value[0], by_value[1], by_value[2], by_value[3]


def _points(masks: tuple[int, int, int, int], hand: int) -> int:
    m4, m3, m2, m1 = masks
    return 4 * (hand & m4).bit_count() + 3 * (hand & m3).bit_count() + 2 * (hand & m2).bit_count() + \
        (hand & m1).bit_count()


def fits_calls(world, obs, test=None) -> bool:
    """Whether the hands of ``world`` fit the bids made so far by the other seats: each
    bidder holds at least his share of a suit he bid (its cards times hand size over
    the deck) and at least an average hand by :func:`high_card_points`.

    :param test: :func:`calls_test` of ``obs``, when already built."""
    if test is None:
        test = calls_test(obs)
    h = world.hand
    return test is None or test({s: h.dealt[s] or h.hands[s] for s in range(world.variant.players)})


def calls_test(obs):
    """The test of :func:`fits_calls` for ``obs``, as a function of the hands as dealt
    (``{seat: bitmask}``; seats missing from it are not tested), or ``None`` when no call
    constrains a hand.  Built once per decision: it is run on every drawn deal."""
    v = obs.variant
    auction = v.auction()
    if auction is None or not obs.calls:
        return None
    by_text = {b.text: b for b in auction.bids}
    nt = v.contexts.get("NT") or next(iter(v.contexts.values()))
    masks = hcp_masks(nt)   # (once per decision: the test below runs on every drawn deal)
    average = _points(masks, v.deck.full_mask) / v.players
    size = v.deck.size
    rules = []  # (seat, trump group mask or 0, least trumps)
    for seat, text in obs.calls:
        bid = by_text.get(text)
        if bid is None or seat == obs.seat or seat == obs.dummy and obs.dummy_hand:
            continue
        ctx = v.contexts.get(bid.strain)
        group, least = 0, 0
        if ctx is not None and ctx.trump_group is not None:
            group = ctx.group_mask[ctx.trump_group]
            least = group.bit_count() * v.hand_size // size
        rules.append((seat, group, least))
    if not rules:
        return None

    def test(dealt: dict) -> bool:
        for seat, group, least in rules:
            m = dealt.get(seat)
            if m is None:
                continue
            if (m & group).bit_count() < least or _points(masks, m) < average:
                return False
        return True
    return test


def utility(hand: Hand, seat: int, variant: Variant) -> float:
    """Own (or own side's) entry minus the mean of the others' (sign flipped for penalty games)."""
    e = hand.entries or [0] * (len(variant.sides) if variant.scoring.by_side else variant.players)
    me = column_of(variant, seat)
    others = [e[c] for c in range(len(e)) if c != me]
    u = e[me] - (sum(others) / len(others) if others else 0)
    return -u if variant.scoring.lower_is_better else u


def trick_preferences(world: State) -> list[bool]:
    """Per seat: True if winning tricks raises its utility under this hand's scoring.

    Probes the variant's formulas with two made-up outcomes: the seat's column (its
    side, or itself) wins every trick and every card point, or none.
    """
    v = world.variant
    h = world.hand
    n = v.players
    T = v.hand_size
    P = v.points_total(h.trump if h.ctx is not None else None)
    prefs = []
    cache = {}
    for s in range(n):
        col = column_of(v, s)
        if col not in cache:
            mates = [x for x in range(n) if column_of(v, x) == col]
            rest = [x for x in range(n) if x not in mates]
            us = []
            # against the declarer's side, the other probe is the declarer taking them all (with
            # three or more columns another defender taking them may score the same as this one)
            other = h.declarer if h.declarer in rest else rest[0] if rest else -1
            for taker in (mates[0], other):
                won = [T if x == taker else 0 for x in range(n)]
                points = [P if x == taker else 0 for x in range(n)]
                envs = envs_for(v, h.contract, h.declarer, h.trump, won, points,
                                {"vulnerable": h.vulnerable, "doubled": h.doubled, "partner": h.partner,
                                 **match_extra(h)})
                e = entries_for(v, h.contract, h.declarer, envs, h.partner)
                u = e[col] - sum(e[c] for c in range(len(e)) if c != col) / max(len(e) - 1, 1)
                us.append(-u if v.scoring.lower_is_better else u)
            cache[col] = us[0] >= us[1]
        prefs.append(cache[col])
    return prefs


def capped(world: State) -> State:
    """``world`` (a sampled :class:`~rulekit.engine.state.State`), stopped after its current
    hand: playing it out scores the hand but deals no next one (a bot reads that hand's entries only)."""
    world.max_hands = world.hand.number + 1
    return world


def distinct_plays(obs: Observation) -> list[int]:
    """Indices into ``obs.legal`` of the plays worth comparing: of cards that are equivalent for
    the seat to move (same group, same card points, and no card between them in strength that
    another player may still play), only the lowest is kept.  All plays are kept when the
    scoring may tell such cards apart (tallies of cards, phase variables).
    """
    legal = obs.legal
    v = obs.variant
    ctx = v.context(obs.trump, obs.group)
    if ctx is None or v.scoring.tallies or phase_variables(v):
        return list(range(len(legal)))
    gone = 0
    for _l, plays, _w, _n in obs.tricks:
        for _s, c in plays:
            gone |= 1 << c
    for _s, c in obs.trick:
        gone |= 1 << c
    out = []
    by_group: dict = {}
    own = 0
    for i, a in enumerate(legal):
        if a.kind != "play" or a.suit:
            out.append(i)
            continue
        own |= 1 << a.card
        by_group.setdefault(ctx.group_of[a.card], []).append((ctx.strength[a.card], a.card, i))
    pts = v.points_table(ctx)
    strength = ctx.strength
    for g, cards in by_group.items():
        cards.sort()
        others = [strength[x] for x in bits(ctx.group_mask[g] & ~own & ~gone)]
        prev = None
        for st, c, i in cards:
            if prev is None or pts[c] != pts[prev[1]] or any(prev[0] < x < st for x in others):
                out.append(i)
            prev = (st, c)
    out.sort()
    return out


def _equivalent(cands: list, legal: list, card: int, ctx):
    """The position in ``cands`` (indices into ``legal``) of the play standing for ``card``:
    the card itself, else the strongest lower candidate of its group in context ``ctx``
    (:func:`distinct_plays` keeps the lowest of equivalent cards); ``None`` if none."""
    best = None
    for j, i in enumerate(cands):
        a = legal[i]
        if a.kind != "play" or a.suit:
            continue
        if a.card == card:
            return j
        if ctx is not None and ctx.group_of[a.card] == ctx.group_of[card] and \
                ctx.strength[a.card] < ctx.strength[card] and \
                (best is None or ctx.strength[a.card] > ctx.strength[legal[cands[best]].card]):
            best = j
    return best


def _value_world(world: State | LightWorld, quick: bool, plain: bool, each: tuple | None, seen: dict, obs: Observation,
                 prefs: list, active: list, cands: list, at: dict, scores: list) -> None:
    """Append to ``scores[j]`` the utility for the seat of ``obs`` of each candidate ``j`` of
    ``active`` (the play ``obs.legal[cands[j]]``) in the sampled ``world``, played out by the
    greedy policy (:meth:`SensibleBot.play`).  ``quick``, ``plain``: :func:`_quick` and
    :func:`_plain` of the world's phase; ``each``: the kernel's ``(keys, put)`` of the
    candidates of ``at`` (candidate -> its place in them; :func:`rulekit.engine.kernel.greedy_each`)
    or ``None``; ``seen``: utility by outcome key (the counts key's, shared by every world of
    the decision, or a new dict)."""
    legal = obs.legal
    v = obs.variant
    base = world.hand
    if type(world) is LightWorld and (not plain or any(j not in at for j in active)):
        world = world.state()   # (a playout below needs the whole state: the same world, full)
    saved = _save(base) if plain else ()
    if each is None:
        seen = {}   # in this world, the same trick winners and cards won score the same
    for j in active:
        a = legal[cands[j]]
        if each is not None and j in at:   # (the same outcomes as the loop below: tests/test_kernel.py)
            keys, put = each
            u = seen.get(keys[at[j]])
            if u is None:
                put(at[j])
                _score(world, base)
                u = seen[keys[at[j]]] = utility(base, obs.seat, v)
                _restore(base, saved)
            scores[j].append(u)
            continue
        if plain and a.kind == "play" and not a.suit:  # played on the hand, then put back
            _plain_tricks(world, base, prefs, a.card)
            key = (tuple(base.trick_winners), tuple(base.won_cards))
            u = seen.get(key)
            if u is None:
                _score(world, base)
                u = seen[key] = utility(base, obs.seat, v)
            scores[j].append(u)
            _restore(base, saved)
            continue
        assert not isinstance(world, LightWorld)   # (made full above: these playouts need the whole state)
        if quick and a.kind == "play" and not a.suit:  # a copy of the hand is enough
            world.hand = h0 = base.clone()
            _quick_tricks(world, h0, prefs, a.card)
        else:
            world.hand = base
            w = world.clone(light=True)
            h0 = w.hand
            w.apply_unchecked(a)
            _play_out(w, prefs, h0)
        scores[j].append(utility(h0, obs.seat, v))


def _play_out(w, prefs, h0, score: bool = True):
    """:func:`playout` for the bot's own evaluations: in a trick phase that ends the hand
    (:func:`_quick`), the hand is played and scored by :func:`_quick_tricks` (the same
    tricks and entries, but ``w`` is not moved on to its next hand or the match's end);
    else :func:`playout`.  Returns ``h0``, its ``entries`` set once scored (with ``score``
    false, the quick way leaves them unset: for a caller that values the tricks itself)."""
    if w.hand is h0 and not w.is_over and _role(w) == "play" and _quick(w):
        _quick_tricks(w, h0, prefs, score=score)
        return h0
    return playout(w, prefs, h0)


def playout(w: State, prefs: list[bool], h0: Hand) -> Hand:
    """Play the hand ``h0`` of world ``w`` to its end with :func:`greedy_card`, the engine
    scoring it and moving ``w`` on; return ``h0``."""
    if w.hand is not h0 or w.is_over or _role(w) != "play":
        return h0
    phase = h0.phase
    legal = w.legal_play_mask
    play = w.play_fast
    pts = w.variant.points_table(h0.ctx)
    while w.hand is h0 and h0.phase == phase and not w.winners:
        mask = legal()
        play(_choose(h0, mask, prefs[h0.to_move], pts) if mask & (mask - 1) else mask.bit_length() - 1)
    return h0


def _plain(spec, ctx) -> bool:
    """Whether trick phase ``spec`` with context ``ctx`` follows the common rules only
    (:func:`rulekit.engine.phases.tricks.plain_follow`: the rules ``tricks.legal_mask`` and
    ``tricks.play_card`` apply inline on their own hot path, which :func:`_plain_tricks`
    repeats, checked against the engine in tests/test_bot_speed_strength.py) and the widow
    does not go to the last trick."""
    return _tricks.plain_follow(spec, ctx) and not _tricks.credits(spec, ctx)


def _plain_tricks(w, h, prefs, first: int = -1) -> None:
    """Play the trick phase of hand ``h`` (``w.hand``) to its end under the common rules
    (:func:`_plain`): ``first`` (a card, if given), then :func:`greedy_card`'s cards.  The
    bots' inner loop: it leaves the hand's cards, tricks, winners, tricks and cards won and
    shown voids as ``tricks.play_card`` does, with the trick's state in local variables and
    its highest win key kept as cards are played instead of found again for each card.  A
    led top card names the suit :meth:`State.play_fast` names (the first its leader has not
    failed).  With the compiled kernel on (:mod:`rulekit.engine.kernel`) the kernel plays it
    when it can, card for card as this loop does (tests/test_kernel.py)."""
    if _kernel.enabled() and _kernel.greedy_tricks(w, h, prefs, first):
        return
    v = w.variant
    ctx = h.ctx
    group_mask = ctx.group_mask
    group_of = ctx.group_of
    win_keys = ctx.win_keys
    tsg = ctx.trump_suit_group if v.phases[h.phase].must_trump else None
    trumps = group_mask[tsg] if tsg is not None else 0
    hands = h.hands
    failed = h.failed
    won = h.won
    won_cards = h.won_cards
    tricks = h.tricks
    trick_winners = h.trick_winners
    n = h.players
    step = v.step
    pts = v.points_table(ctx)
    suits = v.deck.suits
    names = len(suits) if ctx.top_names_suit else -1  # the top group, when its led cards name a suit
    c = first
    seat = h.to_move
    trick = h.trick
    leader = h.leader
    lg = h.led_group
    named = h.named
    best, winner, top, follow = -1, leader, -1, 0
    keys: tuple = ()
    if trick:  # a trick under way: its winner so far as play_card will judge it
        keys = win_keys[lg]
        follow = group_mask[lg]
        top = max(keys[x] for _s, x in trick)
        for s, x in trick:
            if keys[x] > best:
                best, winner = keys[x], s
    while True:
        hand = hands[seat]
        if trick:
            if c < 0:
                m = hand & follow or hand & trumps or hand
                c = _follow(ctx, keys, top, m, prefs[seat], pts) if m & (m - 1) else m.bit_length() - 1
            if group_of[c] != lg and not hand & follow & ~(1 << c):
                failed[seat] |= 1 << lg
        else:
            if c < 0:
                c = _lead(h, ctx, hand, prefs[seat], pts) if hand & (hand - 1) else hand.bit_length() - 1
            leader = seat
            lg = group_of[c]
            if lg == names:  # a led top card names the first suit its leader has not failed
                lg = next((i for i in range(names) if not failed[seat] >> i & 1), 0)
                named = suits[lg]
            keys = win_keys[lg]
            follow = group_mask[lg]
            best, winner, top = -1, leader, keys[c]
        hands[seat] = hand ^ (1 << c)
        trick.append((seat, c))
        k = keys[c]
        if k > best:
            best, winner = k, seat
        if k > top:
            top = k
        c = -1
        nxt = (seat + step) % n
        while not hands[nxt] and nxt != leader:  # a seat without cards sits the trick out
            nxt = (nxt + step) % n
        if nxt != leader:
            seat = nxt
            continue
        cards = 0
        for _s, x in trick:
            cards |= 1 << x
        tricks.append((leader, trick, winner, named))
        trick_winners.append(winner)
        won[winner] += 1
        won_cards[winner] |= cards
        trick = []
        named = ""
        if not any(hands):
            h.trick, h.leader, h.led_group, h.named, h.to_move = trick, leader, lg, named, -1
            return
        while not hands[winner]:  # the winner has no card left: the next seat that has leads
            winner = (winner + step) % n
        seat = winner


def _quick(w) -> bool:
    """Whether :func:`_quick_tricks` may play the current phase of ``w``: a ``tricks`` phase,
    the hand's last (its end scores the hand), whose led top cards name no suit (the one
    choice :meth:`State.play_fast` adds) unless the one loop plays it (:func:`_plain`)."""
    h = w.hand
    phases = w.variant.phases
    spec = phases[h.phase]
    return h.phase == len(phases) - 1 and spec.kind == _tricks.KIND.name and (not h.ctx.top_names_suit or _plain(spec, h.ctx))


def _quick_tricks(w, h, prefs, first: int = -1, score: bool = True) -> None:
    """Play the trick phase of hand ``h`` (``w.hand``) to its end: ``first`` (a card, if
    given) then :func:`greedy_card`'s cards, through the engine's own trick rules
    (``tricks.legal_mask``, ``tricks.play_card``); then score the hand as the engine does
    (``score_played`` with the extras of ``State._finish_hand``) when the phase is the
    hand's last (:func:`_quick`); with ``score`` false the hand is not scored.  The rest of
    ``w`` (sheet, match progress) is left untouched, so one world can play out several
    candidates on copies of its hand."""
    v = w.variant
    legal = _tricks.legal_mask
    play = _tricks.play_card
    if _plain(v.phases[h.phase], h.ctx):
        _plain_tricks(w, h, prefs, first)
        done = True
    else:
        pts = v.points_table(h.ctx)
        done = play(w, first) if first >= 0 else False
    while not done:
        seat = h.to_move
        mask = legal(w, seat)
        done = play(w, _choose(h, mask, prefs[seat], pts) if mask & (mask - 1) else mask.bit_length() - 1)
    if score:
        _score(w, h)


def _score(w, h) -> None:
    """Set the ``entries`` of the played hand ``h`` of world ``w`` as ``State._finish_hand``
    scores it (``score_played`` with the same extras)."""
    v = w.variant
    extra = {"vulnerable": h.vulnerable, "game_score": w.progress.game_score}
    if v.scoring.markers:
        extra["markers"] = w.markers.factors(h.declarer)
    h.entries = score_played(v, h, extra)[1]


def _save(h) -> tuple:
    """What :func:`_plain_tricks` and :func:`_score` change in hand ``h``, for :func:`_restore`
    (cheaper than a copy of the whole hand for each candidate)."""
    return (h.hands[:], h.failed[:], h.won[:], h.won_cards[:], len(h.tricks), len(h.trick_winners), h.trick[:],
            h.leader, h.led_group, h.to_move, h.named, h.parts, h.entries)


def _restore(h, saved: tuple) -> None:
    """Put hand ``h`` back as :func:`_save` found it."""
    (hands, failed, won, won_cards, tricks, winners, trick, h.leader, h.led_group, h.to_move, h.named,
     h.parts, h.entries) = saved
    h.hands[:] = hands
    h.failed[:] = failed
    h.won[:] = won
    h.won_cards[:] = won_cards
    del h.tricks[tricks:]
    del h.trick_winners[winners:]
    h.trick = trick[:]


def greedy_card(w: State, prefs: list[bool]) -> int:
    """A fast policy: a seat that wants tricks wins as cheaply as it can, else throws its
    lowest card; a seat that avoids them plays its highest card that does not win.
    Trick winners are judged by the context's own win keys (the engine's rule)."""
    h = w.hand
    mask = w.legal_play_mask()
    if not mask & (mask - 1):
        return mask.bit_length() - 1
    return _choose(h, mask, prefs[h.to_move], w.variant.points_table(h.ctx))


def _choose(h, mask: int, want: bool, pts) -> int:
    """:func:`greedy_card` among the legal cards ``mask`` (two or more) of hand ``h``."""
    ctx = h.ctx
    if not h.trick:
        return _lead(h, ctx, mask, want, pts)
    keys = ctx.win_keys[h.led_group]
    return _follow(ctx, keys, max(keys[c] for _s, c in h.trick), mask, want, pts)


def _follow(ctx, keys, best: int, mask: int, want: bool, pts) -> int:
    """:func:`_choose` for a seat that does not lead: ``keys`` are the win keys of the led
    group, ``best`` the highest key played to the trick so far."""
    strength = ctx.strength
    # the first of equals in card order wins every choice below (as the engine lists cards)
    if want:  # the cheapest winning card, else the cheapest card: no trump, weakest, fewest points
        win = -1
        m = mask
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            k = keys[c]
            if k > best and (win < 0 or k < keys[win]):
                win = c
        if win >= 0:
            return win
        group_of = ctx.group_of
        tg = ctx.trump_group
        lose = None
        m = mask
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            x = (group_of[c] == tg, strength[c], pts[c])
            if lose is None or x < lose[0]:
                lose = (x, c)
        return lose[1]  # type: ignore[index]
    # a seat avoiding tricks: its most costly card that does not win, else its highest winner
    shed: tuple | None = None
    win = -1
    m = mask
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        k = keys[c]
        if k <= best:
            y = (pts[c], strength[c])
            if shed is None or y > shed[0]:
                shed = (y, c)
        elif shed is None and (win < 0 or k > keys[win]):
            win = c
    return shed[1] if shed is not None else win


def _lead(h, ctx, mask: int, want: bool, pts) -> int:
    """Lead: a master card (the best left of its group) if the seat wants tricks,
    trumps first while it holds the master trump; else a low card of its longest side group."""
    strength = ctx.strength
    group_of = ctx.group_of
    tg = ctx.trump_group
    group_mask = ctx.group_mask
    if want:
        remaining = 0
        for m in h.hands:
            remaining |= m
        side = None
        for g, order in enumerate(ctx.orders):
            if not mask & group_mask[g]:
                continue
            for c in order:  # the best card left of the group
                if remaining >> c & 1:
                    break
            if mask >> c & 1:
                if g == tg:
                    return c
                if side is None or strength[c] > strength[side]:
                    side = c
        if side is not None:
            return side
    side_cards = mask & ~group_mask[tg] if tg is not None else mask
    if not side_cards:
        side_cards = mask
    best = None
    m = side_cards
    if want:  # the weakest card of the longest side group (the first of equals in card order)
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            g = group_of[c]
            x = (-(mask & group_mask[g]).bit_count() if g is not None else -1, strength[c])
            if best is None or x < best[0]:
                best = (x, c)
        return best[1]  # type: ignore[index]
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        x = (strength[c], pts[c])
        if best is None or x < best[0]:
            best = (x, c)
    return best[1]  # type: ignore[index]
