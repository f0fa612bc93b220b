"""Each preset's golden playthrough still plays out exactly as recorded."""

from __future__ import annotations

import pytest

from app.engine import PRESETS
from tests.engine.golden import golden_path, playthrough


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_golden_playthrough(preset: str) -> None:
    expected = golden_path(preset).read_text()
    assert playthrough(preset) == expected, f"regenerate with: python scripts/make_goldens.py ({preset})"
