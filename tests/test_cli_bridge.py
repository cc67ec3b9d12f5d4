"""``rulekit play`` for partnership games (bridge, whist and their house rules), ``--deal FILE.pbn``,
``--max-hands`` and ``rulekit replay --pbn``, through typer's CliRunner (piped stdin).

What the human types is computed, not guessed: :class:`Scripted` runs the CLI's own
:class:`~rulekit.cli.game.Game` loop (same bots, same per-decision bot seeds) with a policy in
place of the prompt and records the lines; the CLI then gets those lines on stdin and must
follow the same course.  Random bots keep the long games fast; one short run uses the
sensible bots.
"""
from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rulekit import pbn, records
from rulekit.cli.app import app

from tests.cli_helpers import Scripted
from rulekit.engine import State
from rulekit.variant import load_variant

runner = CliRunner()

# A deal with voids written three ways ("-", "-" for a whole hand's suits, empty), comments of
# both kinds (one hides a false Deal tag) and unknown tags.  South holds the top 13 cards, so a
# South declarer at no trump takes every trick whatever is led and played.
DEAL_PBN = """% PBN 2.1
; a deal with voids, written the way real files are
{ a comment over two lines
  [Deal "W:this is not the deal"] }
[Event "?"]
[Site "?"]
[Board "1"]
[Dealer "S"]
[Vulnerable "NS"]
[Deal "N:T98765.-.JT98.J32 432.JT98765432.. AKQJ.AKQ.AKQ.AKQ -.-.765432.T987654"]
[Declarer "?"]
[Contract "?"]
"""
SOUTH = "A♠ K♠ Q♠ J♠  A♥ K♥ Q♥  A♦ K♦ Q♦  A♣ K♣ Q♣"   # the hand as the table shows it: ♠ ♥ ♦ ♣, high first
DEAL_OUT = "S:AKQJ.AKQ.AKQ.AKQ ..765432.T987654 T98765..JT98.J32 432.JT98765432.."


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Games without --save are saved in the current folder when they stop: keep it a temporary one."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture()
def deal_file(tmp_path):
    f = tmp_path / "deal.pbn"
    f.write_text(DEAL_PBN, encoding="utf-8")
    return f




def play(args, input=None):
    return runner.invoke(app, ["play", *args], input=input)


def assert_clean(result):
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def sheet_after(output: str, marker: str) -> list:
    """The lines of the first score sheet printed after the line containing ``marker``."""
    lines = output.splitlines()
    start = next(i for i, x in enumerate(lines) if marker in x)
    top = next(i for i in range(start, len(lines)) if "Score sheet" in lines[i])
    end = next(i for i in range(top, len(lines)) if lines[i].lstrip().startswith("└"))
    return lines[top:end + 1]


def cells(line: str) -> list:
    return [c.strip() for c in re.split(r"[│┃]", line)[1:-1]]


def pbn_deal_state(seed: int, names: list) -> State:
    d = pbn.read(DEAL_PBN)
    v = load_variant("bridge")
    return State(v, seed=seed, names=names, deals=[d.deck_order()], dealer=d.dealer,
                 vulnerable=d.vulnerability(v.side_names))


# ---------------------------------------------------------------------- a human South declares
def declarer_policy(g, st, seat):
    """South: doubles before any bid (refused), opens 2NT, doubles an opponent's bid, bids 7NT over
    the opponents, and when his 7NT is doubled types X (refused: his own side's bid) then
    redouble; in the play the first legal card, typed as ``play QS`` and ``QS`` in turn."""
    legal = [a.text for a in st.legal_actions()]
    h = st.hand
    v = st.variant
    if st.phase_kind == "contract_auction":
        ours = h.high is not None and v.side_of[h.high_seat] == v.side_of[seat]
        if h.high is None:
            g.events.add("opened")
            return ["X", "2nt"]
        if ours and "XX" in legal:
            g.events.add("XX")
            return ["X", "redouble"]
        if ours:
            return ["pass"]
        if "X" in legal and "X" not in g.events:
            g.events.add("X")
            return ["double"]
        return ["7NT"] if "7NT" in legal else ["pass"]
    if st.to_move != seat:
        g.events.add("dummy")
    text = legal[0]
    return [text if len(g.lines) % 2 else text[len("play "):]]


