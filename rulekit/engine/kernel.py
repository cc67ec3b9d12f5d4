"""The optional compiled trick kernel (``pip install rulekit[fast]``: numba and numpy).

Two loops of the engine run many times over the same tables: the random playout's plain trick
loop (:func:`rulekit.engine.playout.random_hand`) and the SensibleBot's one-loop playout
(``rulekit.bots.sensible._plain_tricks``).  Both apply the common trick rules
(:func:`rulekit.engine.phases.tricks.plain_follow`: follow the led group, else ``must_trump``'s
trumps, else any card; the trick to the highest win key); the random one also the lead and
first-trick rules, from the tables of ``tricks.lead_allowed`` / ``first_allowed``
(:func:`rules_row`: a suit not led until broken, the first trick's lead card and refused
cards, as in Hearts and Spades).  When numba is installed, each runs
as one compiled function of :mod:`rulekit.engine.kernel_jit` on the hand's
:class:`~rulekit.variant.model.Context` tables packed into numpy arrays (:func:`pack`, once
per variant and context, kept in :meth:`Variant.cached <rulekit.variant.model.Variant.cached>`).
The bot's playouts come in batches (:func:`greedy_batch`): every candidate card of every world
sampled for one decision, in one call.
The pure-Python loops stay the reference: the kernel is used only where it gives the same
result, decision by decision (tests/test_kernel.py proves it for every shipped variant).

- When it plays: ``RULEKIT_KERNEL=1`` in the environment (or :func:`use` ``(True)``): from the
  first hand; ``RULEKIT_KERNEL=0`` (or ``use(False)``): never; unset: once the Python loops
  have played :data:`WARM` hands or playouts in the process, so that a short game or a test
  never pays for loading numba (about a second, more than it saves there), and a long
  simulation, ``compare`` run or bot match does after its first second or so.  Nothing imports
  numba before that, and an import that fails leaves the pure-Python loops in charge, as does a
  kernel that fails its first run on a made-up hand (with a warning).
- Randomness: the random loop draws from the caller's :class:`random.Random` itself
  (:func:`generator`: its MT19937 state in place, advanced as ``random()`` advances it), in the
  order the Python loop draws, so the same seed gives the same deal and leaves the generator in
  the same state; a generator laid out otherwise (:func:`_try` checks) leaves the random hands
  to the Python loop.
- It plays a context whose cards fit an ``int64`` mask (at most 63 cards) and whose tables
  hold integers only (:func:`pack` returns ``None`` otherwise: the Python loop plays it).
- First use in a process loads the machine code numba cached on disk (``cache=True``); the
  very first use on a machine compiles it (a few seconds: benchmarks/README.md).
"""
from __future__ import annotations

import ctypes
import os
import random
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekit.engine.phases import tricks as _tricks

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.engine.state import State
    from rulekit.variant.model import Context, Variant

#: key of the packed context tables in :meth:`Variant.cached <rulekit.variant.model.Variant.cached>`
PACKS = "kernel.packs"
PAIRS = "kernel.pairs"   # (seat, card) by seat * 64 + card
RUNS = "kernel.runs"   # (id of a context, phase index, trumps) -> what random_tricks reads (_run)

MAX_CARDS = 63   # cards are bits of an int64 mask
#: hands and playouts the Python loops play in a process before the kernel is loaded (default mode):
#: about a second of their work, as long as loading numba and the kernel's cached code takes
WARM = 20_000
_ON, _OFF = ("1", "on", "true", "yes"), ("0", "off", "false", "no")
_jit: Any = None   # the compiled module once loaded; False: off (numba missing, or switched off)
_np: Any = None   # numpy, imported with the kernel
_forced: bool | None = None   # use()'s choice, else None (the environment's)
_calls = 0   # loop calls counted towards WARM
_env = os.environ.get("RULEKIT_KERNEL", "").strip().lower()
_ENV: bool | None = True if _env in _ON else False if _env in _OFF else None   # (read once, at import)
_Random = random.Random
_HEAD = object.__basicsize__   # CPython's RandomObject: the object's head, then its index and words
_LAYOUT = False   # whether the generators' state is where generator() looks for it (checked by _try)
_views: dict[int, tuple] = {}   # id(rng) -> (weak reference to rng, its state's view)


