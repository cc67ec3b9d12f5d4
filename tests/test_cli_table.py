"""What the terminal shows at the table: no hidden card or
seed on screen, hands sorted as card players sort them, the auction grid by seat, card points and
bid values shown."""
from __future__ import annotations

import io
import json
import re

from rich.console import Console
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.cli.game import Game, help_text
from rulekit.cli.render import auction_table, hand_header, hand_text, legal_text, suit_order, table_view
from rulekit.engine import State
from rulekit.errors import InvalidActionError
from rulekit.variant import load_variant
from tests.helpers import plain

runner = CliRunner()


def play(args, input=None):
    return runner.invoke(app, ["play", *args], input=input)


def plain_buf(renderable, width=120) -> str:
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None).print(renderable)
    return buf.getvalue()


class Typist(Console):
    """A console whose prompt answers Enter to pauses and the first legal action otherwise."""

    def __init__(self, *a, game=None, **k):
        super().__init__(*a, file=io.StringIO(), width=120, color_system=None, **k)
        self.game = game
        self.pauses = 0

    def input(self, prompt="", **kw):
        self.print(prompt, end="")
        if "press Enter" in str(prompt):
            self.pauses += 1
            self.print("")
            return ""
        st = self.game.state
        text = st.legal_actions()[0].text
        self.print(text)
        return text


# ---------------------------------------------------------------------- the seed
def test_seed_is_not_shown_before_the_end(tmp_path):
    """A seed on screen lets `play --auto --seed N` elsewhere show every hidden card;
    it is shown when the match is over (and by replay of a finished match) only."""
    r = play(["fivehundred", "--seed", "987654321", "--save", str(tmp_path / "g.json")], input="pass\nquit\n")
    assert r.exit_code == 0, r.output
    assert "987654321" not in r.output
    r = runner.invoke(app, ["replay", str(tmp_path / "g.json")])
    assert r.exit_code == 0, r.output
    assert "987654321" not in r.output and "game in progress" in r.output
    r = play(["fivehundred", "--auto", "--seed", "987654321", "--max-hands", "1"])
    assert r.exit_code == 0, r.output
    assert [line for line in r.output.splitlines() if "987654321" in line] == [r.output.splitlines()[-1]]
    assert "seed 987654321 (play these deals again with --seed 987654321)" in r.output.splitlines()[-1]


