"""A hand-written, plain pure-Python random playout of three-handed Five Hundred.

This is the baseline the generic engine is measured against (``benchmarks/playout.py``).
It is written the ordinary way, not tuned: a card is a ``(rank, suit)`` tuple, a hand
is a list of cards, effective suit and card power are small functions, the trick is a
list of ``(seat, card)`` pairs.  No bitmasks, no precomputed tables beyond rank order.

Rules: ``../shared/rules/fivehundred.md`` (rule ids in brackets), the same reading as
``variants/fivehundred.yaml``:

* [P2] 33 cards; [D3] [D4] 3 3 3 1 from eldest hand, widow 3.
* [A1]-[A5] ascending bids 6S..10NT, pass is final, 10T only over 10NT; all pass: no
  contract, played at no trump, eldest leads [N1].
* [W1] declarer takes the widow and discards 3 at random; 10T names a random trump.
* [R1]-[R3], [T1]-[T5] following by effective suit (left bower is a trump, the Joker is
  the top trump; at no trump the Joker belongs to no suit, may be played to a suit lead
  only when void, and when led names a suit the leader has not failed to follow).
* [S1]-[S5], [N2] scoring; [G1]-[G3] match to 500 with immediate win and tie breaks.

Every decision is uniformly random among the legal ones.

Run ``python benchmarks/handwritten500.py --check 2000`` to cross-check this code
against the engine (same deals, same decisions: same legal moves, entries and winners).
"""
from __future__ import annotations

import argparse
import random
import sys
import time

SUITS = ["S", "C", "D", "H"]                 # [A2] strain order, low to high (NT above)
STRAINS = ["S", "C", "D", "H", "NT"]
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
RANK_ORDER = {r: i for i, r in enumerate(RANKS)}
SISTER = {"S": "C", "C": "S", "D": "H", "H": "D"}   # same colour [R1]
JOKER = ("JK", "")
DECK = [(r, s) for s in SUITS for r in RANKS] + [JOKER]

# [A2] [A4]: 25 ladder bids then ten-with-trump; a bid is (level, strain).
BIDS = [(level, strain) for level in range(6, 11) for strain in STRAINS] + [(10, "T")]
TEN_NT = BIDS.index((10, "NT"))

TARGET = 500

# record mode (run(record=True)): the texts the engine writes for each action
CARD_TEXT = {c: "JK" if c == JOKER else c[0] + c[1] for c in DECK}
PLAY_TEXT = {c: "play " + CARD_TEXT[c] for c in DECK}
CALL_TEXT = {None: "pass", **{i: f"{lv}{st}" for i, (lv, st) in enumerate(BIDS)}}
CARD_INDEX = {c: i for i, c in enumerate(DECK)}


def effective_suit(card, trump):
    """The suit ``card`` follows as: a left bower or the Joker is a trump [R1] [T5];
    at no trump (``trump`` None) the Joker has no suit [R3]."""
    rank, suit = card
    if rank == "JK":
        return trump
    if rank == "J" and trump is not None and suit == SISTER[trump]:
        return trump
    return suit


def power(card, trump):
    """Strength within its effective suit: Joker > right bower > left bower > A ... 7."""
    rank, suit = card
    if rank == "JK":
        return 100
    if rank == "J" and trump is not None:
        if suit == trump:
            return 99
        if suit == SISTER[trump]:
            return 98
    return RANK_ORDER[rank]


def legal_plays(hand, trick, trump, led):
    """Cards of ``hand`` that may be played: all when leading, else the led suit if held [T2]."""
    if not trick:
        return list(hand)
    follow = [c for c in hand if effective_suit(c, trump) == led]
    return follow if follow else list(hand)


def nameable_suits(failed):
    """[T4a] suits a Joker leader may name: those he has not failed to follow, or all."""
    ok = [s for s in SUITS if s not in failed]
    return ok if ok else list(SUITS)


