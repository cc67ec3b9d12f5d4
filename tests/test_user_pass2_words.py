"""Words a fresh user reads at the table and in ``explain`` (user pass 2, findings 3-9): a
passing phase says ``pass``, a tie on the scorepad is a tie, ``nil`` is typed and shown as such,
no raw setting names in ``explain``, the physical pass direction, and small wordings."""
from __future__ import annotations

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.cli.game import help_text
from rulekit.cli.render import legal_text
from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.errors import IllegalActionError, InvalidActionError
from rulekit.variant import load_variant

runner = CliRunner()


def plain(renderable, width: int = 200) -> str:
    """The text a terminal without colours shows."""
    con = Console(width=width, record=True, color_system=None, force_terminal=False)
    con.print(renderable)
    return con.export_text().rstrip("\n")


# ---------------------------------------------------------------- finding 3
def test_hearts_passing_says_pass(tmp_path, monkeypatch):
    """user pass 2, finding 3: Hearts passing shows, lists and accepts ``pass CARD CARD CARD``
    (and the bare cards); the refusal's example names real cards (it said ``discard C C C``)."""
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["play", "hearts", "--players", "human,bot,bot,bot", "--seed", "3"],
                      input="?\nhelp\nxyz\npass\npass 2C 3C 4C\npass 10C JC KC\nquit\n")
    out = r.output
    assert ("pass any 3 of your cards (286 choices), e.g. pass 10C JC KC: "
            "J♥ 10♥ A♠ K♠ J♠ 9♦ 8♦ 7♦ 6♦ 5♦ K♣ J♣ 10♣") in out
    assert "Type an action: pass CARD CARD CARD (or just the cards); play CARD" in out
    assert "refused: 'xyz' is not an action here; expected pass 3 cards (e.g. pass 10C JC KC)" in out
    assert "refused: pass 3 cards now (pass CARD CARD CARD)" in out
    assert "refused: you do not hold 2C 3C 4C" in out
    assert "You pass 3 cards to the left (to P1): 10♣ J♣ K♣" in out
    assert "discard" not in out


def test_hearts_bare_cards_pass():
    """user pass 2, finding 3: the bare cards ``10C JC KC`` are a pass too."""
    s = State(load_variant("hearts"), seed=3)
    while s.to_move != 0:
        s.apply(s.legal_actions()[0])
    a = s.parse_action("10C JC KC")
    assert a.kind == "discard" and s.variant.deck.names_of(a.cards) == ["10C", "JC", "KC"]


def test_blind_nil_exchange_says_pass(tmp_path):
    """user pass 2, finding 3: the Spades-like blind nil exchange lists ``pass 9H`` and accepts
    ``pass JH`` and the bare card; the refusal says what to type."""
    from tests.test_blind_nil import LOW_N, order, side
    v = side(tmp_path, "behind: 0, exchange: 1")
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 2", "look", "bid 0"):
        s.apply(a)
    assert plain(legal_text(s)) == "legal: pass 9H, pass 10H, pass JH"
    assert s.expected_forms() == "expected pass 1 card (e.g. pass 9H)"
    s.apply("pass JH")
    with pytest.raises(IllegalActionError, match=r"^pass 1 of your cards face down to your partner now "
                                                 r"\(pass CARD\)$"):
        s.apply("9S")
    s.apply("AH")
    assert sorted(v.deck.names_of(s.hand.hands[0])) == sorted(["9H", "10H", "AH"])
    assert "a blind nil exchange: pass CARD CARD (or just the cards)" in help_text(load_variant("spades"))


# ---------------------------------------------------------------- finding 4, 9 (scorepad)
def test_scorepad_tie_is_a_tie():
    """user pass 2, finding 4: equal totals at the end of a scorepad are a tie (it said
    ``NS and EW win``), as ``rulekit play`` says it."""
    r = runner.invoke(app, ["score", "spades"], input="stop\nquit\n")
    assert "A tie: NS and EW (stopped)." in r.output
    assert "NS and EW win" not in r.output


def test_scorepad_question_mark_is_help_and_quit_says_nothing_saved(tmp_path):
    """user pass 2, finding 9: ``?`` is help on the scorepad (it said "'?' is not a contract of
    pitch"); ``quit`` before the first hand is finished says that nothing was saved."""
    r = runner.invoke(app, ["score", "spades"], input="?\n3 3 3 3\nquit\n")
    assert ("bids N E S W > 4 bids in seat order (N E S W), each 0 (or nil) to 13, blind for blind nil; "
            "or undo") in r.output
    assert ("hand 1 was not finished: its answers are not saved; nothing was saved "
            "(use --file PAD.json to keep the pad).") in r.output
    pad = tmp_path / "pad.json"
    r = runner.invoke(app, ["score", "spades", "--file", str(pad)], input="quit\n")
    assert r.output.rstrip().endswith("nothing was saved (no hand was finished).")
    assert not pad.exists()
    r = runner.invoke(app, ["score", "pitch"], input="?\nquit\n")
    assert "is not a contract" not in r.output


# ---------------------------------------------------------------- finding 5
def test_spades_nil_typed_and_shown():
    """user pass 2, finding 5: in Spades (its scoring reads nil_made/nil_failed) ``nil`` is the
    bid 0 at the prompt, and the legal list, the refusal and the auction line say ``nil``."""
    from rulekit.cli.render import auction_text
    s = State(load_variant("spades"), seed=1)
    assert plain(legal_text(s)).startswith("legal: nil, bid 1, bid 2, ")
    with pytest.raises(InvalidActionError, match=r"expected nil or a bid from bid 1 to bid 13$"):
        s.apply("xyz")
    seat = s.to_move
    s.apply("nil")
    assert kind_of("trick_bids").data_of(s.hand).bids[seat] == 0
    s.apply("bid 3")
    assert plain(auction_text(s, s.hand)) == f"{s.names[seat]} nil · {s.names[s.next_seat(seat)]} bid 3"
    assert "bid N (the tricks you will take) or nil;" in help_text(s.variant)


