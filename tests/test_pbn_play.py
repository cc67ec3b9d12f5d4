"""PBN export with the play (PBN 2.1, 3.6), read back by endplay.

Seeded bridge games (rubber, duplicate, Chicago, and a made-up house rule whose play stops once
the contract is made or defeated) are exported with :func:`rulekit.pbn.write`; endplay, an independent PBN
reader, must find in each game the deal, dealer, vulnerability, auction, contract, result and
every trick as the engine played them.  rulekit's own reader still reads the exported text.
"""
from __future__ import annotations

import random

import pytest
from endplay.parsers import pbn as endplay_pbn
from endplay.types import ContractBid, Denom, Penalty, PenaltyBid, Player, Vul
from typer.testing import CliRunner

from rulekit import pbn, records
from rulekit.cli.app import app
from rulekit.engine import State
from rulekit.variant import load_variant

SUITS = "SHDC"  # endplay's Denom order (spades 0 .. clubs 3, nt 4)
HEADER = "% PBN 2.1\n\n"


def engine_card(deck, card: int) -> str:
    rank = deck.rank_of(card)
    return deck.suit_of(card) + ("T" if rank == "10" else rank)


def endplay_card(c) -> str:
    return SUITS[c.suit.value] + c.rank.abbr


def endplay_call(b) -> str:
    if isinstance(b, ContractBid):
        return f"{b.level}{'NT' if b.denom == Denom.nt else SUITS[b.denom.value]}"
    assert isinstance(b, PenaltyBid)
    return {Penalty.passed: "pass", Penalty.doubled: "X", Penalty.redoubled: "XX"}[b.penalty]


def play_deals(variant, seed: int, deals: int) -> State:
    """A seeded game to ``deals`` finished deals: each call a pass with probability 0.6 (so some
    deals are passed out), else any legal call; each card any legal card."""
    s = State(variant, seed=seed)
    rng = random.Random(seed)
    while len(s.hand_log) < deals and not s.is_over:
        legal = list(s.legal_actions())
        passes = [a for a in legal if a.text == "pass"]
        s.apply(passes[0] if passes and rng.random() < 0.6 else rng.choice(legal))
    return s


def exported(state: State) -> list:
    return [h for h in state.hand_log if h.contract is not None or h.calls]


def check_board(board, state: State, hand) -> None:
    """endplay's board holds the engine's deal, auction, contract and card play."""
    deck = state.variant.deck
    for seat in range(4):
        cards = [c for c in range(deck.size) if hand.dealt[seat] >> c & 1]
        assert sorted(endplay_card(c) for c in board.deal[Player(seat)]) == sorted(engine_card(deck, c) for c in cards)
    assert board.dealer == Player(hand.dealer)
    ns, ew = hand.vulnerable[0], hand.vulnerable[1]
    assert board.vul == (Vul.both if ns and ew else Vul.ns if ns else Vul.ew if ew else Vul.none)
    assert [endplay_call(b) for b in board.auction] == [t for _seat, t in hand.calls]
    if hand.contract is None:
        assert board.contract.is_passout() and not board.play
        return
    c = board.contract
    strain = hand.contract.text[1:]
    assert (c.level, c.denom) == (int(hand.contract.text[0]), Denom.nt if strain == "NT" else Denom(SUITS.index(strain)))
    assert c.penalty == (Penalty.passed, Penalty.doubled, Penalty.redoubled)[hand.doubled]
    assert c.declarer == Player(hand.declarer)
    side = state.variant.sides[state.variant.side_of[hand.declarer]]
    assert c.result == sum(hand.won[s] for s in side) - 6 - c.level
    assert [endplay_card(x) for x in board.play] == [engine_card(deck, card) for _l, plays, _w, _n in hand.tricks
                                                     for _seat, card in plays]
    assert board.claimed == (len(hand.tricks) < 13)


GAMES = [("bridge", 1, 6), ("bridge", 2, 6), ("bridge-duplicate", 3, 6), ("bridge-duplicate", 4, 6),
         ("bridge-chicago", 5, 4), ("bridge-chicago", 6, 4)]


@pytest.mark.parametrize("vid,seed,deals", GAMES, ids=[f"{v}-{s}" for v, s, _ in GAMES])
def test_endplay_reads_the_deal_auction_and_play(vid, seed, deals):
    """Every exported deal reads back in endplay as played: 52 cards in 13 tricks each in play
    order (endplay finds each trick's leader from the rows: the previous trick's winner)."""
    s = play_deals(load_variant(vid), seed, deals)
    hands = exported(s)
    boards = endplay_pbn.loads(HEADER + "\n".join(pbn.write(s, h) for h in hands))
    assert len(boards) == len(hands) >= deals
    for board, hand in zip(boards, hands):
        check_board(board, s, hand)


