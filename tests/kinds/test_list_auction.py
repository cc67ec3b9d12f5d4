"""The ``list_auction`` kind on small made-up variants: contracts as records ranked by value with
ties, and the once-round auction where the dealer may hold the high bid (``once_round``,
``dealer_holds``) or must bid when all pass."""
from __future__ import annotations

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError
from tests.helpers import LEAD_TOY_HANDS, lead_toy, lead_toy_order


def test_contracts_ranked_by_value_with_ties(lister):
    """Contracts as records ranked by value, ties allowed: 3 tricks are worth
    9 in hearts (class 1), 8 in diamonds, 7 in either black suit; the misere (8) ties 3D and
    cannot overcall it; the value is a formula variable."""
    v = lister()
    s = State(v, seed=4)
    s.apply("turn KH")
    vals = {b.text: b.value for b in s.current_bids()}
    assert (vals["3H"], vals["3D"], vals["3S"], vals["3C"], vals["MIS"], vals["5H"]) == (9, 8, 7, 7, 8, 19)
    assert [a.text for a in s.legal_actions()][:4] == ["pass", "3S", "3C", "3D"]
    s.apply("3S")
    assert "3C" not in [a.text for a in s.legal_actions()]
    with pytest.raises(IllegalActionError, match=r"3C \(7\) is not worth more than the highest bid 3S \(7\) "
                                                 r"\(equal games cannot overcall each other\)"):
        s.apply("3C")
    s.apply("3D")
    with pytest.raises(IllegalActionError, match=r"MIS \(8\) is not worth more than the highest bid 3D \(8\)"):
        s.apply("MIS")
    s.apply("pass")
    s.apply("pass")
    assert s.hand.contract.text == "3D" and s.hand.declarer == 2 and s.hand.trump == "D"


# ---------------------------------------------------------------- a once-round auction, the dealer holds
AUCTION = """  bidding:
    kind: list_auction
    once: true
    dealer_holds: %(holds)s
    all_pass: dealer
    contracts: [{call: "1", value: 1}, {call: "2", value: 2}, {call: "3", value: 3}]
"""

AUCTION_SCORING = '  declarer: "if tricks >= value then tricks else -value"\n  defender: "tricks"'


def auction(tmp_path, holds="true"):
    return lead_toy(tmp_path, extra=AUCTION % dict(holds=holds), lead="declarer", scoring=AUCTION_SCORING)


def test_once_round_the_dealer_holds_the_high_bid(tmp_path):
    """Auction Pitch, Bicycle / h2g2: each player has one bid; the dealer may take
    the contract at the highest bid: seat 1 bids 1, seat 2 bids 2; the dealer (seat 0) may hold
    at 2, and does; nobody speaks again; the dealer declares 2 and leads."""
    s = State(auction(tmp_path), deals=[lead_toy_order(LEAD_TOY_HANDS)])
    s.apply("1")
    s.apply("2")
    assert [a.text for a in s.legal_actions()] == ["pass", "2", "3"]
    s.apply("2")
    h = s.hand
    assert (h.declarer, h.contract.text, s.kind.name, h.to_move) == (0, "2", "tricks", 0)


def test_once_round_ends_after_the_dealer_even_with_two_bidders(tmp_path):
    """One call each: seat 1 bids 1, seat 2 bids 2, the dealer passes: seat 2 declares (seat 1
    does not get a second call, as he would in an ordinary auction)."""
    s = State(auction(tmp_path), deals=[lead_toy_order(LEAD_TOY_HANDS)])
    for a in ("1", "2", "pass"):
        s.apply(a)
    assert (s.hand.declarer, s.hand.contract.text, s.kind.name) == (2, "2", "tricks")


