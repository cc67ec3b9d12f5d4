"""``defence`` phase: the opponents of the declarer decide whether to play against him,
may invite each other, and may double in a chain (rules/preferans.md [F1]-[F6]).

* ``follow`` / ``pass``: each opponent in turn, from the declarer's left ([F1]); at the
  contracts of ``all_play`` both must play.  Both pass: the hand is not played (the
  phases of ``skips`` are skipped) and counts as made ([F2]).
* One follows: he plays ``alone`` or ``invite``-s the other, who must play ([F4]).
* At the contracts of ``kontra_only`` the opponents do not follow: each says ``kontra`` or
  ``pass``; without a kontra the hand counts as made ([F2]).
* At the contracts of ``compulsory_kontra`` a defender who follows says the first word of the
  chain at once (his follow is a kontra); both passing is as above.
* These two, and ``unplayed_choice``, are for the *plain* contract: [F2] "a plain 2 (pik won
  with the talon, no refe)".  A declarer who plays with a marker (an open refe) is defended
  as at any other contract: follow or pass, a kontra optional, nobody playing counts as made.
* The chain ``kontra`` (x2), then the declarer, the kontra player... (``chain`` words, each
  doubling; [F5]); a defender who had passed must play once kontra is said.
* ``unplayed_choice`` (a marker of ``scoring.markers``, at its ``contracts``): when nobody
  plays, the declarer chooses: ``made`` (counted as made, as above) or the marker's name (the
  hand is not scored and one such marker is written for him alone, within the marker's
  limits; it doubles his next contract as declarer).  Without room for one, no choice:
  counted as made (rules/preferans.md lines 8-9, "refe or -4 when nobody kontras").

Formula variables per score column (:meth:`DefenceKind.variables`): ``played`` (the
hand was played), ``kontra`` (the chain's factor, 1..2**len(chain)), ``kontra_player``,
``defends`` (plays against the declarer), ``writer`` (how many defenders' soup this
column writes: 0, 1 or 2), ``soup_tricks`` (the tricks it writes soup for) and ``short``
(it answers for the defence and took fewer tricks than ``need`` asks: ``each`` when both
play, unless together they reach ``together``; ``alone``; ``invited`` for an inviter and
his partner; ``kontra`` for the kontra player and his partner).  The lone, inviting or
kontra defender counts the defence's tricks together ([F4] [F5]).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.engine.actions import PASS, Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases.base import PhaseKind, PhaseSpec, check_phase_names
from rulekit.engine.phases.table import Table
from rulekit.errors import IllegalActionError

FOLLOW, ALONE, INVITE = Action("defend", "follow"), Action("defend", "alone"), Action("defend", "invite")
MADE = Action("defend", "made")


@dataclass(frozen=True)
class DefenceSpec(PhaseSpec):
    """A compiled ``defence`` entry (see the module docstring)."""

    need: tuple          # (each, together, alone, invited, kontra)
    all_play: frozenset
    kontra_only: frozenset
    chain: tuple
    skips: tuple
    compulsory_kontra: frozenset = frozenset()
    choice_marker: str = ""          # unplayed_choice.marker ("": no choice)
    choice_at: frozenset = frozenset()   # unplayed_choice.contracts (empty: every contract)


@dataclass
class DefenceData(KindData):
    """``defence``'s data for one hand: the ``stage`` (``follow``, ``invite``, ``kontra``,
    ``kontra_only``, ``chain``, ``choice``); each defender's ``roles`` (``follow``, ``pass``,
    ``forced``, ``invited``); the ``queue`` of seats still to speak in the stage; the kontra chain's
    ``level`` and the defender who said kontra (``kontra_seat``); ``played`` (1: the hand is
    played, 0: nobody defends); the declarer's ``choice`` when nobody plays (``""``: not made);
    ``plain``: the declarer plays no refe (marker) on it ([F2]: no compulsory kontra, no choice)."""

    queue: list[int]
    roles: dict[int, str] = field(default_factory=dict)
    stage: str = "follow"
    level: int = 0
    kontra_seat: int = -1
    played: int = 1
    choice: str = ""
    plain: bool = True


def _d(state: Table) -> DefenceData:
    return KIND.data(state)


def _opponents(state: Table) -> list:
    h = state.hand
    n = state.variant.players
    return [state.next_seat(h.declarer, k) for k in range(1, n)]


def _pad_opponents(variant, declarer: int) -> list:
    n = variant.players
    return [variant.next_seat(declarer, k) for k in range(1, n)]


def _uses_marker(state: Table) -> bool:
    markers = getattr(state, "markers", None)
    return markers is not None and markers.factor_for(state.hand.declarer) > 1


def start(state: Table) -> bool:
    """Skipped without a contract; forced defenders at ``all_play`` contracts."""
    h = state.hand
    if h.contract is None or h.declarer < 0:
        return False
    spec = KIND.spec(state)
    opps = _opponents(state)
    d = DefenceData(list(opps), plain=not _uses_marker(state))   # [F2] a plain contract: no refe
    h.phase_state[KIND.name] = d
    text = h.contract.text
    if text in spec.all_play:
        d.roles = {s: "forced" for s in opps}
        return _to_kontra(state, d)
    if text in spec.kontra_only and d.plain:
        d.stage = "kontra_only"
    h.to_move = opps[0]
    return True


def _to_kontra(state: Table, d) -> bool:
    """[F5]: the playing defenders, in turn, may say kontra."""
    if not KIND.spec(state).chain:
        return False
    d.stage = "kontra"
    d.queue = [s for s in _opponents(state) if d.roles.get(s) in ("follow", "forced", "invited")]
    state.hand.to_move = d.queue[0]
    return True


def legal(state: Table) -> list:
    """The words of the current step, ``pass`` first where passing is allowed."""
    d = _d(state)
    chain = KIND.spec(state).chain
    if d.stage == "follow":
        return [FOLLOW, PASS]
    if d.stage == "invite":
        return [ALONE, INVITE]
    if d.stage in ("kontra", "kontra_only"):
        return [PASS, Action("defend", chain[0])]
    if d.stage == "choice":
        return [MADE, Action("defend", KIND.spec(state).choice_marker)]
    return [PASS, Action("defend", chain[d.level])]  # "chain": the next word of the chain


def check(state: Table, action: Action) -> None:
    """:raises IllegalActionError: the word does not fit this step of the defence."""
    if action in legal(state):
        return
    d = _d(state)
    words = {"follow": "follow or pass", "invite": "alone or invite",
             "kontra": f"{KIND.spec(state).chain[0]} or pass",
             "choice": f"made or {KIND.spec(state).choice_marker} (nobody plays against you: the hand "
                       f"counted as made, or a {KIND.spec(state).choice_marker} written for you)",
             "kontra_only": f"{KIND.spec(state).chain[0]} or pass (this contract is played only "
                            f"against {KIND.spec(state).chain[0]})"}
    raise IllegalActionError(f"{action.text} is not allowed now: say "
                             f"{words.get(d.stage, ' or '.join(a.text for a in legal(state)))}")


def apply(state: Table, action: Action) -> bool:
    """Record the decision; True once the defence is settled."""
    h = state.hand
    spec = KIND.spec(state)
    d = _d(state)
    seat = h.to_move
    contract = h.contract.text if h.contract is not None else ""   # (the phase runs with a contract)
    h.calls.append((seat, action.text))
    opps = _opponents(state)
    stage = d.stage
    if stage == "choice":
        if action == MADE:
            return True
        d.choice = action.text
        state.write_marker(action.text, seat, f"{contract} not played: {action.text} for "
                                               f"{state.names[seat]}")
        return True
    if stage == "follow":
        d.roles[seat] = "follow" if action == FOLLOW else "pass"
        d.queue.pop(0)
        if action == FOLLOW and contract in spec.compulsory_kontra and spec.chain and d.plain:
            return _kontra(state, spec, d, seat, opps)
        if d.queue:
            h.to_move = d.queue[0]
            return False
        playing = [s for s in opps if d.roles[s] == "follow"]
        if not playing:
            return _not_played(state, d)
        if len(playing) == 1:
            d.stage = "invite"
            h.to_move = playing[0]
            return False
        return not _to_kontra(state, d)
    if stage == "invite":
        if action == INVITE:
            other = next(s for s in opps if s != seat)
            d.roles[other] = "invited"
        return not _to_kontra(state, d)
    if stage in ("kontra", "kontra_only"):
        d.queue.pop(0)
        if action == PASS:
            if d.queue:
                h.to_move = d.queue[0]
                return False
            return _not_played(state, d) if stage == "kontra_only" else True
        return _kontra(state, spec, d, seat, opps)
    # stage "chain": the declarer and the kontra player answer in turn
    if action == PASS:
        return True
    d.level += 1
    return _next_in_chain(state, spec, d)


def _kontra(state: Table, spec, d, seat: int, opps: list) -> bool:
    """``seat`` says the chain's first word: he answers for the defence ([F5])."""
    d.kontra_seat = seat
    d.level = 1
    for s in opps:  # [F5] a defender who had passed must play once kontra is said
        d.roles[s] = "forced" if s != seat and d.roles.get(s) in (None, "pass") else d.roles.get(s, "follow")
    return _next_in_chain(state, spec, d)


