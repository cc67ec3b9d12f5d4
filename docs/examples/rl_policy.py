"""A simple policy written against rulekit's observation tensors, against random play.

    python docs/examples/rl_policy.py [VARIANT] [--hands N]

Seats 0 and 2 (one side at whist) play "win the trick when you can, cheaply": among the legal
cards, the cheapest that beats the cards of the trick so far, else the cheapest card; any other
decision is the first legal number. Seats 1 and 3 pick uniformly among the legal numbers. It
reads only the vector and the action mask (docs/rl.md) and the variant's public rules (which card
beats which: ``Context.win_keys``). Every hand starts from its own seed; it prints the mean
difference of the hand entries (policy seat 0 minus random seat 1) with its 95 % interval.
"""
from __future__ import annotations

import argparse

import numpy as np
from scipy import stats

import rulekit


def greedy(env, obs: dict) -> int:
    """The cheapest legal card that wins the trick so far, else the cheapest legal card."""
    legal = np.flatnonzero(obs["action_mask"])
    v, enc = env.variant, env.encoding
    n, p, o = v.deck.size, v.players, enc.offset
    cards = [int(k) for k in legal if k < n]
    if not cards:
        return int(legal[0])
    vec = obs["observation"]
    strains = (*v.deck.suits, "NT")
    trump = [s for i, s in enumerate(strains) if vec[o["trump"] + i]]
    contexts = v.low_contexts if vec[o["low"]] and v.low_contexts else v.contexts
    ctx = contexts.get(trump[0] if trump else "NT") or next(iter(contexts.values()))
    trick = vec[o["trick"]:o["trick"] + p * n].reshape(p, n)
    leader = int(np.argmax(vec[o["leader"]:o["leader"] + p])) if trick.any() else 0
    played = [int(np.flatnonzero(trick[leader])[0])] if trick.any() else []
    played += [int(c) for r in range(p) if r != leader for c in np.flatnonzero(trick[r])]
    cheap = sorted(cards, key=lambda c: ctx.strength[c])
    if not played:
        return cheap[0]
    keys = ctx.win_keys[ctx.group_of[played[0]]]
    best = max(keys[c] for c in played)
    winners = [c for c in cheap if keys[c] > best]
    return winners[0] if winners else cheap[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="whist")
    parser.add_argument("--hands", type=int, default=1000)
    args = parser.parse_args()
    env = rulekit.env(args.variant)
    rng = np.random.default_rng(0)
    diffs = []
    for hand in range(args.hands):
        env.reset(seed=hand)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _info = env.last()
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            seat = env.agent_seat[agent]
            env.step(greedy(env, obs) if seat % 2 == 0 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        diffs.append(total["player_0"] - total["player_1"])
    d = np.array(diffs)
    mean, sem = d.mean(), stats.sem(d)
    low, high = stats.t.interval(0.95, len(d) - 1, loc=mean, scale=sem) if sem > 0 else (mean, mean)
    print(f"{args.variant}: {len(d)} hands; hand entries, policy seat 0 minus random seat 1: "
          f"{mean:+.3f} (95 % interval {low:+.3f} to {high:+.3f})")


if __name__ == "__main__":
    main()
