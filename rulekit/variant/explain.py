"""``rulekit explain``: the rulebook of a compiled variant in plain English (Markdown).

Everything is read from the compiled :class:`~rulekit.variant.model.Variant` (and the
merged document it keeps in ``variant.data`` for texts the compiler does not keep, such
as rankings and formulas as written): the deck, the ranking, the dealer, one paragraph
per phase from its kind's :meth:`~rulekit.engine.phases.base.PhaseKind.describe`, the
scoring formulas said in words (:func:`rulekit.dsl.words.formula_words`; the formula text is shown as well)
and how the match ends.  No game is named here: the words come from the file.
"""
from __future__ import annotations

import re

from rulekit.cards import JOKER, SUIT_NAMES
from rulekit.dsl import Env, compile_expr
from rulekit.dsl.words import formula_line, formula_words, is_condition
from rulekit.engine.phases import REGISTRY
from rulekit.errors import RulekitError
from rulekit.text import markdown_line, visible

def _list(xs) -> str:
    xs = [str(x) for x in xs]
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def _deck(v) -> list:
    deck = v.deck
    d = v.data.get("deck", {})
    default = tuple(str(r) for r in d.get("ranks", deck.ranks))
    own = [s for s in deck.suits if deck.suit_ranks[s] != default]
    plain = [s for s in deck.suits if s not in own]
    suits = _list(deck.suit_name(s) for s in plain)
    grid = sum(len(deck.suit_ranks[s]) for s in deck.suits)
    jokers = [sp for sp in deck.specials if sp.kind == JOKER]
    others = [sp for sp in deck.specials if sp.kind != JOKER]
    named = any(sp.name for sp in jokers)
    extra = {0: "", 1: f", and {_special(v, jokers[0]) if jokers else ''}"}.get(
        len(jokers), f", and {len(jokers)} jokers" + (f": {_list(_special(v, sp) for sp in jokers)}" if named else ""))
    if others:
        extra += f"{',' if not extra else ''} and {_list(_special(v, sp) for sp in others)}"
    copies = f" (each card {_times(deck.copies)})" if deck.copies > 1 else ""
    of = (f"{' '.join(default)} in each of the {len(plain)} suits ({suits})" if len(plain) > 1
          else f"{' '.join(default)} of {suits}")
    for s in own:
        of += f", {' '.join(deck.suit_ranks[s])} of {deck.suit_name(s)} ({s})"
    suited = deck.size - sum(sp.copies for sp in deck.specials)
    absent = grid - suited // deck.copies
    if absent:
        missing = [f"{r}{s}" for s in deck.suits for r in deck.suit_ranks[s] if f"{r}{s}" not in deck.index]
        of = (f"the ranks {' '.join(default)} of the {len(deck.suits)} suits ({suits}) without "
              f"{' '.join(missing)}")
    out = [f"The deck has **{deck.size} cards**: {of}{copies}{extra}."]
    symbols = [f"{deck.suit_name(s)} {deck.symbol(s)}" for s in deck.suits if s not in SUIT_NAMES]
    if symbols:
        out.append(f"Cards are written rank then suit letter ({', '.join(deck.pretty(deck.index[r + s]) for s in deck.suits[-1:] for r in deck.suit_ranks[s][-1:])}); "
                   f"the other suits are shown as {_list(symbols)}.")
    if deck.has_copies:
        first = next(c for c in range(deck.size) if deck.copies_of(c) != 1 << c)
        base = deck.base(first)
        out.append(f"A card held in several copies is written with its copy number ({deck.name(first)}, "
                   f"{deck.name(first + 1)}); typing {base} plays (or discards) the first copy of it you hold.")
    if any(v.card_points):
        pts: dict[int, list[str]] = {}
        for c in range(deck.size):
            if v.card_points[c] and deck.base(c) not in pts.get(v.card_points[c], []):
                pts.setdefault(v.card_points[c], []).append(deck.base(c))
        out.append("Cards count points in the tricks won: " + "; ".join(
            f"{' '.join(cs)} {p} point{'s' if abs(p) != 1 else ''} each" for p, cs in pts.items()) + ".")
    if d.get("trump_points"):
        out.append("The cards of the trump suit count instead: " + "; ".join(
            f"{r} {p} point{'s' if abs(p) != 1 else ''}" for r, p in d["trump_points"].items()) +
            " (the other trump cards as in a plain suit).")
    return out


