"""The fast paths share their rules with the checked path.

Every shipped variant: the same seeded deals are played with the same random decisions
once through the checked public API (``legal_actions()`` then ``apply()``, which checks
each action) and once through the engine's fast loop
(:func:`rulekit.engine.playout.random_hand`: the kinds' choices as numbers and the tricks
phase's bitmask rules), or through the number API (``legal_choices()`` then
``apply_choice()``).  At every decision of the checked run the fast path's legal cards
(``legal_play_mask()``), and the number API's choices said as actions, must be exactly those
of ``legal_actions()``; the runs must then end with the same action history, the same sheet
and the same result.
"""
from __future__ import annotations

import random

import pytest

from rulekit.cards import bits
from rulekit.engine import State, scoring
from rulekit.engine.playout import random_hand
from rulekit.variant import builtin_ids, load_variant
from tests.helpers import assert_choices_play_as_actions, outcome

HANDS = 4  # per match and seed: a few deals each, so the file stays fast


def checked_hand(st: State, rng: random.Random) -> None:
    """One hand through ``legal_actions()``/``apply()``, drawing from ``rng`` exactly as
    ``random_hand`` does (a card first, then the suit a led top card names; any action when an
    earlier phase offers one beside the cards, such as robbing the turned card)."""
    h = st.hand
    while st.hand is h and not st.is_over:
        legal = list(st.legal_actions())
        kind = st.kind
        if kind is not None and kind.name == "tricks" and any(a.kind not in ("play", "announcement") for a in legal):
            assert sorted(a.card for a in legal if a.kind == "play") == list(bits(st.legal_play_mask()))
            a = legal[int(rng.random() * len(legal))]   # exchange, close, a meld, a claim, or a card
        elif kind is not None and kind.name == "tricks":
            cards = sorted({a.card for a in legal if a.kind == "play"})   # (announcements: the fast path makes none)
            assert cards == list(bits(st.legal_play_mask())), (st.variant.id, h.number, len(h.tricks))
            c = cards[int(rng.random() * len(cards))]
            opts = [a for a in legal if a.card == c]
            a = opts[int(rng.random() * len(opts))] if opts[0].suit else opts[0]
        else:
            a = legal[int(rng.random() * len(legal))]
        st.apply(a)   # checks the action first: raises if the rules refuse it


