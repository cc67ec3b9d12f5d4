"""The scorepad's questions for trick play from a stock, with melds or a claim (``rulekit score``).

A hand played at a real table is scored from what the players write down; for the variables of
the ``stock:``, ``melds:`` and ``claim:`` blocks (:mod:`~rulekit.engine.phases.turn_actions`)
the pad asks only those the variant's formulas read: who closed the stock and each column's
tricks, card points and melds at that moment; the meld points each column declared (they count
by the block's rule, from the tricks); who claimed (also at the end of play) and whether the
claim was made.  Every answer is checked against the rules: counts within what a hand allows, a
claim's result against its condition once the points are known, and the tricks of the hand
adding up to what the close and the claim allow (:func:`tricks_total`).
"""
from __future__ import annotations

from rulekit.dsl import Env

#: fact -> the formula variables that make the pad ask it
_READS = {"closed": {"closed", "close_tricks", "close_points", "close_melds"},
          "close_tricks": {"close_tricks"}, "close_points": {"close_points"}, "close_melds": {"close_melds"},
          "exchanged": {"exchanged"}, "melds": {"melds", "close_melds"},
          "claimer": {"claimed", "claim_made", "played_out"}, "claim": {"claim_made"}}


def reads(variant) -> frozenset:
    """The variables the variant's scoring and match formulas read."""
    sc, m = variant.scoring, variant.match
    out: set = set()
    for f in [sc.each, sc.declarer, sc.defender, sc.no_contract, sc.void_if, sc.made, m.immediate_win,
              sc.against_declarer] + [x for p in sc.parts for x in (p.each, p.declarer, p.defender)]:
        if f is not None:
            out |= f.names
    return frozenset(out)


def _columns(variant, names: list) -> list:
    return list(variant.side_names) if variant.scoring.by_side else list(names)


def _col(variant, seat: int) -> int:
    return variant.side_of[seat] if variant.scoring.by_side else seat


def _wanted(spec, variant, fact: str) -> bool:
    have = {"closed": spec.stock is not None and spec.stock.close is not None,
            "exchanged": spec.stock is not None and spec.stock.exchange is not None,
            "melds": spec.melds is not None, "claimer": spec.claim is not None, "claim": spec.claim is not None}
    have.update(close_tricks=have["closed"], close_points=have["closed"],
                close_melds=have["closed"] and have["melds"])
    return have[fact] and bool(_READS[fact] & reads(variant))


def _names(fact: str, spec) -> list:
    if fact != "melds" or spec.melds is None:   # (a stock without melds: nothing to count)
        return []
    return ["melds_" + m.name for m in spec.melds.list]


def question(spec, variant, facts: dict, names: list) -> tuple | None:
    """The next fact to ask, ``(fact, prompt, help)``, or ``None``."""
    cols = _columns(variant, names)
    who = ", ".join(names)
    per = f"{len(cols)} numbers, one per column ({' '.join(cols)})"
    for fact in ("closed", "close_tricks", "close_points", "close_melds", "exchanged", "melds", "claimer", "claim"):
        if fact in facts or not _wanted(spec, variant, fact):
            continue
        if fact.startswith("close_") and facts.get("closed", -1) < 0:
            continue
        if fact == "claim" and facts.get("claimer", -1) < 0:
            continue
        if fact == "closed":
            return fact, "closed the stock", f"who closed it: one of {who}, or - for nobody"
        if fact == "close_tricks":
            return fact, "tricks at the close " + " ".join(cols), f"{per}: the tricks each had won when it was closed"
        if fact == "close_points":
            return fact, "card points at the close " + " ".join(cols), f"{per}: the card points each had then"
        if fact == "close_melds":
            return fact, "melds counted at the close " + " ".join(cols), f"{per}: the meld points that counted then"
        if fact == "exchanged":
            return fact, "exchanged the turned card", f"who did: one of {who}, or - for nobody"
        if fact == "melds":
            return fact, "meld points declared " + " ".join(cols), f"{per}: the points of the melds each declared"
        if fact == "claimer":
            return fact, "claimed", f"who claimed (or reached it when the cards ran out): one of {who}, or - for nobody"
        return fact, "the claim", "made or failed"
    for name in _names("melds", spec):
        if name in reads(variant) and name not in facts:
            return name, name.replace("_", " ") + " " + " ".join(cols), f"{per}: how many each declared"
    return None


def _seat(text: str, names: list, fact: str) -> int:
    """The seat named by ``text``, -1 for nobody."""
    t = text.strip()
    if t.lower() in ("-", "none", "nobody", "no one", "-1"):
        return -1
    for i, n in enumerate(names):
        if n.lower() == t.lower():
            return i
    if t.isdigit() and int(t) < len(names):   # (a seat number: how the pad stores the answer)
        return int(t)
    raise ValueError(f"{fact}: {t!r} is not a player (expected one of {', '.join(names)}, or - for nobody)")


