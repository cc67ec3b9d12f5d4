"""rulekit: describe, check, play, score and compare trick-taking card games.

Layers (imports point down only): cards -> dsl -> variant -> engine -> sheets -> bots -> sim -> cli.
"""
__version__ = "0.1.0"
