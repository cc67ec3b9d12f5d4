"""The DSL on its own: parse errors (position, found, expected, hint), name and
type checks at compile time, dealing patterns, and that every DSL string of every
shipped variant compiles."""
from __future__ import annotations


import pytest

from rulekit.dsl import Env, compile_deal, compile_expr, compile_ranking, parse
from rulekit.dsl.compile import LIMIT, MAX_DEPTH
from rulekit.dsl.parser import MAX_LENGTH, expected_text
from rulekit.errors import DSLError
from rulekit.variant import builtin_ids, resolve
from rulekit.variant.compiler import dsl_strings

NAMES = {"tricks": "num", "level": "num", "points": "num", "made": "bool", "trump": "const"}
CONSTS = ("S", "H", "D", "C", "NT")


def err(fn, text, *args, **kw) -> DSLError:
    with pytest.raises(DSLError) as e:
        fn(text, *args, **kw)
    return e.value


# ---------------------------------------------------------------------------- syntax errors
@pytest.mark.parametrize("start, text, col, found, hint", [
    ("expr", "10 * (tricks", 13, "unexpected end of text", 'a "(" is not closed'),
    ("expr", "if made then 1", 15, "unexpected end of text", "every if needs then ... else ..."),
    ("expr", "tricks = 0", 8, "unexpected character '='", "did you mean == to compare?"),
    ("expr", "made && made", 6, "unexpected character '&'", "write and instead of &&"),
    ("expr", "trump in [H, nt]", 14, "unexpected 'nt'", "did you mean NT?"),
    ("expr", "max(points,)", 12, "unexpected ')'", 'a value is missing before ")"'),
    ("expr", "if made than 1 else 0", 9, "unexpected 'than'", "did you mean then?"),
    ("ranking", "A, K, Q", 2, "unexpected ','", "separated by spaces, not commas"),
    ("ranking", "A K q", 5, "unexpected 'q'", "did you mean Q?"),
    ("deal", "3 3 3 1 widow 3", 9, "unexpected 'widow'", "put a comma before widow"),
    ("deal", "3 3, tallon 2", 6, "unexpected 'tallon'", "did you mean talon?"),
    ("deal", "3 3,", 5, "unexpected end of text", "remove the trailing comma"),
])
def test_syntax_errors_say_where_what_and_how_to_fix(start, text, col, found, hint):
    fn = {"expr": lambda t: compile_expr(t, NAMES, CONSTS), "ranking": compile_ranking, "deal": compile_deal}[start]
    e = err(fn, text)
    assert (e.line, e.column) == (1, col), e.message
    assert e.message.startswith(found), e.message
    assert hint in e.message
    assert "$end" not in e.message.lower()
    assert e.excerpt.splitlines()[1].index("^") - 4 == col - 1


def test_expected_sets_read_as_words():
    assert expected_text({"RPAR"}) == '")"'
    assert expected_text({"$END", "COMMA", "INT"}) == 'a number, "," or end of text'
    e = err(compile_ranking, "A K,")
    assert "end of text" in e.message and "$" not in e.message


def test_empty_text():
    assert "empty text (expected a formula)" in err(compile_expr, "", []).message
    assert "empty text (expected a ranking)" in err(compile_ranking, "  ").message
    assert "empty text (expected a dealing pattern)" in err(compile_deal, "").message


def test_multi_line_positions():
    e = err(compile_expr, "10 * tricks +\n  level * trics", NAMES)
    assert (e.line, e.column) == (2, 11)
    assert "did you mean tricks?" in e.message


def test_text_too_long():
    e = err(parse, "1 + " * MAX_LENGTH + "1", "expr")
    assert "characters long" in e.message


# ---------------------------------------------------------------------------- names and kinds
def test_unknown_names_suggest_a_close_match():
    e = err(compile_expr, "10 * trick", NAMES)
    assert (e.column, e.message.split(";")[0]) == (6, "unknown variable trick")
    assert "did you mean tricks?" in e.message and "(expected one of " in e.message
    assert "did you mean max?" in err(compile_expr, "mx(points)", NAMES).message
    assert "did you mean NT?" in err(compile_expr, "trump == NX", NAMES, CONSTS).message
    assert "did you mean NT?" in err(compile_expr, "trump == nt", NAMES, CONSTS).message


