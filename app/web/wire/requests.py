"""REST request bodies (strictly typed: wrong types are a 422, never a guess). The response
bodies are in `responses`."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.domain.names import has_blanks, invisible, skeleton, without_ignorables

NAME_MAX = 24
BOT_NAME = re.compile(r"(random|easy|normal|hard)\s*bot(\s*\d+)?", re.IGNORECASE)


def clean_name(value: str) -> str:
    """A display name: trimmed, 1-24 printable characters; control and format characters and
    blank fillers are refused, the printable marks that draw nothing (variation selectors, the
    combining grapheme joiner: the rest of Unicode's default-ignorables) dropped, so the name
    kept is the name seen (docs/protocol.md, "Identity")."""
    name = value.strip()
    wrong_length = ValueError(f"a name has 1 to {NAME_MAX} characters (after trimming spaces)")
    if not name:
        raise wrong_length
    if not name.isprintable():
        raise ValueError("a name may contain only printable characters")
    if invisible(name) or has_blanks(name):
        raise ValueError("a name needs a letter or digit people can see, and no blank fillers")
    name = without_ignorables(name).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise wrong_length
    if BOT_NAME.fullmatch(name) or BOT_NAME.fullmatch(skeleton(name)):
        raise ValueError("names like that are kept for the bots")
    return name


def printable(value: str) -> str:
    if not value.isprintable():
        raise ValueError("only printable characters, please")
    return value


Name = Annotated[str, Field(max_length=200), AfterValidator(clean_name)]


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class NewPlayer(_Body):
    name: Name


def known_lang(value: str) -> str:
    from app.i18n import LANGS

    if value not in LANGS:
        raise ValueError("a language is one of " + ", ".join(LANGS))
    return value


class Rename(_Body):
    """`PATCH /api/players/me`: a new display name, a language, whether friend requests arrive
    quietly (a count, not a pop-up), or any of them."""

    name: Name | None = None
    lang: Annotated[str, Field(max_length=16), AfterValidator(known_lang)] | None = None
    quiet_requests: bool | None = None


class NewRoom(_Body):
    preset: str | None = Field(default="standard", max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int | None = None
    public: bool = False
    turn_seconds: int | None = None
    hints: bool = True
    rated: bool = False
    sit: bool = False  # the host takes the first seat at once
    pace: Literal["live", "turn_based"] = "live"
    seed: Annotated[str, AfterValidator(printable)] | None = Field(default=None, min_length=1, max_length=128)


USERNAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
PASSWORD_MIN, PASSWORD_MAX = 8, 256


def check_username(value: str) -> str:
    if not USERNAME.fullmatch(value):
        raise ValueError("a username has 3 to 24 of the letters A-Z and a-z, digits, '_' and '-'")
    return value


def check_password(value: str) -> str:
    if not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise ValueError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return value


class NewAccount(_Body):
    """Claim an account for the calling guest."""

    username: Annotated[str, Field(max_length=100), AfterValidator(check_username)]
    password: Annotated[str, Field(max_length=1000), AfterValidator(check_password)]

    def __repr__(self) -> str:  # never show the password in a log or a traceback
        return f"NewAccount(username={self.username!r})"


class SignIn(_Body):
    """A username and password (any text: a malformed one is just a wrong one)."""

    username: str = Field(max_length=100)
    password: str = Field(max_length=1000)

    def __repr__(self) -> str:
        return f"SignIn(username={self.username!r})"


class NewPassword(_Body):
    """A password change: the old password (any text) and the new one."""

    old_password: str = Field(max_length=1000)
    new_password: Annotated[str, Field(max_length=1000), AfterValidator(check_password)]

    def __repr__(self) -> str:
        return "NewPassword()"
