"""The client stays small and self-contained: what a page loads first is at most 50 KB gzipped,
nothing is fetched from elsewhere at run time (no CDN, no web fonts, no images from the net)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
LIMIT = 50 * 1024


def static_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def catalogue_sizes() -> dict[str, int]:
    """Each language's catalogue as the browser gets it (`/i18n/<lang>.json`: without the
    server's own texts), gzipped; a page loads one, its player's."""
    from app.i18n import LANGS
    from app.server.pages import client_catalogue

    return {lang: len(gzip.compress(client_catalogue(lang) or b"", compresslevel=9)) for lang in LANGS}


STATIC_IMPORT = re.compile(r"""^import[^'"]*["']\./([\w.]+\.js)["']""", re.M)
LAZY_IMPORT = re.compile(r"""\bimport\(\s*["']\./([\w.]+\.js)["']\s*\)(?!\.)""")  # not a JSDoc type


def _closure(start: set[str]) -> set[str]:
    """`start` and every module its files import statically, transitively."""
    names = set(start)
    todo = [n for n in names if n.endswith(".js")]
    while todo:
        text = (STATIC / todo.pop()).read_text(encoding="utf-8")
        for dep in STATIC_IMPORT.findall(text):
            if dep not in names:
                names.add(dep)
                todo.append(dep)
    return names


def loaded_files() -> set[str]:
    """What a page loads first: index.html, what it links, and every module main.js imports
    statically (modules imported with `import()` load only when their page is visited)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return _closure({"index.html", *re.findall(r'(?:href|src)="/([\w.]+\.(?:js|css))"', html)})


def lazy_files(first: set[str]) -> set[str]:
    """Modules the first load imports with `import()`, and what they import, not loaded first."""
    lazy: set[str] = set()
    for name in sorted(first | {"main.js"}):
        if name.endswith(".js"):
            lazy |= set(LAZY_IMPORT.findall((STATIC / name).read_text(encoding="utf-8")))
    return _closure(lazy) - first


def test_what_a_page_loads_first_is_at_most_50_kb_gzipped() -> None:
    """Everything a page loads first, gzipped file by file (as the server sends it); the pages
    of accounts, the leaderboard, profiles, history and replays load when visited. types.js holds
    JSDoc types only: nothing loads it (modules name it in type comments), so it is not sent."""
    files = static_files()
    loaded = loaded_files()
    lazy = lazy_files(loaded)
    assert {"index.html", "main.js", "table.js", "style.css"} <= loaded
    assert {"account.js", "replay.js"} <= lazy, "the account and replay pages load when visited"
    catalogues = {p.name for p in files if p.parent.name == "i18n"}
    assert {p.name for p in files} - loaded - lazy - catalogues == {"types.js"}, "every other file is loaded"
    assert "i18n.js" in loaded
    sizes = {p.name: len(gzip.compress(p.read_bytes(), compresslevel=9)) for p in files if p.name in loaded}
    later = sum(len(gzip.compress((STATIC / n).read_bytes(), compresslevel=9)) for n in lazy)
    languages = catalogue_sizes()
    sizes["i18n/<lang>.json"] = max(languages.values())  # only the player's language is loaded
    total = sum(sizes.values())
    print(f"static/: {len(files)} files, {len(sizes)} loaded first ({total} bytes gzipped, the largest "
          f"catalogue of {languages}), {len(lazy)} when visited ({later} bytes)")
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


CLIENT_LINES = 350


def test_no_client_module_is_over_350_lines() -> None:
    """Small modules, one concept each (docs/client.md). types.js is exempt: it is generated from
    the wire schemas and holds JSDoc types only (nothing runs)."""
    long = {p.name: n for p in STATIC.glob("*.js") if p.name != "types.js"
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > CLIENT_LINES}
    assert not long, f"client modules over {CLIENT_LINES} lines: {long}"
