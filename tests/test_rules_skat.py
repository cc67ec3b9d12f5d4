"""Skat (variants/skat.yaml) against docs/rules/skat.md: its worked examples, and random deals
played side by side with the independent referee (tests/referees/skat.py): the same legal set at
every decision, the same declarer, game, card points and scores.

Seats are the same in both (0, 1, 2 clockwise; forehand left of the dealer). Actions map
word for word: the referee's ``bid 18`` / ``yes`` / ``pass`` are rulekit's ``18`` / ``hold`` /
``pass``; ``take skat`` / ``hand`` are ``take`` / ``hand``; ``discard X Y`` is one discard of
both cards; ``game clubs schneider`` is the call ``clubsschneider`` (``game null ouvert``:
``nullouvert``); ``play JC`` is ``play JC``.
"""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from rulekit.variant import load_variant
from rulekit.cards import bits
from tests.helpers import assert_plays_to_a_winner, explicit_order
from tests.referees import skat as ref

V = load_variant("skat")
N = 3


def state(hands: list[list[str]], skat: list[str], dealer: int = 2) -> State:
    """A deal of ``hands`` (by seat) and the ``skat``, ``dealer`` dealing."""
    order = explicit_order(V, dealer, hands, {"widow": skat})
    return State(V, seed=0, deals=[order], dealer=dealer)


def rk_action(a: str) -> str:
    """A referee action in rulekit's words."""
    if a == "yes":
        return "hold"
    if a == "take skat":
        return "take"
    if a.startswith("bid "):
        return a[4:]
    if a.startswith("game "):
        return a[5:].replace(" ", "")
    return a


def page_legal(s: State) -> list[str]:
    """The legal actions of ``s`` in the referee's words, sorted as it sorts them."""
    out = []
    phase = s.phase_kind
    for a in s.legal_actions():
        t = a.text
        if a.kind == "play":
            out.append("play " + V.deck.name(a.card))
        elif t.startswith("discard"):
            out.append("discard " + " ".join(sorted(t.split()[1:])))
        elif t == "hold":
            out.append("yes")
        elif t == "take":
            out.append("take skat")
        elif t == "pass" or t == "hand":
            out.append(t)
        elif phase == "announce":
            out.append("game " + GAME_WORDS[t])
        else:
            out.append("bid " + t)
    return sorted(out)


GAME_WORDS = {b.text: b.text for b in V.auction().games}
for _t in list(GAME_WORDS):
    for _w in ("schneider", "schwarz", "ouvert"):
        if _t.endswith(_w) and _t != _w:
            GAME_WORDS[_t] = _t[:-len(_w)] + " " + _w


def play(s: State, actions: list[str]) -> None:
    for a in actions:
        s.apply(rk_action(a))


def finished(s: State):
    return s.hand_log[-1]


# ------------------------------------------------------------------ the worked examples
DEAL_A = ("JC JS JH JD AC 10C KC QC 9C 8C / AS 10S KS QS 9S 8S 7S AH 10H KH / "
          "AD 10D KD QD 9D 8D 7D QH 9H 8H / 7C 7H")
DEAL_B = ("AD 10D KD QD 9D 8D 7D AS 10S KS / JS JH AC 10C KC QC 9C 8C 7C QS / "
          "JD AH 10H KH QH 9H 8H 7H 9S 8S / JC 7S")
DEAL_C = ("7C 8C 9C 7S 8S 9S 7H 8H 9H 7D / JS JH AC 10C KC QC AS 10S KS QS / "
          "JD AH 10H KH QH AD 10D KD QD 9D / JC 8D")
DEAL_D = ("AC KC QC AS KS QS AH KH AD KD / 10C JC 9C 8C 7C 10S JS 9S 8S 7S / "
          "QH 10H JH 9H 8H 7H QD 10D JD 9D / 8D 7D")


def parse(deal: str) -> tuple[list[list[str]], list[str]]:
    parts = [p.split() for p in deal.split("/")]
    return parts[:3], parts[3]


def deal(text: str) -> State:
    hands, skat = parse(text)
    return state(hands, skat)


def play_out(s: State) -> None:
    """The first legal card until the hand is over."""
    h = s.hand
    while s.hand is h and not s.is_over:
        s.apply(s.legal_actions()[0])