def use(on: bool | None) -> None:
    """Play with the kernel from the next hand on (``True``: if numba imports), never
    (``False``), or as ``RULEKIT_KERNEL`` says (``None``: the default, see the module)."""
    global _jit, _forced
    _forced = on
    _jit = None
    if on:
        _load()


def enabled(hands: int = 1) -> bool:
    """Whether the compiled kernel plays the hands it can now; asked by the loops that use it
    before they play ``hands`` hands or playouts (counted towards :data:`WARM`), it imports
    numba when the time comes."""
    if _jit is not None:
        return _jit is not False
    global _calls
    on = _ENV if _forced is None else _forced
    if on is None:   # the default: after WARM hands of the Python loops
        _calls += hands
        if _calls <= WARM:
            return False
    return _load() if on is not False else _off()


def _off() -> bool:
    global _jit
    _jit = False
    return False


def _load() -> bool:
    global _jit, _np
    try:
        import numpy

        from rulekit.engine import kernel_jit
    except ImportError:   # numba (or numpy) is not installed: the Python loops play every hand
        return _off()
    try:
        _try(numpy, kernel_jit)
    except Exception as e:   # (no cache folder, a numba that cannot compile it...): never a crash
        warnings.warn(f"rulekit: the compiled trick kernel is off ({type(e).__name__}: {e}); "
                      f"the Python loops play every hand", RuntimeWarning, stacklevel=3)
        return _off()
    _np = numpy
    _jit = kernel_jit
    _settle()
    return True


def _settle() -> None:
    """Take the objects alive once the kernel is loaded out of the garbage collector's sight
    (:func:`gc.freeze`, after a collection): numba's and numpy's modules add about 100,000
    objects that live as long as the process, and every later full collection walked them
    again, a steady 3-5 % of a long simulation's time (benchmarks/README.md).  Objects frozen
    are still freed when no longer referenced; only a reference cycle among them that
    becomes garbage stays."""
    import gc
    gc.collect()
    gc.freeze()


def _try(np: Any, jit: Any) -> None:
    """Call each compiled function once on a made-up two-seat, four-card hand (the argument types
    of every later call), so that loading or compiling fails here, before any hand is played.

    Then :data:`_LAYOUT`: whether :func:`generator` finds a generator's state where it looks
    (read first, compared with ``getstate()``), and the kernel's draws from it are ``random()``'s
    (400 of them: across the regeneration of the words) and leave it in the same state.

    :raises AssertionError: when a result is not the Python loops' (seat 1's higher cards win).
    """
    global _LAYOUT
    tab = np.array([[0, 0, 0, 0], [0, 1, 2, 3], [0, 0, 0, 0], [0, 1, 2, 3], [3, 2, 1, 0],
                    [15, -1, -1, -1], [4, -1, -1, -1], [-1, -1, 1, 1]], np.int64)
    io = np.array([2, 3, 12, 0, 0, 0, 0, 0, 0, 0, 0, 1] + [0] * 10, np.int64)
    flat = np.empty(14, np.uint8)
    words = random.Random(1).getstate()[1]
    mt = np.array([words[624], *words[:624]], np.uint32)
    lead = np.array([0, -1, 0, 0, 2, 1], np.int64)   # (the second card may not be led until broken)
    jit.random_tricks(io, tab, lead, mt, flat)
    assert list(flat[1::7]) == [1, 1] and flat[4] == 0
    one, two = _Random(20), _Random(20)
    for _ in range(7):
        one.random(), two.random()
    _LAYOUT = False
    if _Random.__basicsize__ >= _HEAD + 4 * 625:   # (reading within the object)
        view = np.ctypeslib.as_array((ctypes.c_uint32 * 625).from_address(id(one) + _HEAD))
        if _state_of(one, view):
            got = np.empty(400)
            jit.uniforms(view, got)
            _LAYOUT = got.tolist() == [two.random() for _ in range(400)] and one.getstate() == two.getstate()
    st = np.array([2, 3, 12, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, -1, -1, 1, 0], np.int64)
    nt, _o, _leader, _lg = jit.greedy_tricks(st.copy(), tab, np.empty(16, np.int64))
    res = np.empty((1, 4 + 2 + 8 + 16), np.int64)
    jit.greedy_each(st.reshape(1, -1), tab, np.array([0], np.int64), np.array([0], np.int64), 2, res)
    assert nt == 2 and list(res[0, 4:6]) == [1, 1]
    out = np.zeros(2, np.int64)   # (four cards over two places of two, the second card tied to place 1)
    assert jit.fill(mt, np.array([0, 1, 2, 3], np.int64), np.array([-1, 1, -1, -1], np.int64),
                    np.array([[0], [1], [0], [0]], np.int64), np.array([2, 2], np.int64), out) == 1
    assert out[1] >> 1 & 1 and bin(int(out[0])).count("1") == 2 and int(out[0]) | int(out[1]) == 15


