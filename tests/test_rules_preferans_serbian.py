"""Serbian house rules on preferans (rules/preferans.md lines 8-9, `preferans-serbian`):
counter-clockwise play, the talon shown, compulsory kontra on plain pik. Each test sets the
house file against the base file and asserts the values that differ."""
from __future__ import annotations

from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.variant import load_variant

BASE = load_variant("preferans")
SERB = load_variant("preferans-serbian")


def _turns(s: State, *calls) -> list:
    """The seats to move for each call of ``calls``, applying them."""
    out = []
    for c in calls:
        out.append(s.to_move)
        s.apply(c)
    return out


def test_p1_d1_a1_counter_clockwise():
    """[P1] [D1] [A1] counter-clockwise: dealer 2's eldest hand is seat 1 (his right), who gets
    the first packet and speaks first; the auction then goes 1, 0, 2; the deal passes right."""
    base, serb = State(BASE, seed=1, dealer=2), State(SERB, seed=1, dealer=2)
    assert (base.hand.eldest, serb.hand.eldest) == (0, 1)
    first = serb.hand.deck_order[:5]          # [D1] the first packet of 5 goes to the eldest
    assert all(serb.hand.dealt[1] >> c & 1 for c in first)
    assert _turns(base, "2", "pass", "pass") == [0, 1, 2]
    assert _turns(serb, "2", "pass", "pass") == [1, 0, 2]
    assert serb.hand.declarer == 1


def test_t1_trick_play_counter_clockwise():
    """[T1] counter-clockwise: after all pass and the next deal (dealer 1, eldest 0), the
    declarer's defence and the tricks go to the next lower seat."""
    s = State(SERB, seed=1, dealer=2)
    _turns(s, "pass", "pass", "pass")         # [A7] all pass: refe, the deal passes on
    assert (s.hand.dealer, s.hand.eldest) == (1, 0)
    _turns(s, "2", "pass", "pass")            # seat 0 declares
    s.apply(s.legal_actions()[0])             # [X1] discard two
    s.apply("herc")
    assert _turns(s, "follow", "follow", "pass", "pass") == [2, 1, 2, 1]   # [F1] from the declarer's right
    assert s.phase_kind == "tricks"
    played = []
    for _ in range(3):
        played.append(s.to_move)
        s.apply(s.legal_actions()[0])
    assert played == [0, 2, 1]                # [T1] the eldest (0) leads, then 2, then 1


def _after_talon(v):
    s = State(v, seed=1, dealer=2)
    eldest = s.hand.eldest
    _turns(s, "2", "pass", "pass")
    talon = sum(1 << c for c in s.hand.deck_order[15:17])   # [D1] 5 each, then 2 to the talon
    assert s.phase_kind == "widow_exchange"
    return s, eldest, talon


def test_x1_talon_shown():
    """[X1] talon shown: once the declarer takes it, every seat knows those two cards are in his
    hand (``placed``); in the base game the talon is taken unseen."""
    base, d0, t0 = _after_talon(BASE)
    serb, d1, t1 = _after_talon(SERB)
    other = (d0 + 1) % 3
    assert t0.bit_count() == 2 and base.observation(other).placed[d0] == 0
    other = (d1 - 1) % 3
    assert t1.bit_count() == 2 and serb.observation(other).placed[d1] == t1


def _to_pik(v, seed: int = 1):
    s = State(v, seed=seed, dealer=2)
    _turns(s, "2", "pass", "pass")
    s.apply(s.legal_actions()[0])
    s.apply("pik")
    return s


def test_f2_f5_compulsory_kontra_on_plain_pik():
    """[F2] [F5] compulsory kontra on plain pik: the defenders say follow or pass as at any
    contract (the base game asks kontra or pass); a follow is a kontra at once (x2), the other
    defender must play, and the declarer may answer rekontra."""
    base, serb = _to_pik(BASE), _to_pik(SERB)
    assert [a.text for a in base.legal_actions()] == ["pass", "kontra"]
    assert [a.text for a in serb.legal_actions()] == ["follow", "pass"]
    assert serb.to_move == 0                  # the declarer (1)'s right-hand neighbour
    serb.apply("follow")
    d = kind_of("defence").data_of(serb.hand)
    assert d.level == 1 and d.kontra_seat == 0 and d.roles == {0: "follow", 2: "forced"}
    assert serb.to_move == 1 and [a.text for a in serb.legal_actions()] == ["pass", "rekontra"]
    serb.apply("pass")
    assert serb.phase_kind == "tricks"