def test_example1_bid_values():
    """[SK-B2] the 63 values from 18 to 264."""
    values = [int(b.text) for b in V.auction().values]
    assert values == ref.BID_VALUES and len(values) == 63


def test_example2_auction_in_pairs():
    """[SK-B3]-[SK-B5] [SK-B8] MH bids to FH, RH to the survivor; RH's lowest bid is 22."""
    s = deal(DEAL_A)
    s.apply("18")
    assert sorted(a.text for a in s.legal_actions()) == ["hold", "pass"] and s.to_move == 0
    play(s, ["yes", "bid 20", "pass"])
    assert s.to_move == 2 and [a.text for a in s.legal_actions()][:2] == ["pass", "22"]
    play(s, ["bid 22", "yes", "bid 23", "pass"])
    assert s.hand.declarer == 2 and s.to_move == 2


def test_example3_all_pass_throws_the_deal_in():
    """[SK-B6] [SK-B7] MH and RH pass, FH may bid 18 or pass; all pass: no score, next dealer."""
    s = deal(DEAL_A)
    play(s, ["pass", "pass"])
    assert s.to_move == 0 and sorted(a.text for a in s.legal_actions()) == ["18", "pass"]
    s.apply("pass")
    assert s.hand.number == 1 and s.hand.dealer == 0
    assert s.sheet.totals() == [0, 0, 0]


def test_example4_clubs_ouvert_hand():
    """[SK-G5] [SK-V3] [SK-V4] with 11, clubs ouvert (hand, schwarz announced): multiplier 18,
    value 216; FH's hand lies open before the lead; after J♣ led MH may play any card."""
    s = deal(DEAL_A)
    play(s, ["pass", "pass", "bid 18", "hand", "game clubs ouvert"])
    assert s.hand.open_after[0] == 0
    for seat in (1, 2):
        seen = s.observation(seat)
        assert seen.open_seats == [0] and seen.open_hands == s.hand.hands[0]   # his hand is seen
        assert seen.hidden_zones.get("widow") == 2                  # the skat is not
    s.apply("play JC")
    assert len(s.legal_actions()) == 10                            # MH holds no trump
    play_out(s)
    h = finished(s)
    assert h.won[0] == 10 and h.entries == [216, 0, 0]


def test_example5_games_that_cannot_reach_the_bid_are_refused():
    """[SK-G6] bid 45, the J♣ found in the skat: diamonds, hearts, spades and null are refused;
    clubs (48), grand (96) and null ouvert (46) may be announced."""
    s = deal(DEAL_B)
    play(s, ["bid 45", "yes", "pass", "pass", "take skat", "discard 7S QD"])
    games = sorted(a.text for a in s.legal_actions())
    assert games == ["clubs", "grand", "nullouvert"]
    with pytest.raises(IllegalActionError):
        s.apply("diamonds")


def test_example6_overbid_grand_hand():
    """[SK-V3] [SK-V5] bid 144, grand hand, no trick, the J♣ in the skat makes it "with 1":
    value 120 < 144, overbid, valued 144 and scored -288."""
    s = deal(DEAL_C)
    play(s, ["bid 144", "yes", "pass", "pass", "hand", "game grand"])
    play_out(s)
    h = finished(s)
    assert h.won[0] == 0 and h.entries == [-288, 0, 0]


@pytest.mark.parametrize("game, score", [("null", 35), ("null ouvert", 59)])
def test_example7_null_hand(game, score):
    """[SK-V6] [SK-S4] null hand with a hand that takes no trick: +35; null ouvert hand: +59."""
    s = deal(DEAL_C)
    play(s, ["pass", "pass", "bid 18", "hand", "game " + game])
    play_out(s)
    assert finished(s).entries == [score, 0, 0]


def test_example8_null_lost_at_the_first_trick():
    """[SK-P5] [SK-S5] null hand won by the declarer's first trick: play stops, -70."""
    s = deal(DEAL_D)
    play(s, ["pass", "pass", "bid 18", "hand", "game null"])
    play_out(s)
    h = finished(s)
    assert len(h.tricks) == 1 and h.entries == [-70, 0, 0]


