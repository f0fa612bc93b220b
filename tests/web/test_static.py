"""The client's files over real HTTP: compressed, cacheable (ETag + revalidation), and the
whole module graph announced in index.html so the browser fetches it at once."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread

STATIC = Path(__file__).resolve().parents[2] / "static"


@SQLITE_ONLY  # the database is not what this test is about (tests/conftest.py)
async def test_static_files_are_compressed_and_revalidated(server: ServerThread, http: httpx.AsyncClient) -> None:
    for path in ("/main.js", "/style.css", "/", "/r/ABCDEFGHJK"):
        r = await http.get(path, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200, path
        assert r.headers["content-encoding"] == "gzip", path
        assert r.headers["cache-control"] == "no-cache", path
        etag = r.headers["etag"]
        assert "script-src 'self'" in r.headers["content-security-policy"]
        again = await http.get(path, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
        assert again.status_code == 304 and again.content == b"", path
    big = await http.get("/main.js", headers={"Accept-Encoding": "gzip"})
    assert int(big.headers["content-length"]) < len(big.content) / 2  # sent compressed (httpx decodes)


def test_index_preloads_every_module_main_imports() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/([a-z]+\.js)">', html))
    graph: set[str] = set()
    todo = ["main.js"]
    while todo:
        name = todo.pop()
        text = (STATIC / name).read_text(encoding="utf-8")
        for dep in re.findall(r"""^import[^'"]*["']\./([a-z]+\.js)["']""", text, re.M):
            if dep not in graph:
                graph.add(dep)
                todo.append(dep)
    assert graph and graph == preloaded



@SQLITE_ONLY  # the database is not what this test is about (tests/conftest.py)
@pytest.mark.parametrize(("path", "page"), [("/", "home.js"), ("/r/ABCDEFGHJK", "room.js")])
async def test_a_landing_page_preloads_its_own_modules(server: ServerThread, http: httpx.AsyncClient, path: str,
                                                       page: str) -> None:
    """main.js loads the home and room pages with `import()`; the server's index.html for each
    path preloads that page's modules beside the shell's (and no other page's), so they arrive
    at once rather than one import level after another."""
    html = (await http.get(path)).text
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/([a-z]+\.js)">', html))
    assert {page, "router.js"} <= preloaded
    # the name form: the home page's own; a room loads it only for a browser with no name yet
    assert ("nameform.js" in preloaded) == (page == "home.js")
    assert ("room.js" if page == "home.js" else "home.js") not in preloaded
    assert "dnd.js" not in preloaded  # the table's input loads beside the room's socket
