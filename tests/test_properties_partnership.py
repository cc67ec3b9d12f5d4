"""Properties of partnership matches played by random bots (hypothesis chooses the seeds).

Rubber games (``bridge``, ``whist``, ``whist-english``, ``whist-declared``): a whole rubber
is played and its sheet is re-checked from its own rows, independently of the engine's
game counter (rules/bridge.md [S2] [S8], whist.md [S3]-[S5]):

* totals are the sums of the entries, and each deal's entries the sums of its parts;
* each deal's parts are re-derived from the deal itself (contract, tricks, vulnerability,
  honours in the dealt hands for bridge [S1]-[S7]; tricks and trump pictures in the won
  tricks for whist [S1] [S2]; tricks and honours in the dealt hands for English whist);
* re-counting the rows' game parts (in the variant's part order, a line drawn when a side
  reaches the game target, both sides then starting from zero) gives exactly the rows
  flagged ``line``, the game values of ``row.games``, the vulnerability of every deal
  (bridge: a side that has won a game), and the rubber bonus (a bonus row of 700 / 500, or
  whist's 5 / 3 / 2 game points) right after the second game of a side;
* the rubber ends the match.

Deal-by-deal scoring (``bridge-duplicate``, ``bridge-chicago``): only one side scores on each
deal, so the NS score shown as one number is minus the EW score; the sheet is zero-sum in that
sense, with the duplicate vulnerability of each deal.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.bots import RandomBot
from rulekit.engine import State
from rulekit.variant import load_variant

RUBBER = {name: load_variant(name) for name in ("bridge", "whist", "whist-english", "whist-declared")}
DEALS = {name: load_variant(name) for name in ("bridge-duplicate", "bridge-chicago")}

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2 ** 32 - 1)
pass_rates = st.sampled_from([0.6, 0.75, 0.9])


class PassingBot(RandomBot):
    """A random bot that, in an auction, passes with probability ``p`` and otherwise bids at
    most ``top`` levels above the last bid (to keep the auction and the rubber short)."""

    def __init__(self, seed: int, p: float, top: int = 2):
        super().__init__(seed)
        self.p = p
        self.top = top

    def act(self, obs):
        legal = obs.legal
        if obs.phase.endswith("auction") and any(a.kind == "pass" for a in legal):
            if self.rng.random() < self.p:
                return next(a for a in legal if a.kind == "pass")
            bids = [a for a in legal if a.kind == "bid"]
            low = [a for a in bids if int(a.bid[0]) <= int(bids[0].bid[0]) + self.top - 1] if bids else []
            others = [a for a in legal if a.kind in ("double", "redouble")]
            pool = low + others
            if pool:
                return pool[int(self.rng.random() * len(pool))]
        return super().act(obs)


def play(variant, seed: int, p: float, limit: int = 400) -> State:
    """A match played to its end by four :class:`PassingBot` (``limit`` deals at most)."""
    s = State(variant, seed=seed)
    bots = [PassingBot(seed * 4 + i, p) for i in range(4)]
    while not s.is_over and s.hands_played < limit:
        seat = s.controller(s.to_move)                             # the declarer plays dummy's cards
        s.apply(bots[seat].act(s.observation(seat)))
    assert s.is_over, f"no end after {limit} deals"
    return s


def check_totals(s: State) -> None:
    running = list(s.sheet.start)
    for row in s.sheet.rows:
        running = [t + e for t, e in zip(running, row.entries)]
        assert row.totals == running
        if row.parts is not None:
            assert [sum(p[c] for p in row.parts.values()) for c in range(2)] == row.entries
        if row.void:
            assert row.entries == [0, 0] and not row.line
    assert s.sheet.totals() == running == s.result()["totals"]


def whist_game_value(target, their_points):
    """Game values of rules/whist.md [S4] (target 10) and English short whist (target 5)."""
    if target == 10:
        return 3 if their_points == 0 else 2 if their_points < 5 else 1
    return 3 if their_points == 0 else 2 if their_points <= 2 else 1


def undertricks(under: int, vul: bool, doubled: int) -> int:
    """rules/bridge.md [S6], written out trick by trick."""
    if doubled == 0:
        return under * (100 if vul else 50)
    steps = ([200] + [300] * 12) if vul else ([100, 200, 200] + [300] * 10)
    return sum(steps[:under]) * doubled


def rubber_parts(v, h, honours: bool = True) -> dict:
    """A bridge deal's below/above entries re-derived from rules/bridge.md [S1]-[S7]: the
    contract, the tricks won, the vulnerability, and the honours in the dealt hands."""
    deck = v.deck
    out = {"below": [0, 0], "above": [0, 0]}
    for c, seats in enumerate(v.sides if honours else ()):         # [S7] honours, in one hand
        if h.trump == "NT":
            best = max(sum(h.dealt[x] >> deck.parse("A" + su) & 1 for su in "CDHS") for x in seats)
            out["above"][c] += 150 if best == 4 else 0
        else:
            best = max(sum(h.dealt[x] >> deck.parse(r + h.trump) & 1 for r in ("A", "K", "Q", "J", "10"))
                       for x in seats)
            out["above"][c] += {4: 100, 5: 150}.get(best, 0)
    level, strain, dbl = h.contract.level, h.contract.strain, h.doubled
    side = v.side_of[h.declarer]
    vul = h.vulnerable[side]
    tricks = sum(h.won[x] for x in v.sides[side])
    if tricks >= 6 + level:
        per = 20 if strain in ("C", "D") else 30
        first = 40 if strain == "NT" else per
        out["below"][side] += (first + per * (level - 1)) * (1, 2, 4)[dbl]
        over = tricks - 6 - level
        out["above"][side] += over * per if dbl == 0 else over * (200 if vul else 100) * dbl
        out["above"][side] += (0, 50, 100)[dbl]
        out["above"][side] += {6: (500, 750), 7: (1000, 1500)}.get(level, (0, 0))[vul]
    else:
        out["above"][1 - side] += undertricks(6 + level - tricks, vul, dbl)
    return out


def whist_parts(v, h, name, game_score) -> dict:
    """A whist deal's entries re-derived from rules/whist.md [S1] [S2] (pictures in the won
    tricks) or English short whist (1 a trick; honours A K Q J in the side's dealt hands, not
    at 4)."""
    deck = v.deck
    out = {}
    tricks = [sum(h.won[x] for x in seats) for seats in v.sides]
    if name == "whist-english":
        out["tricks"] = [max(t - 6, 0) for t in tricks]
        held = [sum((h.dealt[seats[0]] | h.dealt[seats[1]]) >> deck.parse(r + h.trump) & 1
                    for r in ("A", "K", "Q", "J")) for seats in v.sides]
        out["honours"] = [0 if game_score[c] == 4 else {4: 4, 3: 2}.get(held[c], 0) for c in range(2)]
    else:
        out["tricks"] = [2 * max(t - 6, 0) for t in tricks]
        won = [sum((h.won_cards[seats[0]] | h.won_cards[seats[1]]) >> deck.parse(r + h.trump) & 1
                   for r in ("A", "K", "Q", "J", "10")) for seats in v.sides]
        out["pictures"] = [{3: 2, 4: 4, 5: 6}.get(n, 0) for n in won]
    return out


RUBBER_BONUS = {"bridge": {0: 700, 1: 500}, "whist": {0: 5, 1: 3}, "whist-declared": {0: 5, 1: 3},
                "whist-english": {0: 2, 1: 2}}


@SETTINGS
@given(name=st.sampled_from(sorted(RUBBER)), seed=seeds, p=pass_rates)
def test_rubber_sheet_is_consistent(name, seed, p):
    v = RUBBER[name]
    s = play(v, seed, p)
    check_totals(s)
    game_parts = [part.name for part in v.scoring.parts if part.game]
    target = v.match.game_target
    to_points = v.match.bonus_to == "points"
    score = [0, 0]
    games = [0, 0]
    game_points = [0, 0]
    expect_bonus = None
    deals = list(s.hand_log)
    assert len(deals) == sum(1 for r in s.sheet.rows if not r.bonus)
    deal_rows = iter(deals)
    for row in s.sheet.rows:
        if row.bonus:
            assert to_points and expect_bonus is not None
            col, bonus = expect_bonus
            assert row.entries == [bonus if c == col else 0 for c in range(2)]
            expect_bonus = None
            continue
        assert expect_bonus is None or not to_points, "the rubber bonus row follows the deciding deal"
        h = next(deal_rows)
        if name == "bridge":                                       # [S2] vulnerable after a game
            assert list(h.vulnerable) == [g > 0 for g in games]
        if name == "bridge" and h.contract is not None:
            assert row.parts == rubber_parts(v, h), (h.contract.text, h.doubled, h.won, h.vulnerable)
        elif name != "bridge":
            assert row.parts == whist_parts(v, h, name, score), (h.trump, h.won)
        line = False
        won_games = [0, 0]
        if not row.void:
            for part in game_parts:
                for c in range(2):
                    score[c] += row.parts[part][c]
                winner = next((c for c in range(2) if score[c] >= target), None)
                if winner is None:
                    continue
                line = True
                their = score[1 - winner]
                value = 0 if name == "bridge" else whist_game_value(target, their)
                games[winner] += 1
                won_games[winner] += value
                score = [0, 0]
                if games[winner] == 2:
                    bonus = RUBBER_BONUS[name][games[1 - winner]]
                    if to_points:
                        expect_bonus = (winner, bonus)
                    else:
                        won_games[winner] += bonus
                    games_final = list(games)
                    games = [0, 0]
                break  # the deal's later parts do not open the next game (engine choice)
        assert row.line == line, (row.hand, row.parts)
        assert row.games == won_games
        for c in range(2):
            game_points[c] += won_games[c]
        if name == "bridge" and not row.void:
            # [S1] below the line only the declaring side, only when the contract is made
            below = row.parts["below"]
            assert min(below) == 0
            if h.contract is not None and below != [0, 0]:
                side = v.side_of[h.declarer]
                assert below[1 - side] == 0
                assert sum(h.won[x] for x in v.sides[side]) >= 6 + h.contract.level
    assert expect_bonus is None
    assert s.is_over and s.progress.rubbers == 1 and max(games_final) == 2
    assert sorted(games_final) in ([0, 2], [1, 2])
    assert game_points == s.sheet.game_points() == s.progress.game_points
    assert score == s.progress.game_score
    if to_points:
        winner = games_final.index(2)
        last = s.sheet.rows[-1]
        assert last.bonus and last.entries[winner] == RUBBER_BONUS[name][games_final[1 - winner]]


def test_passing_bot_reaches_every_bridge_call():
    """The bots of these properties do double and redouble sometimes (so doubled rows are
    covered) - a guard against a bot that would only ever pass."""
    v = RUBBER["bridge"]
    kinds = set()
    for seed in range(3):
        s = play(v, seed, 0.6)
        kinds |= {text for _seat, text in s.history if text in ("X", "XX")}
    assert kinds == {"X", "XX"}


DUPLICATE_16 = ["none", "NS", "EW", "both", "NS", "EW", "both", "none",
                "EW", "both", "none", "NS", "both", "none", "NS", "EW"]
VUL = {"none": [False, False], "NS": [True, False], "EW": [False, True], "both": [True, True]}


@SETTINGS
@given(name=st.sampled_from(sorted(DEALS)), seed=seeds, p=pass_rates)
def test_deal_scoring_is_zero_sum(name, seed, p):
    v = DEALS[name]
    s = play(v, seed, p)
    check_totals(s)
    rows = s.sheet.rows
    assert len(rows) == v.match.deals
    deals = [h for h in s.hand_log if not (h.void and h.contract is None and
                                            name == "bridge-chicago")]
    assert len(deals) == len(rows)
    for k, (row, h) in enumerate(zip(rows, deals)):
        assert not row.line and not row.bonus and row.games == [0, 0]
        ns, ew = row.entries[0] - row.entries[1], row.entries[1] - row.entries[0]
        assert ns == -ew and min(row.entries) == 0                # one side scores on a deal
        if name == "bridge-duplicate":
            assert list(h.vulnerable) == VUL[DUPLICATE_16[k % 16]] and h.dealer == (s.first_dealer + k) % 4
        else:
            dealer_side = [c == v.side_of[h.dealer] for c in range(2)]
            want = [[False, False], dealer_side, dealer_side, [True, True]][k % 4]
            assert list(h.vulnerable) == want
        if h.contract is None:
            assert row.entries == [0, 0]
        else:
            side = v.side_of[h.declarer]
            made = sum(h.won[x] for x in v.sides[side]) >= 6 + h.contract.level
            assert (row.entries[side] > 0) == made and (row.entries[1 - side] > 0) == (not made)
            # the duplicate score: rubber scoring without honours, plus 50 for a part-score or
            # 300 / 500 for a game (not vulnerable / vulnerable)
            parts = rubber_parts(v, h, honours=False)
            want = [parts["below"][c] + parts["above"][c] for c in range(2)]
            if made:
                below = parts["below"][side]
                want[side] += (500 if h.vulnerable[side] else 300) if below >= 100 else 50
            assert row.entries == want, (h.contract.text, h.doubled, h.won, h.vulnerable)
    total = s.sheet.totals()
    assert sum(r.entries[0] - r.entries[1] for r in rows) == total[0] - total[1]
    assert s.is_over