@pytest.fixture(scope="module")
def declarer_game():
    """A seed where South opens, doubles East or West, is doubled in 7NT, redoubles and plays
    from dummy; with the lines to type."""
    for seed in range(40):
        st = pbn_deal_state(seed, ["N", "E", "You", "W"])
        g = Scripted(st, ["bot", "random", "human", "random"], Console(file=io.StringIO()), None,
                     policy=declarer_policy)
        while not st.sheet.rows:
            g.step()
        h = st.hand_log[0]
        if {"opened", "X", "XX", "dummy"} <= g.events and h.declarer == 2 and h.doubled == 2:
            return seed, g
    pytest.fail("no seed in 0..39 gives the auction wanted (engine or bots changed?)")


def test_human_south_bids_doubles_redoubles_declares_and_plays_dummy(tmp_path, deal_file, declarer_game):
    seed, g = declarer_game
    st = g.state
    f = tmp_path / "game.json"
    r = play(["bridge", "--deal", str(deal_file), "--seed", str(seed), "--players", "bot,random,human,random",
              "--save", str(f)], input="\n".join(g.lines) + "\nquit\n")
    assert_clean(r)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "You (S): human" in out and f"deal 1 from {deal_file}" in out
    assert "Hand 1 — dealer You — NS vulnerable, EW not" in out
    assert re.search(r"vulnerable NS vulnerable, EW not", out)
    assert f"your hand {SOUTH}" in out
    # the bidding box: X before any bid, X of his own side's bid refused with the reason
    assert "refused: there is no bid to double yet" in out
    assert "refused: you cannot double your own side's bid" in out
    assert out.count("refused:") == 2                       # 2nt, double, 7NT, redouble accepted
    # the auction as a table, South's column last, the dealer's first call under his column
    lines = out.splitlines()
    head = next(i for i, x in enumerate(lines) if x.endswith("auction:"))   # after the prompt
    header = lines[head + 1]
    assert re.match(r"W +N +E +You \(S\)", header)
    first = lines[head + 2]
    assert first.strip() == "2NT" and first.index("2NT") == header.index("You (S)")
    calls = [a for _s, a in st.hand_log[0].calls]
    rows = (3 + len(calls) + 3) // 4                           # South deals: three empty cells first
    assert " ".join(" ".join(x.split()) for x in lines[head + 2:head + 2 + rows]) \
        .replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C") == " ".join(calls)
    assert "contract: 7NTXX (redoubled) by You, no trump" in out
    assert "You declare: you play your own hand and dummy N's." in out
    assert "dummy N goes down:" in out
    assert "You (play from dummy N) >" in out and "← you play from here" in out
    assert re.search(r"contract 7NTXX \(redoubled\) by You", out)   # on the table at every prompt
    # 7NT redoubled, vulnerable, 13 tricks: 4 x 220 = 880 below the line (a game); above:
    # grand slam 1500 + insult 100 + four aces in one hand 150 = 1750 (rules/bridge.md [S1]-[S7])
    assert st.sheet.rows[0].parts == {"below": [880, 0], "above": [1750, 0]}
    assert "hand 1  NS +2630 (2630) · EW 0 (0) — You 7NT XX made (13 tricks)" in out
    sheet = sheet_after(out, "hand 1  NS +2630")
    rows = [cells(x) for x in sheet if x.startswith("│")]
    assert cells(next(x for x in sheet if x.startswith("┃"))) == ["WE (NS)", "THEY (EW)"]
    assert rows[0] == ["1750", ""]                            # above the line
    assert set(rows[1][0]) == {"═"}                           # the line
    assert rows[2] == ["880", ""]                             # below: the game, ruled off
    assert rows[-1] == ["2630", "0"]
    # the next deal: NS have a game, so they are vulnerable by the rubber's rule
    assert "Hand 2 — dealer W — NS vulnerable, EW not" in out
    assert "game saved to" in out
    # the record keeps the PBN deal and its vulnerability: replay gives the same sheet
    rec = records.load(f)
    assert rec["vulnerable"] == [True, False] and rec["players"] == ["bot", "random", "human", "random"]
    rep = runner.invoke(app, ["replay", str(f)])
    assert rep.exit_code == 0, rep.output
    assert "2630" in rep.output and "game in progress: hand 2" in rep.output
    # resume goes on with hand 2
    r2 = play(["--resume", str(f)], input="quit\n")
    assert r2.exit_code == 0, r2.output
    assert "resumed Contract bridge" in r2.output and "Hand 2 — dealer W" in r2.output


