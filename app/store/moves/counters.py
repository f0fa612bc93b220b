"""The move writer's metrics: moves per transaction, and the path each move's commit took."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

COMMIT_BATCH = Histogram("spite_commit_batch_moves", "Moves committed per transaction (group commit)",
                         buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512))
COMMIT_PATH = Counter("spite_commit_path", "Moves committed, by the path they took: inline (SQLite, on the loop's "
                      "thread at once), batch (SQLite, queued behind the write lock and committed together on the "
                      "loop's thread), queued (the pooled async connection: hand and match ends, every move on a "
                      "server database)", ["path"])
INLINE, BATCH, QUEUED = (COMMIT_PATH.labels(path) for path in ("inline", "batch", "queued"))
