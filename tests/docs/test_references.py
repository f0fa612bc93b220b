"""The docs cannot drift from the code: every backticked reference in docs/*.md and in the
module docstrings of app/, bench/ and scripts/ names something that exists.

A reference is a backticked path (`app/rooms/shell/fanout.py`, `static/*.js`, `main.js`) or dotted
name (`fanout.push_states`, `app.rooms.core.messages.RoomInfo`, `Executor.carry_out`,
`steps.MoveStep.to_json()`). A path must match a file or folder of the repository (from its root,
from the citing file's folder, or, for a bare file name, anywhere in it). A dotted name is
resolved from its first part: `app` (a module path), a module's short name (`fanout`, any
module of that name; a class or function must be defined there, not imported), a class of app/
(`Room.connected_flags`: a method, a class attribute, a field, or an attribute its methods set on
`self`), a table (`matches.v`: a column), a builtin or an importable module (`time.monotonic`);
`*` matches any run of letters. Host names (`web.push.apple.com`) are not references.
A dotted name rooted at a wire object (`state.clock`, `turn_info.passes`) is a JSON path: its
last part must be a field of static/types.js or of a request or response model of app/web/.
A dotted name may also be a key of the language catalogues (`hint.helps_next`, `rank.*`: a key
of static/i18n/en.json). Anything else with a dot must be listed in NOT_CODE, with why.
"""

from __future__ import annotations

import ast
import builtins
import fnmatch
import importlib
import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOKEN = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_*][\w*]*)+")
PATHLIKE = re.compile(r"[\w.*/-]+")
FILE_EXT = re.compile(r"\.(py|js|md|toml|ya?ml|sh|css|html|json|txt|ini|conf|mako|lock)$")
# Roots of JSON paths into the wire's objects (docs/protocol.md).
WIRE_ROOTS = {"state", "welcome", "view", "turn_info", "result", "move", "error", "room", "msg", "event",
              "options", "you", "player", "clock", "next_hand", "awards", "rating", "hello", "chat", "keys"}
HOST = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|dev|app|test|example)")
# Dotted text that names no Python code, and why.
NOT_CODE: dict[str, str] = {
    "console.warn": "the browser's console",
    "crypto.subtle": "the browser's Web Crypto",
    "event.target": "a DOM event",
    "spite.sound": "a localStorage key of the client",
    "120/minute": "a rate in the `limits` library's notation, not a path",
    "Intl.PluralRules": "the browser's Intl API",
    "Intl.ListFormat": "the browser's Intl API",
    "Intl.DisplayNames": "the browser's Intl API",
    "navigator.languages": "the browser's language list",
    "spite.lang": "a localStorage key of the client",
    "spite.announced": "a localStorage key of the client",
    "spite.closed": "a localStorage key of the client",
}
CATALOGUE = ROOT / "static" / "i18n" / "en.json"


@cache
def _catalogue_keys() -> frozenset[str]:
    import json

    return frozenset(key.split("#", 1)[0] for key in json.loads(CATALOGUE.read_text(encoding="utf-8")))


def resolves_catalogue_key(ref: str) -> bool:
    """A key of the language catalogues (`hint.helps_next`) or a family of keys (`rank.*`)."""
    return any(fnmatch.fnmatchcase(key, ref) for key in _catalogue_keys())
# Paths that exist only once made (git-ignored or written by a run).
MADE = {"scripts/jscheck/node_modules", "test-artifacts/screenshots/", "test-artifacts/", "bench/value_data.jsonl"}
# The project's shared folder beside the repository (the design card, the rule sources).
SHARED = {"../shared/docs/architecture.md", "seeds/"}


def _files() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return out.split()


def sources() -> Iterator[tuple[str, str]]:
    """(where, text): each doc, and each module docstring."""
    for path in sorted((ROOT / "docs").glob("*.md")):
        yield str(path.relative_to(ROOT)), path.read_text()
    for top in ("app", "bench", "scripts"):
        for path in sorted((ROOT / top).rglob("*.py")):
            doc = ast.get_docstring(ast.parse(path.read_text()))
            if doc:
                yield str(path.relative_to(ROOT)), doc