@dataclass(frozen=True)
class Pack:
    """A context's tables as one ``int64`` array for the kernel (:func:`pack`).

    :ivar ctx: the :class:`~rulekit.variant.model.Context` packed.
    :ivar tab: rows, each as long as the deck: ``group_of``, ``strength``, the variant's
        points table there; ``win_keys`` (one row per led group, ``G`` groups); ``orders``
        (per group its cards from the strongest down, padded with -1); ``group_mask`` and
        the length of each order (in the first ``G`` columns); then the trump group (-1:
        none), the group whose led cards name a suit (-1: none), the number of suits and
        the direction of play.
    :ivar trump_suit_group: the context's, -1 for none.
    :ivar naming: ``len(suits)`` when a led top card names a suit, else -1.
    :ivar trumps: the cards of the trump suit group (0: none), which ``must_trump`` makes a seat
        that cannot follow play.
    """

    ctx: Any
    tab: Any
    trump_suit_group: int
    naming: int
    trumps: int


def pack(variant: Variant, ctx: Context) -> Pack | None:
    """The kernel's tables of context ``ctx`` of ``variant``, built once and kept per variant;
    ``None`` when the kernel cannot play it (more than 63 cards, a table entry that is not an
    integer) or the kernel is not loaded."""
    if not _jit:
        return None
    packs: dict = variant.cached(PACKS, dict)
    key = (ctx.low, ctx.name)
    hit = packs.get(key)
    if hit is None or hit[0] is not ctx:   # (a context built by hand: packed, not kept)
        p = _pack(variant, ctx)
        if ctx is (variant.low_contexts if ctx.low else variant.contexts).get(ctx.name):
            packs[key] = (ctx, p)
        return p
    return hit[1]


def _pack(variant: Variant, ctx: Context) -> Pack | None:
    size = variant.deck.size
    pts = variant.points_table(ctx)
    groups = len(ctx.group_mask)
    rows = [ctx.group_of, ctx.strength, pts] + list(ctx.win_keys)
    if (size > MAX_CARDS or size < max(groups, 4) or len(ctx.win_keys) != groups
            or any(len(r) != size or not all(type(x) is int and -1 <= x < 1 << 40 for x in r) for r in rows)
            or not all(type(m) is int and 0 <= m < 1 << size for m in ctx.group_mask)):
        return None
    tab = _np.full((6 + 2 * groups, size), -1, _np.int64)
    for i, row in enumerate(rows):
        tab[i] = row
    for g, order in enumerate(ctx.orders):
        tab[3 + groups + g, :len(order)] = order
    tab[3 + 2 * groups, :groups] = ctx.group_mask
    tab[4 + 2 * groups, :groups] = [len(o) for o in ctx.orders]
    naming = len(variant.deck.suits) if ctx.top_names_suit else -1
    tab[5 + 2 * groups, :4] = (-1 if ctx.trump_group is None else ctx.trump_group, naming,
                               len(variant.deck.suits), variant.step)
    tsg = -1 if ctx.trump_suit_group is None else ctx.trump_suit_group
    return Pack(ctx, tab, tsg, naming, ctx.group_mask[tsg] if tsg >= 0 else 0)


