"""The ``defence`` kind on small made-up variants: defenders follow or pass, the double chain,
soups written against the declarer, and ``unplayed_choice`` (when nobody plays against the
declarer he chooses the hand counted as made or a marker for himself)."""
from __future__ import annotations

import pytest

from rulekit.bots.policies import policy_for
from rulekit.engine import State
from rulekit.engine.phases import REGISTRY, kind_of
from rulekit.errors import IllegalActionError, RulekitError
from rulekit.sheets.render import sheet_text
from rulekit.sheets.scorepad import FactError, ScorePad
from rulekit.variant.compiler import compile_variant
from rulekit.variant.explain import explain
from rulekit.variant.loader import resolve
from tests.helpers import variant_from



def test_defence_double_chain_and_soups(step_toy):
    """Defenders follow, one doubles, the declarer redoubles; soups are written against him."""
    s = State(step_toy, seed=2, dealer=0)
    s.apply("blind")                       # seat 1, first turn: no talon
    s.apply("pass")
    s.apply("pass")
    assert s.phase_kind == "announce"
    s.apply("blind-high")
    for t in ("follow", "follow", "double", "redouble"):
        s.apply(t)
    assert kind_of("defence").data_of(s.hand).level == 2
    while s.hand.number == 0:
        s.apply(s.legal_actions()[0])
    row = s.sheet.rows[0]
    assert row.entries[1] == -(2 + 1) * 4
    assert all(a["target"] == 1 for a in row.against)
    assert "Final result" in sheet_text(s.sheet, step_toy)

TOY = """id: choice-toy
name: Choice toy
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "4, widow 3 down, 3"}
  bidding:
    kind: step_auction
    contracts: [{call: low, level: 1, strain: S}, {call: high, level: 2, strain: H}]
  widow: {kind: widow_exchange, discard: 3}
  say: {kind: announce}
  defend: {kind: defence, chain: [double], skips: [play], unplayed_choice: {marker: star, contracts: [low]}}
  play: {kind: tricks}
scoring:
  lower_is_better: true
  start: 10
  markers: {star: {max: 1, factor: 3}}
  declarer: "-level * kontra * star"
  defender: "0"
match: {sum_at_most: 0, final: "total"}
sheet: {layout: bula}
"""


@pytest.fixture
def toy(tmp_path):
    return variant_from(tmp_path, "toy.yaml", TOY)


def _declare(s: State, contract: str) -> None:
    """The eldest bids 1 (2 for high), the others pass, he discards and announces ``contract``."""
    s.apply("1")
    if contract == "high":
        s.apply("pass")
        s.apply("pass")
    else:
        s.apply("pass")
        s.apply("pass")
    s.apply(s.legal_actions()[0])
    s.apply(contract)


def test_both_pass_the_declarer_chooses_made_or_the_marker(toy):
    """Both defenders pass a low: the declarer (seat 1) is asked made or star; made counts the
    hand as made (-1 x1); star writes one open star for him alone and the row changes nothing."""
    s = State(toy, seed=2, dealer=0)
    _declare(s, "low")
    s.apply("pass")
    s.apply("pass")
    assert s.to_move == 1 and [a.text for a in s.legal_actions()] == ["made", "star"]
    with pytest.raises(IllegalActionError, match="say made or star"):
        s.apply("pass")
    t = s.clone()
    t.apply("made")
    assert t.sheet.rows[-1].entries == [0, -1, 0] and t.markers.marks["star"] == [[], [], []]
    s.apply("star")
    row = s.sheet.rows[-1]
    assert row.entries == [0, 0, 0] and row.void
    assert row.marks == [{"marker": "star", "column": 1, "state": "new"}]
    assert row.note == "low not played: star for P1"
    assert s.markers.marks["star"] == [[], ["open"], []] and s.hand.number == 1


