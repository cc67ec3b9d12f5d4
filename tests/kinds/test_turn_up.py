"""The ``turn_up`` kind on a small made-up variant: the card turned from the stock sets trumps;
a deal that leaves no stock is played at no trump."""
from __future__ import annotations

from rulekit.engine import State
from tests.helpers import STOCK_BIDS, small_deck_toy


def test_last_deal_without_stock_is_played_at_no_trump(tmp_path):
    """Hand-size schedule; with every card dealt no card is turned: no trumps."""
    v = small_deck_toy(tmp_path, sizes=", hand_sizes: [6]", extra=STOCK_BIDS)
    s = State(v, seed=2)
    assert s.hand.trump == "NT" and "stock" not in s.hand.zones


WIZARD_TURN = """id: wizturn
name: Wizard turned
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
  specials: {W: {name: Wizard, copies: 2}, N: {name: Jester, copies: 2}}
ranking:
  suit: "A K Q J 10 9"
  special:
    W: {wins: always, follows: any}
    N: {wins: never, follows: any}
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "1 x 8, talon 4"}
  trumps: {kind: turn_up, from: talon, meaning: {W: dealer_names, N: no_trump}}
  play: {kind: tricks}
scoring:
  each: "tricks"
match:
  deals: 3
"""


def _turning(v, card: str):
    """A deck order whose talon's top card (the 25th card dealt) is ``card``."""
    names = [n for n in v.deck.names if n != card]
    return names[:24] + [card] + names[24:]


def test_a_turned_card_names_trumps_or_means_no_trumps_or_lets_the_dealer_choose(tmp_path):
    """``meaning``: a turned Jester means no trumps; a turned Wizard lets the dealer name trumps
    (``trump S``, after looking at his cards); any other card names its suit. The turned card
    is public."""
    from tests.helpers import variant_from
    v = variant_from(tmp_path, "wizturn.yaml", WIZARD_TURN)
    s = State(v, seed=0, deals=[_turning(v, "9H")])
    assert s.hand.trump == "H" and s.kind.name == "tricks"
    assert s.observation(1).phase_data["turned"] == v.deck.parse("9H")
    s = State(v, seed=0, deals=[_turning(v, "N:2")])
    assert s.hand.trump == "NT" and s.kind.name == "tricks"
    s = State(v, seed=0, deals=[_turning(v, "W:1")])
    assert s.to_move == 0 and [a.text for a in s.legal_actions()] == ["trump S", "trump H", "trump D", "trump C"]
    s.apply("trump D")
    assert s.hand.trump == "D" and s.kind.name == "tricks" and s.to_move == 1


def test_turning_from_a_zone_the_deal_does_not_leave_is_refused(tmp_path):
    """``from:`` names a zone of the deal pattern."""
    import pytest

    from rulekit.errors import VariantError
    from tests.helpers import variant_from
    with pytest.raises(VariantError) as e:
        variant_from(tmp_path, "wizturn.yaml", WIZARD_TURN.replace("from: talon", "from: widow"))
    assert "wizturn.yaml:17:" in str(e.value) and "the deal leaves no widow" in str(e.value)


def test_the_story_tells_the_dealer_naming_trumps_before_the_bids(tmp_path):
    """A turned Wizard: the dealer names trumps before anyone bids, and the ``--auto`` story
    tells the events in that order (the turned card, the naming, then the auction)."""
    import io

    from rich.console import Console

    from rulekit.cli.render import hand_summary
    from tests.helpers import play_first_legal, variant_from
    text = WIZARD_TURN.replace("  play: {kind: tricks}", "  bidding: {kind: trick_bids}\n  play: {kind: tricks}")
    text = text.replace('each: "tricks"', 'each: "if tricks == bid then 10 else 0"')
    v = variant_from(tmp_path, "wizbid.yaml", text)
    s = State(v, seed=0, deals=[_turning(v, "W:1")])
    s.apply("trump D")
    play_first_legal(s)
    buf = io.StringIO()
    con = Console(file=buf, width=160, color_system=None)
    for line in hand_summary(s, s.hand_log[0], s.sheet.rows):
        con.print(line)
    lines = [x.strip() for x in buf.getvalue().splitlines()]
    turned = next(i for i, x in enumerate(lines) if x.startswith("turned"))
    named = lines.index("P0 names trumps ♦")
    auction = next(i for i, x in enumerate(lines) if x.startswith("auction"))
    assert turned < named < auction
    assert not any(x.startswith("trumps") for x in lines[auction:auction + 2])   # told once, by the naming
