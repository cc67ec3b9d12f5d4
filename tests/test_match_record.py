"""The match's record of choices (:class:`rulekit.engine.record.MatchRecord`)."""
from __future__ import annotations

from rulekit.engine.record import MatchRecord


def test_a_choice_past_16_bits_widens_the_record_without_repeating_choices():
    """A deal with a choice above 65,535 (a set of cards from a long hand) is kept exactly:
    the codes widen to 64 bits and hold each choice once, the deals' ends count them."""
    r = MatchRecord()
    r.add([3, 4])
    r.add([1, 70_000, 2])
    assert list(r.codes) == [3, 4, 1, 70_000, 2] and list(r.ends) == [2, 5]
    assert list(r.deal(1)) == [1, 70_000, 2]
