"""One source of truth: for every installed variant, hands played by the engine and entered
into the scorepad as the facts a player writes down give the identical sheet (entries, totals,
notes, parts, game lines, game points, soups, refe marks) and winner; and facts no legal play
gives, made by changing those facts, are refused with a reason.  Parametrised over the
installed variants: a variant added later is covered without a new test."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.engine import State
from rulekit.engine.scoring import hand_facts, player_envs
from rulekit.sheets.scorepad import DOUBLES, FactError, ScorePad
from rulekit.variant import builtin_ids, load_variant

#: a made-up compendium whose rounds use every phase kind
EVERY_KIND = str(Path(__file__).parent / "data" / "every-kind.yaml")
#: made-up games of the pack families (suitless cards of several copies, a double pack)
PACKS = [str(Path(__file__).parent / "data" / f) for f in ("wizardish.yaml", "pinochleish.yaml", "doublemelds.yaml")]
#: made-up games of the partnerships by a card (a called ace, a called king, a named card, a party)
PARTNER_GAMES = sorted(str(p) for p in (Path(__file__).parent / "data" / "partners").glob("*.yaml"))
#: made-up games of bids of a value with the game named afterwards
VALUE_GAMES = sorted(str(p) for p in (Path(__file__).parent / "data" / "values").glob("*.yaml"))
VARIANTS = list(builtin_ids()) + [EVERY_KIND] + PARTNER_GAMES + VALUE_GAMES + PACKS


def test_the_made_up_variant_uses_every_phase_kind():
    """The compendium's rounds use every registered phase kind."""
    from rulekit.engine.phases import REGISTRY
    v = load_variant(EVERY_KIND)
    assert set(REGISTRY) == {p.kind for r in v.rounds for p in r.phases}


def played(vid: str, seed: int, hands: int) -> State:
    v = load_variant(vid)
    s = State(v, seed=seed, max_hands=max(hands, len(v.rounds)))
    rng = random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    return s


def written(pad: ScorePad, v, h) -> tuple:
    """What a scorer types for the played hand ``h``: ``(facts, [(question, answer)])``, each
    answer read off the hand for the question the pad asks."""
    f = hand_facts(v, h)
    envs = player_envs(v, h)
    facts: dict = {}
    out = []
    while (q := pad.next_question(facts)) is not None:
        if q.name == "contract":
            text = "pass" if f["contract"] is None else f["contract"]
        elif q.name == "declarer":
            text = pad.names[f["declarer"]]
        elif q.name == "first_suit":
            text = f["first_suit"]
        elif q.name == "partner":
            text = pad.names[f["partner"]] if f["partner"] >= 0 else "none"
        elif q.name == "trump":
            text = f["trump"]
        elif q.name == "doubled":
            text = DOUBLES[f["doubled"]]
        elif q.name == "matadors":
            text = f["matadors"]
        elif q.name.startswith("phase:"):
            text = f["phase"][q.name]
        elif q.name.startswith("value:"):
            text = " ".join(str(e.vars[q.name[6:]]) for e in envs)
        elif q.name in ("tricks", "points"):
            text = " ".join(str(x) for x in f[q.name])
        elif q.name.count(":") == 1:
            name = q.name.split(":")[1]
            text = next((pad.columns[c] for c, t in enumerate(f["tallies"]) if t[name]), "-")
        else:
            _, name, col = q.name.split(":")
            text = str(f["tallies"][int(col)][name])
        pad.answer(q, text, facts)
        out.append((q, text))
    return facts, out


def _rows(sheet) -> list:
    return [{k: x for k, x in r.as_dict().items() if k != "trick_winners"} for r in sheet.rows]


def _winners(s: State) -> list:
    v = s.match_variant
    return sorted({v.side_of[x] for x in s.winners}) if v.scoring.by_side else sorted(s.winners)


@pytest.mark.parametrize("vid", VARIANTS)
def test_played_hands_entered_give_the_played_sheet(vid):
    """Random matches of ``vid`` typed into the pad hand by hand give the played sheet row for
    row (entries, totals, notes, parts, lines, game points, soups, marks) and the same winners."""
    for seed in range(4):
        s = played(vid, seed, 6)
        pad = ScorePad(s.match_variant, first_dealer=s.first_dealer)
        for h in s.hand_log:
            pad.add(written(pad, s.rules_of(h.number), h)[0])
        if s.end_reason.startswith("stopped"):
            pad.stop()
        assert _rows(pad.sheet) == _rows(s.sheet)
        assert pad.sheet.game_points() == s.sheet.game_points()
        assert sorted(pad.winners) == _winners(s)
        assert pad.markers.marks == s.markers.marks


# ------------------------------------------------------------------ mutated facts
def _numbers(text: str) -> list:
    return [int(w) for w in text.split()]


