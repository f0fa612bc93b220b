"""The client's pages: static/ at `/`, each room's invite path `/r/{code}` and each tournament's
`/t/{code}` (index.html).
`/` and `/r/{code}` are painted first in the language `Accept-Language` asks for (`<html
lang>`, varying by that header); `/i18n/<lang>.json` is the language's catalogue without the
texts only the server says (refusals, hints, option wording: the client gets those said).

Every file carries an ETag (Starlette's, from its size and time) and `Cache-Control: no-cache`:
a browser keeps its copy and revalidates it, so an unchanged file costs a `304` and a deploy is
seen at once (the client has no build step, so no hashed names). Compression is the app's
GZipMiddleware (app/web/app.py)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from html import escape
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Scope

from app.i18n import CATALOGUES, LANGS, pick, render
from app.web.http.refused import Refused

ROOT = Path(__file__).resolve().parents[3]  # the repository: app/web/routes/pages.py


def static_dir(configured: str | None) -> Path:
    return Path(configured) if configured else ROOT / "static"


CACHE_CONTROL = "no-cache"  # keep, but ask (If-None-Match) before each use
WORDS = re.compile(r'<[a-z]+ [^>]*data-i18n="([\w.]+)"[^>]*>')
SERVER_ONLY = ("reason.", "hint.", "option.", "choice.", "help.", "preset.", "preset_help.", "action.",
               "limit.", "invitation.",  # words inside refusals (`too_many`, `invitation_answered`)
               "push.", "email.",  # push and mail texts: the server's alone
               "lesson.")  # the lessons' texts: the lesson room says them, rendered (app/lessons/shell)
# The parts of the client's catalogue fetched apart from the first (`/i18n/<lang>.<part>.json`),
# by key prefix: "later", the words of what loads when visited (results, keys help, how to play,
# achievements, the account, friends, replay and review pages, the option form, push);
# "home", the home page's own and the lessons' (fetched beside the first part when the page is not a room).
PARTS = {
    "later": ("rs.", "ky.", "ach.", "hw.", "ml.resign", "acc.", "dy.", "fa.", "fd.", "iv.", "lv.", "op.", "pu.",
              "rp.", "rv.", "tn.",
              "ab."),  # the analysis board
    "home": ("hm.", "gm.", "pc.", "learn."),
}
FIRST = ("hm.intro", "hm.your_name", "hm.name", "hm.continue", "hm.type_name", "hm.account", "hm.leaderboard")


class CachedStatic(StaticFiles):
    """StaticFiles whose answers say how to cache them."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = CACHE_CONTROL
        return response


def _cached(body: bytes, media_type: str, request_headers: Headers, vary: str | None = None) -> Response:
    """`body` with an ETag of its bytes; a `304` when the browser holds it already."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL, **({"Vary": vary} if vary else {})}
    if request_headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


STATIC_IMPORT = re.compile(r"""^import[^'"]*["']\./([\w.]+\.js)["']""", re.M)


@functools.cache
def page_modules(folder: Path, page: str) -> tuple[str, ...]:
    """The page's module and every module it imports statically, transitively: what landing on
    that page loads first beside the shell (main.js loads each page with `import()`)."""
    seen: set[str] = set()
    todo = [page]
    while todo:
        name = todo.pop()
        if name not in seen and (folder / name).is_file():
            seen.add(name)
            todo += STATIC_IMPORT.findall((folder / name).read_text(encoding="utf-8"))
    return tuple(sorted(seen))


def _index(index: Path, request_headers: Headers, page: str) -> Response:
    """index.html in the language Accept-Language asks for (`<html lang>`), naming the
    languages there are catalogues for (`data-langs`, the client's picker), preloading the
    modules of `page` (home.js or room.js) beside the shell's, so they arrive at once rather than
    one import level after another."""
    lang = pick(accept_language=request_headers.get("accept-language"))
    html = index.read_text(encoding="utf-8")
    links = "".join(f'<link rel="modulepreload" href="/{name}">\n' for name in page_modules(index.parent, page)
                    if f'href="/{name}"' not in html)
    html = html.replace("</head>", links + "</head>", 1).replace(
        '<html lang="en">', f'<html lang="{lang}" data-langs="{" ".join(LANGS)}">', 1)
    # the shell's own words (data-i18n="key" on an empty element), said in that language
    html = WORDS.sub(lambda m: f"{m.group(0)}{escape(render(lang, m.group(1)))}", html)
    return _cached(html.encode(), "text/html; charset=utf-8", request_headers, vary="Accept-Language")


def part_of(key: str) -> str | None:
    """The part of the client's catalogue `key` is in: None for the first part (`FIRST` keys
    are there whatever their prefix: the name form and the page titles every page uses)."""
    if key.startswith(FIRST):
        return None
    return next((name for name, prefixes in PARTS.items() if key.startswith(prefixes)), None)


def client_catalogue(lang: str, part: str | None = None) -> bytes | None:
    """A part of the catalogue the browser loads: the first (None) or one of PARTS, never the
    server's own keys (their prefixes in SERVER_ONLY), compact JSON; None if there is no such."""
    found = CATALOGUES.get(lang)
    if found is None or (part is not None and part not in PARTS):
        return None
    texts = {k: v for k, v in found.texts.items() if not k.startswith(SERVER_ONLY) and part_of(k) == part}
    return json.dumps(texts, ensure_ascii=False, separators=(",", ":")).encode()


def mount_pages(app: FastAPI, folder: Path) -> None:
    """Serve `folder` at `/` (after every API route) and index.html at `/r/{code}` and `/t/{code}`."""
    index = folder / "index.html"

    @app.get("/r/{code}", include_in_schema=False, response_class=HTMLResponse)
    async def invite(code: str, request: Request) -> Response:
        if not index.is_file():
            raise Refused(404, "the client pages are not installed", reason="no_pages")
        return _index(index, request.headers, "room.js")

    @app.get("/t/{code}", include_in_schema=False, response_class=HTMLResponse)
    async def tournament_invite(code: str, request: Request) -> Response:
        if not index.is_file():
            raise Refused(404, "the client pages are not installed", reason="no_pages")
        return _index(index, request.headers, "tournament.js")

    @app.get("/", include_in_schema=False, response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        if not index.is_file():
            raise Refused(404, "the client pages are not installed", reason="no_pages")
        return _index(index, request.headers, "home.js")

    @app.get("/i18n/{lang}.json", include_in_schema=False, response_class=Response)
    async def catalogue(lang: str, request: Request) -> Response:
        code, _, part = lang.partition(".")
        body = client_catalogue(code, part or None)
        if body is None:
            raise Refused(404, "there is no catalogue for that language", reason="no_catalogue")
        return _cached(body, "application/json", request.headers)

    if folder.is_dir():
        app.mount("/", CachedStatic(directory=folder, html=True), name="static")
