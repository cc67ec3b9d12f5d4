"""`rulekit explain` and `rulekit schema`.

The rulebook is generated from the compiled variant; these tests assert the sentences a
player of the game would look for, with the values the rules give (rules/fivehundred.md).
"""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.schemas import editor_schema
from rulekit.variant import check_file, load_variant
from rulekit.variant.explain import explain, formula_words

runner = CliRunner()


def flat(text: str) -> str:
    return " ".join(text.split())


def test_explain_fivehundred_reads_as_its_rulebook():
    """`rulekit explain fivehundred` names the deck [P2], the bowers [R1] [T5], the
    deal [D3] [D4], the bids and their values [A2] [S1], the widow [W1], following suit [T2],
    the scores [S2]-[S5] and the target [G1]."""
    r = runner.invoke(app, ["explain", "fivehundred"])
    assert r.exit_code == 0, r.output
    t = flat(r.output)
    assert t.startswith("# Five Hundred")
    assert "**3 players**, each playing for himself." in t
    assert ("The deck has **33 cards**: 7 8 9 10 J Q K A in each of the 4 suits (spades, clubs, diamonds "
            "and hearts), and the Joker (JK).") in t
    assert ("In the trump suit they rank the Joker, the right bower (J of trumps), the left bower (J of the "
            "other suit of the same colour, which counts as a trump), A, K, Q, 10, 9, 8, 7") in t
    assert "a Joker led" not in t and "when it is led, its player names the suit the others must follow" in t
    assert "Each player cuts a card; the lowest cut deals first; the deal then passes to the left." in t
    assert "deals 10 cards to each player" in t and "and 3 to the widow (face up)" in t
    assert "the bids, lowest first, are 6S, 6C, 6D, 6H, 6NT, 7S" in t and "10H, 10NT; 10T may be bid only over 10NT" in t
    for bid, value in (("6S", 40), ("6NT", 120), ("7H", 200), ("8S", 240), ("10NT", 520)):
        assert f"| {bid} | {value} |" in r.output
    assert "| 10T | as 10 in the suit named |" in r.output
    assert "A player who passes drops out of the auction for good" in t
    assert "When all pass, the hand is played without a contract, at no trump." in t
    assert "The declarer takes the widow into his hand and then discards any 3 cards face down" in t
    assert "names trumps: spades, clubs, diamonds or hearts." in t
    assert "Each player must follow suit (play a card of the suit led) if he can" in t
    assert "the declarer leads to the first trick" in t
    assert "- **made** holds when the declarer's tricks are at least the bid level" in t
    assert "**value** is 40 plus 20 times the strain's rank plus 100 times (the bid level minus 6)" in t
    assert "Each defender scores 10 times the tricks taken (`10 * tricks`)." in t
    assert "The first to reach **500 points** wins." in t
    assert "the bid level is 10 and trumps are hearts or no trump" in t


def test_explain_house_rule_says_the_loss_floor():
    """The -500 house rule's loss ([G1] variant) is said in the rulebook."""
    t = flat(explain(load_variant("fivehundred-minus-500")))
    assert "A total of **-500** or less loses the match." in t


def test_explain_partnerships_and_penalties_on_a_made_up_variant(tmp_path):
    """Sides, a penalty scoring and a formula in words, on a small made-up variant."""
    f = tmp_path / "toy.yaml"
    f.write_text("""id: toy
name: Toy
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
  each: "if tricks > 3 then 0 else 3 - tricks"
  lower_is_better: true
match: {target: 10}
""")
    r = runner.invoke(app, ["explain", str(f)])
    assert r.exit_code == 0, r.output
    t = flat(r.output)
    assert "**4 players** in partnerships (NS: seats N, S; EW: seats E, W)" in t
    assert "Scores are kept for each side, and lower totals are better (points are penalties)." in t
    assert ("- Every side scores (`if tricks > 3 then 0 else 3 - tricks`): - if the tricks taken are more than "
            "3: 0 - otherwise: 3 minus the tricks taken") in t
    assert "The match ends when a total reaches 10 points; then the lowest total wins." in t