def test_south_is_the_default_seat_and_the_bidding_box_forms(tmp_path):
    v = load_variant("bridge")
    r = play(["bridge", "--seed", "3"], input="quit\n")
    assert_clean(r)
    assert r.exit_code == 0, r.output
    assert "4 players (N: bot, E: bot, You (S): human, W: bot)" in r.output
    assert re.search(r"auction W +N +E +You \(S\)", r.output)
    assert "vulnerable NS and EW not vulnerable" in r.output
    assert v.home_seat == 2
    # three-handed games keep you in seat 0
    r = play(["fivehundred", "--seed", "1"], input="quit\n")
    assert "3 players (You: human, P1: bot, P2: bot)" in r.output


@pytest.mark.parametrize("typed, canonical", [("1h", "1H"), ("2nt", "2NT"), ("7NT", "7NT"), ("pass", "pass")])
def test_bidding_box_texts(typed, canonical):
    st = State(load_variant("bridge"), seed=1)
    assert st.parse_action(typed).text == canonical
    for word, text in (("X", "X"), ("double", "X"), ("XX", "XX"), ("redouble", "XX")):
        assert st.parse_action(word).text == text


# ---------------------------------------------------------------------- the human is dummy
def test_human_dummy_watches_the_declarer_play(deal_file):
    """North (a random bot) declares over South's passes: South is dummy and never asked to play."""
    for seed in range(60):
        st = pbn_deal_state(seed, ["N", "E", "You", "W"])
        g = Scripted(st, ["random", "random", "human", "random"], Console(file=io.StringIO()), None,
                     policy=lambda g, st, seat: ["pass"])
        while not st.sheet.rows:
            g.step()
        if st.hand_log[0].declarer == 0:
            break
    else:
        pytest.fail("no seed where North declares")
    r = play(["bridge", "--deal", str(deal_file), "--seed", str(seed), "--players", "random,random,human,random"],
             input="\n".join(g.lines) + "\nquit\n")
    assert_clean(r)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "You are dummy: N plays both hands." in out
    assert "(play" not in out.split("You are dummy")[1].split("Hand 2")[0]     # no prompt for the dummy
    assert len(re.findall(r"^trick +\d+ ", out, re.M)) == 13
    assert "Hand 2 — dealer W" in out


# ---------------------------------------------------------------------- --deal
def test_deal_file_is_the_first_deal(deal_file):
    r = play(["bridge", "--deal", str(deal_file), "--seed", "1", "--players", "random,random,human,random"],
             input="?\nquit\n")
    assert_clean(r)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "first dealer You" in out and "(NS vulnerable, EW not)" in out
    assert f"your hand {SOUTH}" in out
    assert re.search(r"^ +\?\s*$", out, re.M)          # South deals: his call opens the table
    assert "legal: pass, 1C (worth at least 20), 1D (worth at least 20)" in out   # the least each bid is worth


@pytest.mark.parametrize("text, message", [
    ("[Event \"x\"]\n", "no [Deal"),
    ("[Deal \"N:AKQ.JT9.876.5432 - - -\"]\n", "is unknown"),
    ("[Deal \"N:AKQJ.T9.876.5432 432.AKQ.AKQ.AKQ1 T98765.-.JT9.J6 -.J8765432.5432.T987\"]\n", "not a rank"),
    ("[Deal \"N:AKQ.JT9.876.5432 AKQ.JT9.876.5432 AKQ.JT9.876.5432 AKQ.JT9.876.5432\"]\n", "appears twice"),
    ("[Deal \"X:AKQ\"]\n", "must start"),
    (DEAL_PBN.replace('"NS"', '"Sometimes"'), "Vulnerable must be"),
])
def test_bad_pbn_exit_1(tmp_path, text, message):
    f = tmp_path / "bad.pbn"
    f.write_text(text, encoding="utf-8")
    r = play(["bridge", "--deal", str(f), "--seed", "1", "--auto", "--quiet"])
    assert_clean(r)
    assert r.exit_code == 1, r.output
    assert "error:" in r.output and message in r.output


