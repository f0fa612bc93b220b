"""Values every layer shares: records (awards, standings, room status, what a seat has seen),
rating maths, names. Pure: the standard library and small pure libraries only (import-linter
checks it: pyproject.toml, docs/architecture.md)."""
