"""Rendering a key in a language, and choosing the language from Accept-Language."""

from __future__ import annotations

from app.i18n import from_accept_language, pick, render


def test_plural_forms_follow_the_number() -> None:
    assert render("fr", "reason.chat_long", {"n": 1}) == "un message a au plus 1 caractère"
    assert render("fr", "reason.chat_long", {"n": 500}) == "un message a au plus 500 caractères"
    assert render("de", "reason.too_many_rooms", {"n": 1}).endswith("1 offenen Tisch")
    assert render("de", "reason.too_many_rooms", {"n": 3}).endswith("3 offenen Tischen")
    assert render("en", "reason.take_backs_used", {"n": 1}).endswith("1 move in a turn")


def test_ranks_cards_and_lists_in_the_language() -> None:
    assert render("fr", "reason.wrong_rank", {"rank": 5, "need": 12}) == \
        "un 5 ne peut pas aller sur une pile qui attend une dame"
    assert render("de", "reason.wrong_rank", {"rank": 13, "need": 11}) == \
        "ein König passt hier nicht: gebraucht wird ein Bube"
    assert render("de", "reason.must_play_first", {"ranks": [1, 2]}) == \
        "du musst zuerst Ass oder 2 in die Mitte spielen"
    assert render("es", "reason.must_play_first", {"ranks": [1, 2]}) == "primero tienes que jugar tu as o 2 al centro"
    assert render("fr", "hint.play", {"card": "QH"}) == "Jouez D\u2665."
    assert render("de", "hint.play", {"card": "JS"}) == "Spiel B\u2660."
    assert render("es", "hint.play", {"card": "JK"}) == "Juega Joker."
    assert render("fr", "reason.not_host", {"action": "start_game"}) == "seul l'hôte peut lancer la partie"
    assert render("de", "reason.options_invalid", {"option": "teams"}) == "diese Wahl passt nicht: Partnerschaften"


def test_unknown_language_or_key_falls_back() -> None:
    assert render("xx", "reason.not_your_turn") == "it is not your turn"
    assert render("fr", "reason.nothing_like_this", default="as sent") == "as sent"
    assert render("de", "no.such.key") == "no.such.key"


def test_accept_language_is_negotiated() -> None:
    assert from_accept_language("de-CH,de;q=0.9,en;q=0.8") == "de"
    assert from_accept_language("en-US,en;q=0.9,fr;q=0.8") == "en"
    assert from_accept_language("pt-BR, es;q=0.5") == "es"
    assert from_accept_language("fr;q=0, es;q=0.2") == "es"
    assert from_accept_language("pt-BR,ja") is None
    assert from_accept_language("") is None
    assert from_accept_language(";;;,q=,*") is None
    assert from_accept_language("x" * 10_000) is None
    assert pick(None, "fr", accept_language="de") == "fr"
    assert pick("xx", None, accept_language="es-MX") == "es"
    assert pick(accept_language=None) == "en"