def test_deal_usage_errors(tmp_path, deal_file):
    r = play(["bridge", "--deal", str(tmp_path / "none.pbn")])
    assert r.exit_code == 2 and "no such file" in r.output
    r = play(["fivehundred", "--deal", str(deal_file), "--auto"])
    assert r.exit_code == 1 and "four hands of 13 cards" in r.output
    r = play(["--resume", str(deal_file), "--deal", str(deal_file)])
    assert r.exit_code == 2 and "--deal cannot be used with --resume" in r.output
    r = play(["bridge", "--max-hands", "0"])
    assert r.exit_code == 2


# ---------------------------------------------------------------------- replay --pbn
def four_humans_game(tmp_path, deal_file):
    """The PBN deal played by four humans: S 1NT, W X, N XX, then passes; the first legal card
    each time.  South takes all 13 tricks."""
    st = pbn_deal_state(7, ["N", "E", "S", "W"])
    lines = ["1NT", "X", "XX", "pass", "pass", "pass"]
    for a in lines:
        st.apply(a)
    while not st.sheet.rows:
        a = st.legal_actions()[0].text
        lines.append(a)
        st.apply(a)
    f = tmp_path / "four.json"
    r = play(["bridge", "--deal", str(deal_file), "--seed", "7", "--players", "human,human,human,human",
              "--save", str(f)], input="\n".join(lines) + "\nquit\n")
    assert_clean(r)
    assert r.exit_code == 0, r.output
    return f, st


def test_replay_pbn_export_of_a_known_deal(tmp_path, deal_file):
    f, st = four_humans_game(tmp_path, deal_file)
    r = runner.invoke(app, ["replay", str(f), "--pbn"])
    assert r.exit_code == 0, r.output
    out = r.output
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', out, re.M))
    # 1NT redoubled, vulnerable, 13 tricks: 4 x 40 = 160 below; 6 overtricks x 400 + insult 100
    # + four aces in one hand 150 above: 2810 for NS (rules/bridge.md [S1] [S3] [S4] [S7])
    assert tags["Deal"] == DEAL_OUT
    assert tags["Dealer"] == "S"
    assert tags["Vulnerable"] == "NS"
    assert tags["Contract"] == "1NTXX"
    assert tags["Declarer"] == "S"
    assert tags["Result"] == "13"
    assert tags["Score"] == "NS 2810"
    assert tags["Auction"] == "S"
    assert "\n1NT X XX Pass\nPass Pass\n" in out
    assert out.count("[Deal ") == 1                       # hand 2 is not finished
    # the exported deal reads back as the same deal
    back = pbn.read(out)
    assert back.dealer == 2 and back.vulnerable == "NS" and back.hands == pbn.read(DEAL_PBN).hands
    # to a file
    o = tmp_path / "out.pbn"
    r = runner.invoke(app, ["replay", str(f), "--pbn", str(o)])
    assert r.exit_code == 0 and "1 deal written to" in r.output
    assert o.read_text(encoding="utf-8") == out


def test_replay_pbn_errors(tmp_path):
    f = tmp_path / "fh.json"
    assert play(["fivehundred-minus-500", "--auto", "--players", "random,random,random", "--seed", "1",
                 "--quiet", "--save", str(f)]).exit_code == 0
    r = runner.invoke(app, ["replay", str(f), "--pbn"])
    assert r.exit_code == 1 and "error:" in r.output
    r = runner.invoke(app, ["replay", str(f), str(tmp_path / "x.pbn")])
    assert r.exit_code == 2 and "only for --pbn" in r.output
    w = tmp_path / "whist.json"
    assert play(["whist", "--auto", "--players", "random,random,random,random", "--seed", "1", "--quiet",
                 "--save", str(w)]).exit_code == 0
    r = runner.invoke(app, ["replay", str(w), "--pbn"])
    assert r.exit_code == 1 and "no finished deal with an auction" in r.output


def test_replay_pbn_of_a_random_bridge_match(tmp_path):
    f = tmp_path / "b.json"
    assert play(["bridge", "--auto", "--players", "random,random,random,random", "--seed", "2", "--quiet",
                 "--max-hands", "6", "--save", str(f)]).exit_code == 0
    r = runner.invoke(app, ["replay", str(f), "--pbn"])
    assert r.exit_code == 0, r.output
    games = r.output.count("[Deal ")
    assert games == 6
    for block in r.output.split("\n\n")[1:]:
        deal = pbn.read(block)
        assert sorted(len(h) for h in deal.hands.values()) == [13] * 4