@pytest.mark.parametrize("vid", builtin_ids())
def test_fast_and_checked_paths_play_the_same_deals_alike(vid):
    """For seeded deals of every shipped variant, the fast loop and the checked API
    see the same legal cards and produce the same history, sheet and result."""
    v = load_variant(vid)
    for seed in range(3):
        checked, fast = State(v, seed=seed), State(v, seed=seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        for _ in range(HANDS):
            if checked.is_over:
                break
            checked_hand(checked, r1)
            random_hand(fast, r2)
            assert outcome(fast) == outcome(checked), (vid, seed, checked.hands_played)
        assert checked.hands_played >= 1


@pytest.mark.parametrize("vid", builtin_ids())
def test_choices_as_numbers_play_as_the_checked_actions(vid):
    """For seeded deals of every shipped variant, the number API (``legal_choices()``,
    ``apply_choice()``) lists at every decision the checked ``legal_actions()`` in the same
    order (``choice_action`` gives their texts, ``choice_of`` gives the choices back), and
    playing the same k-th choice as the k-th action gives the same history, sheet and result."""
    assert_choices_play_as_actions(load_variant(vid), seeds=range(3), hands=HANDS)


@pytest.mark.parametrize("vid", builtin_ids())
def test_remembered_scores_equal_a_fresh_evaluation(vid, monkeypatch):
    """A hand scored from the per-variant memo (``score_played``; with
    ``scoring.by: side`` keyed by sides, with the tallies' counts) gets the entries, parts and
    environments a fresh evaluation of the formulas gives (but for the vulnerability and the
    game score when no formula of the variant reads them: the key leaves them out)."""
    import rulekit.engine.state as state_mod
    from rulekit.engine import scoring

    checked = []

    def score_and_compare(variant, hand, extra):
        envs, entries, void = scoring.score_played(variant, hand, extra)
        parts = hand.parts
        fresh_envs = scoring.player_envs(variant, hand, extra=extra)
        fresh, fresh_void = scoring.score_hand(variant, hand, fresh_envs)
        assert (entries, void, parts) == (fresh, fresh_void, hand.parts), (variant.id, hand.number)
        vul, gs, tot, num, dealer = scoring._reads_match_progress(variant)
        unread = {"vulnerable"} if not vul else set()   # shared by outcomes that differ only there
        unread |= {"game_score"} if not gs else set()
        unread |= ({"total"} if not tot else set()) | ({"deal_number"} if not num else set())
        unread |= {"dealer", "is_dealer"} if not dealer else set()
        assert ([{k: x for k, x in e.vars.items() if k not in unread} for e in envs]
                == [{k: x for k, x in e.vars.items() if k not in unread} for e in fresh_envs]), (variant.id, hand.number)
        checked.append(hand.number)
        return envs, entries, void

    monkeypatch.setattr(state_mod, "score_played", score_and_compare)
    v = load_variant(vid)
    for seed in (0, 1, 0, 1):   # the same deals twice: the second time from the memo
        st, rng = State(v, seed=seed), random.Random(seed)
        for _ in range(HANDS):
            if st.is_over:
                break
            random_hand(st, rng)
    assert checked


def test_remembered_side_score_serves_the_partner_seat():
    """With ``scoring.by: side`` the memo's key holds sides, not seats: the same
    hand with every seat swapped with its partner's (bridge: declarer N becomes S) is served
    from the memo and equals a fresh evaluation."""
    from rulekit.engine import scoring
    from rulekit.engine.hand import Hand

    v = load_variant("bridge")
    st, rng = State(v, seed=4), random.Random(4)
    while not any(h.contract is not None for h in st.hand_log):
        random_hand(st, rng)
    h = next(h for h in st.hand_log if h.contract is not None)
    extra = {"vulnerable": [False, False], "game_score": [0, 0]}
    first, _void = scoring.score_played(v, h, extra)[1:]
    p = [st.partner_of(s) for s in range(4)]
    swapped = Hand(h.number, p[h.dealer], 4)
    swapped.contract, swapped.trump, swapped.doubled = h.contract, h.trump, h.doubled
    swapped.declarer = p[h.declarer]
    swapped.trick_winners = [p[w] for w in h.trick_winners]
    swapped.tricks = [(p[le], [(p[s], c) for s, c in plays], p[w], n) for le, plays, w, n in h.tricks]
    for s in range(4):
        swapped.won[p[s]], swapped.won_cards[p[s]], swapped.dealt[p[s]] = h.won[s], h.won_cards[s], h.dealt[s]
    calls = []
    real = scoring.player_envs
    scoring.player_envs = lambda *a, **k: calls.append(1) or real(*a, **k)
    try:
        envs, entries, void = scoring.score_played(v, swapped, extra)
    finally:
        scoring.player_envs = real
    assert calls == []   # served from the memo
    fresh_envs = scoring.player_envs(v, swapped, extra=extra)
    assert entries == first == scoring.score_hand(v, swapped, fresh_envs)[0]
    assert [e.vars for e in envs] == [e.vars for e in fresh_envs]


def test_contract_only_phase_variables_keep_the_score_cache():
    """Phase variables fixed by the contract's text (``PhaseKind.values_from_contract``; the ladder
    auction's ``null``, ``open_game``, ``bid_value``) keep the score cache: Five Hundred hands are
    remembered, not rescored each time."""
    v = load_variant("fivehundred")
    v.cache.pop(scoring.MEMO, None)
    s = State(v, seed=3)
    rng = random.Random(3)
    for _ in range(20):
        random_hand(s, rng)
    memo = v.cache[scoring.MEMO]
    assert memo.outcomes
    assert not memo.bypass


def test_score_cache_turns_itself_off_where_outcomes_rarely_repeat(monkeypatch):
    """A variant whose hands repeat too few outcomes in the score cache's trial stops using the
    cache (here a trial of 12 Hearts hands that asks every one to be found); the scores are
    the same either way."""
    def rows(trial: int, hits: int):
        monkeypatch.setattr(scoring, "MEMO_TRIAL", trial)
        monkeypatch.setattr(scoring, "MEMO_HITS", hits)
        v = load_variant("hearts")
        v.cache.pop(scoring.MEMO, None)
        s, rng = State(v, seed=5), random.Random(5)
        for _ in range(10):
            random_hand(s, rng)
        return [r.as_dict() for r in s.sheet.rows], v.cache[scoring.MEMO]

    off, memo = rows(8, 1)   # (every hand of the trial must be found)
    assert memo.off and not memo.outcomes and memo.looked == 8
    on, memo = rows(10 ** 9, 1)
    assert not memo.off and memo.outcomes
    assert off == on


def test_card_points_of_a_mask_are_the_sum_of_its_cards():
    """``mask_points`` (each point value times its cards in the mask) adds up the points of
    exactly the cards in the mask, for decks of any size and tables of many values, and for the
    points table of every context of every shipped variant that counts card points."""
    r = random.Random(9)
    tables = [tuple(r.randint(-3, 25) for _ in range(n)) for n in (1, 7, 8, 9, 24, 33, 52, 78, 104)]
    for vid in builtin_ids():
        v = load_variant(vid)
        if v.has_card_points:
            tables += [v.points_table(ctx) for ctx in [*v.contexts.values(), *v.low_contexts.values()]]
    for pts in tables:
        n = len(pts)
        for _ in range(50):
            m = r.getrandbits(n)
            assert scoring.mask_points(pts, m) == sum(pts[c] for c in range(n) if m >> c & 1)
        assert scoring.mask_points(pts, 0) == 0
        assert scoring.mask_points(pts, (1 << n) - 1) == sum(pts)


@pytest.mark.parametrize("vid", builtin_ids())
def test_score_cache_keys_on_every_match_progress_variable_a_formula_reads(vid, monkeypatch):
    """The score cache leaves the vulnerability, the game score and the match so far (totals,
    deal number, dealer) out of its key only when no formula reads them: its walk of the
    compiled variant finds the names of every formula the compiler built (``let`` formulas
    included)."""
    from rulekit.engine.scoring import _reads_match_progress, names_read
    from rulekit.variant import compiler

    compiled = []
    dsl = compiler._Compiler.dsl

    def spy(self, path, fn, *args, **kw):
        out = dsl(self, path, fn, *args, **kw)
        compiled.append(out)
        return out

    monkeypatch.setattr(compiler._Compiler, "dsl", spy)
    load_variant.cache_clear() if hasattr(load_variant, "cache_clear") else None
    v = load_variant(vid)
    names = set().union(*(f.names for f in compiled if hasattr(f, "names")))
    assert compiled
    assert names_read(v) <= names
    assert _reads_match_progress(v) == (bool(names & {"vulnerable", "declarer_vulnerable"}), "game_score" in names,
                                        "total" in names, "deal_number" in names, bool(names & {"dealer", "is_dealer"}))


@pytest.mark.parametrize("vid", ["fivehundred", "bridge", "euchre", "hearts"])
def test_fast_loop_takes_over_a_hand_in_the_middle(vid):
    """``random_hand`` called after some tricks were played through ``apply()`` (a
    bot's world, a resumed game) plays the rest as the checked path does: the tricks played
    before are kept, in order, with the ones after."""
    v = load_variant(vid)
    for seed in range(4):
        checked, fast = State(v, seed=seed), State(v, seed=seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        h = fast.hand
        while fast.hand is h and (fast.kind is None or fast.kind.name != "tricks" or len(h.tricks) < 2 or h.trick):
            legal = list(fast.legal_actions())
            fast.apply(legal[int(r2.random() * len(legal))])
        # replay the same actions on the checked state, then finish both hands their own way
        for seat, text in fast.history:
            checked.apply(text)
        r1.setstate(r2.getstate())
        checked_hand(checked, r1)
        random_hand(fast, r2)
        assert outcome(fast) == outcome(checked), (vid, seed)
        assert len(fast.hand_log[0].tricks) == len(checked.hand_log[0].tricks)


def test_a_long_match_keeps_its_choices_in_arrays_and_no_hand():
    """A match keeps each finished deal as its choices in the record's arrays (a few bytes a
    decision), not as hands, actions or texts; its history and hands are rebuilt from them."""
    v = load_variant("fivehundred")
    st, rng = State(v, seed=5), random.Random(5)
    for _ in range(60):
        if st.is_over:
            break
        random_hand(st, rng)
    deals = len(st.record.ends)
    assert deals == st.hands_played >= 2
    assert st._kept is None and st._replica is None   # nothing but the arrays so far
    assert st.record.nbytes() < 200 * deals
    discards = [a for _s, a in st.history if a.startswith("discard")]
    assert discards and len(st.history) == len(st.record.codes) + len(st._open_choices())
    assert [h.number for h in st.hand_log] == list(range(deals))


@pytest.mark.parametrize("vid", ["hearts", "spades", "king"])
def test_lead_rules_take_the_plain_loop(vid, monkeypatch):
    """A suit not led until broken (or never), and the first trick's lead card and refused
    cards, are applied by the plain loop's masks: such hands take it, and the seeded deals of
    test_fast_and_checked_paths_play_the_same_deals_alike prove it plays them as ``apply()``."""
    from rulekit.engine import playout
    calls = []
    real = playout._plain_tricks
    monkeypatch.setattr(playout, "_plain_tricks", lambda *a, **k: calls.append(1) or real(*a, **k))
    st, rng = State(load_variant(vid), seed=1), random.Random(1)
    for _ in range(5):
        random_hand(st, rng)
    assert len(calls) >= 2
