"""A phase kind is one module.

The toy kind below lives only in this test module: ``declare_points``, where each
player in turn, from the eldest hand, says a number 0..``max`` (``declare 2``) that
scoring formulas read as the variable ``declared``.  It is registered with
:func:`rulekit.engine.phases.register`, used by a made-up variant written as YAML
text, played, refused with reasons, rejected with file:line:col at compile time,
and removed again - without touching any other file.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from rulekit.bots import RandomBot, SensibleBot
from rulekit.engine import Action, State
from rulekit.engine.hand import KindData
from rulekit.engine.phases import REGISTRY, PhaseKind, PhaseSpec, canonical, kind_of, register, unregister
from rulekit.errors import IllegalActionError, InvalidActionError, VariantError
from rulekit.schemas import base_schema, composed_schema
from rulekit.variant import load_variant
from rulekit.variant.loader import schema


@dataclass(frozen=True)
class DeclareSpec(PhaseSpec):
    most: int


@dataclass
class Declared(KindData):
    """What each player declared so far, and how many have spoken."""

    said: list[int] = field(default_factory=list)
    turns: int = 0


class DeclarePoints(PhaseKind):
    """Each player in turn declares 0..most points."""

    name = "declare_points"
    schema = {"description": "Each player in turn declares a number of points.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {"kind": True,
                             "max": {"description": "The most a player may declare.", "type": "integer",
                                     "minimum": 0}}}
    label = "declare"
    example = "declare: {kind: declare_points, max: 3}"

    def compile(self, c, name, p, path):
        most = p.get("max", 3)
        if most > 9:
            c.err(path + ("max",), f"at most 9 points can be declared (found {most})")
            return None
        return DeclareSpec(self.name, name, most)

    def variables(self, spec):
        return {"declared": (0, spec.most)}

    def values(self, variant, hand, spec):
        return [{"declared": d} for d in self.data_of(hand).said]

    def start(self, state):
        h = state.hand
        h.phase_state[self.name] = Declared([0] * state.variant.players)
        h.to_move = h.eldest
        return True

    def legal(self, state):
        return [Action("declare", f"declare {k}") for k in range(state.current_phase.most + 1)]

    def check(self, state, action):
        if action.kind != "declare":
            raise IllegalActionError(f"declare a number of points now (0 to {state.current_phase.most})")
        k = int(action.text.split()[1])
        if k > state.current_phase.most:
            raise IllegalActionError(f"you may declare at most {state.current_phase.most}, not {k}")

    def apply(self, state, action):
        h = state.hand
        d = self.data(state)
        d.said[h.to_move] = int(action.text.split()[1])
        d.turns += 1
        h.to_move = (h.to_move + 1) % state.variant.players
        return d.turns == state.variant.players

    def parse(self, text, state):
        words = text.split()
        if len(words) == 2 and words[0].lower() == "declare" and words[1].isdigit():
            return Action("declare", f"declare {int(words[1])}")
        return None

    def help_line(self, spec, variant):
        return f"declare N (0 to {spec.most})"

    def observe(self, state, seat):
        return {"declared": list(self.data(state).said)}

    def describe(self, spec):
        return f"Each player in turn declares 0 to {spec.most} points."


TOY = """id: declare-toy
name: Declare toy
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "4 4"}
  declare: {kind: declare_points, max: %s}
  play: {kind: tricks}
scoring:
  each: "tricks + 10 * declared"
match:
  deals: 1
"""


@pytest.fixture
def toy(tmp_path):
    """The toy kind registered for one test (removed afterwards), and a writer of variants."""
    kind = register(DeclarePoints())

    def write(most="3", text=TOY):
        f = tmp_path / "declare-toy.yaml"
        f.write_text(text % most, encoding="utf-8")
        return f

    yield write
    unregister(kind.name)


def test_toy_kind_plays_a_made_up_variant(toy):
    """A kind defined in a test module plays a variant written as YAML text:
    eldest (seat 1) declares first; the declarations reach the observation, the help, the
    prompt label and the score (``tricks + 10 * declared``)."""
    v = load_variant(str(toy()))
    s = State(v, seed=7)
    assert s.phase_kind == "declare_points" and s.to_move == 1
    assert [a.text for a in s.legal_actions()] == ["declare 0", "declare 1", "declare 2", "declare 3"]
    with pytest.raises(IllegalActionError, match="you may declare at most 3, not 5"):
        s.apply("declare 5")
    with pytest.raises(IllegalActionError, match=r"declare a number of points now \(0 to 3\)"):
        s.apply("pass")
    s.apply("declare 2")
    s.apply("DECLARE 0")
    assert s.observation(1).phase_data == {"declared": [0, 2, 0]}
    s.apply("declare 3")
    assert s.phase_kind == "tricks"
    assert s.history[:3] == [(1, "declare 2"), (2, "declare 0"), (0, "declare 3")]
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    won = s.hand_log[0].won
    assert s.result()["totals"] == [won[0] + 30, won[1] + 20, won[2]]

    from cli.game import help_text
    from cli.render import phase_label
    assert "declare N (0 to 3)" in help_text(v)
    assert phase_label("declare_points") == "declare"


def test_toy_kind_bots_and_clone(toy):
    """Bots play a kind with no role (at random) to the end; a clone's phase data is its own."""
    v = load_variant(str(toy()))
    s = State(v, seed=3)
    c = s.clone()
    c.apply("declare 3")
    assert kind_of("declare_points").data_of(s.hand).said == [0, 0, 0]
    bots = [SensibleBot(seed=1, samples=2, bid_samples=2), RandomBot(2), RandomBot(3)]
    while not s.is_over:
        seat = s.controller(s.to_move)
        s.apply(bots[seat].act(s.observation(seat)))
    assert s.winners