def _times(n: int) -> str:
    return {2: "twice", 3: "three times"}.get(n, f"{n} times")


def _special(v, sp) -> str:
    """A suitless card in words: ``the Joker (JK)``, ``the big joker (JK1)``, ``four Wizards (W)``."""
    if sp.copies > 1:
        word = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}.get(sp.copies, str(sp.copies))
        name = sp.name or "copies"
        return f"{word} {name}{'' if name.endswith('s') else 's'} ({sp.token})"
    if sp.name:
        return f"the {sp.name.removeprefix('the ')} ({sp.token})"
    if sp.kind == JOKER:
        return "the Joker (JK)" if sp.token == JOKER else f"the joker {sp.token}"
    return sp.token


def _joker(v, token: str) -> str:
    """A suitless card by the name the file gives it (``deck.joker_names``, ``deck.specials``)
    with its card token, e.g. ``the big joker (JK1)``; ``the joker JK1`` when the file names none."""
    sp = next((x for x in v.deck.specials if x.token == token or x.kind == token and x.copies > 1), None)
    if sp is None:
        return token
    return _special(v, sp) if sp.name or sp.copies > 1 else f"the joker {token}" if sp.kind == JOKER else token


def _tokens_words(v, text) -> str:
    """Card tokens of a ranking text in words, suitless cards by their names: ``the big joker
    (JK1) and the little joker (JK2)``."""
    tokens = {sp.token for sp in v.deck.specials} | {sp.kind for sp in v.deck.specials}
    named = any(sp.name for sp in v.deck.specials)
    return _list(_joker(v, t) if t in tokens and named else t for t in str(text).split())


def _order(v, value, words=None) -> str:
    """A ranking key's value in words: a string as it is (``words`` turns it into words), a
    mapping by suit or colour as ``K Q J ... in red suits, K Q J A 2 ... in black suits``."""
    say = words or (lambda t: t)
    if isinstance(value, str):
        return say(value)
    parts = []
    for k, text in value.items():
        where = ("in the other suits" if k == "others" else f"in {k} suits" if k in ("red", "black")
                 else f"in {v.deck.suit_name(k)}")
        parts.append(f"{say(text)} {where}")
    return "; ".join(parts)


def _ranking(v) -> list:
    r = v.data.get("ranking", {})
    out = []
    if r.get("suit"):
        out.append(f"In a plain suit the cards rank {_order(v, r['suit'])}, highest first.")
    if r.get("trump"):
        out.append("In the trump suit they rank " + _order(v, r["trump"], lambda t: _trump_words(t, v))
                   + ", highest first.")
    if r.get("top"):
        one = len(str(r["top"]).split()) == 1
        out.append(f"At no trump {_tokens_words(v, r['top'])} "
                   + ("ranks above every suit" if one else "rank above every suit, highest first")
                   + (f"; when {'it' if one else 'one'} is led, its player names the suit the others must follow."
                      if r.get("top_led") == "name_suit" else "."))
    if r.get("powerless"):
        cards = _tokens_words(v, r["powerless"])
        if len(str(r["powerless"]).split()) == 1:
            out.append(f"Where no other order ranks it (at no trump) {cards} has no power: it belongs to no suit, so "
                       "a player plays it only when he cannot follow suit or when he leads, it never wins a trick, "
                       "and when it is led the first card of a suit played after it sets the suit to follow.")
        else:
            out.append(f"Where no other order ranks them (at no trump) {cards} have no power: they belong to no "
                       "suit, so a player plays one only when he cannot follow suit or when he leads, they never "
                       "win a trick, and when one is led the first card of a suit played after it sets the suit to "
                       "follow.")
    out += _special_words(v, r)
    low = r.get("low") or {}
    if low.get("suit"):  # a low-wins contract's own order
        out.append(f"In a low contract (won by the lowest cards: the bid says so, or its declarer chose low) "
                   f"the cards of a plain suit rank {_order(v, low['suit'])}, best first"
                   + (f", and those of the trump suit {_order(v, low['trump'], lambda t: _trump_words(t, v))}, best first."
                      if low.get("trump") else "."))
    for g, entry in (v.data.get("contract_groups") or {}).items():
        out += _group_words(v, g, entry or {})
    return out


