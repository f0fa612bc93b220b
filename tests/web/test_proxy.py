"""Behind a proxy: the app believes X-Forwarded-For only from the proxies in
SPITE_TRUSTED_PROXIES and takes the rightmost entry that is not one of them, and the shipped
nginx config sets the header instead of appending to the client's. Tested end to end with
Debian's nginx running deploy/nginx.conf in front of the app as the Dockerfile starts it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from app.web.app import create_app
from tests.children import die_with_parent
from tests.conftest import SQLITE_ONLY

from .helpers import ROOT, Person, Sock, free_socket, make_settings, new_room


def _port() -> int:
    s = free_socket()
    port: int = s.getsockname()[1]
    s.close()
    return port


def _wait_for(url: str, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None and time.monotonic() < deadline, f"{what} did not start"
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)


def _image_command(port: int) -> list[str]:
    """The Dockerfile's CMD, on 127.0.0.1:`port`."""
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    args: list[str] = json.loads(cmd[4:])
    assert args[:3] == ["python", "-m", "app.serve"], args
    swap = {"0.0.0.0": "127.0.0.1", "8000": str(port)}
    return [sys.executable, *[swap.get(a, a) for a in args[1:]]]


def _nginx_conf(folder: Path, listen: int, upstream: int) -> Path:
    """deploy/nginx.conf as shipped, its upstreams and port pointed at this machine, in a
    main config of its own (pid, logs and temporary files in `folder`)."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site, upstreams = re.subn(r"server app\d:8000[^;]*;", f"server 127.0.0.1:{upstream};", site)
    site, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{listen};", site)
    assert upstreams >= 1 and listens == 1
    temp = "\n".join(f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                        "scgi"))
    user = "user root;\n" if os.getuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(f"{user}worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
                    f"daemon off;\nevents {{ worker_connections 256; }}\n"
                    f"http {{\naccess_log off;\n{temp}\n{site}\n}}\n")
    return conf


@dataclass
class Stack:
    proxy: str  # nginx
    app: str  # the app itself


@pytest.fixture
def stack(db_url: str, tmp_path: Path) -> Iterator[Stack]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert os.path.exists(nginx), "nginx is missing: scripts/test.sh installs Debian's package"
    app_port, proxy_port = _port(), _port()
    env = {**os.environ, "SPITE_DATABASE_URL": db_url, "SPITE_TRUSTED_PROXIES": "127.0.0.1"}
    app = subprocess.Popen(_image_command(app_port), cwd=ROOT, env=env, preexec_fn=die_with_parent)
    proxy = None
    try:
        _wait_for(f"http://127.0.0.1:{app_port}/healthz", app, "the app")
        proxy = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(_nginx_conf(tmp_path, proxy_port, app_port))],
                                 preexec_fn=die_with_parent)
        _wait_for(f"http://127.0.0.1:{proxy_port}/healthz", proxy, "nginx")
        yield Stack(f"http://127.0.0.1:{proxy_port}", f"http://127.0.0.1:{app_port}")
    finally:
        for proc in (proxy, app):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(15)


def _from(address: str, base: str) -> httpx.AsyncClient:
    """A client whose connections come from `address` (any of 127.0.0.0/8 is this machine)."""
    return httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30)


@SQLITE_ONLY  # the database is not what this test is about (tests/conftest.py)
async def test_behind_nginx_the_client_is_the_address_nginx_saw(stack: Stack) -> None:
    """SPITE_LIMIT_NEW_PLAYERS is 10/minute per address: a client writing a new address into
    X-Forwarded-For each time still gets 10, while another real client is not held up."""
    async with _from("127.0.0.5", stack.proxy) as http:
        made = [await http.post("/api/players", json={"name": f"P{i}"},
                                headers={"X-Forwarded-For": f"198.51.100.{i}, 127.0.0.1"}) for i in range(12)]
        assert [r.status_code for r in made] == [201] * 10 + [429, 429]
        ann = Person(made[0].json()["id"], "P0", made[0].json()["token"])
        room = await new_room(http, ann)
    async with _from("127.0.0.6", stack.proxy) as other:
        assert (await other.post("/api/players", json={"name": "Q"})).status_code == 201
    sock = await Sock.open(stack.proxy, room["code"], ann)  # sockets pass through the proxy too
    assert sock.messages[0]["type"] == "welcome"
    await sock.close()


@SQLITE_ONLY  # the database is not what this test is about (tests/conftest.py)
async def test_an_untrusted_peer_cannot_pick_its_address(stack: Stack) -> None:
    """Straight to the app (not through the proxy), X-Forwarded-For is not read at all."""
    async with _from("127.0.0.7", stack.app) as http:
        made = [await http.post("/api/players", json={"name": f"P{i}"}, headers={"X-Forwarded-For": f"198.51.100.{i}"})
                for i in range(11)]
        assert [r.status_code for r in made] == [201] * 10 + [429]


@pytest.mark.parametrize(("trusted", "peer", "forwarded", "status"), [
    ("", "10.0.0.2", "127.0.0.1", 403),  # default: no proxy is trusted
    ("10.0.0.2", "10.0.0.2", "127.0.0.1", 200),  # the proxy saw a client on this machine
    ("10.0.0.2", "10.0.0.2", "127.0.0.1, 203.0.113.9", 403),  # the client wrote the left entry
    ("10.0.0.2", "203.0.113.9", "127.0.0.1", 403),  # not from the proxy: not read
    ("10.0.0.0/24", "10.0.0.2", "203.0.113.9, 127.0.0.1, 10.0.0.3", 200),  # two hops, both trusted
    ("10.0.0.0/24", "10.0.0.2", "127.0.0.1, 203.0.113.9, 10.0.0.3", 403),
    ("10.0.0.2", "10.0.0.2", "not-an-address", 403),  # nonsense: the proxy's own address
])
@SQLITE_ONLY  # the database is not what this test is about (tests/conftest.py)
async def test_metrics_see_the_rightmost_untrusted_address(db_url: str, trusted: str, peer: str, forwarded: str,
                                                          status: int) -> None:
    app = create_app(make_settings(db_url, trusted_proxies=trusted))
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=(peer, 5000)), base_url="http://testserver") as http:
        r = await http.get("/metrics", headers={"X-Forwarded-For": forwarded})
        assert r.status_code == status, r.text


def test_a_bad_trusted_proxy_setting_is_refused() -> None:
    from pydantic import ValidationError

    from app.platform.settings import Settings

    with pytest.raises(ValidationError, match="trusted_proxies"):
        Settings(trusted_proxies="10.0.0.1, nonsense")


def test_the_image_trusts_no_proxy_by_default() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "--proxy-headers" not in text and 'forwarded_allow_ips="*"' not in (ROOT / "app" / "serve.py").read_text()
    assert "$proxy_add_x_forwarded_for" not in (ROOT / "deploy" / "nginx.conf").read_text()
