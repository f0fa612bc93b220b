"""The review of a finished match, move by move (pure: no I/O, no clock but the estimator's
optional time budget).

For every move, replayed on the engine:

- each seat's chance of winning the hand *after* it, from that seat's own view (`chances`, the
  graph); once the hand is over the chance is its result (1, 0, or 0.5 for a draw);
- a *decision* (a person's move, `actor == "player"`, with an alternative): the chance after the
  move played and after each alternative, all estimated from the mover's view just before it on
  the same samples by `estimate.weigh` (the analysis board's estimate too, with the leaf of Hard's
  search); `best` is the alternative with the highest chance,
  `loss` = 100 x (best - played) points of the chances as shown (to a tenth of a per cent: one
  rounding, `marks.judged`; never below 0), marked at 5 / 10 / 15 points of that shown loss;
- *luck*: where a seat saw cards it had not seen (drawn, turned up), how far they moved its
  chance: on worlds sampled from its view just before the move, the leaf's chance with the cards
  it really saw less with the cards each world had there (`estimate.luck`: the same worlds on
  both sides); summed per hand and seat, in points. The rest of a seat's change in chance comes
  from the choices (its own and the others').

Nothing here reads a card the judged seat could not see: every estimate starts from
`view(match, seat)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from app.bots.estimate import Budget, Leaf, chances, outcome_value, weigh
from app.bots.estimate import luck as estimate_luck
from app.bots.value import search_leaf
from app.engine import Match, Move, Options, view

from .marks import judged, summary

TAKE_BACK = "take_back"
FORFEIT = "forfeit"  # the server's forfeit, or a player's resign: never a decision of play


@dataclass(frozen=True)
class MoveInput:
    """One stored move: the version it made, its seat, the move and who made it."""

    v: int
    seat: int
    move: Move
    actor: str


@dataclass(frozen=True)
class HandInput:
    """One dealt hand: its seed (and explicit deal order, if any) and its moves in order."""

    number: int
    seed: str
    order: tuple[int, ...] | None
    moves: tuple[MoveInput, ...]


@dataclass(frozen=True)
class MatchInput:
    """What a review needs of a finished match."""

    options: Options
    names: tuple[str, ...]
    hands: tuple[HandInput, ...]
    people: frozenset[int]  # seats held by a person (reviewed); the others are bots


LUCK = Budget(samples=64, turns=0)  # the luck of one step: 64 worlds judged at once by the leaf (docs/bots.md)


@dataclass(frozen=True)
class ReviewSettings:
    """Budgets: `decision` for the alternatives of one decision, `graph` for one seat's chance,
    `luck` for the luck of each step where cards showed (`estimate.luck`); `candidates`: most
    alternatives compared with the move played; `seed` varies the samples; `leaf` scores the
    rollouts' ends: the learned value Hard's search uses (`app.bots.value.search_leaf`)."""

    decision: Budget = Budget(samples=48)
    graph: Budget = Budget(samples=24)
    luck: Budget = LUCK
    candidates: int = 6
    seed: int = 0
    leaf: Leaf = search_leaf

    @property
    def level(self) -> str:
        ms = self.decision.ms
        return f"rollout-{int(ms)}ms" if ms is not None else f"rollout-{self.decision.samples}"


def known_cards(v: dict[str, Any]) -> set[int]:
    """The card ids a seat's view shows."""
    out = {int(c["id"]) for c in v["hand"]}
    for p in v["players"]:
        if p["payoff_top"] is not None:
            out.add(int(p["payoff_top"]["id"]))
        out.update(int(c["id"]) for st in p["side"] for c in st)
    out.update(int(c["id"]) for st in v.get("own_side") or [] for c in st)
    out.update(int(c["id"]) for st in v["centre"] for c in st)
    return out


def _budget(base: Budget, seed: int, v: int, seat: int, salt: int) -> Budget:
    return Budget(samples=base.samples, ms=base.ms, turns=base.turns,
                  seed=(seed * 1_000_003 + v * 64 + seat * 4 + salt) & 0x7FFFFFFF)


