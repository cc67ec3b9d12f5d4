"""Any variant as a PettingZoo AEC environment (``rulekit.env(variant)``; docs/rl.md).

One agent per seat (``player_0`` ...); the agent to act is the seat that decides now
(``State.controller``: the declarer for his dummy). Actions are the fixed numbering of
:class:`~rulekit.rl.actions.ActionTable`; observations the vector of
:class:`~rulekit.rl.encoding.Encoding` with the ``action_mask`` (all 0 for an agent that is not
to act). Rewards come when a deal ends: each seat's change of its score column's total over the
deal (its entries, plus a game or rubber bonus written with it), negated when the variant's lower
scores are better (so that more is always better). An episode is one deal (``episode="hand"``,
the default) or the whole match (``episode="match"``). ``reset(seed=k)`` starts
``State(variant, seed=k)``, so the same seed and the same actions replay the episode exactly
(chance events come from the seed too); :meth:`RulekitEnv.record` is the episode as a game record
``rulekit replay`` reads.
"""
from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from rulekit.engine.scoring import column_of
from rulekit.engine.state import State
from rulekit.errors import RulekitError
from rulekit.records import save, to_record
from rulekit.rl.actions import ActionTable, Decision
from rulekit.rl.encoding import Encoding
from rulekit.variant import load_variant
from rulekit.variant.model import Variant

EPISODES = ("hand", "match")