def test_example9_jacks_follow_the_trumps():
    """[SK-C3] [SK-P2] spades led: MH must play the J♦ (his only trump), RH may play J♣ J♠ J♥."""
    s = deal("AS 10S KS QS 9S 8S 7S AC 10C KC / JD 7D 8D 9D AH 10H KH QH 9H 8H / "
             "JC JS JH AD 10D KD QD 7H QC 9C / 8C 7C")
    play(s, ["pass", "pass", "bid 18", "hand", "game spades", "play AS"])
    assert [V.deck.name(a.card) for a in s.legal_actions()] == ["JD"]
    s.apply("play JD")
    assert sorted(V.deck.name(a.card) for a in s.legal_actions()) == ["JC", "JH", "JS"]


def test_the_matadors_of_a_hand_game_count_the_unseen_skat():
    """[SK-V3] the matadors are counted on the ten cards and the skat as dealt, taken or not:
    DEAL_C's grand hand is "with 1" by the J♣ in the skat."""
    from rulekit.engine.phases import matadors
    s = deal(DEAL_C)
    play(s, ["bid 18", "yes", "pass", "pass", "hand", "game grand"])
    assert matadors.exact(V, s.hand) == (1, True)
    s = deal(DEAL_B)                    # FH without the J♣: diamonds "without 4" ...
    play(s, ["bid 18", "yes", "pass", "pass", "take skat", "discard 7S QD", "game diamonds"])
    assert matadors.exact(V, s.hand) == (1, True)   # ... but the skat's J♣ makes it "with 1"


def test_a_hand_game_may_count_on_the_unseen_skat():
    """[SK-G6] (the referee's reading for hand games): in a hand game the declarer may announce
    any game some skat he cannot rule out would let reach the bid; the skat's real cards do not
    change what he may announce."""
    s = deal(DEAL_B)
    play(s, ["bid 45", "yes", "pass", "pass", "hand"])
    games = sorted(a.text for a in s.legal_actions())
    r = ref.Deal(*_ref_args(DEAL_B))
    for a in ["bid 45", "yes", "pass", "pass", "hand"]:
        r.apply(a)
    assert page_legal(s) == r.legal()
    other = state(parse(DEAL_B)[0][:1] + [parse(DEAL_B)[0][1][:9] + ["7S"], parse(DEAL_B)[0][2]],
                  ["JC", parse(DEAL_B)[0][1][9]])
    play(other, ["bid 45", "yes", "pass", "pass", "hand"])
    assert sorted(a.text for a in other.legal_actions()) == games


def _ref_args(text: str):
    hands, skat = parse(text)
    return hands, {"skat": skat}, 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_auto_play_ends_with_a_winner(seed):
    """``rulekit play skat --auto`` ends for any seed: 36 deals, the highest total wins."""
    s = assert_plays_to_a_winner("skat", seed)
    assert len(s.sheet.rows) == 36


# ------------------------------------------------------------------ the referee, side by side
def choose(rng: random.Random, legal: list[str], phase: str) -> str:
    """A random action, with bids kept low and passes frequent so that every kind of game comes up."""
    if phase == "bidding":
        bids = [a for a in legal if a.startswith("bid")]
        if bids and rng.random() < 0.55:
            return bids[min(int(rng.expovariate(0.5)), len(bids) - 1)]
        return "yes" if "yes" in legal and rng.random() < 0.5 else "pass"
    return legal[rng.randrange(len(legal))]


def cross_check(deals: int, seed: int, variant=None, options=None) -> tuple[int, int, dict]:
    """Play ``deals`` random deals through rulekit (``variant``, default Skat) and the referee
    (with ``options``) with the same choices: equal legal sets at every decision, equal results.
    Returns ``(deals, decisions, games seen)``."""
    v = variant or V
    rng = random.Random(seed)
    decisions = 0
    seen: dict = {}
    for k in range(deals):
        dealer = rng.randrange(N)
        hands, extra = ref.deal_random(rng, dealer)
        r = ref.Deal(hands, extra, dealer, options)
        s = State(v, seed=0, deals=[explicit_order(v, dealer, hands, {"widow": extra["skat"]})], dealer=dealer)
        h = s.hand
        while not r.is_over():
            if r.phase == "declare" and s.phase_kind != "announce":   # a single game is announced at once
                only = r.legal()
                assert len(only) == 1 and s.hand.contract.text == rk_action(only[0]), (k, only)
                r.apply(only[0])
                continue
            assert s.hand is h and s.to_move == r.to_move(), (k, r.phase)
            mine = page_legal(s)
            assert mine == r.legal(), (k, r.phase, r.history, mine, r.legal())
            decisions += 1
            act = choose(rng, mine, r.phase)
            r.apply(act)
            s.apply(rk_action(act))
        res = r.result()
        assert s.hand is not h, k
        done = finished(s)
        if res["thrown_in"]:
            assert done.contract is None and not any(done.entries or [0]), k
            seen["thrown in"] = seen.get("thrown in", 0) + 1
            continue
        game = res["game"] + (" hand" if res["hand"] else "") + (" overbid" if res.get("overbid") else "")
        seen[game] = seen.get(game, 0) + 1
        assert done.declarer == res["declarer"] and done.won == res["tricks"], (k, res)
        if "card_points" in res:
            pts = V.points_table(done.ctx)
            mine_pts = sum(pts[c] for c in range(V.deck.size) if done.won_cards[done.declarer] >> c & 1)
            assert mine_pts == res["card_points"]["declarer"], (k, res)
        assert list(done.entries) == res["scores"], (k, r.history, done.entries, res)
    return deals, decisions, seen