def trick_winner(trick, trump, led):
    """[T3] [T4]: highest trump (Joker at no trump), else highest card of the led suit."""
    best_seat, best_key = -1, -1
    for seat, card in trick:
        if card == JOKER:
            key = 1000
        else:
            s = effective_suit(card, trump)
            if s == trump:
                key = 200 + power(card, trump)
            elif s == led:
                key = power(card, trump)
            else:
                continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def legal_calls(high):
    """[A2] [A4]: ``None`` (pass) then every bid index above ``high``."""
    calls = [None]
    for i in range(high + 1, len(BIDS)):
        if BIDS[i][1] == "T" and high != TEN_NT:
            continue
        calls.append(i)
    return calls


def deal(order, eldest):
    """[D3] [D4]: 3 3 3 1 clockwise from eldest; the last 3 cards are the widow."""
    hands = [[], [], []]
    i = 0
    for packet in (3, 3, 3, 1):
        for k in range(3):
            seat = (eldest + k) % 3
            hands[seat].extend(order[i:i + packet])
            i += packet
    return hands, order[i:i + 3]


def contract_value(level, strain):
    """[S1] 40 + 20 s + 100 (level - 6)."""
    return 40 + 20 * STRAINS.index(strain) + 100 * (level - 6)


def score(contract, trump, declarer, won):
    """[S2]-[S5] [N2]: the entry of each seat."""
    if contract is None:
        return [10 * t for t in won]
    level = BIDS[contract][0]
    value = contract_value(level, trump)
    entries = [10 * t for t in won]
    if won[declarer] >= level:
        entries[declarer] = 250 if won[declarer] == 10 and value < 250 else value
    else:
        entries[declarer] = -value
    return entries


def match_end(contract, trump, declarer, won, before, after, winners_by_trick):
    """[G1]-[G3]: the winning seat, or None when the match goes on."""
    if contract is not None:
        level = BIDS[contract][0]
        if won[declarer] >= level and level == 10 and trump in ("H", "NT"):
            return declarer
    reached = [s for s in range(3) if after[s] >= TARGET]
    if not reached:
        return None
    if len(reached) == 1:
        return reached[0]
    if declarer in reached:
        return declarer
    counts = [0, 0, 0]     # only defenders (or no contract) left: 10 per trick, in trick order
    for w in winners_by_trick:
        counts[w] += 1
        for s in reached:
            if before[s] + 10 * counts[s] >= TARGET:
                return s
    return reached[0]


class Game:
    """Random decisions for one match; ``pick`` and friends may be replaced (cross-check)."""

    def __init__(self, rng):
        self.rng = rng

    def pick(self, options):
        return options[int(self.rng.random() * len(options))]

    def discard(self, hand):
        return self.rng.sample(hand, 3)


