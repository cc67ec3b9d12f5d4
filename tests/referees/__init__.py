"""Independent referees: plain implementations of one deal of a game, from docs/rules/."""
