"""REST request bodies (strictly typed: wrong types are a 422, never a guess). The response
bodies are in `responses`."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

NAME_MAX = 24
BOT_NAME = re.compile(r"(random|easy|normal|hard)\s*bot(\s*\d+)?", re.IGNORECASE)


def clean_name(value: str) -> str:
    """A display name: trimmed, 1-24 printable characters."""
    name = value.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(f"a name has 1 to {NAME_MAX} characters (after trimming spaces)")
    if not name.isprintable():
        raise ValueError("a name may contain only printable characters")
    if BOT_NAME.fullmatch(name):
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


class Rename(_Body):
    name: Name


class NewRoom(_Body):
    preset: str | None = Field(default="standard", max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int | None = None
    public: bool = False
    turn_seconds: int | None = None
    hints: bool = True
    seed: Annotated[str, AfterValidator(printable)] | None = Field(default=None, min_length=1, max_length=128)