def test_notes_explain_why_a_name_is_missing():
    e = err(compile_expr, "value + 1", NAMES, notes={"value": "it is defined later in scoring.let"})
    assert e.message == "unknown variable value: it is defined later in scoring.let"


def test_ignored_names_are_not_reported_again():
    f = compile_expr("broken + 1", NAMES, ignore={"broken"})
    assert f.type == "num"


@pytest.mark.parametrize("text, col, phrase", [
    ("trump + 1", 1, "+ needs numbers"),
    ("10 * trump", 6, "* needs numbers"),
    ("-trump", 2, "- needs numbers"),
    ("trump < H", 1, "< needs numbers"),
    ("trump == 3", 7, "== compares a constant with a number"),
    ("tricks in [H]", 1, "`in [...]` tests a constant"),
    ("if trump then 1 else 0", 4, "if needs a condition"),
    ("if made then H else 0", 21, "the branches give a constant and a number"),
    ("max(trump, 1)", 5, "max(...) needs numbers"),
    ("tricks / 0", 10, "division by zero"),
    ("abs(1, 2)", 1, "abs takes a different number of arguments"),
])
def test_kind_errors_are_found_at_load_time(text, col, phrase):
    e = err(compile_expr, text, NAMES, CONSTS)
    assert phrase in e.message
    assert e.column == col, e.message


def test_expected_kind_of_a_whole_formula():
    assert "points are expected here" in err(compile_expr, "tricks > 3", NAMES, expect="num").message
    assert "a condition is expected" in err(compile_expr, "tricks + 3", NAMES, expect="bool").message
    assert compile_expr("100 * made", NAMES, expect="num").type == "num"  # a condition counts 0 or 1
    assert compile_expr("made and tricks > 0", NAMES, expect="bool").type == "bool"


def test_bounds():
    e = err(compile_expr, "tricks * 1" + "0" * 20, NAMES)
    assert "too large" in e.message and e.column == 10
    assert compile_expr(str(LIMIT), [])(Env({})) == LIMIT
    e = err(compile_expr, "-" * (MAX_DEPTH + 5) + "1", [])
    assert f"nests more than {MAX_DEPTH} operations" in e.message
    assert compile_expr(" + ".join(["1"] * 150), [])(Env({})) == 150


def test_formulas_still_evaluate():
    f = compile_expr("if made then 40 + 20 * level else -(10 * tricks)", NAMES, CONSTS, expect="num")
    assert f(Env({"made": True, "level": 2, "tricks": 3})) == 80
    assert f(Env({"made": False, "level": 2, "tricks": 3})) == -30
    g = compile_expr("trump in [H, NT] and tricks == 10", NAMES, CONSTS, expect="bool")
    assert g(Env({"trump": "NT", "tricks": 10})) is True


# ---------------------------------------------------------------------------- rankings and deals
def test_ranking_items_keep_their_columns():
    items = compile_ranking("JK J:trump J:sister A K Q T 9")
    assert [(i.kind, i.value, i.column) for i in items][:3] == [("joker", "JK", 1), ("relative", "J", 4),
                                                               ("relative", "J", 12)]
    assert items[6].value == "10"


@pytest.mark.parametrize("text, col, phrase", [
    ("3 0 3", 3, "a packet's card count must be at least 1"),
    ("1 x 0", 5, "the number of rounds after x must be at least 1"),
    ("5, widow 0", 10, "the widow's card count must be at least 1"),
])
def test_deal_counts_must_be_positive(text, col, phrase):
    e = err(compile_deal, text)
    assert phrase in e.message and e.column == col


def test_deal_steps():
    steps = compile_deal("3 3 3 1, widow 3 up")
    assert [(s.zone, s.count, s.repeat, s.face_up) for s in steps][-1] == ("widow", 3, 1, True)
    assert compile_deal("1 x 8")[0].repeat == 8


# ---------------------------------------------------------------------------- the shipped variants
@pytest.mark.parametrize("vid", builtin_ids())
def test_every_dsl_string_of_every_variant_parses(vid):
    r = resolve(vid)
    assert not r.diagnostics
    found = dsl_strings(r.data)
    assert found
    for path, start in found:
        value = r.data
        for k in path:
            value = value[k]
        parse(value, start)
