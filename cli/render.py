"""Rich renderings of cards, hands, the table and the score sheet (terminal only).

Everything here is a pure function of a :class:`~rulekit.engine.State` (or a
finished :class:`~rulekit.engine.hand.Hand`) returning rich ``Text`` or
``Table`` objects; ``cli/game.py`` decides what to print and when.  Colours
follow rich's rules (``NO_COLOR``, ``TERM=dumb`` and pipes print plain text):
hearts and diamonds red, spades and clubs bold, the joker magenta.
"""
from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text

from rulekit.cards import SUIT_NAMES, SUIT_SYMBOLS, bits
from rulekit.engine.phases import REGISTRY
from rulekit.engine.phases.deal import deal_plan
from rulekit.engine.phases.pass_cards import physical_side
from rulekit.errors import RulekitError
from rulekit.sheets.render import sheet_renderable

SUIT_STYLE = {"H": "bold red", "D": "bold red", "S": "bold", "C": "bold"}


def role_of(kind: str) -> str:
    """The role of phase kind ``kind`` (``auction``, ``play``...; ``""`` for ``over``)."""
    k = REGISTRY.get(kind)
    return k.role if k is not None else ""


def phase_label(kind: str) -> str:
    """The prompt label of phase kind ``kind`` ("You (bid) > "): the kind's own ``label``."""
    k = REGISTRY.get(kind)
    return (k.label if k is not None and k.label else kind.replace("_", " "))

