"""House option of rules/fivehundred.md [T4]: "the Joker may be played to any lead as a card of
the suit led, unless its holder has already failed to follow that suit"
(``variants/fivehundred-joker-follows.yaml``, the general ``tricks.top_follows``). Deal J of
``test_rules_fivehundred``: seat 1 holds the Joker, spades and clubs, no red card."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.variant import load_variant

from tests.test_rules_fivehundred import J_DEAL, legal_texts, play, refused

SPADES = 0   # the group of spades (deck.suits order S C D H)


@pytest.fixture(scope="module")
def v():
    return load_variant("fivehundred-joker-follows")


def test_T4_house_joker_follows_a_lead_its_holder_can_follow_and_wins(v):
    """At no trump (all passed, [N1]) seat 1 holds spades, yet may play the Joker to a spade lead
    as a spade; it wins, and he is not marked as having failed spades."""
    s = play(State(v, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    s.apply("8S")
    assert legal_texts(s) == ["play AS", "play JK", "play KS", "play QS"]
    s.apply("JK")
    assert not s.hand.failed[1] >> SPADES & 1
    s.apply("7S")
    assert s.hand.tricks[0][2] == 1                      # [T4b] the Joker wins the trick


def test_T4_house_not_after_failing_that_suit(v):
    """The exception: a holder who has failed to follow the suit led may not play the Joker as a
    card of it. (In legal play a player who failed a suit holds none of it and may play any card,
    as [T4b] says; the failure is marked by hand, as in ``test_T4_exception_all_four_failed``.)"""
    s = play(State(v, deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    s.apply("8S")
    s.hand.failed[1] |= 1 << SPADES
    assert "play JK" not in legal_texts(s)
    assert refused(s, "JK").startswith("you must follow spades")


def test_T4_base_rule_unchanged_without_the_house_option():
    """The reference file keeps [T4b]: the Joker goes to a spade lead only when void in spades."""
    s = play(State(load_variant("fivehundred"), deals=[J_DEAL], dealer=2), ["pass", "pass", "pass"])
    s.apply("8S")
    assert "play JK" not in legal_texts(s)


def test_T4_house_changes_nothing_at_trumps(v):
    """[T5] at trumps the Joker is the highest trump: the house option (a no-trump rule) leaves
    every legal set of a suit contract as the reference file has it (same seeded random play)."""
    base = load_variant("fivehundred")
    for seed in range(6):
        a, b = State(base, seed=seed), State(v, seed=seed)
        rng = random.Random(seed)
        while not a.is_over and a.hands_played < 3:
            la, lb = sorted(x.text for x in a.legal_actions()), sorted(x.text for x in b.legal_actions())
            if a.kind.name != "tricks" or a.hand.trump != "NT":
                assert la == lb
            if la != lb:
                break                                    # a no-trump hand: the rules differ there
            act = la[rng.randrange(len(la))]
            a.apply(act)
            b.apply(act)


def test_top_follows_without_top_cards_is_a_warning(tmp_path):
    """``top_follows`` needs ``ranking.top``: without it the option has no effect (a warning)."""
    from rulekit.variant import check_file
    f = tmp_path / "w.yaml"
    f.write_text("id: w\nextends: whist\nname: W\nphases:\n  play:\n    top_follows: true\n")
    assert [str(d) for d in check_file(str(f), warnings=True)] == [
        f"{f}:6:5: warning: phases.play.top_follows: has no effect without ranking.top (no card is above "
        f"the suits)"]
