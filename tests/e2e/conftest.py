"""Browser tests: a real uvicorn server (a SQLite file at the latest schema, seeded rooms on), one
per test module unless the module needs other settings, and Debian's Chromium driven by
Playwright. Every page a test opens is watched for console errors and uncaught exceptions; any
one fails the test. Screenshots go to test-artifacts/screenshots/ (not under CI, where nobody
looks at them: SPITE_E2E_SCREENSHOTS=1 keeps them there too, =0 skips them anywhere)."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.children import listening_socket, spawn_uvicorn
from tests.conftest import fresh_database_url
from tests.web.helpers import CROWD_ENV

try:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    pytest.skip("playwright is not installed", allow_module_level=True)

# An assertion waits for what it expects as long as an action may (the contexts' 10 s below),
# not Playwright's 5 s: the limit only ends a test that would hang, and a loaded machine (every
# core busy with a worker, its server and its browser) can take longer than 5 s to draw a page.
expect.set_options(timeout=10_000)

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("SPITE_E2E_CHROMIUM", "/usr/bin/chromium")
APP = os.environ.get("SPITE_E2E_APP", "app.web.app:app")  # the ASGI app under test
# How long a server may take to answer /healthz (a loaded machine imports slowly).
START_SECONDS = float(os.environ.get("SPITE_E2E_START_SECONDS", "90"))
# Screenshots are for a person to look at; a CI machine's files are not looked at, and drawing
# a full page to a PNG costs the browser tests about a twentieth of their time.
SCREENSHOTS = os.environ.get("SPITE_E2E_SCREENSHOTS", "0" if os.environ.get("CI") else "1") == "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running uvicorn process serving the whole app, on a socket bound here."""

    url: str
    port: int
    db: Path
    env: dict[str, str]
    sock: socket.socket
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    def start(self) -> None:
        assert self.log is not None
        with self.log.open("ab") as out:
            self.proc = spawn_uvicorn(APP, self.sock, env=self.env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited:\n" + self.log.read_text()[-3000:])
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not answer /healthz:\n" + self.log.read_text()[-3000:])

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@contextlib.contextmanager
def running_server(tmp_path: Path, **settings: str) -> Iterator[Server]:
    """A fresh server and database (at the latest schema) in `tmp_path`, with extra `SPITE_*` settings."""
    sock = listening_socket()
    port = sock.getsockname()[1]
    url = fresh_database_url("sqlite", str(tmp_path))
    db = Path(url.removeprefix("sqlite:///"))
    env = {**os.environ, "SPITE_DATABASE_URL": url, "SPITE_SEEDED_ROOMS": "true",
           "SPITE_BOT_DELAY": "0", "SPITE_PUBLIC_URL": f"http://127.0.0.1:{port}", **CROWD_ENV, **settings}
    env.pop("SPITE_REDIS_URL", None)
    srv = Server(url=f"http://127.0.0.1:{port}", port=port, db=db, env=env, sock=sock, log=tmp_path / "server.log")
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()
        sock.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server and database for the tests of a module: each test makes its own players and
    rooms. A module whose tests need other settings defines its own `server`."""
    with running_server(tmp_path_factory.mktemp("server")) as srv:
        yield srv


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One Chromium for the browser tests. Package scope: Playwright's sync API runs an event
    loop in the main thread while it is open, so it must be closed before async tests run."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM,
                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield b
        b.close()


# Requests a page makes whose 404 is an answer: a replay asks for its match's review (404 until
# someone asked), the Your games page asks for the email address (404 when the server sends no mail).
BY_CONTRACT_404 = ("/review", "/api/players/me/email")
# A daily deal's replay is 403 `daily_sealed` while its day lasts: the replay page says when it opens.
BY_CONTRACT_403 = re.compile(r"/api/matches/[^/]+/replay(\?at=\d+)?$")


@dataclass
class Watch:
    """Console errors and uncaught exceptions of every page a test opened."""

    errors: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)

    def page(self, page: Page, who: str) -> Page:
        def on_console(msg: ConsoleMessage) -> None:
            if msg.type != "error" or any(a in msg.text for a in self.allowed):
                return
            if "status of 404" in msg.text and msg.location.get("url", "").endswith(BY_CONTRACT_404):
                return  # 404 by contract (docs/protocol.md), not a fault: see BY_CONTRACT_404
            if "status of 403" in msg.text and BY_CONTRACT_403.search(msg.location.get("url", "")):
                return  # 403 by contract: see BY_CONTRACT_403
            self.errors.append(f"{who}: console: {msg.text} ({msg.location.get('url', '')})")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"{who}: pageerror: {exc}"))
        return page


PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2,
                         "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1440, "height": 900}}


class PageOpener:
    """open_page(who, phone=False, **context_options) -> a page in a fresh browser context (its
    own localStorage), watched for script errors."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.watch = Watch()
        self.contexts: list[BrowserContext] = []

    def __call__(self, who: str, phone: bool = False, **kw: Any) -> Page:
        # Playwright's wait_for_function evaluates its predicate with eval(), which the site's
        # Content-Security-Policy forbids; test_csp.py plays with the policy in force.
        kw.setdefault("bypass_csp", True)
        ctx = self.browser.new_context(**{**(PHONE if phone else DESKTOP), **kw})
        ctx.set_default_timeout(10_000)
        self.contexts.append(ctx)
        return self.watch.page(ctx.new_page(), who)

    def close_pages(self) -> None:
        """Close every page now. A test that starts a server of its own calls it before that
        server stops: a page left open would see its sockets cut and log the refused reconnect
        as a console error, or not, as the timing falls."""
        for ctx in self.contexts:
            for page in ctx.pages:
                page.close()


@pytest.fixture
def open_page(browser: Browser) -> Iterator[PageOpener]:
    """Opens pages for a test; at teardown, asserts that no page logged a console error or threw."""
    opener = PageOpener(browser)
    yield opener
    for ctx in opener.contexts:
        ctx.close()
    assert not opener.watch.errors, "script errors in the browser:\n" + "\n".join(opener.watch.errors)


def shot(page: Page, name: str) -> None:
    """Keep a screenshot as a test artifact (when SCREENSHOTS says so; the wait for animations
    to finish happens either way, so a test runs the same with and without)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Wait for running animations to finish. One evaluate call, no polling: Playwright polls a
    # string predicate with eval inside the page, which the client's CSP (no unsafe-eval) refuses.
    page.evaluate("""() => Promise.race([
        Promise.all(document.getAnimations().map(a => a.finished.catch(() => null))),
        new Promise(done => setTimeout(done, 5000)),
    ])""")
    if SCREENSHOTS:
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