def _special_words(v, r: dict) -> list:
    """``ranking.special`` and ``ranking.equal`` in words, one sentence per card."""
    out = []
    if r.get("equal") == "last":
        out.append("Of two equal cards in a trick, the one played last wins.")
    elif v.deck.has_copies:
        out.append("Of two equal cards in a trick, the one played first wins.")
    for name, rules in (r.get("special") or {}).items():
        rules = rules or {}
        said = []
        if rules.get("follows") == "any":
            said.append("may be played whatever was led, even by a player who can follow suit")
        if rules.get("wins") == "always":
            said.append("wins any trick it is played to" + (" (of two, the last played)" if rules.get("equal") == "last"
                                                           else " (of two, the first played)"
                                                           if any(sp.copies > 1 and name in (sp.token, sp.kind)
                                                                  for sp in v.deck.specials) else ""))
        elif rules.get("wins") == "never":
            said.append("never wins a trick")
        if rules.get("equal", r.get("equal") or "first") != (r.get("equal") or "first") and rules.get("wins") != "always":
            said.append(f"of two in one trick, the one played {rules['equal']} wins")
        led = rules.get("led") or {"always": "free", "never": "next"}.get(rules.get("wins", ""), "")
        if led == "next" and v.deck.index.get(name, -1) >= 0 and v.deck.is_special(v.deck.index[name]) \
                or led == "next" and any(sp.kind == name for sp in v.deck.specials):
            said.append("when led, the next card of a suit sets the suit to follow")
        elif led == "free" and (name in v.deck.index and v.deck.is_special(v.deck.index[name])
                                or any(sp.kind == name for sp in v.deck.specials)):
            said.append("when led, the others may play any card")
        if rules.get("slam"):
            said.append("led to the last trick by a side that has won every earlier trick, it wins that trick")
        if rules.get("kept"):
            x = rules.get("exchange", 0)
            said.append("its owner's side keeps it though another side wins the trick"
                        + (" (except on the last trick, where it goes with the trick)" if rules["kept"] == "not_last" else "")
                        + (f", giving the trick's winner {x} card point{'s' if x != 1 else ''} in exchange" if x else ""))
        if said == [f"of two in one trick, the one played {rules.get('equal')} wins"]:
            out.append(f"Of two {_card_words(v, name)} in one trick, the one played {rules['equal']} wins.")
        elif said:
            who = _card_words(v, name)
            if any(sp.kind == name and sp.copies > 1 for sp in v.deck.specials):
                who = "each of the " + who   # (the verbs speak of one card)
            out.append(f"{who[:1].upper() + who[1:]} " + "; ".join(said) + ".")
    return out


def _card_words(v, name: str) -> str:
    """A card text of ``ranking.special`` in words: a suited card with its suit's symbol (``10♥``,
    meaning every copy), a suitless card by its name."""
    deck = v.deck
    c = deck.index.get(name, -1)
    if c >= 0 and not deck.is_special(c):
        return deck.pretty(c).split(":")[0]
    return _joker(v, name)


