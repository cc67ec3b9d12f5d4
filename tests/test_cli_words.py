"""The words the terminal uses (``rulekit play`` and ``--auto``): prompts, refusals, the ``?``
lists with each call's worth, the help text, the auction and exchange summaries, and the story
of an ``--auto`` game."""
from __future__ import annotations

import io
import re

from rich.console import Console

from rulekit.cli.app import app
from rulekit.cli.render import table_view
from rulekit.engine import State
from rulekit.variant import load_variant
from tests.cli_helpers import Scripted
from tests.helpers import plain, runner


def test_hearts_passing_says_pass(tmp_path, monkeypatch):
    """Hearts passing shows, lists and accepts ``pass CARD CARD CARD`` (and the bare cards); the
    refusal's example names real cards, and nothing says ``discard``."""
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["play", "hearts", "--players", "human,bot,bot,bot", "--seed", "8"],
                      input="?\nhelp\nxyz\npass\npass 2C 3C 4C\npass 10C JC KC\nquit\n")
    out = r.output
    assert ("pass any 3 of your cards (286 choices), e.g. pass 10C JC KC: "
            "J♥ 10♥ 8♥ 6♥ 4♥ 9♠ 6♠ 3♠ J♦ 4♦ K♣ J♣ 10♣") in out
    assert "Type an action: pass CARD CARD CARD (or just the cards); play CARD" in out
    assert "refused: 'xyz' is not an action here; expected pass 3 cards (e.g. pass 10C JC KC)" in out
    assert "refused: pass 3 cards now (pass CARD CARD CARD)" in out
    assert "refused: you do not hold 2C 3C 4C" in out
    assert "You pass 3 cards to the left (to P1): 10♣ J♣ K♣" in out
    assert "discard" not in out


def test_cli_shows_turned_card_and_take_prompt(tmp_path):
    """`rulekit play belote` shows the turned card before
    the human's first call, and Belote's call is `take`, the prompt saying so."""
    r = runner.invoke(app, ["play", "belote", "--players", "human,bot,bot,bot", "--seed", "5",
                             "--save", str(tmp_path / "g.json")],
                      input="?\nquit\n")
    out = r.output
    first = out.index("your hand")
    assert re.search(r"turned 9♥", out[:first])
    assert "You (take) > legal: pass, take" in out


def test_auto_story_tells_the_turned_card_and_the_call(tmp_path):
    """The --auto story has a `turned` row before the calls and
    says who ordered it up (first round) or named trumps (second round)."""
    r = runner.invoke(app, ["play", "euchre", "--auto", "--seed", "15", "--save", str(tmp_path / "g.json")])
    out = r.output
    hand1, hand2 = out.split("Hand 2 —")[0], out.split("Hand 2 —")[1].split("Hand 3 —")[0]
    assert "turned  10♣, turned down" in hand1 and "contract  W names trumps ♦" in hand1
    assert hand1.index("turned") < hand1.index("auction")
    assert "turned  Q♠" in hand2 and "contract  N orders up Q♠, trumps ♠" in hand2


def test_hearts_passes_say_where_never_discards(tmp_path):
    """Every pass reads `passes 3 cards to the left (to P2)`, never
    `discards`, and each hand's header says the passing direction (left, right, across, hold)."""
    r = runner.invoke(app, ["play", "hearts", "--auto", "--seed", "4", "--save", str(tmp_path / "g.json")])
    out = r.output
    assert "discard" not in out
    hands = out.split("Hand ")
    assert hands[1].startswith("1 — dealer P0 — passing to the left")
    assert "P2 passes 3 cards to the left (to P3)" in hands[1] and "P0 passes 3 cards to the left (to P1)" in hands[1]
    assert hands[2].startswith("2 — dealer P1 — passing to the right") and "P0 passes 3 cards to the right (to P3)" in hands[2]
    assert hands[3].startswith("3 — dealer P2 — passing across") and "P1 passes 3 cards across (to P3)" in hands[3]
    assert hands[4].startswith("4 — dealer P3 — no passing (hold)") and "passes" not in hands[4]
    s = State(load_variant("hearts"), seed=4)
    assert "passing to the left (to P2)" in plain(table_view(s, 1))


def _pitch_human(tmp_path, typed: str) -> str:
    r = runner.invoke(app, ["play", "pitch", "--players", "bot,bot,bot,human", "--seed", "1",
                            "--save", str(tmp_path / "g.json")], input=typed)
    return r.output


