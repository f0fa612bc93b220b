"""Turn planner: every distinct way to play out the rest of this turn, scored.

Depth-first over the moves of the seat to move (centre plays, side-to-side moves, loads,
Massachusetts fills), merging moves that lead to the same kind of position (`move_key`)
and positions already seen. A line ends with a discard or `end_turn` (scored on the
position before it), or *stops* where the engine would show a card the seat cannot know
yet: a pay-off card turned up, or a fresh hand drawn. There the real bot is asked again
with the new view, so the planner never looks at a made-up card.

A `Scorer` gives the values; Easy and Normal differ only in their scorers.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Protocol

from app.engine import Game, Move
from app.engine.moves import DISCARD, END_TURN, HAND, LOAD, MOVE_SIDE, PAYOFF, PLAY, parse_pile

WIN = 1_000_000.0


class Scorer(Protocol):
    def position(self, g: Game, seat: int, hand_known: bool, blind: frozenset[int]) -> float:
        """Value of a position in the seat's turn (before its closing discard).
        `hand_known` is False after a fresh hand was drawn; `blind` lists seats whose
        pay-off top was just turned up (unknown to the planner)."""

    def ending(self, g: Game, seat: int, move: Move) -> float:
        """Extra value of closing the turn with `move` (a discard or end_turn) from `g`."""

    def fill(self, g: Game, seat: int, move: Move) -> float:
        """Extra value of a discard that does not end the turn (a Massachusetts fill)."""


@dataclass
class Line:
    """One way to play the rest of the turn: its moves (first one is played now), its value,
    and how it ends: 'end' (discard / end_turn), 'reveal', 'refill' or 'over'."""

    moves: list[Move]
    value: float
    how: str


@dataclass
class Plan:
    lines: list[Line] = field(default_factory=list)
    nodes: int = 0

    def best(self) -> Line:
        return max(self.lines, key=lambda line: line.value)


def move_key(g: Game, move: Move) -> Hashable:
    """Moves with the same key lead to positions a player would not tell apart: cards of the
    same rank (suits matter only when loading is allowed), equal-height centre stacks, empty
    side stacks."""
    kind, card, src, dst = move
    deck = g.deck
    if card is not None:
        face: Hashable = "W" if deck.wild[card] else deck.rank[card]
        if g.opts.load_opponent:
            face = (face, deck.suit[card])
    else:
        face = None
    if kind == PLAY:
        assert dst is not None
        return (PLAY, face, src, len(g.centre[parse_pile(dst).slot]))
    if kind == DISCARD:
        assert dst is not None
        _z, s, k = parse_pile(dst)
        if not g.side[s][k]:
            return (DISCARD, face, "empty")
        return (DISCARD, face, dst)
    if kind == MOVE_SIDE:
        assert dst is not None
        _z, s, k = parse_pile(dst)
        return (MOVE_SIDE, src, "empty" if not g.side[s][k] else dst)
    return move


def distinct(g: Game, moves: list[Move]) -> list[Move]:
    """One move per `move_key` (the first listed)."""
    seen: set[Hashable] = set()
    out: list[Move] = []
    for m in moves:
        k = move_key(g, m)
        if k not in seen:
            seen.add(k)
            out.append(m)
    return out


def ends_turn(g: Game, move: Move) -> bool:
    """Whether `move` closes the turn (a discard other than a Massachusetts fill, or end_turn)."""
    if move[0] == END_TURN:
        return True
    if move[0] != DISCARD:
        return False
    if not g.opts.massachusetts:
        return True
    dst = move[3]
    assert dst is not None
    _z, s, k = parse_pile(dst)
    return bool(g.side[s][k])


def _state_key(g: Game, seat: int) -> Hashable:
    team = g.team_seats[seat]
    return (
        tuple(sorted(g.hands[seat])),
        tuple(len(st) for st in g.centre),
        tuple(tuple(st) for p in team for st in g.side[p]),
        tuple(len(g.payoff[p]) for p in range(g.n)),
        tuple(g.moved),
    )


def plan_turn(g: Game, scorer: Scorer, max_nodes: int = 2000) -> Plan:
    """All distinct lines for the seat to move in `g` (not modified), scored by `scorer`."""
    seat = g.turn
    plan = Plan()
    seen: dict[Hashable, float] = {}

    def visit(s: Game, path: list[Move], acc: float) -> None:
        key = _state_key(s, seat)
        prev = seen.get(key)
        if prev is not None and prev >= acc:
            return
        seen[key] = acc
        plan.nodes += 1
        moves = distinct(s, s.legal_moves())
        endings = [m for m in moves if ends_turn(s, m)]
        if endings:
            base = scorer.position(s, seat, True, frozenset()) + acc
            for m in endings:
                plan.lines.append(Line(path + [m], base + scorer.ending(s, seat, m), "end"))
        for m in moves:
            if ends_turn(s, m):
                continue
            if plan.nodes >= max_nodes:
                return
            t = s.copy()
            t.apply(m)
            step = acc + (scorer.fill(s, seat, m) if m[0] == DISCARD else 0.0)
            line = path + [m]
            if t.outcome is not None:
                won = seat in t.outcome.winners
                lost = bool(t.outcome.winners) and not won
                plan.lines.append(Line(line, WIN if won else (-WIN if lost else 0.0), "over"))
                continue
            took_hand = m[0] == DISCARD or m[2] == HAND
            expected = len(s.hands[seat]) - (1 if took_hand else 0)
            refilled = len(t.hands[seat]) > expected
            blind: frozenset[int] = frozenset()
            src = parse_pile(m[2]) if m[0] in (PLAY, LOAD) and m[2] is not None else None
            if src is not None and src.zone == PAYOFF:
                owner = src.seat
                if t.payoff[owner]:
                    blind = frozenset((owner,))
            if refilled or blind:
                value = scorer.position(t, seat, not refilled, blind) + step
                plan.lines.append(Line(line, value, "refill" if refilled else "reveal"))
                continue
            if t.turn != seat:
                value = scorer.position(t, seat, True, frozenset()) + step
                plan.lines.append(Line(line, value, "end"))
                continue
            visit(t, line, step)

    visit(g, [], 0.0)
    return plan


# Kinds a planner may meet, for readers of `Line.moves`.
KINDS = (PLAY, DISCARD, MOVE_SIDE, LOAD, END_TURN)
