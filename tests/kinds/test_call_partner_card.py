"""``call_partner`` with ``card:``: partners by a card, on the made-up games of
``tests/data/partners/`` (a called ace, a called king, the J♦, the two black queens) and small
variants of them: which cards may be called, the holder as the declarer's partner, the rules
of play of the called card, the declarer who holds it himself, scoring by the party, the
scorepad, and the file's mistakes refused at file:line:column."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine import State
from rulekit.errors import IllegalActionError, VariantError
from rulekit.variant import load_variant
from tests.helpers import deal_order, legal_texts, play_first_legal, variant_from

DATA = Path(__file__).parent.parent / "data" / "partners"

#: Called ace, deal A (dealer 0, so seat 1 bids first and leads): seat 1 holds clubs and a
#: spade but no diamond; the A♣ is with seat 2, who holds no trump.
ACE_A = [["QH", "QD", "JH", "JD", "KH", "9H", "8H", "7H"],          # seat 0: trumps only
         ["7C", "8C", "9S", "QC", "QS", "JC", "AH", "10H"],         # seat 1: the declarer
         ["AC", "KC", "9C", "10S", "KS", "7D", "8D", "9D"],         # seat 2: the A♣
         ["AS", "10C", "8S", "7S", "AD", "10D", "KD", "JS"]]        # seat 3
#: Deal B: deal A with the A♣ (seat 2) and the Q♥ (seat 0) swapped: seat 0 is the partner.
ACE_B = [["AC", "QD", "JH", "JD", "KH", "9H", "8H", "7H"], ACE_A[1],
         ["QH", "KC", "9C", "10S", "KS", "7D", "8D", "9D"], ACE_A[3]]


def called_ace(dealer: int = 0, hands=ACE_A, text: str | None = None, tmp_path=None) -> State:
    """A called-ace match on an explicit deal, the auction and the call to come."""
    v = variant_from(tmp_path, "ace.yaml", text) if text else load_variant(str(DATA / "called-ace.yaml"))
    return State(v, seed=1, deals=[deal_order(hands, (4, 4), first=(dealer + 1) % 4)], dealer=dealer)


def _bid(s: State, declarer: int, contract: str = "game") -> None:
    while s.phase_kind == "list_auction":
        s.apply(contract if s.to_move == declarer else "pass")


def test_the_declarer_calls_a_plain_ace_of_a_suit_he_holds():
    """The calls offered are the plain aces he does not hold of suits he holds (A♣, A♠; the A♦
    is of a suit he lacks, the A♥ a trump); the refusals say which rule."""
    s = called_ace()
    _bid(s, 1)
    assert s.phase_kind == "call_partner" and s.to_move == 1
    assert legal_texts(s) == ["call AC", "call AS"]
    with pytest.raises(IllegalActionError, match="you may call only a card of a suit you hold: you hold no diamonds"):
        s.apply("call AD")
    with pytest.raises(IllegalActionError, match=r"a trump may not be called \(A♥\)"):
        s.apply("call AH")
    with pytest.raises(IllegalActionError, match="cannot be called"):
        s.apply("call KC")


def test_the_holder_is_the_partner_and_only_he_knows_it():
    """After ``call AC`` the holder of the A♣ (seat 2) is the declarer's partner: he knows it;
    the declarer and the others see no partner until the ace falls, then everyone does."""
    s = called_ace()
    _bid(s, 1)
    s.apply("call AC")
    assert s.hand.partner == 2 and s.role(2) == "partner"
    assert [s.observation(x).partner for x in range(4)] == [-1, -1, 2, -1]
    assert s.observation(2).phase_data["partner_call"]["complete"] is True
    assert s.observation(1).phase_data["partner_call"]["party"] == [1]
    s.apply("7C")                       # clubs led for the first time
    assert legal_texts(s) == ["play AC"]
    s.apply("AC")
    assert [s.observation(x).partner for x in range(4)] == [2, 2, 2, 2]


def test_the_called_ace_must_come_on_the_first_lead_of_its_suit():
    """``must_play``: the holder must play the A♣ to the first club lead, with its reason."""
    s = called_ace()
    _bid(s, 1)
    s.apply("call AC")
    s.apply("8C")
    with pytest.raises(IllegalActionError, match="the A♣ must be played the first time its suit is led"):
        s.apply("KC")


def test_the_called_ace_may_not_be_thrown_away():
    """``keep``: void in trumps, the holder may play any card to a trump lead but the A♣."""
    s = called_ace()
    _bid(s, 1)
    s.apply("call AC")
    s.apply("QC")                       # a trump: seat 2 holds none
    assert "play AC" not in legal_texts(s) and len(legal_texts(s)) == 7
    with pytest.raises(IllegalActionError, match="the A♣ may not be discarded before its suit has been led"):
        s.apply("AC")


def test_the_holder_leading_the_called_suit_first_leads_the_ace():
    """``must_play`` on the lead: the holder (here the eldest hand, leading) may lead a club only
    as the A♣ while clubs have not been led."""
    s = called_ace(dealer=1)
    _bid(s, 1)
    s.apply("call AC")
    assert s.to_move == 2
    assert "play KC" not in legal_texts(s) and "play AC" in legal_texts(s) and "play 10S" in legal_texts(s)
    with pytest.raises(IllegalActionError, match="you must lead the A♣ if you lead its suit the first time"):
        s.apply("KC")


def test_two_against_two_scored_by_the_party():
    """The party's card points decide: 61 or more and the declarer and partner score +20 each,
    the others -20; the row names the partner."""
    s = called_ace()
    _bid(s, 1)
    s.apply("call AC")
    h = s.hand
    play_first_legal(s)
    pts = sum(s.variant.card_points[c] for seat in (1, 2) for c in range(32) if h.won_cards[seat] >> c & 1)
    sign = 1 if pts >= 61 else -1
    assert h.entries == [-20 * sign, 20 * sign, 20 * sign, -20 * sign]
    assert "P1 with P2" in s.sheet.rows[0].note


def test_a_solo_calls_no_one_and_scores_one_against_three():
    """A contract that allows no partner skips the call: the soloist alone, ``party_size`` 1."""
    s = called_ace()
    _bid(s, 1, "soloH")
    assert s.phase_kind == "tricks"
    h = s.hand
    play_first_legal(s)
    won = sum(s.variant.card_points[c] for c in range(32) if h.won_cards[1] >> c & 1) >= 61
    assert h.entries[1] == (90 if won else -90) and sum(h.entries) == 0


#: Called king: seat 1 holds the four kings, so he calls a queen; seat 2 holds his own Q♠...
KING_ALL = [["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"],
            ["KS", "KH", "KD", "KC", "QS", "2H", "3H", "4H", "5H", "6H"],
            ["QH", "QD", "QC", "7H", "8H", "9H", "10H", "JH", "AH", "AS"],
            ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD"],
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC"]]
KING_DOG = ["AD", "AC"]


def called_king(hands, dog) -> State:
    v = load_variant(str(DATA / "called-king.yaml"))
    order = deal_order(hands, (5, 5), first=1)
    return State(v, seed=1, deals=[order[:25] + order[25:] + list(dog)], dealer=0)


def test_a_taker_with_the_four_kings_calls_a_queen():
    """The tiers ``[K, Q]``: holding every king, the taker calls a queen (his own among them:
    ``own: alone``)."""
    s = called_king(KING_ALL, KING_DOG)
    _bid(s, 1, "takeS")
    assert legal_texts(s) == ["call QC", "call QD", "call QH", "call QS"]
    with pytest.raises(IllegalActionError, match="you hold every card of rank K: call a card of rank Q"):
        s.apply("call KH")


def test_a_taker_who_calls_his_own_card_plays_alone_and_nobody_knows():
    """Calling the Q♠ he holds himself, the taker plays alone (``party_size`` 1): no
    observation shows a partner, and the others cannot tell him from a partnered taker."""
    s = called_king(KING_ALL, KING_DOG)
    _bid(s, 1, "takeS")
    s.apply("call QS")
    assert s.hand.partner == -1
    assert all(s.observation(x).partner == -1 for x in range(5))
    others = [s.observation(x).phase_data["partner_call"] for x in (0, 2, 3, 4)]
    assert all(not d["complete"] and d["party"] == [1] for d in others)
    assert s.observation(1).phase_data["partner_call"]["complete"] is True


def test_the_named_card_partners_the_declarer_or_he_calls():
    """``fixed: JD`` with ``own: call``: the holder of the J♦ partners the picker at once (no
    decision); a picker who holds the J♦ calls a plain ace instead."""
    v = load_variant(str(DATA / "jack-partner.yaml"))
    hands = [list(h) for h in ACE_A]
    s = State(v, seed=1, deals=[deal_order(hands, (4, 4), first=1)], dealer=0)
    _bid(s, 1, "pick")
    assert s.phase_kind == "tricks" and s.hand.partner == 0        # seat 0 holds the J♦
    assert [s.observation(x).partner for x in range(4)] == [0, -1, -1, -1]
    jd = 1 << v.deck.parse("JD")
    assert s.observation(2).excluded[1] & jd                       # the picker did not call: not his
    hands[0][3], hands[1][0] = hands[1][0], hands[0][3]            # the picker gets the J♦
    s = State(v, seed=1, deals=[deal_order(hands, (4, 4), first=1)], dealer=0)
    _bid(s, 1, "pick")
    assert s.phase_kind == "call_partner" and legal_texts(s) == ["call AC", "call AS"]   # not his A♥
    s.apply("call AS")
    assert (1, jd) in [(x, m & jd) for x, m in s.observation(2).holds_some]   # he called: the J♦ is his


#: Queens party: seat 1 holds both black queens (he plays alone), deal of ACE_A otherwise.
def test_the_holders_of_the_named_cards_form_the_party_without_a_declarer():
    """No auction: the holders of the Q♣ and the Q♠ are the party; one player holding both plays
    alone against three and scores three times."""
    v = load_variant(str(DATA / "queens-party.yaml"))
    s = State(v, seed=1, deals=[deal_order(ACE_A, (4, 4), first=1)], dealer=0)
    assert s.phase_kind == "tricks"
    d = s.observation(1).phase_data["partner_call"]
    assert d["party"] == [1] and d["complete"] is True            # he holds both: he knows
    assert s.observation(2).phase_data["partner_call"]["complete"] is False
    h = s.hand
    play_first_legal(s)
    pts = sum(v.card_points[c] for c in range(32) if h.won_cards[1] >> c & 1)
    won = pts >= 61
    value = 1 + (pts >= 91 or pts < 30)
    assert h.entries[1] == (3 if won else -3) * value and h.entries[0] == (-value if won else value)


def test_the_scorepad_asks_the_holders_and_scores_the_party():
    """Without a declarer the scorepad asks who held the named cards, then the tricks and card
    points, and scores the party as a played hand is."""
    from tests.helpers import typed_pad
    v = load_variant(str(DATA / "queens-party.yaml"))
    s = State(v, seed=1, deals=[deal_order(ACE_A, (4, 4), first=1)], dealer=0)
    play_first_legal(s)
    h = s.hand_log[0]
    pts = [sum(v.card_points[c] for c in range(32) if h.won_cards[x] >> c & 1) for x in range(4)]
    from rulekit.sheets.scorepad import ScorePad, FactError
    pad = ScorePad(v)
    facts: dict = {}
    q = pad.next_question(facts)
    assert q.prompt == "holders of Q♣ or Q♠"
    with pytest.raises(FactError, match="P1 is named twice"):
        pad.answer(q, "P1 P1", facts)
    with pytest.raises(FactError, match="3 holders, but the pack has 2"):
        pad.answer(q, "P1 P2 P3", dict(facts))
    pad = typed_pad(v, ["P1", "none", "none", " ".join(map(str, h.won)), " ".join(map(str, pts))])
    assert pad.sheet.rows[0].entries == s.sheet.rows[0].entries


BASE = (DATA / "called-ace.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("old, new, key, message", [
    ("card: {call: [A], trumps: false", "card: {call: [B], trumps: false", "B]",
     "phases.partner.card.call.0: 'B' is neither a rank nor a card of this deck"),
    ("card: {call: [A], trumps: false, own: refused", "card: {fixed: ZZ, trumps: false, own: refused", "ZZ",
     "phases.partner.card.fixed: 'ZZ' is not a card"),
    ("card: {call: [A], trumps: false, own: refused, hold_suit: true", "card: {call: [A], own: call",
     "call}", "own: call makes a declarer who holds the named card call another: it needs both fixed and call"),
    ("card: {call: [A], trumps: false, own: refused, hold_suit: true", "card: {fixed: JD, hold_suit: true",
     "true,", "hold_suit is a rule of the call, but nothing is called"),
    ("    card: {call", "    offers: true\n    card: {call", "true\n", "offers belongs to an invitation"),
    ("card: {call: [A], trumps: false, own: refused, hold_suit: true, must_play: true, keep: true}",
     "card: {}", "{}", "a card partnership needs a card")])
def test_mistakes_are_refused_at_their_place(tmp_path, old, new, key, message):
    """The card block's mistakes, each at file:line:column (the value at fault) with what was
    expected, and no other error."""
    assert old in BASE
    text = BASE.replace(old, new)
    with pytest.raises(VariantError) as e:
        variant_from(tmp_path, "bad.yaml", text)
    at = text.index(new) + new.index(key.rstrip("\n,}")) if key not in ("call}", "true,") else None
    said = str(e.value)
    assert message in said and len(e.value.diagnostics) == 1, said
    if at is not None:
        line = text.count("\n", 0, at) + 1
        col = at - text.rfind("\n", 0, at)
        assert f"bad.yaml:{line}:{col}:" in said, said


#: The J♦ partner game with a leaster: all pass and the hand is played, each for himself.
LEASTER = ((DATA / "jack-partner.yaml").read_text(encoding="utf-8")
           .replace("all_pass: redeal", "all_pass: play")
           .replace("card: {fixed: JD, call: [A], own: call, trumps: false, hold_suit: true}", "card: {fixed: JD}")
           .replace("  defender:", '  no_contract: "if in_party then 10 else -tricks"\n  defender:'))


def _all_pass(s: State) -> None:
    while s.phase_kind == "list_auction":
        s.apply("pass")


def test_a_hand_that_all_passed_has_no_party_by_the_named_card(tmp_path):
    """An auction game whose hand all passed has no declarer, so no party: the holder of the
    J♦ plays for himself (no ``party`` row on any screen, ``in_party`` false for every seat)."""
    s = called_ace(hands=ACE_A, text=LEASTER, tmp_path=tmp_path)
    _all_pass(s)
    assert s.phase_kind == "tricks" and s.hand.declarer < 0
    assert all("partner_call" not in s.observation(x).phase_data
               or "party" not in s.observation(x).phase_data["partner_call"] for x in range(4))
    from rulekit.variant.explain import explain
    assert "in a hand without a declarer (all passed), there is no party: each plays for himself" in explain(s.variant)
    h = s.hand
    play_first_legal(s)
    assert h.entries == [-h.won[x] for x in range(4)]


def test_without_declarer_party_forms_the_party_after_all_pass(tmp_path):
    """``without_declarer: party``: a hand of an auction game that all passed is played with
    the holders of the named card as a party (seat 0 holds the J♦: he alone)."""
    s = called_ace(hands=ACE_A, text=LEASTER.replace("{fixed: JD}", "{fixed: JD, without_declarer: party}"),
                   tmp_path=tmp_path)
    _all_pass(s)
    assert s.observation(0).phase_data["partner_call"]["party"] == [0]
    h = s.hand
    play_first_legal(s)
    assert h.entries == [10, -h.won[1], -h.won[2], -h.won[3]]


def test_without_declarer_needs_a_named_card(tmp_path):
    """``without_declarer`` with nothing named is refused at the option."""
    text = BASE.replace("card: {", "card: {without_declarer: party, ")
    with pytest.raises(VariantError, match=r"without_declarer.*no card is named \(expected fixed: CARD\)"):
        variant_from(tmp_path, "ace.yaml", text)
