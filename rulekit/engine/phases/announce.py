"""``announce`` phase: the declarer announces his contract, at least as high as his bid
(rules/preferans.md [X1] [X2]), or after an auction of values (``list_auction``'s
``values``) any game of its list.

The auction before it leaves the contracts the declarer may announce in its own data
(``choices``, lowest first; the auction's bids); one choice is taken at once.  The
announced contract sets ``hand.contract`` and the trump context.

``declare_if`` (docs/rules/skat.md [SK-G6]): a contract may be announced only when this
condition holds for it, over the scoring variables of the declarer's column with that contract
(its ``value``, ``promised_NAME``, ``open_game``, the ``bid``, ``hand_game``) and
``matadors`` as far as the declarer can know them (a skat he has not seen: the best case,
:func:`~rulekit.engine.phases.matadors.best_known`); when it holds for none, ``otherwise``
lists the contracts he must choose from ([SK-G7]: a suit game or grand, lost as overbid).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.dsl import Env, Formula
from rulekit.dsl.words import formula_words
from rulekit.engine.actions import Action
from rulekit.engine.hand import KindData
from rulekit.engine.phases import exchange, matadors
from rulekit.engine.phases.base import PhaseKind, PhaseSpec
from rulekit.engine.phases.table import Table
from rulekit.engine.phases.registry import REGISTRY
from rulekit.errors import IllegalActionError


@dataclass(frozen=True)
class AnnounceSpec(PhaseSpec):
    """A compiled ``announce`` entry.

    :ivar declare_if: the condition a contract must meet to be announced, or ``None``.
    :ivar otherwise: the calls he must choose from when it holds for none (``()``: all).
    """

    declare_if: Formula | None = None
    otherwise: tuple = ()


@dataclass
class AnnounceData(KindData):
    """``announce``'s data: ``choices``, the contract texts the declarer may announce (fixed
    when the phase starts: nothing he may announce changes while he chooses)."""

    choices: tuple = ()


def _choices(state: Table) -> list:
    """The contract texts the declarer may announce: those the auction left for him (``[]``
    without an auction), a game marked ``hand`` only in a hand game (``widow_exchange``'s
    ``hand``), and with ``declare_if`` those it allows (else ``otherwise``'s)."""
    d = KIND.data_of(state.hand)
    if d is not None:
        return list(d.choices)
    return _left(state)


def _left(state: Table) -> list:
    auction = state.variant.auction()
    if auction is None:
        return []
    texts = REGISTRY[auction.kind].choices_left(state.hand)
    d = exchange.KIND.data_of(state.hand)
    if d is None or not d.hand_game:
        texts = [t for t in texts if not getattr(state.bid_by_text[t], "hand", False)]
    spec = state.current_phase
    cond = getattr(spec, "declare_if", None)
    if cond is None or state.hand.declarer < 0:
        return texts
    allowed = [t for t in texts if cond(_env(state, state.bid_by_text[t]))]
    if allowed:
        return allowed
    otherwise = getattr(spec, "otherwise", ())
    return [t for t in texts if t in otherwise] if otherwise else texts


def _env(state: Table, bid) -> Env:
    """The declarer's scoring variables were ``bid`` his contract, before any card is played;
    ``matadors`` as far as he can know them."""
    h = state.hand
    v = state.variant
    saved = h.contract
    h.contract = bid
    try:
        envs = state.score_envs()
    finally:
        h.contract = saved
    col = v.side_of[h.declarer] if v.scoring.by_side else h.declarer
    out = dict(envs[col].vars)
    out.update(bid.variables())
    if v.scoring.matadors is not None:
        out["matadors"], out["with_matadors"] = matadors.best_known(v, h, v.context(bid.strain, bid.group))
    return Env(out)


def _set(state: Table, text: str) -> None:
    h = state.hand
    bid = state.bid_by_text[text]
    h.contract = bid
    state.set_trump(bid.strain)


class AnnounceKind(PhaseKind[AnnounceSpec]):
    """The ``announce`` kind (see the module docstring)."""

    name = "announce"
    schema = {"description": "The declarer announces a contract at least as high as his winning bid.",
              "type": "object", "additionalProperties": False, "required": ["kind"],
              "properties": {
                  "kind": True,
                  "declare_if": {"description": "A condition over the scoring variables of the declarer with "
                                                "the contract he would announce (its `value`, `promised_NAME`, "
                                                "`open_game`, `null`, his `bid`, `hand_game`, and `matadors` "
                                                "as far as he can know them: a widow he has not seen counts as "
                                                "the best case): he may announce only the contracts for which it "
                                                "holds (a game whose value can still reach the bid: "
                                                "`\"(matadors + 3 + hand_game) * value >= bid\"`).",
                                 "type": "string"},
                  "otherwise": {"description": "With `declare_if`: the calls he must choose from when it holds "
                                               "for none (a game then lost as overbid); default every "
                                               "contract.", "type": "array", "minItems": 1, "uniqueItems": True,
                                "items": {"type": "string"}}}}
    label = "announce"
    example = "announce: {kind: announce}"
    conditions = ("declare_if",)

    def compile(self, c, name, p, path):
        """``declare_if`` is compiled with the scoring (a condition); ``otherwise`` is checked
        in :meth:`finish` against the auction's contracts."""
        if "otherwise" in p and "declare_if" not in p:
            c.err(path + ("otherwise",), "otherwise names the games left when declare_if allows none: it needs "
                  "declare_if (expected declare_if, or no otherwise)")
        return AnnounceSpec(self.name, name, otherwise=tuple(p.get("otherwise", ())))

    def finish(self, c, spec):
        """Each call of ``otherwise`` must be a contract of the auction."""
        calls = set()
        for p in (c.d.get("phases") or {}).values():
            for e in (p.get("contracts") or []) if isinstance(p, dict) else []:
                if isinstance(e, dict) and "call" in e:
                    calls.add(str(e["call"]))
        for i, t in enumerate(spec.otherwise):
            if calls and not any(t == x or t.startswith(x) for x in calls):
                c.err(("phases", spec.name, "otherwise", i), f"unknown contract {t}{c.close(t, sorted(calls))} "
                      f"(expected calls of the auction: {', '.join(sorted(calls))})")
        return spec

    def acts_for_declarer(self, p) -> bool:
        """It needs the auction's declarer."""
        return True

    def start(self, state: Table) -> bool:
        """Skipped without a declarer; one choice is announced at once."""
        h = state.hand
        h.phase_state.pop(self.name, None)
        choices = _left(state)
        h.phase_state[self.name] = AnnounceData(tuple(choices))
        if h.declarer < 0 or not choices:
            return False
        if len(choices) == 1:
            _set(state, choices[0])
            return False
        h.to_move = h.declarer
        return True

    def legal(self, state: Table) -> list:
        """Each contract the declarer may announce, lowest first."""
        return [Action("bid", t, bid=t) for t in _choices(state)]

    def check(self, state: Table, action: Action) -> None:
        """:raises IllegalActionError: a contract below the bid, or not his to announce."""
        if action not in self.legal(state):
            raise IllegalActionError(f"announce one of {', '.join(_choices(state))} "
                                     f"(at least as high as your bid)")

    def apply(self, state: Table, action: Action) -> bool:
        """Set the contract and trumps."""
        _set(state, action.text)
        return True

    def parse(self, text: str, state: Table):
        """A contract's name."""
        t = text.strip().lower()
        return Action("bid", t, bid=t) if t in _choices(state) else None

    def help_line(self, spec, variant) -> str:
        """The form."""
        if spec.declare_if is not None:
            return "a game of the list whose value can still reach your bid (? shows them)"
        return "a contract name, at least as high as your bid"

    def action_words(self, spec, variant) -> tuple[str, ...]:
        """Every contract of the auction."""
        auction = variant.auction()
        return tuple(b.text for b in auction.bids) if auction is not None else ()

    def describe(self, spec) -> str:
        """One sentence (and one for ``declare_if``)."""
        return "The declarer announces a contract at least as high as his winning bid." + self._refusal(spec)

    def _refusal(self, spec) -> str:
        if spec.declare_if is None:
            return ""
        other = (f"; when none may, he announces one of {', '.join(spec.otherwise)}" if spec.otherwise
                 else "")
        return (f" He may announce a contract only when {formula_words(spec.declare_if.text)} "
                f"(`{spec.declare_if.text}`, with the matadors he can know of: a widow he has not seen "
                f"counts as the best case){other}.")

    def describe_in(self, spec, variant) -> str:
        """After an auction of values: he names any game of its list (what a game worth less
        than the bid loses is the scoring's)."""
        auction = variant.auction()
        if auction is not None and REGISTRY[auction.kind].bids_values(auction):
            if spec.declare_if is not None:
                return "The declarer names his game from the auction's list." + self._refusal(spec)
            return ("The declarer names his game from the auction's list, whatever his bid (the scoring "
                    "says what a game worth less than the bid loses).")
        return self.describe(spec)


KIND = AnnounceKind()
