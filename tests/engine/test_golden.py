"""Each preset's (and each option mix's) golden playthrough still plays out exactly as recorded."""

from __future__ import annotations

import pytest

from tests.engine.golden import GOLDENS, golden_path, playthrough


@pytest.mark.parametrize("preset", sorted(GOLDENS))
def test_golden_playthrough(preset: str) -> None:
    expected = golden_path(preset).read_text()
    assert playthrough(preset) == expected, f"regenerate with: python scripts/make_goldens.py ({preset})"
