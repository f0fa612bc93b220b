"""The client stays small and self-contained: at most 50 KB gzipped, nothing fetched from
elsewhere at run time (no CDN, no web fonts, no images from the net)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
LIMIT = 50 * 1024


def static_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def loaded_files() -> set[str]:
    """What a page loads: index.html, what it links, and every module main.js imports."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    names = {"index.html", *re.findall(r'(?:href|src)="/([\w.]+\.(?:js|css))"', html)}
    todo = [n for n in names if n.endswith(".js")]
    while todo:
        text = (STATIC / todo.pop()).read_text(encoding="utf-8")
        for dep in re.findall(r"""^import[^'"]*["']\./([\w.]+\.js)["']""", text, re.M):
            if dep not in names:
                names.add(dep)
                todo.append(dep)
    return names


def test_the_whole_client_is_at_most_50_kb_gzipped() -> None:
    """Everything a page loads, gzipped file by file (as the server sends it). types.js holds
    JSDoc types only: nothing loads it (modules name it in type comments), so it is not sent."""
    files = static_files()
    loaded = loaded_files()
    assert {"index.html", "main.js", "table.js", "style.css"} <= loaded
    assert {p.name for p in files} - loaded == {"types.js"}, "every other file is loaded by the page"
    sizes = {p.name: len(gzip.compress(p.read_bytes(), compresslevel=9)) for p in files if p.name in loaded}
    total = sum(sizes.values())
    print(f"static/: {len(files)} files, {len(sizes)} loaded, {total} bytes gzipped")
    assert total <= LIMIT, f"{total} bytes gzipped > {LIMIT}: {sizes}"


URL_IN_CODE = re.compile(r"""(?:src|href|import|from|url)\s*[=(]?\s*["']?(?:https?:)?//""", re.I)


def test_nothing_is_fetched_from_elsewhere() -> None:
    for p in static_files():
        text = p.read_text(encoding="utf-8")
        hits = [m.group(0) for m in URL_IN_CODE.finditer(text)]
        assert not hits, f"{p.name} refers to another site: {hits}"
        assert "@import" not in text or p.suffix != ".css", f"{p.name} imports a stylesheet"


def test_modules_import_only_local_files() -> None:
    for p in STATIC.glob("*.js"):
        for spec in re.findall(r"""^\s*import\s[^'"]*["']([^"']+)["']""", p.read_text(encoding="utf-8"), re.M):
            assert spec.startswith("./") and (STATIC / spec[2:]).is_file(), f"{p.name} imports {spec}"
