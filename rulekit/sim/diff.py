"""What differs between two rule files, said in rule words (``rulekit diff``).

Both files are read as the engine reads them — ``extends:`` chains merged, the
schema checked, the variant compiled — and their merged documents are compared
value by value.  Each difference is named by its document path and said in the
words of the schema's ``description`` for that key, with the old and the new
value.  When a scoring formula (or a ``let:`` it reads) differs, both compiled
variants score the same made-up outcomes (each contract, each number of tricks)
and a few outcomes whose entry changes are shown as examples.

>>> d = diff_variants("fivehundred", "fivehundred-must-trump")
>>> [c.path for c in d.changes]
['phases.play.must_trump']
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from rulekit.cards import SUIT_SYMBOLS
from rulekit.engine.phases import REGISTRY
from rulekit.variant import load_variant
from rulekit.variant.loader import schema

#: Keys that name or describe a file but change no rule.
METADATA = ("id", "name", "source", "extends")

#: Outcomes shown per changed formula (all are counted).
MAX_EXAMPLES = 4


@dataclass(frozen=True)
class Change:
    """One rule that differs.

    :ivar path: dotted document path (``phases.play.must_trump``).
    :ivar meaning: what the key means, from the schema's description (lower case, no full stop).
    :ivar old, new: the values in the first and the second file (``None``: not set).
    :ivar formula: the values are DSL formulas (shown as text, not quoted).
    """

    path: str
    meaning: str
    old: object
    new: object
    formula: bool = False

    def text(self) -> str:
        """One line: ``meaning: old -> new (path)``; formulas get a line each."""
        if self.formula:
            return (f"{self.meaning} ({self.path}):\n    was: {_show(self.old, True)}\n"
                    f"    now: {_show(self.new, True)}")
        return f"{self.meaning}: {_show(self.old)} -> {_show(self.new)} ({self.path})"


@dataclass
class VariantDiff:
    """The differences between variants ``a`` and ``b``.

    :ivar a, b: the names given (ids or paths).
    :ivar changes: the rules that differ, in document order of ``a`` then ``b``.
    :ivar examples: outcomes scored differently, as sentences (``6♠, declarer takes
        10 tricks: declarer 40 -> 250``); ``differing`` of ``outcomes`` tried differ.
    """

    a: str
    b: str
    changes: list = field(default_factory=list)
    examples: list = field(default_factory=list)
    differing: int = 0
    outcomes: int = 0
    untried: list = field(default_factory=list)

    @property
    def same(self) -> bool:
        """True when no rule differs (names, sources and ``extends:`` do not count)."""
        return not self.changes

    def lines(self) -> list[str]:
        """The report as lines of plain text."""
        if self.same:
            return [f"no rule differs between {self.a} and {self.b}"]
        n = len(self.changes)
        out = [f"{n} rule{'s' if n != 1 else ''} differ{'s' if n == 1 else ''} from {self.a} to {self.b}:"]
        for c in self.changes:
            first, *rest = c.text().split("\n")
            out.append("- " + first)
            out.extend(rest)
        formulas = any(c.formula and c.path.startswith("scoring.") and not c.path.startswith("scoring.tallies.")
                       for c in self.changes)
        if self.outcomes and (formulas or self.differing):
            out.append(f"scoring: {self.differing} of {self.outcomes} outcomes tried score differently"
                       + (", e.g." if self.examples else ""))
            out.extend("    " + e for e in self.examples)
        if self.untried:  # the outcomes are tricks and tally counts: how cards are counted is not in them
            out.append(f"scoring: how tallies count ({', '.join(self.untried)}) "
                       f"differ{'s' if len(self.untried) == 1 else ''}: not tried (the outcomes tried give "
                       f"tricks and tally counts, not the cards a tally counts)")
        return out

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {"a": self.a, "b": self.b, "same": self.same,
                "changes": [{"path": c.path, "meaning": c.meaning, "old": c.old, "new": c.new}
                            for c in self.changes],
                "outcomes": self.outcomes, "differing": self.differing, "examples": list(self.examples),
                "untried": list(self.untried)}


def diff_variants(a: str, b: str, players: int | None = None) -> VariantDiff:
    """Compare two variants (ids or paths) rule by rule.

    :param players: the ``players`` setting for variants that offer a choice.
    :raises VariantError: when either file has problems (with every diagnostic).
    """
    va = load_variant(a, players=players)
    vb = load_variant(b, players=players)
    d = VariantDiff(a, b)
    for path, old, new in _walk(va.data, vb.data, ()):
        if path[0] in METADATA:
            continue
        meaning, formula = _meaning(path, va.data if old is not None else vb.data)
        d.changes.append(Change(".".join(map(str, path)), meaning, old, new, formula))
    # how a tally counts cards (which cards, in hand or in tricks) cannot be scored from made-up
    # trick counts: said as not tried rather than hidden in "0 of N" (user pass finding 7)
    d.untried = sorted({".".join(c.path.split(".")[:3]) for c in d.changes
                        if c.path.startswith("scoring.tallies.")})
    if any(c.path.split(".")[0] == "scoring" for c in d.changes):
        d.outcomes, every = scored_differently(va, vb)
        d.differing = len(every)
        step = max(1, len(every) / MAX_EXAMPLES)  # a few spread over all, not the first few of one contract
        d.examples = [every[int(i * step)] for i in range(min(MAX_EXAMPLES, len(every)))]
    return d


def _walk(x, y, path):
    """``(path, old, new)`` for each leaf that differs; mappings are compared key by key,
    any other value (lists too) as a whole."""
    if isinstance(x, dict) and isinstance(y, dict):
        for k in list(x) + [k for k in y if k not in x]:
            yield from _walk(x.get(k), y.get(k), path + (k,))
        return
    if _norm(x) != _norm(y):
        yield path, x, y


def _norm(v):
    """Formulas differing only in spacing are the same rule."""
    return " ".join(v.split()) if isinstance(v, str) else v


def _show(v, formula: bool = False) -> str:
    if v is None:
        return "(not set)"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):
        return v if formula else json.dumps(v, ensure_ascii=False)
    return json.dumps(v, ensure_ascii=False)


# ---------------------------------------------------------------------- schema words
def _meaning(path: tuple, data: dict) -> tuple[str, bool]:
    """What the key at ``path`` means (its schema description, or its parent's with the
    key named), and whether its value is a formula."""
    root = schema()
    nodes = [root]
    node = root
    doc: object = data   # the document's value at the path so far (None past its end)
    named = None  # the key of an entry of a free-form mapping (a phase or let: name)
    for key in path:
        sub, free = _child(root, node, key, doc)
        if sub is None:
            break
        named = key if free else None
        doc = doc.get(key) if isinstance(doc, dict) else None
        node = sub
        nodes.append(node)
    words = ""
    for i, n in enumerate(reversed(nodes)):
        desc = _resolve(root, n).get("description", "")
        if desc and not (i == 0 and named is not None and len(desc) < 20):
            words = desc
            break
    words = _sentence(words) or "a setting"
    if named is not None and i > 0:  # an entry of a mapping: the mapping's words, short, and the key
        words = re.sub(r"\s*\([^)]*\)", "", words.split(";")[0].split(", e.g.")[0]) + f": {named}"
    leaf = _resolve(root, node)
    formula = (leaf.get("type") == "string" and "formula" in (leaf.get("description", "") + words).lower()
               or path[0] == "scoring" and isinstance(doc, str))
    return words, formula


def _sentence(desc: str) -> str:
    """The description's first sentence as a clause: ``a player who ... has one``."""
    s = desc.strip()
    if not s:
        return ""
    depth = 0   # a full stop ends the sentence, but not inside brackets nor after e.g. / i.e.
    for m in re.finditer(r"[()]|\.\s+(?=[A-Z`])", s):
        if m.group() in "()":
            depth = max(0, depth + (1 if m.group() == "(" else -1))
        elif depth == 0 and not re.search(r"\b(?:e\.g|i\.e)$", s[:m.start()], re.IGNORECASE):
            s = s[:m.start()]
            break
    s = s.rstrip(".")
    return s if len(s) > 1 and s[1].isupper() else s[0].lower() + s[1:]


