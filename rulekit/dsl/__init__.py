"""The rulekit DSL (DESIGN.md layer 2): parsing and compiling short strings in variant files."""
from rulekit.dsl.compile import (DealStep, Env, Formula, FormulaError, RankItem, compile_deal,
                                 compile_expr, compile_ranking, word_kind)
from rulekit.dsl.parser import parse

__all__ = ["DealStep", "Env", "Formula", "FormulaError", "RankItem", "compile_deal",
           "compile_expr", "compile_ranking", "parse", "word_kind"]
