"""Any variant as a PettingZoo AEC environment (rulekit.env, docs/rl.md): PettingZoo's own API
and seed tests for every shipped variant and the every-kind compendium, the fixed action
numbering, observation vectors blind to hidden cards, rewards from the sheet, records that
replay. Skipped without the ``rl`` extra."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import rulekit  # noqa: E402
from rulekit import records  # noqa: E402
from rulekit.engine import State  # noqa: E402
from rulekit.engine.phases import REGISTRY  # noqa: E402
from rulekit.engine.phases.exchange import DiscardChoices  # noqa: E402
from rulekit.rl import ActionTable, Encoding  # noqa: E402
from rulekit.variant import builtin_ids, load_variant  # noqa: E402
from tests.helpers import runner  # noqa: E402
from tests.kinds.test_every_kind import _swap_unseen, hosted, started  # noqa: E402,F401  (started: a fixture)

ROOT = Path(__file__).resolve().parent.parent
EVERY_KIND = str(ROOT / "tests" / "data" / "every-kind.yaml")
#: made-up games of partners by a card, announcements and bids of a value
MADE_UP = sorted(str(p) for d in ("partners", "values") for p in (ROOT / "tests" / "data" / d).glob("*.yaml"))
VARIANTS = list(builtin_ids()) + [EVERY_KIND] + MADE_UP


def _ids(v: str) -> str:
    return Path(v).stem


def play(env, seed: int, choose=lambda obs, legal: legal[0]) -> dict:
    """Play one episode of ``env`` from ``seed``; the summed rewards per agent."""
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(choose(obs, np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids)
def test_pettingzoo_api(variant):
    """PettingZoo's api_test passes (a few cycles per variant; more in the slow test)."""
    api_test(rulekit.env(variant), num_cycles=12)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=_ids)
def test_pettingzoo_api_long(variant):
    """api_test over many cycles, in match episodes too."""
    api_test(rulekit.env(variant), num_cycles=400)
    api_test(rulekit.env(variant, episode="match", max_hands=3), num_cycles=400)


@pytest.mark.parametrize("variant", ["fivehundred", "bridge", "king", EVERY_KIND], ids=_ids)
def test_pettingzoo_seed(variant):
    """PettingZoo's seed_test: two environments reset with one seed step alike."""
    seed_test(lambda: rulekit.env(variant), num_cycles=40)


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids)
def test_every_legal_action_is_numbered(variant):
    """Random masked play to the end of three deals: every legal action of every kind has its
    number, and a number applies exactly its action."""
    env = rulekit.env(variant)
    rng = np.random.default_rng(5)
    for seed in range(3):
        play(env, seed, lambda obs, legal: rng.choice(legal))
        assert env.state.is_over and env.state.hands_played + env.state.thrown_in >= 1


def test_numbering_cards_then_words():
    """Numbers 0..N-1 are the pack's cards in deck order, then each word once: fivehundred's
    bids, pass, its trump choices and the Joker led at no trump naming a suit ([T4])."""
    v = load_variant("fivehundred")
    table = ActionTable(v)
    assert table.cards == v.deck.size == 33
    assert [table.text(i) for i in (0, 32)] == [f"card {v.deck.name(0)}", f"card {v.deck.name(32)}"]
    assert table.words[0] == "pass" and "10NT" in table.words and "trump H" in table.words
    assert "play JK S" in table.words
    assert len(set(table.words)) == len(table.words) == table.size - 33
    with pytest.raises(IndexError):
        table.text(table.size)


def test_a_restricted_discard_picks_only_the_free_choice_and_applies_the_forced_cards():
    """A restricted discard ([TA-K3]: trumps only when the other cards fall short) that forces
    some cards offers picks among the rest only, and the last pick applies the whole discard,
    forced cards included, which is one of the legal discards."""
    v = load_variant("tarot")
    table = ActionTable(v)
    deck = v.deck
    forced = sum(1 << c for c in range(4))            # the plain cards, all to be discarded
    pool = sum(1 << c for c in range(20, 26))          # two of these to make up six
    legal = DiscardChoices(deck, pool, 2, forced)
    first = table.decision(legal)
    assert {i for i, x in enumerate(first.mask) if x} == set(range(20, 26))
    second = table.decision(legal, 1 << 20)
    full = second.actions[21]
    assert full is not None and full.cards == forced | 1 << 20 | 1 << 21 and full in legal


