"""`rulekit explain` reads as a rulebook a player accepts (user pass (gallery), findings 1-7).

Each test asserts the exact words the fresh-user pass asked for, on shipped variants and on
small made-up files: nested formulas as case lists, named values in bold, no doubled words;
contracts of points; tallies by their form; what a file leaves out; the jokers' names; the
extra bid whose trumps are named later; a stopping condition in words; sources in words.
"""
from __future__ import annotations

import pytest

from rulekit.variant import check_file, load_variant
from rulekit.variant.explain import explain, formula_words


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def books():
    """The rulebooks of the shipped variants the user pass read."""
    return {v: explain(load_variant(v)) for v in ("belote", "boston", "bidwhist", "fivehundred", "pitch",
                                                   "king", "bridge")}


def test_formula_words_are_unambiguous():
    """user pass (gallery) finding 1: a conditional inside a formula is bracketed with its cases,
    a sum subtracted keeps its brackets, a named value is bold (never read as an operator), a
    plural subject agrees ("are", "equal")."""
    assert formula_words("10 * tricks") == "10 times the tricks taken"
    assert formula_words("tricks == total_tricks") == "the tricks taken equal the number of tricks in the hand"
    assert formula_words("declarer_tricks >= level") == "the declarer's tricks are at least the bid level"
    assert formula_words("(if capot then 250 else 162) + bel") == "(if **capot**: 250; otherwise: 162) plus **bel**"
    assert formula_words("(if made then level else -level) * times") == \
        "(if **made**: the bid level; otherwise: minus the bid level) multiplied by **times**"
    assert formula_words("a - (b + c)") == "**a** minus (**b** plus **c**)"
    assert formula_words("trump in [H, NT]") == "trumps are hearts or no trump"


def test_belote_scoring_is_a_case_list(books):
    """user pass (gallery) finding 1: Belote's nested conditional reads as nested cases."""
    assert ("- Every side scores (`if maker then (if own > theirs then own else bel) else (if theirs >= own "
            "then own else (if capot then 250 else 162) + bel)`):\n"
            "  - if **maker**:\n"
            "    - if **own** is more than **theirs**: **own**\n"
            "    - otherwise: **bel**\n"
            "  - otherwise, if **theirs** is at least **own**: **own**\n"
            "  - otherwise: (if **capot**: 250; otherwise: 162) plus **bel**\n") in books["belote"]
    assert ("- **capot** holds when the tricks taken equal the number of tricks in the hand "
            "(`tricks == total_tricks`).") in books["belote"]


def test_boston_bid_whist_five_hundred_formulas(books):
    """user pass (gallery) finding 1: Boston's bonus, Bid Whist's multiplier (no "times times"),
    Five Hundred's slam (plural subject)."""
    assert ("  - if **made**: **value** plus (if the contract is a null: 0; otherwise: 2 times (the tricks of "
            "the declarer and his partner minus **need**))\n  - otherwise: minus **value**\n") in books["boston"]
    assert ("- The declaring side scores (if **made**: the bid level; otherwise: minus the bid level) multiplied "
            "by **times** (`(if made then level else -level) * times`).") in books["bidwhist"]
    assert "times times" not in books["bidwhist"]
    assert ("  - if **made**:\n    - if the declarer's tricks equal the number of tricks in the hand and "
            "**value** is less than 250: 250\n    - otherwise: **value**\n  - otherwise: minus **value**\n"
            ) in books["fivehundred"]
    assert "- **made** holds when the declarer's tricks are at least the bid level" in books["fivehundred"]


def test_pitch_bids_are_points_and_the_rest_is_set_aside(books):
    """user pass (gallery) finding 2: Pitch's bids are points (no "0 tricks") and trumps come
    from the first lead (no "at no trump"); the undealt cards are set aside, unused."""
    t = flat(books["pitch"])
    assert "The contracts, in the list's order: 2 (two): worth 2; 3 (three): worth 3; 4 (four): worth 4." in t
    assert "tricks or more" not in t and "at no trump" not in t
    assert "; the other 28 cards are set aside, unused." in t and "to the aside" not in t
    # a list of trick contracts still says its tricks and trumps
    assert "5S, 5H, 5D, 5C: 5 tricks or more, the suit bid trumps" in flat(books["boston"])


def test_shipped_tallies_in_words(books):
    """user pass (gallery) finding 3: each tally said by its form."""
    assert ("- **belote** is the most of the K and Q of trumps dealt to any one player of his side (2 when one "
            "player was dealt both).") in books["belote"]
    assert "- **last** is 1 for the side that won the last trick, otherwise 0." in books["belote"]
    assert ("- **high** is 1 for the player who was dealt the highest trump in play (of the cards dealt), "
            "otherwise 0.") in books["pitch"]
    assert "- **jack** is 1 when he won the J of trumps in a trick, otherwise 0." in books["pitch"]
    assert "- **last_two** is how many of trick 7 and the last trick he won." in books["king"]
    assert "- **hearts** is the number of the hearts in the tricks he won." in books["king"]
    assert ("- **honours** is the most of the A, K, Q, J and 10 of trumps dealt to any one player of his side "
            "(5 when one player was dealt all of them).") in books["bridge"]


