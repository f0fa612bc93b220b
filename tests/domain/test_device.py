"""A device's name on its owner's list of sessions: the browser and the system, from fixed lists."""

from __future__ import annotations

import pytest

from app.domain.device import device_of, parts

AGENTS = {
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1": ("Safari", "iPhone"),
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1": ("Chrome", "iPhone"),
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0": ("Edge", "macOS"),
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 "
    "Safari/537.36": ("Chrome", "Linux"),
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
    "SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36": ("Samsung Internet", "Android"),
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
    "Safari/537.36": ("Chrome", "ChromeOS"),
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
    "Safari/537.36 OPR/115.0.0.0": ("Opera", "Windows"),
    "SomeBot/1.0 (Linux)": (None, "Linux"),
}


@pytest.mark.parametrize("agent", AGENTS)
def test_a_user_agent_gives_the_browser_and_the_system(agent: str) -> None:
    kept = device_of(agent)
    assert kept is not None and len(kept) <= 40
    assert parts(kept) == AGENTS[agent]


@pytest.mark.parametrize("agent", [None, "", "curl/8.5.0", "Chrome/1 Windows" + "x" * 1000])
def test_nothing_known_or_too_long_is_no_name(agent: str | None) -> None:
    assert device_of(agent) is None
    assert parts(device_of(agent)) == (None, None)