def _resolve(root: dict, node: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        target = root
        for part in ref.lstrip("#/").split("/"):
            target = target[part]
        extra = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **extra}
    return node if isinstance(node, dict) else {}


def _branches(root: dict, node: dict, doc) -> list:
    """``node`` and the sub-schemas that apply to ``doc`` (oneOf/anyOf, allOf with if/then)."""
    node = _resolve(root, node)
    out = [node]
    for key in ("oneOf", "anyOf"):
        out += [b for alt in node.get(key, ()) for b in _branches(root, alt, doc)]
    for part in node.get("allOf", ()):
        cond = part.get("if", {}).get("properties", {})
        if all(isinstance(doc, dict) and doc.get(k) == c.get("const") for k, c in cond.items()):
            out += _branches(root, part.get("then", part), doc)
    return out


def _child(root: dict, node: dict, key, doc) -> tuple[dict | None, bool]:
    """The schema of ``doc[key]`` under ``node``; True when it comes from
    ``additionalProperties`` (an entry whose key the author names)."""
    branches = _branches(root, node, doc)
    for b in branches:
        sub = b.get("properties", {}).get(key)
        if isinstance(sub, dict) and sub:
            return sub, False
    for b in branches:
        sub = b.get("additionalProperties")
        if isinstance(sub, dict):
            return sub, True
    return None, False


