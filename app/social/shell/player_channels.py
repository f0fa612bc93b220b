"""Each player's own channel outside rooms (the lobby socket), on every instance.

`Channels.tell(player_id, message)` publishes on the bus channel `@<player_id>`; every
instance where that player has a lobby socket is subscribed to it and hands the message to
each of those sockets. Who is online is shared through the store (`lobby_presence`, with a
heartbeat, as room presence is). When a player's first lobby socket opens, or their last one
closes, their friends are told (`friend`); when the last one closes anywhere, their waiting
quick-match tickets are cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.platform.bus import Bus, Subscription
from app.social.core.lobby_messages import LobbyFriend, LobbyMessage, LobbyQuickMatch, to_json
from app.store.repositories import invites, social
from app.store.repositories import quick_tickets as quick_store

log = logging.getLogger(__name__)


class LobbyPeer(Protocol):
    """A lobby socket as the channels see it (the server implements it)."""

    player_id: str

    def send_json(self, message: dict[str, Any]) -> None:
        """A channel message's JSON form, as the bus carried it: checked against the lobby's
        messages before it is sent (an unknown one is dropped)."""


def channel_of(player_id: str) -> str:
    """The bus channel of a player ('@' never starts a room code)."""
    return f"@{player_id}"


class Channels:
    def __init__(self, bus: Bus, sessions: async_sessionmaker[AsyncSession], instance: str, *,
                 ttl: float, heartbeat: float) -> None:
        self.bus = bus
        self.sessions = sessions
        self.instance = instance
        self.ttl = ttl
        self.heartbeat = heartbeat
        self.peers: dict[str, set[LobbyPeer]] = {}
        self.subs: dict[str, Subscription] = {}
        self._beat: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._beat = asyncio.get_running_loop().create_task(self._heartbeat())

    async def close(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
        for sub in self.subs.values():
            sub.close()
        self.subs.clear()
        with contextlib.suppress(Exception):
            async with self.sessions() as s:
                await social.lobby_forget(s, self.instance)

    def online_here(self) -> list[str]:
        return list(self.peers)

    async def tell(self, player_id: str, message: LobbyMessage) -> None:
        """Send `message` to every lobby socket of `player_id`, on any instance (as its JSON)."""
        await self.bus.publish(channel_of(player_id), to_json(message))

    async def open(self, peer: LobbyPeer) -> None:
        """A lobby socket said hello: subscribe to its player's channel (before anything can be
        missed), count it online, and tell friends if it is the player's first."""
        pid = peer.player_id
        first = pid not in self.peers
        self.peers.setdefault(pid, set()).add(peer)
        if first:
            async def deliver(message: dict[str, Any]) -> None:
                await self._deliver(pid, message)

            self.subs[pid] = await self.bus.subscribe(channel_of(pid), deliver)
        async with self.sessions() as s:
            was_online = await social.lobby_online(s, pid, self.ttl)
            await social.lobby_add(s, pid, self.instance)
        if not was_online:
            await self._tell_friends(pid, True)

    async def close_peer(self, peer: LobbyPeer) -> None:
        """A lobby socket went: if it was the player's last anywhere, friends are told and the
        player's waiting quick-match tickets are cancelled."""
        pid = peer.player_id
        mine = self.peers.get(pid)
        if mine is None:
            return
        mine.discard(peer)
        if not mine:
            del self.peers[pid]
            sub = self.subs.pop(pid, None)
            if sub is not None:
                sub.close()
        try:
            async with self.sessions() as s:
                await social.lobby_drop(s, pid, self.instance)
                still = await social.lobby_online(s, pid, self.ttl)
                cancelled = [] if still else await quick_store.cancel_waiting(s, pid)
        except Exception:
            log.exception("could not record a lobby socket's end")
            return
        for ticket in cancelled:
            await self.tell(pid, LobbyQuickMatch(ticket=ticket, status="cancelled"))
        if not still:
            await self._tell_friends(pid, False)

    async def _deliver(self, player_id: str, message: dict[str, Any]) -> None:
        if message.get("kind") == "resync":  # the bus may have dropped messages: nothing to replay
            return
        for peer in list(self.peers.get(player_id, ())):
            peer.send_json(message)

    async def _tell_friends(self, player_id: str, online: bool) -> None:
        """Tell each friend; `room` is a room of the player's that this friend may join or watch."""
        try:
            async with self.sessions() as s:
                friends = await social.mutual_friends(s, player_id)
                rooms = (await social.online_rooms(s, [player_id], self.ttl)).get(player_id, []) if online else []
                shown = {f: sorted(await invites.open_rooms(s, f, rooms)) for f in friends}
        except Exception:
            log.exception("could not read friends")
            return
        for friend in friends:
            room = shown[friend][0] if shown[friend] else None
            await self.tell(friend, LobbyFriend(player_id=player_id, online=online, room=room))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                async with self.sessions() as s:
                    await social.lobby_heartbeat(s, self.instance, self.online_here())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lobby heartbeat failed")
