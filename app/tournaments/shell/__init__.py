"""Tournaments, the I/O: the round runner (one instance, by lease) and its notices."""
