"""The phase-kind seam is closed: outside ``rulekit/engine/phases/`` no code names a phase kind;
the CLI, scoring and the docs ask the kind through its hooks (DESIGN.md "The engine's seam").

The scan finds, over ``rulekit/`` and ``cli/``, a kind's name used as a string (as
``/work/shared/hooks/before-stop`` does; ``deal`` and ``tricks`` are also common
words of the field, so for them only a comparison with a ``kind`` is a hit) and a kind's name
compared with ``.kind``, ``.name``, ``phase_kind`` or ``get("kind")``, or given to
``variant.phase(...)`` / ``kind_of(...)``.  A comparison of ``.role`` with a role word
(``deal``, ``auction``, ``play``...) names a category, not a kind.

The hook tests below check the words each kind gives on small made-up or shipped variants.
"""
from __future__ import annotations

import ast
import io
import pathlib
import random

import pytest

from rich.console import Console

from rulekit.cli.game import Game
from rulekit.cli.render import (contract_text, exchange_text, hand_header, hand_summary, made_text, prompt_label,
                                 table_view)
from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases.base import PhaseKind, Said
from rulekit.engine.scoring import player_envs
from rulekit.sheets.scorepad import FactError, ScorePad
from rulekit.variant import load_variant
from tests.helpers import TRICK_TOY, load_text

ROOT = pathlib.Path(__file__).resolve().parents[1]
COMMON = {"deal", "tricks"}
KIND_ATTRS = {"kind", "name", "phase_kind"}

#: hits in modules other work is moving to hooks now (path -> kind words); remove an entry when
#: its module asks the kind instead.  Any other hit fails.
KNOWN: dict[str, set] = {}


def _names_kind_attr(node: ast.AST) -> bool:
    """``x.kind``, ``kind``, ``x.phase_kind``, ``x.name``, ``d.get("kind")``."""
    if isinstance(node, ast.Attribute):
        return node.attr in KIND_ATTRS
    if isinstance(node, ast.Name):
        return node.id in KIND_ATTRS
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind")


def _strings(node: ast.AST) -> list:
    """The string constants of ``node`` itself or of a tuple, list or set literal."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [x.value for x in items if isinstance(x, ast.Constant) and isinstance(x.value, str)]


def kind_words(source: str) -> list:
    """``(line, word)`` for each place ``source`` names a registered phase kind (module doc)."""
    kinds = set(REGISTRY)
    roles = {k.role for k in REGISTRY.values()}
    tree = ast.parse(source)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    hits = []
    for n in ast.walk(tree):
        if (isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
                and n.value in kinds - COMMON):
            hits.append((n.lineno, n.value))
        elif isinstance(n, ast.Compare):
            sides = [n.left, *n.comparators]
            by_kind = any(_names_kind_attr(x) for x in sides)
            by_role = any(isinstance(x, ast.Attribute) and x.attr == "role" for x in sides)
            for x in sides:
                for w in _strings(x):
                    if w in COMMON & kinds and (by_kind or (by_role and w not in roles)):
                        hits.append((n.lineno, w))
        elif isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name)):
            fn = n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id
            if fn in ("phase", "kind_of"):
                hits += [(n.lineno, w) for a in n.args for w in _strings(a) if w in COMMON & kinds]
    return sorted(set(hits))


def test_the_scan_finds_kind_names_and_not_role_words():
    """The scan's own rules, on a few lines: a kind's name as a string, compared with ``.kind``, or
    passed to ``phase()``; not a role word compared with ``.role``, nor a docstring."""
    src = '''
def f(spec, variant, h):
    """Reads pass_cards data."""
    a = h.phase_state.get("order_up")
    b = spec.kind == "tricks"
    c = variant.phase("deal")
    d = spec.role == "deal"
    e = "tricks" in ("tricks", "points")
'''
    assert kind_words(src) == [(4, "order_up"), (5, "tricks"), (6, "deal")]


def test_no_phase_kind_is_named_outside_its_module():
    """Outside ``rulekit/engine/phases/``, code never names a phase kind (the modules of
    :data:`KNOWN` excepted, with only the words listed there)."""
    found = {}
    for top in ("rulekit", "cli"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith("rulekit/engine/phases/"):
                continue
            words = {w for _line, w in kind_words(path.read_text(encoding="utf-8"))} - KNOWN.get(rel, set())
            if words:
                found[rel] = sorted(words)
    assert found == {}


# ---------------------------------------------------------------------- the kinds' words
def plain(renderable) -> str:
    buf = io.StringIO()
    Console(file=buf, width=160, color_system=None).print(renderable)
    return buf.getvalue()


def test_hooks_have_defaults_that_say_nothing():
    """A kind that overrides no screen hook: its label (or its name in words), no header words,
    no contract words, no discards, no words of its own, no rows, no hand variables."""
    class Bare(PhaseKind):
        name = "bare_kind"
    k = Bare()
    assert k.prompt_label(None) == "bare kind"
    assert (k.header(None, None, None), k.made(None, None, None), k.discards(None, None, None),
            k.said(None, None, None, 0, "high", []), k.seat_rows(None, []), k.hand_variables(None, None)) == \
        ([], None, 0, None, [], {})


def test_a_deal_by_hand_sizes_fixes_total_tricks_each_deal():
    """A ``deal`` with ``hand_sizes`` (Oh Hell: 1 card to each player in deal 1, then 2, 3...)
    gives ``total_tricks`` of that deal to every column's formulas."""
    v = load_variant("ohhell")
    s = State(v, seed=2)
    rng = random.Random(0)
    sizes = []
    while len(sizes) < 3:
        h = s.hand
        while s.hand is h:
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])
        sizes.append({e.vars["total_tricks"] for e in player_envs(s.rules_of(h.number), h)})
        assert REGISTRY["deal"].hand_variables(v.phases[0], h) == {"total_tricks": h.dealt[0].bit_count()}
    assert sizes == [{1}, {2}, {3}]