def test_random_deals_agree_with_the_referee():
    """40 random deals: the same legal actions at every decision (bids, the skat, discards, the
    games allowed, plays), the same declarer, tricks, card points and scores."""
    deals, decisions, seen = cross_check(40, 11)
    assert decisions >= 40 * 10 and len(seen) >= 5, seen


def test_seeger_fabian_agrees_with_the_referee():
    """[SK-M3] the house rule skat-seeger-fabian: 30 random deals score as the referee's option
    (won: value + 50; lost: -2 x value - 50, and 40 to each opponent)."""
    sf = load_variant("skat-seeger-fabian")
    deals, decisions, seen = cross_check(30, 21, sf, {"seeger_fabian": True})
    assert deals == 30 and len(seen) >= 4


def test_example4_and_6_under_seeger_fabian():
    """[SK-M3] clubs ouvert hand won: +266; grand hand overbid: -338 and +40 to each defender."""
    sf = load_variant("skat-seeger-fabian")
    hands, skat = parse(DEAL_A)
    s = State(sf, seed=0, deals=[explicit_order(sf, 2, hands, {"widow": skat})], dealer=2)
    play(s, ["pass", "pass", "bid 18", "hand", "game clubs ouvert"])
    play_out(s)
    assert finished(s).entries == [266, 0, 0]
    hands, skat = parse(DEAL_C)
    s = State(sf, seed=0, deals=[explicit_order(sf, 2, hands, {"widow": skat})], dealer=2)
    play(s, ["bid 144", "yes", "pass", "pass", "hand", "game grand"])
    play_out(s)
    assert finished(s).entries == [-338, 40, 40]


@pytest.mark.slow
def test_many_random_deals_agree_with_the_referee():
    """600 more random deals (the slow run)."""
    deals, decisions, seen = cross_check(600, 12)
    assert len(seen) >= 12, seen


