"""The rating function (Weng-Lin, Plackett-Luce), pure: who beats whom moves ratings the
right way, partners move together, ties are ties, and games are counted."""

from __future__ import annotations

import random

import pytest

from app.domain.rating import UNRATED, rate, teams_of
from app.domain.records import Skill, Standing


def test_the_winner_goes_up_and_the_loser_down() -> None:
    after = rate({}, [Standing("a", None, 12), Standing("b", None, 0)])
    assert after["a"].mu > UNRATED.mu > after["b"].mu
    assert after["a"].sigma < UNRATED.sigma and after["a"].games == after["b"].games == 1
    assert after["a"].ordinal == pytest.approx(after["a"].mu - 3 * after["a"].sigma)


def test_a_tie_leaves_equal_players_equal() -> None:
    after = rate({}, [Standing("a", None, 5), Standing("b", None, 5)])
    assert after["a"].mu == pytest.approx(UNRATED.mu) and after["b"].mu == pytest.approx(UNRATED.mu)
    assert after["a"].games == after["b"].games == 1


def test_draws_do_not_raise_both_ordinals() -> None:
    """Rating farming: the model narrows sigma after a draw too, which raised both players'
    conservative ratings; a draw now moves mu only, so two accounts drawing gain nothing."""
    skills = {"a": UNRATED, "b": UNRATED}
    for _ in range(5):
        skills = rate(skills, [Standing("a", None, 5), Standing("b", None, 5)])
    assert skills["a"].ordinal <= UNRATED.ordinal + 1e-9 and skills["b"].ordinal <= UNRATED.ordinal + 1e-9
    strong = rate({"a": UNRATED}, [Standing("a", None, 9), Standing("c", None, 0)])["a"]
    drawn = rate({"a": strong, "d": UNRATED}, [Standing("a", None, 4), Standing("d", None, 4)])
    assert drawn["a"].mu < strong.mu and drawn["d"].mu > UNRATED.mu  # toward each other
    assert drawn["a"].sigma == strong.sigma


def test_partners_are_one_team() -> None:
    standings = [Standing("a", 0, 20), Standing("b", 1, 3), Standing("c", 0, 20), Standing("d", 1, 3)]
    assert teams_of(standings) == [[0, 2], [1, 3]]
    after = rate({}, standings)
    assert after["a"].mu == pytest.approx(after["c"].mu) and after["b"].mu == pytest.approx(after["d"].mu)
    assert after["a"].mu > UNRATED.mu > after["b"].mu


def test_ranks_follow_the_totals_among_many() -> None:
    after = rate({}, [Standing("a", None, 1), Standing("b", None, 9), Standing("c", None, 5)])
    assert after["b"].mu > after["c"].mu > after["a"].mu


def test_more_wins_against_the_same_opponent_rate_higher() -> None:
    rng = random.Random(5)
    for _ in range(20):
        wins = rng.randint(0, 6)
        losses = rng.randint(0, 6)
        if wins == losses:
            continue
        ratings: dict[str, Skill] = {}
        results = ["a"] * wins + ["b"] * losses
        rng.shuffle(results)
        for winner in results:
            loser = "b" if winner == "a" else "a"
            ratings = rate(ratings, [Standing(winner, None, 10), Standing(loser, None, 2)])
        assert (ratings["a"].ordinal > ratings["b"].ordinal) == (wins > losses)
        assert ratings["a"].games == ratings["b"].games == wins + losses


def test_a_player_in_two_seats_or_a_lone_team_is_refused() -> None:
    with pytest.raises(ValueError):
        rate({}, [Standing("a", None, 1), Standing("a", None, 2)])
    with pytest.raises(ValueError):
        rate({}, [Standing("a", 0, 1), Standing("b", 0, 2)])


def _shown(s: Skill) -> int:
    """A rating as the pages show it: 1500 + 40 x the ordinal."""
    return round(1500 + 40 * s.ordinal)


def test_a_rating_is_uncertain_while_each_match_still_moves_it_a_lot() -> None:
    """The first matches move a rating a lot (the estimate firms up): the rating says it is
    uncertain then, in every rating the server sends, and stops once the moves are modest."""
    me = UNRATED
    assert me.uncertain and me.to_json()["uncertain"] is True
    first = rate({}, [Standing("a", None, 12), Standing("b", None, 0)])
    assert _shown(first["a"]) - _shown(UNRATED) > 100 and _shown(first["b"]) - _shown(UNRATED) < -50
    assert first["a"].to_json()["uncertain"] is True and first["b"].to_json()["uncertain"] is True
    moves = []
    n = 0
    while me.uncertain:  # one new opponent after another, won and lost in turn
        n += 1
        won = n % 2 == 1
        after = rate({"me": me}, [Standing("me", None, 9 if won else 0), Standing(f"o{n}", None, 0 if won else 9)])
        moves.append(abs(_shown(after["me"]) - _shown(me)))
        me = after["me"]
    assert 10 <= n <= 20, n  # about a player's first dozen matches
    assert min(moves) >= 50 and me.to_json()["uncertain"] is False
    after = rate({"me": me}, [Standing("me", None, 9), Standing("new", None, 0)])["me"]
    assert abs(_shown(after) - _shown(me)) < 90 and not after.uncertain