def test_pitch_trumps_come_from_the_first_lead(tmp_path):
    """Pitch's contract reads `trumps: the first card led` until
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
    """`?` shows a call's value as `(worth N)`, clearly no part of
    the call, and typing the listed text with it is accepted as the call (Pitch `4 (worth 4)`,
    Five Hundred `7C (worth 160)`)."""
    out = _pitch_human(tmp_path, "?\n4 (worth 4)\nquit\n")
    assert "legal: pass, 2 (worth 2), 3 (worth 3), 4 (worth 4)" in out
    assert "→ 4 by You" in out and "not an action" not in out
    r = runner.invoke(app, ["play", "fivehundred", "--players", "human,bot,bot", "--seed", "2",
                            "--save", str(tmp_path / "f.json")], input="?\n7C (worth 160)\nquit\n")
    assert "7C (worth 160)," in r.output and "auction You 7♣" in r.output and "refused" not in r.output

PREF = load_variant("preferans")


def _live(calls, names=("You", "P1", "P2")):
    """A live game (every seat typed) of preferans dealt by P2, so You (seat 0) speak first;
    ``calls`` are typed in turn; returns the game and what it printed."""
    st = State(PREF, seed=1, dealer=2, names=list(names))
    todo = list(calls)
    out = io.StringIO()
    g = Scripted(st, ["human"] * 3, Console(file=out, width=120), None,
                 policy=lambda g, s, seat: [todo.pop(0)])
    while todo:
        g.step()
    return g, out.getvalue()


def test_number_auction_summary_names_the_declarer():
    """[A2] [X1]: a number wins the auction; the summary reads the declarer
    and his number, not "all passed"."""
    _g, text = _live(["2", "pass", "pass"])
    line = next(ln for ln in text.splitlines() if ln.startswith("auction:"))
    assert line == "auction: You 2 · P1 pass · P2 pass  → 2 by You"


def test_hold_and_blind_summaries():
    """[A3] [A5]: a hold reads as the number held; a blind call as itself."""
    _g, text = _live(["2", "3", "pass", "hold", "pass"])
    assert text.splitlines()[-1].endswith("→ 3 by You")
    _g, text = _live(["igra", "pass", "pass"])
    assert "→ igra by You" in text
    assert "all passed" not in text


def test_exchange_text_uses_the_phase_name_and_plural():
    """[X1]: the exchange line says the variant's own name for what is taken
    (preferans's ``talon`` phase; Five Hundred's ``exchange`` phase takes the ``widow``), puts
    cards aside for a ``set_aside`` phase, and counts "1 card"."""
    from cli.render import exchange_text
    g, _t = _live(["2", "pass", "pass"])
    st = g.state
    disc = st.legal_actions()[0]
    st.apply(disc)
    line = exchange_text(st, st.hand, disc.text, 0, reveal=False)
    assert line.plain == "You take the talon and discard 2 cards"
    fh = load_variant("fivehundred")
    spec = next(p for p in fh.phases if p.kind == "widow_exchange")
    fst = State(fh, seed=1, names=["You", "P1", "P2"])
    assert exchange_text(fst, fst.hand, "discard 7S 8S 9S", 1, False, spec=spec).plain == \
        "P1 takes the widow and discards 3 cards"
    bos = load_variant("boston")
    aside = next(p for p in bos.phases if p.kind == "set_aside")
    bst = State(bos, seed=1, names=["You", "P1", "P2", "P3"])
    assert exchange_text(bst, bst.hand, "discard 7S", 2, False, spec=aside).plain == "P2 puts 1 card aside"


def test_help_lists_contracts_without_false_trick_counts():
    """[C1]: a step auction's levels are contract numbers, not tricks; a null
    contract (preferans betl, Boston's nulls) is "take no trick"."""
    from cli.game import help_text
    text = help_text(PREF, State(PREF, seed=1))
    assert "  pik      number 2, ♠ trumps\n" in text
    assert "  betl     number 6, take no trick, no trump\n" in text
    assert "tricks" not in text.split("\n", 1)[1].split("\n  ?  ")[0]     # (the contracts' lines)
    bos = load_variant("boston")
    assert "  LN       little null: take no trick, no trump, 1 card put aside face down; worth 15 made" \
        in help_text(bos, State(bos, seed=1))


def test_round_objective_stands_on_its_own_line_in_full():
    """King [K2]: the round's objective stands whole on a line of its own under the header, not cut
    at the terminal's width inside the hand's rule."""
    from typer.testing import CliRunner
    from rulekit.cli.app import app
    r = CliRunner().invoke(app, ["play", "king", "--auto", "--seed", "1", "--max-hands", "2"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "Hand 2 — dealer" in text and "— no hearts" in text
    assert load_variant("king").rounds[1].objective in text


# ---------------------------------------------------------------------- --auto's words
def test_auto_help_says_what_auto_prints():
    """--auto prints one line per trick, not "a short summary per hand"; its help says so."""
    r = runner.invoke(app, ["play", "--help"])
    text = " ".join(r.output.replace("│", " ").split())
    assert "short summary per hand" not in text
    assert "Bots in every seat; print each hand as it is played (its auction, one line per trick, its score)." in text
    r = runner.invoke(app, ["play", "fivehundred", "--auto", "--seed", "1", "--max-hands", "1"])
    lines = r.output.splitlines()
    assert sum(1 for line in lines if line.strip().startswith("trick ")) == 10
    assert any(line.strip().startswith("auction") for line in lines)


# ---------------------------------------------------------------------- extra bids explained
def test_help_explains_an_extra_bid(tmp_path):
    """rules/fivehundred.md [A4]: `help` says what 10T is: ten tricks, trump named by the
    declarer later, only over 10NT, scored as a ten in the suit named (10S 440 .. 10H 500)."""
    r = runner.invoke(app, ["play", "fivehundred", "--seed", "1", "--save", str(tmp_path / "g.json")],
                      input="help\nquit\n")
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert ("10T 10 tricks, the declarer names the trump later; only over 10NT; worth 440 to 500 made, "
            "by the trump named") in text


def test_no_extra_bid_lines_without_extra_bids():
    """A ladder without extra bids adds no line."""
    from rulekit.cli.game import extra_bid_lines
    assert extra_bid_lines(State(load_variant("whist"), seed=1)) == []


# ---------------------------------------------------------------------- each kind says what it asks
def _every_variant() -> list:
    from pathlib import Path
    from rulekit.variant import builtin_ids
    return list(builtin_ids()) + [str(Path(__file__).parent / "data" / "every-kind.yaml")]


def test_help_names_every_word_a_player_may_type():
    """At every decision of two hands of each installed variant (and the compendium of every
    kind), the first word of each legal action other than a bid (``pass``, ``play``, ``discard``,
    ``follow``, ``invite``, ``take``...) is in the help, which every kind writes for its phase."""
    import random
    from cli.game import help_text
    missing = set()
    for vid in _every_variant():
        v = load_variant(vid)
        for seed in range(3):
            s = State(v, seed=seed)
            rng = random.Random(seed)
            while not s.is_over and s.hand.number < 2:
                if s.kind.role != "chance":
                    text = help_text(s.variant, s)
                    legal = s.legal_actions()
                    for a in (legal if isinstance(legal, list) else legal[:1]):
                        word = s.action_text(a).split()[0]
                        if a.kind != "bid" and word not in text:
                            missing.add((vid, s.kind.name, word))
                legal = s.legal_actions()
                s.apply(legal[int(rng.random() * len(legal))])
    assert missing == set()


def test_the_domino_help_says_pass():
    """King's jacks domino ([K8]): the help at its prompt says to pass when no card fits."""
    import random
    from cli.game import help_text
    s = State(load_variant("king"), seed=1)
    rng = random.Random(1)
    while s.variant.round_name != "jacks domino":
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    assert "lay it on a row; pass when you cannot" in help_text(s.variant, s)


def test_each_step_of_the_defence_has_its_own_label():
    """Preferans ([F1]-[F5]): the defenders are asked ``follow?``, a playing defender ``kontra?``,
    the declarer then ``rekontra?``; never one ``defence`` label."""
    from rulekit.cli.render import prompt_label
    v = load_variant("preferans")
    labels = set()
    for seed in range(40):
        s = State(v, seed=seed)
        while not s.is_over and s.hand.number == 0 and s.kind.name != "tricks":
            if s.kind.name == "defence":
                labels.add(prompt_label(s))
                texts = [a.text for a in s.legal_actions()]
                s.apply(next((t for t in ("follow", "kontra", "rekontra", "invite") if t in texts), texts[0]))
                continue
            texts = [a.text for a in s.legal_actions()]
            if s.kind.name == "announce":          # the highest game: one the defenders follow or pass
                s.apply(texts[-1])
                continue
            s.apply("2" if "2" in texts and not s.hand.calls else "pass" if "pass" in texts else texts[0])
        if {"follow?", "kontra?", "rekontra?"} <= labels:
            break
    assert {"follow?", "kontra?", "rekontra?"} <= labels and "defence" not in labels


def test_an_order_up_says_what_each_round_asks():
    """Euchre: the first round asks ``order up``, the second ``name trumps``, the dealer who took
    the card ``discard``."""
    from rulekit.cli.render import prompt_label
    v = load_variant("euchre")
    s = State(v, seed=1)
    assert prompt_label(s) == "order up"
    for _ in range(4):
        s.apply("pass")
    assert prompt_label(s) == "name trumps"
    s = State(v, seed=1)
    s.apply("order")
    if s.kind.name == "order_up":
        assert prompt_label(s) == "discard"


def test_a_partner_call_says_what_each_player_is_asked():
    """Boston [B5]: the declarer of 6♠ is asked ``invite or alone?``; after invite the others
    ``accept?``; after alone ``offer?``, and on an offer the declarer ``accept or refuse?``."""
    from rulekit.cli.render import prompt_label
    v = load_variant("boston")
    labels = []
    for first, then in (("invite", None), ("alone", "offer")):
        s = State(v, seed=1)
        while s.kind.role == "auction" or s.kind.role == "chance":
            texts = [a.text for a in s.legal_actions()]
            six = [t for t in texts if t.startswith("6")]
            s.apply(six[0] if six and not s.hand.high else "pass" if "pass" in texts else texts[0])
        labels.append(prompt_label(s))
        s.apply(first)
        labels.append(prompt_label(s))
        if then:
            s.apply(then)
            labels.append(prompt_label(s))
    assert labels == ["invite or alone?", "accept?", "invite or alone?", "offer?", "accept or refuse?"]
