"""`Match`: hands played one after another to a target score, with the match version `v`.

A match is options + player names + for each hand its seed (or deal order) and its moves,
so `Match.replay` rebuilds any match exactly. `v` is 0 after the first deal and grows by
one with every applied move and every new deal.

A match ends when a total reaches its target, or after `MAX_HANDS` hands on the scores
whatever the target (a match that cannot reach its target would otherwise never end).

A `forfeit` move (`moves.FORFEIT`, never a legal move of the hand: the room decides it, see
docs/rules.md "Forfeit") is a match-level move of the seat to move: its team loses the match at
once. It is recorded in the hand's moves like any other, so replays stay exact; the hand ends
with the outcome `forfeit` (`play.forfeit`: every other seat wins it, nobody scores) and the
match is over. A resign (`moves.resign(seat)`, docs/rules.md "Resign") is the same move naming
its seat, which may give up on any turn of the hand, not only its own; its outcome is `resign`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError, HandOver, NotYourTurn
from .game import Game
from .moves import FORFEIT, Move
from .options import Options
from .play import forfeit_seat
from .reasons import refusal
from .shuffle import commitment
from .status import MatchStatus

MAX_HANDS = 100
"""Every match ends: after this many hands it is over on the scores, target reached or not
(docs/rules.md, "Scoring")."""


@dataclass
class HandRecord:
    """What rebuilds one hand: its seed (and deal order, if given) and its moves in order."""

    seed: str
    moves: list[Move] = field(default_factory=list)
    order: list[int] | None = None


class NotDealtYet(EngineError):
    """The match has no hand in play yet."""


class Match:
    def __init__(self, options: Options, names: Sequence[str] | None = None,
                 record_events: bool = True) -> None:
        """`record_events=False` skips building events (replays, search): `deal`/`apply` return []."""
        self.options = options
        self.record_events = record_events
        n = options.players
        self.names = list(names) if names is not None else [f"Player {i + 1}" for i in range(n)]
        if len(self.names) != n:
            raise ValueError(f"a match of {n} players needs {n} names")
        self.hands: list[HandRecord] = []
        self.totals = [0] * n
        self.hand_scores: list[list[int]] = []
        self._game: Game | None = None
        self.v = -1
        self.status = MatchStatus.WAITING
        self.forfeited: int | None = None  # the seat that forfeited the match, if one did

    @property
    def game(self) -> Game:
        if self._game is None:
            raise NotDealtYet("the match has not started")
        return self._game

    @property
    def started(self) -> bool:
        return self._game is not None

    @property
    def deal_commitment(self) -> str | None:
        return commitment(self.hands[-1].seed) if self.hands else None

    def deal(self, seed: str, order: Sequence[int] | None = None) -> list[dict[str, Any]]:
        """Deal the first or next hand; returns the public events of the deal."""
        if self.status not in (MatchStatus.WAITING, MatchStatus.HAND_OVER):
            raise refusal("not_dealt_yet", HandOver)
        self._game = Game.deal(self.options, seed, order, events=self.record_events)
        self.hands.append(HandRecord(seed, [], list(order) if order is not None else None))
        self.v += 1
        self.status = MatchStatus.PLAYING
        return self._take_events()

    def apply(self, move: Move, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply a move (checking it comes from `seat`, if given); returns its public events."""
        if self.status != MatchStatus.PLAYING:
            raise refusal("hand_over" if self.status != MatchStatus.WAITING else "match_not_started", HandOver)
        g = self.game
        mover = forfeit_seat(g, move) if move[0] == FORFEIT else g.turn  # a resign may come on any turn
        if seat is not None and seat != mover:
            raise refusal("not_your_turn", NotYourTurn)
        seat = mover
        g.apply(move)
        self.hands[-1].moves.append(Move(*move))
        self.v += 1
        if g.outcome is not None:
            self.hand_scores.append(list(g.outcome.scores))
            for s, pts in enumerate(g.outcome.scores):
                self.totals[s] += pts
            target = self.options.match_target
            if move[0] == FORFEIT:
                self.forfeited = seat
                self.status = MatchStatus.MATCH_OVER
            elif target is None or max(self.totals) >= target or len(self.hands) >= MAX_HANDS:
                self.status = MatchStatus.MATCH_OVER
            else:
                self.status = MatchStatus.HAND_OVER
        return self._take_events()

    def legal_moves(self) -> list[Move]:
        """The legal moves of the current hand's player to move."""
        return self.game.legal_moves()

    def preview(self, move: Move, seat: int | None = None) -> tuple[Match, list[dict[str, Any]]]:
        """What `apply(move, seat)` would make of this match, as a separate match, and the
        events it would return; this match is unchanged (raises as `apply` does). The copy
        shares the finished hands' records: it may replace this match (the move is then made
        once), but the two must not both play on."""
        m = Match.__new__(Match)
        m.options, m.names, m.record_events = self.options, self.names, self.record_events
        last = self.hands[-1] if self.hands else None
        m.hands = self.hands[:]
        if last is not None:
            m.hands[-1] = HandRecord(last.seed, last.moves[:], last.order)
        m.totals, m.hand_scores = list(self.totals), list(self.hand_scores)
        m._game, m.v, m.status, m.forfeited = self.game.copy(), self.v, self.status, self.forfeited
        if self.record_events:
            m._game.events = []
        events = m.apply(move, seat)
        return m, events

    def _take_events(self) -> list[dict[str, Any]]:
        g = self.game
        if g.events is None:
            return []
        events = g.events
        g.events = []
        return events

    @property
    def winners(self) -> list[int]:
        """Seats that won the match (empty while it goes on, or for a drawn single game): the
        highest totals of a match with a target (all of them if tied at the hand cap)."""
        if self.status != MatchStatus.MATCH_OVER:
            return []
        if self.forfeited is not None or self.options.match_target is None:
            return list(self.game.outcome.winners) if self.game.outcome else []
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    @classmethod
    def of_position(cls, game: Game, names: Sequence[str] | None = None) -> Match:
        """A match whose first hand is an exact position (tests, analysis). Not replayable:
        its record holds the position's seed but not how the position was reached."""
        m = cls(game.opts, names)
        m._game = game
        game.events = []
        m.hands.append(HandRecord(game.seed, []))
        m.v = 0
        m.status = MatchStatus.PLAYING if game.outcome is None else MatchStatus.MATCH_OVER
        return m

    @classmethod
    def replay(cls, options: Options, names: Sequence[str] | None,
               hands: Sequence[HandRecord], upto: int | None = None) -> Match:
        """Rebuild a match from its records, stopping once `v == upto` if given.

        Events are not built while replaying; the rebuilt match records them from then on."""
        m = cls(options, names, record_events=False)
        for record in hands:
            if upto is not None and m.v >= upto:
                break
            m.deal(record.seed, record.order)
            for move in record.moves:
                if upto is not None and m.v >= upto:
                    break
                m.apply(move)
        m.record_events = True
        if m.started:
            m.game.events = []
        return m