def random_tricks(state: State, h: Any, ctx: Context, rng: random.Random) -> tuple | None:
    """:func:`rulekit.engine.playout._plain_tricks` by the kernel: play the rest of hand ``h``
    at random from a trick boundary under the plain rules and the phase's lead and first-trick
    rules (:func:`rules_row`), drawing from ``rng`` what the Python loop draws, and write what
    it writes (cards, voids, tricks and cards won, trick winners, the hand's choices; not the
    widow, nor the hand's tricks).  Returns ``(flat, named, first, led group, legal)`` for the
    caller to finish as the Python loop does (the tricks in ``PlayedTricks``' layout as bytes,
    the suit each lead named or the number of tricks, the last trick's leader and led group;
    ``legal``: the legal mask of each play, in order), or ``None`` when the kernel cannot play
    this hand (nothing changed)."""
    v = state.variant
    runs: dict = v.cached(RUNS, dict)
    hit = runs.get((id(ctx), h.phase, h.trump))
    if hit is None or hit[0] is not ctx:
        hit = _run(state, h, ctx)
    tab = hit[1]
    if tab is None or not state._small:
        return None
    mt = generator(rng)
    if mt is None:
        return None
    n = h.players
    hands = h.hands
    size = n - hands.count(0)
    left = hands[h.to_move].bit_count()
    plays = left * size
    done = h.tricks
    k = 4 * n + 4
    io = _np.empty(k + plays + plays + left, _np.int64)
    io[:k] = [n, *hands, *h.failed, *h.won, *h.won_cards, h.to_move, _tricks.played_cards(done) if done else 0,
              not done]
    stride = 3 + 2 * size
    flat = _np.empty(left * stride, _np.uint8)
    first, lg = _jit.random_tricks(io, tab, hit[2], mt, flat)
    got = io[:k + plays].tolist()
    hands[:] = got[1:n + 1]
    h.failed[:] = got[n + 1:2 * n + 1]
    h.won[:] = got[2 * n + 1:3 * n + 1]
    h.won_cards[:] = got[3 * n + 1:4 * n + 1]
    h.choices += got[k:]   # the record: a play's choice is its card (plus the suit a lead names)
    data = flat.tobytes()
    h.trick_winners += data[1::stride]
    names: list | int = left
    suits = hit[3]
    if suits is not None:
        names = [suits[i] if i >= 0 else "" for i in io[k + 2 * plays:].tolist()]
    return data, names, first, lg, io[k + plays:k + 2 * plays]


def _run(state: State, h: Any, ctx: Context) -> tuple:
    """What :func:`random_tricks` reads for hand ``h`` under context ``ctx``, kept per variant by
    context, phase and trumps (a context built by hand: not kept): ``(ctx, tab, rules, suits)``,
    the packed tables (``None``: the kernel cannot play it, :func:`pack`), :func:`rules_row` and
    the suits a led card may name (``None``: no card names one)."""
    v = state.variant
    p = pack(v, ctx)
    run = (ctx, None, None, None) if p is None else \
        (ctx, p.tab, rules_row(state, p), v.deck.suits if p.naming >= 0 else None)
    if ctx is (v.low_contexts if ctx.low else v.contexts).get(ctx.name):
        runs: dict = v.cached(RUNS, dict)
        runs[id(ctx), h.phase, h.trump] = run
    return run


