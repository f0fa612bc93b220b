"""The daily deal over REST: one seeded deal a UTC day for everyone, against a Hard
bot, once per player, device and client address, without hints; its commitment is public all
day, its seed once the day is over, and until then the deal's replays and reviews stay shut and
its seed is left out of every result.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.engine import sealed_result, seed_sealed
from app.platform.settings import Settings
from app.rooms.core.config import resolve
from app.rooms.core.errors import RoomError
from app.rooms.shell.arranged import Sitter, arrange
from app.social.core import daily_deal as rules
from app.store.repositories import daily as daily_store
from app.store.repositories import tournaments as tournament_store
from app.store.tables import DailyDeal, DailyEntry, utcnow
from app.web.http.addresses import client_key
from app.web.http.deps import AppSettings, CurrentPlayer, MaybePlayer, Rooms, Session
from app.web.http.refused import Refused
from app.web.http.services import services

router = APIRouter(prefix="/api/daily", tags=["daily deal"])


class DailyResult(BaseModel):
    finished: bool
    won: bool
    payoff_left: int
    moves: int


class DailyYou(BaseModel):
    room: str | None
    result: DailyResult | None


class Daily(BaseModel):
    date: str
    preset: str
    options: dict[str, Any]
    commitment: str
    seed: str | None
    you: DailyYou | None


class DailyRow(BaseModel):
    rank: int
    player_id: str
    name: str
    won: bool
    payoff_left: int
    moves: int


class DailyResults(BaseModel):
    date: str
    commitment: str
    seed: str | None
    items: list[DailyRow]


class DailyRoom(BaseModel):
    room: str


def today_of(settings: Settings) -> str:
    return rules.today(utcnow(), settings.daily_day)


async def todays_deal(session: Session, settings: Settings, day: str) -> DailyDeal:
    """The day's deal, made by the first instance that asks (everyone gets the same)."""
    found = await daily_store.deal_of(session, day)
    if found is not None:
        return found
    seed = rules.day_seed(day, secrets.token_hex(16))
    overrides = dict(settings.daily_options)
    resolve(settings.daily_preset, overrides, 2, None, min_turn=settings.min_turn_seconds,
            max_turn=settings.max_turn_seconds)  # a bad SPITE_DAILY_OPTIONS fails here, loudly, not in a room
    return await daily_store.ensure_deal(session, day, seed=seed, commitment=rules.day_commitment(seed),
                                         preset=settings.daily_preset, options=overrides)


def _options(deal: DailyDeal, settings: Settings) -> dict[str, Any]:
    config = resolve(deal.preset, deal.options, 2, None, min_turn=settings.min_turn_seconds,
                     max_turn=settings.max_turn_seconds)
    return config.options().to_json()


@router.get("", response_model=Daily)
async def today(session: Session, settings: AppSettings, viewer: MaybePlayer) -> dict[str, Any]:
    """Today's deal (UTC): its options and commitment, and the caller's room and result."""
    day = today_of(settings)
    deal = await todays_deal(session, settings, day)
    you = None
    if viewer is not None:
        entry = await daily_store.entry_of(session, day, viewer.id)
        mine = await daily_store.attempts(session, day, viewer.id)
        result = ({"finished": mine[0].finished, "won": mine[0].won, "payoff_left": mine[0].payoff_left,
                   "moves": mine[0].moves} if mine else None)
        you = {"room": entry.room_code if entry else None, "result": result}
    return {"date": day, "preset": deal.preset, "options": _options(deal, settings), "commitment": deal.commitment,
            "seed": rules.seed_shown(deal.seed, day), "you": you}


ELSEWHERE = {
    "address": "today's deal has been played from your network already: one try a day per address",
    "device": "today's deal has been played on this device already: one try a day per device",
}


def _claims(request: Request, response: Response, settings: Settings, day: str) -> list[daily_store.Claim]:
    """What this try counts against besides the player: the client's address (`client_key`: an
    IPv6 client's /64), `SPITE_DAILY_TRIES_PER_ADDRESS` tries a day, and the device (the `spite_device`
    cookie, made here if the request has none), one."""
    device = rules.device_id(request.cookies.get(rules.DEVICE_COOKIE))
    if device is None:
        device = secrets.token_urlsafe(16)
        response.set_cookie(rules.DEVICE_COOKIE, device, max_age=400 * 86400, path="/api/daily", httponly=True,
                            samesite="strict", secure=request.url.scheme == "https")
    address = client_key(request)  # the one key of every per-address limit (an IPv6 /64)
    return [daily_store.Claim("address", rules.claim_key(day, "address", address), settings.daily_tries_per_address),
            daily_store.Claim("device", rules.claim_key(day, "device", device), 1)]


