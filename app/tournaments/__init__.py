"""Tournaments (docs/tournaments.md): Swiss, round-robin and arena, with duplicate deals.
`core` decides (pairings, standings, settings) and does no I/O; `shell` runs the rounds."""
