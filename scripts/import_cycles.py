#!/usr/bin/env python3
"""List import cycles among the modules of app/, counting imports under TYPE_CHECKING and inside
functions (a cycle the interpreter never sees is still one in the design).
Usage: python scripts/import_cycles.py [repo root]   (exit 1 when a cycle exists; scripts/test.sh runs it)"""
import ast
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
app = root / "app"


def modname(p: Path) -> str:
    parts = list(p.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


mods = {modname(p): p for p in app.rglob("*.py")}
graph: dict[str, set[str]] = {m: set() for m in mods}
for m, p in mods.items():
    pkg = m if p.name == "__init__.py" else m.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(p.read_text())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            # a package importing its own submodules (re-exports) is not a cycle of design
            if t in mods and t != m and not t.startswith(m + "."):
                graph[m].add(t)
cycles: set[tuple[str, ...]] = set()
state: dict[str, int] = {}
stack: list[str] = []


def visit(u: str) -> None:
    state[u] = 1
    stack.append(u)
    for v in sorted(graph[u]):
        if state.get(v) == 1:
            cycles.add(tuple(stack[stack.index(v):]))
        elif not state.get(v):
            visit(v)
    stack.pop()
    state[u] = 2


sys.setrecursionlimit(10000)
for m in sorted(graph):
    if not state.get(m):
        visit(m)
for c in sorted(cycles):
    print("import cycle: " + " -> ".join(c + (c[0],)))
sys.exit(1 if cycles else 0)
