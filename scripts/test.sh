#!/usr/bin/env bash
# The whole test suite from a fresh machine: a venv, the dependencies, Debian's chromium for
# the browser tests and nginx for the proxy tests, then lint, types (mypy, and tsc over the browser client), the import
# contracts and every test.
# Extra arguments go to pytest (-n 0: one process).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium for the browser tests"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq chromium >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null; }
fi
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "installing Debian's nginx for the proxy tests (tests/web/test_proxy.py)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq nginx >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq nginx >/dev/null; }
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
# --no-compile: pip would byte-compile every installed file (a third of the install's time);
# Python compiles the modules the tests import as it imports them, and caches them.
.venv/bin/python -m pip install -q --no-compile --disable-pip-version-check -e '.[dev]'
.venv/bin/ruff check app tests bench migrations
# Three checks side by side (each uses one core), their output shown in turn:
# - mypy;
# - the layers' import rules (pyproject.toml, [tool.importlinter]; docs/architecture.md, "The
#   tree"): layers point down, cores do no I/O, the store knows no feature, no package imports
#   its siblings in a cycle;
# - the browser client's type check (docs/client.md): TypeScript as pinned by scripts/jscheck's
#   package-lock.json, installed there (git-ignored) when missing or older than the lock.
JSCHECK=scripts/jscheck
tsc_check() {
  if [ ! -x "$JSCHECK/node_modules/.bin/tsc" ] || [ "$JSCHECK/package-lock.json" -nt "$JSCHECK/node_modules/.package-lock.json" ]; then
    echo "installing TypeScript for the client's type check"
    (cd "$JSCHECK" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  "$JSCHECK/node_modules/.bin/tsc" -p "$JSCHECK"
}
OUT=$(mktemp -d)
.venv/bin/mypy >"$OUT/mypy" 2>&1 & MYPY=$!
.venv/bin/lint-imports --no-cache >"$OUT/imports" 2>&1 & IMPORTS=$!
tsc_check >"$OUT/tsc" 2>&1 & TSC=$!
FAILED=0
for check in MYPY IMPORTS TSC; do
  wait "${!check}" || FAILED=1
done
cat "$OUT/mypy" "$OUT/imports" "$OUT/tsc"
rm -rf "$OUT"
[ "$FAILED" = 0 ] || { echo "a check failed (above)"; exit 1; }
# Every core (pytest-xdist, SPITE_TEST_WORKERS to choose), a whole module to a worker: a module's
# tests share its fixtures (one browser-test server a module). docs/testing.md says how the suite
# stays fast and deterministic.
.venv/bin/python -m pytest -n "${SPITE_TEST_WORKERS:-auto}" --dist loadscope --no-loadscope-reorder "$@"