@cache
def app_modules() -> dict[str, list[str]]:
    """Short module name -> the dotted names of app/'s modules of that name."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "app").rglob("*.py")):
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        if dotted.endswith(".__init__"):
            dotted = dotted[: -len(".__init__")]
        found.setdefault(dotted.rsplit(".", 1)[-1], []).append(dotted)
    return found


@cache
def app_classes() -> dict[str, list[tuple[str, set[str]]]]:
    """Class name -> (module, the attributes its methods set on `self`) for app/'s classes."""
    found: dict[str, list[tuple[str, set[str]]]] = {}
    for mods in app_modules().values():
        for mod in mods:
            path = ROOT / Path(*mod.split("."))
            path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef):
                    selfs = {t.attr for n in ast.walk(node) for t in _targets(n)
                             if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
                    found.setdefault(node.name, []).append((mod, selfs))
    return found


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return [e for t in node.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        return [node.target]
    return []


@cache
def wire_fields() -> set[str]:
    """Every word of static/types.js, and every field of the server's request and response models."""
    from pydantic import BaseModel
    from typing_extensions import is_typeddict

    fields = set(re.findall(r"\w+", (ROOT / "static" / "types.js").read_text()))
    for dotted in (m for mods in app_modules().values() for m in mods if m.startswith("app.web.")):
        for value in vars(importlib.import_module(dotted)).values():
            if isinstance(value, type) and issubclass(value, BaseModel):
                fields |= set(value.model_fields)
            elif is_typeddict(value):
                fields |= set(value.__annotations__)
    return fields


@cache
def table_columns() -> dict[str, set[str]]:
    """Each table's columns (`matches.v` names a column of the `matches` table)."""
    from app.store.tables import Base

    return {name: set(table.columns.keys()) for name, table in Base.metadata.tables.items()}


def _names(obj: Any, selfs: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
    names = set(dir(obj)) | set(selfs)
    for klass in getattr(obj, "__mro__", ()):
        names |= set(getattr(klass, "__annotations__", {}))
        names |= set(getattr(klass, "__dataclass_fields__", {}))
    return names


def _defined_here(module: ModuleType, name: str) -> bool:
    """A class or function a plain module names is one it defines (a package may re-export)."""
    value = getattr(module, name, None)
    if hasattr(module, "__path__") or not isinstance(value, (type, FunctionType)):
        return True
    return value.__module__ == module.__name__


def _walk(obj: Any, parts: list[str], selfs: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    for i, part in enumerate(parts):
        names = _names(obj, selfs if i == 0 else set())
        hits = sorted(n for n in names if fnmatch.fnmatchcase(n, part)
                      and (not isinstance(obj, ModuleType) or _defined_here(obj, n)))
        if not hits and isinstance(obj, ModuleType) and hasattr(obj, "__path__"):  # a submodule not yet imported
            sub = _module(f"{obj.__name__}.{part}")
            if sub is not None:
                setattr(obj, part, sub)
                hits = [part]
        if not hits:
            return False
        if i == len(parts) - 1:
            return True
        nxt = getattr(obj, hits[0], None)
        if nxt is None:  # a field or an attribute set in __init__: nothing further to resolve
            return False
        obj = nxt
    return True


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def resolves_name(text: str) -> bool:
    parts = text.split(".")
    if parts[0] == "app":
        for cut in range(len(parts), 0, -1):
            mod = _module(".".join(parts[:cut]))
            if mod is not None:
                return _walk(mod, parts[cut:]) if parts[cut:] else True
        return False
    for dotted in app_modules().get(parts[0], []):
        mod = _module(dotted)
        if mod is not None and _walk(mod, parts[1:]):
            return True
    for mod_name, selfs in app_classes().get(parts[0], []):
        klass = getattr(_module(mod_name), parts[0], None)
        if klass is not None and _walk(klass, parts[1:], selfs):
            return True
    if len(parts) == 2 and parts[1] in table_columns().get(parts[0], ()):
        return True
    if parts[0] in WIRE_ROOTS:
        return parts[-1] in wire_fields()
    if parts[0] not in app_modules() and parts[0] not in app_classes():
        if hasattr(builtins, parts[0]):
            return _walk(getattr(builtins, parts[0]), parts[1:])
        mod = _module(parts[0])
        if mod is not None:
            return _walk(mod, parts[1:])
    return False


def resolves_path(text: str, where: str) -> bool:
    if text in MADE or text in SHARED:
        return True
    bases = [ROOT, (ROOT / where).parent]
    if any(list(base.glob(text.rstrip("/"))) for base in bases):
        return True
    if "/" not in text:
        return any(fnmatch.fnmatchcase(Path(f).name, text) for f in _files())
    return False


def references() -> Iterator[tuple[str, str, str]]:
    """(where, kind, text) for each backticked reference."""
    for where, text in sources():
        for match in TOKEN.finditer(text):
            ref = match.group(1).strip()
            if ref.endswith("()"):
                ref = ref[:-2]
            if ref.startswith("/") or "{" in ref or "://" in ref or HOST.fullmatch(ref):
                continue  # a URL path, an absolute path on the machine, a template, a host name
            if PATHLIKE.fullmatch(ref) and ("/" in ref or FILE_EXT.search(ref)):
                yield where, "path", ref
            elif DOTTED.fullmatch(ref):
                yield where, "name", ref


def test_there_are_references_to_check() -> None:
    kinds = [kind for _, kind, _ in references()]
    assert kinds.count("path") > 100 and kinds.count("name") > 100


def test_every_reference_resolves() -> None:
    broken = []
    for where, kind, ref in references():
        if ref in NOT_CODE:
            continue
        ok = resolves_path(ref, where) if kind == "path" else resolves_name(ref) or resolves_catalogue_key(ref)
        if not ok:
            broken.append(f"{where}: `{ref}`")
    assert broken == [], "stale references:\n" + "\n".join(sorted(set(broken)))


@pytest.mark.parametrize("ref", sorted(NOT_CODE))
def test_not_code_entries_are_still_cited(ref: str) -> None:
    assert any(r == ref for _, _, r in references()), f"{ref} is no longer cited: drop it from NOT_CODE"
