"""The seam between the phase kinds and the layers above (docs/architecture.md, "The engine"): the
CLI, the bots and the scorepad learn a kind's rules through its hooks (``lead_makes_trumps``,
``deals_aside``, ``gives_aside``), never by reading a spec's fields by name."""
from __future__ import annotations

import re
from pathlib import Path

from rulekit.cli.game import extra_bid_lines
from rulekit.engine import State
from rulekit.engine.phases import REGISTRY
from rulekit.engine.scoring import strain_index
from rulekit.sheets.scorepad import ScorePad
from rulekit.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent


def _hooks(vid: str) -> dict:
    v = load_variant(vid)
    return {p.kind: (REGISTRY[p.kind].lead_makes_trumps(p), REGISTRY[p.kind].deals_aside(p),
                     REGISTRY[p.kind].gives_aside(p)) for p in v.phases}


def test_the_hooks_say_each_kinds_rule():
    """Auction Pitch: the first card led makes trumps, 28 cards stay undealt, none goes to a
    player; Tarot [TA-K4]: the dog is dealt aside and, with the discard, counts for the taker;
    Five Hundred: the kitty is dealt aside; Rams: no deal aside, the cards left go to a player."""
    assert _hooks("pitch")["tricks"] == (True, False, (False, False)) and _hooks("pitch")["deal"][1] is True
    assert _hooks("tarot")["tricks"] == (False, False, (True, True)) and _hooks("tarot")["deal"][1] is True
    assert _hooks("fivehundred")["deal"] == (False, True, (False, False))
    assert _hooks("rams")["tricks"] == (False, False, (True, False))
    assert all(h == (False, False, (False, False)) for k, h in _hooks("boston").items() if k != "deal")


def test_the_auction_and_the_bid_help_ask_the_kind_whether_the_lead_makes_trumps(monkeypatch):
    """A contract of a list is said "at no trump" unless the play's kind makes trumps of the first
    lead, and the bid help says "trumps: the first card led" exactly then."""
    v = load_variant("pitch")
    auction = v.auction()
    said = REGISTRY[auction.kind].describe_in(auction, v)
    assert "at no trump" not in said
    assert extra_bid_lines(State(v, seed=1))[0].split() == ["2", "trumps:", "the", "first", "card", "led;", "value", "2"]
    monkeypatch.setattr(REGISTRY["tricks"], "lead_makes_trumps", lambda spec: False)
    assert "2 (two): made when **won** is at least 2, at no trump, worth 2" in REGISTRY[auction.kind].describe_in(auction, v)
    assert "no trump; value 2" in extra_bid_lines(State(v, seed=1))[0]


def test_the_scorepad_asks_the_kinds_where_the_cards_aside_go(monkeypatch):
    """Tarot [TA-K4]: every card point ends with a player (the dog and the discard go to the taker),
    so the points entered must add up to the deck's; a kind that gives the cards aside to no one
    (and a deal that deals none aside) changes what the pad assumes."""
    pad = ScorePad(load_variant("tarot"))
    assert pad._aside() and pad._all_points_won()
    monkeypatch.setattr(REGISTRY["tricks"], "gives_aside", lambda spec: (False, False))
    assert not pad._all_points_won()
    monkeypatch.setattr(REGISTRY["deal"], "deals_aside", lambda spec: False)
    assert not pad._aside() and pad._all_points_won()


def test_the_auctions_say_their_contracts_and_what_each_undertakes():
    """The hooks ``contracts``, ``bid_tricks``, ``null_bid``, ``later_cards``: Five Hundred's 7♥
    is 7 tricks; Preferans's contracts are numbers (no tricks) and its misère a null; Skat's
    contracts are its 22 games, not the values bid; in Schnapsen each player draws 5 cards from the stock."""
    v = load_variant("fivehundred")
    a = v.auction()
    bid = next(b for b in REGISTRY[a.kind].contracts(a) if b.text == "7H")
    assert (REGISTRY[a.kind].bid_tricks(a, bid), REGISTRY[a.kind].null_bid(a, bid)) == (7, False)
    v = load_variant("preferans")
    a = v.auction()
    said = {b.text: (REGISTRY[a.kind].bid_tricks(a, b), REGISTRY[a.kind].null_bid(a, b))
            for b in REGISTRY[a.kind].contracts(a)}
    assert set(said.values()) == {(None, False), (None, True)}
    v = load_variant("skat")
    a = v.auction()
    assert [b.text for b in REGISTRY[a.kind].contracts(a)][:2] == ["diamonds", "hearts"]
    assert len(REGISTRY[a.kind].contracts(a)) == 22
    v = load_variant("schnapsen")
    assert sum(REGISTRY[p.kind].later_cards(p) for p in v.phases) + 5 == v.hand_size