def test_order_up_says_its_word_in_the_prompt_and_the_contract():
    """Belote's order-up is said ``take``: the prompt label of the first round, and the contract
    row ``P takes J♥, trumps ♥``; the dealer's second round names trumps."""
    v = load_variant("belote")
    s = State(v, seed=5)
    assert prompt_label(s) == "take"
    card = s.variant.deck.pretty(s.observation(0).phase_data["turned"])
    s.apply("take")
    h = s.hand
    made = REGISTRY["order_up"].made(v.phases[1], h, v)
    assert made == Said(h.declarer, f"takes {card}, trumps {card[-1]}", f"take {card}, trumps {card[-1]}")
    assert plain(made_text(s, h)).strip() == f"{s.names[h.declarer]} takes {card}, trumps {card[-1]}"


def test_passing_direction_in_the_header_the_table_and_the_story():
    """Hearts' passing (left, right, across, hold): the header says ``passing to the left``, the
    passer's table where his cards go, and the story who passed how many to whom."""
    v = load_variant("hearts")
    s = State(v, seed=1)
    assert "passing to the left" in plain(hand_header(s, s.hand))
    seat = s.to_move
    to = s.names[v.next_seat(seat)]
    assert f"passing to the left (to {to})" in plain(table_view(s, seat))
    a = s.legal_actions()[0]
    s.apply(a)
    assert plain(exchange_text(s, s.hand, a.text, seat, reveal=False)).strip() == \
        f"{s.names[seat]} passes 3 cards to the left (to {to})"


def test_a_high_or_low_choice_is_said_in_the_story():
    """Bid Whist's no trump leaves the order to the declarer: ``chooses low: the lowest cards
    win`` in the ``--auto`` story, from the name_trump kind's words."""
    v = load_variant("bidwhist")
    rng = random.Random(3)
    for seed in range(60):
        s = State(v, seed=seed)
        h = s.hand
        while s.hand is h and not s.is_over:
            legal = s.legal_actions()
            low = [a for a in legal if a.text == "low"]
            s.apply(low[0] if low else legal[int(rng.random() * len(legal))])
        if ("low" in [a for _s, a in h.actions]):
            seat = next(x for x, a in h.actions if a == "low")
            story = [plain(t).strip() for t in hand_summary(s, h, [])]
            assert f"{s.names[seat]} chooses low: the lowest cards win" in story
            return
    raise AssertionError("no deal where a declarer chose low")


