"""Skill ratings, pure: the Weng-Lin model (openskill's Plackett-Luce) over one match's final
standing. No I/O: `rate` takes the players' ratings before the match and returns them after.

A match's teams are its partnerships (a player alone is a team of one); a team's score is
its match total (partners share one), ranks follow from the scores, and equal scores are
ties. The `ordinal` that ranks players is the conservative mu - 3 sigma. The model narrows sigma
after any match, so a plain draw would raise both players' ordinals; here a draw (every team
level) keeps each sigma and moves mu only (toward each other, for unequal players).

Rating farming: the same players meeting again and again in a window count
less. `repeat_weight` says how much a match counts after `earlier` rated matches between the
same players in the window: fully for the first `full`, then half, a quarter, then not at all;
`rate` moves mu and sigma by that fraction of the model's change (nothing at all at 0, and the
match is then not counted in `games`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from app.domain.records import Skill, Standing

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


UNRATED = Skill(START_MU, START_SIGMA, 0)


def teams_of(standings: Sequence[Standing]) -> list[list[int]]:
    """Seats grouped by team, in seat order of each team's first seat."""
    groups: dict[Any, list[int]] = {}
    for seat, s in enumerate(standings):
        groups.setdefault(("team", s.team) if s.team is not None else ("seat", seat), []).append(seat)
    return list(groups.values())


REPEAT_STEPS = 2  # matches beyond the full ones that still count (half, then a quarter)


def repeat_weight(earlier: int, full: int) -> float:
    """How much a rated match counts after `earlier` ones between the same players in the window."""
    beyond = earlier - full + 1
    if beyond <= 0:
        return 1.0
    return 0.5 ** beyond if beyond <= REPEAT_STEPS else 0.0


def rate(before: Mapping[str, Skill], standings: Sequence[Standing], weight: float = 1.0) -> dict[str, Skill]:
    """Every player's rating after the match (`before` lacks players not rated yet). A player
    appears at most once; a team scores its best member's total (partners share one). `weight`
    (0..1) scales every change (`repeat_weight`)."""
    ids = [s.player_id for s in standings]
    if len(set(ids)) != len(ids):
        raise ValueError("a player holds two seats")
    groups = teams_of(standings)
    if len(groups) < 2:
        raise ValueError("a rated match needs two teams")
    teams = [[MODEL.rating(mu=before.get(ids[i], UNRATED).mu, sigma=before.get(ids[i], UNRATED).sigma)
              for i in group] for group in groups]
    scores = [float(max(standings[i].total for i in group)) for group in groups]
    rated = MODEL.rate(teams, scores=scores)
    draw = len(set(scores)) == 1
    after: dict[str, Skill] = {}
    for group, team in zip(groups, rated, strict=True):
        for i, r in zip(group, team, strict=True):
            was = before.get(ids[i], UNRATED)
            # The model shrinks sigma after every match, a draw too, so two players drawing
            # would both rise on the leaderboard (mu - 3 sigma) for nothing: a draw moves mu only.
            sigma = was.sigma if draw else r.sigma
            after[ids[i]] = Skill(was.mu + weight * (r.mu - was.mu), was.sigma + weight * (sigma - was.sigma),
                                  was.games + (1 if weight > 0 else 0))
    return after
