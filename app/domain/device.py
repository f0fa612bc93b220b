"""What a signed-in device is called on its owner's list of sessions: the browser and the system,
read from the User-Agent when the token is issued. Only these two names are kept (never the
User-Agent itself), from short fixed lists; anything else is unknown (None)."""

from __future__ import annotations

# First match wins: browsers that say "Chrome" or "Safari" too come before those words.
BROWSERS = (("Edg/", "Edge"), ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"),
            ("SamsungBrowser/", "Samsung Internet"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
            ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
           ("CrOS", "ChromeOS"), ("Macintosh", "macOS"), ("Linux", "Linux"))
MAX_AGENT = 1000  # a longer User-Agent is not read


def _first(agent: str, table: tuple[tuple[str, str], ...]) -> str | None:
    return next((name for mark, name in table if mark in agent), None)


def device_of(agent: str | None) -> str | None:
    """`"Chrome/Android"`: the browser and the system, each from its list, or None if neither is
    known. The parts of an unknown side are empty (`"/Linux"`)."""
    if not agent or len(agent) > MAX_AGENT:
        return None
    browser, system = _first(agent, BROWSERS), _first(agent, SYSTEMS)
    if browser is None and system is None:
        return None
    return f"{browser or ''}/{system or ''}"


def parts(device: str | None) -> tuple[str | None, str | None]:
    """The browser and the system of a kept device (None where unknown)."""
    if not device or "/" not in device:
        return None, None
    browser, system = device.split("/", 1)
    return browser or None, system or None