def test_the_games_include_passed_out_deals_and_contracts_at_every_strain():
    """The seeded games above hold passed-out deals and played contracts in each strain."""
    seen = {"passed": 0, "played": 0}
    strains = set()
    for vid, seed, deals in GAMES:
        for h in exported(play_deals(load_variant(vid), seed, deals)):
            seen["played" if h.contract else "passed"] += 1
            if h.contract:
                strains.add(h.contract.text[1:])
    assert seen["passed"] >= 3 and seen["played"] >= 20
    assert strains == {"C", "D", "H", "S", "NT"}


STOP_WHEN_DECIDED = """\
id: bridge-stop-when-decided
extends: bridge
name: Bridge, play stops once the contract is made or defeated
phases:
  play:
    end_if: "declarer_tricks >= 6 + level or (is_defender and tricks > 7 - level)"
"""


def test_play_that_stops_early_ends_with_a_star(tmp_path):
    """When play stops before the last trick (a tricks phase's end_if), the play section lists
    the tricks played and ends with `*`; endplay reads the tricks and marks the play ended."""
    f = tmp_path / "stop.yaml"
    f.write_text(STOP_WHEN_DECIDED)
    s = play_deals(load_variant(str(f)), 11, 8)
    hands = exported(s)
    short = [h for h in hands if h.contract is not None and len(h.tricks) < 13]
    assert short, "no contract was decided before the last trick"
    text = pbn.write(s, short[0])
    rows = text.split('[Play "')[1].splitlines()[1:]
    assert len(rows) == len(short[0].tricks) + 1 and rows[-1] == "*"
    boards = endplay_pbn.loads(HEADER + "\n".join(pbn.write(s, h) for h in hands))
    for board, hand in zip(boards, hands):
        check_board(board, s, hand)
    assert any(b.claimed for b in boards)


def test_play_section_columns_follow_the_seats_from_the_opening_leader():
    """Each row lists the cards in seat order from the opening leader (declarer's left), not in
    the order they were played: the first column is always the opening leader's card."""
    s = play_deals(load_variant("bridge"), 1, 6)
    hand = next(h for h in s.hand_log if h.contract is not None)
    lines = pbn.write(s, hand).splitlines()
    at = lines.index(next(x for x in lines if x.startswith("[Play ")))
    leader = (hand.declarer + 1) % 4
    assert lines[at] == f'[Play "{"NESW"[leader]}"]'
    deck = s.variant.deck
    for row, (_l, plays, _w, _n) in zip(lines[at + 1:], hand.tricks):
        by_seat = dict(plays)
        assert row.split() == [engine_card(deck, by_seat[(leader + k) % 4]) for k in range(4)]
    assert len(lines) == at + 1 + 13  # 13 rows, no `*` after a full play


def test_rulekits_reader_reads_its_own_export():
    """Round trip: rulekit.pbn.read reads every exported game (play section included) as the
    deal, dealer and vulnerability of the engine's hand."""
    s = play_deals(load_variant("bridge-duplicate"), 3, 6)
    deck = s.variant.deck
    for h in exported(s):
        back = pbn.read(pbn.write(s, h))
        assert back.dealer == h.dealer
        ns, ew = h.vulnerable[0], h.vulnerable[1]
        assert back.vulnerable == ("both" if ns and ew else "NS" if ns else "EW" if ew else "none")
        for seat in range(4):
            assert sorted(back.hands[seat]) == sorted(deck.rank_of(c) + deck.suit_of(c)
                                                      for c in range(deck.size) if h.dealt[seat] >> c & 1)


def test_replay_pbn_file_reads_in_endplay(tmp_path):
    """`rulekit replay GAME --pbn FILE` writes a file endplay loads with the play of each deal."""
    runner = CliRunner()
    game = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "bridge-duplicate", "--auto", "--players", "random,random,random,random",
                            "--seed", "8", "--quiet", "--max-hands", "4", "--save", str(game)])
    assert r.exit_code == 0, r.output
    out = tmp_path / "g.pbn"
    r = runner.invoke(app, ["replay", str(game), "--pbn", str(out)])
    assert r.exit_code == 0, r.output
    state = records.replay(records.load(game), source=str(game), folder=tmp_path)
    with out.open(encoding="utf-8") as fp:
        boards = endplay_pbn.load(fp)
    hands = exported(state)
    assert len(boards) == len(hands) == 4
    for board, hand in zip(boards, hands):
        check_board(board, state, hand)
