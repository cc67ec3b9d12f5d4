"""What a player sees at the table: findings of the user pass (gallery) on the terminal, the
``--auto`` story, the ``?`` lists and the scorepad's questions."""
from __future__ import annotations

import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.cli.render import contract_text, hand_text, legal_text, table_view
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.errors import VariantError
from rulekit.variant import load_variant

runner = CliRunner()


def plain(renderable, width: int = 120) -> str:
    """The text a terminal without colours shows."""
    con = Console(width=width, record=True, color_system=None, force_terminal=False)
    con.print(renderable)
    return con.export_text()


def lines(renderables) -> str:
    return "\n".join(plain(r) for r in renderables)


def test_belote_turned_card_public_everywhere():
    """user pass (gallery) finding 1: the turned card of an order-up auction is public: every
    seat's observation holds it, the human's screen shows it while he decides, and the face-down
    talon no longer counts it."""
    s = State(load_variant("belote"), seed=5)
    turned = kind_of("order_up").data_of(s.hand).turned
    card = s.variant.deck.pretty(turned)
    assert all(s.observation(seat).phase_data["turned"] == turned for seat in range(4))
    screen = plain(table_view(s, s.to_move))
    assert re.search(rf"turned {card}", screen)
    assert "talon 11 cards face down" in screen


def test_cli_shows_turned_card_and_take_prompt(tmp_path):
    """user pass (gallery) finding 1 and 2: `rulekit play belote` shows the turned card before
    the human's first call, and Belote's call is `take`, the prompt saying so."""
    r = runner.invoke(app, ["play", "belote", "--players", "human,bot,bot,bot", "--seed", "5",
                             "--save", str(tmp_path / "g.json")],
                      input="?\nquit\n")
    out = r.output
    first = out.index("your hand")
    assert re.search(r"turned 8♦", out[:first])
    assert "You (take) > legal: pass, take" in out


def test_auto_story_tells_the_turned_card_and_the_call(tmp_path):
    """user pass (gallery) finding 1: the --auto story has a `turned` row before the calls and
    says who ordered it up (first round) or named trumps (second round)."""
    r = runner.invoke(app, ["play", "euchre", "--auto", "--seed", "3", "--save", str(tmp_path / "g.json")])
    out = r.output
    hand1, hand2 = out.split("Hand 2 —")[0], out.split("Hand 2 —")[1].split("Hand 3 —")[0]
    assert "turned  10♣, turned down" in hand1 and "contract  S names trumps ♦" in hand1
    assert hand1.index("turned") < hand1.index("auction")
    assert "turned  K♥" in hand2 and "contract  N orders up K♥, trumps ♥" in hand2


ORDER = """
id: made-up-take
name: Made-up take
players: 4
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "5, widow 4"}
  making: {kind: order_up, word: %s, alone: true}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "if maker then tricks else 0"
match: {deals: 1}
"""


def test_order_up_word_option(tmp_path):
    """user pass (gallery) finding 2: `word: take` names the first round's call (`take`,
    `take alone`); `order` stays the default; a word that is another action is refused."""
    f = tmp_path / "take.yaml"
    f.write_text(ORDER % "take")
    s = State(load_variant(str(f)), seed=1)
    assert [a.text for a in s.legal_actions()] == ["pass", "take", "take alone"]
    s.apply("take")
    assert s.hand.declarer == s.hand.eldest and s.phase_kind == "order_up"   # the dealer discards
    card = s.variant.deck.pretty(kind_of("order_up").data_of(s.hand).turned)
    assert plain(contract_text(s, s.hand)).strip() == f"{s.names[s.hand.declarer]} takes {card}, trumps {card[-1]}"
    f.write_text(ORDER % "pass")
    with pytest.raises(VariantError, match="'pass' is already another action of this phase"):
        load_variant(str(f))
    f.write_text((ORDER % "x").replace(", word: x", ""))
    assert [a.text for a in State(load_variant(str(f)), seed=1).legal_actions()] == ["pass", "order", "order alone"]


BLIND = """
id: blind-one
name: Blind one
players: 4
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H], ranks: [J, Q, K, A]}
ranking: {suit: "A K Q J"}
phases:
  deal: {kind: deal, pattern: "1 x 2"}
  bidding: {kind: trick_bids, blind_nil: {behind: 0}}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  each: "tricks"
match: {deals: 1}
"""


def test_hidden_hand_of_one_card_is_singular(tmp_path):
    """user pass (gallery) finding 6: a hidden hand of one card reads `1 card face down`."""
    f = tmp_path / "blind.yaml"
    f.write_text(BLIND.replace("1 x 2", "1").replace("[J, Q, K, A]", "[K, A]").replace("A K Q J", "A K"))
    s = State(load_variant(str(f)), seed=1)
    assert plain(hand_text(s, s.to_move)).strip() == "1 card face down (not looked at yet)"


