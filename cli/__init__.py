"""The ``rulekit`` command line (DESIGN.md layer 8): thin typer app, rich output."""
