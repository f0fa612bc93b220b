"""A bad option value is refused in the asker's language with what the English says: which
option, and what it takes (the bounds, the choices), never only "that choice does not work"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.i18n import LANGS, render
from app.rooms.core.config import resolve
from app.rooms.core.errors import ConfigError
from app.web.http.language import refusal

BAD: list[tuple[dict[str, Any], dict[str, Any]]] = [  # (options, other fields): one bad value each
    ({"hints_shown": "yes"}, {}), ({"take_backs": 3}, {}), ({"discard_rule": "whatever"}, {}),
    ({"payoff_size": 99}, {}), ({"jokers_per_deck": 3}, {}), ({"centre_stacks": 99}, {}),
    ({"match_target": -1}, {}), ({"wild_cannot_be": "A"}, {}), ({"wild_cannot_be": ["Z"]}, {}),
    ({"no_such_option": 1}, {}), ({}, {"pace": "sprint"}), ({}, {"preset": "nope"}),
]


def _refused(options: dict[str, Any], fields: dict[str, Any]) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        resolve(fields.get("preset", "standard"), options, None, None, min_turn=10, max_turn=600,
                pace=fields.get("pace", "live"))
    return e.value


def _numbers(text: str) -> set[str]:
    return {n.replace("\u202f", "").replace("\xa0", "").replace(".", "").replace(",", "")
            for n in re.findall(r"\d[\d\u202f\xa0.,]*", text)}


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
@pytest.mark.parametrize(("options", "fields"), BAD, ids=lambda v: str(v))
def test_a_bad_option_value_is_refused_as_precisely_as_in_english(
        lang: str, options: dict[str, Any], fields: dict[str, Any]) -> None:
    e = _refused(options, fields)
    said = refusal(lang, e.reason, e.params, e.message)
    generic = render(lang, "reason.options_invalid", {"option": e.option})
    assert e.reason and e.reason != "options_invalid", e.message
    assert said != generic and said != e.message, said
    assert _numbers(e.message) <= _numbers(said), (e.message, said)  # the bounds, as English gives them
    for word in re.findall(r"[a-z]+_[a-z_]+", e.params.get("choices", "")):
        assert word in said  # the values the option takes, as the API spells them
