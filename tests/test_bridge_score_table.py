"""The complete duplicate bridge score table (rules/bridge.md [S1] [S3]-[S6] and the
``bridge-duplicate`` house rule), checked against an independent implementation: the
``endplay`` package's ``Contract.score``.

Every level 1..7, strain C D H S NT, undoubled / doubled / redoubled, each vulnerability
(none, both, declarer's side only, defenders only), and every result from the most the
declarer can go down (6 + level undertricks, 0 tricks taken) up to the most overtricks
(7 - level): rulekit's score for the declarer's side is its entry minus the defenders'.
endplay is a test-only dependency (``pip install -e .[test]``); the test skips without it.
"""
from __future__ import annotations

import pytest

from rulekit.engine.scoring import entries_for, envs_for
from rulekit.variant import load_variant

endplay_types = pytest.importorskip("endplay.types")
Contract, Denom, Penalty, Player, Vul = (endplay_types.Contract, endplay_types.Denom, endplay_types.Penalty,
                                         endplay_types.Player, endplay_types.Vul)

STRAINS = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}
PENALTIES = {0: Penalty.passed, 1: Penalty.doubled, 2: Penalty.redoubled}
# rulekit vulnerability [NS, EW] -> endplay's Vul, North declaring
VULS = {(False, False): Vul.none, (True, True): Vul.both, (True, False): Vul.ns, (False, True): Vul.ew}


@pytest.fixture(scope="module")
def duplicate():
    return load_variant("bridge-duplicate")


def rulekit_score(variant, bid, strain, declarer, tricks, doubled, vulnerable) -> int:
    """The declaring side's duplicate score: its entry minus the defenders' entry."""
    won = [0] * 4
    won[declarer] = tricks
    won[(declarer + 1) % 4] = 13 - tricks
    envs = envs_for(variant, bid, declarer, strain, won, [0] * 4,
                    {"vulnerable": list(vulnerable), "doubled": doubled})
    e = entries_for(variant, bid, declarer, envs)
    assert 0 in e, "in duplicate only one side scores on a deal"
    dcol = variant.side_of[declarer]
    return e[dcol] - e[1 - dcol]


@pytest.mark.parametrize("level", range(1, 8))
@pytest.mark.parametrize("strain", list(STRAINS))
def test_duplicate_table_matches_endplay(duplicate, level, strain):
    bid = next(b for b in duplicate.auction().bids if b.text == f"{level}{strain}")
    checked = 0
    for doubled, penalty in PENALTIES.items():
        for vul, evul in VULS.items():
            for result in range(-(6 + level), 7 - level + 1):
                tricks = 6 + level + result
                want = Contract(level=level, denom=STRAINS[strain], declarer=Player.north, penalty=penalty,
                                result=result).score(evul)
                got = rulekit_score(duplicate, bid, strain, 0, tricks, doubled, vul)
                assert got == want, (f"{level}{strain}{'X' * doubled} {result:+d} vul={vul}: "
                                     f"rulekit {got}, endplay {want}")
                # the same deal declared by East-West: the same score with the sides swapped
                got_ew = rulekit_score(duplicate, bid, strain, 1, tricks, doubled, vul[::-1])
                assert got_ew == want
                checked += 1
    assert checked == 3 * 4 * 14


def test_table_spot_values(duplicate):
    """A few well-known entries of the table, independent of endplay."""
    def score(text, tricks, doubled=0, vul=False):
        strain = text[1:]
        bid = next(b for b in duplicate.auction().bids if b.text == text)
        return rulekit_score(duplicate, bid, strain, 0, tricks, doubled, (vul, vul))

    assert score("1NT", 7) == 90
    assert score("3NT", 9) == 400 and score("3NT", 9, vul=True) == 600
    assert score("4S", 10, vul=True) == 620 and score("4H", 10) == 420
    assert score("5C", 11) == 400 and score("2H", 8, doubled=1) == 470
    assert score("1C", 7, doubled=2) == 230 and score("1C", 7, doubled=2, vul=True) == 230
    assert score("2C", 8, doubled=2) == 560 and score("2C", 8, doubled=2, vul=True) == 760
    assert score("7NT", 13, vul=True) == 2220 and score("6S", 12) == 980
    assert score("4H", 7, doubled=1, vul=True) == -800
    assert score("7NT", 0, doubled=2, vul=True) == -7600
    assert score("7NT", 0, doubled=2) == -7000
