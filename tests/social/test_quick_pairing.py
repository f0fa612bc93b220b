"""The quick-match pairing rules: a pure function of the tickets and the time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from app.social.core.quick_pairing import MatchRules, Ticket, pair, seat_order, window

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
RULES = MatchRules(window=5.0, widen=0.5, bot_seconds=30.0, gone_seconds=30.0)


def tk(name: str, ordinal: float = 0.0, *, waited: float = 0.0, seats: int = 2, rated: bool = False,
       bots: bool = True, online: bool = True) -> Ticket:
    return Ticket(f"t-{name}", name, seats, rated, bots, ordinal, T0 - timedelta(seconds=waited), online)


def names(tables: list) -> list[list[str | None]]:  # type: ignore[type-arg]
    return [[t.player_id if t else None for t in table.seating] for table in tables]


def test_close_ratings_pair_at_once_and_far_ones_wait_until_the_window_has_widened() -> None:
    assert names(pair([tk("a", 10), tk("b", 14)], T0, RULES, set()).tables) == [["a", "b"]]
    far = [tk("a", 10), tk("b", 30)]
    assert pair(far, T0, RULES, set()).tables == []
    # Both must have waited long enough: 20 points need (20 - 5) / 0.5 = 30 s from each.
    assert pair([tk("a", 10, waited=40, bots=False), tk("b", 30, waited=10)], T0, RULES, set()).tables == []
    assert names(pair([tk("a", 10, waited=31), tk("b", 30, waited=31)], T0, RULES, set()).tables) == [["a", "b"]]
    assert window(tk("a", waited=10), T0, RULES) == 10.0


def test_the_oldest_ticket_is_served_first_with_the_nearest_rating() -> None:
    tickets = [tk("new", 0, waited=1), tk("old", 3, waited=9), tk("near", 4, waited=2)]
    assert names(pair(tickets, T0, RULES, set()).tables) == [["old", "near"]]


def test_blocked_players_never_sit_together_whatever_the_wait() -> None:
    tickets = [tk("a", 0, waited=1000, bots=False), tk("b", 0, waited=1000, bots=False)]
    assert pair(tickets, T0, RULES, {frozenset(("a", "b"))}).tables == []
    tickets.append(tk("c", 0, waited=5, bots=False))
    assert names(pair(tickets, T0, RULES, {frozenset(("a", "b"))}).tables) == [["a", "c"]]


def test_kinds_do_not_mix_and_a_player_never_meets_themself() -> None:
    tickets = [tk("a", seats=2), tk("b", seats=4), tk("c", rated=True), tk("d", seats=4, rated=True)]
    assert pair(tickets, T0, RULES, set()).tables == []
    same = [Ticket("t1", "a", 2, False, False, 0, T0, True), Ticket("t2", "a", 2, False, False, 0, T0, True)]
    assert pair(same, T0, RULES, set()).tables == []


def test_bots_fill_an_unrated_table_after_the_wait_if_the_player_allows() -> None:
    assert pair([tk("a", waited=29)], T0, RULES, set()).tables == []
    assert names(pair([tk("a", waited=30)], T0, RULES, set()).tables) == [["a", None]]
    assert pair([tk("a", waited=300, bots=False)], T0, RULES, set()).tables == []
    assert pair([tk("a", waited=300, rated=True)], T0, RULES, set()).tables == []
    # Four seats: the two who fit sit, bots take the rest; one who refuses bots is left waiting.
    four = [tk("a", 0, waited=31, seats=4), tk("b", 1, waited=2, seats=4), tk("c", 2, waited=2, seats=4, bots=False)]
    tables = pair(four, T0, RULES, set()).tables
    assert len(tables) == 1 and sorted(p or "-" for p in names(tables)[0]) == ["-", "-", "a", "b"]


def test_four_seats_make_partnerships_strongest_with_weakest() -> None:
    tickets = [tk("a", 10), tk("b", 9), tk("c", 8), tk("d", 7)]
    seating = names(pair([tk(t.player_id, t.ordinal, seats=4) for t in tickets], T0, RULES, set()).tables)
    assert seating == [["a", "b", "d", "c"]]  # seats 0 and 2 (a, d) against 1 and 3 (b, c)
    assert [t.player_id if t else None for t in seat_order([tickets[0], None, tickets[1], None])] == \
        ["a", "b", None, None]


def test_a_ticket_whose_player_left_is_cancelled() -> None:
    p = pair([tk("a", waited=31, online=False), tk("b", waited=31, online=False)], T0, RULES, set())
    assert p.tables == [] and {t.player_id for t in p.gone} == {"a", "b"}
    assert pair([tk("a", waited=5, online=False)], T0, RULES, set()).gone == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.floats(-20, 40), st.floats(0, 120), st.sampled_from([2, 4]),
                          st.booleans(), st.booleans()), max_size=14),
       st.sets(st.frozensets(st.integers(0, 9).map(str), min_size=2, max_size=2), max_size=6))
def test_no_ticket_twice_every_pair_fits_and_no_blocked_pair(raw, blocked) -> None:  # type: ignore[no-untyped-def]
    tickets = [Ticket(f"t{i}", str(p), s, r, b, o, T0 - timedelta(seconds=w), True)
               for i, (p, o, w, s, r, b) in enumerate(raw)]
    result = pair(tickets, T0, RULES, blocked)
    seen: list[str] = []
    for table in result.tables:
        people = table.tickets
        seen += [t.id for t in people]
        assert len(table.seating) == table.seats and all(t.seats == table.seats and t.rated == table.rated
                                                          for t in people)
        assert len({t.player_id for t in people}) == len(people)
        for a in people:
            for b in people:
                if a is not b:
                    assert frozenset((a.player_id, b.player_id)) not in blocked
                    gap = abs(a.ordinal - b.ordinal)
                    assert gap <= window(a, T0, RULES) and gap <= window(b, T0, RULES)
        if len(people) < table.seats:
            assert not table.rated and all(t.bots for t in people)
    assert len(seen) == len(set(seen))