def play_deal(game, order, dealer, totals, log=None):
    """Play one hand from the shuffled ``order``; return ``(entries, winner, plays)``.

    :param log: a list to append ``(seat, text)`` for every call, discard, trump and card
        (the record mode of :func:`run`), or ``None``.
    """
    eldest = (dealer + 1) % 3
    hands, widow = deal(order, eldest)
    say = log.append if log is not None else None

    # auction [A1]-[A5]
    high, high_seat = -1, -1
    passed = [False, False, False]
    seat = eldest
    while True:
        call = game.pick(legal_calls(high))
        if say:
            say((seat, CALL_TEXT[call]))
        if call is None:
            passed[seat] = True
        else:
            high, high_seat = call, seat
        active = [s for s in range(3) if not passed[s]]
        if not active:
            break
        if len(active) == 1 and high >= 0 and active[0] == high_seat:
            break
        seat = (seat + 1) % 3
        while passed[seat]:
            seat = (seat + 1) % 3

    if high >= 0:
        contract, declarer = high, high_seat
        trump = BIDS[contract][1]
        hand = hands[declarer]                      # [W1]
        hand.extend(widow)
        out = game.discard(hand)
        for c in out:
            hand.remove(c)
        if say:
            say((declarer, "discard " + " ".join(CARD_TEXT[c] for c in sorted(out, key=CARD_INDEX.get))))
        if trump == "T":                            # [A4] ten with trump
            trump = game.pick(SUITS)
            if say:
                say((declarer, "trump " + trump))
        leader = declarer                           # [T1]
    else:
        contract, declarer, trump, leader = None, -1, "NT", eldest   # [N1]

    t = None if trump == "NT" else trump
    tricks_kept: list = []
    won = [0, 0, 0]
    failed = [set(), set(), set()]
    winners_by_trick = []
    plays = 0
    for _ in range(10):
        trick = []
        led = None
        seat = leader
        for _k in range(3):
            hand = hands[seat]
            card = game.pick(legal_plays(hand, trick, t, led))
            if not trick:
                if card == JOKER and t is None:     # [T4a] the Joker led names a suit
                    led = game.pick(nameable_suits(failed[seat]))
                    if say:
                        say((seat, "play JK " + led))
                else:
                    led = effective_suit(card, t)
                    if say:
                        say((seat, PLAY_TEXT[card]))
            else:
                if say:
                    say((seat, PLAY_TEXT[card]))
                if effective_suit(card, t) != led:
                    failed[seat].add(led)
            hand.remove(card)
            trick.append((seat, card))
            plays += 1
            seat = (seat + 1) % 3
        first = trick[0][0]
        leader = trick_winner(trick, t, led)
        won[leader] += 1
        winners_by_trick.append(leader)
        if log is not None:
            tricks_kept.append((first, trick, leader))

    entries = score(contract, trump, declarer, won)
    after = [totals[s] + entries[s] for s in range(3)]
    winner = match_end(contract, trump, declarer, won, totals, after, winners_by_trick)
    totals[:] = after
    if log is not None:   # the record mode: the hand's row and its tricks, as the engine keeps them
        if contract is None:
            note = "no contract"
        else:
            level = BIDS[contract][0]
            note = (f"P{declarer} {CALL_TEXT[contract]}{f' ({trump})' if BIDS[contract][1] == 'T' else ''} "
                    f"{'made' if won[declarer] >= level else 'failed'} ({won[declarer]} tricks)")
        kept = bytearray()
        for leader, played, w in tricks_kept:
            kept += bytes((leader, w, len(played)))
            for seat, card in played:
                kept += bytes((seat, CARD_INDEX[card]))
        log.append(("row", entries, list(after), note, list(winners_by_trick), bytes(kept)))
    return entries, winner, plays


def run(seconds: float, seed: int = 1, record: bool = False):
    """Play random matches for ``seconds`` of CPU time; return ``(deals, plays, cpu seconds)``.

    :param record: also keep what the engine keeps of a match, in the plain way: each hand
        shuffled by its own re-seeded generator (deals that records can replay), every
        action as ``(seat, text)``, a sheet row per hand (entries, totals, a note, the trick
        winners) and the hand's tricks as bytes.  (``benchmarks/playout.py``'s
        ``handwritten+record`` row: the same playout with the engine's bookkeeping.)
    """
    rng = random.Random(seed)
    game = Game(rng)
    deck = list(DECK)
    totals = [0, 0, 0]
    dealer = int(rng.random() * 3)
    deals = plays = 0
    log: list | None = [] if record else None
    deal_rng = random.Random(0)
    start = time.process_time()
    end = start + seconds
    while True:
        if record:
            deal_rng.seed(f"hw:{seed}:{deals}")
            deck = list(DECK)
            deal_rng.shuffle(deck)
        else:
            rng.shuffle(deck)
        _entries, winner, n = play_deal(game, deck, dealer, totals, log)
        deals += 1
        plays += n
        if winner is not None:                      # a new match
            totals = [0, 0, 0]
            dealer = int(rng.random() * 3)
            if record:
                log = []
        else:
            dealer = (dealer + 1) % 3               # [D2]
        if time.process_time() >= end:
            break
    return deals, plays, time.process_time() - start


