"""Rewrite the golden playthroughs in tests/engine/golden/ (one per preset).

    python scripts/make_goldens.py

Review the diff before committing: it shows exactly how the engine's behaviour changed.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.engine.golden import write_all  # noqa: E402

if __name__ == "__main__":
    for path in write_all():
        print(f"wrote {path}")