def test_without_hold_the_dealer_must_bid_more(tmp_path):
    s = State(auction(tmp_path, holds="false"), deals=[lead_toy_order(LEAD_TOY_HANDS)])
    s.apply("1")
    s.apply("2")
    assert [a.text for a in s.legal_actions()] == ["pass", "3"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("2")
    assert str(e.value) == "2 (2) is not worth more than the highest bid 2 (2) (equal games cannot overcall each other)"


def test_all_pass_the_dealer_must_bid(tmp_path):
    """Pitch's "forced bid", gamerulesguru.com / singaporemahjong.com: the others
    pass; the dealer may not, and bids the lowest he likes."""
    s = State(auction(tmp_path), deals=[lead_toy_order(LEAD_TOY_HANDS)])
    s.apply("pass")
    s.apply("pass")
    assert [a.text for a in s.legal_actions()] == ["1", "2", "3"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("pass")
    assert str(e.value) == "everyone else has passed: the dealer must bid"
    s.apply("1")
    assert (s.hand.declarer, s.hand.contract.text) == (0, "1")


def test_auction_options_describe_themselves(tmp_path):
    from rulekit.variant.explain import explain
    text = explain(auction(tmp_path))
    assert ("the dealer may take the highest bid at its value; each player speaks once, in turn, and the "
            "highest bidder declares, and when all the others pass the dealer must bid") in text


@pytest.mark.parametrize("combo", range(8))
def test_option_combinations_play_to_the_end(tmp_path, combo):
    """Every file that validates must play: the new options in every combination
    with their neighbours (must_trump, pass_is_final, all_pass) play whole matches, and the fast
    path's random playout agrees with the rules (each card it plays is in the checked legal set)."""
    import random
    rng = random.Random(combo)
    play = (f", first_lead_trump: {rng.choice(['true', 'false'])}, may_trump: {rng.choice(['true', 'false'])}"
            f", must_trump: {rng.choice(['true', 'false'])}")
    extra = (AUCTION % dict(holds=rng.choice(["true", "false"]))).replace(
        "once: true", f"once: {rng.choice(['true', 'false'])}\n    pass_is_final: {rng.choice(['true', 'false'])}"
    ).replace("all_pass: dealer", f"all_pass: {rng.choice(['dealer', 'redeal'])}")
    v = lead_toy(tmp_path, extra=extra, lead="declarer", play=play, scoring=AUCTION_SCORING, match="{deals: 3}")
    for seed in range(3):
        s = State(v, seed=seed, max_hands=20)
        while not s.is_over:
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        assert s.winners
    from tests.test_fast_path import checked_hand, outcome
    from rulekit.engine.playout import random_hand
    checked, fast = State(v, seed=combo), State(v, seed=combo)
    r1, r2 = random.Random(combo), random.Random(combo)
    for _ in range(3):
        if checked.is_over:
            break
        checked_hand(checked, r1)   # asserts the fast path's legal cards at every decision
        random_hand(fast, r2)
    assert outcome(checked) == outcome(fast)


# ---------------------------------------------------------------- a number bid, its trumps named after
#: Kaiser's shape on the toy: a bid is a number of points (trumps named by the bidder after the
#: auction) or the same number at no trump, which ranks above it; the value only ranks the bids,
#: the scoring reads the number from it; the dealer may hold, and must bid when all pass.
NUMBERS = """  bidding:
    kind: list_auction
    once: true
    dealer_holds: true
    all_pass: dealer
    contracts:
      - {call: "3", trumps: chosen, value: 30}
      - {call: "3nt", name: "3 no trump", value: 35}
      - {call: "4", trumps: chosen, value: 40}
  trumps: {kind: name_trump, choices: [S, H, D, C]}
"""
NUMBERS_SCORING = ('  let: {number: "value / 10"}\n'
                   '  declarer: "if tricks >= number then tricks else -number"\n  defender: "tricks"')


def test_a_number_bid_names_its_trumps_after_the_auction(tmp_path):
    """``trumps: chosen``: seat 1 bids 3, seat 2 3 no trump (ranked above 3); the dealer may hold
    at 3 no trump and does: he plays at no trump. A plain 3 won: its bidder names trumps
    (spades) before the play."""
    v = lead_toy(tmp_path, extra=NUMBERS, lead="declarer", scoring=NUMBERS_SCORING)
    s = State(v, deals=[lead_toy_order(LEAD_TOY_HANDS)])
    s.apply("3")
    with pytest.raises(IllegalActionError, match=r"3 \(30\) is not worth more than the highest bid 3 \(30\)"):
        s.apply("3")
    s.apply("3nt")
    assert [a.text for a in s.legal_actions()] == ["pass", "3nt", "4"]   # the dealer may hold at 3nt
    s.apply("3nt")
    assert (s.hand.declarer, s.hand.contract.text, s.hand.trump, s.kind.name) == (0, "3nt", "NT", "tricks")
    s = State(v, deals=[lead_toy_order(LEAD_TOY_HANDS)])
    for a in ("3", "pass", "pass"):
        s.apply(a)
    assert (s.kind.name, s.to_move) == ("name_trump", 1)
    s.apply("trump S")
    assert (s.hand.contract.text, s.hand.trump, s.kind.name) == ("3", "S", "tricks")


def test_all_pass_the_dealer_must_bid_a_number(tmp_path):
    """``all_pass: dealer`` with number bids: the dealer may not pass, and a number he bids
    he then names trumps for."""
    v = lead_toy(tmp_path, extra=NUMBERS, lead="declarer", scoring=NUMBERS_SCORING)
    s = State(v, deals=[lead_toy_order(LEAD_TOY_HANDS)])
    s.apply("pass")
    s.apply("pass")
    assert [a.text for a in s.legal_actions()] == ["3", "3nt", "4"]
    s.apply("4")
    assert (s.kind.name, s.to_move) == ("name_trump", 0)


def test_explain_says_what_a_number_bid_scores_and_its_rank(tmp_path):
    """The value of a contract that the formulas score otherwise only ranks it: explain says
    what it scores made (as the prompt's ``(worth N)``) and its rank."""
    from rulekit.variant.explain import explain
    v = lead_toy(tmp_path, extra=NUMBERS, lead="declarer", scoring=NUMBERS_SCORING)
    text = " ".join(explain(v).split())
    assert ("3: trumps named by the declarer after the auction, worth 3 made, ranked 30; "
            "3nt (3 no trump): at no trump, worth 3 made, ranked 35") in text


def test_trumps_chosen_needs_a_name_trump_phase(tmp_path):
    """``trumps: chosen`` without a ``name_trump`` phase is refused at the option."""
    from rulekit.errors import VariantError
    with pytest.raises(VariantError, match=r"contracts\.0\.trumps: trumps: chosen lets the declarer name trumps "
                                           r"after the auction: it needs a name_trump phase"):
        lead_toy(tmp_path, extra=NUMBERS.replace("  trumps: {kind: name_trump, choices: [S, H, D, C]}\n", ""),
                 lead="declarer", scoring=NUMBERS_SCORING)


def test_a_contract_skipping_an_unknown_phase_is_refused_once_at_the_name(tmp_path):
    """A contract's ``skips`` names phases of the variant: an unknown one is refused at its item,
    with the nearest name and the phases there are, once for a contract of every suit."""
    from rulekit.errors import VariantError
    extra = ("  bidding:\n    kind: list_auction\n    contracts:\n"
             "      - {tricks: 5, trumps: each, value: 5, skips: [biding]}\n")
    with pytest.raises(VariantError) as err:
        lead_toy(tmp_path, extra=extra)
    assert [str(d).rsplit("/", 1)[-1] for d in err.value.diagnostics] == [
        "toy.yaml:12:53: phases.bidding.contracts.0.skips.0: unknown phase biding; did you mean bidding? "
        "(expected a phase of this variant: deal, bidding, play)"]
