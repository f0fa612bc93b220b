"""Reading a REST request's body whole in a middleware, then handing it on: `read_body` and
`replaying` (the body limit and the NUL check both read the body before any route does)."""

from __future__ import annotations

from starlette.types import Message, Receive


async def read_body(receive: Receive, limit: int | None = None) -> tuple[bytes, list[Message], bool]:
    """The body (stopped as soon as it is longer than `limit`), the messages received after it
    (a disconnect), and whether it went past the limit."""
    body = b""
    rest: list[Message] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            rest.append(message)
            return body, rest, False
        body += message.get("body", b"")
        if limit is not None and len(body) > limit:
            return body, rest, True
        if not message.get("more_body", False):
            return body, rest, False


def replaying(body: bytes, rest: list[Message], receive: Receive) -> Receive:
    """A `receive` for the app: the body read already, whole in one message, then what came
    after it, then the connection's own."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        if rest:
            return rest.pop(0)
        return await receive()

    return replay
