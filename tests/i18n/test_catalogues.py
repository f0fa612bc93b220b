"""The catalogues (static/i18n/<lang>.json): complete in every language, the same placeholders
everywhere, the plural forms each language's CLDR rules name, and a text for every reason the
engine, the room layer and the hints can give."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel import Locale

from app.bots.reasons import HINTS
from app.engine.options import OPTION_NAMES, PRESETS
from app.engine.reasons import REASONS, english
from app.i18n import CATALOGUES, LANGS
from app.i18n.catalog import FOLDER, PLACEHOLDER
from app.rooms.core.achievements import CATALOG as ACHIEVEMENTS
from app.rooms.core.errors import ACTIONS
from app.rooms.core.wording import CHOICE_LABEL, OPTION_LABEL, PRESET_LABEL

ROOT = Path(__file__).resolve().parents[2]
EN = CATALOGUES["en"].texts


def _base(key: str) -> str:
    return key.partition("#")[0]


def _placeholders(texts: dict[str, str], base: str) -> set[str]:
    """The parameters a key's texts name (how each is said, `rank` or `a_rank`, may differ
    by language, as its grammar needs)."""
    found: set[str] = set()
    for key, text in texts.items():
        if _base(key) == base:
            found |= {m.group(1) for m in PLACEHOLDER.finditer(text)}
    return found


def test_the_four_languages_are_there_and_each_is_one_file() -> None:
    assert set(LANGS) >= {"en", "fr", "de", "es"}
    assert {p.stem for p in FOLDER.glob("*.json")} == set(LANGS)
    for lang in LANGS:  # a flat object of strings
        data = json.loads((FOLDER / f"{lang}.json").read_text(encoding="utf-8"))
        assert all(isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in data.items()), lang


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_catalogue_has_every_key_with_the_same_placeholders(lang: str) -> None:
    texts = CATALOGUES[lang].texts
    bases = {_base(k) for k in EN}
    assert {_base(k) for k in texts} == bases, "keys missing or extra"
    for base in sorted(bases):
        assert _placeholders(texts, base) == _placeholders(EN, base), f"{lang}: {base}"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_keys_have_exactly_the_forms_the_language_needs(lang: str) -> None:
    """Babel's CLDR plural rules (those of the browser's Intl.PluralRules) name the forms."""
    tags = set(Locale.parse(lang).plural_form.tags) | {"other"}
    texts = CATALOGUES[lang].texts
    plural = {_base(k) for k in texts if "#" in k}
    assert plural == {_base(k) for k in EN if "#" in k}
    for base in plural:
        assert {k.partition("#")[2] for k in texts if _base(k) == base} == tags, f"{lang}: {base}"
        assert base not in texts, f"{lang}: {base} is both plain and plural"


ROOM_REASON = re.compile(r"""\b(?:reason|key)=["'](\w+)["']""")  # a refusal's reason, an OptionsError's key


def _room_reasons() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        found |= set(ROOM_REASON.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_the_engine_and_the_rooms_give_has_a_text(lang: str) -> None:
    c = CATALOGUES[lang]
    room = _room_reasons()
    assert {"not_host", "lobby_only", "seat_taken", "hints_off"} <= room  # the search finds them
    for key in [*REASONS, *room, "options_invalid"]:
        assert c.text(f"reason.{key}", {"n": 2}) is not None, f"{lang}: reason.{key}"
    for key in HINTS:
        assert c.text(f"hint.{key}", {}) is not None, f"{lang}: hint.{key}"
    for key in ACTIONS:
        assert f"action.{key}" in c.texts
    for kind in ACHIEVEMENTS:  # the client names each achievement in the player's language
        assert f"ach.{kind.key}" in c.texts and f"ach.{kind.key}.d" in c.texts
    for name in OPTION_NAMES:
        assert f"option.{name}" in c.texts and f"help.{name}" in c.texts
    for name, labels in CHOICE_LABEL.items():
        for value in labels:
            assert f"choice.{name}.{value}" in c.texts
    for name in PRESETS:
        assert f"preset.{name}" in c.texts and f"preset_help.{name}" in c.texts


def test_the_english_catalogue_says_what_the_server_says() -> None:
    """The engine's, the hints' and the option form's English are the English catalogue's."""
    for key, text in REASONS.items():
        assert EN.get(f"reason.{key}", EN.get(f"reason.{key}#other")) == text, key
    for key, text in HINTS.items():
        assert EN[f"hint.{key}"] == text
    for name, label in OPTION_LABEL.items():
        assert EN[f"option.{name}"] == label
    for name, label in PRESET_LABEL.items():
        assert EN[f"preset.{name}"] == label
    for name, labels in CHOICE_LABEL.items():
        for value, text in labels.items():
            assert EN[f"choice.{name}.{value}"] == text
    assert english("wrong_rank", {"rank": 5, "need": 12}) == "a 5 cannot go on a stack that needs a Queen"


def test_no_english_left_in_the_other_catalogues() -> None:
    """A text copied from English unchanged is a text not translated, but for the words that are
    the same in that language (listed here) and texts of numbers and placeholders only."""
    everywhere = {"Spite & Malice", "Massachusetts", "Joker", "Buchholz"}  # a tie-break's name (its inventor's)
    same = {"fr": everywhere | {"Standard", "{n} pt", "{n} pts", "Message", "Total", "Marathon", "Notifications",
                                "Table", "Invitations", "Points", "Pause", "{h} h {m} min", "{n} min", "Champion"},
            "de": everywhere | {"Standard", "Name", "Marathon", "Partner", "Team {team}", "Team {team} ({names})",
                                "online", "offline", "Teams", "Pause", "Bot", "Chat", "Arena", "Live"},
            "es": everywhere | {"bot", "{name} (bot)", "Chat", "Total", "Normal", "{h} h {m} min", "{n} min", "Arena"}}
    for lang in LANGS:
        if lang == "en":
            continue
        texts = CATALOGUES[lang].texts
        copied = [k for k, v in texts.items() if EN.get(k) == v and re.search("[A-Za-z]{2,}", PLACEHOLDER.sub("", v))
                  and v not in same.get(lang, set()) and not k.startswith(("rank.", "card_short.", "a_rank."))]
        assert not copied, f"{lang}: {copied}"
