"""What one seat's browser receives: a JSON-ready view built from ``observation(seat)`` only.

Every card, count and word of :func:`seat_view` comes from the seat's
:class:`~rulekit.engine.observation.Observation`: its plain fields, and for the public words
(the contract, the phases' rows, the trick lines, the sheet) its redacted copy of the match,
which holds no hidden card, no seed and no deal (``rulekit/engine/observation.py``).  The words
are those of the terminal table (``cli/render.py``) as plain text; cards are sent as
``{"c": "QS", "t": "Q♠", "s": "S"}`` for the page to draw.
"""
from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from rulekit.cards import bits
from rulekit.engine.phases import REGISTRY
from rulekit.sheets.render import renderable
from rulekit.cli.render import (call_text, card_points, contract_text, display_order, games_text,
                                hand_header, partnership, phase_rows, prompt_label, role_of, row_text,
                                running_tallies, seat_label, settlement_text, target_text, trick_line, trumps_line,
                                view_context, vulnerability_text, winner_text, worth_words)


def card_json(deck, c: int) -> dict:
    """A card for the page: its text as typed (``c``), as shown (``t``, without a copy number:
    :meth:`~rulekit.cards.Deck.face`) and its suit (``s``, ``""`` for a joker)."""
    return {"c": deck.name(c), "t": deck.face(c), "s": deck.suit_of(c) or ""}


def _row(variant, ctx, mask: int, plays: dict | None = None) -> list:
    """The cards of ``mask`` sorted as a player holds them, each with its group (a new suit
    starts a new group) and, with ``plays``, the legal actions that play it."""
    deck = variant.deck
    out = []
    for c in display_order(variant, ctx, mask):
        d = card_json(deck, c)
        d["g"] = int(ctx.group_of[c])
        if plays is not None:
            d["legal"] = plays.get(c, [])
        out.append(d)
    return out


def plain_text(renderable) -> str:
    """A rich renderable as plain text (a sheet drawn as players draw it)."""
    out = io.StringIO()
    Console(file=out, width=100, color_system=None, force_terminal=False, no_color=True, highlight=False,
            emoji=False).print(renderable)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


