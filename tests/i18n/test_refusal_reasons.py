"""Every refusal reason the server's code names (`reason="..."` anywhere in app/) has a text in
each catalogue, and where the call names its params (`Refused(..., reason="x", n=3)`, or a
literal `params={...}`) the texts name exactly those placeholders; a constant English sentence
is the English catalogue's text (docs/protocol.md, "Languages")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.i18n import CATALOGUES, LANGS
from app.i18n.catalog import PLACEHOLDER
from app.web.http.refused import LIMITS, Refused

ROOT = Path(__file__).resolve().parents[2]
NOT_PARAMS = {"reason", "headers", "fields", "move_id", "option", "code", "cls", "params"}


def _calls() -> list[tuple[str, str, set[str] | None, str | None]]:
    """(where, reason, params named or None if unknown, constant English or None) of each call
    in app/ with a literal `reason=`."""
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg is not None}
            reason = kw.get("reason")
            if not (isinstance(reason, ast.Constant) and isinstance(reason.value, str)):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            params: set[str] | None = None
            english = None
            if name in ("Refused", "refuse", "failure"):  # Refused(status, english, ...), conn.refuse(code, ...)
                if any(k.arg is None for k in node.keywords):  # **params: not known here
                    continue
                params = set(kw) - NOT_PARAMS
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                    english = node.args[1].value
            elif isinstance(kw.get("params"), ast.Dict):
                keys = kw["params"].keys  # type: ignore[attr-defined]
                if all(isinstance(k, ast.Constant) for k in keys):
                    params = {k.value for k in keys}
            found.append((where, reason.value, params, english))
    return found


CALLS = _calls()


def _placeholders(lang: str, reason: str) -> set[str] | None:
    texts = CATALOGUES[lang].texts
    bases = [k for k in texts if k == f"reason.{reason}" or k.startswith(f"reason.{reason}#")]
    if not bases:
        return None
    return {m.group(1) for k in bases for m in PLACEHOLDER.finditer(texts[k])}


def test_the_scan_finds_the_rest_refusals() -> None:
    reasons = {r for _, r, _, _ in CALLS}
    assert {"no_player", "no_room", "no_token", "too_many", "vacation_left", "slow_down", "binary_message"} <= reasons
    assert len([c for c in CALLS if c[2] is not None]) > 60


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_named_in_app_has_a_text_with_its_params(lang: str) -> None:
    missing, wrong = [], []
    for where, reason, params, _ in CALLS:
        named = _placeholders(lang, reason)
        if named is None:
            missing.append(f"{where} reason.{reason}")
        elif params is not None and named != params:
            wrong.append(f"{where} reason.{reason}: text names {sorted(named)}, the call gives {sorted(params)}")
    assert not missing, missing
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGS)
def test_every_limit_and_invitation_word_is_said(lang: str) -> None:
    texts = CATALOGUES[lang].texts
    for kind in LIMITS:
        assert f"limit.{kind}" in texts, f"{lang}: limit.{kind}"
    for status in ("accepted", "declined", "withdrawn"):
        assert f"invitation.{status}" in texts


def test_the_english_catalogue_says_the_servers_sentence() -> None:
    en = CATALOGUES["en"].texts
    for where, reason, params, english in CALLS:
        if english is not None and not params:
            assert en.get(f"reason.{reason}") == english, where
    for kind, words in LIMITS.items():
        assert en[f"limit.{kind}"] == words
    assert str(Refused(429, "x", reason="too_many", what="signins", wait=3).params) == "{'what': 'signins', 'wait': 3}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_malformed_frames_reason_has_a_text_with_its_params(lang: str) -> None:
    """The sockets' frame-level refusals (app/web/sockets/frames.py) name reasons the catalogues say."""
    from pydantic import ValidationError

    from app.web.sockets.frames import refused_frame
    from app.web.wire import room as wire
    from app.web.wire.lobby import LOBBY_CLIENT, LOBBY_CLIENT_TYPES

    seen = set()
    for adapter, types in ((wire.CLIENT_MESSAGE, wire.CLIENT_TYPES), (LOBBY_CLIENT, LOBBY_CLIENT_TYPES)):
        for text in ("[1", '{"type": "dance"}', '{"type": "hello", "token": 3}', '{"type": "move", "move": {}}'):
            if types is LOBBY_CLIENT_TYPES and '"move"' in text:
                continue
            with pytest.raises(ValidationError) as e:
                adapter.validate_json(text)
            english, reason, params = refused_frame(e.value, types)
            assert english
            if reason is not None:
                seen.add(reason)
                assert _placeholders(lang, reason) == set(params), (reason, params)
    assert seen == {"not_json_object", "unknown_type", "bad_field", "bad_move"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_review_failure_has_a_text_with_its_params(lang: str) -> None:
    from app.store.repositories.review_failures import CRASHED, FAILURES, read

    for key, english in FAILURES.items():
        assert _placeholders(lang, key) == {m.group(1) for m in PLACEHOLDER.finditer(english)}, key
        assert read(english.replace("{seconds}", "30"))[0] == key
    assert _placeholders(lang, CRASHED) == {"error"}
    assert read("TypeError: boom") == (CRASHED, {"error": "TypeError: boom"})


def test_every_room_refusal_names_its_reason() -> None:
    """A `RoomError` without a `reason` reaches a French or German player in English: each one
    raised in app/ names its reason (or passes one on with `**`)."""
    bare = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name == "RoomError" and not any(k.arg in ("reason", None) for k in node.keywords):
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bare == [], f"RoomError without a reason: {bare}"