def _group_words(v, g: str, entry: dict) -> list:
    """A contract group in words: which contracts name it and what it changes."""
    calls = [b.text for p in v.phases for b in REGISTRY[p.kind].contracts(p) if b.group == g]
    who = f"Contracts of group {g} ({_list(dict.fromkeys(calls))})" if calls else f"Contracts of group {g}"
    changes = []
    rk = entry.get("ranking") or {}
    if "suit" in rk:
        changes.append(f"rank a plain suit {_order(v, rk['suit'])}")
    if "trump" in rk:
        changes.append("rank the trump suit as a plain suit" if rk["trump"] is None else
                       "rank the trump suit " + _order(v, rk["trump"], lambda t: _trump_words(t, v)))
    if "top" in rk:
        changes.append("have no cards above the suits" if rk["top"] is None else
                       f"put {_tokens_words(v, rk['top'])} above the suits at no trump")
    if "card_points" in entry:
        pts = entry["card_points"] or {}
        changes.append("count no card points" if not pts else
                       "count card points " + ", ".join(f"{k} {x}" for k, x in pts.items()))
    for key, what in (("widow_to", "the cards left undealt"), ("discards_to", "the discards")):
        if key in entry:
            changes.append(f"give {what} to {_TO[entry[key]]}")
    return [f"{who} {_list(changes)}."] if changes else []


_TO = {"declarer": "the declarer", "defenders": "the defenders", "last_trick": "the winner of the last trick",
       "none": "nobody"}


def _trump_words(text, v=None) -> str:
    """A trump ranking in words: suitless cards (by their names) and bowers named."""
    words: list = []   # (a card that is a trump whatever suit is trumps: a 1-tuple)
    named = {sp.token for sp in v.deck.specials if sp.name} if v is not None else set()
    for tok in str(text).split():
        if tok in named:
            words.append(_joker(v, tok))
        elif tok == JOKER:
            words.append("the Joker")
        elif tok.startswith(JOKER):
            words.append(f"the joker {tok}")
        elif v is not None and tok in v.deck.index and not v.deck.is_special(v.deck.index[tok]):
            words.append((v.deck.pretty(v.deck.index[tok]).split(":")[0],))   # (every copy)
        elif tok.endswith(":trump"):
            words.append(f"the right bower ({tok.split(':')[0]} of trumps)")
        elif tok.endswith(":sister"):
            words.append(f"the left bower ({tok.split(':')[0]} of the other suit of the same colour, "
                         "which counts as a trump)")
        else:
            words.append(tok)
    out: list = []   # a run of cards that are trumps whatever suit is trumps, said once
    for k, w in enumerate(words):
        if isinstance(w, tuple):
            run_ends = k + 1 == len(words) or not isinstance(words[k + 1], tuple)
            one = k == 0 or not isinstance(words[k - 1], tuple)
            out.append(w[0] + ("" if not run_ends else " (a trump whatever suit is trumps)" if one
                               else " (trumps whatever suit is trumps)"))
        else:
            out.append(w)
    return ", ".join(out)


def _dealer(v) -> list:
    fd = v.first_dealer
    if "seat" in fd:
        first = f"Seat {fd['seat']} deals first"
    else:
        first = f"Each player cuts a card; the {'lowest' if fd.get('cut') == 'low' else 'highest'} cut deals first"
    ahead, back = ("to the right", "to the left") if v.step == -1 else ("to the left", "to the right")
    rot = {1: ahead, -1: back, 0: "stays with the same player"}.get(v.rotation if v.rotation in (0, 1) else -1, ahead)
    return [f"{first}; the deal then passes {rot}."]