def test_the_table_depends_only_on_what_the_seat_may_know():
    """The table of a seat is the same in every world consistent with its observation (the
    hidden cards dealt again at random): nothing on it depends on a card it cannot see (Five
    Hundred, Euchre, Bridge; random play, every seat)."""
    for vid in ("fivehundred", "euchre", "bridge"):
        v = load_variant(vid)
        s = State(v, seed=4)
        rng = random.Random(4)
        for step in range(40):
            for seat in range(v.players):
                world = s.observation(seat).sample_world(random.Random(step))
                world.names = list(s.names)
                assert plain(table_view(world, seat)) == plain(table_view(s, seat)), (vid, step, seat)
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])


def _same_screen_in_every_world(s: State, steps: int, seed: int) -> None:
    """For ``steps`` random actions of ``s``: each seat's table, and its diagram of the hands it
    sees, are the same in a world sampled from its observation."""
    from rulekit.cli.render import seen_diagram
    rng = random.Random(seed)
    v = s.variant
    for step in range(steps):
        if s.is_over:
            return
        for seat in range(v.players):
            world = s.observation(seat).sample_world(random.Random(step))
            world.names = list(s.names)
            assert plain(table_view(world, seat)) == plain(table_view(s, seat)), (v.id, step, seat)
            assert plain(seen_diagram(world, seat)) == plain(seen_diagram(s, seat)), (v.id, step, seat)
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])


def test_the_new_rows_depend_only_on_what_the_seat_may_know():
    """The rows of a domino layout (who laid what, who passed, cards held), of a pile, the running
    tallies of a round (hearts taken) and a partnership's target are the same in every world
    sampled from the seat's observation (King's rounds; Boston with a partner for the hand)."""
    rng = random.Random(2)
    s = State(load_variant("king"), seed=2)
    seen = set()
    while not s.is_over and len(seen) < 4:
        name = s.variant.round_name
        if name in ("no hearts", "no girls", "running total", "jacks domino") and name not in seen:
            seen.add(name)
            _same_screen_in_every_world(s, 14, len(seen))
            continue
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    assert len(seen) == 4
    b = State(load_variant("boston"), seed=1)
    while b.kind.role != "play":
        texts = [a.text for a in b.legal_actions()]
        if b.kind.role == "auction":
            six = [t for t in texts if t.startswith("6")]
            b.apply(six[0] if six and not b.hand.high else "pass")
        else:
            b.apply("invite" if "invite" in texts else "accept" if "accept" in texts else texts[0])
    assert b.hand.partner >= 0
    _same_screen_in_every_world(b, 20, 9)


def test_a_prompt_for_the_dummy_says_so():
    """The prompt label is the kind's (``play``), with ``from dummy N`` when the declarer plays
    the dummy's cards."""
    v = load_variant("bridge")
    for seed in range(40):
        s = State(v, seed=seed)
        while s.phase_kind != "tricks" and not s.is_over:
            s.apply("pass" if s.hand.calls else "1C")
        h = s.hand
        if s.is_over or h.dummy < 0:
            continue
        while s.to_move != h.dummy:
            s.apply(s.legal_actions()[0])
        g = Game(s, ["human"] * 4, Console(file=io.StringIO()))
        assert g.prompt(h.declarer).endswith(f"(play from dummy {s.names[h.dummy]}) > ")
        return
    raise AssertionError("no bridge deal with a dummy")


def test_trumps_not_named_yet_until_the_declarer_names_them():
    """Five Hundred's 10T ([A4]: ten tricks, trumps named after the widow): the contract reads
    ``trumps not named yet`` (the name_trump kind's words) until the declarer names them."""
    s = State(load_variant("fivehundred"), seed=1)
    for call in ("10NT", "10T", "pass", "pass"):
        s.apply(call)
    h = s.hand
    assert plain(contract_text(s, h)).strip() == f"10T by {s.names[h.declarer]}, trumps not named yet"
    s.apply(s.legal_actions()[0])            # the widow exchange's discard
    s.apply("trump H")
    assert plain(contract_text(s, h)).strip() == f"10T by {s.names[h.declarer]}, trumps ♥"


