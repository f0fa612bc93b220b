"""`/metrics` (Prometheus text format) and what the socket layer counts: open sockets, move
latency (received -> committed -> sent to the mover), errors sent by protocol code, and the
event loop's lag (a probe that sleeps 10 ms and records how late it wakes)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import ipaddress
import time
from typing import Any

from fastapi import APIRouter, Request, Response, status
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

from app.platform.metrics import LATENCY_BUCKETS
from app.web.http.refused import Refused
from app.web.http.services import services

router = APIRouter(tags=["meta"])

SOCKETS = Gauge("spite_sockets", "Room sockets open on this instance")
MOVE_LATENCY = Histogram(
    "spite_move_latency_seconds",
    "From a move's arrival to its commit (stage=committed) and to its state leaving for the mover (stage=sent)",
    ["stage"], buckets=LATENCY_BUCKETS)
SENT, COMMITTED = MOVE_LATENCY.labels("sent"), MOVE_LATENCY.labels("committed")
ERRORS = Counter("spite_errors", "Errors sent to sockets, by protocol error code", ["code"])
LOOP_LAG = Histogram("spite_event_loop_lag_seconds", "How late a 10 ms sleep of the event loop wakes up",
                     buckets=(0.0005, 0.001, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.02,
                              0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0))
GC_PAUSE = Histogram("spite_gc_pause_seconds", "Pauses of Python's garbage collector, by generation",
                     ["generation"], buckets=LATENCY_BUCKETS)
PROBE_SECONDS = 0.01
_gc_started: list[float] = [0.0]


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    else:
        GC_PAUSE.labels(str(info.get("generation", "?"))).observe(time.perf_counter() - _gc_started[0])


def watch_gc() -> None:
    """Time every garbage collection (once per process)."""
    if _on_gc not in gc.callbacks:
        gc.callbacks.append(_on_gc)


@router.get("/metrics", include_in_schema=False, response_class=Response)
async def metrics(request: Request) -> Response:
    """Every metric of this process, in Prometheus text format."""
    settings = services(request.app).settings
    if not settings.metrics:
        raise Refused(status.HTTP_404_NOT_FOUND, "metrics are turned off (SPITE_METRICS)", reason="metrics_off")
    if settings.metrics_token is not None:
        given = request.headers.get("authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {settings.metrics_token}".encode()):
            raise Refused(status.HTTP_401_UNAUTHORIZED, "metrics need the token (SPITE_METRICS_TOKEN)",
                          reason="metrics_token", headers={"WWW-Authenticate": "Bearer"})
    elif not _on_this_machine(request):
        raise Refused(status.HTTP_403_FORBIDDEN, "metrics are served to this machine only; set "
                      "SPITE_METRICS_TOKEN to scrape from elsewhere", reason="metrics_local")
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


def _on_this_machine(request: Request) -> bool:
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def probe_loop_lag() -> None:
    """Forever: sleep 10 ms and record how much later than that the loop woke us."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(PROBE_SECONDS)
        LOOP_LAG.observe(max(0.0, time.perf_counter() - start - PROBE_SECONDS))


def start_probe() -> asyncio.Task[None]:
    task = asyncio.get_running_loop().create_task(probe_loop_lag())
    task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return task


async def stop_probe(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def tune_gc(threshold: tuple[int, int, int] | None, full_seconds: float,
            freeze_seconds: float = 0.0) -> asyncio.Task[None] | None:
    """Fewer, cheaper collections. With thousands of sockets the heap holds a million objects,
    and Python's default thresholds promote short-lived objects until whole-heap collections
    pause the loop for hundreds of milliseconds every few seconds (docs/performance.md).
    What exists after startup is frozen (never scanned again); the young generations get
    larger thresholds; the whole heap is collected on a schedule, every `full_seconds`.

    Every `freeze_seconds` the young generation is collected (it holds only what was made since:
    a few thousand objects, a millisecond or two) and what survived is frozen too (`gc.freeze()`
    only moves lists). Otherwise the young generation holds every room's current table (at 1,000
    rooms ~130,000 objects, all alive), and each young collection walked them all: 50–100 ms
    pauses every few seconds, and a 0.5 s pause when they were all promoted at once
    (docs/performance.md, "Garbage"). Frozen objects are still freed by reference counting; a
    reference cycle among them waits for the scheduled collection, which unfreezes the heap
    first."""
    if not threshold:
        return None
    gc.collect()
    gc.freeze()
    gc.set_threshold(*threshold)
    if not full_seconds and not freeze_seconds:
        return None

    async def collect() -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(freeze_seconds or full_seconds)
            if full_seconds and time.monotonic() - last >= full_seconds:
                last = time.monotonic()
                if freeze_seconds:
                    gc.unfreeze()  # the scheduled collection sees every object, cycles among the frozen too
                gc.collect()
            if freeze_seconds:
                gc.collect(0)  # what died young in a cycle (a closed handshake's parser) is freed, not frozen
                gc.freeze()

    return asyncio.get_running_loop().create_task(collect())
