"""`Driving`, the lease keeper, on a fake lease store: a lease whose trust lapsed between two
renewals (a late renewal) re-arms its room's timer when the next renewal restores it — a timer
that stood down meanwhile would otherwise leave a bot's turn waiting for ever."""

from __future__ import annotations

import time

from app.rooms.shell.driving import Driving

from .fakes import MemoryStorage


async def test_a_renewal_after_the_trust_lapsed_re_arms_the_room() -> None:
    store = MemoryStorage()
    rearmed: list[str] = []

    async def adopt(code: str) -> None:
        pass

    driving = Driving(store, "me", 1.5, needs_driver=lambda code: True, reschedule=rearmed.append, adopt=adopt)
    driving.want("ROOM")
    await driving._acquire_wanted()
    assert driving.holds("ROOM") and rearmed == ["ROOM"]
    await driving._renew()  # renewed in time: nothing to re-arm
    assert rearmed == ["ROOM"]
    driving.held["ROOM"] = time.monotonic() - 0.1  # the last renewal came too late: trust lapsed
    assert not driving.holds("ROOM")
    await driving._renew()
    assert driving.holds("ROOM") and rearmed == ["ROOM", "ROOM"]