def mutations(pad: ScorePad, answers: list, rng: random.Random, facts: dict) -> list:
    """Changes of one answer of a hand that no legal play gives: ``[(index, new answer, why)]``.
    Each family is impossible by the variant's own numbers: a column's tricks past the hand's,
    tricks that do not add up where play cannot stop early, more than the pack holds of a
    tally, a pile or layout result past its bounds, a seat or word that is no answer (``facts``:
    the hand's, which say whether its tricks must add up: no claim or end condition stopped it)."""
    out = []
    size = pad.hand_size()
    cols = len(pad.columns)
    for i, (q, text) in enumerate(answers):
        if q.name == "tricks":
            t = _numbers(text)
            c = rng.randrange(cols)
            more = list(t)
            more[c] += size - sum(t) + rng.randint(1, 3)
            out.append((i, " ".join(map(str, more)), "more tricks in all than the hand has"))
            out.append((i, " ".join(str(x) for x in [size + rng.randint(1, 5)] + [0] * (cols - 1)),
                        "more tricks than a hand"))
            neg = list(t)
            neg[c] = -rng.randint(1, 3)
            out.append((i, " ".join(map(str, neg)), "negative tricks"))
            if pad.trick_total(facts)[1]:
                less = list(t)
                c = next((k for k in range(cols) if less[k]), 0)
                less[c] -= 1
                out.append((i, " ".join(map(str, less)), "tricks short where play cannot stop early"))
        elif q.name == "points":
            p = _numbers(text)
            p[rng.randrange(len(p))] += rng.randint(1000, 5000)
            out.append((i, " ".join(map(str, p)), "more card points than the pack"))
        elif q.name.startswith("tally:") and q.name.count(":") == 2:
            lo_hi = q.help.split()
            hi = int(lo_hi[-1])
            out.append((i, str(hi + rng.randint(1, 4)), "more than the pack or the column holds"))
            out.append((i, str(-rng.randint(1, 3)), "a negative count"))
        elif q.name.startswith("tally:"):
            out.append((i, f"P{rng.randint(9, 99)}", "no such player"))
        elif q.name.startswith("value:"):
            n = _numbers(text)
            n[rng.randrange(len(n))] += rng.choice([-1, 1]) * rng.randint(60, 200)
            out.append((i, " ".join(map(str, n)), "a result past the phase's bounds"))
        elif q.name == "contract":
            out.append((i, f"{rng.randint(20, 99)}Z", "no such contract"))
        elif q.name in ("declarer", "partner"):
            out.append((i, f"P{rng.randint(9, 99)}", "no such seat"))
        elif q.name == "trump":
            out.append((i, rng.choice(["X", "Q", "none", "9"]), "no such trump"))
        elif q.name == "doubled":
            out.append((i, "XXX", "no such doubling"))
        elif q.name.startswith("phase:"):
            out.append((i, "hook " + text, "no answer of the phase"))
    return out


def refused_mutations(vid: str, wanted: int, first_seed: int = 0) -> tuple:
    """``(tried, refused, reasons)`` over random matches of ``vid`` from seed ``first_seed`` on,
    until ``wanted`` mutated hands are tried: each mutated answer given in place of the real one,
    then the rest."""
    tried = refused = 0
    reasons: set = set()
    seed = first_seed
    rng = random.Random(f"{vid}:{first_seed}" if first_seed else vid)
    while tried < wanted:
        s = played(vid, seed, 6)
        seed += 1
        pad = ScorePad(s.match_variant, first_dealer=s.first_dealer)
        for h in s.hand_log:
            facts, answers = written(pad, s.rules_of(h.number), h)
            for i, bad, _why in mutations(pad, answers, rng, facts):
                trial: dict = {}
                tried += 1
                try:
                    for k, (q, text) in enumerate(answers):
                        q = pad.next_question(trial)
                        if q is None:
                            break
                        pad.answer(q, bad if k == i else text, trial)
                except FactError as e:
                    refused += 1
                    reasons.add(" ".join(str(e).split()[:2]))
                    assert str(e).strip()
                else:
                    raise AssertionError(f"{vid} hand {h.number + 1}: {answers[i][0].prompt} {bad!r} "
                                         f"({_why}) was not refused")
            pad.add(facts)
        if seed > first_seed + 400:
            break
    return tried, refused, reasons


@pytest.mark.parametrize("vid", VARIANTS)
def test_mutated_facts_are_refused_with_a_reason(vid):
    """Facts no legal play gives (a sample of mutations of played hands' facts) are all refused,
    each with its reason."""
    tried, refused, _ = refused_mutations(vid, 120)
    assert tried >= 120 and refused == tried


@pytest.mark.slow
@pytest.mark.parametrize("vid", VARIANTS)
def test_380_more_mutated_facts_per_variant_are_refused(vid, capsys):
    """380 mutated facts per variant besides the default sample's 120, from other matches (seeds
    from 1000 on), so 500 in all: every one refused with a reason (the count is printed)."""
    tried, refused, reasons = refused_mutations(vid, 380, first_seed=1000)
    with capsys.disabled():
        print(f"\n{Path(vid).stem}: {refused} of {tried} mutated facts refused, each with its reason "
              f"({', '.join(sorted(reasons))})")
    assert tried >= 380 and refused == tried
