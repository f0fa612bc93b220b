"""The client's pages: static/ at `/`, and each room's invite path `/r/{code}` (index.html)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

ROOT = Path(__file__).resolve().parents[2]


def static_dir(configured: str | None) -> Path:
    return Path(configured) if configured else ROOT / "static"


def mount_pages(app: FastAPI, folder: Path) -> None:
    """Serve `folder` at `/` (after every API route) and index.html at `/r/{code}`."""
    index = folder / "index.html"

    @app.get("/r/{code}", include_in_schema=False, response_class=HTMLResponse)
    async def invite(code: str) -> FileResponse:
        if not index.is_file():
            raise HTTPException(404, "the client pages are not installed")
        return FileResponse(index, media_type="text/html")

    if folder.is_dir():
        app.mount("/", StaticFiles(directory=folder, html=True), name="static")