# ---------------------------------------------------------------------- bots to the end
def test_bridge_auto_sensible_bots_short_match():
    r = play(["bridge", "--auto", "--seed", "1", "--quiet", "--max-hands", "2"])
    assert_clean(r)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "WE (NS)" in out and "THEY (EW)" in out and "═" in out
    assert re.search(r"^(NS|EW) win: .* \((stopped after 2 hands|1 rubber played)\)\.$", out, re.M)
    assert re.search(r"^settlement: ", out, re.M)
    assert "Hand 1" not in out                            # quiet: no hand stories


def test_bridge_auto_summary_shows_vulnerability_and_contracts():
    r = play(["bridge", "--auto", "--players", "random,random,random,random", "--seed", "1", "--max-hands", "3"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert re.search(r"^Hand 1 — dealer [NESW] — NS and EW not vulnerable$", out, re.M)
    assert re.search(r"^  contract  \d(NT|[♠♥♦♣])(XX? \((re)?doubled\))? by [NESW], ", out, re.M)
    assert re.search(r"^(NS|EW) win: [NESW] and [NESW] \(stopped after 3 hands\)\.$", out, re.M)


@pytest.mark.parametrize("variant, extra", [
    ("bridge", ["--max-hands", "30"]),
    ("bridge-duplicate", []),
    ("bridge-chicago", []),
    ("whist", []),
    ("whist-declared", []),
    ("whist-english", []),
])
def test_random_bots_play_every_partnership_variant_to_the_end(tmp_path, variant, extra):
    f = tmp_path / "g.json"
    r = play([variant, "--auto", "--players", "random,random,random,random", "--seed", "1", "--quiet",
              "--save", str(f), *extra])
    assert_clean(r)
    assert r.exit_code == 0, r.output
    assert re.search(r"^((NS|EW) win: |A tie: NS and EW )", r.output, re.M)   # never "NS and EW win"
    rec = records.load(f)
    assert rec["result"]["winners"]
    if extra:
        assert rec["max_hands"] == 30
    rep = runner.invoke(app, ["replay", str(f)])          # sides' records replay (and --max-hands with them)
    assert rep.exit_code == 0, rep.output
    assert " win: " in rep.output or "A tie: " in rep.output


def test_whist_auto_seed_1_shows_game_points():
    r = play(["whist", "--auto", "--seed", "1", "--quiet"])
    assert_clean(r)
    assert r.exit_code == 0, r.output
    assert re.search(r"\d+ game pts", r.output)
    assert re.search(r"^(NS|EW) win: .*rubber", r.output, re.M)
    assert "settlement" not in r.output                    # whist settles no money


def test_max_hands_stops_a_long_match():
    r = play(["whist", "--auto", "--players", "random,random,random,random", "--seed", "4", "--max-hands", "1"])
    assert r.exit_code == 0, r.output
    assert len(re.findall(r"^Hand \d+ — dealer", r.output, re.M)) == 1
    assert "stopped after 1 hand" in r.output
    r = play(["--resume", "x.json", "--max-hands", "3"])
    assert r.exit_code == 2 and "--max-hands cannot be used with --resume" in r.output


def test_a_bid_is_worth_at_least_its_trick_score_where_honours_may_add():
    """[S7] honours held score for their side: what a made 1♣ brings is 20 or more, so the prompt
    says "at least 20" (a grand slam not vulnerable, 220 + 1000 [S5]); Five Hundred's 7♣ scores
    exactly 160. A remark copied with the call is no part of it."""
    from rulekit.cli.render import WORTH_REMARK, worth_words
    from rulekit.engine import State
    from rulekit.variant import load_variant
    s = State(load_variant("bridge"), seed=3)
    bids = {b.text: b for b in s.current_bids()}
    assert (worth_words(s, bids["1C"]), worth_words(s, bids["1NT"]), worth_words(s, bids["7NT"])) == \
        ("at least 20", "at least 40", "at least 1220")
    s = State(load_variant("fivehundred"), seed=3)
    assert worth_words(s, {b.text: b for b in s.current_bids()}["7C"]) == "160"
    assert WORTH_REMARK.sub("", "1C (worth at least 20)") == "1C"
