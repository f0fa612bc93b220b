"""Notification texts in the recipient's language. A payload in the outbox keeps its
English `title` and `body` and, under `i18n`, the catalogue keys they are said by and their
parameters (names and room codes only, never a card); the worker says them in the recipient
player's language (`players.lang`; English, the payload's own words, if none chosen) at sending, so a language chosen
after the row was written is the one used. Keys: `push.*`, server-only (app/web/routes/pages.py)."""

from __future__ import annotations

from typing import Any

from app.i18n import DEFAULT, render


def words(title: str, body: str, params: dict[str, Any]) -> dict[str, Any]:
    """The `i18n` part of a payload: `title` and `body` are catalogue keys."""
    return {"title": title, "body": body, "params": params}


def localized(payload: dict[str, Any], lang: str | None) -> dict[str, Any]:
    """`payload` as the push service gets it: title and body said in `lang`, without `i18n`."""
    said = payload.get("i18n")
    if not isinstance(said, dict):
        return payload
    out = {k: v for k, v in payload.items() if k != "i18n"}
    if lang is None or lang == DEFAULT:  # English: the server's own sentence, as it was written
        return out
    params = said.get("params") if isinstance(said.get("params"), dict) else {}
    for field in ("title", "body"):
        key = said.get(field)
        if isinstance(key, str):
            out[field] = render(lang, key, params, default=str(out.get(field, key)))
    return out
