"""Reads and writes by what they are about (players, rooms, matches, history, social, outbox...):
functions over a session, typed with domain values and table rows."""