def _uncontested_pik(choice: str) -> State:
    """Seat 1 declares pik, both defenders pass, he says ``choice``; then he declares karo on
    the next deal (dealer 1, eldest 0), both follow, no kontra, and the hand is played out
    with the first legal card each time (the same deal for either choice: seed 58's, whose karo
    is made with 6 tricks, the defenders taking 0 and 4)."""
    s = _to_pik(SERB, seed=58)
    assert _turns(s, "pass", "pass") == [0, 2]
    assert s.to_move == 1 and [a.text for a in s.legal_actions()] == ["made", "refe"]
    s.apply(choice)
    assert (s.hand.number, s.hand.dealer, s.hand.eldest) == (1, 1, 0)
    _turns(s, "pass", "pass", "2")
    s.apply(s.legal_actions()[0])
    s.apply("karo")
    _turns(s, "follow", "follow", "pass", "pass")
    while s.hand.number == 1:
        s.apply(s.legal_actions()[0])
    return s


def test_f2_nobody_kontras_plain_pik_made_is_minus_4():
    """House rule "refe or -4 when nobody kontras" (lines 8-9), [F2]: the declarer who says
    made has the uncontested pik counted as made: -4 on his bula (V 4, [C2] [S2]), no soup, no
    refe; his next karo (6 tricks, defenders 0 and 4) is single: -6, soup 4 x 6 = 24."""
    s = _uncontested_pik("made")
    pik, karo = s.sheet.rows[-2], s.sheet.rows[-1]
    assert pik.entries == [0, -4, 0] and pik.against == [] and pik.marks == []
    assert karo.entries == [0, -6, 0] and [a["value"] for a in karo.against] == [24] and karo.marks == []
    assert s.markers.marks["refe"] == [[], [], []]


def test_r1_r3_nobody_kontras_plain_pik_refe_for_the_declarer_doubles_his_next_contract():
    """House rule "refe or -4 when nobody kontras" (lines 8-9), [R1] [R3]: the declarer who says
    refe gets no bula change and one refe line in his column only; [R2] his next contract (the
    same karo as above) is doubled by it: -12 and soup 48, and the refe is marked passed."""
    s = _uncontested_pik("refe")
    pik, karo = s.sheet.rows[-2], s.sheet.rows[-1]
    assert pik.entries == [0, 0, 0] and pik.against == [] and pik.void
    assert pik.marks == [{"marker": "refe", "column": 1, "state": "new"}]
    assert pik.note == "pik not played: refe for P1"
    assert karo.entries == [0, -12, 0] and [a["value"] for a in karo.against] == [48]
    assert karo.marks == [{"marker": "refe", "column": 1, "state": "passed"}]
    assert s.markers.marks["refe"] == [[], ["passed"], []]


def test_r1_no_refe_past_max_refe_then_minus_4():
    """[R1] `max_refe` 2: a declarer with two refes written already is not asked; the uncontested
    pik counts as made with his open refe [R2]: -8, and that refe is marked passed."""
    s = _to_pik(SERB)
    s.markers.marks["refe"][1] = ["passed", "open"]
    _turns(s, "pass", "pass")
    assert s.hand.number == 1
    assert s.sheet.rows[-1].entries == [0, -8, 0]
    assert s.sheet.rows[-1].marks == [{"marker": "refe", "column": 1, "state": "passed"}]


def test_bot_takes_the_refe_and_the_scorepad_enters_it(tmp_path):
    """The bot takes the refe when he holds no open one (it doubles a later contract worth at
    least the 4 of this pik); `rulekit score preferans-serbian` asks the declarer's choice after
    both passed and writes his refe, then doubles his karo (0 6 4 tricks: -12, soup 48)."""
    from rulekit.bots import SensibleBot
    s = _to_pik(SERB)
    _turns(s, "pass", "pass")
    assert SensibleBot(seed=1).act(s.observation(1)).text == "refe"
    import json
    from typer.testing import CliRunner
    from cli.app import app
    from rulekit.sheets.scorepad import ScorePad
    pad = tmp_path / "pad.json"
    typed = ["pik", "P1", "pass pass", "refe", "karo", "P1", "follow follow", "-", "0 6 4", "quit"]
    r = CliRunner().invoke(app, ["score", "preferans-serbian", "--dealer", "0", "--file", str(pad)], input="\n".join(typed) + "\n",
                           terminal_width=200)
    assert r.exit_code == 0, r.output
    assert "defence P0 P2 > declarer chose > " in r.output and "│ 48 -/- │" in r.output   # [R3] refe crossed half
    loaded = ScorePad.from_dict(SERB, json.loads(pad.read_text()))
    assert [list(h.entries) for h in loaded.book.results] == [[0, 0, 0], [0, -12, 0]]
    assert loaded.markers.marks["refe"] == [[], ["passed"], []]
