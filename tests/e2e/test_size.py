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


def catalogue_sizes(parts: frozenset[str] = frozenset()) -> dict[str, int]:
    """Each language's catalogue as the browser gets it (`/i18n/<lang>.json`: without the
    server's own texts, and the `parts` a page awaits, `/i18n/<lang>.<part>.json`), gzipped
    file by file; a page loads one language, its player's."""
    from app.i18n import LANGS
    from app.web.routes.pages import client_catalogue

    return {lang: sum(len(gzip.compress(client_catalogue(lang, part) or b"", compresslevel=9))
                      for part in (None, *sorted(parts))) for lang in LANGS}


AWAITED_PART = re.compile(r"""^await more\((?:\s*["'](\w+)["']\s*)?\)""", re.M)


def awaited_parts(modules: set[str]) -> frozenset[str]:
    """The parts of the catalogue `modules` await at their top level (`await more("home")`;
    `more()` is the later part): loaded before those modules draw, so counted with them."""
    return frozenset(name or "later" for m in modules if m.endswith(".js")
                     for name in AWAITED_PART.findall((STATIC / m).read_text(encoding="utf-8")))


STATIC_IMPORT = re.compile(r"""^import[^'"]*["']\./([\w.]+\.js)["']""", re.M)
# not a JSDoc type (`import("./types.js").Room`)
LAZY_IMPORT = re.compile(r"""\bimport\(\s*["']\./([\w.]+\.js)["']\s*\)(?!\.[A-Z])""")


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
    """What every page loads first (the shell): index.html, what it links, and every module
    main.js imports statically (modules imported with `import()` load when their page is visited)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return _closure({"index.html", *re.findall(r'(?:href|src)="/([\w.]+\.(?:js|css))"', html)})


# a stylesheet a module links when it loads (static/pages.js: the pages loaded when visited)
LINKED_CSS = re.compile(r"""["']/([\w.]+\.css)["']""")


def lazy_files(first: set[str]) -> set[str]:
    """Modules the first load imports with `import()`, and what they import (statically or with
    `import()` again) or link (a stylesheet), not loaded first."""
    lazy: set[str] = set()
    todo = sorted(first | {"main.js"})
    while todo:
        name = todo.pop()
        if name.endswith(".js"):
            for dep in _closure(set(LAZY_IMPORT.findall((STATIC / name).read_text(encoding="utf-8")))):
                if dep not in lazy and dep not in first:
                    lazy.add(dep)
                    todo.append(dep)
    for name in sorted(lazy):
        if name.endswith(".js"):
            lazy |= set(LINKED_CSS.findall((STATIC / name).read_text(encoding="utf-8"))) - first
    return lazy


def installed_files() -> set[str]:
    """What the browser installs rather than the page loads: the web app manifest index.html
    links, the icons it and the manifest name, and the service worker a module registers."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    names = set(re.findall(r'<link rel="(?:manifest|apple-touch-icon|icon)" href="/([\w.-]+)"', html))
    for name in list(names):
        if name.endswith(".webmanifest"):
            names |= set(re.findall(r'"src": "/([\w.-]+)"', (STATIC / name).read_text(encoding="utf-8")))
    for p in STATIC.glob("*.js"):
        names |= set(re.findall(r"""serviceWorker\.register\(["']/([\w.-]+\.js)["']""", p.read_text(encoding="utf-8")))
    return names


# The pages a visitor can land on, by the module main.js loads for them (`import()` in its route
# table): the home page and a room (an invite link).
LANDING = {"/": "home.js", "/r/{code}": "room.js"}


def page_files(module: str) -> set[str]:
    """What landing on a page loads first: the shell (index.html, what it links, what main.js
    imports statically) and the page's module with what it imports statically."""
    return loaded_files() | _closure({module})


def _gz(name: str) -> int:
    return len(gzip.compress((STATIC / name).read_bytes(), compresslevel=9))


def test_what_a_page_loads_first_is_at_most_50_kb_gzipped() -> None:
    """Everything a page a visitor lands on (home, or a room by its invite link) loads first,
    gzipped file by file (as the server sends it), with the largest catalogue (only the player's
    language is loaded) and the parts of it the page's modules await; every other page loads
    when visited. types.js holds JSDoc types only: nothing loads it (modules name it in type
    comments), so it is not sent."""
    files = static_files()
    shell = loaded_files()
    lazy = lazy_files(shell)
    assert {"index.html", "main.js", "i18n.js", "style.css"} <= shell
    assert set(LANDING.values()) | {"account.js", "replay.js", "table.js", "history.js", "pages.css"} <= lazy, \
        "pages load when visited"
    catalogues = {p.name for p in files if p.parent.name == "i18n"}
    installed = installed_files()
    assert {"sw.js", "manifest.webmanifest"} <= installed
    assert {p.name for p in files} - shell - lazy - catalogues - installed == {"types.js"}, \
        "every other file is loaded"
    over = {}
    for path, module in LANDING.items():
        first = page_files(module)
        sizes = {name: _gz(name) for name in first}
        languages = catalogue_sizes(awaited_parts(first))
        sizes["i18n/<lang>.json"] = max(languages.values())
        total = sum(sizes.values())
        print(f"{path}: {len(sizes)} files loaded first, {total} bytes gzipped (catalogues: {languages})")
        if total > LIMIT:
            over[path] = (total, sizes)
    assert not over, f"pages over {LIMIT} bytes gzipped: {over}"


URL_IN_CODE = re.compile(r"""(?:src|href|import|from|url)\s*[=(]?\s*["']?(?:https?:)?//""", re.I)


def test_nothing_is_fetched_from_elsewhere() -> None:
    for p in static_files():
        if p.suffix == ".png":
            continue  # an image: no addresses inside
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
