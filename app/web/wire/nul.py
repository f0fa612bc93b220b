"""The one rule for NUL characters (U+0000) in what a client sends: none, anywhere.

PostgreSQL cannot store a NUL in text, and a query that carries one fails inside the
database driver (a 503 `database_away` where a 422 belongs); no name, code, token or text of
this site has any use for one. So every REST request (its path, its query, its JSON body) and every
socket message is refused with reason `nul_character` before it reaches anything that may query
(`app.web.http.nul` for REST, `app.web.sockets` for sockets), whatever its route or type, present
or future."""

from __future__ import annotations

from typing import Any

import orjson

NUL = "\x00"
ESCAPED = "\\u0000"  # how JSON text spells a NUL inside a string (a raw NUL there is not JSON at all)
ENGLISH = "text may not contain the NUL character (U+0000)"


def carries_nul(value: Any) -> bool:
    """Whether a decoded JSON value has a NUL in any string or key, however deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if NUL in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def json_carries_nul(text: str | bytes) -> bool:
    """Whether JSON `text` spells a NUL in any string or key (text that is not JSON: False,
    its parser says what is wrong with it)."""
    if ESCAPED not in text if isinstance(text, str) else ESCAPED.encode() not in text:
        return False  # the common case: no parse
    try:
        return carries_nul(orjson.loads(text))
    except (ValueError, RecursionError):
        return False