def _bid_values(v) -> list:
    """Rows ``(bid text, value)`` when a ``scoring.let`` formula reads only the bid."""
    auction = v.auction()
    lets = (v.data.get("scoring") or {}).get("let") or {}
    if auction is None or not REGISTRY[auction.kind].contracts(auction) or not lets:
        return []
    consts = tuple(v.deck.suits) + ("NT",)
    macros: dict = {}
    names = {n: "any" for n in ("level", "strain", "tricks", "declarer_tricks", "total_tricks", "points",
                                "players", "is_declarer", "has_contract", "trump", "doubled", "redoubled",
                                "vulnerable", "declarer_points", "game_score", "seat", "declarer_vulnerable",
                                "null", "open_game", "bid_value")}   # the last three: a ladder bid's own
    for k, text in lets.items():
        try:
            macros[k] = compile_expr(text, names, consts, dict(macros))
        except RulekitError:
            return []
    for k, f in macros.items():
        if not f.names or not set(f.names) <= {"level", "strain", "null", "open_game", "bid_value"}:
            continue
        rows = []
        for b in REGISTRY[auction.kind].contracts(auction):
            if b.strain not in auction.strains:  # trumps named later: valued as the suit named
                rows.append((b.text, f"as {b.level} in the suit named"))
                continue
            strain = auction.strains.index(b.strain)
            try:
                own = {"null": False, "open_game": False, "bid_value": 0}
                own.update(b.variables() if hasattr(b, "variables") else {})
                rows.append((b.text, f(Env({"level": b.level, "strain": strain, **own}))))
            except (RulekitError, KeyError, TypeError):
                rows = []
                break
        if rows:
            return [(k, rows)]
    return []


def _phases(v) -> list:
    out = []
    for i, spec in enumerate(v.phases, 1):
        kind = REGISTRY[spec.kind]
        text = kind.describe_in(spec, v) or kind.schema.get("description", "")
        out.append(f"{i}. **{spec.name}** — {in_direction(text, v.step)}")
    return out


#: The words of a seat's place in the direction of play, and their counter-clockwise words
#: (a passing phase's "to the left" is the side at the table: it stays).
_CCW = ((re.compile(r"(?<![-\w])clockwise"), "counter-clockwise"),
        (re.compile(r"\bleft of the dealer"), "right of the dealer"),
        (re.compile(r"\b(dealer|declarer|eldest hand)'s left\b"), r"\1's right"),
        (re.compile(r"\bleft-hand\b"), "right-hand"))


def in_direction(text: str, step: int) -> str:
    """``text`` (a phase's words, written for clockwise play) in the direction of play: with
    ``step`` -1 (``direction: counterclockwise``) "clockwise" reads "counter-clockwise" and the
    eldest hand sits at the dealer's right."""
    if step != -1:
        return text
    for pat, words in _CCW:
        text = pat.sub(words, text)
    return text


def _scoring(v) -> list:
    sc = v.data.get("scoring") or {}
    out = []
    who = "each side" if v.scoring.by_side else "each player"
    out.append(f"Scores are kept for {who}" + (", and lower totals are better (points are penalties)."
                                               if v.scoring.lower_is_better else "."))
    for name, rows in _bid_values(v):
        out.append("")
        out.append(f"The {name} of each bid:")
        out.append("")
        out.append("| Bid | " + name.capitalize() + " |")
        out.append("|---|---|")
        out += [f"| {b} | {val} |" for b, val in rows]
    if v.scoring.tallies:
        out.append("")
        out.append("Counts of cards:")
        out.append("")
        out += [f"- **{t.name}** {_tally_words(t, v)}." for t in v.scoring.tallies]
    lets = sc.get("let") or {}
    if lets:
        out.append("")
        out.append("Named formulas:")
        out.append("")
        for k, t in lets.items():
            out += formula_line(f"**{k}** {'holds when' if is_condition(t) else 'is'}", t)
    label = {"each": "Every player scores", "declarer": "The declarer scores",
             "defender": "Each defender scores", "no_contract": "When there is no contract, each player scores",
             "void_if": "The hand is void (not scored) when"}
    if v.scoring.by_side:
        label.update(each="Every side scores", declarer="The declaring side scores",
                     defender="The defending side scores",
                     no_contract="When there is no contract, each side scores")
    if not v.scoring.by_side and any(REGISTRY[spec.kind].gives_partner for spec in v.phases):
        # a partner called for the hand is scored with the declarer's formula (engine/scoring.py)
        label.update(declarer="The declarer, and his partner when he has called one, each score",
                     defender="Each other player (a defender) scores")
    lines = [x for k in label if sc.get(k) is not None for x in formula_line(label[k], sc[k])]
    for pname, part in (sc.get("parts") or {}).items():
        for k in ("declarer", "defender", "each"):
            if (part or {}).get(k) is not None:
                lines += formula_line(f"In **{pname}**, {label[k][0].lower() + label[k][1:]}", part[k])
    if lines:
        out += [""] + lines
    return out


