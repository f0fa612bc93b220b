"""The catalogues and rendering a key in a language.

A catalogue is a flat JSON object: key -> text. A text names its parameters as `{name}` or
`{name:kind}` (kinds: `rank` "Queen", `a_rank` "a Queen", `ranks_or` "Ace or 2", `card` a card
code such as "QH" shown as "Q♥" in the language's letters, `list` names joined with the
language's "and"; any other kind names a group of the
catalogue: `{action:action}` says `action.<value>`; numbers go through Babel).
A key with plural forms is stored as `key#one`, `key#other` (and `#few`, `#many`, … as the
language's CLDR plural rules need), chosen by the parameter `n` with Babel's plural rules:
the same rules the browser's `Intl.PluralRules` applies."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal

FOLDER = Path(__file__).resolve().parents[2] / "static" / "i18n"
DEFAULT = "en"
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_CODES = {"A": 1, "J": 11, "Q": 12, "K": 13, "JOKER": 14, "JK": 14}


@dataclass(frozen=True)
class Catalogue:
    """One language's texts."""

    lang: str
    texts: dict[str, str]
    locale: Locale

    def plural_tag(self, n: Any) -> str:
        return str(self.locale.plural_form(abs(n) if isinstance(n, int | float) else 0))

    def text(self, key: str, params: dict[str, Any]) -> str | None:
        """The template of `key` (its plural form for `params["n"]`), or None if unknown."""
        if key in self.texts:
            return self.texts[key]
        if f"{key}#other" in self.texts:
            tag = self.plural_tag(params.get("n", 0))
            return self.texts.get(f"{key}#{tag}", self.texts[f"{key}#other"])
        return None


def _load(folder: Path) -> dict[str, Catalogue]:
    found: dict[str, Catalogue] = {}
    for path in sorted(folder.glob("*.json")):
        texts = json.loads(path.read_text(encoding="utf-8"))
        found[path.stem] = Catalogue(path.stem, texts, Locale.parse(path.stem))
    return found


CATALOGUES: dict[str, Catalogue] = _load(FOLDER)
LANGS: tuple[str, ...] = tuple(sorted(CATALOGUES))


def _rank(c: Catalogue, value: Any, form: str) -> str:
    rank = RANK_CODES.get(value, value) if isinstance(value, str) and not value.isdigit() else int(value)
    return c.texts.get(f"{form}.{rank}", str(value))


def _card(c: Catalogue, code: Any) -> str:
    """A card code ("QH", "10S", "JK") in the language's letters and a suit sign."""
    code = str(code)
    if code in ("JK", "JOKER"):
        return c.texts.get("card_short.14", "Joker")
    rank, suit = code[:-1], code[-1:]
    number = RANK_CODES.get(rank) or (int(rank) if rank.isdigit() else 0)
    return c.texts.get(f"card_short.{number}", rank) + SUITS.get(suit, "")


def _say(c: Catalogue, value: Any, kind: str | None) -> str:
    if kind == "rank":
        return _rank(c, value, "rank")
    if kind == "a_rank":
        return _rank(c, value, "a_rank")
    if kind == "ranks_or":
        return format_list([_rank(c, r, "rank") for r in value], style="or", locale=c.locale)
    if kind == "card":
        return _card(c, value)
    if kind == "list":  # names: "Ann, Bob and Cleo" as the language joins them
        return format_list([str(v) for v in value], locale=c.locale) if value else ""
    if kind is not None:  # a word of the catalogue: `{action:action}` says `action.<value>`
        return c.texts.get(f"{kind}.{value}") or CATALOGUES[DEFAULT].texts.get(f"{kind}.{value}", str(value))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(format_decimal(value, locale=c.locale))
    return str(value)


def has(key: str, lang: str = DEFAULT) -> bool:
    c = CATALOGUES.get(lang)
    return c is not None and (key in c.texts or f"{key}#other" in c.texts)


def render(lang: str | None, key: str, params: dict[str, Any] | None = None, default: str | None = None) -> str:
    """`key` said in `lang` (English where `lang` lacks it), its parameters filled in;
    `default` (or the key itself) if no catalogue has it."""
    values = params or {}
    for code in (lang or DEFAULT, DEFAULT):
        c = CATALOGUES.get(code)
        template = c.text(key, values) if c is not None else None
        if c is not None and template is not None:
            return _fill(c, template, values)
    return default if default is not None else key


def _fill(c: Catalogue, template: str, params: dict[str, Any]) -> str:
    return PLACEHOLDER.sub(lambda m: _say(c, params.get(m.group(1), ""), m.group(2)), template)