def _next_in_chain(state: Table, spec, d) -> bool:
    if d.level >= len(spec.chain):
        return True
    d.stage = "chain"
    h = state.hand
    h.to_move = h.declarer if d.level % 2 == 1 else d.kontra_seat
    return False


def _not_played(state: Table, d) -> bool:
    """[F2]: nobody plays; the hand is not played and counts as made, unless the declarer
    may choose a marker instead (``unplayed_choice``): then he is asked."""
    d.played = 0
    spec = KIND.spec(state)
    state.skip_phases(spec.skips)
    h = state.hand
    text = h.contract.text if h.contract is not None else ""
    if d.plain and _may_choose(spec, text, state.markers, h.declarer, state.totals()):
        d.stage = "choice"
        h.to_move = h.declarer
        return False
    return True


def _may_choose(spec, contract: str, markers, declarer: int, totals: list) -> bool:
    """Whether the declarer of an unplayed ``contract`` may take a marker instead: the
    variant's ``unplayed_choice`` applies to it and his column has room for one."""
    return bool(spec.choice_marker) and (not spec.choice_at or contract in spec.choice_at) \
        and markers.may_write(spec.choice_marker, declarer, totals)


def outcome(spec, players: int, declarer: int, roles: dict, level: int, kontra_seat: int,
            won: list, played: bool) -> list:
    """Per seat, the formula variables of the defence (see the module docstring).

    :param roles: opponent seat -> ``follow``, ``pass``, ``invited`` or ``forced``.
    :param level: kontra words said (0: none); ``kontra_seat`` who said kontra, or -1.
    :param won: tricks per seat.
    """
    each, together, alone, invited, kontra_need = spec.need
    out = [{"played": int(played), "kontra": 2 ** level, "kontra_player": 0, "defends": 0, "writer": 0,
            "soup_tricks": 0, "short": 0} for _ in range(players)]
    if not played or declarer < 0:
        return out
    opps = [(declarer + k) % players for k in range(1, players)]
    playing = [s for s in opps if roles.get(s) in ("follow", "forced", "invited")]
    team = sum(won[s] for s in opps)
    for s in playing:
        out[s]["defends"] = 1
    if kontra_seat >= 0:
        out[kontra_seat].update(kontra_player=1, writer=len(playing), soup_tricks=team, short=int(team < kontra_need))
    elif any(roles.get(s) == "invited" for s in opps):
        inviter = next(s for s in opps if roles.get(s) == "follow")
        out[inviter].update(writer=2, soup_tricks=team, short=int(team < invited))
    elif len(playing) == 1:
        out[playing[0]].update(writer=1, soup_tricks=team, short=int(team < alone))
    else:
        for s in playing:
            out[s].update(writer=1, soup_tricks=won[s], short=int(won[s] < each and team < together))
    return out


