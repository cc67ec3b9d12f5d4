"""Rich renderings of cards, hands, the table and the score sheet (terminal only).

Everything here is a pure function of a :class:`~rulekit.engine.State` (or a
finished :class:`~rulekit.engine.hand.Hand`) returning rich ``Text`` or
``Table`` objects; ``cli/game.py`` decides what to print and when.  Colours
follow rich's rules (``NO_COLOR``, ``TERM=dumb`` and pipes print plain text):
hearts and diamonds red, spades and clubs bold, the joker magenta.
"""
from __future__ import annotations

import bisect
import itertools
import re

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from rulekit.cards import COPY, SUIT_NAMES, SUIT_SYMBOLS, SYMBOL_SUITS, bits
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases.base import Said, shown_rows
from rulekit.errors import RulekitError
from rulekit.sheets.render import sheet_renderable, with_symbols
from rulekit.text import visible

SUIT_STYLE = {"H": "bold red", "D": "bold red", "S": "bold", "C": "bold"}


def role_of(kind: str) -> str:
    """The role of phase kind ``kind`` (``auction``, ``play``...; ``""`` for ``over``)."""
    k = REGISTRY.get(kind)
    return k.role if k is not None else ""


def phase_label(kind: str) -> str:
    """The prompt label of phase kind ``kind`` ("You (bid) > "): the kind's own ``label``."""
    k = REGISTRY.get(kind)
    return (k.label if k is not None and k.label else kind.replace("_", " "))


def prompt_label(state) -> str:
    """The prompt label now: the current kind's :meth:`~rulekit.engine.phases.base.PhaseKind.prompt_label`
    (its word may change within the phase)."""
    kind = state.kind
    return kind.prompt_label(state) if kind is not None else phase_label(state.phase_kind)

_BID = re.compile(r"^(\d+)([SHDC])$")


def _name(state, seat: int) -> str:
    return state.names[seat]


def _verb(name: str, third: str, base: str) -> str:
    """``P1 takes`` but ``You take``."""
    return base if name == "You" else third


def suit_text(suit: str) -> Text:
    """A suit letter as its coloured symbol (``H`` -> red ``♥``); ``NT`` stays ``NT``."""
    return Text(SUIT_SYMBOLS.get(suit, suit), style=SUIT_STYLE.get(suit, ""))


def card_text(deck, c: int) -> Text:
    """A card with a coloured suit symbol (``10♥`` in red; a suit of the deck's own with its
    symbol, a suitless card in magenta), as a player reads it: no copy number (``10♥`` for
    ``10H:2``, :meth:`~rulekit.cards.Deck.face`)."""
    if deck.is_joker(c):
        return Text(deck.face(c), style="bold magenta")
    s = deck.suit_of(c)
    return Text(deck.face(c), style=SUIT_STYLE.get(s, "") if deck.symbol(s) == SUIT_SYMBOLS.get(s) else "bold")


def played_text(deck, c: int, ctx) -> Text:
    """A card played to a trick (:func:`card_text`), marked with the suit it counts as when
    that differs from its printed suit under the trump context ``ctx`` (``J♦ (as ♥)``: the left
    bower, a card the ranking moves to another suit; ``(as top)`` for a card of the top group)."""
    t = card_text(deck, c)
    printed = deck.suit_of(c)
    if ctx is None or printed is None or printed not in deck.suits:
        return t
    g = ctx.group_of[c]
    if g != deck.suits.index(printed):
        t.append(" (as ", style="dim")
        t.append_text(suit_text(deck.suits[g]) if g < len(deck.suits) else Text("top"))
        t.append(")", style="dim")
    return t


#: a card or a suit symbol in a kind's words (``J♥``, ``10♠``, ``♦``), with the copy number a
#: pack of copies writes after it (``10♥:2``)
_PRETTY = re.compile(r"(?<![^\s(])((?:[0-9A-Z]{1,2})?[♠♥♦♣])(?::\d+)?")


def styled(text: str) -> Text:
    """Plain words of a phase kind (cards as ``deck.pretty`` writes them) with the cards and
    suits coloured as :func:`card_text` colours them, each card without its copy number."""
    t = Text()
    at = 0
    for m in _PRETTY.finditer(text):
        t.append(text[at:m.start()])
        t.append(m.group(1), style=SUIT_STYLE.get(SYMBOL_SUITS[m.group(1)[-1]], ""))
        at = m.end()
    t.append(text[at:])
    return t


def said_text(state, said: Said) -> Text:
    """A kind's words for what a seat did: ``P1 orders up J♥`` / ``You order up J♥``."""
    name = _name(state, said.seat)
    return Text(f"{name} ") + styled(_verb(name, said.third, said.second))


def cards_text(deck, cards) -> Text:
    """Cards separated by spaces."""
    t = Text()
    for i, c in enumerate(cards):
        if i:
            t.append(" ")
        t.append_text(card_text(deck, c))
    return t


_TRUMP_CALL = re.compile(r"^trump ([SHDC])(\b.*)$")


def call_text(text: str) -> Text:
    """An auction call for display: ``7H`` -> ``7♥`` (coloured), ``trump H alone`` ->
    ``trump ♥ alone``; ``pass``, ``10NT`` unchanged."""
    m = _BID.match(text)
    if not m:
        named = _TRUMP_CALL.match(text)
        if named:
            return Text("trump ") + suit_text(named.group(1)) + Text(named.group(2))
        return Text(text)
    t = Text(m.group(1))
    t.append_text(suit_text(m.group(2)))
    return t


def suit_order(deck, trump: str | None = None) -> list:
    """The suits as a card player sorts a hand (issue 12 case 18): the trump suit first, then the
    others from the highest of the deck's order (``deck.suits``, low to high) down: ``S H D C``
    (♠ ♥ ♦ ♣) for a deck of ``C D H S``, ``H S D C`` with hearts trumps."""
    return ([trump] if trump else []) + [s for s in reversed(deck.suits) if s != trump]


def view_context(variant, trump: str, group: str):
    """The trump context (:class:`~rulekit.variant.model.Context`) a seat sees the cards in
    (``obs.trump``, ``obs.group``: the contract group's tables): no trump before trumps are
    made; the first context of the game when it has no no-trump one."""
    return (variant.context(trump, group) or variant.contexts.get("NT")
            or next(iter(variant.contexts.values())))


