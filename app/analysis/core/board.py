"""The analysis board's answer (pure: no I/O; the estimator's optional time budget is its only clock).

`answer(record, question, settings)`:

1. replays the stored match to the version asked (`Match.replay(..., upto=v)`);
2. plays the asking seat's what-if moves on it, each one checked against the legal moves of that
   seat's view (`view(match, seat)["legal_moves"]`); one that is not listed is refused with the
   engine's reason (`app.engine.explain`), and the board never plays a take-back or a forfeit;
3. answers the seat's view there, its legal moves, and, when it is that seat's turn in a hand
   still being played, the best few moves with the seat's chance to win the hand after each:
   `estimate.weigh` (the review's own estimate of a decision) picks the candidates and weighs
   them on the same samples, from the view alone, with the leaf Hard's search uses (`app.bots.value.search_leaf`).

The sampling seed is a hash of what the seat sees (its view, less the deal's commitment and the
result) and the what-if moves, never the deal's seed: the same question gets the same answer,
and two deals that differ only in cards the seat cannot see get the same lines.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from app.bots.estimate import Budget, Leaf, weigh
from app.bots.value import search_leaf
from app.engine import HandRecord, IllegalMove, Match, MatchStatus, Move, options_from_json, view
from app.engine.explain import explain

NOT_TRIED = ("take_back", "forfeit")  # what the board never plays: it asks about moves of play
MAX_WHAT_IFS = 200  # what-if moves in one question (a hand has fewer turns than that in practice)


@dataclass(frozen=True)
class Record:
    """What the board needs of a finished match (plain values: it crosses to a worker process):
    its options (JSON), names, each hand's seed, deal order and moves, and its last version."""

    options: dict[str, Any]
    names: tuple[str, ...]
    hands: tuple[tuple[str, tuple[int, ...] | None, tuple[Move, ...]], ...]
    total: int


@dataclass(frozen=True)
class Question:
    """The position at version `v` as `seat` saw it, after that seat's what-if `moves`."""

    v: int
    seat: int
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True)
class BoardSettings:
    """`budget`: the estimate of one answer (samples, most CPU milliseconds, rollout turn ends);
    `lines`: how many moves are answered, best first; `candidates`: most moves weighed
    (`estimate.alternatives`); `leaf`: the review's (the learned value)."""

    budget: Budget = Budget(samples=200, ms=400.0)
    lines: int = 4
    candidates: int = 6
    leaf: Leaf = search_leaf


class Illegal(ValueError):
    """A question the board refuses: `reason` (a catalogue key), its `params`, the English;
    `index` is the what-if move refused (None for the version or the seat)."""

    def __init__(self, english: str, reason: str, params: dict[str, Any] | None = None,
                 index: int | None = None) -> None:
        super().__init__(english)
        self.reason = reason
        self.params = dict(params or {})
        self.index = index
        self.move_reason: str | None = None  # an illegal what-if move: the engine's reason key
        self.move_params: dict[str, Any] = {}

    def plain(self) -> dict[str, Any]:
        return {"english": str(self), "reason": self.reason, "params": self.params, "index": self.index,
                "move_reason": self.move_reason, "move_params": self.move_params}


@dataclass
class Position:
    """The match after the what-if moves, the seat's view of it, and why it has no lines (None
    when it is the seat's turn in a hand being played)."""

    match: Match
    seat: int
    view: dict[str, Any]
    why_no_lines: str | None


def _board_moves(v: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in v["legal_moves"] if m.get("kind") not in NOT_TRIED]


def _why_no_lines(match: Match, seat: int) -> str | None:
    if match.status != MatchStatus.PLAYING:
        return "hand_over" if match.status == MatchStatus.HAND_OVER else "match_over"
    return None if match.game.turn == seat else "not_your_turn"


