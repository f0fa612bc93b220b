"""Tournaments, the PURE part: settings, pairings, scores, tie-breaks, duplicate match points."""
