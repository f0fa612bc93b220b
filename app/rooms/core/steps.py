"""Committed steps and the one function that applies them to a live match.

A match advances by steps, each taking it one version further: a move (`MoveStep`) or the
deal of a hand (`DealStep`). Whether a step was committed by this instance, announced on the
bus, read from the store while catching up, or replayed while loading after a restart, it
reaches memory through `apply_steps` and nothing else: the engine applies it, the client's
move id is remembered, the events each socket is sent are kept, and the turn clock is set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.engine import Match, MatchStatus, Move, options_from_json
from app.rooms.core import hand_tally
from app.rooms.core.model import LiveMatch, SeatInfo
from app.rooms.core.pace import count_missed

PLAYER, BOT = "player", "bot"
QUIET_ACTORS = (PLAYER, BOT)  # other actors (the clock, a stand-in) are announced with an event


@dataclass(frozen=True, slots=True)
class MoveStep:
    """Move `v` of a match: `seat` played `move`; `actor` says who chose it."""

    v: int
    seat: int
    move: Move
    actor: str = PLAYER
    client_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The public record of the move, as the bus carries it (a move names only the card
        it shows, never a hidden one)."""
        return {"seq": self.v, "seat": self.seat, "actor": self.actor, "client_id": self.client_id,
                "payload": self.move.to_wire()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MoveStep:
        """Raises KeyError, TypeError or ValueError (BadMove) if `data` is not a move record."""
        return cls(int(data["seq"]), int(data["seat"]), Move.from_wire(data["payload"]), str(data["actor"]),
                   data.get("client_id"))


@dataclass(frozen=True, slots=True)
class DealStep:
    """Version `v` deals hand `number` from `seed` (or an explicit deal `order`)."""

    v: int
    number: int
    seed: str
    order: tuple[int, ...] | None = None


Step = MoveStep | DealStep


@dataclass(frozen=True)
class MatchLog:
    """Everything that rebuilds a match: who sits where, its options and every step."""

    id: str
    number: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    turn_seconds: int | None
    v: int
    deadline: datetime | None
    steps: list[Step]


@dataclass(frozen=True)
class Previewed:
    """A move already made on a copy of the match (`Match.preview`) while deciding it: once
    committed, the copy replaces the match instead of the move being made a second time.
    `of` is the match it was previewed from (it must still be the live one)."""

    of: Match
    match: Match
    events: list[dict[str, Any]]


class StepRefused(ValueError):
    """A step does not follow the live match (a gap, or the engine refuses it): the store
    and memory disagree, so the room must be rebuilt from the store."""


def apply_steps(m: LiveMatch, steps: Iterable[Step], deadline: datetime | None, *,
                previewed: Previewed | None = None) -> None:
    """Apply committed steps in order, then set the turn deadline that followed the last.
    `previewed`: the one move step was already made on a copy of the live match while it was
    decided; the copy takes the match's place (same result, made once).

    Raises StepRefused (the engine changed nothing for that step) on a gap or a step the
    engine refuses; earlier steps stay applied."""
    game = m.engine
    for step in steps:
        if step.v != game.v + 1:
            raise StepRefused(f"step {step.v} does not follow version {game.v}")
        if isinstance(step, DealStep):
            events = _engine(game.deal, step.seed, step.order)
            m.awards = None
            m.actors = {}
            m.tally = hand_tally.Tally.start(len(m.seats), game.v)
        else:
            tally, before = _tally_before(m, step.move)
            if previewed is not None and previewed.of is game and previewed.match.v == step.v:
                m.engine = game = previewed.match  # made once, on the copy it was decided on
                events = previewed.events
            else:
                events = _engine(game.apply, step.move, step.seat)
            if tally is not None and before is not None:
                hand_tally.count(tally, before, game.game, game.v)
            count_missed(m.missed, step.seat, step.actor,
                         game.status != MatchStatus.PLAYING or game.game.turn != step.seat)
            if step.actor not in QUIET_ACTORS:
                m.actors[step.v] = step.actor
                if game.record_events:
                    events = [{"type": "autoplay", "seat": step.seat, "by": step.actor}, *events]
            if step.actor == PLAYER:
                m.played.add(step.seat)
                m.own_moves[step.seat] = m.own_moves.get(step.seat, 0) + 1
            if step.client_id is not None:
                m.client_ids[(step.seat, step.client_id)] = step.v
        if game.record_events:
            m.remember(game.v, events)
    m.deadline = deadline


def _tally_before(m: LiveMatch, move: Move) -> tuple[hand_tally.Tally | None, hand_tally.Before | None]:
    """The live match's tally, if it is at the match's version, and what `move` is before it
    is made (a move naming no pile of the table leaves the hand's facts unknown)."""
    tally = m.tally
    if tally is None or tally.v != m.engine.v:
        return None, None
    try:
        return tally, hand_tally.before(m.engine.game, move)
    except (ValueError, IndexError):
        m.tally = None
        return None, None


def _engine(fn: Any, *args: Any) -> list[dict[str, Any]]:
    try:
        events: list[dict[str, Any]] = fn(*args)
    except ValueError as e:  # EngineError and its kinds are ValueErrors: the engine changed nothing
        raise StepRefused(str(e)) from e
    return events


def new_match(match_id: str, number: int, match: Match, seats: Sequence[SeatInfo],
              turn_seconds: int | None) -> LiveMatch:
    return LiveMatch(match_id, number, match, list(seats), turn_seconds, missed=[0] * len(seats))


def rebuild(log: MatchLog) -> LiveMatch:
    """A live match from its log, checked against the stored version (StepRefused if the
    steps do not replay to it). Events are not built while replaying."""
    options = options_from_json(log.options)
    engine = Match(options, [s.name for s in log.seats], record_events=False)
    m = new_match(log.id, log.number, engine, log.seats, log.turn_seconds)
    apply_steps(m, log.steps, log.deadline)
    if engine.v != log.v:
        raise StepRefused(f"match {log.id} replays to version {engine.v}, the store says {log.v}")
    engine.record_events = True
    if engine.started:
        engine.game.events = []
    return m