# ------------------------------------------------------------------ OpenSpiel's simplified skat
def _openspiel(deals: int, seed: int) -> dict:
    pytest.importorskip("pyspiel")
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "skat_openspiel.py"
    spec = importlib.util.spec_from_file_location("skat_openspiel", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.cross_check(deals, seed)


def test_random_deals_agree_with_openspiel():
    """40 random deals of OpenSpiel's skat (its declarer, game and discards; random cards) played
    in rulekit too: the same legal cards at every card decision, the same declarer's card points
    (null: whether he took a trick); the rule differences are listed on the variant's page."""
    out = _openspiel(40, 3)
    assert out["deals"] == 40 and out["card decisions"] >= 40 * 20


@pytest.mark.slow
def test_many_random_deals_agree_with_openspiel():
    """500 more deals against OpenSpiel (the slow run)."""
    out = _openspiel(500, 4)
    assert len(out["games"]) == 6


# ------------------------------------------------------------------ fair play, records
def test_the_open_hand_is_in_every_sampled_world_and_the_skat_is_not_known():
    """[SK-G1] [SK-G5] In an ouvert hand game the defenders' sampled worlds all give the declarer
    his real cards (laid open), while the untouched skat is rebuilt only from cards the defender
    cannot place: it varies from world to world and never holds one of his own cards."""
    import random as _r
    s = deal(DEAL_A)
    play(s, ["pass", "pass", "bid 18", "hand", "game clubs ouvert"])
    obs = s.observation(1)
    rng = _r.Random(2)
    skats = set()
    for _ in range(20):
        w = obs.sample_world(rng)
        assert w.hand.hands[0] == s.hand.hands[0]
        skat = w.hand.zones.get("widow", 0)
        assert not skat & s.hand.hands[1] and bin(skat).count("1") == 2
        skats.add(skat)
    assert len(skats) > 1


def test_a_record_replays_the_match():
    """A record of a played match (bids, hand games, discards, games, ouvert) replays to the same sheet."""
    import json

    from rulekit.records import replay, to_record
    from tests.helpers import play_random
    s = play_random(State(V, seed=4), seed=4)
    rec = json.loads(json.dumps(to_record(s)))
    assert replay(rec).sheet.totals() == s.sheet.totals() and s.is_over


def test_a_player_at_the_prompt_may_say_hand():
    """[SK-G1] At the terminal "hand" is also the command that shows the table; where it is a
    legal action (playing without the skat) the prompt takes it as the action."""
    import io

    from rich.console import Console

    from rulekit.cli.game import Game
    s = deal(DEAL_A)
    play(s, ["pass", "pass", "bid 18"])
    g = Game(s, ["human", "random", "random"], Console(file=io.StringIO(), width=100))
    g.read = lambda prompt: "hand"
    assert g.ask(0).text == "hand"
    s.apply("hand")
    lines = iter(["hand", "grand"])
    g.read = lambda prompt: next(lines)
    assert g.ask(0).text == "grand"      # no longer an action here: "hand" shows the table


# ------------------------------------------------------------------ values, through the scorepad
def pad_entry(contract: str, hand: bool, matadors: str, tricks: str, points: str, bid: int = 18) -> list:
    """The entries the scorepad writes for one hand of seat 0 declaring, typed as a scorer would."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(V)
    facts: dict = {}
    answers = {"contract": contract, "declarer": pad.names[0], "phase:auction:bid": str(bid),
               "phase:skat:hand": "yes" if hand else "no", "matadors": matadors, "tricks": tricks,
               "points": points}
    while (q := pad.next_question(facts)) is not None:
        pad.answer(q, answers[q.name], facts)
    return list(pad.add(facts).entries)


@pytest.mark.parametrize("contract, hand, matadors, tricks, points, score", [
    ("clubs", False, "with 2", "6 2 2", "70 25 25", 36),
    ("grand", True, "without 2", "6 2 2", "70 25 25", 96),
    ("hearts", False, "with 1", "8 1 1", "92 14 14", 30),
    ("spades", False, "without 3", "4 3 3", "50 35 35", -88),
    ("grandouvert", True, "with 4", "10 0 0", "120 0 0", 264),
    ("clubsschwarz", True, "with 1", "9 1 0", "110 10 0", -168),
    ("grand", False, "with 1", "3 4 3", "28 50 42", -144),
])
def test_example10_game_values(contract, hand, matadors, tricks, points, score):
    """[SK-V1]-[SK-V4] [SK-S5] the page's values, typed into the scorepad: clubs with 2 = 36;
    grand hand without 2 = 96; hearts with 1 and schneider = 30; spades without 3 lost = -88;
    grand ouvert with 4 = 264; clubs hand schwarz announced, a trick to the defenders = -168;
    grand with 1 lost with 28 points (schneider) = -144."""
    assert pad_entry(contract, hand, matadors, tricks, points) == [score, 0, 0]


def test_example11_overbid_by_the_skat():
    """[SK-V5] bid 30 for hearts "without 2", the J♣ in the skat makes it "with 1" (20): 75 card
    points lose -60 (valued 30), 95 card points win +30 (schneider reaches 30)."""
    assert pad_entry("hearts", False, "with 1", "7 2 1", "75 30 15", bid=30) == [-60, 0, 0]
    assert pad_entry("hearts", False, "with 1", "8 1 1", "95 15 10", bid=30) == [30, 0, 0]


def test_example12_null_values():
    """[SK-V6] null lost: -46; null ouvert hand won: +59."""
    assert pad_entry("null", False, "", "1 5 4", "10 60 50") == [-46, 0, 0]
    assert pad_entry("nullouvert", True, "", "0 5 5", "0 60 60") == [59, 0, 0]


def test_sensible_bots_bid_and_play_skat():
    """The sensible bots bid values, take the skat or play hand, name games that can reach their
    bid and play: six deals end with scored games, most of them made."""
    from rulekit.bots.base import make_bot
    from tests.helpers import play_with_bots
    s = play_with_bots(State(V, seed=5, max_hands=6), [make_bot("sensible", seed=k) for k in range(N)])
    played = [h for h in s.hand_log if h.contract is not None]
    assert len(s.hand_log) == 6 and s.winners and played
    made = [h for h in played if max(h.entries) > 0]
    assert len(made) * 2 >= len(played), [(h.contract.text, h.entries) for h in played]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rulekit_play_auto_ends_with_a_winner(seed):
    """``rulekit play skat --auto --seed N`` (the sensible bots) plays the 36 deals to a winner."""
    from typer.testing import CliRunner

    from rulekit.cli.app import app
    r = CliRunner().invoke(app, ["play", "skat", "--auto", "--seed", str(seed)])
    assert r.exit_code == 0 and "wins (36 deals played)" in r.output, r.output[-500:]


#: A house file of Skat's extras beyond the ISkO series that a file can say (docs/authoring.md,
#: "What rulekit cannot express yet"): Kontra and Re as announcements, each doubling the game,
#: and Ramsch when all pass: the hand is played at no trump, the jacks alone trumps
#: (``ranking.top``), and the player with the most card points loses them.
KONTRA_RAMSCH = """\
id: skat-kontra-ramsch
extends: skat
name: Skat with Kontra, Re and Ramsch
phases:
  auction: {all_pass: play}
  play:
    announcements:
      kontra: {by: others, until: {cards: 10}}
      re: {by: declarer, after: [kontra], until: {cards: 10}, reply: true}
scoring:
  declarer: "(if won then scored else -2 * scored) * (1 + against_kontra) * (1 + announced_re)"
  no_contract: "if points == max(points) then -points else 0"
"""


def test_kontra_re_and_ramsch_in_a_house_file(tmp_path):
    """Ramsch: all pass, the hand is played at no trump with the jacks above the suits (a
    diamond led: the J♦ does not follow it) and the most card points lose them; Kontra: a
    defender says it before his first card, then the declarer may answer Re, and each doubles
    the game (a diamonds hand without 4 is worth 9 x 6 = 54, lost as played here: -108; after
    Kontra and Re -432)."""
    from tests.helpers import variant_from
    v = variant_from(tmp_path, "extras.yaml", KONTRA_RAMSCH)
    hands, skat = parse(DEAL_C)
    s = State(v, seed=0, deals=[explicit_order(v, 2, hands, {"widow": skat})], dealer=2)
    play(s, ["pass", "pass", "pass"])
    h = s.hand
    assert (h.contract, h.declarer, h.trump, s.to_move) == (None, -1, "NT", 0)
    play(s, ["play 7D", "play AS"])
    assert sorted(a.text for a in s.legal_actions() if a.kind == "play") == \
        ["play 10D", "play 9D", "play AD", "play KD", "play QD"]
    play_out(s)
    table = v.points_table(h.ctx)
    points = [sum(table[c] for c in bits(m)) for m in h.won_cards]
    assert max(points) > 0 and h.entries == [-p if p == max(points) else 0 for p in points]

    def diamonds_hand(words: list[str]) -> State:
        hands, skat = parse(DEAL_A)
        s = State(v, seed=0, deals=[explicit_order(v, 2, hands, {"widow": skat})], dealer=2)
        play(s, ["bid 18", "yes", "bid 20", "pass", "bid 22", "yes", "bid 23", "pass", "hand", "diamonds"])
        assert s.hand.declarer == 2 and s.to_move == 0
        play(s, words)
        return s
    s = diamonds_hand([])
    assert "kontra" in [a.text for a in s.legal_actions()] and "re" not in [a.text for a in s.legal_actions()]
    play(s, ["kontra", "play JC", "play AS"])
    assert "re" in [a.text for a in s.legal_actions()] and s.to_move == 2
    s.apply("re")
    play_out(s)
    plain = diamonds_hand([])
    play_out(plain)
    assert (plain.hand_log[-1].entries[2], s.hand_log[-1].entries[2]) == (-108, -432)