def test_a_discard_is_chosen_one_card_at_a_time():
    """The declarer's three discards after the widow ([W2]) are three picks: each pick masks the
    cards already chosen, and the third applies ``discard A B C``."""
    env = rulekit.env("fivehundred")
    env.reset(seed=3)
    s = env.state
    while s.kind.name != "widow_exchange":
        obs, *_ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        words = [n for n in legal if env.action_text(n) != "pass"]
        env.step(int(words[0] if s.kind.role == "auction" and not s.hand.calls else legal[0]))
        if env.terminations[env.agent_selection]:
            pytest.skip("passed out")
    seat = s.hand.declarer
    held = s.hand.hands[seat]
    assert held.bit_count() == 13
    chosen = []
    for k in range(3):
        obs, *_ = env.last()
        legal = set(np.flatnonzero(obs["action_mask"]))
        assert legal == {c for c in range(33) if held >> c & 1} - set(chosen)
        chosen.append(min(legal))
        env.step(chosen[-1])
        if k < 2:
            assert obs["observation"][env.encoding.offset["picked"] + chosen[0]] == (1.0 if k else 0.0)
    assert s.hand.discards == sum(1 << c for c in chosen)
    assert s.history[-1] == (seat, "discard " + " ".join(v for v in s.variant.deck.names_of(s.hand.discards)))


@pytest.mark.parametrize("variant", ["whist", "fivehundred", "bridge", "hearts"])
def test_observation_blind_to_hidden_cards(variant):
    """Swapping unplayed cards between two other seats' hidden hands leaves the seat's vector
    unchanged (its action mask too)."""
    env = rulekit.env(variant)
    rng = np.random.default_rng(1)
    for seed in range(6):
        env.reset(seed=seed)
        s = env.state
        steps = 0
        while not s.is_over and (s.kind.role != "play" or len(s.hand.tricks) < 2 or steps % 3):
            obs, *_ = env.last()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        if s.is_over:
            continue
        me = env.agent_seat[env.agent_selection]
        o = s.observation(me)
        hidden = [x for x in range(s.variant.players) if x != me and not o.hands_seen[x] and s.hand.hands[x]]
        a, b = hidden[:2]
        before = env.observe(env.agent_selection)
        pool = [s.hand.hands[x] & s.hand.dealt[x] & o.unseen() for x in (a, b)]   # dealt to them, unseen
        ca, cb = (m & -m for m in pool)
        for h in (s.hand.hands, s.hand.dealt):
            h[a] ^= ca | cb
            h[b] ^= ca | cb
        after = env.observe(env.agent_selection)
        assert s.hand.hands[a] & cb and s.hand.hands[b] & ca
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])
        return
    pytest.fail("no deal reached trick play")


def test_vector_holds_the_seats_facts():
    """The vector's segments read the observation: own hand, the trick in progress by relative
    seat, the phase, the totals with the seat's own column first."""
    env = rulekit.env("whist", episode="match")
    env.reset(seed=2)
    s = env.state
    for _ in range(2):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    agent = env.agent_selection
    me = env.agent_seat[agent]
    vec = env.observe(agent)["observation"]
    enc, n, p = env.encoding, s.variant.deck.size, s.variant.players
    o = enc.offset
    assert [c for c in range(n) if vec[o["hand"] + c]] == sorted(s.hand_cards(me))
    for seat, card in s.hand.trick:
        assert vec[o["trick"] + ((seat - me) % p) * n + card] == 1.0
    assert vec[o["leader"] + (s.hand.trick[0][0] - me) % p] == 1.0
    assert vec[o["phase"] + enc.phase_names.index(s.current_phase.name)] == 1.0
    assert vec[o["to_move"]] == 1.0
    assert enc.size == len(vec) == sum(int(np.prod(shape)) for _n, shape, _m in enc.segments)


def test_rewards_are_the_deals_entries():
    """Each agent's reward over a deal is its score column's entry on the sheet (whist by side;
    hearts negated, since its lower scores are better)."""
    for variant in ("whist", "hearts"):
        env = rulekit.env(variant)
        rewards = play(env, 4)
        v, row = env.variant, env.state.sheet.rows[0]
        sign = -1 if v.scoring.lower_is_better else 1
        for agent, seat in env.agent_seat.items():
            col = v.side_of[seat] if v.scoring.by_side else seat
            assert rewards[agent] == sign * row.entries[col]
        assert any(rewards.values())


def test_match_episode_sums_every_deal():
    """With episode="match" the rewards of all deals add up to the final totals."""
    env = rulekit.env("whist", episode="match", max_hands=3)
    rewards = play(env, 1)
    s = env.state
    assert s.is_over and 1 <= s.hands_played <= 3 and len(s.sheet.rows) >= 1
    for agent, seat in env.agent_seat.items():
        assert rewards[agent] == s.sheet.totals()[env.variant.side_of[seat]] - s.sheet.start[0]


def test_same_seed_same_episode():
    """The same seed and the same numbers replay an episode exactly (deals, chance events)."""
    a, b = rulekit.env("boston"), rulekit.env("boston")
    ra, rb = play(a, 11), play(b, 11)
    assert ra == rb and a.state.history == b.state.history and a.state.chance == b.state.chance


