"""Achievements as a pure function of the engine's record of a match: checked against an
oracle that watches the same games move by move through the engine's public events and
views (a different path from the replay `achievements.earned` makes)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.engine import Match, MatchStatus, Move, make_options, view
from app.rooms.core.achievements import BY_KEY, CATALOG, TOURNAMENT_KINDS, earned, hand_facts
from app.rooms.core.model import SeatInfo

PEOPLE = [SeatInfo(f"P{i}", player_id=f"p{i}") for i in range(6)]


def _choose(moves: list[Move], rng: random.Random, lazy: bool, no_side: bool = False) -> Move:
    if no_side:
        moves = [m for m in moves if not (m.kind == "play" and m.src and m.src.startswith("side"))] or moves
    payoff = [m for m in moves if m.kind == "play" and m.src and m.src.startswith("payoff")]
    plays = [m for m in moves if m.kind == "play"]
    if payoff and not lazy:
        return rng.choice(payoff)
    if plays and rng.random() < (0.2 if lazy else 0.8):
        return rng.choice(plays)
    rest = [m for m in moves if m.kind in ("discard", "end_turn")] or moves
    return rng.choice(rest)


class Oracle:
    """Hand facts seen from the events and views while the hand is played."""

    def __init__(self, n: int) -> None:
        self.side = [0] * n
        self.roll = [0] * n
        self.best_roll = [0] * n
        self.ransom = [0] * n
        self.deficit = [0] * n

    def saw(self, events: list[dict[str, Any]], match: Match) -> None:
        last_payoff_play: int | None = None
        for e in events:
            if e["type"] == "turn":
                self.roll = [0] * len(self.roll)
            elif e["type"] == "play":
                s = e["seat"]
                last_payoff_play = None
                if e["from"].startswith("side:"):
                    self.side[s] += 1
                elif e["from"].startswith("payoff:"):
                    self.roll[s] += 1
                    self.best_roll[s] = max(self.best_roll[s], self.roll[s])
                    last_payoff_play = s
            elif e["type"] == "complete" and last_payoff_play is not None:
                self.ransom[last_payoff_play] += 1
        opts = match.options
        left = [len(p) for p in match.game.payoff]  # after the move (a hand's last move empties one)
        teams: dict[Any, int] = {}
        for i, n in enumerate(left):
            key = opts.team_of(i) if opts.team_of(i) is not None else ("seat", i)
            teams[key] = teams.get(key, 0) + n
        for i in range(len(left)):
            key = opts.team_of(i) if opts.team_of(i) is not None else ("seat", i)
            self.deficit[i] = max(self.deficit[i], teams[key] - min(c for k, c in teams.items() if k != key))


def _expected(match: Match, oracle: Oracle, seats: list[SeatInfo], rated: bool) -> set[tuple[int, str]]:
    res = view(match, None)["result"]
    winners = res["winners"]
    out: set[tuple[int, str]] = set()
    for s, who in enumerate(seats):
        if who.bot is not None:
            continue
        keys = set()
        if s in winners:
            keys.add("first_hand")
            if oracle.side[s] == 0:
                keys.add("no_side_stack")
            if (res["reason"] == "payoff_out" and match.options.payoff_size == 30
                    and view(match, None)["players"][s]["payoff_count"] == 0):
                keys.add("long_haul")
            if oracle.deficit[s] >= 10:
                keys.add("comeback")
        if oracle.best_roll[s] >= 5:
            keys.add("on_a_roll")
        if oracle.ransom[s]:
            keys.add("kings_ransom")
        if res["match_over"] and s in res["match_winners"]:
            keys.add("first_win")
            opts = match.options
            if opts.teams == "pairs":
                keys.add("partnership_win")
            foes = [o for o in range(opts.players) if opts.team_of(o) is None or opts.team_of(o) != opts.team_of(s)]
            if any(seats[o].bot == "hard" for o in foes if o != s):
                keys.add("giant_slayer")
            if rated:
                keys.add("rated_win")
            if opts.players >= 4 and opts.teams != "pairs":
                keys.add("full_table")
            if len(match.hand_scores) >= 3 and all(h[s] > 0 and all(h[o] == 0 for o in foes if o != s)
                                                   for h in match.hand_scores):
                keys.add("clean_sweep")
            if (opts.match_target or 0) >= 100:
                keys.add("marathon")
        out |= {(s, k) for k in keys}
    return out


CASES = [
    ("short", {"payoff_size": 5}, 2), ("standard", {"payoff_size": 30}, 2), ("standard", {"payoff_size": 30}, 3),
    ("short", {"payoff_size": 8, "match_target": 25}, 2), ("standard", {"teams": "pairs", "payoff_size": 10}, 4),
    ("short", {"payoff_size": 6}, 4), ("short", {"payoff_size": 13, "match_target": 100}, 2),
]


def _check_games(preset: str, overrides: dict[str, Any], players: int) -> Counter[str]:
    """Play random matches, checking `earned` against the oracle at every hand's end; the
    achievements seen."""
    seen: Counter[str] = Counter()
    for game in range(6):
        rng = random.Random(f"{preset}{overrides}{players}{game}")
        seats = list(PEOPLE[:players])
        if game % 3 == 1:
            seats[1] = SeatInfo("Hard bot 2", bot="hard")
        rated = game % 2 == 0
        # One seat rarely plays at first: comebacks and big leads happen.
        lazy = rng.randrange(players) if game % 2 else -1
        wakes = rng.choice([40, 80, 10_000])
        match = Match(make_options(preset, {**overrides, "players": players}))
        hand = 0
        while match.status != MatchStatus.MATCH_OVER:
            hand += 1
            oracle = Oracle(players)
            oracle.saw(match.deal(f"seed-{game}-{hand}"), match)
            moves = 0
            while match.status == MatchStatus.PLAYING:
                g = match.game
                moves += 1
                mv = _choose(g.legal_moves(), rng, g.turn == lazy and moves < wakes, no_side=g.turn == game % players)
                oracle.saw(match.apply(mv), match)
            got = earned(match, seats, rated=rated)
            assert {(e.seat, e.key) for e in got} == _expected(match, oracle, seats, rated)
            assert all(seats[e.seat].bot is None and e.player_id == seats[e.seat].player_id for e in got)
            seen.update(e.key for e in got)
    return seen


@pytest.mark.parametrize(("preset", "overrides", "players"), CASES)
def test_earned_matches_the_oracle_over_random_matches(preset: str, overrides: dict[str, Any], players: int) -> None:
    _check_games(preset, overrides, players)


def test_the_random_matches_reach_almost_every_achievement() -> None:
    """The oracle is only as good as the games it sees: between them they earn every achievement."""
    assert len(CATALOG) >= 12 and set(BY_KEY) == {k.key for k in CATALOG + TOURNAMENT_KINDS}
    seen: Counter[str] = Counter()
    for case in CASES:
        seen += _check_games(*case)
    assert {k.key for k in CATALOG} <= set(seen), seen


def test_bots_earn_nothing_and_a_hand_in_play_earns_nothing() -> None:
    match = Match(make_options("short", {"payoff_size": 5, "players": 2}))
    match.deal("bots")
    bots = [SeatInfo("Easy bot 1", bot="easy"), SeatInfo("Hard bot 2", bot="hard")]
    assert earned(match, bots) == []
    rng = random.Random(1)
    while match.status == MatchStatus.PLAYING:
        match.apply(_choose(match.game.legal_moves(), rng, False))
    assert earned(match, bots) == []
    people = [PEOPLE[0], bots[1]]
    got = {e.key for e in earned(match, people) if e.seat == 0}
    assert ("first_win" in got) == (0 in match.winners)
    assert ("giant_slayer" in got) == (0 in match.winners)


def test_hand_facts_refuses_a_hand_in_play() -> None:
    match = Match(make_options("short", {"payoff_size": 5, "players": 2}))
    match.deal("x")
    with pytest.raises(ValueError):
        hand_facts(match, 1)