def test_explain_a_broken_file_fails_like_validate(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("id: bad\nname: Bad\n")
    r = runner.invoke(app, ["explain", str(f)])
    assert r.exit_code == 1
    assert "bad.yaml:1:1" in r.output


def test_formula_words_keeps_unparsable_text():
    assert formula_words("3 +") == "3 +"
    assert formula_words("max(tricks - 6, 0)") == "the larger of (the tricks taken minus 6) and 0"


def test_schema_prints_the_editor_schema(tmp_path):
    """`rulekit schema` prints rulekit.schemas.editor_schema() (every phase kind)."""
    r = runner.invoke(app, ["schema"])
    assert r.exit_code == 0
    assert json.loads(r.output) == editor_schema()
    assert "phase_tricks" in json.loads(r.output)["$defs"]
    out = tmp_path / "s.json"
    r = runner.invoke(app, ["schema", "-o", str(out)])
    assert r.exit_code == 0 and json.loads(out.read_text()) == editor_schema()
    r = runner.invoke(app, ["schema", "-o", str(tmp_path / "no" / "s.json")])
    assert r.exit_code == 2 and "cannot write" in r.output


def test_explain_a_schedule_of_rounds_describes_each_round():
    """rules/king.md [K1]-[K12], [E1]: the rulebook of a variant with rounds
    names the twelve rounds in order, gives each its own objective, phases and scoring, and says
    the match ends after the last round, not "Every player scores 0" or "at most 1000 deals"."""
    text = explain(load_variant("king"))
    names = ["no tricks", "no hearts", "no boys", "no girls", "not the last two", "no king",
             "running total", "jacks domino", "trumps 1", "trumps 2", "trumps 3", "trumps 4"]
    listed = text.split("in this order:")[1].split("###")[0]
    assert [line.split(". ", 1)[1] for line in listed.strip().splitlines()] == names
    assert "### Round 6: no king" in text and "*Do not take the king of hearts: -8, and the round ends at once.*" in text
    assert "Every player scores minus 8 times **king** (`-8 * king`)." in text
    assert "### Rounds 9 to 12 (4 deals): trumps" in text and "Every player scores 3 times the tricks taken" in text
    king = text.split("### Round 6")[1].split("### Round 7")[0]
    assert "Hearts may not be led at any time while the leader holds another suit" in king
    assert "running total scores the player who reaches each threshold (25: -1, 50: -3, 75: -5, 100: -7)" in text
    assert "The match ends after the last round (round 12, trumps 4); the highest total wins." in text
    assert "Every player scores 0" not in text and "1000 deals" not in text


def _explain(name: str) -> str:
    from rulekit.variant.explain import explain
    return " ".join(explain(load_variant(name)).split())


def test_explain_names_suits_and_cards_not_settings():
    """``explain`` names the 2♣, the suits and the cards of the lead rules (never the setting names
    `first_trick.lead`, `lead_broken`, `first_trick`, `lead_never`), says "any card" when the
    variant has no trumps, and words ``pile_score``."""
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
    """The number of deals is said once: "The match lasts 8 deals; the best total wins."."""
    assert "The match lasts 8 deals; the best total wins." in _explain("boston")


@pytest.fixture(scope="module")
def books():
    """The rulebooks of the shipped variants these tests read."""
    return {v: explain(load_variant(v)) for v in ("belote", "boston", "bidwhist", "fivehundred", "pitch",
                                                   "king", "bridge", "skat", "doppelkopf", "tarot")}


def test_formula_words_are_unambiguous():
    """A conditional inside a formula is bracketed with its cases,
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
    """Belote's nested conditional reads as nested cases."""
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
    """Boston's bonus, Bid Whist's multiplier (no "times times"),
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
    """Pitch's bids are points (no "0 tricks": made when the points won reach the bid) and trumps come
    from the first lead (no "at no trump"); the undealt cards are set aside, unused."""
    t = flat(books["pitch"])
    assert ("The contracts, in the list's order: 2 (two): made when **won** is at least 2, worth 2; 3 (three): "
            "made when **won** is at least 3, worth 3; 4 (four): made when **won** is at least 4, worth 4.") in t
    assert "tricks or more" not in t and "at no trump" not in t
    assert "; the other 28 cards are set aside, unused." in t and "to the aside" not in t
    # a list of trick contracts still says its tricks and trumps
    assert "5S, 5H, 5D, 5C: 5 tricks or more, the suit bid trumps" in flat(books["boston"])


def test_a_contract_of_card_points_says_what_it_needs(books):
    """Skat's games are won on card points [SK-S2]: each says what the scoring's ``made`` needs
    with its own promises (schneider 90, schwarz every trick), a null no trick; Doppelkopf's solos
    (no ``made``) and Tarot's contracts say no "0 tricks or more"."""
    t = flat(books["skat"])
    assert "clubs: made when the declarer's card points are at least 61 and not **overbid**, C trumps, worth 12" in t
    assert ("clubsschneider (clubs schneider): made when the declarer's card points are at least 90 and not "
            "**overbid**, C trumps, only in a hand game, promising schneider, worth 12") in t
    assert ("grandschwarz (grand schwarz): made when the declarer's card points are at least 90 and not "
            "**overbid** and the declarer's tricks are 10, at no trump,") in t
    assert "null: no trick (a null), at no trump, worth 23" in t
    assert "The games: diamonds (diamond solo): D trumps, worth 2; " in flat(books["doppelkopf"])
    assert "prise (prise (petite)): made when **difference** is at least 0, T trumps, worth 1" in flat(books["tarot"])
    assert not any("0 tricks or more" in b for b in books.values())


def test_a_party_by_the_named_card_in_words(books):
    """Doppelkopf [DK-P5]: with no contract giving the declarer a partner, the party by the Q♣ is
    said for a hand without a declarer, in words a player reads ("play together"), and a player
    holding both plays alone."""
    t = flat(books["doppelkopf"])
    assert ("**party** — In a hand without a declarer (all passed), the players who hold the Q♣ play together "
            "against the others (one who holds them all plays alone). Nobody else knows who plays with whom "
            "until the card is played or its holder announces his side.") in t
    assert not any("partners the declarer" in b or "partners him" in b for b in books.values())


def test_what_a_condition_needs_once_a_contracts_attributes_are_known():
    """``folded_words``: known variables decide the branches; of two bounds of one variable the
    stricter stays; a condition decided by the known values alone says nothing."""
    from rulekit.dsl.words import folded_words
    lets = {"won": "if null then declarer_tricks == 0 else points >= 61 and (not big or points >= 90)"}
    assert folded_words("won", {"null": False, "big": True}, lets) == "the card points taken are at least 90"
    assert folded_words("won", {"null": True}, lets) == "the declarer's tricks are 0"
    assert folded_words("value >= 2", {"value": 3}) is None
    assert folded_words("value >=", {}) is None


def test_shipped_tallies_in_words(books):
    """Each tally said by its form."""
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
    """side_hands, count: tricks (all and one picked) and a pick in
    the tricks, on a made-up variant."""
    f = tmp_path / "tally-toy.yaml"
    f.write_text(TALLY_TOY)
    t = explain(load_variant(str(f)))
    assert "- **aces** is the number of the AS and AH dealt to the players of his side together." in t
    assert "- **spade_tricks** is the number of tricks his side won holding one of the spades." in t
    assert "- **first** is 1 for the side that won trick 1, otherwise 0." in t
    assert ("- **top** is 1 for the side that won the lowest card of hearts in play (of the cards played to the tricks) in a "
            "trick, otherwise 0.") in t


def test_omitted_rules_are_listed(books, tmp_path):
    """`omitted:` is printed under "Not included"; a file without
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
    """The jokers by their names (tokens kept beside them), the
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
    """10T explained; Boston's early stop in words; the called
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
    """The source says where the rules come from in words."""
    assert f"Source: {words}" in explain(load_variant(vid))


def test_a_match_of_one_deal_is_said_in_the_singular():
    """``match: {deals: 1}``: "lasts 1 deal", and the winner line "1 deal played"."""
    assert "The match lasts 1 deal; the best total wins." in explain(load_variant("germanwhist"))
    out = CliRunner().invoke(app, ["play", "germanwhist", "--auto", "--quiet", "--seed", "1"]).output
    assert "(1 deal played)" in out


#: Boston with a count of trump honours added to the declarer's score: a made-up variant whose
#: list contracts score more than their value when the declarer holds honours
BOSTON_HONOURS = """\
id: boston-honours
extends: boston
name: Boston with honours
scoring:
  tallies:
    honours: {ranks: "A K Q J 10", suit: trump, in: hand}
  declarer: "if made then value + honours + (if null then 0 else 2 * (side_tricks - need)) else -value"
"""


def test_a_list_contract_is_worth_at_least_its_value_where_tallies_raise_it(tmp_path):
    """Where the scoring adds tallies to a list contract's value, explain says "worth at least N"
    as the bid prompt does (the figure takes no tallies, which can only raise it); without them,
    the plain value (Boston's 5♠: 3, 2 or 1 by suit class)."""
    from rulekit.cli.render import worth_words
    from rulekit.engine import State
    from tests.helpers import variant_from
    v = variant_from(tmp_path, "honours.yaml", BOSTON_HONOURS)
    t = flat(explain(v))
    assert "5S, 5H, 5D, 5C: 5 tricks or more, the suit bid trumps, a partner may be called, worth at least 3, 2 " \
           "or 1 (suit class 1, 2, 3);" in t
    assert "BN (big null): no trick (a null), at no trump, worth at least 25;" in t
    s = State(v, seed=1)
    bids = {b.text: b for b in s.current_bids()}
    assert [worth_words(s, bids[x]) for x in ("5S", "BN")] == [f"at least {bids['5S'].value}", "at least 25"]
    plain = flat(explain(load_variant("boston")))
    assert "a partner may be called, worth 3, 2 or 1 (suit class 1, 2, 3);" in plain and "worth at least" not in plain


def test_a_hostile_name_source_and_omitted_rule_are_each_one_line_of_plain_text(tmp_path):
    """A variant's ``name``, ``source`` and omitted rules are untrusted text: a newline, a heading
    mark, emphasis, a link, raw HTML, an entity or a list mark in them is shown as written, one
    heading, one paragraph and one list item, laying out nothing of its own."""
    from markdown_it import MarkdownIt
    from tests.helpers import variant_from
    evil = "Zo *nes*\\n\\n# Owned [x](http://e.example) <b>b</b> &amp; `c` __d__ ~~e~~ #"
    text = (f'id: evil\nextends: whist\nname: "{evil}"\nsource: "- {evil}"\n'
            f'omitted: ["1. {evil}", "[x]: http://e.example"]\n')
    out = explain(variant_from(tmp_path, "evil.yaml", text))
    shown = "Zo *nes* # Owned [x](http://e.example) <b>b</b> &amp; `c` __d__ ~~e~~ #"
    tokens = MarkdownIt("commonmark").enable("strikethrough").parse(out)
    inline = [t for t in tokens if t.type == "inline"]
    source = next(t for t in inline if t.content.startswith("Source:"))
    said = [inline[0], source, *inline[-2:]]   # the heading, the source, the two rules left out
    assert [{c.type for c in t.children or ()} for t in said] == [{"text"}] * 4
    assert ["".join(c.content for c in t.children or ()) for t in said] == \
        [shown, f"Source: - {shown}.", f"1. {shown}", "[x]: http://e.example"]
    assert (tokens[0].tag, [t.type for t in tokens].count("heading_open")) == ("h1", 1 + out.count("\n## "))
    last = [t.type for t in tokens][max(i for i, t in enumerate(tokens) if t.type == "heading_open"):]
    assert last.count("list_item_open") == 2 and "ordered_list_open" not in last


def test_cards_above_the_suits_and_without_power_are_worded_by_their_number(tmp_path):
    """One card above every suit "ranks", several "rank" (highest first, as `ranking.top` is
    written); one powerless card "has no power" and "it" belongs to no suit, several "have"."""
    assert "At no trump JK ranks above every suit; when it is led, its player names the suit" in \
        flat(explain(load_variant("fivehundred")))
    assert "At no trump JC, JS, JD and JH rank above every suit, highest first." in \
        flat(explain(load_variant("rams-jacks")))
    assert ("Where no other order ranks them (at no trump) the big joker (JK1) and the little joker (JK2) have "
            "no power: they belong to no suit") in flat(explain(load_variant("bidwhist")))
    f = tmp_path / "one-powerless.yaml"
    f.write_text('id: one-powerless\nextends: bidwhist\nname: One powerless joker\n'
                 'ranking:\n  powerless: "JK1"\n  top: "JK2"\n', encoding="utf-8")
    t = flat(explain(load_variant(str(f))))
    assert "At no trump the little joker (JK2) ranks above every suit." in t
    assert ("Where no other order ranks it (at no trump) the big joker (JK1) has no power: it belongs to no suit, "
            "so a player plays it only when he cannot follow suit or when he leads, it never wins a trick, and "
            "when it is led the first card") in t


@pytest.mark.parametrize("deals, words", [
    ('"players"', "The match lasts as many deals as the number of players (`players`); the best total wins."),
    ('"2 * players"', "The match lasts as many deals as 2 times the number of players (`2 * players`); "
                      "the best total wins."),
    ("1", "The match lasts 1 deal; the best total wins.")])
def test_explain_a_number_of_deals_given_by_a_formula(tmp_path, deals, words):
    """A match length written as a formula is said as a noun phrase ("as many deals as the
    number of players"), never "lasts the number of players deals"."""
    from rulekit.variant.explain import explain
    from tests.helpers import small_deck_toy
    assert words in " ".join(explain(small_deck_toy(tmp_path, deals=deals)).split())