def test_random_seed_is_not_shown_before_the_end(tmp_path, monkeypatch):
    """The seed drawn at random appears neither on screen nor in the default record name."""
    monkeypatch.chdir(tmp_path)
    r = play(["fivehundred"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "rulekit-fivehundred.json").exists()
    seed = json.loads((tmp_path / "rulekit-fivehundred.json").read_text())["seed"]
    assert not re.search(rf"\b{seed}\b", r.output)


def test_hands_are_hidden_between_two_humans_at_one_terminal():
    """With several humans on one terminal, the screen is cleared and the game
    waits ("Pass to P1, press Enter") before the next human's hand is shown."""
    v = load_variant("fivehundred")
    st = State(v, seed=5, names=["P0", "P1", "P2"])
    con = Typist()
    g = Game(st, ["human", "human", "bot"], con, None, pauses=True)
    con.game = g
    while len({s for s, _ in st.history if s < 2}) < 2:
        g.step()
    out = con.file.getvalue()
    first, second = [s for s, _ in st.history if s < 2]
    hand_off = out.index(f"Pass to {st.names[second]}, press Enter")
    assert out.index(f"{st.names[first]} (bid) >") < hand_off < out.index(f"{st.names[second]} (bid) >")
    assert out[:hand_off].count("your hand") == 1          # only the first human's hand before it


def test_no_pause_for_piped_input():
    """A script on stdin never waits (pauses off), so its lines are all actions."""
    v = load_variant("fivehundred")
    st = State(v, seed=5, names=["P0", "P1", "P2"])
    con = Typist()
    g = Game(st, ["human", "human", "bot"], con, None)
    con.game = g
    for _ in range(6):
        g.step()
    assert con.pauses == 0 and "press Enter" not in con.file.getvalue()


# ---------------------------------------------------------------------- face-down zones
ZONES = """\
id: zones
name: Zones
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {cut: high}
  rotation: left
phases:
  deal:
    kind: deal
    pattern: "3 3 1, widow 1 up, aside 2 down"
  play:
    kind: tricks
    lead: eldest
scoring:
  each: "tricks"
match:
  deals: 3
"""


def test_face_down_zone_is_not_in_the_hand_header(tmp_path):
    """`widow 1 up, aside 2 down`: the header shows the face-up widow card, never
    the two cards put aside face down."""
    f = tmp_path / "zones.yaml"
    f.write_text(ZONES)
    v = load_variant(str(f))
    st = State(v, seed=3)
    h = st.hand
    deck = v.deck
    widow, aside = h.zones["widow"], h.zones["aside"]
    assert widow.bit_count() == 1 and aside.bit_count() == 2
    text = plain_buf(hand_header(st, h))
    up = deck.name(widow.bit_length() - 1)
    assert f"widow {up[:-1]}" in text
    assert "aside" not in text
    for c in range(deck.size):
        if aside >> c & 1:
            name = deck.name(c)
            sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[name[-1]]
            assert name[:-1] + sym not in text
    r = play([str(f), "--auto", "--seed", "3", "--max-hands", "1"])
    assert r.exit_code == 0, r.output
    assert "aside" not in r.output.splitlines()[1]


# ---------------------------------------------------------------------- auction grid
def test_auction_grid_keeps_calls_under_their_seat_after_a_pass_for_good():
    """In a ladder auction a passed seat is skipped; the later calls stay in their
    callers' columns (the old grid shifted them one column left)."""
    v = load_variant("fivehundred")
    st = State(v, seed=2)
    h = st.hand
    for text in ("pass", "6S", "6C", "7S", "7C"):     # eldest passes for good, the others go on
        st.apply(text)
    t = auction_table(st, h, viewer=0)
    columns = {str(c.header).split()[0]: [str(x) for x in c._cells] for c in t.columns}
    by_seat = {}
    for s, a in h.calls:
        by_seat.setdefault(st.names[s], []).append(a.replace("S", "♠").replace("C", "♣"))
    for name, calls in by_seat.items():
        assert [x for x in columns[name] if x and x != "?"] == calls, columns
    assert [x for x in columns[st.names[h.eldest]] if x] == ["pass"]


# ---------------------------------------------------------------------- hands, pauses
def test_bridge_hand_is_sorted_spades_hearts_diamonds_clubs_high_first():
    """♠ ♥ ♦ ♣, high cards first; with trumps, the trump suit first."""
    v = load_variant("bridge")
    assert suit_order(v.deck) == ["S", "H", "D", "C"]
    assert suit_order(v.deck, "D") == ["D", "S", "H", "C"]
    st = State(v, seed=11)
    for seat in range(4):
        groups = hand_text(st, seat).plain.split("  ")
        suits = [g.split()[0][-1] for g in groups]
        assert suits == [s for s in "♠♥♦♣" if s in suits]
        ranks = "AKQJ1098765432"
        for g in groups:
            order = [ranks.index(c[:-1][0]) for c in g.split()]
            assert order == sorted(order)


def _dummy_game(pauses=True):
    """A bridge deal where North declares and the human South is dummy (random bots)."""
    v = load_variant("bridge")
    for seed in range(80):
        st = State(v, seed=seed, names=["N", "E", "You", "W"])
        con = Typist()
        g = Game(st, ["random", "random", "human", "random"], con, None, pauses=pauses)
        con.game = g
        h = st.hand
        while st.phase_kind != "tricks" and st.hand is h:
            if st.to_move == 2:
                con.input(g.prompt(2))    # the human passes (first legal action)
                st.apply("pass")
            else:
                g.step()
        if st.hand is h and h.declarer == 0:
            return g, con, h
    raise AssertionError("no seed where North declares")


def test_dummy_sees_the_declarers_play_trick_by_trick():
    """As dummy, a pause (Enter) after each trick, and one before the next hand."""
    g, con, h = _dummy_game()
    st = g.state
    while st.hand is h:
        g.step()
    out = con.file.getvalue()
    assert out.count("press Enter for the next trick") == 12      # none after the last trick
    assert out.count("press Enter for the next hand") == 1
    assert out.index("trick  1") < out.index("press Enter for the next trick") < out.index("trick  2")


# ---------------------------------------------------------------------- card points
def test_card_points_and_which_total_wins_are_shown_in_play():
    """Rams (lower_is_better, card_points A 11, 10 10, K 4, Q 3, J 2): the points
    taken so far are shown during play, and that the lowest total wins."""
    v = load_variant("rams")
    st = State(v, seed=4, names=["You", "P1", "P2", "P3"])
    while len(st.hand.tricks) < 2:
        st.apply(st.legal_actions()[0])
    h = st.hand
    want = [sum(v.card_points[c] for c in range(v.deck.size) if h.won_cards[s] >> c & 1) for s in range(4)]
    assert sum(want) > 0
    text = plain_buf(table_view(st, 0))
    assert "card points You {}, P1 {}, P2 {}, P3 {}".format(*want) in text
    assert "(lowest total wins)" in text
    assert "(highest total wins)" in plain_buf(table_view(State(load_variant("fivehundred"), seed=1), 0))


# ---------------------------------------------------------------------- bids, discards
def test_bid_list_shows_each_bids_worth_and_help_names_bids_as_refusals_do():
    """`?` lists 7C (160) from the scoring formula (40 + 20 * strain + 100 * (level - 6),
    rules/fivehundred.md [S1]); help and the refusal both name the ladder 6S to 10NT."""
    v = load_variant("fivehundred")
    st = State(v, seed=3)
    legal = legal_text(st).plain
    assert "6S (worth 40)" in legal and "7C (worth 160)" in legal and "10NT (worth 520)" in legal
    assert "a bid from 6S to 10NT" in help_text(v)
    assert "10T over 10NT" in help_text(v)
    g = Game(st, ["human", "bot", "bot"], Console(file=io.StringIO()), None)
    try:
        g.parse("5S")
    except InvalidActionError as e:
        assert "a bid from 6S to 10NT" in str(e)
    else:
        raise AssertionError("5S accepted")


def test_discard_refusal_names_the_repeated_card():
    """`discard 7C 7C 9D` is refused with `7C is named twice`."""
    v = load_variant("fivehundred")
    st = State(v, seed=3)
    st.apply("6S")
    while st.phase_kind != "widow_exchange":
        st.apply("pass")
    g = Game(st, ["human", "bot", "bot"], Console(file=io.StringIO()), None)
    try:
        g.parse("discard 7C 7C 9D")
    except InvalidActionError as e:
        assert "7C is named twice" in str(e)
    else:
        raise AssertionError("repeated discard accepted")

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
    """A hidden hand of one card reads `1 card face down`."""
    f = tmp_path / "blind.yaml"
    f.write_text(BLIND.replace("1 x 2", "1").replace("[J, Q, K, A]", "[K, A]").replace("A K Q J", "A K"))
    s = State(load_variant(str(f)), seed=1)
    assert plain(hand_text(s, s.to_move)).strip() == "1 card face down (not looked at yet)"


# ---------------------------------------------------------------------- hot seat
class _Typist(Console):
    """A console whose prompt answers Enter to pauses and the first legal action otherwise."""

    def __init__(self):
        super().__init__(file=io.StringIO(), width=120, color_system=None, force_terminal=True)
        self.game = None

    def input(self, prompt="", **kw):
        self.print(prompt, end="")
        if "press Enter" in str(prompt):
            self.print("")
            return ""
        text = self.game.state.legal_actions()[0].text
        self.print(text)
        return text


def test_hot_seat_clears_the_scrollback_and_hides_the_first_hand_too():
    """With two humans at one terminal, the first human to move also gets "Pass to X, press
    Enter" before any hand is shown, and each hand-over clears the screen AND the scrollback
    (ESC[2J ESC[3J) with the cursor home (ESC[H)."""
    st = State(load_variant("fivehundred"), seed=5, names=["P0", "P1", "P2"])
    con = _Typist()
    g = Game(st, ["human", "human", "bot"], con, None, pauses=True)
    con.game = g
    while len({s for s, _ in st.history if s < 2}) < 2:
        g.step()
    out = con.file.getvalue()
    first, second = [s for s, _ in st.history if s < 2]
    wipe = "\x1b[2J\x1b[3J\x1b[H"
    assert out.startswith(f"{wipe}Pass to {st.names[first]}, press Enter")
    assert out.index(f"Pass to {st.names[first]}, press Enter") < out.index("your hand")
    hand_off = out.index(f"{wipe}Pass to {st.names[second]}, press Enter")
    assert out[:hand_off].count("your hand") == 1
    assert out.count(wipe) == 2


def test_one_human_gets_no_hand_over_screen():
    """A single human at the terminal is never asked to pass it on."""
    st = State(load_variant("fivehundred"), seed=5, names=["You", "P1", "P2"])
    con = _Typist()
    g = Game(st, ["human", "bot", "bot"], con, None, pauses=True)
    con.game = g
    for _ in range(4):
        g.step()
    assert "Pass to" not in con.file.getvalue() and "\x1b[3J" not in con.file.getvalue()


# ---------------------------------------------------------------------- diagrams, marks, rows
def _played_hand(vid: str, seed: int = 1):
    """A state of ``vid`` after its first hand played at random, and that hand."""
    import random
    s = State(load_variant(vid), seed=seed)
    rng = random.Random(seed)
    while s.hand.number == 0 and not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    return s, s.hand_log[0]


def test_a_finished_hand_is_drawn_as_dealt_at_the_table():
    """Bridge: the diagram of a finished hand puts each seat's dealt cards at its place, North
    on top, West and East beside, the viewer (South) below, a line per suit high cards first."""
    from rulekit.cli.render import dealt_diagram
    s, h = _played_hand("bridge")
    text = plain(dealt_diagram(s, h, 2))
    lines = text.splitlines()
    deck = s.variant.deck
    for seat in range(4):
        spades = [deck.name(c)[:-1] for c in sorted((c for c in range(deck.size) if h.dealt[seat] >> c & 1
                                                     and deck.suit_of(c) == "S"),
                                                    key=lambda c: -s.variant.contexts["NT"].strength[c])]
        assert ("♠ " + (" ".join(spades) or "—")) in text
    row = {name: next(i for i, line in enumerate(lines) if line.strip().startswith(name) or f"  {name} " in line)
           for name in ("N", "W", "S")}
    assert row["N"] < row["W"] < row["S"]
    assert lines[0].startswith("hand 1 as dealt")


def test_cards_dealt_to_no_player_are_shown_below_the_diagram():
    """Five Hundred (three players): the widow, dealt to no player, is listed under the hands."""
    from rulekit.cli.render import dealt_diagram
    s, h = _played_hand("fivehundred")
    widow = s.variant.deck.full_mask
    for m in h.dealt:
        widow &= ~m
    text = plain(dealt_diagram(s, h, 0))
    assert "not dealt to a player: " in text
    assert all(s.variant.deck.pretty(c) in text.split("not dealt to a player: ")[1] for c in range(32)
               if widow >> c & 1)


def test_the_live_game_draws_the_deal_when_a_hand_ends():
    """Live play: after the last trick the hand's diagram comes before its sheet row."""
    s = State(load_variant("whist"), seed=2, names=["You", "P1", "P2", "P3"])
    con = Typist()
    g = Game(s, ["human", "random", "random", "random"], con)
    con.game = g
    g.state.max_hands = 1
    g.run()
    out = plain_buf(con.file.getvalue())
    assert out.index("trick 13") < out.index("hand 1 as dealt") < out.index("hand 1  ")


def test_the_dummy_goes_down_at_its_place_with_the_hands_the_viewer_sees():
    """Bridge: after the opening lead the dummy's cards are drawn at its place with the viewer's
    own; the two others face down with their counts.  Drawn for several people at one terminal,
    only the public hands."""
    from rulekit.cli.render import seen_diagram
    v = load_variant("bridge")
    s = State(v, seed=4)
    while s.kind.role == "auction":
        s.apply("1C" if not s.hand.calls else "pass")
    s.apply(s.legal_actions()[0])
    h = s.hand
    viewer = next(x for x in range(4) if x not in (h.dummy,) and s.controller(x) == x and x != s.hand.leader)
    text = plain(seen_diagram(s, viewer))
    hidden = [x for x in range(4) if x not in (viewer, h.dummy)]
    assert text.count("cards face down") == 2
    assert f"{h.hands[hidden[0]].bit_count()} cards face down" in text
    deck = v.deck
    dummy_spades = " ".join(deck.name(c)[:-1] for c in sorted((c for c in range(52) if h.hands[h.dummy] >> c & 1
                                                              and deck.suit_of(c) == "S"),
                                                             key=lambda c: -v.contexts["NT"].strength[c]))
    assert ("♠ " + (dummy_spades or "—")) in text
    public = plain(seen_diagram(s, viewer, others_shown=False))
    assert public.count("cards face down") == 3


def test_a_card_counting_as_another_suit_is_marked_in_trick_lines():
    """Euchre with hearts trumps: the left bower J♦ is played as ♥ (``J♦ (as ♥)``); the right
    bower and plain cards carry no mark."""
    from rulekit.cli.render import played_text
    v = load_variant("euchre")
    deck = v.deck
    ctx = v.contexts["H"]
    assert plain(played_text(deck, deck.parse("JD"), ctx), strip=True) == "J♦ (as ♥)"
    assert plain(played_text(deck, deck.parse("JH"), ctx), strip=True) == "J♥"
    assert plain(played_text(deck, deck.parse("AD"), ctx), strip=True) == "A♦"
    fh = load_variant("fivehundred")
    assert plain(played_text(fh.deck, fh.deck.parse("JK"), fh.contexts["S"]), strip=True) == "JK"


def test_sheet_notes_show_suit_symbols_as_the_table_does():
    """A Five Hundred row reads ``P0 7♣ made`` on the sheet and in the hand's line, not ``7C``."""
    import random
    from rulekit.cli.render import row_text, score_sheet
    s = State(load_variant("fivehundred"), seed=1)
    bidder = s.to_move
    for call in ("7C", "pass", "pass"):
        s.apply(call)
    rng = random.Random(1)
    while not s.sheet.rows:
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    note = s.sheet.rows[0].note
    assert note.startswith(f"{s.names[bidder]} 7C ")
    assert f"{s.names[bidder]} 7♣ " in plain(score_sheet(s))
    assert f"— {s.names[bidder]} 7♣ " in plain(row_text(s.sheet, s.sheet.rows[0]))
    assert "7C" not in plain(score_sheet(s)) + plain(row_text(s.sheet, s.sheet.rows[0]))


def _king_round(name: str, seed: int = 1, moves: int = 0):
    """King, played at random until the round called ``name``, then ``moves`` actions into it."""
    import random
    s = State(load_variant("king"), seed=seed, names=["N", "E", "You", "W"])
    rng = random.Random(seed)
    while s.variant.round_name != name:
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    for _ in range(moves):
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    return s


def test_the_domino_layout_shows_who_laid_what_who_passed_and_the_cards_held():
    """King's jacks domino ([K8]): the rows by suit symbol, the last round of turns (laid a card,
    passed), the cards each player still holds, with the table's names."""
    s = _king_round("jacks domino", moves=9)
    text = plain(table_view(s, 2))
    d = s.hand.phase_state["domino"]
    assert any(line.strip().startswith("row ♥") or line.strip().startswith("row ♠") or
               line.strip().startswith("row ♦") or line.strip().startswith("row ♣") for line in text.splitlines())
    names = s.names
    turns = " · ".join(f"{names[x]} " + (f"laid {s.variant.deck.pretty(c)}" if c >= 0 else "passed")
                       for x, c in d.order[-4:])
    assert f"last turns {turns}" in " ".join(text.split())
    held = ", ".join(f"{names[x]} {s.hand.hands[x].bit_count()}" for x in range(4))
    assert f"cards held {held}" in " ".join(text.split())


def test_the_running_tallies_of_a_round_are_shown():
    """King's no-hearts round ([K2]): ``hearts taken`` per player from the tricks so far."""
    s = _king_round("no hearts", moves=12)
    won = [0] * 4
    for _l, plays, winner, _n in s.hand.tricks:
        won[winner] += sum(1 for _s, c in plays if s.variant.deck.suit_of(c) == "H")
    text = " ".join(plain(table_view(s, s.to_move)).split())
    assert "hearts taken " + ", ".join(f"{n} {x}" for n, x in zip(s.names, won)) in text


def test_a_partnerships_target_is_shown():
    """Boston [B5]: East bids 6♠ and invites, South accepts: the table shows ``to make E and S
    together 9 tricks``; alone, 6 tricks."""
    from rulekit.cli.render import target_text
    v = load_variant("boston")
    for answer, target in (("accept", "E and S together 9 tricks"), (None, "E 6 tricks")):
        s = State(v, seed=1)
        while s.kind.role != "play":
            texts = [a.text for a in s.legal_actions()]
            if s.kind.role == "auction":
                six = [t for t in texts if t.startswith("6")]
                s.apply(six[0] if six and not s.hand.high else "pass")
            elif "invite" in texts:
                s.apply("invite" if answer else "alone")
            elif "accept" in texts and answer:
                s.apply("accept")
            else:
                s.apply("pass" if "pass" in texts else texts[0])
        assert plain(target_text(s, s.hand), strip=True) == target
        assert f"to make {target}" in " ".join(plain(table_view(s, s.to_move)).split())
