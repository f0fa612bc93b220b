"""The client's pages: static/ at `/`, and each room's invite path `/r/{code}` (index.html).

Every file carries an ETag (Starlette's, from its size and time) and `Cache-Control: no-cache`:
a browser keeps its copy and revalidates it, so an unchanged file costs a `304` and a deploy is
seen at once (the client has no build step, so no hashed names). Compression is the app's
GZipMiddleware (app/main.py)."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Scope

ROOT = Path(__file__).resolve().parents[2]


def static_dir(configured: str | None) -> Path:
    return Path(configured) if configured else ROOT / "static"


CACHE_CONTROL = "no-cache"  # keep, but ask (If-None-Match) before each use


class CachedStatic(StaticFiles):
    """StaticFiles whose answers say how to cache them."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = CACHE_CONTROL
        return response


def _index(index: Path, request_headers: Headers) -> Response:
    """index.html at an invite path, with an ETag like the other files."""
    response = FileResponse(index, media_type="text/html", stat_result=os.stat(index))
    response.headers["Cache-Control"] = CACHE_CONTROL
    if request_headers.get("if-none-match") == response.headers.get("etag"):
        return Response(status_code=304, headers={"ETag": response.headers["etag"], "Cache-Control": CACHE_CONTROL})
    return response


def mount_pages(app: FastAPI, folder: Path) -> None:
    """Serve `folder` at `/` (after every API route) and index.html at `/r/{code}`."""
    index = folder / "index.html"

    @app.get("/r/{code}", include_in_schema=False, response_class=HTMLResponse)
    async def invite(code: str, request: Request) -> Response:
        if not index.is_file():
            raise HTTPException(404, "the client pages are not installed")
        return _index(index, request.headers)

    if folder.is_dir():
        app.mount("/", CachedStatic(directory=folder, html=True), name="static")