TALLY_TOY = """id: tally-toy
name: Tally Toy
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck: {suits: [S, H], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "3"}
  play: {kind: tricks, lead: eldest}
scoring:
  by: side
  tallies:
    aces: {ranks: A, in: side_hands}
    spade_tricks: {suits: S, in: tricks, count: tricks}
    first: {in: tricks, tricks: [1], count: tricks}
    top: {suits: H, pick: lowest, in: tricks}
  each: "aces + spade_tricks + first + top"
match: {target: 10}
"""


def test_every_tally_form_in_words(tmp_path):
    """user pass (gallery) finding 3: side_hands, count: tricks (all and one picked) and a pick in
    the tricks, on a made-up variant."""
    f = tmp_path / "tally-toy.yaml"
    f.write_text(TALLY_TOY)
    t = explain(load_variant(str(f)))
    assert "- **aces** is the number of the AS and AH dealt to the players of his side together." in t
    assert "- **spade_tricks** is the number of tricks his side won holding one of the spades." in t
    assert "- **first** is 1 for the side that won trick 1, otherwise 0." in t
    assert ("- **top** is 1 for the side that won the lowest card of hearts in play (of the cards dealt) in a "
            "trick, otherwise 0.") in t


def test_omitted_rules_are_listed(books, tmp_path):
    """user pass (gallery) finding 4: `omitted:` is printed under "Not included"; a file without
    it has no such heading; a wrong type is refused by validate."""
    assert ("## Not included\n\nThis file leaves out these rules of the published game:\n\n"
            "- announcements of sequences (tierce, cinquante, cent) and fours (carré), compared between the "
            "sides before play\n") in books["belote"]
    assert "- the smudge (in some rules a bid of all four points" in books["pitch"]
    for v in ("euchre", "spades", "hearts", "ohhell", "fivehundred-four", "fivehundred-six", "bidwhist"):
        assert "## Not included" in explain(load_variant(v)), v
    assert "Not included" not in books["fivehundred"]
    f = tmp_path / "toy.yaml"
    f.write_text(TALLY_TOY.replace("name: Tally Toy", "name: Tally Toy\nomitted: penalties"))
    errors = check_file(str(f))
    assert len(errors) == 1 and "omitted" in str(errors[0]) and ":3:" in str(errors[0])


def test_joker_names_and_the_kitty(books, tmp_path):
    """user pass (gallery) finding 5: the jokers by their names (tokens kept beside them), the
    low order "best first", the kitty called a kitty throughout."""
    t = flat(books["bidwhist"])
    assert "and 2 jokers: the big joker (JK1) and the little joker (JK2)." in t
    assert "In the trump suit they rank the big joker (JK1), the little joker (JK2), A, K, Q" in t
    assert ("In a low contract (won by the lowest cards: the bid says so, or its declarer chose low) the cards "
            "of a plain suit rank A 2 3 4 5 6 7 8 9 10 J Q K, best first") in t
    assert "the card that wins first" not in t
    assert "and 6 to the kitty (face down)" in t and "The declarer takes the kitty into his hand" in t
    assert "widow" not in t
    f = tmp_path / "toy.yaml"
    f.write_text(TALLY_TOY.replace("ranks: [\"9\"", "jokers: 2, joker_names: {JK3: odd}, ranks: [\"9\""))
    errors = check_file(str(f))
    assert errors and "JK3" in str(errors[0])


def test_extra_bid_stop_condition_and_called_partner(books):
    """user pass (gallery) finding 6: 10T explained; Boston's early stop in words; the called
    partner's score said."""
    assert ("10T is a bid to win at least 10 tricks, the declarer naming trumps after taking the widow; it is "
            "worth as much as 10 in the suit named.") in flat(books["fivehundred"])
    assert ("play stops at once after a trick as soon as the contract is a null and the declarer's tricks are "
            "more than 0 (`null and declarer_tricks > 0`).") in flat(books["boston"])
    assert "- The declarer, and his partner when he has called one, each score (`if made" in books["boston"]
    assert "- Each other player (a defender) scores 0 (`0`)." in books["boston"]


@pytest.mark.parametrize("vid, words", [
    ("fivehundred", "the project's rules/fivehundred.md (from two Russian rule texts of three-handed Five "
                    "Hundred, seeds 000 and 001)"),
    ("boston", "the project's rules/boston.md (from a Russian rule text, seed 003, section Boston)"),
    ("rams", "the project's rules/rams.md (from a Russian rule text, seed 003, section Rams)"),
    ("whist", "the project's rules/whist.md (from a Russian rule text, seed 003, section Whist)"),
    ("king", "the project's rules/king.md (from a Russian rule text of the twelve-round game, seed 003"),
    ("preferans", "the project's rules/preferans.md (from a Russian translation of the standard Balkan"),
    ("bridge", "the project's rules/bridge.md (from a rubber bridge rule text, seed 002"),
    ("fivehundred-four", "Bicycle: Four-Hand Five Hundred (bicyclecards.com"),
])
def test_sources_in_words(vid, words):
    """user pass (gallery) finding 7: the source says where the rules come from in words."""
    assert f"Source: {words}" in explain(load_variant(vid))
