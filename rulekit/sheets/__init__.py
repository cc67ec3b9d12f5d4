"""Score sheets as data (DESIGN.md layer 5) and their renderers."""
from rulekit.sheets.sheet import Row, Sheet

__all__ = ["Row", "Sheet"]
