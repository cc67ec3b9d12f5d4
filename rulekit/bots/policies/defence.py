"""The bots' policy for ``defence``: follow, invite, kontra by a rough count of tricks."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.policies import policy
from rulekit.bots.strength import hand_strength
from rulekit.engine.actions import PASS, Action
from rulekit.engine.phases import defence
from rulekit.engine.phases.defence import ALONE, FOLLOW, INVITE

if TYPE_CHECKING:  # pragma: no cover
    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine.observation import Observation


@policy(defence.KIND)
def defend(bot: SensibleBot, obs: Observation) -> Action | None:
    """Follow with about two tricks, invite below that, kontra with four or more, answer a
    kontra with eight; read from :func:`~rulekit.bots.strength.hand_strength` of the hand in the
    contract's trumps."""
    v = obs.variant
    trump = obs.trump
    mine = hand_strength(v, obs.hand, trump if trump in v.deck.suits else "NT")
    opp_view = hand_strength(v, obs.hand, "NT")  # a defender's tricks: high cards, not length
    words = {a.text: a for a in obs.legal}
    if "made" in words:
        return unplayed_choice(obs, words)
    if "follow" in words:
        return FOLLOW if opp_view >= 1.5 else PASS
    if "invite" in words:
        return ALONE if opp_view >= 2.5 else INVITE
    chain_word = next((a for a in obs.legal if a is not PASS and a.text != "pass"), None)
    if chain_word is None:
        return PASS
    if obs.seat == obs.declarer:
        return chain_word if mine >= 8.5 else PASS
    return chain_word if opp_view >= 4.5 else PASS


def unplayed_choice(obs: Observation, words: dict[str, Action]) -> Action:
    """``unplayed_choice``: take the marker while he holds no open one.  It multiplies his
    next contract as declarer, at least this one's value and usually more, so it is worth
    more than the hand counted as made now; a second marker only waits behind the first
    (used a contract later, if ever), so then the sure count now is worth more."""
    marker = next(t for t in words if t != "made")
    open_ = obs.phase_data.get("markers_open", {}).get(marker, 0)
    return words["made"] if open_ else words[marker]