def _tally_words(t, v) -> str:
    """A ``scoring.tallies`` entry in words (:func:`_tally_plain_words`), then its trick
    filters: the trick's worth, the card that won it, the cards of the other side only, and
    the whole party counting together."""
    words = _tally_plain_words(t, v)
    extra = []
    if t.worth:
        extra.append(f"counting only tricks worth {t.worth} card points or more")
    if t.won_by:
        extra.append("counting only tricks won by the " + _list(list(dict.fromkeys(
            v.deck.base(c) for c in range(v.deck.size) if t.won_by >> c & 1))))
    if t.from_others:
        extra.append("counting only the cards the other " + ("party" if t.party else "players") + " played")
    if t.party:
        extra.append({"own": "for his whole party this hand (the declaring party, or the others)",
                      "declaring": "for the declaring party this hand, the same in every column",
                      "others": "for the players outside the declaring party this hand, the same in every "
                                "column"}[t.party])
    return words + (" (" + "; ".join(extra) + ")" if extra else "")


def _tally_plain_words(t, v) -> str:
    """A ``scoring.tallies`` entry in words, following its form (``in``: hand / side_hands /
    tricks, ``count: tricks``, ``pick``, picked tricks): e.g. ``is 1 for the side that won the
    last trick, otherwise 0``; ``is the most of the K and Q of trumps dealt to one player of his
    side (2 when one player was dealt both)``."""
    side = v.scoring.by_side
    who, owner = ("his side", "the side") if side else ("he", "the player")
    if t.trump_only:
        n = len(t.ranks)
        what = "trump" if t.pick else f"{_list(t.ranks)} of trumps"
        every = False
    else:
        deck = v.deck
        names = []
        for su in deck.suits:  # a whole suit by its name, else its cards
            suit = {c for c in range(deck.size) if deck.suit_of(c) == su}
            held = {c for c in suit if t.mask >> c & 1}
            if held and held == suit:
                names.append(deck.suit_name(su))
            else:
                names += list(dict.fromkeys(deck.base(c) for c in sorted(held)))
        names += list(dict.fromkeys(deck.base(c) for c in range(deck.size) if deck.is_special(c) and t.mask >> c & 1))
        n = t.mask.bit_count()
        every = names == [deck.suit_name(su) for su in deck.suits]
        what = "cards" if every else ("card of " if t.pick else "") + _list(names or ["no card"])
    if t.pick:
        got, after = ("won", " in a trick") if t.where == "tricks" else (
            ("was dealt", " (to one of its players)") if side else ("was dealt", ""))
        among = "played to the tricks" if t.where == "tricks" else "dealt"
        return (f"is 1 for {owner} {'that' if side else 'who'} {got} the {t.pick} {what} in play (of the cards "
                f"{among}){after}, otherwise 0")
    picked = ["the last trick" if k == v.hand_size - 1 else f"trick {k + 1}" for k in t.tricks]
    if t.led:   # only the card led to each trick
        where = _list(picked) if picked else "a trick"
        if len(picked) == 1:
            return f"is 1 for {owner} that won {where} when the {what} was led to it, otherwise 0"
        return f"is the number of the {what} led to the tricks {who} won{' (' + where + ')' if picked else ''}"
    if t.count == "tricks":
        holding = "" if every else f" holding one of the {what}"
        if len(picked) == 1:
            return f"is 1 for {owner} that won {picked[0]}{holding}, otherwise 0"
        if picked:
            return f"is how many of {_list(picked)} {who} won{holding}"
        return f"is the number of tricks {who} won{holding}"
    only = f" (counting only {_list(picked)})" if picked else ""
    if t.where == "tricks":
        if n == 1:
            return f"is 1 when {who} won the {what} in a trick{only}, otherwise 0"
        return f"is the number of the {what} in the tricks {who} won{only}"
    if t.where == "side_hands":
        return (f"is the number of the {what} dealt to the players of his side together" if side
                else f"is the number of the {what} dealt to him")
    if side:
        both = {1: "", 2: " (2 when one player was dealt both)"}.get(
            n, f" ({n} when one player was dealt all of them)" if t.trump_only else "")
        return f"is the most of the {what} dealt to any one player of his side{both}"
    return f"is the number of the {what} dealt to him"


