"""Scoring a finished hand (docs/rules.md, "Scoring")."""

from __future__ import annotations

from .state import GameState, Outcome


def payoff_out(g: GameState, seat: int) -> Outcome:
    """`seat`'s team emptied its pay-off piles: bonus plus every opposing pay-off card."""
    team = g.team_seats[seat]
    points = g.opts.winner_bonus + sum(len(g.payoff[o]) for o in g.opponents[seat])
    scores = tuple(points if s in team else 0 for s in range(g.n))
    return Outcome("payoff_out", team, scores)


def drawn(g: GameState, reason: str) -> Outcome:
    return Outcome(reason, (), (0,) * g.n)


def fewest(g: GameState, reason: str) -> Outcome:
    """The team (or player) with the fewest pay-off cards scores the difference to each
    opposing team, summed, with no bonus; a tie for fewest is a draw."""
    teams = sorted(set(g.team_seats))
    counts = {team: sum(len(g.payoff[s]) for s in team) for team in teams}
    low = min(counts.values())
    lowest = [team for team in teams if counts[team] == low]
    if len(lowest) > 1:
        return drawn(g, reason)
    winner = lowest[0]
    points = sum(c - low for c in counts.values())
    scores = tuple(points if s in winner else 0 for s in range(g.n))
    return Outcome(reason, winner, scores)