# ---------------------------------------------------------------------- scoring examples
def scored_differently(va, vb) -> tuple[int, list[str]]:
    """Score the same outcomes under both variants: every contract the first one's auction
    offers (also in the second's), every number of declarer tricks, undoubled and doubled
    where the auction allows it, not vulnerable and vulnerable where vulnerability exists;
    a hand without a contract for every number of tricks.  Seat 0 declares (or takes ``t``
    tricks without a contract), seat 1 takes the rest.

    :param va, vb: compiled variants.
    :returns: ``(outcomes tried, one sentence per outcome whose entries differ)``, e.g.
        ``6♠, declarer takes 8 tricks: declarer 40 -> 250``; ``(0, [])`` when the variants
        have different players or hand sizes."""
    from rulekit.engine.scoring import column_of, entries_for, envs_for
    from rulekit.errors import RulekitError

    if va.players != vb.players or va.hand_size != vb.hand_size:
        return 0, []
    total = va.hand_size
    n = va.players
    auction_a, auction_b = va.auction(), vb.auction()
    cases: list[tuple] = []  # (label, contract a, contract b, trump, doubled, vulnerable, tricks)
    if auction_a is not None and auction_b is not None:
        bids_b = {bid.text: bid for bid in REGISTRY[auction_b.kind].contracts(auction_b)}
        doubles = (0, 1, 2) if REGISTRY[auction_a.kind].doubles(auction_a) else (0,)
        vuls = (False, True) if va.vulnerability or vb.vulnerability else (False,)
        for bid in REGISTRY[auction_a.kind].contracts(auction_a):
            if bid.text not in bids_b:
                continue
            trump = bid.strain if bid.strain in va.contexts else next(iter(s for s in va.deck.suits))
            for dbl in doubles:
                for vul in vuls:
                    for t in range(total + 1):
                        label = _bid_words(bid.text) + ("", " doubled", " redoubled")[dbl] + \
                            (" vulnerable" if vul else "") + f", declarer takes {t} trick{'s' if t != 1 else ''}"
                        cases.append((label, bid, bids_b[bid.text], trump, dbl, vul, t))
    if auction_a is None or REGISTRY[auction_a.kind].plays_all_passed(auction_a):
        for t in range(total + 1):
            trump = "NT" if "NT" in va.contexts else next(iter(va.contexts))
            label = f"no contract, a player takes {t} trick{'s' if t != 1 else ''} (another {total - t})"
            cases.append((label, None, None, trump, 0, False, t))
    # each outcome with every tally 0, then with one tally won by the declarer (seat 0), so that
    # formulas reading tallies are tried too
    names = list(dict.fromkeys([t.name for t in va.scoring.tallies] + [t.name for t in vb.scoring.tallies]))
    outcomes = [c + (tal,) for c in cases for tal in [None] + names]
    examples = []
    for label, bid_a, bid_b, trump, dbl, vul, t, tal in outcomes:
        won = [0] * n
        won[0] = t
        won[1 % n] = total - t
        if tal is not None:
            label += f", {tal} to the {'declarer' if bid_a is not None else 'player'}"
        rows: list[list | None] = []
        for v, bid in ((va, bid_a), (vb, bid_b)):
            cols = len(v.sides) if v.scoring.by_side else n
            extra = {"doubled": dbl, "vulnerable": [vul] * cols}
            if v.scoring.tallies:
                extra["tallies"] = [{x.name: int(x.name == tal and c == column_of(v, 0)) for x in v.scoring.tallies}
                                    for c in range(cols)]
            try:
                envs = envs_for(v, bid, 0 if bid is not None else -1, trump, won, [0] * n, extra)
                rows.append(entries_for(v, bid, 0 if bid is not None else -1, envs))
            except (RulekitError, ValueError, IndexError, KeyError):
                rows.append(None)
        old, new = rows
        if old == new:
            continue
        role = []
        if old is None or new is None:  # a formula failed under one of them
            role.append(f"{_show(old)} -> {_show(new)}")
        else:
            roles = ("declarer", "defender") if bid_a is not None else ("player", "others")
            for who, c in zip(roles, (column_of(va, 0), column_of(va, 1 % n))):
                if old[c] != new[c]:
                    role.append(f"{who} {old[c]} -> {new[c]}")
            role = role or [f"entries {old} -> {new}"]  # only a third seat's entry changed
        examples.append(f"{label}: {', '.join(role)}")
    return len(outcomes), examples


def _bid_words(text: str) -> str:
    """``8S`` -> ``8♠`` (other bids as they are)."""
    if len(text) >= 2 and text[-1] in SUIT_SYMBOLS and text[:-1].isdigit():
        return text[:-1] + SUIT_SYMBOLS[text[-1]]
    return text


__all__ = ["Change", "VariantDiff", "diff_variants", "scored_differently"]