# ---------------------------------------------------------------------- the kinds' scorepad answers
def test_pad_hooks_have_defaults_that_change_nothing():
    """A kind that overrides no scorepad hook makes no trumps, no trump is surely played, it asks
    nothing before the contract, leaves a contract's value as it is and has no hand size of its own."""
    class Bare(PhaseKind):
        name = "bare_kind"
    k, v = Bare(), load_variant("whist")
    assert (k.pad_trump_choices(None, v, None), k.pad_trump_played(None, v),
            k.pad_contract_question(None, v, ()), k.pad_contract(None, v, "7H", {}), k.hand_size(None, 3)) == \
        (None, "", None, "7H", None)


def test_the_trumps_a_scorepad_asks_come_from_the_kind_that_makes_them():
    """The trumps asked of the scorer: a turned card, any suit (Whist [K1]); the dealer's naming,
    his choices (declared Whist [K2]); an order-up, any suit (Euchre); fixed trumps, nothing to
    ask (Spades); a 10T, its declarer's choices, and 6S none: spades (Five Hundred [A4]); the
    first card led, any suit whatever the contract (Pitch)."""
    def choices(vid, contract=None):
        pad = ScorePad(load_variant(vid))
        return pad._trump_choices(pad._contract({"contract": contract}))
    assert choices("whist") == choices("whist-declared") == ("C", "D", "H", "S")
    assert choices("euchre") == ("S", "H", "D", "C")
    assert choices("spades") == ()
    assert (choices("fivehundred", "10T"), choices("fivehundred", "6S")) == (("S", "C", "D", "H"), ())
    assert choices("pitch") == choices("pitch", "3") == ("S", "H", "D", "C")


def test_the_last_phase_that_makes_trumps_decides_them_on_the_pad():
    """A turned card makes trumps, then the dealer names them: the pad asks the dealer's choices
    (spades or no trump), as his naming overrides the turned card in play."""
    phases = ("  turn: {kind: turn_up}\n  name: {kind: name_trump, choices: [S, NT], by: dealer}\n"
              "  play: {kind: tricks}")
    text = TRICK_TOY.replace("  play: {kind: tricks%(play)s}", phases) % {"scoring": '  each: "tricks"'}
    assert ScorePad(load_text(text))._trump_choices(None) == ("S", "NT")


def test_a_trump_surely_played_refuses_no_one_holding_the_highest():
    """When the first card led makes trumps, a trump is always played: Pitch's pad refuses
    "-" as the holder of High, with the kind's reason."""
    pad = ScorePad(load_variant("pitch"))
    assert pad._trump_played() == "the first card led made trumps, so a trump was in play"
    high = next(t for t in pad.rules.scoring.tallies if t.name == "high")
    with pytest.raises(FactError, match=r"someone held it \(the first card led made trumps"):
        pad._answer_holder(high, "-", {})


def test_a_second_pack_card_values_the_contracts_on_the_pad():
    """Boston's contracts are worth by the suit class of the card turned from the second pack
    ([D2]): the pad asks the first suit before the contract, refuses a non-suit, and values 5H
    at 3 with hearts first, 2 with diamonds (hearts second), 1 with spades (hearts third)."""
    pad = ScorePad(load_variant("boston"))
    q = pad.next_question({})
    assert (q.name, q.prompt) == ("first_suit", "first suit")
    with pytest.raises(FactError, match="'Z' is not a suit"):
        pad.answer(q, "Z", {})
    facts: dict = {}
    pad.answer(q, "h", facts)
    assert facts == {"first_suit": "H"}
    assert [pad._contract({"contract": "5H", "first_suit": s}).value for s in "HDS"] == [3, 2, 1]


def test_the_deal_gives_the_hand_size_of_each_deal_on_the_pad():
    """Oh Hell's ``hand_sizes`` 1, 2, 3...: deal 3 has 3 cards each; a deal without a schedule
    has no size of its own (the pad uses the variant's 13)."""
    v = load_variant("ohhell")
    assert [REGISTRY["deal"].hand_size(v.phases[0], n) for n in range(3)] == [1, 2, 3]
    w = load_variant("whist")
    assert REGISTRY["deal"].hand_size(w.phases[0], 3) is None and ScorePad(w).hand_size() == 13
