"""What a legal play allows of a hand's facts, derived from the compiled variant (the scorepad's
checks; :class:`~rulekit.sheets.scorepad.ScorePad` calls these after every answer).

* **Tallies** (``scoring.tallies``): a column counts at most the tally's cards (``most``: the
  pack's count of them; of the trump suit for ``suit: trump``), at most the cards of one hand
  (``in: hand``) or of the side's hands (``side_hands``), at most what its won tricks hold
  (``in: tricks``, once its tricks are known); the columns together count each card once, so
  at most ``most`` (a single card is taken by one column only).  When every card of the pack
  ends in a won trick (all dealt, none put out of play, play run to the end) the columns
  together count exactly ``most`` (King's eight hearts); a tally of the side's hands counts
  exactly ``most`` when every card is dealt.
* **Tricks**: a hand's tricks add up to its tricks, unless play stops early by an ``end_if``
  condition of the trick play; then play stops after the first trick at which the condition
  holds, so the tricks must be reachable one trick at a time with the condition false after
  every trick but the last, and true after the last when they add up to less (a betl or a
  null ends at the declarer's first trick, [T3]).
"""
from __future__ import annotations

from functools import lru_cache

from rulekit.engine.phases import REGISTRY


def tally_most(variant, tally, trump: str) -> int:
    """Cards of the pack that ``tally`` counts in this hand (a ``count: tricks`` tally: the tricks
    it can count); 0 for a trump tally at no trump."""
    if tally.mask == -1:   # the ranks of the trump suit
        if trump not in variant.deck.suits:
            return 0
        deck = variant.deck
        return min(tally.most, sum(deck.copies_of(deck.index[r + trump]).bit_count() for r in tally.ranks
                                   if r + trump in deck.index))
    return tally.most


def column_most(pad, tally, col: int, facts: dict, trump: str) -> int:
    """The most ``tally`` can count for column ``col`` of ``pad`` given ``facts``."""
    v = pad.rules
    most = tally_most(v, tally, trump)
    seats = len(v.sides[col]) if v.scoring.by_side else 1
    size = pad.hand_size()
    tricks = facts.get("tricks")
    if tally.where == "hand":
        return min(most, size)
    if tally.where == "side_hands":
        return min(most, size * seats)
    players = v.players
    if tally.count == "tricks":
        return min(most, tricks[col]) if tricks else most
    # the cards aside go to a player (``widow_to: last_trick``, ``declarer``...; ``discards_to``)
    extra = v.deck.size - size * players if any(any(REGISTRY[p.kind].gives_aside(p)) for p in v.phases) else 0
    if tally.tricks:
        most = min(most, len(tally.tricks) * players + extra)
    return min(most, tricks[col] * players + extra) if tricks else most


def exact_total(pad, tally, facts: dict, trump: str) -> int | None:
    """What the columns together must count for ``tally`` (``None``: only at most ``most``)."""
    v = pad.rules
    if not every_card_dealt(pad, facts):
        return None
    most = tally_most(v, tally, trump)
    if tally.pick:
        return None   # the highest (lowest) in play: the pad's "who" question says whether one must be
    if tally.where == "side_hands":
        return most
    if tally.where != "tricks" or not played_out(pad, facts):
        return None
    if tally.count == "tricks":
        every = tally.mask != -1 and tally.mask.bit_count() == v.deck.size   # every card: each trick counts
        return (len(tally.tricks) or pad.hand_size()) if every else None
    return None if tally.tricks else most


def every_card_dealt(pad, facts: dict) -> bool:
    """Every card of the pack is in the players' hands, and no phase puts one out of play."""
    v = pad.rules
    if pad.hand_size() * v.players < v.deck.size or pad._aside():
        return False
    contract = pad._contract(facts)
    return not any(REGISTRY[p.kind].pad_out_of_play(p, v, pad._phase_facts(facts, p), contract) for p in v.phases)


def played_out(pad, facts: dict) -> bool:
    """The trick play surely ran to its last trick: the tricks add up to the hand's; without
    tricks asked, no end condition can have held (tallies not yet known may make it hold)."""
    tricks = facts.get("tricks")
    if pad._unplayed(facts):
        return False
    if tricks is not None:
        return sum(tricks) == pad.trick_total(facts)[0]
    return not pad.end_if or True not in end_values(pad, facts)


def end_values(pad, facts: dict, upto: list | None = None) -> set:
    """The values the end conditions (``end_if``, any column) can take for ``facts`` with the
    tricks ``upto`` (default the facts' own): tallies not known yet, or counted only part way
    (``upto`` given: after an earlier trick), are tried at none and at their most."""
    v = pad.rules
    cols = len(pad.columns)
    trump = pad._trump(facts)
    base = dict(facts)
    if upto is not None:
        base["tricks"] = list(upto)
    tries: list[dict[str, int]] = [{}, {}]
    for t in v.scoring.tallies:
        for c in range(cols):
            key = f"tally:{t.name}:{c}"
            known = facts.get(key)
            tries[0][key] = 0 if upto is not None or known is None else known
            tries[1][key] = known if known is not None else column_most(pad, t, c, base, trump)
    out = set()
    for tr in tries:
        envs = pad._envs({**base, **tr})
        out.add(any(bool(cond(e)) for cond in pad.end_if for e in envs))
    return out


def tricks_problem(pad, facts: dict, tricks: list) -> str:
    """Why ``tricks`` (per column) cannot end the hand of ``facts`` (``""``: they can): see the
    module docstring."""
    n = pad.hand_size()
    total = sum(tricks)
    if any(x > n for x in tricks):
        return f"tricks: {max(tricks)} for one column, but a hand has {n}"
    if not pad.end_if:
        n, exact = pad.trick_total(facts)
        if total == n or total < n and not exact:
            return ""
        return (f"tricks add up to {total}, but this hand has {n}" if exact else
                f"tricks add up to {total}, but this hand has at most {n}")
    if total == 0:
        return f"tricks add up to 0, but play ends after a trick at the earliest (a hand has {n})"

    @lru_cache(maxsize=None)
    def reach(t: tuple) -> bool:   # play can get here with the condition false after every trick
        if sum(t) == 0:
            return True
        if False not in end_values(pad, facts, list(t)):
            return False
        return any(t[c] and reach(t[:c] + (t[c] - 1,) + t[c + 1:]) for c in range(len(t)))

    t = tuple(tricks)
    before = any(t[c] and reach(t[:c] + (t[c] - 1,) + t[c + 1:]) for c in range(len(t)))
    words = pad.end_words()
    if total < n:
        if True not in end_values(pad, dict(facts, tricks=list(t))):
            return (f"tricks add up to {total}, but a hand has {n}, and play stops early only when "
                    f"{words}, which these tricks do not give")
        if not before:
            return f"tricks: play would have stopped before these tricks ({words} after an earlier trick)"
        return ""
    if not before:
        return (f"tricks: play stops at once when {words}, so it would have stopped before all {n} "
                f"tricks were played with these")
    return ""
