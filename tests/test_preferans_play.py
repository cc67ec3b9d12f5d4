"""Balkan preferans play rules (rules/preferans.md [T1] [T3], issue 8): the first lead passes
on from a player who does not play and from the declarer at sans; a betl ends at the
declarer's first trick.  Also the ``lead_pass_if`` primitive on a small made-up variant."""
from __future__ import annotations

from rulekit.engine import State
from rulekit.engine.phases import kind_of
from rulekit.variant import load_variant
from rulekit.variant.compiler import compile_variant
from rulekit.variant.loader import resolve

V = load_variant("preferans")


def _calls(s, *texts):
    for t in texts:
        s.apply(t)


def _declared(auction, contract, defence):
    """A hand dealt by C (A = 0 is eldest): the auction's calls, the talon, the contract
    announced, then the defence's words."""
    s = State(V, seed=1, dealer=2)
    _calls(s, *auction)
    s.apply(s.legal_actions()[0])   # discard two cards
    _calls(s, contract, *defence)
    assert s.phase_kind == "tricks"
    return s


def test_t1_eldest_leads_when_he_plays():
    """[T1]: the player left of the dealer (A) leads to the first trick."""
    s = _declared(("2", "pass", "pass"), "herc", ("follow", "follow", "pass", "pass"))
    assert s.hand.leader == 0 and s.to_move == 0


def test_t1_lead_passes_on_from_a_defender_who_passed():
    """[T1]: A (eldest) passed in the defence, so the next player who plays (B, the declarer)
    leads to the first trick."""
    s = _declared(("pass", "2", "pass"), "herc", ("follow", "pass", "alone", "pass"))
    assert s.hand.declarer == 1 and kind_of("defence").data_of(s.hand).roles == {2: "follow", 0: "pass"}
    assert s.hand.leader == 1 and s.to_move == 1


def test_t1_sans_declarer_does_not_lead_first():
    """[T1]: at sans the declarer (A, the eldest) may not lead to the first trick: B leads."""
    s = _declared(("2", "pass", "pass"), "sans", ("follow", "follow", "pass", "pass"))
    assert s.hand.contract.text == "sans" and s.to_move == 1


def test_t1_sans_lead_passes_over_the_declarer_and_a_passing_defender():
    """[T1]: sans declared by A, B passes and C plays alone: the lead passes over A (declarer
    at sans) and B (not playing) to C."""
    s = _declared(("2", "pass", "pass"), "sans", ("pass", "follow", "alone", "pass"))
    assert s.to_move == 2


def test_t3_betl_ends_at_the_declarers_first_trick():
    """[T3] [S5]: a betl ends as soon as the declarer wins a trick: he plays his highest card,
    the defenders their lowest; the hand stops after his first trick and is scored failed:
    declarer +12, each defender writes 60 (example 8's figures)."""
    s = _declared(("2", "pass", "pass"), "betl", ("pass", "pass"))
    order = {c: i for i, c in enumerate(V.deck.ranks)}
    while not s.hand_log:
        acts = s.legal_actions()
        key = lambda a: order[V.deck.name(a.card)[:-1]]   # noqa: E731 - rank of a play action
        s.apply(max(acts, key=key) if s.to_move == 0 else min(acts, key=key))
    h = s.hand_log[0]
    assert h.won[0] == 1 and h.trick_winners[-1] == 0 and len(h.tricks) < 10
    row = s.sheet.rows[-1]
    assert row.entries == [12, 0, 0]
    assert sorted((a["column"], a["value"]) for a in row.against) == [(1, 60), (2, 60)]


TOY = """
id: toy-lead-pass
name: Toy lead pass
players: 3
deck: {suits: [S, H], ranks: ["7", "8", "9", "10", J, Q]}
ranking: {suit: "Q J 10 9 8 7"}
phases:
  deal: {kind: deal, pattern: "4"}
  play: {kind: tricks, lead: eldest, lead_pass_if: "seat == 1 or seat == 2"}
scoring:
  each: "tricks"
match: {deals: 1}
"""


def test_lead_pass_if_primitive_on_a_made_up_variant(tmp_path):
    """issue 8 [T1] primitive: `lead_pass_if` passes the first lead on while it holds (seat 0
    deals, so seat 1 is eldest; seats 1 and 2 pass the lead, seat 0 leads)."""
    p = tmp_path / "toy.yaml"
    p.write_text(TOY)
    v = compile_variant(resolve(str(p)))
    s = State(v, seed=0, dealer=0)
    assert s.hand.leader == 0 and s.to_move == 0