_BID = re.compile(r"^(\d+)([SHDC])$")
# C0 controls but newline, DEL, and the C1 controls (0x9b is a one-byte CSI on some terminals)
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` with its control characters made visible, so that a name read from a file cannot
    clear the screen or retitle the window (issue 13 case 6): ESC is shown as ``^[``, another C0
    control as ``^X``, DEL as ``^?``, a C1 control as ``\\x9b``; newlines are kept."""
    def show(m):
        c = ord(m.group())
        if c < 0x20:
            return "^" + chr(c + 64)
        return "^?" if c == 0x7f else f"\\x{c:02x}"
    return _CONTROL.sub(show, text)


def _name(state, seat: int) -> str:
    return state.names[seat]


def _verb(name: str, third: str, base: str) -> str:
    """``P1 takes`` but ``You take``."""
    return base if name == "You" else third


def suit_text(suit: str) -> Text:
    """A suit letter as its coloured symbol (``H`` -> red ``♥``); ``NT`` stays ``NT``."""
    return Text(SUIT_SYMBOLS.get(suit, suit), style=SUIT_STYLE.get(suit, ""))


def card_text(deck, c: int) -> Text:
    """A card with a coloured suit symbol (``10♥`` in red)."""
    if deck.is_joker(c):
        return Text(deck.name(c), style="bold magenta")
    s = deck.suit_of(c)
    return Text(deck.name(c)[:-1] + SUIT_SYMBOLS.get(s, s), style=SUIT_STYLE.get(s, ""))


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


def _context(state):
    h = state.hand
    return h.ctx or state.variant.contexts.get("NT") or next(iter(state.variant.contexts.values()))


def sorted_cards(state, mask: int) -> list:
    """The cards of ``mask`` in display order: grouped by effective suit of the current context
    (trumps first, bowers and jokers with them), suits in :func:`suit_order`, high cards first."""
    deck = state.variant.deck
    ctx = _context(state)
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
    """The seat's hand grouped by effective suit, trumps first, then alternating colours, high
    cards first (:func:`sorted_cards`).

    :param mark: bitmask of cards to underline (cards just taken from the widow).
    """
    from rulekit.engine.phases.base import own_hand_hidden
    if own_hand_hidden(state, seat):   # a blind decision first: his cards stay face down
        return Text(f"{_cards(state.hand.hands[seat].bit_count())} face down (not looked at yet)", style="dim")
    deck = state.variant.deck
    ctx = _context(state)
    t = Text()
    last = None
    for c in sorted_cards(state, state.hand.hands[seat]):
        g = ctx.group_of[c]
        if last is not None:
            t.append("  " if g != last else " ")
        ct = card_text(deck, c)
        if mark >> c & 1:
            ct.stylize("underline")
        t.append_text(ct)
        last = g
    return t


def dealt_zones(state, h) -> dict:
    """Zone name -> bitmask of the cards dealt to it in hand ``h``, whatever happened since."""
    out: dict = {}
    for target, c in zip(deal_plan(state.variant.phase("deal"), state.variant.players), h.deck_order):
        if target.__class__ is str:
            out[target] = out.get(target, 0) | 1 << c
    return out


def trump_text(h, state=None) -> Text:
    """``trumps ♥``, ``no trump``, or ``trumps not named yet`` (a contract whose declarer names them);
    with ``state``, ``trumps: the first card led`` until the first lead of a hand whose first lead
    makes trumps (``tricks.first_lead_trump``)."""
    if state is not None and h.trump == "NT" and not h.tricks and not h.trick and any(
            getattr(p, "first_lead_trump", False) for p in state.rules_of(h.number).phases):
        return Text("trumps: the first card led")
    if (h.contract is not None and getattr(h.contract, "strain", "") == "chosen"
            and not any(a.startswith("trump ") for _s, a in h.actions)):
        return Text("trumps not named yet")
    low = ", low cards win" if h.ctx is not None and h.ctx.low else ""  # a low-wins contract
    if h.trump == "NT":
        return Text("no trump" + low)
    t = Text("trumps ")
    t.append_text(suit_text(h.trump))
    t.append(low)
    return t


def wins_text(state, seat: int, word: str) -> Text:
    """``P1 chooses low: the lowest cards win`` (a contract that left the order open)."""
    name = _name(state, seat)
    return Text(f"{name} {_verb(name, 'chooses', 'choose')} {word}: the "
                f"{'highest' if word == 'high' else 'lowest'} cards win")


def auction_text(state, h) -> Text:
    """The calls of hand ``h`` in one line: ``P1 pass · P2 7♥ · You 8♠``."""
    t = Text()
    for i, (s, a) in enumerate(h.calls):
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
    """How an order-up auction ended, in words (user pass (gallery) finding 1): ``N orders up
    J♥, trumps ♥`` / ``You take J♥, trumps ♥`` (the phase's ``word``) in the first round,
    ``S names trumps ♠`` in the second, ``, alone`` for a lone caller; None for another auction
    or before anyone called."""
    d = h.phase_state.get("order_up")
    if d is None or d.maker < 0 or h.trump == "NT":
        return None
    spec = next((p for p in state.rules_of(h.number).phases if p.kind == "order_up"), None)
    word = getattr(spec, "word", "order")
    name = _name(state, d.maker)
    if d.round == 1:
        third = word if word.endswith("s") else word + "s"
        t = Text(f"{name} {_verb(name, third, word)}{' up' if word == 'order' else ''} ")
        t.append_text(card_text(state.variant.deck, d.turned))
        t.append(", ")
        t.append_text(trump_text(h))
    else:
        t = trump_named_text(state, h, d.maker)
    if d.alone:
        t.append(", alone")
    return t


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
    """Completed trick ``i`` (0-based) of ``h``: ``trick 3  P1 K♠  P2 7♠  You A♠  → P1``."""
    deck = state.variant.deck
    trick = h.tricks[i]
    plays, winner = trick[1], trick[2]
    named = trick[3] if len(trick) > 3 else ""
    t = Text(f"trick {i + 1:>2} " if label else "", style="dim")
    for k, (s, c) in enumerate(plays):
        t.append(f"{'  ' if k else ' '}{_name(state, s)} ")
        t.append_text(card_text(deck, c))
        if named and s == trick[0]:
            t.append(" naming ")
            t.append_text(suit_text(named))
    t.append("  → ")
    t.append(_name(state, winner), style="bold")
    return t


def _cards(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def discard_phase(state, h, k: int):
    """The spec of the phase that made the ``k``-th (0-based) discard of hand ``h``: the
    ``k``-th phase of the variant whose kind takes discards, or None."""
    slots = []
    for p in state.rules_of(h.number).phases:
        if p.kind == "pass_cards":      # one discard per player, none in a deal that holds
            slots += [p] * (state.variant.players if "pass_cards" in h.phase_state else 0)
        elif p.kind == "trick_bids":    # a blind nil exchange: each way, per blind nil with a partner
            d = h.phase_state.get("trick_bids")
            slots += [p] * (2 * len(d.blind) if d is not None and getattr(p, "blind_exchange", 0) else 0)
        elif p.kind in _DISCARD_VERBS:
            slots.append(p)
    return slots[k] if 0 <= k < len(slots) else None


def _pass_words(d: str, variant) -> str:
    """``to the left``, ``to the right``, ``across``: the side at the table.  A file's ``left`` is
    the next player in the direction of play, on the right in a counter-clockwise game
    (user pass 2, finding 7)."""
    return "across" if d == "across" else f"to the {physical_side(d, variant)}"


def passing_text(state, h) -> str | None:
    """``passing to the left`` / ``no passing (hold)`` for a hand with a ``pass_cards`` phase
    (its direction by deal); None without one."""
    from rulekit.engine.phases.pass_cards import direction
    spec = next((p for p in state.rules_of(h.number).phases if p.kind == "pass_cards"), None)
    if spec is None:
        return None
    d = direction(spec, h.number)
    return "no passing (hold)" if d == "hold" else f"passing {_pass_words(d, state.variant)}"


def _pile(spec) -> str:
    """What a widow exchange takes: the phase's own name (``talon``), unless that name only
    says the act (``exchange``), then its zone (``widow``)."""
    return spec.zone if spec.name in ("exchange", "discard", spec.kind) else spec.name


#: phase kind -> what a discard action of it does, in the third person and the second
_DISCARD_VERBS = {
    "widow_exchange": lambda spec, n: (f"takes the {_pile(spec)} and discards {_cards(n)}",
                                       f"take the {_pile(spec)} and discard {_cards(n)}"),
    "set_aside": lambda spec, n: (f"puts {_cards(n)} aside", f"put {_cards(n)} aside"),
    "pass_cards": lambda spec, n: (f"passes {_cards(n)}", f"pass {_cards(n)}"),
    # a blind nil exchange (user pass 2, finding 3)
    "trick_bids": lambda spec, n: (f"passes {_cards(n)} face down to his partner",
                                   f"pass {_cards(n)} face down to your partner"),
}


def _pass_target(state, h, seat: int) -> str:
    """`` to the left (to P2)``: where ``seat``'s passed cards go this hand."""
    from rulekit.engine.phases.pass_cards import direction, target
    spec = next(p for p in state.rules_of(h.number).phases if p.kind == "pass_cards")
    d = direction(spec, h.number)
    return f" {_pass_words(d, state.variant)} (to {_name(state, target(state.variant, d, seat))})"


def exchange_text(state, h, action_text: str, seat: int, reveal: bool, spec=None) -> Text:
    """What a seat did with a discard action, in its phase's own words:
    ``P1 takes the talon and discards 2 cards``, ``P1 puts 1 card aside``.

    :param reveal: show the discarded cards (to their owner only).
    :param spec: the phase that took the action (default: the hand's last discard's phase,
        :func:`discard_phase`).
    """
    name = _name(state, seat)
    words = action_text.split()[1:]
    if spec is None:
        spec = discard_phase(state, h, sum(a.startswith("discard ") for _s, a in h.actions) - 1)
    verbs = _DISCARD_VERBS.get(getattr(spec, "kind", ""))
    he, you = verbs(spec, len(words)) if verbs else (f"discards {_cards(len(words))}",
                                                     f"discard {_cards(len(words))}")
    said = _verb(name, he, you)
    if getattr(spec, "kind", "") == "pass_cards":
        said += _pass_target(state, h, seat)
    elif getattr(spec, "kind", "") == "trick_bids":
        said += f" ({_name(state, state.partner_of(seat))})"
    t = Text(f"{name} {said}")
    if reveal:
        deck = state.variant.deck
        t.append(": ")
        t.append_text(cards_text(deck, [deck.parse(w) for w in words]))
    return t


def trumps_line(state, h, label: bool = True) -> Text:
    """``trumps ♦ (turned up 7♦)`` for a hand whose trumps come without a contract."""
    t = trump_text(h) if label else suit_text(h.trump)
    turned = getattr(h, "turned", -1)
    if turned is not None and turned >= 0:
        t.append(" (turned up ")
        t.append_text(card_text(state.variant.deck, turned))
        t.append(")")
    return t


def trump_named_text(state, h, seat: int) -> Text:
    """``P1 names trumps ♥`` / ``You name trumps ♥``."""
    name = _name(state, seat)
    return Text(f"{name} {_verb(name, 'names', 'name')} ") + trump_text(h)


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
        t.append(f" — {row.note}", style="dim")
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
    for zone, cards in dealt_zones(state, h).items():
        if h.zone_up.get(zone):        # a zone dealt face down is nobody's to see (issue 12 case 3)
            t.append(f" — {zone} ")
            t.append_text(cards_text(state.variant.deck, bits(cards)))
    passing = passing_text(state, h)
    if passing is not None:
        t.append(f" — {passing}")
    rules = state.rules_of(h.number)
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
    a pile, the rows of a layout)."""
    rules = state.rules_of(h.number)
    out = []
    for name, data in h.phase_state.items():
        if name in REGISTRY:   # (a kind unregistered since: a test's toy kind)
            out += REGISTRY[name].show(data, rules)
    return out


def hand_summary(state, h, rows) -> list:
    """The compact story of a finished hand for ``--auto``: header, auction, contract,
    exchange, one line per trick, then the hand's sheet row(s)."""
    out = [hand_header(state, h)]
    objective = round_objective(state, h)
    if objective is not None:
        out.append(objective)
    # what the phases show (a card turned before the auction, a pile, a layout) comes first, as
    # at the table; the human screen draws it there too
    out += [Text(f"  {label}  {text}") for label, text in phase_rows(state, h)]
    if h.calls:
        t = Text("  auction   ", style="dim")
        t.append_text(auction_text(state, h))
        out.append(t)
    ct = contract_text(state, h)
    if ct is not None:
        t = Text("  contract  ", style="dim")
        t.append_text(ct)
        out.append(t)
    elif h.ctx is not None and h.trump != "NT":
        out.append(Text("  ") + trumps_line(state, h))
    k = 0
    for s, a in h.actions:
        if a.startswith("discard "):
            t = Text("  ")
            t.append_text(exchange_text(state, h, a, s, reveal=False, spec=discard_phase(state, h, k)))
            k += 1
            out.append(t)
        elif a.startswith("trump ") and made_text(state, h) is None:   # else the contract row says it
            out.append(Text("  ") + trump_named_text(state, h, s))
        elif a in ("high", "low"):
            out.append(Text("  ") + wins_text(state, s, a))
    for s, a in h.actions:
        if a.startswith("turned "):
            out.append(Text(f"  {_name(state, s)}'s cards {a}"))
    for i in range(len(h.tricks)):
        t = Text("  ")
        t.append_text(trick_text(state, h, i))
        out.append(t)
    for r in rows:
        t = Text("  ")
        t.append_text(row_text(state.sheet, r))
        out.append(t)
    return out


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
    v = state.variant
    vul = list(getattr(h, "vulnerable", ()) or ())[:len(v.side_names)]
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
    v = state.variant
    n = v.players
    order = [(viewer + 1 + k) % n for k in range(n)]
    t = Table(show_header=True, box=None, padding=(0, 2, 0, 0), header_style="bold")
    for s in order:
        t.add_column(seat_label(state, s), justify="left", min_width=4)
    calls = [(s, call_text(a)) for s, a in h.calls]
    if state.hand is h and role_of(state.phase_kind) == "auction" and h.to_move >= 0:
        calls.append((h.to_move, Text("?", style="bold")))
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

    In partnership games the auction is drawn as a table with ``seat``'s column last, and
    when ``seat`` decides for the dummy, the dummy's row says that it is to play.
    """
    v = state.variant
    h = state.hand
    deck = v.deck
    names = state.names
    pairs = partnership(v)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", justify="right")
    grid.add_column()
    grid.add_row("hand", Text(f"{h.number + 1}, dealer {names[h.dealer]}"))
    vul = vulnerability_text(state, h)
    if vul is not None:
        grid.add_row("vulnerable", vul)
    order_up = h.phase_state.get("order_up")
    turned_up = order_up.turned if order_up is not None else -1   # shown on its own row
    for z, m in h.zones.items():
        if m and h.zone_up.get(z):
            grid.add_row(Text(z), cards_text(deck, bits(m)))
        elif m:
            down = (m & ~(1 << turned_up) if turned_up >= 0 else m).bit_count()
            grid.add_row(Text(z), Text(f"{_cards(down)} face down", style="dim"))
    if pairs and role_of(state.phase_kind) == "auction":
        grid.add_row("auction", auction_table(state, h, seat))
    elif h.calls and not (pairs and h.contract is not None):
        grid.add_row("auction", auction_text(state, h))
    ct = contract_text(state, h)
    if ct is not None and (h.contract is not None or role_of(state.phase_kind) == "play"):
        grid.add_row("contract", ct)
    elif ct is None and h.ctx is not None and h.trump != "NT":
        grid.add_row("trumps", trumps_line(state, h, label=False))
    taken = 0
    if role_of(state.phase_kind) == "exchange" and h.declarer == seat:
        taken = h.hands[seat] & ~h.dealt[seat]
        grid.add_row("from widow", cards_text(deck, bits(taken)))
    if h.declarer == seat and h.discards:
        grid.add_row("discarded", cards_text(deck, bits(h.discards)))
    turned = getattr(h, "turned", -1)
    if turned is not None and turned >= 0 and getattr(h, "turned_visible", False):
        grid.add_row("turned up", card_text(deck, turned))
    dummy = getattr(h, "dummy", -1)
    if dummy is not None and dummy >= 0 and dummy != seat and (h.tricks or h.trick or h.to_move == dummy):
        label = Text(f"dummy {names[dummy]}")
        cards = hand_text(state, dummy)
        if h.to_move == dummy and state.controller(dummy) == seat:
            label.stylize("bold")
            cards.append("   ← you play from here", style="bold")
        grid.add_row(label, cards)
    partner = getattr(h, "partner", -1)
    if partner is not None and partner >= 0:
        grid.add_row("partner", Text(f"{names[partner]} plays with {names[h.declarer]} this hand"))
    opened = getattr(h, "open_after", ())
    for s, after in enumerate(opened or ()):
        if s != seat and 0 <= after <= len(h.tricks) and h.hands[s]:
            grid.add_row(f"open {names[s]}", hand_text(state, s))
    if state.phase_kind == "pass_cards":       # where his cards go
        grid.add_row("passing", Text(_pass_target(state, h, seat).strip()))
    for label, text in phase_rows(state, h):   # a turned card, a pile's running total, a layout's rows
        grid.add_row(label, Text(text))
    if role_of(state.phase_kind) == "play":
        if h.tricks:
            grid.add_row("last trick", trick_text(state, h, len(h.tricks) - 1, label=False))
        trick = Text()
        for i, (s, c) in enumerate(h.trick):
            if i:
                trick.append(", ")
            trick.append(f"{names[s]} ")
            trick.append_text(card_text(deck, c))
        if h.named:
            trick.append(" (follow ")
            trick.append_text(suit_text(h.named))
            trick.append(f" {SUIT_NAMES.get(h.named, '')})")
        if h.to_move == seat:
            lead = "(you lead)"
        elif h.to_move >= 0 and state.controller(h.to_move) == seat:
            lead = f"(you lead from {names[h.to_move]}'s hand)"
        elif h.to_move >= 0:
            lead = f"({names[h.to_move]} leads)"
        else:
            lead = "-"
        grid.add_row("trick", trick if h.trick else Text(lead, style="dim"))
        if pairs and v.scoring.by_side:
            won = Text(", ".join(f"{name} {sum(h.won[s] for s in side)}"
                                 for name, side in zip(v.side_names, v.sides)))
            won.append(f"  ({', '.join(f'{names[s]} {h.won[s]}' for s in range(v.players))})", style="dim")
            grid.add_row("tricks won", won)
        else:
            grid.add_row("tricks won", Text(", ".join(f"{names[s]} {h.won[s]}" for s in range(v.players))))
        if v.has_card_points:          # games scored by the cards taken (issue 12 case 19)
            grid.add_row("card points", Text(", ".join(f"{names[s]} {card_points(v, h.won_cards[s], h.ctx)}"
                                                       for s in range(v.players))))
    sheet = state.sheet
    totals = Text(", ".join(f"{c} {t}" for c, t in zip(sheet.columns, sheet.totals())))
    totals.append("  (lowest total wins)" if v.scoring.lower_is_better else "  (highest total wins)", style="dim")
    grid.add_row("totals", totals)
    games = games_text(state)
    if games is not None:
        grid.add_row("game", games)
    mine = Text("your hand")
    if h.to_move == seat and role_of(state.phase_kind) == "play" and dummy is not None and dummy >= 0 \
            and state.controller(dummy) == seat:
        mine.stylize("bold")
    grid.add_row(mine, hand_text(state, seat, mark=taken))
    return grid


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
    from rulekit.engine.scoring import column_of, entries_for, envs_for
    v = state.variant
    if bid.strain == "chosen":  # trumps named later: the least it is worth in a suit
        from dataclasses import replace
        worths = [w for w in (bid_worth(state, replace(bid, strain=x)) for x in v.deck.suits) if w is not None]
        return min(worths) if worths else None
    seat = state.to_move
    total = v.hand_size
    other = next((x for x in range(v.players) if v.side_of[x] != v.side_of[seat]), (seat + 1) % v.players) \
        if v.scoring.by_side else (seat + 1) % v.players
    trump = bid.strain if bid.strain in v.contexts else "NT"
    vul = list(getattr(state.hand, "vulnerable", ()) or ())
    extra = {"vulnerable": vul[:len(v.side_names)]} if v.scoring.by_side and any(vul) else None
    try:
        for tricks in range(total + 1):
            won = [0] * v.players
            won[seat], won[other] = tricks, total - tricks
            entry = entries_for(v, bid, seat, envs_for(v, bid, seat, trump, won, [0] * v.players, extra))[
                column_of(v, seat)]
            if entry > 0:
                return entry
    except (RulekitError, ArithmeticError, ValueError, TypeError, IndexError, KeyError):
        return None
    return None


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
    for a in legal:
        bid = bids.get(a.text) if a.kind == "bid" else None
        worth = bid_worth(state, bid) if bid is not None else None
        if worth is None and getattr(bid, "value", None) is not None:   # a contract of a list
            worth = bid.value
        # "(worth N)" reads as a remark, not part of the call; typed with it, it is accepted
        text = state.action_text(a)
        out.append(text if worth is None else f"{text} (worth {worth})")
    return Text("legal: " + ", ".join(out))


#: a remark of a legal list typed after the call (``7C (worth 160)``): not part of the action
WORTH_REMARK = re.compile(r"\s*\(\s*(?:worth\s+)?-?\d+\s*\)\s*$", re.IGNORECASE)


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
