"""Pure helpers that read a position the way a player at the table does.

They read only public zones (centre, side stacks, pay-off tops, counts) and, where a
function says so, the hand of the seat it is asked about. They never read another
player's hand, the stock or a pay-off pile below its top, so planners built on them stay
honest on a template game (see `knowledge.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.state import GameState

# Chance that a player who lacks `m` cards of a bridge to a pay-off card finds them all in
# a fresh hand of five (rough figures for two decks with eight wilds; used as weights).
REACH_CHANCE: tuple[float, ...] = (1.0, 0.5, 0.22, 0.08, 0.03, 0.01)
FAR = 99


def needs(g: GameState) -> list[int]:
    """The rank each centre stack wants next; an empty slot (a new stack) wants an Ace."""
    out = [len(st) + 1 for st in g.centre]
    if g.opts.centre_stacks is None and (not out or out[-1] != 1):
        out.append(1)
    return out


def side_ranks(g: GameState, seat: int) -> tuple[set[int], int]:
    """Ranks a seat can reach from its side stacks this turn, and how many wilds.

    From each stack: the top card, and below it any run that climbs by one (a 5 on a 6
    on a 7 can be played 5, 6, 7). A wild on top counts as a wild.
    """
    return stacks_ranks(g, g.side[seat])


def stacks_ranks(g: GameState, stacks: Sequence[Sequence[int]]) -> tuple[set[int], int]:
    """`side_ranks` of any side stacks (e.g. as another seat sees them, tops only)."""
    rank = g.deck.rank
    wild = g.deck.wild
    ranks: set[int] = set()
    wilds = 0
    for st in stacks:
        if not st:
            continue
        c = st[-1]
        if wild[c]:
            wilds += 1
            continue
        r = rank[c]
        ranks.add(r)
        for i in range(len(st) - 2, -1, -1):
            b = st[i]
            if wild[b] or rank[b] != r + 1:
                break
            r += 1
            ranks.add(r)
    return ranks, wilds


def hand_ranks(g: GameState, seat: int) -> tuple[set[int], int]:
    """Ranks in the seat's own hand (non-wild) and how many wilds it holds."""
    rank = g.deck.rank
    wild = g.deck.wild
    ranks: set[int] = set()
    wilds = 0
    for c in g.hands[seat]:
        if wild[c]:
            wilds += 1
        else:
            ranks.add(rank[c])
    return ranks, wilds


def missing_to(g: GameState, card: int, have: set[int], wilds: int,
               stack_needs: list[int] | None = None) -> int:
    """How many cards are still missing to play `card` to the centre, given ranks `have`
    and `wilds` to bridge with (0: it can go now; FAR: no stack can lead to it)."""
    if g.deck.wild[card]:
        return 0
    return missing_to_rank(g, g.deck.rank[card], have, wilds, stack_needs)


def missing_to_rank(g: GameState, target: int, have: set[int], wilds: int,
                    stack_needs: Sequence[int] | None = None) -> int:
    """`missing_to` for a (non-wild) rank rather than a card."""
    wild_ok = g.wild_ok
    best = FAR
    for need in (stack_needs if stack_needs is not None else needs(g)):
        if need > target:
            continue
        m = 0
        w = wilds
        for r in range(need, target):
            if r in have:
                continue
            if w and wild_ok[r]:
                w -= 1
                continue
            m += 1
            if m >= best:
                break
        if m < best:
            best = m
            if m == 0:
                break
    return best


def team_public(g: GameState, seat: int) -> tuple[set[int], int]:
    """Side-stack ranks and wilds the seat's team can reach (partner's stacks included)."""
    ranks: set[int] = set()
    wilds = 0
    for p in g.team_seats[seat]:
        r, w = side_ranks(g, p)
        ranks |= r
        wilds += w
    return ranks, wilds


def threat(g: GameState, opponent: int, stack_needs: list[int] | None = None) -> float:
    """Chance-like weight that `opponent`'s team plays its pay-off top on its next turn,
    from what the table shows (its hand is unknown: each missing card is a guess)."""
    sn = stack_needs if stack_needs is not None else needs(g)
    ranks, wilds = team_public(g, opponent)
    best = FAR
    for p in g.team_seats[opponent]:
        pile = g.payoff[p]
        if pile:
            best = min(best, missing_to(g, pile[-1], ranks, wilds, sn))
    if best >= len(REACH_CHANCE):
        return 0.0
    return REACH_CHANCE[best]


def opponents_in_order(g: GameState, seat: int) -> list[int]:
    """Opponents of `seat` in the order they will play after it."""
    n = g.n
    opp = g.opponents[seat]
    return [(seat + i) % n for i in range(1, n) if (seat + i) % n in opp]
