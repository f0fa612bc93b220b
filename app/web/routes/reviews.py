"""Match review over REST: ask for the review of a finished match, and read it.

- `POST /api/matches/{id}/review` (a player of that match): `202` with its status; made once, in
  the background (`app.platform.jobs`), asking again only reports it (a failed one is queued again).
- `GET /api/matches/{id}/review`: whoever may see the match's replay may read its review (it
  judges each seat only on what that seat could see, and the replay already shows every card);
  a daily deal's review is sealed all its day, as its replay (`daily.refuse_sealed`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Depends, Request, status
from pydantic import BaseModel, Field

from app.engine import replay_open
from app.store.repositories import matches as match_store
from app.store.repositories import reviews as review_store
from app.store.repositories.review_failures import failure
from app.store.repositories.review_failures import read as read_failure
from app.store.tables import Review, utcnow
from app.web.http.caller_lang import caller_lang
from app.web.http.deps import AppSettings, CurrentPlayer, Session, per_address
from app.web.http.language import refusal
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.routes import daily

router = APIRouter(prefix="/api/matches", tags=["reviews"])


class ReviewStatus(BaseModel):
    """Where a review stands: queued, running, done or failed (with `error`, in the reader's
    language, and its `reason` key and `params`)."""

    status: str
    progress: float = Field(ge=0, le=1)
    error: str | None = None
    reason: str | None = None
    params: dict[str, Any] | None = None


class ReviewDecision(BaseModel):
    """One decision of a person, judged from that seat's view (docs/protocol.md)."""

    v: int
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]
    chance_played: float
    chance_best: float
    loss: float
    mark: str | None
    alternatives: int


class ReviewChance(BaseModel):
    """A seat's chance of winning the hand after version `v`, from its own view."""

    v: int
    seat: int
    chance: float
    hand: int


class ReviewLuck(BaseModel):
    """How many points of chance cards drawn or turned up moved for a seat over a hand."""

    hand: int
    seat: int
    points: float


class ReviewSummary(BaseModel):
    """A person's review in figures."""

    seat: int
    decisions: int
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int
    average_loss: float | None
    luck: float


class MatchReview(ReviewStatus):
    """The review: empty lists until it is done."""

    level: str
    decisions: list[ReviewDecision] = []
    chances: list[ReviewChance] = []
    luck: list[ReviewLuck] = []
    summary: list[ReviewSummary] = []


def _stale_before(settings: Any) -> Any:
    return utcnow() - timedelta(seconds=settings.review_stale)


async def _status(row: Review, settings: Any, request: Request) -> dict[str, Any]:
    if review_store.is_stale(row, _stale_before(settings)):
        error: str | None = failure(reason="review_stale")
        status = review_store.FAILED
    else:
        error, status = row.error, row.status
    if error is None:
        return {"status": status, "progress": row.progress, "error": None, "reason": None, "params": None}
    reason, params = read_failure(error)
    said = refusal(await caller_lang(request), reason, params, error)
    return {"status": status, "progress": row.progress, "error": said, "reason": reason, "params": params}


async def _finished_match(session: Session, match_id: str) -> match_store.MatchRecord:
    record = await match_store.load_match(session, match_id, with_moves=False)
    if record is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no match has that id", reason="no_match")
    if not replay_open(record.match.status):
        raise Refused(status.HTTP_409_CONFLICT, "the match is still being played; it can be reviewed once over",
                      reason="review_not_over")
    return record


async def _room_in_queue(session: Session, match_id: str, player_id: str, settings: Any) -> None:
    """429 `review_queue_full` if asking would queue a review while the player already has
    SPITE_MAX_QUEUED_REVIEWS_PER_PLAYER waiting or running (asking for one already there is free)."""
    row = await review_store.get(session, match_id)
    if row is not None and row.status in (review_store.QUEUED, review_store.RUNNING, review_store.DONE) \
            and not review_store.is_stale(row, _stale_before(settings)):
        return
    if await review_store.pending_for(session, player_id, _stale_before(settings)) >= \
            settings.max_queued_reviews_per_player:
        raise _queue_full(settings)


def _queue_full(settings: Any) -> Refused:
    most = settings.max_queued_reviews_per_player
    return Refused(status.HTTP_429_TOO_MANY_REQUESTS, f"you have {most} reviews waiting already; ask for "
                   "another once one is made", reason="review_queue_full", n=most)


@router.post("/{match_id}/review", status_code=status.HTTP_202_ACCEPTED, response_model=ReviewStatus,
             dependencies=[Depends(per_address("reviews"))])
async def ask_review(match_id: str, request: Request, session: Session, settings: AppSettings,
                     player: CurrentPlayer) -> dict[str, Any]:
    """Queue the review of a finished match you played in (once; asking again reports it)."""
    record = await _finished_match(session, match_id)
    if not any(s.player_id == player.id for s in record.seats):
        raise Refused(status.HTTP_403_FORBIDDEN, "only a player of this match may ask for its review",
                      reason="review_players_only")
    await _room_in_queue(session, match_id, player.id, settings)
    row, new = await review_store.ask(session, match_id, settings_level(settings), player.id,
                                      _stale_before(settings))
    if new and await review_store.pending_for(session, player.id, _stale_before(settings)) > \
            settings.max_queued_reviews_per_player:  # asks at the same moment all passed the check above
        await review_store.withdraw(session, match_id)
        raise _queue_full(settings)
    if new or row.status in (review_store.QUEUED, review_store.RUNNING):
        await services(request.app).jobs.enqueue(match_id)  # a spare turn finds none waiting: a no-op
    return await _status(row, settings, request)


@router.get("/{match_id}/review", response_model=MatchReview)
async def get_review(match_id: str, session: Session, settings: AppSettings, request: Request) -> dict[str, Any]:
    """The review of a finished match (404 if never asked; `403` `daily_sealed` for a daily
    deal's match while its day lasts, as its replay)."""
    await _finished_match(session, match_id)
    await daily.refuse_sealed(request, match_id, session)
    row = await review_store.get(session, match_id)
    if row is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no review was asked for this match", reason="no_review")
    out: dict[str, Any] = {**await _status(row, settings, request), "level": row.level}
    if row.status == review_store.DONE and row.result is not None:
        out.update({k: row.result.get(k, []) for k in ("decisions", "chances", "luck", "summary")})
    return out


def settings_level(settings: Any) -> str:
    """The review's level as settings make it (the job writes the real one when done)."""
    return f"rollout-{int(settings.review_ms)}ms"
