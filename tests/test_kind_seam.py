"""The seam between the phase kinds and the engine: the facade ``Table`` the kinds see, each
kind's own data object, and the one declared cache of a compiled variant."""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from rulekit.engine import State
from rulekit.engine.hand import Hand, KindData
from rulekit.engine.phases import REGISTRY, kind_of
from rulekit.engine.phases.table import Table
from rulekit.variant import load_variant


@dataclass
class _Toy(KindData):
    n: int = 0
    seats: list[int] = field(default_factory=list)
    said: dict[int, str] = field(default_factory=dict)
    held: tuple[int, ...] = ()


def test_kind_data_clone_copies_its_lists_dicts_and_sets():
    """``clone`` gives an object of the same class whose lists, dicts and sets are its own."""
    a = _Toy(1, [1, 2], {0: "pass"}, (3,))
    b = a.clone()
    b.n, b.seats[0], b.said[1] = 5, 9, "bid"
    assert (a.n, a.seats, a.said) == (1, [1, 2], {0: "pass"})
    assert type(b) is _Toy and b.held is a.held


def test_a_hand_clone_clones_every_kinds_data():
    """``Hand.clone`` clones each kind's data object: changing the copy's leaves the hand's."""
    h = Hand(0, 0, 3)
    h.phase_state["toy"] = _Toy(seats=[0])
    c = h.clone()
    c.phase_state["toy"].seats.append(1)
    assert h.phase_state["toy"].seats == [0] and c.phase_state["toy"] is not h.phase_state["toy"]


def test_a_sampled_world_never_changes_the_games_kind_data():
    """A bot's world (``Observation.sample_world``) played on leaves the real game's data of the
    kinds in progress as it was (Spades: the trick bids)."""
    s = State(load_variant("spades"), seed=4)
    rng = random.Random(1)
    s.apply(s.legal_actions()[-1])
    kind = REGISTRY[s.phase_kind]
    before = dataclasses.asdict(kind.data_of(s.hand))
    w = s.observation(s.to_move).sample_world(rng)
    while w.phase_kind == s.phase_kind:
        w.apply(w.legal_actions()[0])
    assert dataclasses.asdict(kind.data_of(s.hand)) == before


def test_every_kinds_data_is_a_kind_data_object():
    """In every shipped variant's first hand, played at random to its end, each kind's data is a
    ``KindData`` read back through its kind (``data_of``)."""
    from rulekit.engine.playout import random_hand
    from rulekit.variant import builtin_ids
    for vid in builtin_ids():
        s = State(load_variant(vid), seed=2)
        random_hand(s, random.Random(2))
        h = s.hand_log[0]
        for name, d in h.phase_state.items():
            assert isinstance(d, KindData) and kind_of(name).data_of(h) is d, (vid, name)


def test_the_state_provides_every_member_of_the_facade():
    """``State`` implements each member of ``Table`` (what a kind may read and do)."""
    s = State(load_variant("fivehundred"), seed=1)
    members = [m for m in vars(Table) if not m.startswith("_")] + list(Table.__annotations__)
    assert {"set_trump", "throw_in", "partner_of", "score_envs", "hand", "variant"} <= set(members)
    assert all(hasattr(s, m) for m in members)
    assert not hasattr(kind_of("tricks"), "bot_act")   # strategy lives in rulekit/bots/policies/


def test_the_variant_cache_builds_each_table_once_and_a_new_variant_starts_empty():
    """``Variant.cached(key, build)`` builds a table on first use only; ``dataclasses.replace``
    (a new variant) starts with an empty cache, never the old one's tables."""
    v = load_variant("whist")
    calls = []
    assert v.cached("test.table", lambda: calls.append(1) or {"x": 1}) == {"x": 1}
    assert v.cached("test.table", lambda: calls.append(1) or {}) == {"x": 1}
    assert calls == [1]
    w = dataclasses.replace(v, name="copy")
    assert "test.table" not in w.cache and w.cache is not v.cache
    v.cache.pop("test.table")