def rules_row(state: State, p: Pack) -> Any:
    """The rules of the hand's trick phase that :func:`rulekit.engine.kernel_jit.random_tricks`
    reads, under its trumps and context (packed as ``p``), as an ``int64`` array: the trumps a
    seat that cannot follow must play (``must_trump``; 0: none), the first trick's lead card
    (``first_lead``, -1: none), its cards not to be led and not to be played while the seat
    holds another (``first_no_lead``, ``first_no_play``), then per lead rule in force its suit's
    mask and whether it holds only until broken: the tables of
    :func:`rulekit.engine.phases.tricks.lead_allowed` and ``first_allowed`` (``_lead_rules``)."""
    h = state.hand
    spec: _tricks.TricksSpec = state.variant.phases[h.phase]  # type: ignore[assignment]  # (a tricks phase)
    rules = _tricks._lead_rules(state, spec) if spec.lead_broken or spec.lead_never else ()
    row = [p.trumps if spec.must_trump else 0, spec.first_lead, spec.first_no_lead, spec.first_no_play]
    for mask, until, _reason in rules:
        row += (mask, until)
    return _np.array(row, _np.int64)


def generator(rng: random.Random) -> Any | None:
    """The state of ``rng``'s generator in place, for the kernel to draw from: a ``uint32``
    array of 625, the index of the next word then the 624 words of CPython's MT19937, over the
    object's own memory (so the kernel's draws are ``rng.random()``'s, to the bit, and leave
    ``rng`` where those calls would).  ``None`` when ``rng`` is not a plain
    :class:`random.Random` or this Python keeps its state otherwise (:func:`_try` checks the
    layout against ``getstate()`` before any draw): the Python loop plays then."""
    if type(rng) is not _Random or not _LAYOUT:
        return None
    key = id(rng)
    hit = _views.get(key)
    if hit is not None and hit[0]() is rng:
        return hit[1]
    view = _np.ctypeslib.as_array((ctypes.c_uint32 * 625).from_address(key + _HEAD))
    _views[key] = (weakref.ref(rng, lambda _r: _views.pop(key, None)), view)   # (dropped with rng)
    return view


def fill_tables(rules: tuple, places: list) -> tuple | None:
    """The arrays of :func:`fill` for the rules ``(cards, free, options)`` of
    ``rulekit.engine.observation._rules`` over ``places`` (each ``(kind, key, count, owner)``),
    built once per observation; ``None`` when the kernel cannot deal them (not loaded, a
    generator laid out otherwise, a card above 62, or a shuffle other than ``rng.shuffle``'s
    inlined one, :data:`rulekit.engine.shuffle.shuffled`)."""
    from rulekit.engine.shuffle import _shuffled_inline, shuffled
    if not enabled(0) or not _LAYOUT or shuffled is not _shuffled_inline:
        return None
    cards, free, options = rules
    if cards and cards[-1] >= MAX_CARDS:
        return None
    n = len(cards)
    optn = _np.full(n, -1, _np.int64)
    opt = _np.zeros((n, max(len(places), 1)), _np.int64)
    for i, c in enumerate(cards):
        if not free >> c & 1:
            got = options[c]
            optn[i] = len(got)
            opt[i, :len(got)] = got
    room = _np.array([k for _kind, _key, k, _o in places], _np.int64)
    return _np.array(cards, _np.int64), optn, opt, room


def fill(rng: random.Random, tables: tuple) -> list | None | bool:
    """``rulekit.engine.observation._fill`` by the kernel for the :func:`fill_tables` ``tables``:
    per place its cards (a mask), or ``None`` when the random choices got stuck, drawn from
    ``rng`` itself as the Python function draws (the same cards, ``rng`` left in the same
    state: tests/test_light_world.py); ``False`` when ``rng`` is no plain generator the
    kernel can draw from (:func:`generator`) or the kernel was switched off since the tables
    were built (the Python function deals then)."""
    mt = generator(rng) if enabled(0) else None
    if mt is None:
        return False
    cards, optn, opt, room = tables
    out = _np.zeros(room.shape[0], _np.int64)
    if not _jit.fill(mt, cards, optn, opt, room.copy(), out):
        return None
    return out.tolist()


