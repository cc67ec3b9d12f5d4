"""The bots' policy for ``trick_bids``: bid the tricks the bot expects in sampled worlds;
blind nil when far behind; nil only where it is safe and pays."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.sensible import capped, playout
from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.phases import trick_bids
from rulekit.engine.phases.trick_bids import BLIND, LOOK, column_of, column_values
from rulekit.engine.scoring import entries_for, envs_for

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation

NIL_SAFE = 0.75   # a bot bids a nil that is a stake of its own only if it took no trick in this share of worlds


@policy(trick_bids.KIND)
def bid_tricks(bot: SensibleBot, obs: Observation) -> Action | None:
    """Undecided on blind nil (without seeing its cards): blind nil only when its column is
    behind by 200 points or more, else look.  In the exchange the blind bidder passes his
    highest cards, his partner his lowest.  A bid: the legal bid nearest the tricks the
    bot expects in worlds sampled from its observation (:func:`sample_tricks`): the one with
    the least mean |bid - tricks| over them (their median; 0 when it takes no trick in
    half of them or more).  Where the formulas make nil a stake of its own (a made nil
    wins, a failed one loses, more than twice what one trick bid does), nil also needs no
    trick in :data:`NIL_SAFE` of the worlds and to score at least as well as the nearest
    other bid (:func:`bid_worth`).  The legal bids keep to the hand size and the dealer's
    hook."""
    if LOOK in obs.legal:
        col = column_of(obs.variant, obs.seat)
        others = [t for c, t in enumerate(obs.totals) if c != col]
        mates = [b for b in obs.phase_data.get("blind", ()) if column_of(obs.variant, b) == col]
        return BLIND if others and max(others) - obs.totals[col] >= 200 and not mates else LOOK
    if obs.legal and obs.legal[0].kind == "discard":
        v = obs.variant
        ctx = v.contexts.get(obs.trump) or v.contexts["NT"]
        k = obs.legal[0].cards.bit_count()
        high = obs.seat in obs.phase_data.get("blind", ())
        cards = sorted(bits(obs.hand), key=lambda c: -ctx.strength[c] if high else ctx.strength[c])[:k]
        return Action.discard(v.deck, sum(1 << c for c in cards))
    bids = [a for a in obs.legal if a.kind == "bid" and a.bid.isdigit()]
    if not bids:
        return None
    worlds = sample_tricks(obs, bot.rng, max(16, bot.bid_samples))
    won = [w[obs.seat] for w in worlds]
    mean = sum(won) / len(won)
    best = min(bids, key=lambda a: (sum(abs(int(a.bid) - t) for t in won), abs(int(a.bid) - mean)))
    others = [a for a in bids if a.bid != "0"]
    if best.bid == "0" and others:
        # where nil is a stake of its own (Spades: 100 won or lost, against 10 a trick) it must
        # pay by the variant's formulas and be safe in three worlds out of four (the bots' card
        # play is no expert at keeping out of tricks)
        other = min(others, key=lambda a: sum(abs(int(a.bid) - t) for t in won))
        one = [[1 if s == obs.seat else 0 for s in range(obs.variant.players)]]
        none = [[0] * obs.variant.players]
        stake = bid_worth(obs, 0, none) - bid_worth(obs, 0, one)
        if stake > 2 * (bid_worth(obs, 1, one) - bid_worth(obs, 1, none)) and (
                won.count(0) < NIL_SAFE * len(won) or
                bid_worth(obs, 0, worlds) < bid_worth(obs, int(other.bid), worlds)):
            return other
    return best


def sample_tricks(obs: Observation, rng: random.Random, samples: int) -> list[list[int]]:
    """The tricks of each seat in each of ``samples`` worlds sampled from the observation
    ``obs`` (:meth:`~rulekit.engine.observation.Observation.sample_world`: the seat's own cards,
    the others' dealt at random from the cards it has not seen), the bidding finished at once
    and the hand played out by the bots' fast policy (:func:`rulekit.bots.sensible.playout`)
    with every player trying to win tricks.  Fair: it reads nothing hidden from the seat.

    :param rng: the bot's own random source.
    :returns: per world, the tricks per seat.
    """
    out = []
    for _ in range(samples):
        w = capped(obs.sample_world(rng))
        h0 = w.hand
        guard = 0
        while w.hand is h0 and not w.is_over and w.kind is not None and w.kind.role != "play" and guard < 64:
            legal = w.legal_actions()
            if legal[0].kind == "discard":   # a lazy choice of cards: one at random, built alone
                w.apply_unchecked(legal[int(rng.random() * len(legal))])
            else:
                bid = [a for a in legal if a.kind == "bid" and a.bid.isdigit()]
                w.apply_unchecked(LOOK if LOOK in legal else bid[0] if bid else legal[0])  # the bids do not change play here
            guard += 1
        playout(w, [True] * obs.variant.players, h0)
        out.append(list(h0.won))
    return out


def bid_worth(obs: Observation, bid: int, worlds: list[list[int]]) -> float:
    """The mean entry of the seat's score column, by the variant's formulas, if it bids ``bid``
    and each world of ``worlds`` (tricks per seat, as :func:`sample_tricks` gives) is the
    outcome, with the bids made so far; its partners who have not bid yet are left out (the
    sign flipped when lower scores are better)."""
    v = obs.variant
    n = v.players
    me = column_of(v, obs.seat)
    said = obs.phase_data.get("bids") or [-1] * n
    blind = obs.phase_data.get("blind", [])
    total = 0.0
    for won in worlds:
        bids = list(said)
        bids[obs.seat] = bid
        envs = envs_for(v, None, -1, obs.trump, won, [0] * n,
                        {"totals": obs.totals, "deal_number": obs.hand_number + 1, "dealer": obs.dealer})
        for env, values in zip(envs, column_values(v, bids, blind, won)):
            env.vars.update(values)
        total += entries_for(v, None, -1, envs)[me]
    return (-total if v.scoring.lower_is_better else total) / len(worlds)
