"""Achievements, pure: what a hand that just ended (and, at its end, the match) earned each
person at the table, judged from the engine's record of the match (options, each hand's seed
and moves, the scores) and who sat where. Bots earn nothing. The store keeps each player's
first of each (`app.store.repositories.awards`), written with the move that earned it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.domain.records import Earned
from app.engine import Game, Match, MatchStatus
from app.rooms.core.hand_tally import HandFacts, Tally, before, count, finished
from app.rooms.core.model import SeatInfo

__all__ = ["BY_KEY", "CATALOG", "TOURNAMENT_KINDS", "HandFacts", "earned", "hand_facts"]


@dataclass(frozen=True, slots=True)
class Kind:
    key: str
    name: str
    description: str


CATALOG: tuple[Kind, ...] = (  # what a hand or a match earns
    Kind("first_hand", "Off the mark", "Win a hand."),
    Kind("first_win", "First victory", "Win a match."),
    Kind("no_side_stack", "Straight from the hand", "Win a hand without playing a card from your side stacks."),
    Kind("long_haul", "The long haul", "Win a hand by emptying a pay-off pile of 30 cards."),
    Kind("comeback", "Comeback", "Win a hand after being 10 or more pay-off cards behind."),
    Kind("on_a_roll", "On a roll", "Play 5 pay-off cards in a single turn."),
    Kind("kings_ransom", "King's ransom", "Complete a centre stack with a card from a pay-off pile."),
    Kind("partnership_win", "Better together", "Win a partnership match."),
    Kind("giant_slayer", "Giant slayer", "Win a match against a Hard bot."),
    Kind("rated_win", "On the ladder", "Win a rated match."),
    Kind("full_table", "Full table", "Win a match of 4 or more players without partners."),
    Kind("clean_sweep", "Clean sweep", "Win every hand of a match of at least 3 hands."),
    Kind("marathon", "Marathon", "Win a match played to 100 points or more."),
)
# Granted by the tournaments' runner when a tournament ends (app/tournaments/shell/notices.py),
# never by a hand or a match (`earned`).
TOURNAMENT_KINDS: tuple[Kind, ...] = (
    Kind("first_tournament", "In the draw", "Play a tournament to its end."),
    Kind("tournament_won", "Champion", "Win a tournament."),
)
BY_KEY = {k.key: k for k in CATALOG + TOURNAMENT_KINDS}
COMEBACK_CARDS = 10
ROLL_CARDS = 5
LONG_HAUL_CARDS = 30
SWEEP_HANDS = 3
MARATHON_TARGET = 100
FULL_TABLE = 4


def hand_facts(match: Match, number: int) -> HandFacts:
    """Replay hand `number` (1-based; it must be over) and collect its facts (the live match
    keeps them as it goes instead: `hand_tally`)."""
    record = match.hands[number - 1]
    g = Game.deal(match.options, record.seed, record.order)
    tally = Tally.start(g.n, 0)
    for mv in record.moves:
        b = before(g, mv)
        g.apply(mv, check=False)  # the engine checked every recorded move when it was made
        count(tally, b, g, 0)
    if g.outcome is None:
        raise ValueError(f"hand {number} is not over")
    return finished(tally, g)


def _hand_keys(match: Match, facts: HandFacts, seat: int) -> list[str]:
    keys = []
    won = seat in facts.winners
    if won:
        keys.append("first_hand")
        if facts.side_plays[seat] == 0:
            keys.append("no_side_stack")
        if (facts.reason == "payoff_out" and match.options.payoff_size >= LONG_HAUL_CARDS
                and facts.payoff_left[seat] == 0):
            keys.append("long_haul")
        if facts.worst_deficit[seat] >= COMEBACK_CARDS:
            keys.append("comeback")
    if facts.best_roll[seat] >= ROLL_CARDS:
        keys.append("on_a_roll")
    if facts.payoff_completions[seat]:
        keys.append("kings_ransom")
    return keys


def _match_keys(match: Match, seats: Sequence[SeatInfo], seat: int, rated: bool) -> list[str]:
    if seat not in match.winners:
        return []
    opts = match.options
    keys = ["first_win"]
    if opts.teams == "pairs":
        keys.append("partnership_win")
    opponents = [i for i in range(opts.players) if opts.team_of(i) is None or opts.team_of(i) != opts.team_of(seat)]
    if any(seats[i].bot == "hard" for i in opponents if i != seat):
        keys.append("giant_slayer")
    if rated:
        keys.append("rated_win")
    if opts.players >= FULL_TABLE and opts.teams != "pairs":
        keys.append("full_table")
    scores = match.hand_scores
    if len(scores) >= SWEEP_HANDS and all(h[seat] > 0 and all(h[o] == 0 for o in opponents if o != seat)
                                          for h in scores):
        keys.append("clean_sweep")
    if opts.match_target is not None and opts.match_target >= MARATHON_TARGET:
        keys.append("marathon")
    return keys


def earned(match: Match, seats: Sequence[SeatInfo], *, rated: bool = False,
           facts: HandFacts | None = None) -> list[Earned]:
    """Every achievement the hand that just ended (and the match, if it is over) earned the
    people at the table, in seat order (the store keeps only each player's first). `facts`:
    the hand's, if kept as it was played (else the hand is replayed)."""
    if match.status not in (MatchStatus.HAND_OVER, MatchStatus.MATCH_OVER):
        return []
    if facts is None:
        facts = hand_facts(match, len(match.hands))
    out = []
    for seat, who in enumerate(seats):
        if who.player_id is None or who.bot is not None:
            continue
        keys = _hand_keys(match, facts, seat)
        if match.status == MatchStatus.MATCH_OVER:
            keys += _match_keys(match, seats, seat, rated)
        out += [Earned(seat, who.player_id, key) for key in keys]
    return out