def _state_of(rng: random.Random, view: Any) -> bool:
    """Whether ``view`` (:func:`generator`) holds ``rng``'s index and words as ``getstate()`` says."""
    words = rng.getstate()[1]
    return int(view[0]) == words[624] and view[1:].tolist() == list(words[:624])


def greedy_tricks(w: State, h: Any, prefs: list, first: int) -> bool:
    """``rulekit.bots.sensible._plain_tricks`` by the kernel: play the trick phase of hand ``h``
    (``w.hand``) to its end under the plain rules with the greedy policy, ``first`` (a card, or
    -1) first; the hand is left as the Python loop leaves it.  Returns ``False`` (nothing
    changed) when the kernel cannot play it."""
    p = pack(w.variant, h.ctx)
    if p is None:
        return False
    n = h.players
    st, size = _greedy_state(w, h, p, prefs, first)
    out = _np.empty(size, _np.int64)
    nt, o, leader, lg = _jit.greedy_tricks(st, p.tab, out)
    got = st.tolist()
    h.hands[:] = got[1:n + 1]
    h.failed[:] = got[n + 1:2 * n + 1]
    h.won[:] = got[2 * n + 1:3 * n + 1]
    h.won_cards[:] = got[3 * n + 1:4 * n + 1]
    _put_tricks(w.variant, h, out[:o].tolist(), nt, leader, lg)
    return True


def greedy_each(w: State, h: Any, prefs: list, cards: list, counts: bool = False
                ) -> tuple[list, Callable[[int], None]] | None:
    """:func:`greedy_tricks` from the position of hand ``h`` once for each first card of
    ``cards`` (-1: the greedy policy's own), in one call of the kernel, the hand left as it is.  Returns ``(keys, put)``:
    per card the outcome's key, and ``put(i)``, which leaves the hand as :func:`greedy_tricks`
    with ``cards[i]`` would; or ``None`` when the kernel cannot play it.  The key holds what
    the hand's score reads of its play: the winners of the tricks played and the cards each
    seat won; with ``counts``, only the tricks and card points each seat won (when the score
    reads no more: :func:`rulekit.engine.scoring.remembered`, no tallies)."""
    return greedy_batch([(w, h, prefs, cards)], counts)[0]


def greedy_batch(jobs: list, counts: bool | list = False) -> list:
    """:func:`greedy_each` for many positions at once (the worlds a bot samples for one
    decision): ``jobs`` are ``(world, hand, prefs, cards)``; per job, ``(keys, put)`` as
    :func:`greedy_each` gives them (``counts``: for every job, or a flag per job), or ``None``
    when the kernel cannot play it (or ``cards`` is empty).  The jobs of one context are played by one call of the kernel, so that its
    fixed cost (arrays in, results out) is paid once for all of them; each playout is the
    one :func:`greedy_each` would play alone (tests/test_kernel.py)."""
    out: list = [None] * len(jobs)
    groups: dict = {}   # (pack, length of a position's row) -> (pack, rows, [(job, tricks, size)])
    for j, (w, h, prefs, cards) in enumerate(jobs):
        p = pack(w.variant, h.ctx) if cards else None
        if p is None:
            continue
        row, left = _greedy_row(w, h, p, prefs, -1)
        g = groups.get((id(p), len(row)))
        if g is None:
            g = groups[id(p), len(row)] = (p, [], [])
        rows: list[list] = g[1]
        items: list[tuple[int, int, int]] = g[2]
        rows.append(row)
        items.append((j, left, left * 4 + left + len(h.trick)))   # (at most a trick a card)
    for p, rows, items in groups.values():
        n = rows[0][0]
        tricks = max(x[1] for x in items)
        lead = 4 + tricks + 4 * n
        at_row: list = []
        firsts: list = []
        for r, (j, _left, _size) in enumerate(items):
            cards = jobs[j][3]
            at_row += [r] * len(cards)
            firsts += cards
        res = _np.empty((len(firsts), lead + max(x[2] for x in items)), _np.int64)
        _jit.greedy_each(_np.array(rows, _np.int64), p.tab, _np.array(at_row, _np.int64),
                         _np.array(firsts, _np.int64), tricks, res)
        head = res[:, :lead].tolist()
        base = 0
        for j, _left, _size in items:
            w, h, _prefs, cards = jobs[j]
            out[j] = _outcomes(w.variant, h, head, res, base, len(cards), n, tricks,
                               counts if type(counts) is bool else counts[j])
            base += len(cards)
    return out