def test_hearts_passes_say_where_never_discards(tmp_path):
    """user pass (gallery) finding 3: every pass reads `passes 3 cards to the left (to P2)`, never
    `discards`, and each hand's header says the passing direction (left, right, across, hold)."""
    r = runner.invoke(app, ["play", "hearts", "--auto", "--seed", "3", "--save", str(tmp_path / "g.json")])
    out = r.output
    assert "discard" not in out
    hands = out.split("Hand ")
    assert hands[1].startswith("1 — dealer P0 — passing to the left")
    assert "P2 passes 3 cards to the left (to P3)" in hands[1] and "P0 passes 3 cards to the left (to P1)" in hands[1]
    assert hands[2].startswith("2 — dealer P1 — passing to the right") and "P0 passes 3 cards to the right (to P3)" in hands[2]
    assert hands[3].startswith("3 — dealer P2 — passing across") and "P1 passes 3 cards across (to P3)" in hands[3]
    assert hands[4].startswith("4 — dealer P3 — no passing (hold)") and "passes" not in hands[4]
    s = State(load_variant("hearts"), seed=3)
    assert "passing to the left (to P2)" in plain(table_view(s, 1))


def _pitch_human(tmp_path, typed: str) -> str:
    r = runner.invoke(app, ["play", "pitch", "--players", "bot,bot,bot,human", "--seed", "1",
                            "--save", str(tmp_path / "g.json")], input=typed)
    return r.output


def test_pitch_trumps_come_from_the_first_lead(tmp_path):
    """user pass (gallery) finding 4: Pitch's contract reads `trumps: the first card led` until
    the pitcher leads (never `no trump`), and the help lists each contract by its value, not as
    `0 tricks, no trump` (tricks.first_lead_trump)."""
    out = _pitch_human(tmp_path, "help\n4\nquit\n")
    assert "no trump" not in out and "0 tricks" not in out
    assert "  2        trumps: the first card led; value 2" in out
    assert "→ 4 by You, trumps: the first card led" in out
    assert "contract 4 by You, trumps: the first card led" in out
    s = State(load_variant("pitch"), seed=2)
    while s.phase_kind != "tricks" or s.hand.declarer < 0:
        s.apply(s.legal_actions()[-1] if s.phase_kind != "tricks" else s.legal_actions()[0])
    s.apply(s.play_action(next(iter(sorted_bits(s.hand.hands[s.to_move])))))
    assert re.search(r"contract .* by P\d, trumps [♠♥♦♣]", plain(table_view(s, 0)))


def sorted_bits(m: int) -> list:
    return [c for c in range(m.bit_length()) if m >> c & 1]


def test_legal_list_values_read_as_remarks_and_are_accepted(tmp_path):
    """user pass (gallery) finding 5: `?` shows a call's value as `(worth N)`, clearly no part of
    the call, and typing the listed text with it is accepted as the call (Pitch `4 (worth 4)`,
    Five Hundred `7C (worth 160)`)."""
    out = _pitch_human(tmp_path, "?\n4 (worth 4)\nquit\n")
    assert "legal: pass, 2 (worth 2), 3 (worth 3), 4 (worth 4)" in out
    assert "→ 4 by You" in out and "not an action" not in out
    r = runner.invoke(app, ["play", "fivehundred", "--players", "human,bot,bot", "--seed", "2",
                            "--save", str(tmp_path / "f.json")], input="?\n7C (worth 160)\nquit\n")
    assert "7C (worth 160)," in r.output and "auction You 7♣" in r.output and "refused" not in r.output