class RulekitEnv(AECEnv):
    """A variant's match as an AEC environment (see the module docstring).

    :param variant: a compiled :class:`~rulekit.variant.model.Variant`, or an installed id or a
        file path (loaded with ``load_variant``).
    :param episode: ``hand`` (one deal, the default) or ``match``.
    :param max_hands: with ``episode="match"``, the match's cap on deals (default the variant's).
    :param render_mode: ``None`` or ``ansi`` (:meth:`render` returns the acting seat's view as text).
    :raises ValueError: an unknown ``episode`` or ``render_mode``.
    :raises rulekit.errors.VariantError: the variant does not load.
    """

    metadata = {"name": "rulekit_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: Variant | str, episode: str = "hand", max_hands: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)} (got {episode!r})")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi' (got {render_mode!r})")
        self.variant = load_variant(variant) if isinstance(variant, str) else variant
        self.episode, self.max_hands, self.render_mode = episode, max_hands, render_mode
        self.table = ActionTable(self.variant)
        self.encoding = Encoding(self.variant, self.table)
        n = self.variant.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.table.size) for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.table.size,), dtype=np.int8)})
            for a in self.possible_agents}
        self._seeds: random.Random | None = None
        self.state: State | None = None
        self.seed_used: int | None = None   # the seed of the episode in progress

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The ``Dict`` of ``observation`` (a ``Box``) and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``Discrete(n)``, the variant's action numbering."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start an episode: a new match ``State(variant, seed)``; without ``seed`` the next seed
        of the generator seeded by the last given one (or the system's entropy at first)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.seed_used = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            self.seed_used = self._seeds.getrandbits(32)
        # one deal: a match of one deal, over when it ends (a deal thrown in ends it too)
        self.state = State(self.variant, seed=self.seed_used,
                           max_hands=self.max_hands if self.episode == "match" else 1)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.picked = 0
        self.history: list[tuple[int, int, bool]] = []   # (seat, number, seen by others) this hand
        self._start_deal()
        self._chance()
        self._select()

    def _start_deal(self) -> None:
        s = self.state
        assert s is not None
        self._hand_number = s.hand.number
        self._before = s.sheet.totals()
        self.history = []

    def _chance(self) -> None:
        """Apply the phases no player decides (a card turned from a second pack)."""
        s = self.state
        assert s is not None
        while not s.is_over and s.kind is not None and s.kind.role == "chance":
            seat, a = s.to_move, s.legal_actions()[0]
            s.apply(a)
            if a.card >= 0:
                self.history.append((seat, a.card, True))
            self._deal_end()

    def _deal_end(self) -> None:
        """After an action: the rewards and the next deal's start when the deal is over."""
        s = self.state
        assert s is not None
        if not any(self.terminations.values()) and (s.is_over or s.hand.number != self._hand_number):
            self._end_deal()

    def _select(self) -> None:
        """The agent to act now, its decision and the infos."""
        s = self.state
        assert s is not None
        if s.is_over or not self.agents:
            self._decision = None
            return
        actor = s.controller(s.to_move)
        self.agent_selection = self.possible_agents[actor]
        self._decision = self.table.decision(s.legal_actions(), self.picked)
        for a in self.agents:
            self.infos[a] = {"legal": dict(self._decision.texts)} if a == self.agent_selection else {}
            self.infos[a]["seat_to_move"] = s.to_move

    def decision(self) -> Decision | None:
        """The decision of the agent to act (legal numbers and their actions), or ``None`` when
        the episode is over."""
        return self._decision

    def step(self, action: int | None) -> None:
        """Apply number ``action`` for the agent to act; a terminated agent steps ``None``.

        :raises ValueError: a number that is not legal now (the action mask says which are).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s, d = self.state, self._decision
        assert s is not None and d is not None
        if action is None or not 0 <= int(action) < self.table.size or not d.mask[int(action)]:
            raise ValueError(f"action {action} is not legal now (legal: {sorted(d.actions)})")
        number = int(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        chosen = d.actions[number]
        seat = s.to_move
        if chosen is None:              # one more card of a discard under way
            self.picked |= 1 << number
            self._select()
            return
        if chosen.kind == "discard":
            for c in range(self.table.cards):
                if chosen.cards >> c & 1:
                    self.history.append((seat, c, False))
        else:
            self.history.append((seat, number, True))
        self.picked = 0
        s.apply(chosen)
        self._deal_end()
        self._chance()
        self._select()
        self._accumulate_rewards()

    def _end_deal(self) -> None:
        """Rewards of the deal just ended; the end of the episode."""
        s = self.state
        assert s is not None
        after = s.sheet.totals()
        sign = -1.0 if self.variant.scoring.lower_is_better else 1.0
        for a, seat in self.agent_seat.items():
            col = column_of(self.variant, seat)
            self.rewards[a] = sign * float(after[col] - self._before[col])
        if s.is_over or self.episode == "hand":
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._start_deal()

    # ------------------------------------------------------------------ views
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The ``observation`` vector of ``agent``'s seat and its ``action_mask``."""
        s = self.state
        assert s is not None, "reset() first"
        seat = self.agent_seat[agent]
        obs = s.observation(seat)
        seen = [(who, k) for who, k, public in self.history if public or who == seat]
        mine = agent == self.agent_selection and self._decision is not None
        vec = self.encoding.encode(obs, seen, self.picked if mine else 0)
        mask = np.array(self._decision.mask if mine and self._decision else (0,) * self.table.size, dtype=np.int8)
        return {"observation": vec, "action_mask": mask}

    def action_text(self, number: int) -> str:
        """What ``number`` means, for people (``card QS``, ``pass``, ``7H``)."""
        return self.table.text(number)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the acting seat's cards and the legal actions, as text."""
        if self.render_mode is None or self.state is None:
            return None
        s = self.state
        if s.is_over or self._decision is None:
            return f"over: totals {s.sheet.totals()}"
        seat = self.agent_seat[self.agent_selection]
        hand = " ".join(s.variant.deck.names_of(s.observation(seat).hand))
        return f"{self.agent_selection} ({s.phase_kind}) holds {hand}; legal: " + ", ".join(self._decision.texts.values())

    def record(self) -> dict[str, Any]:
        """The episode so far as a game record (``rulekit replay`` reads it; records.py)."""
        if self.state is None:
            raise RulekitError("no episode yet: reset() first")
        return to_record(self.state)

    def save_record(self, path: str) -> None:
        """Write :meth:`record` to ``path`` (atomically, as ``rulekit play --save`` does)."""
        save(path, self.record())

    def close(self) -> None:
        """Nothing to release."""


def env(variant: Variant | str, **options: Any) -> RulekitEnv:
    """A PettingZoo AEC environment playing ``variant`` (options: :class:`RulekitEnv`)."""
    return RulekitEnv(variant, **options)