def _numbers(text: str, fact: str, cols: list, lo: int, hi: int) -> list:
    words = text.replace(",", " ").split()
    if len(words) != len(cols) or not all(w.lstrip("-").isdigit() for w in words):
        raise ValueError(f"{fact}: expected {len(cols)} numbers, one per column ({' '.join(cols)})")
    nums = [int(w) for w in words]
    if not all(lo <= x <= hi for x in nums):
        raise ValueError(f"{fact}: each must be {lo} to {hi}")
    return nums


def meld_sums(spec) -> set:
    """Every total of meld points a player can declare in one hand (the trump suit any)."""
    ms = spec.melds
    out: set = set()
    suits = {s for m in ms.list for _c, s in m.combos if s} or {""}
    for trump in suits:
        sums = {0}
        for m in ms.list:
            for _mask, s in m.combos:
                if m.trump_only and s != trump:
                    continue
                p = m.value(s, trump)
                for _ in range(m.times):
                    sums |= {x + p for x in sums}
        out |= sums
    return out


def answer(spec, variant, fact: str, text: str, facts: dict, names: list) -> None:
    """Check and store one answer in ``facts[fact]`` (as typed: a name, ``-``, numbers).

    :raises ValueError: an answer no legal play gives, with what is expected."""
    cols = _columns(variant, names)
    size, points, meld_max = spec.bounds
    if fact in ("closed", "exchanged", "claimer"):
        facts[fact] = _seat(text, names, fact)
    elif fact == "claim":
        t = text.strip().lower()
        if t not in ("made", "failed"):
            raise ValueError(f"the claim: {text.strip()!r} is not made or failed (expected made or failed)")
        facts[fact] = t
    elif fact == "close_tricks":
        nums = _numbers(text, "tricks at the close", cols, 0, size)
        rounds = spec.later_cards
        if sum(nums) >= rounds:
            raise ValueError(f"tricks at the close: {sum(nums)} in all, but the stock is closed while it still "
                             f"holds cards: after at most {rounds - 1} tricks")
        facts[fact] = " ".join(map(str, nums))
    elif fact == "close_points":
        nums = _numbers(text, "card points at the close", cols, 0, points)
        tricks = [int(x) for x in facts.get("close_tricks", "").split()] or None
        if tricks and any(p and not t for p, t in zip(nums, tricks)):
            raise ValueError("card points at the close: a column that had won no trick had no card points")
        if sum(nums) > variant.points_total():
            raise ValueError(f"card points at the close: {sum(nums)} in all, but the pack has {variant.points_total()}")
        facts[fact] = " ".join(map(str, nums))
    elif fact in ("close_melds", "melds"):
        nums = _numbers(text, fact.replace("_", " "), cols, 0, meld_max)
        sums = meld_sums(spec)
        bad = [x for x in nums if x not in sums]
        if bad:
            shown = ", ".join(str(x) for x in sorted(sums)[:8]) + ("..." if len(sums) > 8 else "")
            raise ValueError(f"{fact.replace('_', ' ')}: {bad[0]} is no total of melds (expected one of {shown})")
        facts[fact] = " ".join(map(str, nums))
    elif fact.startswith("melds_"):
        entry = next(m for m in spec.melds.list if "melds_" + m.name == fact)
        facts[fact] = " ".join(map(str, _numbers(text, fact.replace("_", " "), cols, 0,
                                                  len(entry.combos) * entry.times)))
    else:
        raise ValueError(f"{fact} is not a fact of this phase")


def _ints(facts: dict, key: str, n: int) -> list:
    got = facts.get(key)
    return [int(x) for x in got.split()] if got else [0] * n


def tricks_total(spec, variant, facts: dict) -> tuple | None:
    """``(total, exact)``: the tricks of the hand add up to ``total``, exactly when nobody
    claimed (the cards ran out), else at most; after a close the players hold their dealt
    cards, so the total is the tricks before it plus those.  ``None``: the hand's own."""
    if spec.stock is None and spec.claim is None:
        return None
    n = variant.hand_size
    if spec.stock is not None and facts.get("closed", -1) >= 0:
        if "close_tricks" in facts:
            n = sum(_ints(facts, "close_tricks", 1)) + variant.hand_size - spec.later_cards
        else:
            return n, False
    exact = spec.claim is None or facts.get("claimer") == -1
    return n, exact


