"""What the server says, in the asker's language: the language of a request (`?lang=`, else
`Accept-Language`), and the option catalogue's words (`GET /api/options`) from the language
catalogues (`option.<name>`, `choice.<name>.<value>`, `help.<name>`, `preset.<name>`,
`preset_help.<name>`), English where a catalogue lacks one."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from app.i18n import DEFAULT, has, pick, render
from app.rooms.ports import HintReason


def request_lang(request: Request, lang: str | None = None) -> str:
    return pick(lang, accept_language=request.headers.get("accept-language"))


def refusal(lang: str, reason: str | None, params: dict[str, Any] | None, english: str) -> str:
    """A refusal's sentence in `lang`: the catalogue's `reason.<reason>` with its params; in
    English (or without a reason) the server's own sentence, the more precise."""
    if reason is None or lang == DEFAULT:
        return english
    return render(lang, f"reason.{reason}", params, default=english)


def hint_text(lang: str, reason: HintReason | str) -> tuple[str, str | None, dict[str, Any] | None]:
    """A hint's sentence in `lang`, with its key and params (none for a plain sentence)."""
    if isinstance(reason, str) or reason.key is None:
        return str(getattr(reason, "text", reason)), None, None
    if lang == DEFAULT:
        return reason.text, reason.key, reason.params
    text = render(lang, f"hint.{reason.key}", reason.params, default=reason.text)
    if reason.params.get("helps_next"):
        text = f"{text} {render(lang, 'hint.helps_next')}"
    return text, reason.key, reason.params


def _say(lang: str, key: str, english: str) -> str:
    return render(lang, key, default=english) if has(key, lang) or has(key) else english


def localize_catalog(out: dict[str, Any], lang: str) -> dict[str, Any]:
    """`out` (the room layer's English catalogue) with its words in `lang`."""
    if lang == DEFAULT:
        return out
    for name, entry in out["options"].items():
        entry["label"] = _say(lang, f"option.{name}", entry["label"])
        entry["help"] = _say(lang, f"help.{name}", entry["help"])
        if "choice_labels" in entry:
            entry["choice_labels"] = {value: _say(lang, f"choice.{name}.{value}", text)
                                      for value, text in entry["choice_labels"].items()}
    for name, preset in out["presets"].items():
        preset["label"] = _say(lang, f"preset.{name}", preset["label"])
        preset["help"] = _say(lang, f"preset_help.{name}", preset["help"])
    return out
