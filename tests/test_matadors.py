"""Matadors (``scoring.matadors``), promises of a contract (``promises``) and games refused
because they cannot reach the bid (``announce``'s ``declare_if`` / ``otherwise``), on made-up
games: the run of top trumps held or lacked (docs/rules/skat.md [SK-V3]), counted with a called
partner's cards (tests/data/partners/runs.yaml, Schafkopf's runs), the best case over an unseen
zone, and the validation of misused options at their line and column."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine import State
from rulekit.engine.phases import matadors
from rulekit.errors import VariantError
from rulekit.variant import check_file, load_variant
from tests.helpers import explicit_order, load_text, mask

RUNS = str(Path(__file__).parent / "data" / "partners" / "runs.yaml")
NUMBER_WHIST = Path(__file__).parent / "data" / "values" / "number-whist.yaml"


def test_a_run_held_or_lacked():
    """[SK-V3] "with n": the top trump held and the n - 1 below it; "without n": the top n lacked."""
    order = (5, 4, 3, 2, 1)
    assert matadors.run(order, 1 << 5 | 1 << 4 | 1 << 2) == (2, True)
    assert matadors.run(order, 1 << 2) == (3, False)
    assert matadors.run(order, 0) == (5, False)
    assert matadors.run((), 0b111) == (0, False)          # no trumps (a null): none


def test_the_best_case_over_an_unseen_zone():
    """An unseen zone of two cards may fill two gaps of the run ("with"), or hold cards off it
    ("without"); the declarer's own cards fix the rest."""
    order = (5, 4, 3, 2, 1, 0)
    everything = (1 << 8) - 1
    held = 1 << 5 | 1 << 3
    assert matadors.best_run(order, held, everything & ~held, 2) == 4     # 5, 4 from it, 3, 2 from it
    assert matadors.best_run(order, 1 << 0, everything & ~1, 2) == 5     # without: 5 down to 1
    assert matadors.best_run(order, 1 << 0, 1 << 5 | 1 << 4, 2) == 2     # no cards left off the run: with 2


def _runs_deal() -> State:
    v = load_variant(RUNS)
    hands = ["QC QS JD 7C 8C 9C KS 7S", "QH AC 10C KC 8S 9S AS 10S", "QD JC JS JH AH 10H KH 9H",
             "8H 7H AD 10D KD 9D 8D 7D"]
    s = State(v, seed=0, deals=[explicit_order(v, 3, [h.split() for h in hands])], dealer=3)
    for a in ("game", "pass", "pass", "pass", "call AC"):
        s.apply(a)
    return s


def test_runs_count_the_partners_cards():
    """``side: party``: the declarer's Q♣ Q♠ and his partner's Q♥ make a run of three, which
    the declarer alone (two) would not have; the scoring adds 10 a card from three on."""
    s = _runs_deal()
    v = s.variant
    assert s.hand.partner == 1
    assert matadors.exact(v, s.hand) == (3, True)
    h = s.hand
    while s.hand is h:
        s.apply(s.legal_actions()[0])
    done = s.hand_log[-1]
    won = done.entries[0] > 0
    base = (20 + 10 * 3)
    assert done.entries == ([base, base, -base, -base] if won else [-base, -base, base, base])


def test_the_scorepad_asks_the_matadors():
    """The scorepad asks "with N / without N" for a contract with trumps and refuses a count
    above the contract's trumps."""
    from rulekit.sheets.scorepad import FactError, ScorePad
    v = load_variant("skat")
    pad = ScorePad(v)
    facts: dict = {}
    answers = {"contract": "grand", "declarer": pad.names[0]}
    while (q := pad.next_question(facts)) is not None and q.name != "matadors":
        text = answers.get(q.name) or {"phase:auction:bid": "24", "phase:skat:hand": "no"}.get(q.name, "")
        pad.answer(q, text, facts)
    assert q is not None and "1 to 4" in q.help
    with pytest.raises(FactError):
        pad.answer(q, "with 5", facts)
    pad.answer(q, "without 2", facts)
    assert facts["matadors"] == "without 2"


def _errors(tmp_path, text: str) -> list[str]:
    p = tmp_path / "toy.yaml"
    p.write_text(text)
    return [f"{d.line}:{d.column}: {d.message}" for d in check_file(str(p))]


def _number_whist(**changes) -> str:
    text = NUMBER_WHIST.read_text()
    for old, new in changes.items():
        assert old.replace("_", " ") in text or old in text
        text = text.replace(old, new)
    return text


def test_declare_if_refuses_games_below_the_bid(tmp_path):
    """``declare_if`` over a contract's variables and the bid: at bid 20 only the games worth 20
    or more may be named (the misère, the slam being for a hand game), and a single one is named at
    once; when none may, one of ``otherwise``."""
    text = NUMBER_WHIST.read_text().replace("  announce:\n    kind: announce\n",
                                             "  announce:\n    kind: announce\n    declare_if: \"value >= bid\"\n"
                                             "    otherwise: [clubs]\n")
    v = load_text(text)
    s = State(v, seed=3)
    s.apply("20")          # the second player bids to the first
    s.apply("pass")
    s.apply("pass")        # the third passes: the bidder declares at 20
    s.apply("take")
    s.apply(s.legal_actions()[0])
    assert s.hand.contract.text == "misere"           # the only one: announced at once
    s = State(v, seed=3)
    for a in ("36", "pass", "pass", "take"):
        s.apply(a)
    s.apply(s.legal_actions()[0])
    assert s.hand.contract.text == "clubs"            # none reaches 36: the only one of otherwise


def test_misused_options_are_refused_at_their_line(tmp_path):
    """An unknown zone of matadors, a party without a partner phase, ``otherwise`` without
    ``declare_if`` or naming no contract: each refused at its line and column."""
    base = NUMBER_WHIST.read_text()
    bad = base.replace("scoring:\n", "scoring:\n  matadors: {zones: [widdow], side: party}\n", 1)
    errs = _errors(tmp_path, bad)
    assert any("the deal makes no zone widdow" in e and "widow" in e for e in errs), errs
    assert any("side: party" in e and "call_partner" in e for e in errs), errs
    bad = base.replace("  announce:\n    kind: announce\n", "  announce:\n    kind: announce\n    otherwise: [clubz]\n")
    errs = _errors(tmp_path, bad)
    assert any("needs declare_if" in e for e in errs), errs
    bad = base.replace("  announce:\n    kind: announce\n",
                       "  announce:\n    kind: announce\n    declare_if: \"value >= bid\"\n    otherwise: [clubz]\n")
    errs = _errors(tmp_path, bad)
    line = next(i for i, x in enumerate(bad.splitlines(), 1) if "otherwise" in x)
    assert any(e.startswith(f"{line}:") and "unknown contract clubz" in e and "clubs" in e for e in errs), errs
    bad = base.replace("value: 30, hand: true}", "value: 30, hand: true, promises: [Big]}")
    assert _errors(tmp_path, bad)
    with pytest.raises(VariantError):
        load_text(base.replace("scoring:\n", "scoring:\n  matadors: {zones: [widdow]}\n", 1))