def seat_view(state, seat: int, controllers: list) -> dict[str, Any]:
    """The view of ``seat`` now, as JSON-ready data (fair play: nothing beyond its observation).

    :param state: the match; only ``state.observation(seat)`` is read, the score sheet (public)
        with the last trick of the hand just scored (played face up), and at the end of the
        match (when no card is hidden any more) its winner and settlement.
    :param controllers: ``human``/``bot``/``random`` per seat (public: who sits where).
    :returns: the seat's hand (sorted by suit, each card with the actions that play it now),
        the other seats (names, controllers, card counts), the face-up zones, the dummy and open
        hands, the calls, the contract, the trick and the last one, the phases' rows, the
        decision asked of the seat (buttons, or a number of cards to choose), the totals, the
        sheet, the last hand's result, and the end of the match.
    """
    obs = state.observation(seat)
    pub = obs._view                    # the redacted match: no hidden card, no seed, no deal
    h = pub.hand
    v = obs.variant
    deck = v.deck
    names = list(pub.names)
    ctx = view_context(v, obs.trump, obs.low)
    role = role_of(obs.phase)
    deciding = bool(obs.legal) and obs.to_move >= 0
    plays: dict = {}
    buttons: list = []
    choose = None
    legal = obs.legal
    if deciding:
        lazy = not isinstance(legal, list)
        if lazy or (legal and all(a.kind == "discard" for a in legal)):
            n = legal[0].cards.bit_count()
            choose = {"count": n, "word": pub.discard_word(), "choices": len(legal)}
        else:
            bids = {b.text: b for b in pub.current_bids()}
            for a in legal:
                text = pub.action_text(a)
                if a.kind == "play" and a.card >= 0:
                    plays.setdefault(a.card, []).append({"action": a.text, "label": text})
                    continue
                bid = bids.get(a.text) if a.kind == "bid" else None
                worth = worth_words(pub, bid) if bid is not None else None   # the prompt's words
                if worth is None and bid is not None and getattr(bid, "value", None) is not None:
                    worth = str(bid.value)
                buttons.append({"action": a.text, "label": call_text(text).plain, "worth": worth})
    from_dummy = deciding and obs.to_move != seat
    hand: list = []
    if not obs.blind:
        hand = _row(v, ctx, obs.hand, plays if not from_dummy else {})
    seats = []
    for s in range(v.players):
        seats.append({"seat": s, "name": names[s], "label": seat_label(pub, s), "controller": controllers[s],
                      "cards": obs.hand_sizes[s], "won": obs.won[s], "dealer": s == obs.dealer,
                      "to_move": s == obs.to_move, "you": s == seat})
    zones = [{"name": z, "cards": [card_json(deck, c) for c in bits(up)], "hidden": obs.hidden_zones.get(z, 0)}
             for z, up in obs.zones.items()]
    others = []
    dummy = obs.dummy
    if dummy >= 0 and dummy != seat and obs.dummy_hand:
        others.append({"label": f"dummy {names[dummy]}", "seat": dummy,
                       "cards": _row(v, ctx, obs.dummy_hand, plays if from_dummy else {}),
                       "yours": state.controller(dummy) == seat})
    for s in obs.open_seats:
        if obs.hands_seen[s] and s != dummy:
            others.append({"label": f"open {names[s]}", "seat": s, "cards": _row(v, ctx, obs.hands_seen[s]),
                           "yours": False})
    rows: list = []
    vul = vulnerability_text(pub, h)
    if vul is not None:
        rows.append(["vulnerable", vul.plain])
    ct = contract_text(pub, h)
    if ct is not None and (obs.contract or role == "play"):
        rows.append(["contract", ct.plain])
    elif ct is None and obs.trump != "NT":
        rows.append(["trumps", trumps_line(pub, h, label=False).plain])
    if role == "exchange" and obs.declarer == seat and obs.taken:
        rows.append(["from widow", " ".join(deck.face(c) for c in bits(obs.taken))])
    if obs.discards:
        rows.append(["discarded", " ".join(deck.face(c) for c in bits(obs.discards))])
    for c in bits(obs.exposed):
        rows.append(["turned up", deck.face(c)])
    if obs.partner >= 0:
        rows.append(["partner", f"{names[obs.partner]} plays with {names[obs.declarer]} this hand"])
    kind = REGISTRY.get(obs.phase)
    for label, text in (kind.seat_rows(obs, names) if kind is not None else []) + phase_rows(pub, h):
        rows.append([label, text])
    if kind is not None and kind.stands_for and obs.hand_sizes:   # no tricks to tell how many each holds
        rows.append(["cards held", ", ".join(f"{names[s]} {obs.hand_sizes[s]}" for s in range(v.players))])
    target = target_text(pub, h)
    if target is not None and role == "play":
        rows.append(["to make", target.plain])
    if role == "play" and v.has_card_points:   # games scored by the cards taken
        cards_won = [0] * v.players
        for _l, played, winner, _n in obs.tricks:
            for _s, c in played:
                cards_won[winner] |= 1 << c
        rows.append(["card points", ", ".join(f"{names[s]} {card_points(v, cards_won[s], ctx)}"
                                              for s in range(v.players))])
    if role == "play":
        for label, counts in running_tallies(v, obs):    # what the hand scores so far (hearts taken)
            rows.append([label, ", ".join(f"{c} {x}" for c, x in zip(pub.sheet.columns, counts))])
    games = games_text(state)       # public: the part-scores toward game
    if games is not None:
        rows.append(["game", games.plain])
    trick = [{"seat": s, "name": names[s], "card": card_json(deck, c)} for s, c in obs.trick]
    last = None
    if obs.tricks:
        last = trick_line(pub, obs.tricks[-1], len(obs.tricks) - 1, label=False).plain.strip()
    previous = None
    sheet = state.sheet                # public: every seat sees the score sheet
    if sheet.rows and (not obs.tricks and not obs.trick or state.is_over):
        done = state.hand_log[-1] if state.hand_log else None
        previous = [row_text(sheet, r).plain for r in sheet.rows if done is not None and r.hand == done.number]
        if done is not None and done.tricks:   # the last trick of the hand just scored: played face up
            previous.insert(0, "last trick " + trick_line(pub, done.tricks[-1], len(done.tricks) - 1,
                                                            label=False).plain.strip())
    we = v.side_of[seat] if v.scoring.by_side else 0
    view: dict[str, Any] = {
        "variant": {"id": v.id, "name": v.name, "players": v.players},
        "seat": seat, "names": names, "seats": seats, "pairs": partnership(v),
        "header": hand_header(pub, h).plain, "hand_number": obs.hand_number + 1,
        "phase": prompt_label(pub) if obs.to_move >= 0 else "", "to_move": obs.to_move,
        "deciding": deciding, "from_dummy": from_dummy,
        "hand": hand, "blind": obs.blind, "blind_count": obs.hand_sizes[seat] if obs.blind else 0,
        "zones": zones, "others": others,
        "calls": [[names[s], call_text(a).plain] for s, a in obs.calls],
        "rows": rows, "trick": trick, "last_trick": last, "previous": previous,
        "named": obs.named, "buttons": buttons, "choose": choose,
        "totals": [[c, t] for c, t in zip(pub.sheet.columns, obs.totals)],
        "lower_wins": bool(v.scoring.lower_is_better),
        "sheet": plain_text(renderable(sheet, v, we=we, title="Score sheet")),
        "over": bool(state.is_over), "winner": None,
    }
    if state.is_over:                  # every card is public now
        settle = settlement_text(state)
        view["winner"] = winner_text(state).plain + (f"\n{settle.plain}" if settle is not None else "")
    return view