# ---------------------------------------------------------------------- cross-check
def crosscheck(n_matches: int, seed: int = 0) -> int:
    """Drive this code and the engine with the same deals and decisions; count mismatches.

    The engine makes random decisions; this code replays each one and checks that the
    engine's legal set equals its own at every step, then compares entries and winners.
    """
    try:  # an installed rulekit wins; else run from the checkout
        import rulekit.variants  # noqa: F401
    except ImportError:
        sys.path.insert(0, __file__.rsplit("/", 2)[0])
    from rulekit.variant import load_variant
    from rulekit.engine import State

    v = load_variant("fivehundred")
    deck = v.deck
    as_tuple = {c: JOKER if deck.is_joker(c) else (deck.rank_of(c), deck.suit_of(c)) for c in range(deck.size)}
    rng = random.Random(seed)
    bad = 0

    class Replay(Game):
        """Takes the engine's decisions, checking each against the local legal set."""

        def __init__(self):
            super().__init__(None)
            self.queue = []

        def pick(self, options):
            kind, engine_options, choice = self.queue.pop(0)
            if sorted(map(repr, options)) != sorted(map(repr, engine_options)):
                raise AssertionError(f"{kind}: local {options} vs engine {engine_options}")
            return choice

        def discard(self, hand):
            kind, _opts, choice = self.queue.pop(0)
            assert kind == "discard"
            return choice

    for m in range(n_matches):
        st = State(v, seed=m)
        totals = [0, 0, 0]
        while not st.is_over:
            h = st.hand
            order = [as_tuple[c] for c in h.deck_order]
            dealer = h.dealer
            rep = Replay()
            while st.hand is h and not st.is_over:
                legal = st.legal_actions()
                a = legal[int(rng.random() * len(legal))]
                kind = st.phase_kind
                if kind == "ladder_auction":
                    opts = [None if x.kind == "pass" else BIDS.index(_bid_tuple(x.bid)) for x in legal]
                    rep.queue.append((kind, opts, None if a.kind == "pass" else BIDS.index(_bid_tuple(a.bid))))
                elif kind == "widow_exchange":
                    rep.queue.append(("discard", None, [as_tuple[c] for c in range(deck.size) if a.cards >> c & 1]))
                elif kind == "name_trump":
                    rep.queue.append((kind, [x.suit for x in legal], a.suit))
                elif kind == "tricks":
                    cards = []
                    for x in legal:
                        if as_tuple[x.card] not in cards:
                            cards.append(as_tuple[x.card])
                    rep.queue.append((kind, cards, as_tuple[a.card]))
                    if a.suit:
                        names = [x.suit for x in legal if x.card == a.card]
                        rep.queue.append(("name", names, a.suit))
                st.apply(a)
            try:
                entries, winner, _n = play_deal(rep, order, dealer, totals)
            except AssertionError as e:
                bad += 1
                print(f"match {m} hand {h.number}: {e}")
                break
            if entries != h.entries and not h.void:
                bad += 1
                print(f"match {m} hand {h.number}: entries {entries} vs engine {h.entries}")
                break
            if winner is None and st.end_reason.startswith("stopped"):
                break   # the engine's cap on a match's deals (match.max_hands), which this code has not
            if (winner is not None) != st.is_over or (winner is not None and [winner] != st.winners):
                bad += 1
                print(f"match {m} hand {h.number}: winner {winner} vs engine {st.winners}")
                break
    return bad


def _bid_tuple(text: str):
    if text == "10T":
        return (10, "T")
    return (int(text[:-2]), "NT") if text.endswith("NT") else (int(text[:-1]), text[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", type=int, metavar="MATCHES", help="cross-check against the engine instead")
    ap.add_argument("--record", action="store_true", help="keep the match's record as the engine does")
    a = ap.parse_args(argv)
    if a.check:
        bad = crosscheck(a.check, a.seed)
        print(f"cross-check: {a.check} matches, {bad} mismatches")
        return 1 if bad else 0
    deals, plays, el = run(a.seconds, a.seed, a.record)
    print(f"hand-written Five Hundred: {deals / el:,.0f} deals/s, {plays / el:,.0f} plays/s "
          f"({deals} deals in {el:.2f} CPU s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