def values(spec, variant, facts: dict, won: list) -> list:
    """Per column, the variables of the blocks from the typed facts (``won``: tricks per seat).

    :raises ValueError: the facts contradict each other (figures at the close above the hand's,
        melds counted at the close above those declared, a claim's result against its condition)."""
    cols = _columns(variant, [f"P{i}" for i in range(variant.players)])
    k = len(cols)
    col_won = [0] * k
    for s, n in enumerate(won):
        col_won[_col(variant, s)] += n
    closer, claimer, exch = (_col(variant, s) if s >= 0 else -1
                             for s in (facts.get(f, -1) for f in ("closed", "claimer", "exchanged")))
    ct, cp, cm = (_ints(facts, x, k) for x in ("close_tricks", "close_points", "close_melds"))
    declared = _ints(facts, "melds", k)
    total = tricks_total(spec, variant, facts)
    tricks = facts.get("tricks")
    played = bool(total is not None and tricks is not None and sum(tricks) == total[0])
    out = []
    for c in range(k):
        x: dict = {}
        if spec.stock is not None:
            if tricks is not None and ct[c] > tricks[c]:
                raise ValueError(f"tricks at the close: {ct[c]} for column {c + 1}, more than the {tricks[c]} it "
                                 "took in the whole hand")
            x.update(closed=int(closer == c), exchanged=int(exch == c), close_tricks=ct[c], close_points=cp[c],
                     played_out=int(played))
            if spec.melds is not None:
                x["close_melds"] = cm[c]
        if spec.melds is not None:
            if cm[c] > declared[c] and "melds" in facts:
                raise ValueError(f"meld points declared: {declared[c]} for column {c + 1}, fewer than the {cm[c]} "
                                 "counted at the close")
            x["melds"] = declared[c] if not spec.melds.after_trick or col_won[c] else 0
            for m in spec.melds.list:
                x["melds_" + m.name] = _ints(facts, "melds_" + m.name, k)[c]
        if spec.claim is not None:
            x.update(claimed=int(claimer == c), claim_made=int(claimer == c and facts.get("claim") == "made"),
                     played_out=int(played))
        out.append(x)
    _check_claim(spec, variant, facts, out, claimer, cols)
    return out


def _check_claim(spec, variant, facts: dict, per_col: list, claimer: int, cols: list) -> None:
    """Refuse a claim's result that its condition contradicts, once the points and tricks are
    known.  A tally the condition reads may not have been asked (the pad leaves out what does not
    change the entries): each is tried at none and at its most, and the result is refused only
    when no such choice gives it."""
    cond = spec.claim.made_if if spec.claim is not None else None
    if cond is None or claimer < 0 or "claim" not in facts or "tricks" not in facts or facts.get("points") is None:
        return
    tallies = [t for t in variant.scoring.tallies if t.name in cond.names]
    base = []
    for c in range(len(cols)):
        x = dict(per_col[c])
        x.update(tricks=facts["tricks"][c], points=facts["points"][c], seat=c, players=variant.players,
                 total_tricks=variant.hand_size)
        base.append(x)
    if not all(cond.names - {t.name for t in tallies} <= set(x) for x in base):
        return
    wanted = facts["claim"] == "made"
    for k in range(1 << (len(tallies) * len(cols))):   # (each tally of each column at none or its most)
        envs = []
        for c, x in enumerate(base):
            vars_ = dict(x)
            for i, t in enumerate(tallies):
                vars_[t.name] = t.most if k >> (i * len(cols) + c) & 1 else 0
            envs.append(Env(vars_))
        for e in envs:
            e.everyone = envs
        if bool(cond(envs[claimer])) == wanted:
            return
    raise ValueError(f"the claim: by the rule ({cond.text}) the claim was {'failed' if wanted else 'made'}, "
                     f"not {facts['claim']}")


def typed(spec, variant, hand, names: list) -> dict:
    """The answers a scorer types for a played ``hand`` (the inverse of :func:`answer`)."""
    d = hand.phase_state.get(spec.kind)
    if d is None:
        return {}
    cols = _columns(variant, names)
    k = len(cols)
    out: dict = {}
    name = lambda s: names[s] if s >= 0 else "-"   # noqa: E731
    if _wanted(spec, variant, "closed"):
        out["closed"] = name(d.closed_by)
        if d.closed_by >= 0:
            at = d.at_close or [(0, 0, 0)] * variant.players
            for i, fact in enumerate(("close_tricks", "close_points", "close_melds")):
                if _wanted(spec, variant, fact):
                    per = [0] * k
                    for s in range(variant.players):
                        per[_col(variant, s)] += at[s][i]
                    out[fact] = " ".join(map(str, per))
    if _wanted(spec, variant, "exchanged"):
        out["exchanged"] = name(d.exchanged_by)
    if spec.melds is not None:
        per = [0] * k
        counts = {m.name: [0] * k for m in spec.melds.list}
        for s, i, _m, p in d.melds:
            per[_col(variant, s)] += p
            counts[spec.melds.list[i].name][_col(variant, s)] += 1
        if _wanted(spec, variant, "melds"):
            out["melds"] = " ".join(map(str, per))
        for m in spec.melds.list:
            if "melds_" + m.name in reads(variant):
                out["melds_" + m.name] = " ".join(map(str, counts[m.name]))
    if _wanted(spec, variant, "claimer"):
        out["claimer"] = name(d.claimer)
        if d.claimer >= 0 and _wanted(spec, variant, "claim"):
            out["claim"] = "made" if d.claim_made else "failed"
    return out