def test_the_marker_multiplies_his_next_contract_and_its_limit_removes_the_choice(toy):
    """The star taken is used when he next declares (x3: high -2 x 3 = -6) and marked passed;
    with ``max: 1`` reached he is not asked again: the low counts as made (-1)."""
    s = State(toy, seed=2, dealer=0)
    _declare(s, "low")
    for t in ("pass", "pass", "star"):
        s.apply(t)
    # hand 2: dealer 1, eldest 2; seat 2 passes, seat 0 passes, seat 1 bids
    s.apply("pass")
    s.apply("pass")
    s.apply("1")
    assert s.hand.declarer == 1
    s.apply(s.legal_actions()[0])
    s.apply("high")
    s.apply("follow")
    s.apply("follow")
    s.apply("pass")   # no double
    while s.hand.number == 1:
        s.apply(s.legal_actions()[0])
    row = s.sheet.rows[-1]
    assert row.entries[1] == -6 and row.marks == [{"marker": "star", "column": 1, "state": "passed"}]
    s.markers.marks["star"][0] = ["passed"]   # seat 0 has had his one star: no room
    s.apply("1")                              # hand 3: dealer 2, eldest 0
    s.apply("pass")
    s.apply("pass")
    s.apply(s.legal_actions()[0])
    s.apply("low")
    s.apply("pass")
    s.apply("pass")
    assert s.hand.number == 3 and s.sheet.rows[-1].entries == [-1, 0, 0]


def test_words_bot_explain_and_unknown_marker(toy, tmp_path):
    """The words parse and show in the help line; explain says it; the bot takes the marker
    without an open one and made with one; a marker not in scoring.markers is refused at
    compile time with its place."""
    kind = REGISTRY["defence"]
    spec = next(p for p in toy.phases if p.name == "defend")
    assert kind.help_line(spec, toy).endswith("; nobody plays: made or star")
    assert "When nobody plays against a low, the declarer chooses" in explain(toy)
    s = State(toy, seed=2, dealer=0)
    _declare(s, "low")
    s.apply("pass")
    s.apply("pass")
    assert s.parse_action("star").text == "star" and s.parse_action("made").text == "made"
    obs = s.observation(1)
    assert obs.phase_data["choice"] and obs.phase_data["markers_open"] == {"star": 0}
    choose = policy_for(kind.name)
    assert choose(None, obs).text == "star"
    obs.phase_data["markers_open"] = {"star": 1}
    assert choose(None, obs).text == "made"
    bad = tmp_path / "bad.yaml"
    bad.write_text(TOY.replace("marker: star,", "marker: moon,"))
    with pytest.raises(RulekitError, match=r"bad.yaml:\d+:\d+.*'moon' is not a marker of scoring.markers "
                                           r"\(expected one of star\)"):
        compile_variant(resolve(str(bad)))


def test_scorepad_asks_the_choice(toy):
    """`rulekit score`: both passed a low, the pad asks the declarer's choice; star writes his
    star and nothing else; his next high counts x3; a wrong word is refused."""
    pad = ScorePad(toy)
    f = {"contract": "low", "declarer": 1}
    pad.answer(pad.next_question(f), "pass pass", f)
    q = pad.next_question(f)
    assert (q.name, q.prompt) == ("phase:defend:choice", "declarer chose")
    with pytest.raises(FactError, match="'maybe' is not made or star"):
        pad.answer(q, "maybe", f)
    pad.answer(q, "star", f)
    assert pad.next_question(f) is None
    r = pad.add(f)
    assert r.entries == (0, 0, 0) and r.marks == ({"marker": "star", "column": 1, "state": "new"},)
    r = pad.add({"contract": "high", "declarer": 1, "phase:defend:roles": "follow follow",
                 "phase:defend:kontra": "-", "tricks": [2, 3, 2]})
    assert r.entries[1] == -6 and r.marks == ({"marker": "star", "column": 1, "state": "passed"},)
    f = {"contract": "low", "declarer": 1}
    pad.answer(pad.next_question(f), "pass pass", f)
    assert pad.next_question(f) is None        # max 1 reached: no choice, counted as made
    assert pad.add(f).entries == (0, -1, 0)


def test_the_defence_skips_must_name_phases_of_the_variant(tmp_path):
    """[F2] when nobody plays, the phases of ``skips`` are skipped: a name that is no phase of the
    variant is a validate error at its place in the file."""
    from rulekit.variant import check_file
    from tests.helpers import STEP_TOY, write_variant
    bad = STEP_TOY.replace("skips: [play]}", "skips: [ply]}")
    found = [str(d) for d in check_file(write_variant(tmp_path, "toy.yaml", bad))]
    assert len(found) == 1 and found[0].endswith(
        "toy.yaml:16:47: phases.defend.skips.0: unknown phase ply; did you mean play? "
        "(expected a phase of this variant: deal, bidding, widow, say, defend, play)"), found
