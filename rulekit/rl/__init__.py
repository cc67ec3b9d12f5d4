"""Reinforcement-learning environments over any variant (the ``rl`` extra: ``pip install
'rulekit[rl]'`` brings PettingZoo, Gymnasium and NumPy; docs/rl.md).

>>> import rulekit
>>> env = rulekit.env("whist")             # doctest: +SKIP
>>> env.reset(seed=1)                      # doctest: +SKIP

:func:`env` builds a :class:`~rulekit.rl.aec.RulekitEnv` (a PettingZoo ``AECEnv``);
:class:`~rulekit.rl.actions.ActionTable` numbers a variant's actions and
:class:`~rulekit.rl.encoding.Encoding` lays out the observation vector. The rest of rulekit never
imports this package (it is the top layer, ``rulekit.LAYERS``).
"""
from rulekit.rl.actions import ActionTable, Decision
from rulekit.rl.aec import RulekitEnv, env
from rulekit.rl.encoding import Encoding

__all__ = ["ActionTable", "Decision", "Encoding", "RulekitEnv", "env"]
