"""The move hot path: the writer that commits moves in batches, and the plain-move commit that
stays on the event loop (SQLite)."""
