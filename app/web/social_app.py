"""Wiring of issue 28 into the app (friends, invitations, blocks, quick match, the daily deal,
the lobby socket): its routers, its rate limits, and the components it runs while the app
lives (each player's channel, the quick-match loop, the watch on blocks made elsewhere)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from limits import parse_many

from app.domain.reminder import YOUR_TURN, Reminder
from app.platform.bus import Subscription
from app.platform.settings import Settings
from app.rooms.shell.service import RoomService
from app.social.shell.hidden_chat import HiddenChat
from app.social.shell.player_channels import Channels
from app.social.shell.quick_match import QuickMatch
from app.web.routes import daily, invitations, quick, social
from app.web.sockets import lobby as lobby_socket


@dataclass
class Running:
    channels: Channels
    quick: QuickMatch
    watcher: asyncio.Task[None]
    blocks: Subscription


def install(app: FastAPI, settings: Settings) -> None:
    """Routers and rate limits (counted per player by the app's `Limiter`)."""
    app.state.hidden_chat = HiddenChat()
    limiter = app.state.limiter
    limiter.rules["invitations"] = parse_many(settings.limit_invitations)
    limiter.rules["social"] = parse_many(settings.limit_social)
    for router in (social.router, invitations.router, quick.router, daily.router, lobby_socket.router):
        app.include_router(router)


async def start(app: FastAPI, settings: Settings, service: RoomService, sessions: Any) -> Running:
    channels = Channels(service.bus, sessions, service.instance, ttl=settings.presence_ttl,
                        heartbeat=settings.heartbeat_seconds)
    channels.start()
    app.state.channels = channels
    matcher = QuickMatch(service, channels, sessions, settings)
    matcher.start()
    app.state.quick_match = matcher
    watcher = asyncio.get_running_loop().create_task(app.state.hidden_chat.watch(sessions, settings.heartbeat_seconds))
    blocks = await app.state.hidden_chat.listen(service.bus, sessions)

    async def your_turn(found: list[Reminder]) -> None:
        """The lobby socket hears of the turns the outbox is told of (`your_turn` only)."""
        for r in found:
            if r.kind == YOUR_TURN:
                await channels.tell(r.player_id, {"type": "your_turn", "room": r.room,
                                                  "deadline": r.deadline.isoformat() if r.deadline else None})

    service.reminding.listeners.append(your_turn)
    return Running(channels, matcher, watcher, blocks)


async def stop(running: Running) -> None:
    running.watcher.cancel()
    running.blocks.close()
    await running.quick.close()
    await running.channels.close()
