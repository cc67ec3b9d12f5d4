"""Announcements during trick play: the rules of a ``tricks`` phase's ``announcements:`` block
(the kind in :mod:`rulekit.engine.phases.tricks` calls these).

A player may make an announcement at his turn to play, before his card (he then still plays
it; he may make several): Doppelkopf's ``re`` / ``kontra`` and its promises ``no 90`` ...
``schwarz``, Schafkopf's ``kontra`` and ``re``, a marriage shown by holding both its cards.
Each announcement of the variant's list says:

* ``by`` who may make it: ``any`` player, the ``declarer``, the declaring ``party`` (the declarer
  and his partners, or the holders of a party card: :func:`~rulekit.engine.phases.base.declaring_party`)
  or the ``others``; ``holds``: he must hold these cards;
* ``until`` its deadline: while he still holds ``cards`` cards or more, while fewer than
  ``tricks`` tricks are finished; ``after``: announcements someone must have made before;
* ``implies``: announcements it makes too (those of them his side may make and has not made);
  each must itself be allowed now, so skipping a level needs the skipped level in time;
* ``reply``: it may also be made late, as an answer to the other side: while he holds at least
  one card fewer than the deadline of the other side's last announcement.  A late one counts
  in the formulas but allows nothing that needs it (``implies``, ``after``).

Announcements are made for the announcer's side: the declaring party or the others when the
hand has one, else his side (``sides:``), else himself.  Making one shows everybody his side
(:func:`revealed`), and the cards of ``holds`` are then known to be his.  Formulas read, per
score column, ``announced_NAME`` (its side made it) and ``against_NAME`` (another side did).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.cards import bits
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import declaring_party
from rulekit.engine.phases.partner_card import compile_held, holds_all
from rulekit.engine.phases.table import Table
from rulekit.errors import CardError, IllegalActionError

BY = ("any", "declarer", "party", "others")


@dataclass(frozen=True)
class AnnouncementSpec:
    """One announcement of the list.

    :ivar name: its name (formulas read ``announced_<name>``, ``against_<name>``).
    :ivar say: the words a player says (the action's text).
    :ivar by: ``any``, ``declarer``, ``party`` or ``others``.
    :ivar holds: cards he must hold (a mask; copies count: both copies when listed twice).
    :ivar holds_counts: ``((mask of a card's copies, how many), ...)`` of ``holds``.
    :ivar cards: the fewest cards he may still hold (-1: no such deadline).
    :ivar tricks: the tricks that may be finished at most, less one (-1: none).
    :ivar after: names that must have been made before.
    :ivar implies: names it makes too.
    :ivar reply: it may be made late, as an answer.
    """

    name: str
    say: str
    by: str = "any"
    holds: int = 0
    holds_counts: tuple = ()
    cards: int = -1
    tricks: int = -1
    after: tuple = ()
    implies: tuple = ()
    reply: bool = False


@dataclass
class AnnounceData(KindData):
    """The announcements of a hand: ``made`` maps ``(side, name)`` to ``(seat, late)``, in the
    order they were made (``side``: ``"party"``, ``"others"``, or a score column)."""

    made: dict


def compile_announcements(c, p: dict, path: tuple) -> tuple:
    """The :class:`AnnouncementSpec` of each entry of ``announcements:`` (schema-valid), in order;
    problems reported at their place (an unknown name in ``implies``/``after``, a card, a word
    that is already an action, a cycle of implications)."""
    deck = c.deck
    entries = p or {}
    out = []
    words: dict = {}
    for name, e in entries.items():
        at = path + (name,)
        say = " ".join(str(e.get("say", name.replace("_", " "))).lower().split())
        if say in words:
            c.err(at + ("say",) if "say" in e else at + ("<key>",), f"{say!r} is also said for {words[say]} "
                  f"(expected words of its own for each announcement)")
        words[say] = name
        if say.split()[0] in ("play", "pass", "call", "discard", "trump") or _is_card(deck, say):
            c.err(at + ("say",) if "say" in e else at + ("<key>",), f"{say!r} reads as another action "
                  f"(expected words that are no card and do not begin with play, pass, call, discard or trump)")
        holds, counts = compile_held(c, str(e.get("holds", "")), at + ("holds",), "KH QH")
        until = e.get("until") or {}
        for key in ("after", "implies"):
            for i, other in enumerate(e.get(key, ())):
                if other not in entries:
                    c.err(at + (key, i), f"unknown announcement {other!r}{c.close(other, list(entries))} "
                          f"(expected one of {', '.join(entries)})")
                elif other == name:
                    c.err(at + (key, i), f"{name} cannot need itself (expected another announcement)")
        if e.get("reply") and "cards" not in until:
            c.err(at + ("reply",), "a reply is made one card later than the other side's deadline, which "
                  "counts cards (expected until: {cards: N} on this announcement too)")
        out.append(AnnouncementSpec(name, say, e.get("by", "any"), holds, counts, until.get("cards", -1),
                                    until.get("tricks", -1), tuple(e.get("after", ())), tuple(e.get("implies", ())),
                                    bool(e.get("reply", False))))
    by_name = {a.name: a for a in out}
    cycled: set = set()
    for a in out:   # no announcement may imply itself through others (said once per cycle)
        seen: set[str] = set()
        todo = list(a.implies)
        while todo and a.name not in cycled:
            x = todo.pop()
            if x == a.name:
                c.err(path + (a.name, "implies"), f"{a.name} implies itself through {', '.join(sorted(seen))} "
                      f"(expected implications that end)")
                cycled |= seen | {a.name}
                break
            if x in seen or x not in by_name:
                continue
            seen.add(x)
            todo += by_name[x].implies
    return tuple(out)


def _is_card(deck, text: str) -> bool:
    try:
        deck.parse(text)
        return True
    except CardError:
        return False


def start(state: Table, specs: tuple) -> None:
    """A new hand's announcements (none yet)."""
    state.hand.phase_state["tricks"] = AnnounceData({})


def _data(state: Table) -> AnnounceData:
    return state.hand.phase_state["tricks"]  # type: ignore[return-value]


def made_of(hand) -> dict:
    """The announcements made in ``hand`` (:attr:`AnnounceData.made`), ``{}`` without any."""
    d = hand.phase_state.get("tricks")
    return d.made if isinstance(d, AnnounceData) else {}


def side_of(state: Table, seat: int) -> object:
    """The side a seat's announcements are made for (:func:`seat_side`)."""
    return seat_side(state.variant, state.hand, seat)


def seat_side(variant, hand, seat: int, party: int | None = None) -> object:
    """The side ``seat``'s announcements are made for in ``hand``: ``"party"`` or ``"others"``
    when the variant's hands may have a declaring party (an auction, a partnership by a
    card: :func:`party_sides`), else its score column (its side with ``sides:``, else itself).
    ``party``: the hand's :func:`declaring_party` when the caller has it."""
    if party_sides(variant):
        return "party" if (declaring_party(variant, hand) if party is None else party) >> seat & 1 else "others"
    return variant.side_of[seat] if any(len(s) > 1 for s in variant.sides) else seat


def party_sides(variant) -> bool:
    """Whether announcements are made for the declaring party and the others (a variant with an
    auction, or a phase that forms a party), rather than for the score columns."""
    from rulekit.engine.phases.base import PhaseKind
    from rulekit.engine.phases.registry import REGISTRY
    return variant.cached(PARTY_SIDES, lambda: variant.auction() is not None or any(
        type(REGISTRY[p.kind]).party is not PhaseKind.party for p in variant.phases))


#: the key of :func:`party_sides` in ``Variant.cached``
PARTY_SIDES = "announcements.party_sides"


def _holds(state: Table, seat: int, a: AnnouncementSpec) -> bool:
    return holds_all(state.hand.hands[seat], a.holds_counts)


def _in_time(state: Table, seat: int, a: AnnouncementSpec, shift: int = 0) -> bool:
    h = state.hand
    return ((a.cards < 0 or h.hands[seat].bit_count() >= a.cards - shift)
            and (a.tricks < 0 or len(h.tricks) < a.tricks))


def _who(state: Table, seat: int, a: AnnouncementSpec, party: int) -> bool:
    """Whether ``seat`` may make ``a`` by its ``by`` (``party``: the hand's :func:`declaring_party`)."""
    if a.by == "any":
        return True
    if a.by == "declarer":
        return seat == state.hand.declarer
    return bool(party >> seat & 1) == (a.by == "party")


def _late_ok(state: Table, seat: int, a: AnnouncementSpec, by_name: dict, mine: object, shift: int = 0) -> bool:
    """A reply: one card fewer than the deadline of the other sides' strictest announcement
    (moved ``shift`` cards by a partner found late, :func:`_partner_wait`); ``mine``: the side
    of ``seat`` (:func:`side_of`)."""
    if not a.reply:
        return False
    theirs = [by_name[name].cards for (side, name) in _data(state).made if side != mine and by_name[name].cards >= 0]
    return bool(theirs) and state.hand.hands[seat].bit_count() >= min(theirs) - 1 - shift


def _partner_wait(state: Table) -> tuple[bool, int]:
    """``(waiting, shift)``: a partner found by a trick (a contract's ``partner_trick``) not yet
    found holds every announcement back; once found in trick k the card deadlines move k - 1
    cards (rules/doppelkopf.md [DK-H5])."""
    from rulekit.engine.phases.call_partner import waits_for_partner
    return waits_for_partner(state.hand)


def _closure(a: AnnouncementSpec, by_name: dict) -> list:
    """``a`` and every announcement it implies, nearest first."""
    out, todo = [], [a.name]
    while todo:
        x = todo.pop(0)
        if x in out:
            continue
        out.append(x)
        todo += list(by_name[x].implies)
    return [by_name[x] for x in out]


class _Tables:
    """A trick phase's announcements by name (``by_name``) and each with what it implies
    (``closure``: name -> :func:`_closure`), built once per variant and phase."""

    __slots__ = ("by_name", "closure")

    def __init__(self, specs: tuple):
        self.by_name = {a.name: a for a in specs}
        self.closure = {a.name: _closure(a, self.by_name) for a in specs}


_TABLES = "announcements.tables"   # phase index -> its _Tables


def _tables(state: Table, specs: tuple) -> _Tables:
    by_phase: dict = state.variant.cached(_TABLES, dict)
    t = by_phase.get(state.hand.phase)
    if t is None:
        t = by_phase[state.hand.phase] = _Tables(specs)
    return t


def allowed(state: Table, seat: int, specs: tuple) -> tuple:
    """``(ok, why, adds)``: whether ``seat`` may make each announcement now, by name: ``ok`` the
    names he may say, ``why`` name -> the reason he may not, ``adds`` name -> the
    ``(name, late)`` it makes (itself and what it implies that his side has not made)."""
    made = _data(state).made
    h = state.hand
    party = declaring_party(state.variant, h)   # (once: the side and every "by" read it)
    mine = seat_side(state.variant, h, seat, party)
    t = _tables(state, specs)
    by_name = t.by_name
    said = {name for (_s, name) in made}
    timely = {name for (side, name), (_seat, late) in made.items() if side == mine and not late}
    ok, why, adds = [], {}, {}
    waiting, shift = _partner_wait(state)
    for a in specs:
        if waiting:
            why[a.name] = f"{a.say} waits until the trick that finds the declarer's partner"
            continue
        if (mine, a.name) in made:
            why[a.name] = f"{a.say} has been said for your side"
            continue
        missing = [x for x in a.after if x not in said]
        if missing:
            why[a.name] = f"{a.say} only after {', '.join(by_name[x].say for x in missing)}"
            continue
        chain, fail = [], ""
        closure = t.closure[a.name]
        for b in closure:
            if not _who(state, seat, b, party):
                if b is a:
                    fail = f"{a.say} is not for your side" if a.by in ("party", "others") else f"only the {a.by} says {a.say}"
                    break
                continue   # an implied announcement of the other side: not his to make
            if b.name in timely:
                continue
            if (mine, b.name) in made:   # made late: nothing that needs it
                fail = f"{a.say} needs {b.say} in time, and it was said late"
                break
            if not _holds(state, seat, b):
                fail = f"{b.say} needs {' '.join(state.variant.deck.names_of(b.holds))} in your hand"
                break
            if _in_time(state, seat, b, shift):
                chain.append((b.name, False))
            elif b is a and len(closure) == 1 and _late_ok(state, seat, a, by_name, mine, shift):
                chain.append((b.name, True))
            else:
                fail = f"too late for {b.say}" + (f" (needed with {a.say})" if b is not a else "")
                break
        if fail:
            why[a.name] = fail
            continue
        ok.append(a.name)
        adds[a.name] = chain
    return ok, why, adds


def legal(state: Table, seat: int, specs: tuple) -> list:
    """The announcements ``seat`` may make now, in the list's order."""
    ok = allowed(state, seat, specs)[0]
    return [action(a) for a in specs if a.name in ok]


def action(a: AnnouncementSpec) -> Action:
    """The action of announcement ``a`` (its words)."""
    return Action("announcement", a.say)


def parse(text: str, specs: tuple) -> Action | None:
    """An announcement's words (case and spaces forgiven), or ``None``."""
    t = " ".join(text.lower().split())
    for a in specs:
        if t == a.say:
            return action(a)
    return None


def check(state: Table, action_: Action, specs: tuple) -> None:
    """:raises IllegalActionError: an announcement ``seat`` may not make now, with the reason."""
    a = next((x for x in specs if x.say == action_.text), None)
    if a is None:
        raise IllegalActionError(f"{action_.text} is not an announcement of this game")
    ok, why, _adds = allowed(state, state.hand.to_move, specs)
    if a.name not in ok:
        raise IllegalActionError(why.get(a.name, f"{a.say} is not allowed now"))


def apply(state: Table, action_: Action, specs: tuple) -> None:
    """Make the announcement (and what it implies) for the seat's side; he still plays."""
    seat = state.hand.to_move
    a = next(x for x in specs if x.say == action_.text)
    mine = side_of(state, seat)
    made = _data(state).made
    for name, late in reversed(allowed(state, seat, specs)[2][a.name]):   # what it implies first
        made[(mine, name)] = (seat, late)


def revealed(hand) -> int:
    """The seats (a mask) that announced: their sides are public."""
    out = 0
    for seat, _late in made_of(hand).values():
        out |= 1 << seat
    return out


def known_cards(state: Table, specs: tuple) -> list:
    """The cards an announcement by holding showed, with its announcer while he holds them."""
    by_name = {a.name: a for a in specs}
    out = []
    for (_side, name), (seat, _late) in made_of(state.hand).items():
        a = by_name.get(name)
        if a is not None and a.holds:
            m = state.hand.hands[seat] & a.holds
            if m:
                out.append((seat, m))
    return out


def variables(specs: tuple) -> dict:
    """``announced_NAME`` and ``against_NAME`` per announcement."""
    out = {}
    for a in specs:
        out[f"announced_{a.name}"] = (0, 1)
        out[f"against_{a.name}"] = (0, 1)
    return out


def values(variant, hand, specs: tuple) -> list:
    """Per score column: ``announced_NAME`` (its side made it), ``against_NAME`` (another did)."""
    made = made_of(hand)
    cols = len(variant.sides) if variant.scoring.by_side else variant.players
    out = []
    for c in range(cols):
        mine = seat_side(variant, hand, variant.sides[c][0] if variant.scoring.by_side else c)
        row = {}
        for a in specs:
            row[f"announced_{a.name}"] = (mine, a.name) in made
            row[f"against_{a.name}"] = any(name == a.name and side != mine for (side, name) in made)
        out.append(row)
    return out


def describe(specs: tuple, deck=None) -> str:
    """The announcements in words."""
    say = {a.name: a.say for a in specs}
    parts = []
    for a in specs:
        who = {"any": "any player", "declarer": "the declarer", "party": "a player of the declaring party",
               "others": "a player outside the declaring party"}[a.by]
        bits_ = [f"**{a.say}** by {who}"]
        if a.holds:
            bits_.append("holding " + (" ".join(deck.pretty(c) for c in bits(a.holds)) if deck else "its cards"))
        until = []
        if a.cards >= 0:
            until.append(f"while he holds {a.cards} cards or more")
        if a.tricks >= 0:
            until.append(f"before trick {a.tricks + 1}")
        if until:
            bits_.append(" and ".join(until))
        if a.after:
            bits_.append("after " + " and ".join(say[x] for x in a.after))
        if a.implies:
            bits_.append("which also says " + " or ".join(say[x] for x in a.implies)
                         + (" (those his side may say and has not)" if len(a.implies) > 1 else " (if not said)"))
        if a.reply:
            bits_.append("or later as a reply, one card after the other side's deadline")
        parts.append(", ".join(bits_))
    return ("At his turn to play, before his card, a player may announce: " + "; ".join(parts)
            + ". An announcement shows his side to everybody.")


# ---------------------------------------------------------------------- the scorepad
def pad_sides(variant) -> list:
    """The sides a scorepad asks the announcements of: ``["party", "others"]``
    (:func:`party_sides`), else the score columns' indices."""
    if party_sides(variant):
        return ["party", "others"]
    return list(range(len(variant.sides) if variant.scoring.by_side else variant.players))


def side_words(side, variant, names: list) -> str:
    """``the declaring party``, ``the others``, or a column's name."""
    if side == "party":
        return "the declaring party"
    if side == "others":
        return "the others"
    return list(variant.side_names)[side] if variant.scoring.by_side else names[side]


def pad_read(specs: tuple, side, text: str) -> list:
    """The names of the announcements typed for ``side`` (their words, separated by commas or
    spaces; ``none`` or ``-``: none), with what they imply that the side may make.

    :raises ValueError: words that are no announcement, or one that side may not make."""
    t = " ".join(text.lower().replace(",", " ").split())
    if t in ("", "none", "-"):
        return []
    by_name = {a.name: a for a in specs}
    said = []
    # its words, or its name (as the pad stores it), longest first
    words = sorted([(a.say, a) for a in specs] + [(a.name, a) for a in specs], key=lambda w: -len(w[0]))
    while t:
        got = next(((w, x) for w, x in words if t == w or t.startswith(w + " ")), None)
        if got is None:
            raise ValueError(f"{t.split()[0]!r} begins no announcement (expected "
                             f"{', '.join(x.say for x in specs)}, or none)")
        w, a = got
        if not _side_may(a, side):
            raise ValueError(f"{a.say} is not said by that side (expected "
                             f"{', '.join(x.say for x in specs if _side_may(x, side))})")
        said.append(a.name)
        t = t[len(w):].strip()
    out = []
    for name in said:
        for b in _closure(by_name[name], by_name):
            if _side_may(b, side) and b.name not in out:
                out.append(b.name)
    return out


def _side_may(a: AnnouncementSpec, side) -> bool:
    """Whether ``side`` may make ``a`` (the party's or the others' announcements)."""
    if a.by in ("party", "declarer"):
        return side != "others"
    if a.by == "others":
        return side != "party"
    return True


def pad_values(variant, specs: tuple, facts: dict) -> list:
    """Per score column, ``announced_NAME`` / ``against_NAME`` from the announcements typed per
    side; a column is of the declaring party by the phases before (``facts["columns"]``, its
    ``in_party``), else by being the declarer or his partner."""
    sides = pad_sides(variant)
    made = {(side, name) for side in sides for name in facts.get(f"said_{side}", ())}
    cols = len(variant.sides) if variant.scoring.by_side else variant.players
    before = facts.get("columns") or [{}] * cols
    declarer, partner = facts.get("declarer", -1), facts.get("partner", -1)
    out = []
    for c in range(cols):
        if sides == ["party", "others"]:
            seat = variant.sides[c][0] if variant.scoring.by_side else c
            inside = before[c].get("in_party")
            if inside is None:
                inside = seat in (declarer, partner) or (variant.scoring.by_side and declarer >= 0
                                                         and variant.side_of[declarer] == c)
            mine: object = "party" if inside else "others"
        else:
            mine = c
        out.append({**{f"announced_{a.name}": (mine, a.name) in made for a in specs},
                    **{f"against_{a.name}": any(n == a.name and sd != mine for sd, n in made) for a in specs}})
    return out


def pad_facts(variant, hand, specs: tuple) -> dict:
    """The announcements of a played hand as a scorer types them, per side."""
    made = made_of(hand)
    by_name = {a.name: a for a in specs}
    out = {}
    for side in pad_sides(variant):
        names = [name for (sd, name) in made if sd == side]
        out[f"said_{side}"] = ", ".join(by_name[n].say for n in names) or "none"
    return out
