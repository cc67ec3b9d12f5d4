"""rules/preferans.md [F2]: "a plain 2 (pik won with the talon, no refe)". The house rules
for a plain pik (only against kontra; compulsory kontra; the declarer's choice of refe or -4
when nobody kontras) are not for a declarer who plays it with a refe: his pik is defended as
any contract, and nobody playing counts it as made with his refe (x2)."""
from __future__ import annotations

from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.variant import load_variant


def _pik_with_refe(vid: str) -> State:
    """All pass (a refe for everyone, [A7] [R1]); then the eldest hand wins the auction at 2
    and announces pik, holding his open refe."""
    s = State(load_variant(vid), seed=1, dealer=2)
    for call in ("pass", "pass", "pass", "2", "pass", "pass"):
        s.apply(call)
    assert s.markers.marks["refe"][s.hand.declarer] == ["open"]
    s.apply(s.legal_actions()[0])        # [X1] two discards
    s.apply("pik")
    return s


def test_f2_base_game_pik_with_refe_is_followed_as_any_contract():
    """[F2] [F5]: the defenders of a pik played with a refe say follow or pass (not only
    kontra or pass)."""
    s = _pik_with_refe("preferans")
    assert [a.text for a in s.legal_actions()] == ["follow", "pass"]


def test_f2_serbian_pik_with_refe_a_follow_is_no_kontra():
    """Serbian house rules ([F2], compulsory kontra on plain pik only): against a pik with a
    refe a follow is a follow, not a kontra: the next defender decides in turn."""
    s = _pik_with_refe("preferans-serbian")
    first = s.to_move
    s.apply("follow")
    d = kind_of("defence").data_of(s.hand)
    assert d.level == 0 and d.kontra_seat == -1 and d.roles == {first: "follow"}
    assert s.to_move != first and [a.text for a in s.legal_actions()] == ["follow", "pass"]


def test_f2_r2_serbian_pik_with_refe_nobody_plays_counts_made_with_the_refe():
    """Serbian house rules, [F2] [R2]: nobody plays against a pik with a refe: no made/refe
    choice (that is for a plain pik), no second refe; the pik counts as made with the refe
    doubling it: -8 on his bula, no soup, his refe marked passed."""
    s = _pik_with_refe("preferans-serbian")
    d = s.hand.declarer
    s.apply("pass")
    s.apply("pass")
    row = s.sheet.rows[-1]
    assert s.hand.number == 2
    assert row.entries == [-8 if c == d else 0 for c in range(3)] and row.against == []
    assert row.marks == [{"marker": "refe", "column": d, "state": "passed"}]
    assert s.markers.marks["refe"] == [["passed"] if c == d else ["open"] for c in range(3)]