def compile_defence(c, name: str, p: dict, path: tuple):
    """The :class:`DefenceSpec` of a ``defence`` entry."""
    need = p.get("need") or {}
    chain = tuple(p.get("chain", ("kontra", "rekontra", "subkontra", "mortkontra")))
    most = p.get("max_factor")
    if most is not None:
        steps = max(0, most.bit_length() - 1)
        if 2 ** steps != most:
            c.err(path + ("max_factor",), f"the kontra factor doubles, so its highest value is a power of two "
                  f"(found {most})")
        chain = chain[:steps]
    choice = p.get("unplayed_choice") or {}
    marker = choice.get("marker", "")
    known = list(((c.d.get("scoring") or {}).get("markers") or {}))
    check_phase_names(c, path + ("skips",), tuple(p.get("skips", ())))
    if marker and marker not in known:
        c.err(path + ("unplayed_choice", "marker"), f"{marker!r} is not a marker of scoring.markers (expected "
              f"{'one of ' + ', '.join(known) if known else 'a marker declared there first'})")
    return DefenceSpec("defence", name, (need.get("each", 2), need.get("together", 4), need.get("alone", 2),
                                         need.get("invited", 4), need.get("kontra", 5)),
                       frozenset(p.get("all_play", ())), frozenset(p.get("kontra_only", ())), chain,
                       tuple(p.get("skips", ())), frozenset(p.get("compulsory_kontra", ())),
                       marker, frozenset(choice.get("contracts", ())))