def _state_context(state):
    h = state.hand
    return view_context(state.variant, h.trump, h.ctx.group if h.ctx is not None else "")


def sorted_cards(state, mask: int) -> list:
    """The cards of ``mask`` in display order: grouped by effective suit of the current context
    (trumps first, bowers and jokers with them), suits in :func:`suit_order`, high cards first."""
    return display_order(state.variant, _state_context(state), mask)


def display_order(variant, ctx, mask: int) -> list:
    """The cards of ``mask`` as a player holds them under the trump context ``ctx``
    (:func:`sorted_cards`, for a variant and context rather than a state)."""
    deck = variant.deck
    ns = len(deck.suits)
    tg = ctx.trump_group
    groups = [] if tg is None else [tg]
    groups += [deck.suits.index(x) for x in suit_order(deck, deck.suits[tg] if tg is not None and tg < ns else None)]
    groups.append(ns)                   # the top group (jokers) when it is not the trump group
    pos: dict = {}
    for g in groups:
        pos.setdefault(g, len(pos))
    return sorted(bits(mask), key=lambda c: (pos.get(ctx.group_of[c], len(pos)), -ctx.strength[c]))


def hand_text(state, seat: int, mark: int = 0) -> Text:
    """The seat's hand as the seat sees it (its observation): grouped by effective suit, trumps
    first, then alternating colours, high cards first (:func:`sorted_cards`); face down while it
    has not looked at its cards (a blind decision first).

    :param mark: bitmask of cards to underline (cards just taken from the widow).
    """
    obs = state.observation(seat)
    return _own_hand(obs, mark)


def _own_hand(obs, mark: int = 0) -> Text:
    """``obs``'s own hand (:func:`hand_text`)."""
    if obs.blind:   # a blind decision first: his cards stay face down
        return Text(f"{_cards(obs.hand_sizes[obs.seat])} face down (not looked at yet)", style="dim")
    return _cards_row(obs.variant, view_context(obs.variant, obs.trump, obs.group), obs.hand, mark)


def _cards_row(variant, ctx, mask: int, mark: int = 0) -> Text:
    """The cards of ``mask`` grouped by effective suit (:func:`hand_text`)."""
    deck = variant.deck
    t = Text()
    last = None
    for c in display_order(variant, ctx, mask):
        g = ctx.group_of[c]
        if last is not None:
            t.append("  " if g != last else " ")
        ct = card_text(deck, c)
        if mark >> c & 1:
            ct.stylize("underline")
        t.append_text(ct)
        last = g
    return t


def trump_text(h, state=None) -> Text:
    """``trumps ♥``, ``no trump``; with ``state``, a phase's words while it has yet to make
    trumps (:meth:`~rulekit.engine.phases.base.PhaseKind.trump_words`: ``trumps not named yet``,
    ``trumps: the first card led``)."""
    for spec in state.rules_of(h.number).phases if state is not None else ():
        words = REGISTRY[spec.kind].trump_words(spec, h)
        if words is not None:
            return Text(words)
    low = ", low cards win" if h.ctx is not None and h.ctx.low else ""  # a low-wins contract
    if h.trump == "NT":
        return Text("no trump" + low)
    t = Text("trumps ")
    t.append_text(suit_text(h.trump))
    t.append(low)
    return t


def auction_text(state, h) -> Text:
    """The calls of hand ``h`` in one line: ``P1 pass · P2 7♥ · You 8♠``."""
    return _calls_line(state, h.calls)


def _calls_line(state, calls) -> Text:
    """:func:`auction_text` of the calls ``calls``."""
    t = Text()
    for i, (s, a) in enumerate(calls):
        if i:
            t.append(" · ", style="dim")
        t.append(f"{_name(state, s)} ")
        t.append_text(call_text(a))
    return t


def contract_text(state, h) -> Text | None:
    """``8♠ by P1, trumps ♠``, ``4♥X (doubled) by You, trumps ♥``; ``2 by You`` when the auction
    chose a declarer whose contract is announced later; ``none: all passed, played at no trump``;
    None without an auction."""
    if h.contract is not None:
        t = call_text(h.contract.text)
        doubled = getattr(h, "doubled", 0)
        if doubled:
            t.append("XX (redoubled)" if doubled > 1 else "X (doubled)", style="bold")
        t.append(f" by {_name(state, h.declarer)}, ")
        t.append_text(trump_text(h, state))
        return t
    made = made_text(state, h)
    if made is not None:
        return made
    if h.declarer is not None and h.declarer >= 0 and h.calls:
        # won, contract announced later (a step auction): the call he won with
        return Text(f"{_winning_call(state, h)} by {_name(state, h.declarer)}")
    if state.variant.auction() is not None and h.calls:
        if getattr(h, "void", False):
            return Text("none: all passed, the deal is thrown in")
        return Text("none: all passed, played at " + ("no trump" if h.trump == "NT" else h.trump))
    return None


def made_text(state, h) -> Text | None:
    """How trumps were made in ``h`` without an auction's contract, in the words of the phase
    that made them (:meth:`~rulekit.engine.phases.base.PhaseKind.made`): ``N orders up J♥,
    trumps ♥``, ``You take J♥, trumps ♥``, ``S names trumps ♠, alone``; None when no phase says."""
    rules = state.rules_of(h.number)
    for spec in rules.phases:
        said = REGISTRY[spec.kind].made(spec, h, rules)
        if said is not None:
            return said_text(state, said)
    return None


def _winning_call(state, h) -> str:
    """The declarer's last call other than pass; a call that only claims the highest number said
    (neither a number nor a bid, after he said a number himself) reads as that number."""
    own = [a for s, a in h.calls if s == h.declarer and a != "pass"]
    if not own:
        return "?"
    last = own[-1]
    numbers = [int(a) for _s, a in h.calls if a.isdigit()]
    if (not last.isdigit() and last not in state.bid_by_text
            and any(a.isdigit() for a in own) and numbers):
        return str(max(numbers))
    return last


def trick_text(state, h, i: int, label: bool = True) -> Text:
    """Completed trick ``i`` (0-based) of ``h``: ``trick 3  P1 K♠  P2 7♠  You A♠  → P1``; a card
    that counts as another suit is marked (:func:`played_text`)."""
    return trick_line(state, h.tricks[i], i, label, h.ctx)


