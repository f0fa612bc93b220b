"""The player's language outside the page: every kind of reminder, in every language, says the
names it was given and keeps no catalogue keys. (That a push reaches a device in the language its
player chose, over a real endpoint, is tests/web/test_finding_notifications.py's invitation
test.)"""

from __future__ import annotations

import pytest

from app.domain.reminder import MATCH_OVER, TOURNAMENT, YOUR_TURN, Reminder
from app.i18n import LANGS
from app.platform.notify.texts import localized


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", [YOUR_TURN, MATCH_OVER])
def test_every_reminder_is_said_in_every_language(kind: str, lang: str) -> None:
    english = "It is your move in the game with Ann and Bob." if kind == YOUR_TURN \
        else "Your game with Ann and Bob is over: see how it ended."
    r = Reminder(kind, "p", "ROOM", "k", "Your turn" if kind == YOUR_TURN else "Game over", english,
                 names=("Ann", "Bob"))
    said = localized(r.payload(), lang)
    assert "i18n" not in said and said["room"] == "ROOM"
    assert "Ann" in said["body"] and "Bob" in said["body"]
    if lang == "en":
        assert (said["title"], said["body"]) == (r.title, r.body)
    else:
        assert said["title"] != r.title and said["body"] != r.body and "push." not in said["body"]
    alone = localized(Reminder(kind, "p", "ROOM", "k", r.title, r.body).payload(), lang)
    assert "push." not in alone["body"] and alone["body"].strip()


@pytest.mark.parametrize("lang", LANGS)
def test_a_tournament_table_is_said_with_its_tournament_and_round(lang: str) -> None:
    """The tournament's push (app/tournaments/shell/notices.py) names the tournament and the round
    apart (`{tournament}`, `{round}`), so each language places them in its own sentence."""
    r = Reminder(TOURNAMENT, "p", "ROOM", "k", "Your tournament table is ready", "Club night: round 2 is ready.",
                 names=("Club night", "2"))
    said = localized(r.payload(), lang)
    assert "Club night" in said["body"] and "2" in said["body"] and "push." not in said["body"] + said["title"]
    if lang == "en":
        assert (said["title"], said["body"]) == (r.title, r.body)
    alone = localized(Reminder(TOURNAMENT, "p", "ROOM", "k", r.title, r.body).payload(), lang)
    assert "push." not in alone["body"] and "{" not in alone["body"]
