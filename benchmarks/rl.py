"""Environment steps per second: rulekit.env against OpenSpiel's Python API on the same games.

    python benchmarks/rl.py [--seconds S] [--games bridge,spades,hearts]

A step is one decision of a player (chance events such as OpenSpiel's dealing are applied but
not counted), random among the legal actions, episodes of one deal (bridge: the auction and the
play; OpenSpiel's bridge is a deal of duplicate scoring, ours of rubber scoring: the same
decisions; OpenSpiel plays the cards, not its double-dummy result). Two rows per library: with the acting player's observation tensor at every step
(what a learning agent reads; rulekit through PettingZoo's ``last()``), and without it (the
rules alone). Times are this process's CPU time (``time.process_time``; both libraries run in it),
so a machine shared with other work slows neither row. OpenSpiel rows are printed when ``open_spiel`` is installed (``pip install
open_spiel``); its hearts has no observation tensor (its information-state tensor is used).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

try:  # an installed rulekit (pip install -e '.[rl]') wins; else run from the checkout
    import rulekit.variants  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import rulekit  # noqa: E402

GAMES = {"bridge": "bridge(use_double_dummy_result=false)", "spades": "spades", "hearts": "hearts"}   # rulekit id -> OpenSpiel name


def rulekit_steps(vid: str, seconds: float, observe: bool) -> tuple[float, int]:
    """Decisions per second of ``rulekit.env(vid)``; and the episodes played."""
    env = rulekit.env(vid)
    rng = random.Random(0)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=episodes)
        episodes += 1
        for _agent in env.agent_iter():
            if observe:
                obs, _r, term, trunc, _i = env.last()
                mask = obs["action_mask"]
            else:
                _o, _r, term, trunc, _i = env.last(observe=False)
                d = env.decision()
                mask = d.mask if d is not None else ()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start), episodes


def spiel_steps(name: str, seconds: float, observe: bool) -> tuple[float, int]:
    """Decisions per second of OpenSpiel's ``name`` through pyspiel; and the episodes played."""
    import pyspiel
    game = pyspiel.load_game(name)
    kind = game.get_type()
    tensor = ("observation_tensor" if kind.provides_observation_tensor else
              "information_state_tensor" if kind.provides_information_state_tensor else None)
    rng = random.Random(0)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        episodes += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if observe and tensor:
                np.asarray(getattr(state, tensor)(state.current_player()))
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.process_time() - start), episodes


def main() -> None:
    parser = argparse.ArgumentParser(description="environment steps per second")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
        spiel = True
    except ImportError:
        spiel = False
        print("open_spiel is not installed: rulekit rows only (pip install open_spiel)")
    print(f"{'game':8} {'library':10} {'observation':12} {'steps/s':>9} {'episodes':>9}")
    for vid in args.games.split(","):
        for observe in (True, False):
            rate, eps = rulekit_steps(vid, args.seconds, observe)
            print(f"{vid:8} {'rulekit':10} {'yes' if observe else 'no':12} {rate:9.0f} {eps:9}")
            if spiel and vid in GAMES:
                rate, eps = spiel_steps(GAMES[vid], args.seconds, observe)
                print(f"{vid:8} {'OpenSpiel':10} {'yes' if observe else 'no':12} {rate:9.0f} {eps:9}")


if __name__ == "__main__":
    main()
