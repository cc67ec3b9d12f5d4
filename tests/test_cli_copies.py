"""A pack with several copies of a card (``deck.copies``): what a player reads shows each card
as printed (``10♥``), the copies alike; the copy number (``10H:2``) stays where a copy is named
exactly (records, an action typed with it, the engine's words about a typed copy)."""
from __future__ import annotations

import json

from rulekit.cli.render import hand_text, legal_text, styled, trick_line
from rulekit.engine import State
from rulekit.records import to_record
from rulekit.variant import load_variant
from rulekit.web.view import card_json
from tests.helpers import plain, play_random


def _at_first_trick() -> State:
    """A Doppelkopf hand (two copies of every card) with the auction passed out: the first
    player of the first trick is to move."""
    s = State(load_variant("doppelkopf"), seed=1)
    while s.legal_actions()[0].kind != "play":
        s.apply("pass")
    return s


def test_face_is_the_card_without_its_copy_number():
    deck = load_variant("doppelkopf").deck
    c = deck.parse("10H:2")
    assert (deck.name(c), deck.pretty(c), deck.face(c)) == ("10H:2", "10♥:2", "10♥")
    plain_deck = load_variant("fivehundred").deck
    assert all(plain_deck.face(c) == plain_deck.pretty(c) for c in range(plain_deck.size))


def test_the_hand_and_the_tricks_show_no_copy_numbers():
    s = _at_first_trick()
    seat = s.to_move
    deck = s.variant.deck
    shown = plain(hand_text(s, seat), strip=True)
    assert ":" not in shown
    assert sorted(shown.split()) == sorted(deck.face(c) for c in s.hand_cards(seat))
    for _ in range(s.variant.players):
        s.apply(s.legal_actions()[0])
    trick = s.hand.tricks[0]
    line = plain(trick_line(s, trick, 0), strip=True)
    assert ":" not in line
    assert all(deck.face(c) in line for _, c in trick[1])


def test_the_legal_list_says_a_card_of_two_alike_copies_once_and_that_text_plays():
    """Both copies of A♦ held: ``?`` lists ``play AD`` once; typed, it plays the first copy."""
    s = _at_first_trick()
    deck = s.variant.deck
    held = [deck.name(c) for c in s.hand_cards(s.to_move)]
    both = sorted({deck.base(deck.parse(n)) for n in held if n.endswith(":2") and n[:-1] + "1" in held})
    assert both, "the deal of seed 1 gives the first player two copies of some card"
    listed = plain(legal_text(s), strip=True)
    assert listed.startswith("legal: ") and ":" not in listed[len("legal:"):]
    words = listed[len("legal: "):].split(", ")
    for card in both:
        assert words.count(f"play {card}") == 1
    s.apply(f"play {both[0]}")
    assert s.history[-1][1] == f"play {both[0]}:1"


def test_kind_words_and_the_page_drop_copy_numbers_but_records_keep_them():
    assert plain(styled("P1 declares K♠:2 Q♠:1, then ♥"), strip=True) == "P1 declares K♠ Q♠, then ♥"
    deck = load_variant("doppelkopf").deck
    assert card_json(deck, deck.parse("QC:2")) == {"c": "QC:2", "t": "Q♣", "s": "C"}
    s = play_random(_at_first_trick(), seed=2)
    actions = json.loads(json.dumps(to_record(s)))["actions"]
    assert any(text.startswith("play ") and text[-2] == ":" for _seat, text in actions)
