"""How ``rulekit compare`` keeps its rows (by field, :class:`rulekit.sim.rows.Rows`) and whom it
plays with when no players are named."""
from __future__ import annotations

import pytest

from rulekit.sim.compare import DEFAULT_BOTS, ROW_BYTES, compare
from rulekit.sim.rows import Rows


def test_rows_read_back_as_appended():
    """Every value reads back as it was appended, with its type: integers (seeds of 63 bits
    included), numbers, texts, ``None``; a field a row lacks reads ``None``; a field that was
    ``None`` so far takes numbers; an integer field that receives a float reads as floats."""
    big = (1 << 63) - 1
    rows = Rows([{"seed": big, "level": None, "contract": "", "win": 0, "x": 1},
                 {"seed": 7, "level": 8, "contract": "8S", "win": 0.5},
                 {"seed": 0, "level": None, "contract": "", "win": 1, "late": "yes"}])
    assert rows[0] == {"seed": big, "level": None, "contract": "", "win": 0.0, "x": 1, "late": None}
    assert rows[1] == {"seed": 7, "level": 8, "contract": "8S", "win": 0.5, "x": None, "late": None}
    assert rows[-1]["late"] == "yes" and type(rows[1]["level"]) is int and type(rows[2]["win"]) is float
    assert rows.values("level") == [None, 8, None] and rows.where("contract", "8S") == [1]
    assert len(rows) == 3 and rows[1:] == list(rows)[1:] and rows == Rows(list(rows))
    with pytest.raises(TypeError, match="'contract'"):
        rows.append({"contract": 3})
    with pytest.raises(IndexError):
        rows[3]


def test_a_comparison_keeps_its_rows_by_field_in_under_half_a_kilobyte():
    """A Five Hundred deal's row takes at most ROW_BYTES (<= 512) bytes in the comparison's
    rows, the values the row-by-row dicts would hold."""
    r = compare(["fivehundred", "fivehundred-must-trump"], n=20, bots=["random"], seed=2, jobs=1)
    assert isinstance(r.rows, Rows) and len(r.rows) == 40
    assert r.rows.nbytes() / len(r.rows) <= ROW_BYTES <= 512
    assert [row["variant"] for row in r.rows[:2]] == ["fivehundred", "fivehundred-must-trump"]
    made = r.column("fivehundred", "made")
    assert len(made) == 20 and set(made) <= {None, 0.0, 1.0}


def test_sensible_bots_play_when_no_players_are_named():
    """Without ``bots`` every seat is a SensibleBot: random players make almost no contract."""
    assert DEFAULT_BOTS == "sensible"
    r = compare(["whist", "whist"], n=1, seed=1, jobs=1)
    assert r.bots == ["sensible"] * 4