def trick_line(state, trick, i: int, label: bool = True, ctx=None) -> Text:
    """A completed trick ``(leader, plays, winner, named)``, the ``i``-th (:func:`trick_text`),
    its cards marked by the trump context ``ctx``."""
    deck = state.variant.deck
    plays, winner = trick[1], trick[2]
    named = trick[3] if len(trick) > 3 else ""
    t = Text(f"trick {i + 1:>2} " if label else "", style="dim")
    for k, (s, c) in enumerate(plays):
        t.append(f"{'  ' if k else ' '}{_name(state, s)} ")
        t.append_text(played_text(deck, c, ctx))
        if named and s == trick[0]:
            t.append(" naming ")
            t.append_text(suit_text(named))
    t.append("  → ")
    t.append(_name(state, winner), style="bold")
    return t


def one_line(text: str) -> str:
    """``text`` read from a file (a variant's name) as rich markup that prints as one line of
    what it reads: a newline shown as ``^J``, BEL as ``^G`` (rich would drop it) and every other
    control or format character made visible (:func:`rulekit.text.visible`), brackets escaped."""
    return escape(visible(text, newlines=False))


def player_names(controllers: list, v) -> list:
    """The name each seat is shown by: ``You`` for a single human, the seat names of the file
    (``N``, ``E``...) for the others, or ``P0``, ``P1``... without them.

    :param controllers: a controller per seat (``"human"``, a bot name, ``bot:PATH``...).
    """
    one = controllers.count("human") == 1
    seats = list(v.seat_names) if len(v.seat_names) == len(controllers) else []
    return ["You" if c == "human" and one else (seats[i] if seats else f"P{i}") for i, c in enumerate(controllers)]


