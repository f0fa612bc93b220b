"""Which language to speak: a stated choice, else the player's, else the browser's
`Accept-Language` (negotiated with Babel), else English."""

from __future__ import annotations

from babel import negotiate_locale

from .catalog import DEFAULT, LANGS

MAX_HEADER = 512  # characters of Accept-Language read; the rest is ignored


def _preferred(header: str) -> list[str]:
    """The header's languages, best first (RFC 9110 weights; malformed parts skipped)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header[:MAX_HEADER].split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip()
        weight = 1.0
        for b in bits[1:]:
            name, _, value = b.strip().partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and tag != "*" and weight > 0:
            ranked.append((-weight, i, tag.replace("_", "-")))
    return [tag for _, _, tag in sorted(ranked)]


def from_accept_language(header: str | None) -> str | None:
    """The catalogue language the header asks for, or None."""
    if not header:
        return None
    wanted = _preferred(header)
    found = negotiate_locale(wanted, list(LANGS), sep="-")
    if found is None:  # "fr-CH" matches "fr": Babel matches whole tags or aliases only
        found = negotiate_locale([w.split("-")[0] for w in wanted], list(LANGS), sep="-")
    return found


def pick(*choices: str | None, accept_language: str | None = None) -> str:
    """The first of `choices` that is a catalogue language, else the header's, else English."""
    for choice in choices:
        if choice in LANGS:
            return choice
    return from_accept_language(accept_language) or DEFAULT
