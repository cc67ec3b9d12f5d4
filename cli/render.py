"""Rich renderings of cards, hands, the table and the score sheet (terminal only)."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from rulekit.cards import SUIT_SYMBOLS, bits

SUIT_STYLE = {"H": "bold red", "D": "bold red", "S": "bold", "C": "bold"}


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


def hand_text(state, seat: int) -> Text:
    """The seat's hand grouped by effective suit, trump group first (display order of the context)."""
    deck = state.variant.deck
    h = state.hand
    ctx = h.ctx or state.variant.contexts.get("NT") or next(iter(state.variant.contexts.values()))
    t = Text()
    last = None
    for c in state.hand_cards(seat):
        g = ctx.group_of[c]
        if last is not None:
            t.append("  " if g != last else " ")
        t.append_text(card_text(deck, c))
        last = g
    return t


def table_view(state, seat: int) -> Table:
    """What ``seat`` sees: hand, widow, auction, contract, trick, tricks won, totals."""
    v = state.variant
    h = state.hand
    deck = v.deck
    names = state.names
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", justify="right")
    grid.add_column()
    grid.add_row("hand", f"{h.number + 1}, dealer {names[h.dealer]}")
    for z, m in h.zones.items():
        if m and h.zone_up.get(z):
            grid.add_row(z, cards_text(deck, bits(m)))
        elif m:
            grid.add_row(z, Text(f"{m.bit_count()} cards face down", style="dim"))
    if h.calls:
        grid.add_row("auction", ", ".join(f"{names[s]} {a}" for s, a in h.calls))
    if h.contract is not None:
        trump = "no trump" if h.trump == "NT" else f"trumps {SUIT_SYMBOLS.get(h.trump, h.trump)}"
        grid.add_row("contract", f"{h.contract.text} by {names[h.declarer]} ({trump})")
    elif state.phase_kind == "tricks" and v.phase("ladder_auction") is not None:
        grid.add_row("contract", "none: all passed, no trump")
    if state.phase_kind == "tricks":
        trick = Text()
        for i, (s, c) in enumerate(h.trick):
            if i:
                trick.append(", ")
            trick.append(f"{names[s]} ")
            trick.append_text(card_text(deck, c))
        if h.named:
            trick.append(f" (follow {SUIT_SYMBOLS.get(h.named, h.named)})")
        grid.add_row("trick", trick if h.trick else Text("(you lead)" if h.to_move == seat else "-", style="dim"))
        grid.add_row("tricks won", ", ".join(f"{names[s]} {h.won[s]}" for s in range(v.players)))
    grid.add_row("totals", ", ".join(f"{names[s]} {t}" for s, t in enumerate(state.sheet.totals())))
    grid.add_row("your hand", hand_text(state, seat))
    return grid


def sheet_table(sheet, title: str = "Score sheet") -> Table:
    """One column per player: each hand's entry and the running total (``+240  540``)."""
    t = Table(title=title, show_lines=False)
    t.add_column("#", justify="right", style="dim")
    for name in sheet.columns:
        t.add_column(name, justify="right")
    t.add_column("hand", style="dim")
    if any(sheet.start):
        t.add_row("", *[str(x) for x in sheet.start], "start")
    for r in sheet.rows:
        if r.void:
            cells = ["—" for _ in r.entries]
        else:
            cells = [f"{e:+d}  [bold]{tot}[/]" if e else f"  [bold]{tot}[/]" for e, tot in zip(r.entries, r.totals)]
        t.add_row(str(r.hand + 1), *cells, r.note or ("void" if r.void else ""))
    return t