def test_a_policy_registered_for_the_kind_chooses_for_the_bots(toy):
    """A bots' policy registered for the kind (``rulekit.bots.policies.policy``) makes the bot's
    choice in its phases: here it always declares the most; the kind itself holds no strategy."""
    from rulekit.bots.policies import POLICIES, policy

    kind = kind_of("declare_points")

    @policy(kind)
    def declare_most(bot, obs):
        return obs.legal[-1]
    try:
        with pytest.raises(ValueError, match="already has a bot policy"):
            policy(kind)(lambda bot, obs: None)
        v = load_variant(str(toy()))
        s = State(v, seed=3)
        bot = SensibleBot(seed=1, samples=2, bid_samples=2)
        while s.phase_kind == "declare_points":
            s.apply(bot.act(s.observation(s.to_move)))
        assert kind.data_of(s.hand).said == [3, 3, 3]
    finally:
        POLICIES.pop(kind.name, None)


def test_toy_kind_in_schema_and_compile_errors(toy):
    """The schema accepts the kind only while it is registered; its own keys are checked by
    its block; its compile errors carry file:line:col."""
    assert "declare_points" in schema()["$defs"]["phase"]["properties"]["kind"]["enum"]
    with pytest.raises(VariantError) as e:
        load_variant(str(toy("12")))
    assert str(e.value).splitlines()[0].endswith(
        "declare-toy.yaml:13:40: phases.declare.max: at most 9 points can be declared (found 12)")
    with pytest.raises(VariantError) as e:
        load_variant(str(toy("3, loud: true")))
    assert "declare-toy.yaml:13:" in str(e.value) and "unknown key 'loud'" in str(e.value)
    with pytest.raises(VariantError) as e:  # a formula may read the kind's variable only with the kind
        load_variant(str(toy("3", TOY.replace("declare: {kind: declare_points, max: %s}\n", "#%s\n"))))
    assert "declared" in str(e.value)


def test_unregistered_kind_is_refused(tmp_path):
    """Without the kind, the same file fails the schema with the known kinds listed."""
    f = tmp_path / "declare-toy.yaml"
    f.write_text(TOY % "3", encoding="utf-8")
    with pytest.raises(VariantError) as e:
        load_variant(str(f))
    assert str(e.value).endswith("declare-toy.yaml:13:19: phases.declare.kind: 'declare_points' is not allowed "
                                 f"(expected one of: {', '.join(REGISTRY)})")
    assert "declare_points" not in REGISTRY


def test_register_refuses_a_second_kind_of_the_same_name():
    class Other(DeclarePoints):
        name = "tricks"
    with pytest.raises(ValueError, match="already registered"):
        register(Other())
    assert kind_of("tricks").role == "play"


def test_a_kind_keeps_reading_its_former_words(toy):
    """A kind renamed keeps its former ``kind:`` word as an alias: a file written with it compiles
    to the kind (and an alias is dropped with its kind); a word another kind holds is refused."""
    class Renamed(DeclarePoints):
        name = "declare_score"
        aliases = ("declare_points_old",)
    kind = register(Renamed())
    try:
        path = toy(text=TOY.replace("kind: declare_points", "kind: declare_points_old"))
        assert [p.kind for p in load_variant(str(path)).phases][1] == "declare_score"

        class Thief(DeclarePoints):
            name = "thief"
            aliases = ("layout",)
        with pytest.raises(ValueError, match="'layout' is already registered"):
            register(Thief())
    finally:
        unregister(kind.name)
    assert canonical("declare_points_old") == "declare_points_old"


def test_a_renamed_kind_leaves_the_hash_of_files_using_it(toy):
    """A file's hash (which records carry) is taken with each kind written as its oldest word, so
    renaming a kind (its former word kept as an alias) does not make saved records refuse it."""
    before = load_variant(str(toy("3"))).hash   # the kind as it was first named: declare_points
    unregister("declare_points")

    class Renamed(DeclarePoints):
        name = "declare_score"
        aliases = ("declare_points",)
    kind = register(Renamed())
    try:
        path = toy(text=TOY.replace("kind: declare_points", "kind: declare_score"))
        assert load_variant(str(path)).hash == before
    finally:
        unregister(kind.name)
        register(DeclarePoints())   # the fixture unregisters it


def test_shipped_schema_holds_no_phase_blocks():
    """The file holds no phase blocks; the composed schema has one per registered kind."""
    base = base_schema()["$defs"]
    assert not [k for k in base if k.startswith("phase_")]
    composed = composed_schema()["$defs"]
    assert sorted(k[len("phase_"):] for k in composed if k.startswith("phase_")) == sorted(REGISTRY)
    assert composed["phase"]["properties"]["kind"]["enum"] == list(REGISTRY)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_builtin_kind_describes_itself_and_its_example_compiles(tmp_path, name):
    """Each built-in kind has a label, a help-free or helpful line, an example that is a valid
    phase entry, and a one-sentence describe() of its compiled spec."""
    import yaml
    kind = REGISTRY[name]
    assert kind.example and kind.schema.get("description")
    entry = next(iter(yaml.safe_load(kind.example).values()))
    assert entry["kind"] == name
    for vid in ("fivehundred", "bridge", "whist", "whist-declared", "rams", "ohhell", "preferans", "boston", "king", "hearts", "spades", "euchre"):
        v = load_variant(vid)
        spec = v.phase(name) or next((r.phase(name) for r in v.rounds if r.phase(name)), None)
        if spec is not None:
            text = kind.describe(spec)
            assert text.endswith(".") and text[0].isupper() and "\n" not in text
            break
    else:
        pytest.fail(f"no shipped variant uses {name}")