def test_oh_hell_zero_stays_a_number():
    """user pass 2, finding 5: Oh Hell's scoring reads no nil variable: a bid of 0 stays ``bid 0``
    and ``nil`` is no action there."""
    s = State(load_variant("ohhell"), seed=1)
    assert s.expected_forms() == "expected bid 0 or bid 1"
    with pytest.raises(InvalidActionError):
        s.apply("nil")


def test_euchre_refusal_names_the_calls():
    """user pass 2, finding 5: Euchre's refusal said "a bid from order to order alone"."""
    s = State(load_variant("euchre"), seed=1)
    with pytest.raises(InvalidActionError, match=r"expected pass, order or order alone$"):
        s.apply("xyz")


# ---------------------------------------------------------------- finding 6, 9 (explain)
def _explain(name: str) -> str:
    from rulekit.variant.explain import explain
    return " ".join(explain(load_variant(name)).split())


def test_explain_names_suits_and_cards_not_settings():
    """user pass 2, finding 6: ``explain`` names the 2♣, the suits and the cards of the lead rules
    (it said `first_trick.lead`, `lead_broken`, `first_trick`, `lead_never`), says "any card"
    when the variant has no trumps, and words ``pile_score``."""
    hearts = _explain("hearts")
    assert "Trick play: the holder of the 2♣, leading it, leads to the first trick" in hearts
    assert "if he cannot, he may play any card. The highest card of the suit led wins the trick;" in hearts
    assert ("Hearts may not be led until a card of the suit has been played, unless the leader holds "
            "nothing else.") in hearts
    assert ("On the first trick hearts and the Q♠ may not be played unless the player holds no other "
            "card he may play.") in hearts
    spades = _explain("spades")
    assert "Trumps may not be led until a card of the suit has been played" in spades
    assert "he may play any card, a trump or a discard" in spades
    king = _explain("king")
    assert "Hearts may not be led at any time while the leader holds another suit." in king
    assert "Every player scores the points of the pile's thresholds he reached (`pile_score`)." in king
    for text in (hearts, spades, king):
        assert "`lead_broken`" not in text and "`lead_never`" not in text and "`first_trick" not in text


def test_explain_plain_number_of_deals():
    """user pass 2, finding 9: "The match lasts 8 deals (`8`)" lost its redundant number."""
    assert "The match lasts 8 deals; the best total wins." in _explain("boston")


# ---------------------------------------------------------------- finding 7
def test_counter_clockwise_pass_says_the_side_at_the_table(tmp_path):
    """user pass 2, finding 7: in counter-clockwise Hearts the file's ``left`` (the next player in
    the direction of play, P3 for P0) is on the right at the table: screen and explain say so."""
    f = tmp_path / "ccw.yaml"
    f.write_text("extends: hearts\nid: hearts-ccw\nname: Hearts CCW\ndirection: counterclockwise\n")
    r = runner.invoke(app, ["play", str(f), "--auto", "--seed", "1", "--max-hands", "1"])
    assert "Hand 1 — dealer P0 — passing to the right" in r.output
    assert "P0 passes 3 cards to the right (to P3)" in r.output
    from rulekit.variant.explain import explain
    text = " ".join(explain(load_variant(str(f))).split())
    assert "the cards go to the right, to the left, across, not at all (hold)" in text
    assert 'as counter-clockwise and right (the passing of cards says the side at the table).' in text


# ---------------------------------------------------------------- finding 9 (table)
def test_oh_hell_hook_singular_and_turned_card_shown():
    """user pass 2, finding 9: the hook's refusal says "the 1 trick" (it said "1 tricks"), and the
    stock card turned for trumps is shown (``turned 8♥``), as Euchre shows its own."""
    from rulekit.cli.render import table_view
    s = State(load_variant("ohhell"), seed=3)
    for a in ("bid 0", "bid 0", "bid 0"):
        s.apply(a)
    with pytest.raises(IllegalActionError, match=r"^bid 1 is not allowed: the bids would add up to the 1 trick "
                                                 r"of the hand \(the last bidder must make someone fail\)$"):
        s.apply("bid 1")
    turned = kind_of("turn_up").data_of(s.hand).card
    assert s.variant.deck.pretty(turned) == "8♥"
    screen = [line.strip() for line in plain(table_view(s, 0)).splitlines()]
    assert "turned 8♥" in screen and "trumps ♥" in screen


def test_blind_nil_exchange_announced_as_a_pass(tmp_path):
    """user pass 2, finding 3: the blind nil exchange is told as a pass to the partner, not as
    "discards 1 card"."""
    from rulekit.cli.render import exchange_text
    from tests.test_blind_nil import LOW_N, order, side
    v = side(tmp_path, "behind: 0, exchange: 1")
    s = State(v, deals=[order(v, LOW_N)], dealer=3)
    for a in ("blind nil", "look", "bid 1", "look", "bid 2", "look", "bid 0", "pass JH"):
        s.apply(a)
    h = s.hand
    assert plain(exchange_text(s, h, "discard JH", 0, reveal=True)) == \
        "N passes 1 card face down to his partner (S): J♥"
    s.apply("pass AH")
    assert plain(exchange_text(s, h, "discard AH", 2, reveal=False)) == "S passes 1 card face down to his partner (N)"