@dataclass
class Review:
    """A review in the making: `steps()` yields the share done (0..1) after each move; then
    `result()` is the protocol's review (docs/protocol.md, "Match review")."""

    match: MatchInput
    settings: ReviewSettings = field(default_factory=ReviewSettings)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    graph: list[dict[str, Any]] = field(default_factory=list)
    luck: list[dict[str, Any]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(len(h.moves) for h in self.match.hands)

    def steps(self) -> Iterator[float]:
        m = Match(self.match.options, list(self.match.names))
        n = self.match.options.players
        done = 0
        total = max(1, self.total)
        for hand in self.match.hands:
            m.deal(hand.seed, hand.order)
            luck = [0.0] * n
            now = [self._chance(m, s, m.v) for s in range(n)]
            self.graph += [{"v": m.v, "seat": s, "chance": round(c, 4), "hand": hand.number}
                           for s, c in enumerate(now)]
            for step in hand.moves:
                self._move(m, hand.number, step, luck)
                done += 1
                yield done / total
            self.luck += [{"hand": hand.number, "seat": s, "points": round(100 * luck[s], 1)} for s in range(n)]

    def _chance(self, m: Match, seat: int, v: int, budget: Budget | None = None) -> float:
        g = m.game
        if g.outcome is not None:
            return outcome_value(g, seat)
        s = self.settings
        base = budget if budget is not None else s.graph
        return chances(view(m, seat), [None], budget=_budget(base, s.seed, v, seat, 0), leaf=s.leaf)[0]

    def _move(self, m: Match, hand: int, step: MoveInput, luck: list[float]) -> None:
        s = self.settings
        n = m.options.players
        before = [view(m, seat) for seat in range(n)]
        seen = [known_cards(b) for b in before]
        if step.actor == "player" and step.seat in self.match.people and step.move.kind not in (TAKE_BACK, FORFEIT):
            self._decision(before[step.seat], step)
        m.apply(step.move, step.seat)
        for seat in range(n):
            self.graph.append({"v": m.v, "seat": seat, "chance": round(self._chance(m, seat, m.v), 4), "hand": hand})
            if step.move.kind == TAKE_BACK or m.game.outcome is not None:
                continue
            after = view(m, seat)
            if known_cards(after) - seen[seat] - {step.move.card}:  # cards showed: their luck
                luck[seat] += estimate_luck(before[seat], after, step.move, mover=step.seat,
                                            budget=_budget(s.luck, s.seed, m.v, seat, 1), leaf=s.leaf)

    def _decision(self, before: dict[str, Any], step: MoveInput) -> dict[str, Any] | None:
        """The judged decision (kept), or None when the move had no alternative."""
        judged = judge(before, step.move, self.settings, step.v)
        if judged is not None:
            self.decisions.append(judged)
        return judged

    def result(self) -> dict[str, Any]:
        """The review's body (without status and progress)."""
        seats = sorted(self.match.people)
        return {
            "level": self.settings.level,
            "decisions": self.decisions,
            "chances": self.graph,
            "luck": self.luck,
            "summary": summary(seats, self.decisions, self.luck),
        }


def judge(before: dict[str, Any], played: Move, settings: ReviewSettings, v: int = 0) -> dict[str, Any] | None:
    """A decision judged from the mover's view `before` it: the chance after `played` and after
    the best alternative, the points lost and the mark (None when there was no alternative)."""
    seat = int(before["you"])
    moves, got = weigh(before, played, candidates=settings.candidates, lone=False,
                       budget=_budget(settings.decision, settings.seed, v, seat, 2), leaf=settings.leaf)
    if len(moves) < 2:
        return None
    best = max(range(len(moves)), key=lambda i: (got[i], i == 0))
    shown = judged(got[0], got[best])
    if shown.loss == 0:  # nothing better as shown: the move played was the best found
        best = 0
    return {
        "v": v, "seat": seat, "played": played.to_wire(), "best": moves[best].to_wire(),
        "chance_played": shown.chance_played, "chance_best": shown.chance_best,
        "loss": shown.loss, "mark": shown.mark, "alternatives": len(moves) - 1,
    }


def run(match: MatchInput, settings: ReviewSettings | None = None) -> dict[str, Any]:
    """The whole review at once (tests and benchmarks)."""
    r = Review(match, settings or ReviewSettings())
    for _ in r.steps():
        pass
    return r.result()

