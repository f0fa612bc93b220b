"""From the store's rows to the core's decisions: who plays, what the tables gave, the next
round's pairing, the standings. No I/O of its own: the runner and the routes read the rows and
call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.store.tables import Tournament, TournamentPlayer, TournamentRound, TournamentTable
from app.tournaments.core import arena, duplicate, round_robin, settings, standings, swiss
from app.tournaments.core.model import Bye, Entrant, Pairing, Standing, TableResult


def entrants_of(rows: Sequence[TournamentPlayer]) -> list[Entrant]:
    return [Entrant(player_id=p.player_id, name=p.name, order=p.order, rating=p.rating,
                    withdrawn=p.withdrawn_at is not None) for p in rows]


def results_of(tables: Sequence[TournamentTable]) -> list[TableResult]:
    return [TableResult(round=tb.round, table=tb.table, seats=tuple(tb.seats),
                        scores=tuple(tb.scores or ()), totals=tuple(tb.totals or ()), finished=tb.finished,
                        forfeit=tuple(tb.forfeits or ()))
            for tb in tables]


def byes_of(rounds: Sequence[TournamentRound]) -> list[Bye]:
    return [Bye(round=r.round, player_id=pid) for r in rounds for pid in r.byes]


def settings_of(t: Tournament) -> settings.TournamentSettings:
    """The tournament's settings as the core takes them (the create request, validated, kept as JSON)."""
    raw = dict(t.settings)
    starts = raw.get("starts_at")
    raw["starts_at"] = datetime.fromisoformat(starts) if isinstance(starts, str) else None
    names = set(settings.TournamentSettings.__dataclass_fields__)
    return settings.TournamentSettings(**{k: v for k, v in raw.items() if k in names})


def total_rounds(t: Tournament, players: int) -> int:
    """How many rounds the tournament plays (arena: as many as it pairs until its end)."""
    return settings.rounds_to_play(settings_of(t), players) or 0


@dataclass(frozen=True, slots=True)
class RoundAsk:
    """What pairing a round needs, as plain values (it is pickled to the pairing process)."""

    format: str
    entrants: list[Entrant]
    results: list[TableResult]
    byes: list[Bye]
    number: int
    total: int
    double: bool


def round_ask(t: Tournament, entrants: list[Entrant], rounds: Sequence[TournamentRound],
              tables: Sequence[TournamentTable]) -> RoundAsk | None:
    """What pairing round `t.round + 1` needs, or None when the tournament is over (its last
    round played, or fewer than two players left)."""
    active = [e for e in entrants if not e.withdrawn]
    number = t.round + 1
    total = total_rounds(t, len(entrants))
    if len(active) < 2 or number > total:
        return None
    return RoundAsk(t.format, entrants, results_of(tables), byes_of(rounds), number, total,
                    bool(t.settings.get("double")))


def pair(ask: RoundAsk) -> Pairing:
    """The round's pairing (CPU-bound for a big Swiss: the runner calls it in a worker process)."""
    if ask.format == "round_robin":
        return round_robin.berger_round(ask.entrants, ask.number, ask.double)
    return swiss.swiss_round(ask.entrants, ask.results, ask.byes, ask.number, total_rounds=ask.total)


def arena_wave(t: Tournament, entrants: list[Entrant], tables: Sequence[TournamentTable]) -> list[tuple[str, ...]]:
    """The arena tables to make now: the players with no running table, paired by score."""
    busy = {pid for tb in tables if not tb.finished for pid in tb.seats}
    points = {row.player_id: row.points for row in table_standings(t, entrants, [], tables)}
    last: dict[str, frozenset[str]] = {}
    for tb in sorted(tables, key=lambda tb: (tb.round, tb.table)):
        for pid in tb.seats:
            last[pid] = frozenset(tb.seats) - {pid}
    free = [arena.ArenaPlayer(player_id=e.player_id, points=points.get(e.player_id, 0.0),
                              last_opponents=last.get(e.player_id, frozenset()), waiting_since=e.order)
            for e in entrants if not e.withdrawn and e.player_id not in busy]
    return [tuple(x) for x in arena.arena_tables(free, int(t.settings.get("seats") or 2))]


def table_standings(t: Tournament, entrants: list[Entrant], rounds: Sequence[TournamentRound],
                    tables: Sequence[TournamentTable]) -> list[Standing]:
    return standings.standings(settings_of(t).format, entrants, results_of(tables), byes_of(rounds),
                               duplicate=bool(t.settings.get("duplicate")))


def duplicate_seed(secret_hex: str, tournament_id: str, round_no: int) -> str:
    return duplicate.round_seeds(secret_hex, tournament_id, round_no)


def seed_commitment(seed: str) -> str:
    return duplicate.seed_commitment(seed)


def describe(t: Tournament, organiser: str, entrants: list[Entrant], rounds: Sequence[TournamentRound],
             tables: Sequence[TournamentTable], names: dict[str, str]) -> dict[str, Any]:
    """The tournament as `GET /api/tournaments/{id}` shows it (docs/protocol.md): a duplicate
    round's seed only once the round is over (its commitment from the start)."""
    rows = table_standings(t, entrants, rounds, tables)
    withdrawn = {e.player_id for e in entrants if e.withdrawn}
    by_round: dict[int, list[TournamentTable]] = {}
    for tb in tables:
        by_round.setdefault(tb.round, []).append(tb)
    return {
        "id": t.id, "code": t.code, "name": t.name, "format": t.format, "status": t.status,
        "organiser": {"player_id": t.organiser_id, "name": organiser},
        "settings": t.settings, "round": t.round, "rounds_total": total_rounds(t, len(entrants)) or None,
        "starts_at": _iso(t.starts_at), "started_at": _iso(t.started_at), "ends_at": _iso(t.ends_at),
        "finished_at": _iso(t.finished_at),
        "players": [{"player_id": r.player_id, "name": r.name, "points": r.points, "tiebreak": r.tiebreak,
                     "rank": r.rank, "withdrawn": r.player_id in withdrawn} for r in rows],
        "rounds": [{"round": r.round, "status": r.status, "commitment": r.commitment,
                    "seed": r.seed if r.status == "over" else None, "byes": list(r.byes),
                    "tables": [{"table": tb.table, "room": tb.room_code if tb.match_id else None,
                                "seats": [{"player_id": pid, "name": names.get(pid, "")} for pid in tb.seats],
                                "result": ({"scores": tb.scores, "totals": tb.totals} if tb.finished else None)}
                               for tb in by_round.get(r.round, [])]}
                   for r in rounds],
        "seeds": [r.seed for r in rounds if r.seed is not None and r.status == "over"],
    }


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None