def position(record: Record, question: Question) -> Position:
    """The position the question asks about (raises `Illegal`)."""
    n = len(record.names)
    if not 0 <= question.v <= record.total:
        raise Illegal(f"v must be from 0 to {record.total}", "analysis_v_range", {"total": record.total})
    if not 0 <= question.seat < n:
        raise Illegal(f"seat must be from 0 to {n - 1}", "analysis_seat_range", {"last": n - 1})
    if len(question.moves) > MAX_WHAT_IFS:
        raise Illegal(f"at most {MAX_WHAT_IFS} what-if moves", "analysis_too_long", {"n": MAX_WHAT_IFS})
    hands = [HandRecord(seed, list(moves), list(order) if order else None) for seed, order, moves in record.hands]
    match = Match.replay(options_from_json(record.options), list(record.names), hands, upto=question.v)
    seat = question.seat
    for i, move in enumerate(question.moves):
        _check(match, seat, move, i)
        match.apply(move, seat)
    return Position(match, seat, view(match, seat), _why_no_lines(match, seat))


def _check(match: Match, seat: int, move: Move, index: int) -> None:
    """Refuse a what-if move the seat's view does not list, with the engine's reason."""
    why = _why_no_lines(match, seat)
    if why is not None:
        key = "not_your_turn" if why == "not_your_turn" else "hand_over"
        err: IllegalMove = IllegalMove("it is not your turn" if why == "not_your_turn" else "the hand is over", key=key)
    elif move.kind in NOT_TRIED:
        err = IllegalMove("the board tries moves of play, not take-backs or resigns", key="bad_move")
    elif move.to_wire() in _board_moves(view(match, seat)):
        return
    else:
        err = explain(match.game, move)
    found = Illegal(str(err), "illegal_move", {}, index=index)
    found.move_reason, found.move_params = err.key, dict(err.params)
    raise found


def sampling_seed(seen: dict[str, Any], moves: tuple[Move, ...]) -> int:
    """The estimator's seed from what the seat sees and the what-if moves (never the deal's seed:
    the commitment to it and a finished hand's result are left out)."""
    shown = {k: val for k, val in seen.items() if k not in ("deal_commitment", "result")}
    text = json.dumps([shown, [m.to_wire() for m in moves]], sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def lines(seen: dict[str, Any], settings: BoardSettings, seed: int) -> list[dict[str, Any]]:
    """The best `settings.lines` moves of the view's seat, best first, each with its chance to
    win the hand (0..1, four decimals), from the view alone."""
    legal = [Move.from_wire(w) for w in _board_moves(seen)]
    if not legal:
        return []
    b = settings.budget
    moves, got = weigh(seen, legal[0], candidates=settings.candidates,
                       budget=Budget(samples=b.samples, ms=b.ms, turns=b.turns, seed=seed), leaf=settings.leaf)
    order = sorted(range(len(moves)), key=lambda i: -got[i])  # stable: ties keep the candidates' order
    return [{"move": moves[i].to_wire(), "chance": round(min(1.0, max(0.0, got[i])), 4)}
            for i in order[:settings.lines]]


def answer(record: Record, question: Question, settings: BoardSettings = BoardSettings()) -> dict[str, Any]:
    """The protocol's answer (raises `Illegal`)."""
    pos = position(record, question)
    seen = pos.view
    found = [] if pos.why_no_lines else lines(seen, settings, sampling_seed(seen, question.moves))
    return {
        "v": question.v, "seat": question.seat, "moves": [m.to_wire() for m in question.moves],
        "position": seen, "legal_moves": [] if pos.why_no_lines else _board_moves(seen),
        "lines": found, "turn": seen["turn"], "over": pos.match.status != MatchStatus.PLAYING,
        "reason": pos.why_no_lines,
    }


def run(record: Record, question: Question, budget: Budget, count: int) -> dict[str, Any]:
    """What a worker process runs: `{"answer": ...}` or `{"refused": Illegal.plain()}` (plain
    values, so nothing but a dict crosses back)."""
    try:
        return {"answer": answer(record, question, BoardSettings(budget=budget, lines=count))}
    except Illegal as e:
        return {"refused": e.plain()}