def _outcomes(v: Variant, h: Any, head: list, res: Any, base: int, k: int, n: int, tricks: int, counts: bool
              ) -> tuple[list, Callable[[int], None]]:
    """The ``(keys, put)`` of :func:`greedy_each` for hand ``h`` from the ``k`` rows of the
    kernel's results from row ``base`` on (``head``: their leading values as lists)."""
    at = 4 + tricks   # failed, won, cards won, points: n each
    lead = at + 4 * n
    mine = head[base:base + k]
    if counts:
        keys = [(tuple(r[at + n:at + 2 * n]), tuple(r[at + 3 * n:lead])) for r in mine]
    else:
        keys = [(tuple(r[4:4 + r[0]]), tuple(r[at + 2 * n:at + 3 * n])) for r in mine]

    def put(i: int) -> None:
        r = mine[i]
        h.hands[:] = [0] * n   # (the loop ends when every hand is empty)
        h.failed[:] = r[at:at + n]
        h.won[:] = r[at + n:at + 2 * n]
        h.won_cards[:] = r[at + 2 * n:at + 3 * n]
        _put_tricks(v, h, res[base + i, lead:lead + r[1]].tolist(), r[0], r[2], r[3])
    return keys, put


def _greedy_state(w: State, h: Any, p: Pack, prefs: list, first: int) -> tuple:
    """The ``st`` array of :func:`rulekit.engine.kernel_jit.greedy_tricks` for hand ``h``, and
    the size its trick data may take."""
    row, left = _greedy_row(w, h, p, prefs, first)
    return _np.array(row, _np.int64), left * 4 + left + len(h.trick)   # (at most a trick a card)


def _greedy_row(w: State, h: Any, p: Pack, prefs: list, first: int) -> tuple[list, int]:
    """The ``st`` of :func:`rulekit.engine.kernel_jit.greedy_tricks` for hand ``h`` as a list,
    and the cards left in the hands."""
    v = w.variant
    trick = h.trick
    trumps = (h.ctx.group_mask[p.trump_suit_group] if v.phases[h.phase].must_trump and p.trump_suit_group >= 0
              else 0)
    row = [h.players] + h.hands + h.failed + h.won + h.won_cards + prefs + \
        [h.to_move, h.leader, h.led_group, v.deck.suits.index(h.named) if h.named else -1, first,
         v.step, trumps] + [x for pair in trick for x in pair]
    left = 0
    for m in h.hands:
        left += m.bit_count()
    return row, left


def _put_tricks(v: Variant, h: Any, data: list, nt: int, leader: int, lg: int) -> None:
    """Append the ``nt`` tricks of the kernel's trick ``data`` to hand ``h`` (its tricks and
    their winners) and end its trick play as the Python loop does."""
    suits = v.deck.suits
    pair = _pairs(v).__getitem__
    add = h.tricks.append
    win = h.trick_winners.append
    i = 0
    for _ in range(nt):
        j = i + 4
        e = j + data[i + 3]
        w = data[i + 1]
        add((data[i], list(map(pair, data[j:e])), w, suits[data[i + 2]] if data[i + 2] >= 0 else ""))
        win(w)
        i = e
    h.trick, h.leader, h.led_group, h.named, h.to_move = [], leader, lg, "", -1


def _pairs(variant: Variant) -> list:
    """The ``(seat, card)`` pairs by ``seat * 64 + card`` (shared: tuples are immutable)."""
    pairs: list = variant.cached(PAIRS, list)
    if not pairs:
        pairs.extend((s, c) for s in range(variant.players) for c in range(64))
    return pairs