def _match(v) -> list:
    m = v.match
    out = []
    if m.target is not None:
        if v.scoring.lower_is_better:
            out.append(f"The match ends when a total reaches {m.target} points; then the lowest total wins.")
        else:
            cond = (v.data.get("match") or {}).get("target_if")
            out.append(f"The first to reach **{m.target} points** wins" + (
                f", on a hand where {formula_words(cond)} (`{cond}`): reaching it otherwise, play goes on."
                if cond else "."))
    if m.lose_at is not None:
        out.append(f"A total of **{m.lose_at}** or less loses the match.")
    text = (v.data.get("match") or {}).get("immediate_win")
    if text:
        out.append(f"A declarer wins the match at once when {formula_words(text)} (`{text}`).")
    if m.ties:
        order = ", ".join(str(x) for x in (v.data.get("match") or {}).get("count_order", ()))
        out.append("When several reach the target in the same hand: " + ", then ".join(
            {"declarer": "the declarer wins", "trick_order": "the one who reached it at the earliest trick wins",
             "count_order": f"the hand's points are counted in the order {order}, and the first to reach it wins",
             "play_on": "the higher total wins, and on equal totals another deal is played"}
            .get(t, t) for t in m.ties) + ".")
    deals = (v.data.get("match") or {}).get("deals")
    if deals is not None:
        # a plain number needs no formula beside it (user pass 2, finding 9)
        if str(deals).strip().isdigit():
            one = str(deals).strip() == "1"
            out.append(f"The match lasts {deals} deal{'' if one else 's'}; the best total wins.")
        else:   # a formula reads as a noun phrase ("the number of players"), not as a count
            out.append(f"The match lasts as many deals as {formula_words(deals)} (`{deals}`); the best total wins.")
    if m.rubber_games:
        out.append(f"A rubber is won by the first side to win {m.rubber_games} games"
                   + (f" (a game: {m.game_target} points below the line)." if m.game_target else "."))
    if not out:
        out.append(f"The match ends after at most {m.max_hands} deals; the best total wins.")
    return out


def _overlay(base: dict, over: dict) -> dict:
    """``over`` merged onto ``base`` as a round overlays the base rules: mappings key by key,
    ``null`` removes a key."""
    out = dict(base)
    for k, x in over.items():
        if x is None:
            out.pop(k, None)
        elif isinstance(x, dict) and isinstance(out.get(k), dict):
            out[k] = _overlay(out[k], x)
        else:
            out[k] = x
    return out


