"""Why a review failed, as a reason key and params (the catalogues' `reason.<key>`): the row's
`error` keeps the English sentence they make, and the key and params are read back from it, so
the server can say it in the reader's language (docs/protocol.md, "Match review")."""

from __future__ import annotations

import re
from typing import Any

# The English of each reason; a text that fits none (an exception's own words) is `review_crashed`.
FAILURES: dict[str, str] = {
    "review_timeout": "the review took longer than {seconds} s",
    "review_died": "the review's process died",
    "review_match_gone": "the match is gone",
    "review_match_live": "the match is not over",
    "review_stale": "the review stopped without a word; ask again",
}
CRASHED = "review_crashed"
_FIELD = re.compile(r"\\\{(\w+)\\\}")
_PATTERNS = [(key, re.compile("^" + _FIELD.sub(r"(?P<\1>.+)", re.escape(text)) + "$"))
             for key, text in FAILURES.items()]


def failure(*, reason: str, **params: Any) -> str:
    """The English sentence kept for `reason` with `params`."""
    return FAILURES[reason].format(**params)


def read(error: str) -> tuple[str, dict[str, Any]]:
    """The reason and params a kept sentence says (an exception's words: `review_crashed`)."""
    for key, pattern in _PATTERNS:
        found = pattern.match(error)
        if found:
            return key, found.groupdict()
    return CRASHED, {"error": error}
