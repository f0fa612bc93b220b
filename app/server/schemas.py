"""REST request bodies (strictly typed: wrong types are a 422, never a guess). The response
bodies are in `responses`."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

NAME_MAX = 24


def clean_name(value: str) -> str:
    """A display name: trimmed, 1-24 printable characters."""
    name = value.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(f"a name has 1 to {NAME_MAX} characters (after trimming spaces)")
    if not name.isprintable():
        raise ValueError("a name may contain only printable characters")
    return name


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
    seed: str | None = Field(default=None, min_length=1, max_length=128)
