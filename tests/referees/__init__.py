"""Independent referees: ground truth for the gallery games (see README.md)."""