def _cards(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def discard_phase(state, h, k: int):
    """The spec of the phase that made the ``k``-th (0-based) discard of hand ``h``, counting
    each phase's :meth:`~rulekit.engine.phases.base.PhaseKind.discards`; or None."""
    rules = state.rules_of(h.number)
    slots = []
    for p in rules.phases:
        slots += [p] * REGISTRY[p.kind].discards(p, h, rules)
    return slots[k] if 0 <= k < len(slots) else None


def exchange_text(state, h, action_text: str, seat: int, reveal: bool, spec=None) -> Text:
    """What a seat did with a discard action, in its phase's own words
    (:meth:`~rulekit.engine.phases.base.PhaseKind.said`): ``P1 takes the talon and discards 2
    cards``, ``P1 puts 1 card aside``; ``P1 discards 1 card`` when the phase has no words of its own.

    :param reveal: show the discarded cards (to their owner only).
    :param spec: the phase that took the action (default: the hand's last discard's phase,
        :func:`discard_phase`).
    """
    words = action_text.split()[1:]
    if spec is None:
        spec = discard_phase(state, h, sum(a.startswith("discard ") for _s, a in h.actions) - 1)
    said = None
    if spec is not None:
        rules = state.rules_of(h.number)
        said = REGISTRY[spec.kind].said(spec, h, rules, seat, action_text, state.names)
    t = said_text(state, said or Said(seat, f"discards {_cards(len(words))}", f"discard {_cards(len(words))}"))
    if reveal:
        deck = state.variant.deck
        t.append(": ")
        t.append_text(cards_text(deck, [deck.parse(w) for w in words]))
    return t


def kind_said(state, h, seat: int, text: str) -> Text | None:
    """``seat``'s action ``text`` of hand ``h`` in the words of a phase of the hand that has
    words for it (``P1 chooses low: the lowest cards win``), or None."""
    rules = state.rules_of(h.number)
    for spec in rules.phases:
        said = REGISTRY[spec.kind].said(spec, h, rules, seat, text, state.names)
        if said is not None:
            return said_text(state, said)
    return None


def trumps_line(state, h, label: bool = True) -> Text:
    """``trumps ♦ (turned up 7♦)`` for a hand whose trumps come without a contract."""
    t = trump_text(h, state) if label else suit_text(h.trump)
    turned = getattr(h, "turned", -1)
    if turned is not None and turned >= 0:
        t.append(" (turned up ")
        t.append_text(card_text(state.variant.deck, turned))
        t.append(")")
    return t


def trump_named_text(state, h, seat: int) -> Text:
    """``P1 names trumps ♥`` / ``You name trumps ♥``."""
    name = _name(state, seat)
    return Text(f"{name} {_verb(name, 'names', 'name')} ") + trump_text(h, state)


def row_text(sheet, row) -> Text:
    """One sheet row in a line: ``hand 3  P0 +20 (340) · P1 +240 (580) — P1 8S made (9 tricks)``."""
    t = Text(f"hand {row.hand + 1}", style="bold")
    t.append("  ")
    if row.void:
        t.append("void, nothing written")
    else:
        for i, (name, e, tot) in enumerate(zip(sheet.columns, row.entries, row.totals)):
            if i:
                t.append(" · ", style="dim")
            t.append(f"{name} ")
            t.append(f"{e:+d}" if e else "0", style="green" if (e > 0) != sheet.lower_is_better and e else
                     ("red" if e else "dim"))
            t.append(f" ({tot})")
    if row.note:
        t.append(f" — {with_symbols(row.note)}", style="dim")
    return t


def hand_header(state, h) -> Text:
    """``Hand 3 — dealer P1 — widow K♦ A♦ 10♥`` (the cards dealt face up only);
    ``Hand 2 — dealer N — NS vulnerable, EW not`` when the variant has vulnerability."""
    t = Text(f"Hand {h.number + 1}", style="bold")
    t.append(f" — dealer {_name(state, h.dealer)}")
    vul = vulnerability_text(state, h)
    if vul is not None:
        t.append(" — ")
        t.append_text(vul)
    rules = state.rules_of(h.number)
    for spec in rules.phases:          # the phases' public words: cards dealt face up, passing
        for words in REGISTRY[spec.kind].header(spec, h, rules):
            t.append(" — ")
            t.append_text(styled(words))
    if rules.round_name:               # a round of a schedule: its name (the objective: round_objective)
        t.append(f" — {rules.round_name}", style="bold")
    return t


def round_objective(state, h) -> Text | None:
    """The objective of the round ``h`` is played in (a schedule of rounds), on a line of its own:
    a rule's title is cut at the terminal's width, and this is what the player most needs."""
    rules = state.rules_of(h.number)
    return Text(f"  {rules.objective}", style="italic") if rules.round_name and rules.objective else None


def phase_rows(state, h) -> list:
    """``(label, text)`` rows the hand's phase kinds draw of their public data (a turned card,
    a pile, the rows of a layout: :func:`~rulekit.engine.phases.base.shown_rows`); of rows with
    the same label the last one stands (a later phase says what became of an earlier one's card:
    the trick play's stock, a card turned under it and exchanged)."""
    rows: dict = {}
    for label, text in shown_rows(h, state.rules_of(h.number), state.names):
        rows.pop(label, None)
        rows[label] = text
    return list(rows.items())


def hand_summary(state, h, rows, plays_at: list | None = None) -> list:
    """The compact story of a finished hand for ``--auto``: header, auction, contract,
    exchange, one line per trick (the turn actions of trick play between them, with
    ``plays_at``), then the hand's sheet row(s)."""
    out = [hand_header(state, h)]
    objective = round_objective(state, h)
    if objective is not None:
        out.append(objective)
    # what the phases show (a card turned before the auction, a pile, a layout) comes first, as
    # at the table; the human screen draws it there too
    out += [Text(f"  {label}  {text}") for label, text in phase_rows(state, h)]
    # with ``plays_at`` (the cards played before each of ``h.actions``, as the game loop saw
    # them), the actions taken during trick play (an exchange, a meld, a close, a claim) are told
    # just before the trick whose card came next, in the order they were taken
    during: dict = {}
    early = list(range(len(h.actions)))   # indices in h.actions
    if h.tricks and plays_at is not None and len(plays_at) == len(h.actions):
        ends = list(itertools.accumulate(len(trick[1]) for trick in h.tricks))
        early = []
        for i, ((s, a), plays) in enumerate(zip(h.actions, plays_at)):
            said = kind_said(state, h, s, a) if plays else None
            if said is None:
                early.append(i)
            else:
                during.setdefault(bisect.bisect_right(ends, plays), []).append(said)
    # the actions taken before the first call (the dealer naming trumps for a turned card) are
    # told before the auction, in their order
    first_call = h.actions.index(h.calls[0]) if h.calls and h.calls[0] in h.actions else 0
    before = [h.actions[i] for i in early if i < first_call]
    k = _early_lines(state, h, before, out, 0)
    if h.calls:
        t = Text("  auction   ", style="dim")
        t.append_text(auction_text(state, h))
        out.append(t)
    ct = contract_text(state, h)
    if ct is not None:
        t = Text("  contract  ", style="dim")
        t.append_text(ct)
        out.append(t)
    elif h.ctx is not None and h.trump != "NT" and not any(a.startswith("trump ") for _s, a in before):
        out.append(Text("  ") + trumps_line(state, h))
    _early_lines(state, h, [h.actions[i] for i in early if i >= first_call], out, k)
    for s, a in h.actions:
        if a.startswith("turned "):
            out.append(Text(f"  {_name(state, s)}'s cards {a}"))
    for i in range(len(h.tricks) + 1):
        out += [Text("  ") + said for said in during.get(i, [])]
        if i < len(h.tricks):
            out.append(Text("  ") + trick_text(state, h, i))
    for r in rows:
        t = Text("  ")
        t.append_text(row_text(state.sheet, r))
        out.append(t)
    return out


def _early_lines(state, h, actions: list, out: list, k: int) -> int:
    """Append to ``out`` the story lines of ``actions`` (discards, trumps named, a kind's own
    words) taken outside trick play; ``k`` the discards told so far; returns the new count."""
    for s, a in actions:
        if a.startswith("discard "):
            t = Text("  ")
            t.append_text(exchange_text(state, h, a, s, reveal=False, spec=discard_phase(state, h, k)))
            k += 1
            out.append(t)
        elif a.startswith("trump "):
            if made_text(state, h) is None:   # else the contract row says it
                out.append(Text("  ") + trump_named_text(state, h, s))
        elif (said := kind_said(state, h, s, a)) is not None:   # a kind's own words (high, low)
            out.append(Text("  ") + said)
    return k


def partnership(variant) -> bool:
    """True when partners score together (some side has more than one seat)."""
    return any(len(side) > 1 for side in variant.sides)


def seat_label(state, seat: int) -> str:
    """The seat's name, with its place at the table when the name differs (``You (S)``)."""
    name = _name(state, seat)
    seats = state.variant.seat_names
    place = seats[seat] if seat < len(seats) else ""
    return f"{name} ({place})" if place and place != name and partnership(state.variant) else name


def vulnerability_text(state, h) -> Text | None:
    """``NS vulnerable, EW not`` (vulnerable sides first), ``NS and EW vulnerable``, ``NS and EW not
    vulnerable``; None when the variant knows no vulnerability (and none was given for this deal)."""
    return _vulnerability(state.variant, getattr(h, "vulnerable", ()))


def _vulnerability(v, vulnerable) -> Text | None:
    """:func:`vulnerability_text` of the vulnerability per score column ``vulnerable``."""
    vul = list(vulnerable or ())[:len(v.side_names)]
    if not v.scoring.by_side or (not v.vulnerability and not any(vul)):
        return None
    vul += [False] * (len(v.side_names) - len(vul))
    yes = [n for n, x in zip(v.side_names, vul) if x]
    no = [n for n, x in zip(v.side_names, vul) if not x]
    if not no:
        return Text(f"{' and '.join(yes)} vulnerable", style="bold red")
    if not yes:
        return Text(f"{' and '.join(no)} not vulnerable")
    t = Text(f"{' and '.join(yes)} vulnerable", style="bold red")
    t.append(f", {' and '.join(no)} not")
    return t


def games_text(state) -> Text | None:
    """``NS 60, EW 0 toward 100; games won NS 1, EW 0`` for variants played in games
    (``match.game``); None otherwise."""
    v = state.variant
    target = getattr(v.match, "game_target", None)
    progress = getattr(state, "progress", None)
    if not target or progress is None:
        return None
    cols = state.sheet.columns
    t = Text(", ".join(f"{c} {x}" for c, x in zip(cols, progress.game_score)) + f" toward {target}")
    if any(progress.games):
        t.append("; games won " + ", ".join(f"{c} {x}" for c, x in zip(cols, progress.games)))
    return t


def auction_table(state, h, viewer: int) -> Table:
    """The auction of ``h`` as players write it: one column per seat, ``viewer``'s seat last
    (W N E S for South), the dealer's (first caller's) first call under his column, and ``?``
    where the next call goes while the auction is open."""
    open_ = state.hand is h and role_of(state.phase_kind) == "auction" and h.to_move >= 0
    return _auction_grid(state, h.calls, viewer, h.to_move if open_ else -1)


def _auction_grid(state, calls_made, viewer: int, next_caller: int) -> Table:
    """:func:`auction_table` of the calls ``calls_made``, ``?`` under ``next_caller`` (>= 0)."""
    v = state.variant
    n = v.players
    order = [(viewer + 1 + k) % n for k in range(n)]
    t = Table(show_header=True, box=None, padding=(0, 2, 0, 0), header_style="bold")
    for s in order:
        t.add_column(seat_label(state, s), justify="left", min_width=4)
    calls = [(s, call_text(a)) for s, a in calls_made]
    if next_caller >= 0:
        calls.append((next_caller, Text("?", style="bold")))
    # each call under its caller's column: a seat that has passed for good is skipped by the
    # auction, and its cell stays empty instead of shifting the later calls (issue 12 case 16)
    row: list = []
    for s, cell in calls:
        col = order.index(s)
        if len(row) > col:
            t.add_row(*(row + [Text("")] * (n - len(row))))
            row = []
        row += [Text("")] * (col - len(row)) + [cell]
    if row:
        t.add_row(*(row + [Text("")] * (n - len(row))))
    return t


def score_sheet(state, we: int = 0, title: str = "Score sheet"):
    """The score sheet in the layout the variant declares (``sheet.layout``: columns, WE/THEY,
    bula...), drawn by :func:`rulekit.sheets.render.sheet_renderable` so that ``play``,
    ``replay`` and ``score`` show the same sheet; ``we`` = the column shown as WE."""
    return sheet_renderable(state, we=we, title=title)


def settlement_text(state) -> Text | None:
    """``settlement: EW pay NS 5 (difference 520 points)`` at the end of a match whose variant
    settles in units: its ``match.settle`` of the difference of the totals (in hundreds for rubber
    bridge, rules/bridge.md [S10]); None otherwise."""
    res = state.result()
    units = res.get("settlement")
    if units is None:
        return None
    totals = res["totals"]
    cols = state.sheet.columns
    ranked = sorted(range(len(totals)), key=lambda c: -totals[c])
    diff = totals[ranked[0]] - (totals[ranked[1]] if len(ranked) > 1 else 0)
    t = Text("settlement: ", style="bold")
    if diff == 0 or len(ranked) < 2:
        t.append("nothing to pay (the totals are level)")
        return t
    losers = " and ".join(cols[c] for c in ranked[1:])
    t.append(f"{losers} pay{'s' if len(ranked) == 2 and not partnership(state.variant) else ''} "
             f"{cols[ranked[0]]} {units}")
    t.append(f" (difference {diff} points)", style="dim")
    return t


def table_view(state, seat: int) -> Table:
    """What ``seat`` sees: hand, widow, auction, contract, vulnerability, trick, tricks won, totals.

    Every card comes from ``state.observation(seat)`` (the one function that decides what a
    seat may see, for bots and people alike); the rows of public facts are the words the story
    of a hand uses (the contract, what the phases show, :func:`phase_rows`), and the current
    phase adds its own rows for the seat (:meth:`~rulekit.engine.phases.base.PhaseKind.seat_rows`).
    In partnership games the auction is drawn as a table with ``seat``'s column last, and
    when ``seat`` decides for the dummy, the dummy's row says that it is to play.
    """
    obs = state.observation(seat)
    v = obs.variant
    h = state.hand                     # public facts only: the contract's words, the phases' rows
    deck = v.deck
    names = state.names
    ctx = view_context(v, obs.trump, obs.group)
    role = role_of(obs.phase)
    pairs = partnership(v)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", justify="right")
    grid.add_column()
    grid.add_row("hand", Text(f"{obs.hand_number + 1}, dealer {names[obs.dealer]}"))
    vul = _vulnerability(v, obs.vulnerable)
    if vul is not None:
        grid.add_row("vulnerable", vul)
    kind = REGISTRY.get(obs.phase)
    rows = (kind.seat_rows(obs, names) if kind is not None else []) + phase_rows(state, h)
    drawn = {label for label, _t in rows}   # (a zone a phase draws itself: its own words stand)
    for z, up in obs.zones.items():
        if z in drawn:
            continue
        if up:
            grid.add_row(Text(z), cards_text(deck, bits(up)))
        else:
            grid.add_row(Text(z), Text(f"{_cards(obs.hidden_zones.get(z, 0))} face down", style="dim"))
    if pairs and role == "auction":
        grid.add_row("auction", _auction_grid(state, obs.calls, seat, obs.to_move))
    elif obs.calls and not (pairs and obs.contract):
        grid.add_row("auction", _calls_line(state, obs.calls))
    ct = contract_text(state, h)
    if ct is not None and (obs.contract or role == "play"):
        grid.add_row("contract", ct)
    elif ct is None and obs.trump != "NT":
        grid.add_row("trumps", trumps_line(state, h, label=False))
    taken = 0
    if role == "exchange" and obs.declarer == seat:
        taken = obs.taken
        grid.add_row("from widow", cards_text(deck, bits(taken)))
    if obs.discards:
        grid.add_row("discarded", cards_text(deck, bits(obs.discards)))
    for c in bits(obs.exposed):
        grid.add_row("turned up", card_text(deck, c))
    dummy = obs.dummy
    if dummy >= 0 and dummy != seat and (obs.tricks or obs.trick or obs.to_move == dummy):
        label = Text(f"dummy {names[dummy]}")
        cards = _cards_row(v, ctx, obs.dummy_hand)
        if obs.to_move == dummy and state.controller(dummy) == seat:
            label.stylize("bold")
            cards.append("   ← you play from here", style="bold")
        grid.add_row(label, cards)
    if obs.partner >= 0:
        grid.add_row("partner", Text(f"{names[obs.partner]} plays with {names[obs.declarer]} this hand"))
    for s in obs.open_seats:
        if obs.hands_seen[s]:
            grid.add_row(f"open {names[s]}", _cards_row(v, ctx, obs.hands_seen[s]))
    rows += [r for k in REGISTRY.values() for r in k.known_rows(obs, names)]   # a hidden party as he knows it
    for label, text in rows:           # where his cards go; a turned card, a pile, a layout's rows
        grid.add_row(label, styled(text))
    if kind is not None and kind.stands_for and obs.hand_sizes:   # no tricks to tell how many each holds
        grid.add_row("cards held", Text(", ".join(f"{names[s]} {obs.hand_sizes[s]}" for s in range(v.players))))
    target = target_text(state, h)
    if target is not None and role == "play":
        grid.add_row("to make", target)
    if role == "play":
        if obs.tricks:
            grid.add_row("last trick", trick_line(state, obs.tricks[-1], len(obs.tricks) - 1, label=False,
                                                   ctx=ctx))
        trick = Text()
        for i, (s, c) in enumerate(obs.trick):
            if i:
                trick.append(", ")
            trick.append(f"{names[s]} ")
            trick.append_text(played_text(deck, c, ctx))
        if obs.named:
            trick.append(" (follow ")
            trick.append_text(suit_text(obs.named))
            trick.append(f" {SUIT_NAMES.get(obs.named, '')})")
        if obs.to_move == seat:
            lead = "(you lead)"
        elif obs.to_move >= 0 and state.controller(obs.to_move) == seat:
            lead = f"(you lead from {names[obs.to_move]}'s hand)"
        elif obs.to_move >= 0:
            lead = f"({names[obs.to_move]} leads)"
        else:
            lead = "-"
        grid.add_row("trick", trick if obs.trick else Text(lead, style="dim"))
        if pairs and v.scoring.by_side:
            won = Text(", ".join(f"{name} {sum(obs.won[s] for s in side)}"
                                 for name, side in zip(v.side_names, v.sides)))
            won.append(f"  ({', '.join(f'{names[s]} {obs.won[s]}' for s in range(v.players))})", style="dim")
            grid.add_row("tricks won", won)
        else:
            grid.add_row("tricks won", Text(", ".join(f"{names[s]} {obs.won[s]}" for s in range(v.players))))
        if v.has_card_points:          # games scored by the cards taken (issue 12 case 19)
            cards_won = [0] * v.players
            for _l, plays, winner, _n in obs.tricks:
                for _s, c in plays:
                    cards_won[winner] |= 1 << c
            grid.add_row("card points", Text(", ".join(f"{names[s]} {card_points(v, cards_won[s], ctx)}"
                                                       for s in range(v.players))))
        for label, counts in running_tallies(v, obs):     # what the hand scores so far (hearts taken)
            grid.add_row(label, Text(", ".join(f"{c} {x}" for c, x in zip(state.sheet.columns, counts))))
    totals = Text(", ".join(f"{c} {t}" for c, t in zip(state.sheet.columns, obs.totals)))
    totals.append("  (lowest total wins)" if v.scoring.lower_is_better else "  (highest total wins)", style="dim")
    grid.add_row("totals", totals)
    games = games_text(state)
    if games is not None:
        grid.add_row("game", games)
    mine = Text("your hand")
    if obs.to_move == seat and role == "play" and dummy >= 0 and state.controller(dummy) == seat:
        mine.stylize("bold")
    grid.add_row(mine, _own_hand(obs, mark=taken))
    return grid


def running_tallies(variant, obs) -> list:
    """``(label, counts per score column)`` of each tally of the cards in won tricks that the
    hand's scoring counts (``hearts taken``, ``queens taken``, ``last two taken``), from the tricks
    played so far (public); a tally of dealt cards or of the highest card in play is not shown
    (it depends on cards not yet seen)."""
    from types import SimpleNamespace
    from rulekit.engine.scoring import tally_counts
    shown = [i for i, t in enumerate(variant.scoring.tallies) if t.where == "tricks" and not t.pick
             and not t.party]   # (a party tally would show a hidden party)
    if not shown:
        return []
    ctx = view_context(variant, obs.trump, obs.low)
    played = SimpleNamespace(dealt=[0] * variant.players, trump=obs.trump, tricks=obs.tricks, ctx=ctx)
    won = [0] * variant.players
    for _l, plays, winner, _n in obs.tricks:
        for _s, c in plays:
            won[winner] |= 1 << c
    counts = tally_counts(variant, played, won)
    return [(variant.scoring.tallies[i].name.replace("_", " ") + " taken", [col[i] for col in counts])
            for i in shown]


def target_text(state, h) -> Text | None:
    """What the declarer's side must take (``N 8 tricks``; ``N and S together 9 tricks`` with a
    partner for the hand; ``N no trick`` for a null), found from the variant's own ``made``
    formula: the fewest tricks of the declarer's side that make the contract, when every count
    from there up makes it and none below; None without a contract, or when ``made`` is not a
    matter of tricks (card points) or not monotone."""
    from rulekit.engine.scoring import column_of, envs_for
    v = state.variant
    made = v.scoring.made
    if h.contract is None or h.declarer < 0 or made is None:
        return None
    reads = getattr(made, "names", None)
    if reads is not None and not reads & {"tricks", "declarer_tricks", "side_tricks"}:
        return None
    n = v.players
    col = column_of(v, h.declarer)
    team = [s for s in range(n) if column_of(v, s) == col or s in (h.declarer, h.partner) and h.partner >= 0]
    rest = [s for s in range(n) if s not in team]
    total = len(h.tricks) + max(m.bit_count() for m in h.hands)
    extra = {"vulnerable": h.vulnerable, "doubled": h.doubled, "partner": h.partner,
             "game_score": getattr(state.progress, "game_score", None)}
    makes = []
    try:
        for t in range(total + 1):
            won = [0] * n
            won[h.declarer] = t
            if rest:
                won[rest[0]] = total - t
            envs = envs_for(v, h.contract, h.declarer, h.trump, won, [0] * n, extra)
            makes.append(bool(made(envs[col])))
    except (RulekitError, ArithmeticError, ValueError, TypeError, IndexError, KeyError):
        return None
    if True not in makes:
        return None
    least = makes.index(True)
    if least == 0 and makes.count(True) == 1:
        aim = "no trick"
    elif all(makes[least:]):
        aim = f"{least} trick{'' if least == 1 else 's'}"
    else:
        return None
    if least == 0 and aim != "no trick":
        return None
    names = state.names
    if h.partner >= 0:
        who = f"{names[h.declarer]} and {names[h.partner]} together"
    elif len(team) > 1 and v.scoring.by_side:
        who = state.sheet.columns[col]
    else:
        who = names[h.declarer]
    return Text(f"{who} {aim}")


def card_points(variant, cards: int, ctx=None) -> int:
    """The card points (``deck.card_points``, or the trump choice ``ctx``'s table with
    ``deck.trump_points``) of the cards of bitmask ``cards``."""
    pts = variant.points_table(ctx)
    return sum(pts[c] for c in bits(cards))


def bid_worth(state, bid) -> int | None:
    """What ``bid`` (a :class:`~rulekit.variant.model.Bid`) brings its bidder, the seat to move, when
    it is made exactly: his column's entry (all score parts, not doubled, this hand's vulnerability)
    for the fewest tricks that give a positive entry; None when no count does, or the formula fails.
    From the variant's own scoring formulas (issue 12 case 20): ``7C`` is worth 160 in Five Hundred;
    a bid whose trumps are named later, the least it is worth in any suit."""
    from rulekit.engine.scoring import made_worth
    v = state.variant
    if bid.strain == "chosen":  # trumps named later: the least it is worth in a suit
        from dataclasses import replace
        worths = [w for w in (bid_worth(state, replace(bid, strain=x)) for x in v.deck.suits) if w is not None]
        return min(worths) if worths else None
    return made_worth(v, bid, state.to_move, tuple(getattr(state.hand, "vulnerable", ()) or ()))


def worth_words(state, bid) -> str | None:
    """:func:`bid_worth` as the prompt says it (:func:`rulekit.engine.scoring.worth_words`):
    ``160``; ``at least 20`` when the scoring also reads counts of cards (tallies: Bridge's
    honours [S7]) that can only raise it, ``at most N`` when they can only lower it; ``None``
    when there is no figure."""
    from rulekit.engine.scoring import worth_words as words
    return words(state.variant, bid, state.to_move, tuple(getattr(state.hand, "vulnerable", ()) or ()))


def legal_text(state) -> Text:
    """The answer to ``?``: the legal actions, as typed.

    A long list of discards (every choice of N cards) is summarised instead.
    """
    legal = state.legal_actions()
    # a lazy sequence holds discard choices only (every choice of N cards: 20 million for 14 of
    # 27), so neither its kinds nor the cards it offers are found by building every choice
    lazy = not isinstance(legal, list)
    if len(legal) > 30 and (lazy or all(a.kind == "discard" for a in legal)):
        deck = state.variant.deck
        n = legal[0].cards.bit_count()
        held = 0
        for a in (legal if not lazy else ()):
            held |= a.cards
        if lazy:
            held = state.hand.hands[state.to_move]
        word = state.discard_word()   # "pass" in a passing phase (user pass 2, finding 3)
        t = Text(f"{word} any {n} of your cards ({len(legal)} choices), e.g. {state.action_text(legal[0])}: ")
        t.append_text(cards_text(deck, sorted_cards(state, state.hand.hands[state.to_move] & held)))
        return t
    bids = {b.text: b for b in state.current_bids()}
    out = []
    typed = _plain_copies(state, legal)
    for a in legal:
        bid = bids.get(a.text) if a.kind == "bid" else None
        worth = worth_words(state, bid) if bid is not None else None
        value = getattr(bid, "value", None)
        if worth is None and value is not None:   # a contract of a list
            worth = str(value)
        # "(worth N)" reads as a remark, not part of the call; typed with it, it is accepted
        text = typed.get(id(a)) or state.action_text(a)
        out.append(text if worth is None else f"{text} (worth {worth})")
    return Text("legal: " + ", ".join(dict.fromkeys(out)))


def _plain_copies(state, legal: list) -> dict:
    """``id(action) -> text`` of each legal play of a copied card (``play AD:2``) whose plain text
    (``play AD``) plays a legal copy too: the copies are alike, so the list says the card once, as
    the hand shows it; a copy that must be named keeps its number."""
    deck = state.variant.deck
    if not deck.has_copies:
        return {}
    texts = {state.action_text(a) for a in legal}
    out = {}
    for a in legal:
        words = state.action_text(a).split()
        if a.kind != "play" or len(words) < 2 or COPY not in words[1]:
            continue
        plain = " ".join([words[0], words[1].partition(COPY)[0]] + words[2:])
        try:
            if state.action_text(state.parse_action(plain)) in texts:
                out[id(a)] = plain
        except RulekitError:
            pass
    return out


#: a remark of a legal list typed after the call (``7C (worth 160)``): not part of the action
WORTH_REMARK = re.compile(r"\s*\(\s*(?:worth\s+)?(?:at\s+(?:least|most)\s+)?-?\d+\s*\)\s*$", re.IGNORECASE)


def winner_text(state) -> Text:
    """``P2 wins (reached 500).`` (``You win``; several winners joined with ``and``);
    ``NS win: N and You (1 rubber played).`` when sides score."""
    v = state.variant
    cols = getattr(state, "winning_columns", None)
    if v.scoring.by_side and partnership(v) and cols is None:
        cols = sorted({v.side_of[s] for s in state.winners})
    if v.scoring.by_side and partnership(v) and cols:
        sides = " and ".join(state.sheet.columns[c] for c in cols)
        who = " and ".join(state.names[s] for s in state.winners)
        if len(cols) > 1:  # equal best totals, no tie rule settled it: a tie, not everyone winning
            return Text.assemble(Text(f"A tie: {sides}", style="bold"), f" ({state.end_reason}).")
        return Text.assemble(Text(f"{sides} win", style="bold"), f": {who} ({state.end_reason}).")
    names = [state.names[s] for s in state.winners]
    verb = "win" if len(names) != 1 or names[0] == "You" else "wins"
    out = Text.assemble(Text(f"{' and '.join(names)} {verb}", style="bold"), f" ({state.end_reason}).")
    if len(names) > 1 and not v.scoring.by_side:  # equal best totals: a tie
        out = Text.assemble(Text(f"A tie: {' and '.join(names)}", style="bold"), f" ({state.end_reason}).")
    finals = state.result().get("final")
    if finals is not None:  # match.final: a result per column besides the totals
        low = v.scoring.lower_is_better
        cols = state.sheet.columns
        out.append("\nfinal results (" + ("lower" if low else "higher") + " is better): "
                   + ", ".join(f"{cols[c]} {x:+d}" for c, x in enumerate(finals)))
        if low:
            out.append("\nthe same, higher is better: " + ", ".join(f"{cols[c]} {-x:+d}" for c, x in enumerate(finals)))
    return out


def action_words(state, text: str) -> Text:
    """An action's text for people: a card played as the card (``7♣``, ``JK naming ♥``), a call as
    :func:`call_text` writes it, other words as they are."""
    words = text.split()
    deck = state.variant.deck
    if words and words[0] == "play" and len(words) >= 2:
        try:
            t = card_text(deck, deck.parse(words[1]))
        except RulekitError:
            return Text(text)
        if len(words) > 2:
            t.append(" naming ")
            t.append_text(suit_text(words[2]))
        return t
    if words and words[0] == "discard":
        return Text(state.discard_word() + " ") + styled(" ".join(_pretty_card(deck, w) for w in words[1:]))
    return call_text(text)


def _pretty_card(deck, word: str) -> str:
    try:
        return deck.face(deck.parse(word))
    except RulekitError:
        return word


def hint_text(state, action, notes: list) -> Text:
    """The answer to ``hint``, in one line: the bot's choice and what it rests on — per candidate
    its mean outcome (its column's entry less the others' mean) over the deals it sampled, best
    first (``hint: Q♠ — mean outcome over sampled deals: Q♠ +35.0 (10 deals), 7♥ -20.0 (3)``), a
    bid's share of deals made, or the rule it chose by."""
    t = Text("hint: ", style="bold")
    t.append_text(action_words(state, state.action_text(action)))
    chosen = state.action_text(action)
    valued = sorted((n for n in notes if len(n) >= 3),
                    key=lambda n: (state.action_text(n[0]) != chosen, -n[1]))
    rules = [n[0] for n in notes if len(n) == 1]
    if valued:
        t.append(" — mean outcome over sampled deals (your score less the others' mean): ")
        for i, note in enumerate(valued[:5]):
            if i:
                t.append(", ")
            t.append_text(action_words(state, state.action_text(note[0])))
            t.append(f" {note[1]:+.1f} ({note[2]} deal{'s' if note[2] != 1 else ''}")
            if len(note) > 3:
                t.append(f", made in {note[3]:.0%}")
            t.append(")")
        if len(valued) > 5:
            t.append(f", and {len(valued) - 5} more")
    for words in rules:
        t.append(f"; {words}" if valued else f" — {words}")
    return t


def open_hand_text(state, seat: int) -> Text:
    """``seat``'s cards as he shows them to the table (a claimer laying his hand face up)."""
    return _cards_row(state.variant, _state_context(state), state.hand.hands[seat])


def _suit_lines(variant, mask: int) -> Text:
    """A hand as a diagram draws it: one line per printed suit (``♠ A K 7 3``, ``♥ —`` for none),
    high cards first, then a line of the cards of no suit (jokers)."""
    deck = variant.deck
    nt = view_context(variant, "NT", "")
    t = Text()
    for i, su in enumerate(suit_order(deck)):
        if i:
            t.append("\n")
        t.append_text(suit_text(su))
        cards = sorted((c for c in bits(mask) if deck.suit_of(c) == su), key=lambda c: -nt.strength[c])
        t.append(" " + (" ".join(deck.rank_of(c) for c in cards) if cards else "—"),
                 style=SUIT_STYLE.get(su, "") if cards else "dim")
    others = [c for c in bits(mask) if deck.suit_of(c) not in deck.suits]
    if others:
        t.append("\n")
        t.append_text(cards_text(deck, others))
    return t


def deal_diagram(state, hands: list, viewer: int, counts: list | None = None, title: str = "") -> Table:
    """The table as a diagram: each seat's cards by suit (:func:`_suit_lines`) at its place, the
    viewer at the bottom, the next seat in seat order on his left, the one opposite at the top
    (four players; three: left and right on top; other numbers: one row per seat).

    :param hands: per seat, the cards to draw, or ``None`` for a hand not shown (then
        ``counts[seat]`` cards face down).
    """
    v = state.variant
    n = v.players

    def block(s: int) -> Text:
        t = Text(seat_label(state, s), style="bold")
        t.append("\n")
        if hands[s] is None:
            k = (counts or [0] * n)[s]
            t.append(f"{_cards(k)} face down", style="dim")
        else:
            t.append_text(_suit_lines(v, hands[s]))
        return t

    grid = Table.grid(padding=(0, 4))
    if title:
        grid.title = title
        grid.title_justify = "left"
    if n == 4:
        left, top, right = (viewer + 1) % n, (viewer + 2) % n, (viewer + 3) % n
        for _ in range(3):
            grid.add_column()
        grid.add_row(Text(""), block(top), Text(""))
        grid.add_row(block(left), Text(""), block(right))
        grid.add_row(Text(""), block(viewer), Text(""))
    elif n == 3:
        left, right = (viewer + 1) % n, (viewer + 2) % n
        grid.add_column()
        grid.add_column()
        grid.add_row(block(left), block(right))
        grid.add_row(block(viewer), Text(""))
    else:
        for _ in range(min(n, 4)):
            grid.add_column()
        order = [(viewer + 1 + k) % n for k in range(n)]
        for i in range(0, n, 4):
            row = [block(s) for s in order[i:i + 4]]
            grid.add_row(*(row + [Text("")] * (min(n, 4) - len(row))))
    return grid


def dealt_diagram(state, h, viewer: int) -> Table:
    """Every hand of the finished hand ``h`` as dealt (public once the hand is over), with the
    cards dealt to no player (a widow, a talon) below."""
    v = state.rules_of(h.number)
    grid = deal_diagram(state, list(h.dealt), viewer, title=f"hand {h.number + 1} as dealt")
    rest = v.deck.full_mask
    for m in h.dealt:
        rest &= ~m
    if rest and any(h.dealt):
        t = Text("not dealt to a player: ", style="dim")
        t.append_text(cards_text(v.deck, display_order(v, view_context(v, "NT", ""), rest)))
        grid.add_row(t)
    return grid


def seen_diagram(state, seat: int, others_shown: bool = True) -> Table:
    """The hands ``seat`` sees now at their places (his own, the dummy's once it is down, hands
    laid open), the others face down with their sizes: from ``state.observation(seat)`` only.

    :param others_shown: draw ``seat``'s own hand (False: several people at one terminal, where
        only the public hands may be drawn for all to see)."""
    obs = state.observation(seat)
    hands = [m if m and (s != seat or others_shown) else None for s, m in enumerate(obs.hands_seen)]
    return deal_diagram(state, hands, seat, counts=obs.hand_sizes)