def _rounds(v) -> list:
    """The round schedule: the rounds in order, then each ``rounds:`` entry's objective, phases
    and scoring, described as a whole variant's (its rounds share the variant's ``data``, so
    the entry's scoring is laid over the base scoring here for the formulas as written)."""
    out = [f"The match is **{len(v.rounds)} deals**, each a round with its own rules, in this order:", ""]
    out += [f"{i}. {rv.round_name}" for i, rv in enumerate(v.rounds, 1)]
    base_scoring = v.data.get("scoring") or {}
    k = 0
    for entry in v.data.get("rounds") or ():
        times = entry.get("times", 1)
        times = v.players if times == "players" else int(times)
        rv = v.rounds[k]
        first, last = k + 1, k + times
        k += times
        which = f"Round {first}" if times == 1 else f"Rounds {first} to {last} ({times} deals)"
        scoring = _overlay(base_scoring, entry.get("scoring") or {})
        rdata = dict(v.data, scoring=scoring)
        if "ranking" in entry:
            rdata["ranking"] = _overlay(v.data.get("ranking") or {}, entry["ranking"] or {})
        rv = _replace(rv, data=rdata)
        out += ["", f"### {which}: {entry['name']}", ""]
        if entry.get("objective"):
            out += [f"*{entry['objective']}*", ""]
        if "ranking" in entry:
            out += _ranking(rv) + [""]
        out += _phases(rv) + [""] + _scoring(rv)
    return out


def _replace(v, **changes):
    import dataclasses
    return dataclasses.replace(v, **changes)


def explain(v) -> str:
    """The rulebook of the compiled variant ``v`` as Markdown text (ends with a newline); the file's
    names and words with their control and bidi characters made visible (:func:`rulekit.text.visible`),
    its name, source and omitted rules each one line of Markdown that shows as written
    (:func:`rulekit.text.markdown_line`: a newline or a ``*`` in them lays out nothing)."""
    out = [f"# {markdown_line(v.name)}", ""]
    if v.source:
        out += [f"Source: {markdown_line(v.source)}.", ""]
    n = v.players
    if len(v.sides) < n and any(len(s) > 1 for s in v.sides):
        sides = "; ".join(f"{name}: seats {', '.join(str(v.seat_names[s]) if v.seat_names else str(s) for s in seats)}"
                          for name, seats in zip(v.side_names, v.sides))
        # opposite only when every side is two seats half the table apart (six players in two
        # sides of three sit alternately)
        opposite = all(len(t) == 2 and (t[1] - t[0]) % n == n // 2 for t in v.sides)
        alternate = all(len({x % len(v.sides) for x in t}) == 1 for t in v.sides)
        seating = ", partners sitting opposite" if opposite else (
            ", partners sitting alternately with their opponents" if alternate else "")
        out += [f"**{n} players** in partnerships ({sides}){seating}.", ""]
    else:
        out += [f"**{n} players**, each playing for himself.", ""]
    if v.step == -1:
        passing = any(REGISTRY[p.kind].passes_sideways(p) for p in v.phases)
        out += ["Play goes **counter-clockwise**: dealing, bidding, play and the deal all pass to the right"
                + (" (the passing of cards says the side at the table)." if passing else "."), ""]
    out += ["## The cards", ""] + _deck(v) + [""] + _ranking(v) + [""]
    out += ["## The deal", ""] + _dealer(v) + [""]
    if v.rounds:  # each round has its own phases and scoring: the base ones are never played as such
        out += ["## The rounds", ""] + _rounds(v) + [""]
        best = "lowest" if v.scoring.lower_is_better else "highest"
        out += ["## End of the match", "", f"The match ends after the last round (round {len(v.rounds)}, "
                f"{v.rounds[-1].round_name}); the {best} total wins.", ""]
    else:
        out += ["## A hand, step by step", ""] + _phases(v) + [""]
        out += ["## Scoring", ""] + _scoring(v) + [""]
        out += ["## End of the match", ""] + _match(v) + [""]
    omitted = v.data.get("omitted") or ()
    if omitted:  # what the file says it leaves out of the published game
        out += ["## Not included", "", "This file leaves out these rules of the published game:", ""]
        out += [f"- {markdown_line(x)}" for x in omitted] + [""]
    return visible("\n".join(out))


__all__ = ["explain", "formula_words"]
