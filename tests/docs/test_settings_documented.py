"""Every setting is in docs/operations.md under its variable's name (the standard: every limit is
documented with its setting), so a new setting cannot ship unexplained."""

from __future__ import annotations

import re
from pathlib import Path

from app.platform.settings import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def test_every_setting_is_named_in_the_operations_doc() -> None:
    text = DOC.read_text(encoding="utf-8")
    prefix = str(Settings.model_config.get("env_prefix", "")).upper()
    missing = [f"{prefix}{name.upper()}" for name in Settings.model_fields
               if not re.search(rf"\b{prefix}{name.upper()}\b", text)]
    assert missing == [], f"not in docs/operations.md: {missing}"