def test_record_replays(tmp_path):
    """An episode's record replays through records.replay and `rulekit replay`."""
    env = rulekit.env("fivehundred")
    play(env, 7)
    path = tmp_path / "episode.json"
    env.save_record(str(path))
    rec = records.load(path)
    state = records.replay(rec)
    assert state.history == env.state.history and state.sheet.totals() == env.state.sheet.totals()
    from rulekit.cli.app import app
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["seed"] == env.seed_used


def test_bad_input_is_refused():
    """An illegal number and an unknown option are refused with a message."""
    env = rulekit.env("whist")
    env.reset(seed=0)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        env.step(bad)
    with pytest.raises(ValueError, match="episode"):
        rulekit.env("whist", episode="rubber")


def test_the_core_never_imports_the_extra():
    """Importing rulekit and its engine loads no pettingzoo or gymnasium; ``rulekit.env`` does."""
    code = ("import sys, rulekit, rulekit.engine.state, rulekit.cli.app\n"
            "assert not {'pettingzoo', 'gymnasium'} & set(sys.modules), 'loaded early'\n"
            "rulekit.env\nassert 'pettingzoo' in sys.modules\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_encoding_is_built_from_the_variant_alone():
    """Two states of one variant, far apart, share the layout (it reads no hand)."""
    v = load_variant("king")
    e1, e2 = Encoding(v, ActionTable(v)), Encoding(v, ActionTable(v))
    assert e1.segments == e2.segments and e1.size == e2.size
    assert len(e1.phase_names) >= 3   # the rounds' phases (trick play, a pile, a layout...)
    State(v, seed=1)   # (a state is not needed to build it)


def test_docs_show_the_encoding():
    """docs/rl.md prints Five Hundred's layout as Encoding.markdown() gives it today."""
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    table = text.split("<!-- encoding: fivehundred -->\n", 1)[1].split("<!-- end encoding -->", 1)[0]
    assert table == rulekit.env("fivehundred").encoding.markdown(), "regenerate the table of docs/rl.md"


def test_readme_three_line_script():
    """The README's three-line script steps a shipped variant to its end with random masked
    actions."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    script = text.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(script.strip().splitlines()) == 3
    scope: dict = {}
    exec(compile(script, "README.md", "exec"), scope)
    assert scope["env"].state.is_over and not scope["env"].agents


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_every_kind_numbered_and_blind(tmp_path, kind, started):
    """Every registered kind's example, hosted in a made-up variant (tests/kinds/test_every_kind.py):
    masked random play through the environment numbers every legal action and plays the
    example's phase, and at every step a seat's vector is unchanged when cards it cannot see are
    swapped between the other seats' hidden places; api_test passes."""
    v, seed = hosted(tmp_path, kind, started)
    env = rulekit.env(v, episode="match")
    rng, picks = random.Random(7), np.random.default_rng(7)
    swaps = 0
    for k in range(seed, seed + 6):
        started.clear()
        env.reset(seed=k)
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            s = env.state
            for seat in range(v.players):
                t = _swap_unseen(s, seat, rng)
                if t is not None:
                    seen = [(w, n) for w, n, public in env.history if public or w == seat]
                    assert np.array_equal(env.encoding.encode(t.observation(seat), seen),
                                          env.encoding.encode(s.observation(seat), seen)), (kind, seat)
                    swaps += 1
            env.step(int(picks.choice(np.flatnonzero(obs["action_mask"]))))
        if started.get(kind):
            break
    assert started.get(kind) and swaps > 0
    api_test(env, num_cycles=6)


def test_a_chance_event_of_a_later_deal_is_in_its_history():
    """In a match episode the card turned from the second pack at the start of each deal (Boston's
    suit classes) is in that deal's history of the turner, seen by every seat."""
    env = rulekit.env("boston", episode="match", max_hands=3)
    env.reset(seed=2)
    hands = set()
    for agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        s = env.state
        if s.hand.number not in hands:
            hands.add(s.hand.number)
            turned = [(seat, text) for k, seat, text in s.chance if k == s.hand.number] or \
                [(seat, text) for seat, text in s.hand.actions if text.startswith("turn ")]
            (seat, text), = turned
            card = s.variant.deck.parse(text.split()[1])
            assert (seat, card, True) in env.history
            vec = obs["observation"]
            me, p, a = env.agent_seat[agent], s.variant.players, env.table.size
            assert vec[env.encoding.offset["history"] + ((seat - me) % p) * a + card] == 1.0
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert len(hands) >= 2


def test_example_policy_runs():
    """docs/examples/rl_policy.py plays its policy against random play and prints the mean
    difference with its interval."""
    out = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / "rl_policy.py"), "whist", "--hands", "12"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "whist: 12 hands; hand entries, policy seat 0 minus random seat 1:" in out.stdout
    assert "95 % interval" in out.stdout