@router.post("", status_code=status.HTTP_201_CREATED, response_model=DailyRoom)
async def play(me: CurrentPlayer, session: Session, settings: AppSettings, rooms: Rooms, request: Request,
               response: Response) -> dict[str, Any]:
    """A room where the caller plays today's deal against the bot: once a day per player,
    device and address (`409` after)."""
    day = today_of(settings)
    deal = await todays_deal(session, settings, day)
    try:
        await daily_store.enter(session, day, me.id, _claims(request, response, settings, day))
    except daily_store.AlreadyPlayed:
        entry = await daily_store.entry_of(session, day, me.id)
        raise Refused(status.HTTP_409_CONFLICT, "you have played today's deal already", reason="daily_played",
                      fields={"room": entry.room_code if entry else None}) from None
    except daily_store.Claimed as e:
        raise Refused(status.HTTP_409_CONFLICT, ELSEWHERE[e.kind], reason=f"daily_{e.kind}",
                      fields={"room": None}) from None
    try:
        code, match_id = await arrange(rooms, me, [Sitter(player_id=me.id, name=me.name),
                                                   Sitter(bot=settings.daily_bot_level)],
                                       preset=deal.preset, options=deal.options, seed=deal.seed, hints=False)
    except RoomError as e:
        await daily_store.forget(session, day, me.id)  # no room was made: the attempt is not spent
        raise Refused(status.HTTP_429_TOO_MANY_REQUESTS if e.code == "rate_limited" else 409, e.message,
                      reason=e.reason, **e.params) from e
    await daily_store.set_room(session, day, me.id, code, match_id)
    return {"room": code}


@router.get("/{day}/results", response_model=DailyResults)
async def results(day: str, session: Session, settings: AppSettings) -> dict[str, Any]:
    """The day's finished attempts, best first (a win, then fewer pay-off cards left, then
    fewer moves); the seed once the day is over."""
    if not rules.valid_day(day):
        raise Refused(status.HTTP_422_UNPROCESSABLE_CONTENT, "a day is written YYYY-MM-DD", reason="day_format")
    deal = await daily_store.deal_of(session, day)
    if deal is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "there was no daily deal that day", reason="no_daily")
    ranked = rules.ranked(await daily_store.attempts(session, day))
    return {"date": day, "commitment": deal.commitment, "seed": rules.seed_shown(deal.seed, today_of(settings)),
            "items": [{"rank": i + 1, "player_id": a.player_id, "name": a.name, "won": a.won,
                       "payoff_left": a.payoff_left, "moves": a.moves} for i, a in enumerate(ranked)]}


# Sealing: what the match pages may show of a daily deal's match while its day lasts.
async def sealed_day(request: Request, match_id: str, session: AsyncSession | None = None) -> str | None:
    """The day of a daily deal's match whose day is not over yet, else None (`session`: the
    request's own, if it holds one: SQLite's pool has a single connection)."""
    query = select(DailyEntry.day).where(DailyEntry.match_id == match_id)
    if session is not None:
        day = (await session.execute(query)).scalar_one_or_none()
    else:
        async with services(request.app).sessions() as s:
            day = (await s.execute(query)).scalar_one_or_none()
    return day if day is not None and day >= today_of(services(request.app).settings) else None


async def refuse_sealed(request: Request, match_id: str, session: AsyncSession | None = None) -> None:
    """`403` `daily_sealed` for what would show the cards of a daily deal's match while its day
    lasts (its replay, its review): the one answer every such read path gives. The same for a
    table of a duplicate tournament round still being played (`403` `tournament_sealed`): the
    other tables play the same deals."""
    day = await sealed_day(request, match_id, session)
    if day is not None:
        raise Refused(status.HTTP_403_FORBIDDEN, f"this is the daily deal of {day}: its replay opens when "
                      "that day is over (UTC), so nobody can learn the deal before everyone has played",
                      reason="daily_sealed", day=day)
    if session is not None:
        playing = await tournament_store.sealed_round(session, match_id)
    else:
        async with services(request.app).sessions() as s:
            playing = await tournament_store.sealed_round(s, match_id)
    if playing is not None:
        raise Refused(status.HTTP_403_FORBIDDEN, f"round {playing[1]} of this duplicate tournament is still being "
                      "played at other tables with the same deals: this match opens when the round is over",
                      reason="tournament_sealed", round=playing[1])


def seal_detail(found: dict[str, Any], today: str) -> dict[str, Any]:
    """A match's detail without a daily deal's seed while its day lasts."""
    hands = []
    for hand in found.get("hands", []):
        if seed_sealed(hand.get("seed"), today):
            hand = {**hand, "seed": None, "result": sealed_result(hand.get("result"), today)}
        hands.append(hand)
    return {**found, "hands": hands}