def test_the_kinds_say_doubles_all_passed_play_table_options_sideways_passing_and_early_ends():
    """Rubber bridge doubles and redoubles [A3] and throws in a deal all passed; Five Hundred plays
    it on; Forty-Five's top trumps may renege; Hearts passes to a side; Skat's play may stop early
    (a null's first trick taken); a ladder bid is written under its strain."""
    def hooks(vid):
        v = load_variant(vid)
        return {p.name: (REGISTRY[p.kind].doubles(p), REGISTRY[p.kind].plays_all_passed(p),
                         REGISTRY[p.kind].ranking_options(p).get("renege", ""), REGISTRY[p.kind].passes_sideways(p),
                         REGISTRY[p.kind].ends_play_if(p) is not None) for p in v.phases}
    assert hooks("bridge")["auction"] == (2, False, "", False, False)
    assert hooks("fivehundred")["auction"] == (0, True, "", False, False)
    assert hooks("fortyfive")["play"] == (0, False, "5 J AH", False, False)
    assert hooks("hearts")["passing"] == (0, False, "", True, False)
    assert hooks("skat")["play"] == (0, False, "", False, True)
    v = load_variant("fivehundred")
    a = v.auction()
    assert [REGISTRY[a.kind].bid_path(a, b) for b in REGISTRY[a.kind].contracts(a)[:6]] == \
        [("strains", 0), ("strains", 1), ("strains", 2), ("strains", 3), ("strains", 4), ("strains", 0)]


def test_no_layer_above_the_kinds_reads_these_spec_fields():
    """The fields behind the hooks are the kinds' own: no module outside rulekit/engine/phases/
    reads ``first_lead_trump``, ``widow_to``, ``discards_to`` of a spec, a deal step's ``zone``, an
    auction's ``bids``, ``games``, ``book``, ``null``, ``levels_are_tricks``, ``all_pass`` (nor
    compares it), ``calls``, ``values``, ``double``, ``redouble``, trick play's ``later_cards``, ``top_follows``, ``renege``, ``end_if``,
    ``extras``, a passing's ``directions`` or an announcement's ``declare_if``."""
    pattern = re.compile(r"""getattr\([^)]*["'](first_lead_trump|widow_to|discards_to|zone|steps|bids|games|book|"""
                         r"""levels_are_tricks|later_cards|all_pass|double|redouble|top_follows|renege|end_if|"""
                         r"""directions|extras|declare_if|calls|values)["']|getattr\((auction|spec|p), ["']null["']|"""
                         r"""\.all_pass\s*[!=]=""")
    bad = [f"{p.relative_to(ROOT)}:{i}" for top in ("rulekit", "cli") for p in sorted((ROOT / top).rglob("*.py"))
           if "phases" not in p.parts
           for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not bad, bad


def test_the_auctions_say_same_dealer_redeals_strain_words_and_value_bids(monkeypatch):
    """Chicago: a deal all passed is dealt again by the same dealer and is no hand of the round, so
    the scorepad writes no row and keeps the dealer, unless the kind says otherwise; Bid Whist's
    bids name their strains by the words ``uptown``, ``downtown``, ``NT`` (``7downtown``: strain 1);
    Skat's players bid values, the declarer naming his game later; Five Hundred's do not."""
    def hooks(vid):
        a = load_variant(vid).auction()
        return REGISTRY[a.kind].redeals_same(a), REGISTRY[a.kind].strain_calls(a), REGISTRY[a.kind].bids_values(a)
    assert hooks("bridge-chicago") == (True, (), False) and hooks("bridge")[0] is False
    assert hooks("bidwhist") == (False, ("uptown", "downtown", "NT"), False)
    assert hooks("skat") == (False, (), True) and hooks("fivehundred")[2] is False
    v = load_variant("bidwhist")
    bid = next(b for b in REGISTRY[v.auction().kind].contracts(v.auction()) if b.text == "7downtown")
    assert strain_index(v.auction(), bid, "H") == 1
    pad = ScorePad(load_variant("bridge-chicago"))
    dealer = pad.dealer
    row = pad.add({"contract": None})
    assert (row.thrown_in, row.counted, pad.dealer, pad.sheet.rows) == (True, False, dealer, [])
    monkeypatch.setattr(REGISTRY["contract_auction"], "redeals_same", lambda spec: False)
    pad = ScorePad(load_variant("bridge-chicago"))
    row = pad.add({"contract": None})
    assert (row.thrown_in, row.counted) == (True, True) and pad.dealer != dealer
