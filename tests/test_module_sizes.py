"""Small modules, one concept each (docs/architecture.md): no module of app/ is over 400 lines
(the client's 350: tests/e2e/test_size.py)."""

from __future__ import annotations

from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
APP_LINES = 400


def test_no_app_module_is_over_400_lines() -> None:
    long = {str(p.relative_to(APP)): n for p in APP.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > APP_LINES}
    assert not long, f"app/ modules over {APP_LINES} lines: {long}"