def _pad_questions(variant: str, answers: dict):
    """The questions a scorepad of ``variant`` asks for one hand, answered from ``answers``."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(load_variant(variant), first_dealer=0)
    facts: dict = {}
    asked = []
    while (q := pad.next_question(facts)) is not None:
        asked.append(q)
        pad.answer(q, answers[q.name], facts)
    return pad, facts, asked


def test_pitch_scorepad_asks_who_holds_high_low_jack():
    """user pass (gallery) finding 7: a tally held by one column at most is asked once (who),
    not per column: Pitch asks 7 questions, not 16; `-` for High is refused with the reason (the
    first card led made trumps, so someone held High); Jack may be held by nobody."""
    from rulekit.sheets.scorepad import FactError, ScorePad
    answers = {"contract": "3", "declarer": "P0", "trump": "S", "points": "27 0 10 2",
               "tally:high": "P0", "tally:low": "p3", "tally:jack": "-"}
    pad, facts, asked = _pad_questions("pitch", answers)
    assert [q.name for q in asked] == ["contract", "declarer", "trump", "points", "tally:high", "tally:low",
                                      "tally:jack"]
    assert asked[4].prompt == "high: who" and asked[4].help == "who: one of P0, P1, P2, P3"
    assert asked[6].help == "who: one of P0, P1, P2, P3, or - for none"
    assert [facts[f"tally:low:{c}"] for c in range(4)] == [0, 0, 0, 1]
    assert list(pad.add(facts).entries) == [-3, 0, 0, 1]   # P0 made High and Game only: set back 3
    pad2 = ScorePad(load_variant("pitch"), first_dealer=0)
    with pytest.raises(FactError, match=r"^high: someone held it \(the first card led made trumps, so a trump "
                                        r"was in play\); expected one of P0, P1, P2, P3$"):
        pad2.answer(asked[4], "-", {})
    with pytest.raises(FactError, match="high: 'P7' is not a player"):
        pad2.answer(asked[4], "P7", {})


def test_spades_scorepad_accepts_nil():
    """user pass (gallery) finding 7: `nil` is a bid on the Spades scorepad, and its help says so."""
    answers = {"phase:bidding:bids": "nil 4 3 5", "tricks": "8 5", "phase:bidding:nil_tricks": "0"}
    pad, facts, asked = _pad_questions("spades", answers)
    bids = next(q for q in asked if q.name == "phase:bidding:bids")
    assert "0 (or nil) to 13" in bids.help
    assert facts["phase:bidding:bids"] == "0 4 3 5"
    assert list(pad.add(facts).entries) == [135, -90]   # NS: nil made 100, bid 3 took 8: 30 + 5 bags; EW bid 9 took 5


def test_trick_bids_note_says_bids_and_tricks(tmp_path):
    """user pass (gallery) finding 8: the sheet note of a trick-bidding hand gives each column's
    bid and tricks, not only the trumps: on the Spades pad (N nil made, S 3; E 4, W 5) and in a
    played Oh Hell hand (`--auto`)."""
    answers = {"phase:bidding:bids": "nil 4 3 5", "tricks": "8 5", "phase:bidding:nil_tricks": "0"}
    pad, facts, _asked = _pad_questions("spades", answers)
    assert pad.add(facts).note == "trumps S, NS bid 3 + nil took 8 · EW bid 9 took 5"
    r = runner.invoke(app, ["play", "ohhell", "--auto", "--seed", "3", "--save", str(tmp_path / "g.json")])
    lines = r.output.splitlines()
    bids = re.findall(r"(P\d) bid (\d+)", next(ln for ln in lines if ln.startswith("  auction")))
    note = next(ln for ln in lines if ln.startswith("  hand 1 ")).split(" — ")[1]
    m = re.fullmatch(r"trumps [SHDC]+, " + " · ".join(rf"{p} bid {b} took (\d)" for p, b in sorted(bids)), note)
    assert m, note                         # each column's bid, as called, then its tricks
    assert sum(map(int, m.groups())) == 1  # Oh Hell's first deal is one card each


def _hand_notes(out: str) -> list:
    """The sheet notes of the hands an ``--auto`` game played (void hands left out)."""
    return [ln.split(" — ", 1)[1] for ln in out.splitlines() if ln.startswith("  hand ") and "void" not in ln]


def test_order_up_note_says_who_made_trumps(tmp_path):
    """user pass (gallery) finding 8: an order-up hand's sheet note says which side made trumps."""
    r = runner.invoke(app, ["play", "euchre", "--auto", "--seed", "3", "--save", str(tmp_path / "g.json")])
    notes = _hand_notes(r.output)
    assert notes and all(re.fullmatch(r"trumps [SHDC], made by (NS|EW)(, alone)?", n) for n in notes), notes


def test_held_bonus_tallies_in_the_note(tmp_path):
    """user pass (gallery) finding 8: a tally of dealt cards a column holds in full is named in
    the note: Belote's belote (king and queen of trumps in one hand), Pitch's High and Low."""
    r = runner.invoke(app, ["play", "belote", "--auto", "--seed", "3", "--save", str(tmp_path / "b.json")])
    notes = _hand_notes(r.output)
    assert all(re.fullmatch(r"trumps [SHDC], made by (NS|EW)(, belote (NS|EW))?", n) for n in notes), notes
    assert any("belote" in n for n in notes) and not all("belote" in n for n in notes)
    r = runner.invoke(app, ["play", "pitch", "--auto", "--seed", "3", "--save", str(tmp_path / "p.json")])
    notes = _hand_notes(r.output)
    # someone always holds High and Low: trumps are made by a card led, so one is in play
    assert notes and all(re.fullmatch(r"P\d [234] \([SHDC]\) (made|failed), high P\d, low P\d", n)
                         for n in notes), notes


def test_pitch_pad_file_with_nobody_holding_high_is_refused():
    """user pass (gallery) finding 7: a pad file's hand (tallies stored per column) where nobody
    held High is refused on loading with the reason; one where P0 held it is read back."""
    from rulekit.sheets.scorepad import FactError, ScorePad
    pad = ScorePad(load_variant("pitch"), first_dealer=0)
    facts = {"contract": "3", "declarer": 0, "trump": "S", "points": [27, 0, 10, 2],
             **{f"tally:{t}:{c}": 0 for t in ("high", "low", "jack") for c in range(4)}, "tally:low:3": 1}
    with pytest.raises(FactError, match=r"high: someone held it"):
        pad.check(facts)
    done = pad.check({**facts, "tally:high:0": 1})
    assert [done[f"tally:high:{c}"] for c in range(4)] == [1, 0, 0, 0]
