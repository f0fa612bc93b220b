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


def test_the_whole_client_is_at_most_50_kb_gzipped() -> None:
    files = static_files()
    assert {"index.html", "main.js", "table.js", "style.css"} <= {p.name for p in files}
    sizes = {p.name: len(gzip.compress(p.read_bytes(), compresslevel=9)) for p in files}
    total = sum(sizes.values())
    print(f"static/: {len(files)} files, {sum(p.stat().st_size for p in files)} bytes, {total} bytes gzipped")
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