_NEED = {"type": "integer", "minimum": 0, "maximum": 52}


class DefenceKind(PhaseKind[DefenceSpec]):
    """The ``defence`` kind (see the module docstring)."""

    name = "defence"
    schema = {
        "description": "The declarer's opponents decide to play against him or pass, may invite each "
                       "other, and may double in a chain (kontra).",
        "type": "object", "additionalProperties": False, "required": ["kind"],
        "properties": {
            "kind": True,
            "need": {"description": "Tricks the defence needs: each (when both play) unless together; "
                                    "alone; invited (inviter and partner); kontra (kontra player and partner).",
                     "type": "object", "additionalProperties": False,
                     "properties": {k: _NEED for k in ("each", "together", "alone", "invited", "kontra")}},
            "all_play": {"description": "Contracts both opponents must play against.",
                         "type": "array", "items": {"type": "string"}},
            "kontra_only": {"description": "Contracts played only when an opponent doubles (unless the "
                                           "declarer plays with a marker); else they count as made.",
                            "type": "array", "items": {"type": "string"}},
            "compulsory_kontra": {"description": "Contracts at which a defender who follows must double: "
                                                 "his follow is the chain's first word.",
                                  "type": "array", "items": {"type": "string"}},
            "chain": {"description": "The doubling words in order (defender, declarer, defender...); "
                                     "each doubles.", "type": "array", "items": {"type": "string"}},
            "max_factor": {"description": "The highest doubling factor (2, 4, 8, 16...).",
                           "type": "integer", "minimum": 1, "maximum": 1024},
            "skips": {"description": "Phases skipped when nobody plays (the trick play).",
                      "type": "array", "items": {"type": "string"}},
            "unplayed_choice": {
                "description": "When nobody plays against the declarer, he chooses: the hand counted as made "
                               "(made), or one marker (of scoring.markers, within its limits) written for him "
                               "alone and the hand not scored.",
                "type": "object", "additionalProperties": False, "required": ["marker"],
                "properties": {
                    "marker": {"description": "The marker he may take (its name is his word at the table).",
                               "type": "string"},
                    "contracts": {"description": "The contracts where he may choose (default: every contract).",
                                  "type": "array", "items": {"type": "string"}}}}}}
    label = "defence"
    example = ("defence:\n  kind: defence\n  need: {each: 1, together: 2, alone: 1, invited: 2, kontra: 3}\n"
               "  chain: [double, redouble]\n  skips: [play]")
    compile = staticmethod(compile_defence)
    start = staticmethod(start)
    legal = staticmethod(legal)
    check = staticmethod(check)
    apply = staticmethod(apply)

    def acts_for_declarer(self, p) -> bool:
        """It needs a declarer."""
        return True

    def variables(self, spec) -> dict:
        """The defence's formula variables and their ranges."""
        top = 2 ** len(spec.chain)
        return {"played": (0, 1), "kontra": (1, top), "kontra_player": (0, 1), "defends": (0, 1),
                "writer": (0, 2), "soup_tricks": (0, 52), "short": (0, 1)}

    def values(self, variant, hand, spec) -> list:
        """Per seat, from the hand's decisions and tricks."""
        d = self.data_of(hand)
        if d is None:  # no contract, or the phase never started
            return outcome(spec, variant.players, -1, {}, 0, -1, list(hand.won), hand.declarer >= 0)
        return outcome(spec, variant.players, hand.declarer, d.roles, d.level, d.kontra_seat,
                       list(hand.won), bool(d.played))

    # ------------------------------------------------------------------ scorepad
    def pad_question(self, spec, variant, facts: dict, names: list):
        """Who of the declarer's opponents played (``follow``, ``pass`` or ``invited``), then
        the last word of the doubling chain said (``-`` for none) and who started it.  At a
        plain ``kontra_only`` contract (the declarer plays without a marker: ``marker_factor``
        1) only the doubling is asked: nobody said it, nobody played."""
        contract, declarer = facts.get("contract"), facts.get("declarer")
        if contract is None or declarer is None:
            return None
        opps = [names[s] for s in _pad_opponents(variant, declarer)]
        plain = facts.get("marker_factor", 1) == 1
        if "roles" not in facts:
            if contract in spec.all_play:  # [F1] nobody chooses: both play
                facts["roles"] = " ".join("follow" for _ in opps)
            elif contract in spec.kontra_only and plain and spec.chain:   # [F2] played only against kontra
                if "kontra" not in facts:
                    return ("kontra", "doubling", f"- (nobody said {spec.chain[0]}: the hand was not played, "
                            f"counted as made) or the last word said: " + ", ".join(spec.chain))
                facts["roles"] = " ".join("pass" if facts["kontra"] == "-" else "follow" for _ in opps)
            else:
                return ("roles", "defence " + " ".join(opps),
                        f"for {', '.join(opps)} in turn: follow, pass or invited (called by the other, "
                        f"who followed); all pass: the hand was not played")
        if "follow" not in facts["roles"].split():
            if "choice" not in facts and self._pad_may_choose(spec, facts):
                m = spec.choice_marker
                return ("choice", "declarer chose", f"made (counted as made) or {m} (a {m} written for "
                        f"{names[declarer]}, the hand not scored)")
            return None
        if not spec.chain:
            return None
        if "kontra" not in facts:
            forced = contract in spec.compulsory_kontra and plain
            return ("kontra", "doubling", ("" if not forced else f"a defender who follows says {spec.chain[0]} "
                                           f"at once; ") + ("" if forced else "- (none) or ")
                    + "the last word said: " + ", ".join(spec.chain))
        if facts["kontra"] != "-" and "kontra_by" not in facts:
            by = [names[s] for s, r in zip(_pad_opponents(variant, declarer), facts["roles"].split()) if r != "pass"]
            return ("kontra_by", f"{spec.chain[0]} by", f"the defender who said {spec.chain[0]} (one who plays): "
                    "one of " + ", ".join(by))
        return None

    def pad_answer(self, spec, variant, fact: str, text: str, facts: dict, names: list) -> None:
        """Check and store ``roles``, ``kontra`` or ``kontra_by``.

        :raises ValueError: a word that does not fit, an invited player without an inviter, no
            doubling where a follow is one, a kontra by someone who does not play against the
            declarer ([F5]: a playing defender says it)."""
        t = text.strip().lower()
        opps = _pad_opponents(variant, facts["declarer"])
        if fact == "roles":
            words = t.replace(",", " ").split()
            if len(words) != len(opps) or any(w not in ("follow", "pass", "invited") for w in words):
                raise ValueError(f"defence: expected {len(opps)} words, each follow, pass or invited "
                                 f"(for {', '.join(names[s] for s in opps)})")
            if "invited" in words and (words.count("invited") != 1 or words.count("follow") != 1):
                raise ValueError("defence: an invited player is called by the other opponent, who follows "
                                 "(e.g. follow invited)")
            if facts.get("contract") in spec.all_play and "pass" in words:
                raise ValueError(f"defence: at {facts['contract']} every opponent plays (expected follow follow)")
            facts[fact] = " ".join(words)
        elif fact == "choice":
            if t not in ("made", spec.choice_marker):
                raise ValueError(f"declarer chose: {text!r} is not made or {spec.choice_marker}")
            facts[fact] = t
        elif fact == "kontra":
            if t not in ("-", "none", "no", *spec.chain):
                raise ValueError(f"doubling: {text!r} is not a word of the chain (expected - or one of "
                                 f"{', '.join(spec.chain)})")
            plain = facts.get("marker_factor", 1) == 1
            if t not in spec.chain and plain and facts.get("contract") in spec.compulsory_kontra \
                    and "follow" in facts.get("roles", "").split():
                raise ValueError(f"doubling: at a plain {facts['contract']} a defender who follows says "
                                 f"{spec.chain[0]} at once (expected one of {', '.join(spec.chain)})")
            facts[fact] = t if t in spec.chain else "-"
        else:
            low = [x.lower() for x in names]
            seat = low.index(t) if t in low else int(t) if t.isdigit() and int(t) < len(names) else -1
            playing = [s for s, r in zip(opps, facts.get("roles", "").split()) if r != "pass"]
            if seat not in opps:
                raise ValueError(f"{spec.chain[0]} by: {text!r} is not an opponent of the declarer (expected one "
                                 f"of {', '.join(names[s] for s in playing)})")
            if seat not in playing:
                raise ValueError(f"{spec.chain[0]} by: {names[seat]} passed: a defender who plays says "
                                 f"{spec.chain[0]} (expected {' or '.join(names[s] for s in playing)})")
            facts[fact] = seat

    def pad_values(self, spec, variant, facts: dict, contract, won: list) -> list:
        """:func:`outcome` of the typed facts ([F5]: a defender who passed plays once kontra is said)."""
        if contract is None or "roles" not in facts:
            return []
        opps = _pad_opponents(variant, facts["declarer"])
        roles = dict(zip(opps, facts["roles"].split()))
        level = spec.chain.index(facts["kontra"]) + 1 if facts.get("kontra", "-") != "-" else 0
        played = any(r != "pass" for r in roles.values())
        if level:
            roles = {s: "forced" if r == "pass" else r for s, r in roles.items()}
        return outcome(spec, variant.players, facts["declarer"], roles, level,
                       facts.get("kontra_by", -1) if level else -1, won, played)

    def pad_skips(self, spec, variant, facts: dict) -> tuple:
        """[F2] every opponent passed: the phases of ``skips`` were not played."""
        roles = facts.get("roles")
        return spec.skips if roles is not None and "follow" not in roles.split() else ()

    @staticmethod
    def _pad_may_choose(spec, facts: dict) -> bool:
        """Every opponent passed, ``unplayed_choice`` applies to the contract, and the
        declarer's column has room for the marker (the pad's ``marker_room``)."""
        room = facts.get("marker_room", {}).get(spec.choice_marker) or []
        return (bool(spec.choice_marker) and facts.get("marker_factor", 1) == 1   # a plain contract only
                and (not spec.choice_at or facts.get("contract") in spec.choice_at)
                and facts.get("declarer", -1) < len(room) and room[facts["declarer"]])

    def pad_marker(self, spec, variant, facts: dict):
        """The declarer chose the marker (``unplayed_choice``): ``(marker, declarer)``."""
        if spec.choice_marker and facts.get("choice") == spec.choice_marker:
            return spec.choice_marker, facts["declarer"]
        return None

    def pad_facts(self, spec, variant, hand) -> dict:
        """The decisions of a played hand as typed (a defender made to play by a kontra passed; at
        an ``all_play`` contract every defender follows; ``choice``, the declarer's when nobody
        played and he was asked)."""
        d = self.data_of(hand)
        if d is None or hand.contract is None:
            return {}
        if d.stage == "choice":
            return {"roles": " ".join("pass" for _ in _pad_opponents(variant, hand.declarer)),
                    "choice": d.choice or "made"}
        opps = _pad_opponents(variant, hand.declarer)
        # a defender made to play by a kontra had passed: the table writes what he said ([F5])
        forced = "pass" if d.level and hand.contract.text not in spec.all_play else "follow"
        words = {"forced": forced, "invited": "invited", "follow": "follow"}
        out = {"roles": " ".join(words.get(d.roles.get(s), "pass") if d.played else "pass" for s in opps)}
        if d.plain and hand.contract.text in spec.kontra_only and spec.chain:
            out["kontra"] = spec.chain[d.level - 1] if d.level else "-"   # asked first, roles follow
        if d.played and spec.chain:
            out["kontra"] = spec.chain[d.level - 1] if d.level else "-"
            if d.level:
                out["kontra_by"] = str(d.kontra_seat)
        return out

    def parse(self, text: str, state: Table):
        """``follow``, ``alone``, ``invite`` and the chain's words."""
        t = text.strip().lower()
        spec = KIND.spec(state)
        # the file's own spelling of a word (a chain word written ``Kontra`` is read in any case)
        words = {w.lower(): w for w in ("follow", "alone", "invite", *spec.chain)}
        if spec.choice_marker:
            words.update({"made": "made", spec.choice_marker.lower(): spec.choice_marker})
        return Action("defend", words[t]) if t in words else None

    def help_line(self, spec, variant) -> str:
        """The words."""
        choice = f"; nobody plays: made or {spec.choice_marker}" if spec.choice_marker else ""
        return "follow or pass; alone or invite; " + " / ".join(spec.chain) + " or pass" + choice

    def prompt_label(self, state: Table) -> str:
        """What this step of the defence asks, in the game's words: ``follow?`` (follow or pass),
        ``alone or invite?``, the chain's next word (``kontra?``, ``rekontra?``), ``made or refe?``
        (nobody plays against the declarer)."""
        d = self.data_of(state.hand)
        spec = KIND.spec(state)
        if d is None:
            return self.label
        if d.stage == "follow":
            return "follow?"
        if d.stage == "invite":
            return "alone or invite?"
        if d.stage == "choice":
            return f"made or {spec.choice_marker}?"
        level = d.level if d.stage == "chain" else 0
        return f"{spec.chain[level]}?" if level < len(spec.chain) else self.label

    def observe(self, state: Table, seat: int) -> dict:
        """Public: every decision said so far; ``choice``: the declarer's choice is asked now;
        ``markers_open``: marker name -> the declarer's open markers (they are on the sheet)."""
        d = _d(state)
        decl = state.hand.declarer
        return {"roles": dict(d.roles), "kontra": 2 ** d.level, "kontra_seat": d.kontra_seat,
                "choice": d.stage == "choice",
                "markers_open": {k: cols[decl].count("open") for k, cols in state.markers.marks.items()}}

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """``follow``, ``pass``, ``alone``, ``invite``, the chain's words and the choice's."""
        choice = ("made", spec.choice_marker) if spec.choice_marker else ()
        return (FOLLOW.text, "pass", ALONE.text, INVITE.text) + tuple(spec.chain) + choice

    def describe(self, spec) -> str:
        """One sentence (two with ``unplayed_choice``)."""
        out = ("The declarer's opponents each follow or pass; one alone may invite the other; a playing "
               f"defender may double ({', '.join(spec.chain) or 'no doubling'}).")
        if spec.choice_marker:
            at = f" a {' or '.join(sorted(spec.choice_at))}" if spec.choice_at else ""
            out += (f" When nobody plays against{at}, the declarer chooses: the hand counted as made (made), "
                    f"or a {spec.choice_marker} written for him alone instead (the hand not scored), while he "
                    f"has room for one.")
        return out


KIND = DefenceKind()
