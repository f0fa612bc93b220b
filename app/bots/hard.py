"""Hard: determinized (information-set) Monte Carlo search over whole turns.

1. The turn planner lists every distinct way to play out the rest of the turn on the
   seat's own knowledge (`Knowledge.template`), scored by Normal; the best line for each
   first move, and then the next best lines, become the candidates (at most `CANDIDATES`).
2. Each round samples the hidden cards anew (`Knowledge.determinize`: the other hands from the
   seat's belief about them, `belief.py`; pay-off piles below their tops and the stock
   uniformly from the rest of the cards the seat has not seen) and
   plays every candidate on that same sample (common random numbers): the line itself, the
   rest of the turn where the line stopped at a card it could not know yet, then every
   opponent's turn with a fast greedy policy (`rollout_turn`), until the seat is to move
   again. The position there is scored by the learned value (`value.search_leaf`: the seat's
   chance to win, from what it would see there), added to Normal's value of the line.
3. Each candidate is scored by its paired difference from Normal's choice on the same samples,
   summed over every sample (statistics shared across determinizations: one choice for the
   information set, never one per sampled world);
   candidates clearly worse than Normal's choice are dropped every few rounds. When the budget is
   spent, the candidate with the best mean difference is played if it beats Normal's choice by
   more than `CONFIDENCE` standard errors; otherwise Normal's choice is.

Only the view is read: the hidden cards of the search are samples (see `knowledge.py`).
A search is repeatable for a given seed and iteration budget; a time budget stops it early.
"""

from __future__ import annotations

import random
import time
from typing import Any

from app.engine import Game, Move
from app.engine.legal import centre_plays
from app.engine.moves import DISCARD, END_TURN, HAND, PAYOFF, PLAY, parse_pile

from . import normal
from .belief import Belief
from .knowledge import Knowledge
from .planner import WIN, Line, Plan, ends_turn, plan_turn
from .stats import STATS
from .tactics import opponents_in_order, side_ranks
from .turn_search import TurnPlans, finish_turn
from .value import search_leaf

DEFAULT_MS = 1000
MAX_MS = 1000
CANDIDATES = 8
MAX_ROLLOUT_MOVES = 400
PRUNE_EVERY = 8
CONFIDENCE = 0.5  # standard errors by which a departure from Normal must beat it
END_VALUE = 30 * 100.0  # a hand won or lost inside a rollout: worth thirty pay-off cards
OPP_CARD = 60.0  # what an opponent's pay-off card costs (the next opponent; later ones less)
NEXT_OWN = 50.0  # each pay-off card the team plays on its next turn (the search looks that far)
SETUP = 0.0  # a penalty on climbing plays that leave a centre stack wanting an opponent's pay-off
# rank (15 made Hard weaker at 200 ms: docs/bots.md); such a stack is never made just to empty a hand
OPP_MODEL = False  # opponents in the rollout closer to Normal (no set-ups at all, Normal's discards):
# it agrees with Normal's move 60 % of the time against 49 %, but made Hard weaker (docs/bots.md)
INFER = True  # sample the other hands from the belief (belief.py) rather than uniformly
VALUE_LEAF = True  # end each simulation when the seat is to move again and score it by the learned
# value (value.py), instead of playing the seat's next turn and counting pay-off cards
VALUE_SCALE = 1500.0  # a chance of winning of 1.0 in the units of Normal's scorer (a pay-off card: 100)
TURN_SEARCH = False  # where a line stops at a card it could not know, plan the rest of the turn on
# what the seat sees in that sampled world (turn_search.py) instead of the fast policy


def _discard(g: Game, discards: list[Move], rng: random.Random) -> Move:
    """The highest hand card, on a side stack that is empty or shows the same or higher."""
    deck = g.deck
    wild = deck.wild
    top = -1
    pick: list[Move] = []
    for m in discards:
        card = m[1]
        assert card is not None
        r = 0 if wild[card] else deck.rank[card]
        if r > top:
            top, pick = r, [m]
        elif r == top:
            pick.append(m)
    fitting = []
    for m in pick:
        dst = m[3]
        assert dst is not None
        st = g.side[g.turn][parse_pile(dst).slot]
        if not st or (not wild[st[-1]] and deck.rank[st[-1]] >= top):
            fitting.append(m)
    return rng.choice(fitting or pick)


def _danger(g: Game, seat: int) -> int:
    """Bit r set: a centre stack wanting rank r would let an opponent of `seat` play its
    pay-off top from its side stacks (the pay-off rank itself, and the run below it that its
    side stacks show)."""
    deck = g.deck
    bits = 0
    for p in g.opponents[seat]:
        pile = g.payoff[p]
        if not pile or deck.wild[pile[-1]]:
            continue
        t = deck.rank[pile[-1]]
        bits |= 1 << t
        ranks, _w = side_ranks(g, p)
        r = t - 1
        while r >= 1 and r in ranks:
            bits |= 1 << r
            r -= 1
        if r >= 1:
            bits |= 1 << r  # one card short: an even chance it is in the opponent's hand
    return bits


def rollout_move(g: Game, rng: random.Random, dump: bool = True, model: bool = False, fast: bool = False) -> Move:
    """The fast policy: a pay-off play if there is one, else a play that climbs toward a
    pay-off top of the team (non-wild first), else (when `dump`) a hand card to the centre;
    then the highest hand card discarded on a fitting side stack. As a `model` of an opponent
    who plays like Normal, it never leaves a centre stack wanting a rank that sets up one of
    its own opponents (`_danger`) and discards as Normal does. `fast`: look at the centre plays
    alone first (`legal.centre_plays`) and build every legal move only to close the turn; the
    choice is the same."""
    plays = centre_plays(g) if fast and g._legal is None else None
    moves = plays if plays is not None else g.legal_moves()
    seat = g.turn
    deck = g.deck
    wild = deck.wild
    targets: list[int] = []
    for p in g.team_seats[seat]:
        pile = g.payoff[p]
        if pile:
            targets.append(99 if wild[pile[-1]] else deck.rank[pile[-1]])
    # ranks that would let an opponent play its pay-off top next (Normal never sets one up)
    danger = _danger(g, seat) if model else 0
    opp_tops = 0
    for p in g.opponents[seat]:
        pile = g.payoff[p]
        if pile and not wild[pile[-1]]:
            opp_tops |= 1 << deck.rank[pile[-1]]
    best: Move | None = None
    best_score = -1.0e9
    discards: list[Move] = []
    end: Move | None = None
    for m in moves:
        kind, card, src, dst = m
        if kind == END_TURN:
            end = m
            continue
        if kind == DISCARD:
            discards.append(m)
            continue
        if kind != PLAY or card is None or dst is None:
            continue
        if src is not None and parse_pile(src).zone == PAYOFF:
            return m
        slot = parse_pile(dst).slot
        need = len(g.centre[slot]) + 1 if slot < len(g.centre) else 1
        is_wild = wild[card]
        score = -1.0e9
        for t in targets:
            if need < t:
                score = max(score, 20.0 - (t - need) - (6.0 if is_wild else 0.0))
        if danger >> (need + 1) & 1:
            continue  # never leave a stack wanting what an opponent can follow up to its pay-off card
        sets_up = opp_tops >> (need + 1) & 1  # the stack would want an opponent's pay-off rank
        if sets_up:
            score -= SETUP
        if score < -1.0e8 and dump and src == HAND and not is_wild and not sets_up:
            score = 5.0 - 0.1 * need
        if score < -1.0e8:
            continue
        score += rng.random()
        if score > best_score:
            best, best_score = m, score
    if best is not None:
        return best
    if plays is not None:  # no play wanted: close the turn from every legal move
        moves = g.legal_moves()
        discards = [m for m in moves if m[0] == DISCARD]
        end = next((m for m in moves if m[0] == END_TURN), None)
    if discards:
        if model:
            return max(discards, key=lambda m: normal.discard_value(g, seat, m) + 0.01 * rng.random())
        return _discard(g, discards, rng)
    if end is not None:
        return end
    return rng.choice(moves)


def rollout_turn(g: Game, rng: random.Random, budget: int, dump: bool = True, model: bool = False) -> int:
    """Play the current seat's turn to its end with the fast policy; returns moves used."""
    seat = g.turn
    used = 0
    while g.outcome is None and g.turn == seat and used < budget:
        m = rollout_move(g, rng, dump, model, fast=True)
        g.apply(m, check=g._legal is not None)  # unlisted: a centre play just read from `g`
        used += 1
    return used


def play_line(base: Game, line: Line, seat: int) -> Game:
    """A copy of `base` with as much of `line` played as the sampled world allows."""
    g = base.copy()
    for m in line.moves:
        if g.outcome is not None or g.turn != seat:
            break
        if not g.is_legal(m):  # a line never reaches a hidden card, but stay safe
            break
        g.apply(m)
    return g


def _own_rest(g: Game, seat: int, rng: random.Random, budget: int, plans: TurnPlans | None) -> int:
    """The rest of the seat's turn where its line stopped: planned again on what the seat sees
    in this world (`TURN_SEARCH`), or the fast policy toward the pay-off card."""
    used = finish_turn(g, seat, budget, plans) if plans is not None else 0
    if g.outcome is None and g.turn == seat and used < budget:
        used += rollout_turn(g, rng, budget - used, dump=False)
    return used


def simulate_value(base: Game, line: Line, seat: int, rng: random.Random,
                   plans: TurnPlans | None = None) -> float:
    """Play `line` on a determinized copy, finish the turn toward the pay-off card, play the
    opponents' turns greedily; the learned chance of winning there, as the seat sees it, in
    Normal's units (`VALUE_SCALE`)."""
    g = play_line(base, line, seat)
    budget = MAX_ROLLOUT_MOVES
    if g.outcome is None and g.turn == seat:
        budget -= _own_rest(g, seat, rng, budget, plans)
    while g.outcome is None and g.turn != seat and budget > 0:
        budget -= rollout_turn(g, rng, budget, model=OPP_MODEL)
    return VALUE_SCALE * search_leaf(g, seat)


def simulate(base: Game, line: Line, seat: int, rng: random.Random, plans: TurnPlans | None = None) -> float:
    """Play `line` on a determinized copy, finish the turn toward the pay-off card (no
    dumping), play the opponents' turns greedily; what the team paid off after the line,
    less what the opponents paid off."""
    if VALUE_LEAF:
        return simulate_value(base, line, seat, rng, plans)
    g = play_line(base, line, seat)
    budget = MAX_ROLLOUT_MOVES
    own = g.team_payoff(seat)
    if g.outcome is None and g.turn == seat:
        budget -= _own_rest(g, seat, rng, budget, plans)
    gain = normal.PAYOFF * (own - g.team_payoff(seat))
    order = opponents_in_order(g, seat)
    before = [len(g.payoff[o]) for o in order]
    while g.outcome is None and g.turn != seat and budget > 0:
        budget -= rollout_turn(g, rng, budget, model=OPP_MODEL)
    after = [len(g.payoff[o]) for o in order]
    if NEXT_OWN and g.outcome is None and g.turn == seat:
        mine = g.team_payoff(seat)
        rollout_turn(g, rng, budget, dump=False)
        gain += NEXT_OWN * (mine - g.team_payoff(seat))
    if g.outcome is not None:
        if seat in g.outcome.winners:
            return END_VALUE
        if g.outcome.winners:
            return -END_VALUE
    cost = 0.0
    weight = 1.0
    for b, c in zip(before, after, strict=True):
        cost += OPP_CARD * weight * (b - c)
        weight *= normal.THREAT_DECAY
    return gain - cost


def prior(template: Game, line: Line, seat: int) -> float:
    """Normal's value of `line` without its guess at the opponents' chances (the search
    measures those instead)."""
    g = template.copy()
    for m in line.moves:
        if g.outcome is not None or g.turn != seat or m[0] == END_TURN or ends_turn(g, m):
            break
        g.apply(m)
    return line.value + (normal.threat_penalty(g, seat) if g.outcome is None else 0.0)


def candidates(plan: Plan, limit: int = CANDIDATES) -> list[Line]:
    """The best line of each first move, best first, topped up with the next best lines."""
    ordered = sorted(plan.lines, key=lambda ln: -ln.value)
    out: list[Line] = []
    firsts: set[Move] = set()
    for ln in ordered:
        if ln.moves[0] not in firsts:
            firsts.add(ln.moves[0])
            out.append(ln)
    out = out[:limit]
    for ln in ordered:
        if len(out) >= limit:
            break
        if all(ln is not o for o in out):
            out.append(ln)
    return out


def search(view: dict[str, Any], know: Knowledge, *, seed: int | None = None,
           budget_ms: int | None = None, max_iterations: int | None = None) -> tuple[Move, Plan]:
    """Choose a move for the view's seat. `budget_ms` (default and cap 1000 ms) bounds the
    time; `max_iterations` bounds the number of candidate simulations (for repeatable tests)."""
    start = time.perf_counter()
    ms = min(MAX_MS, budget_ms if budget_ms is not None else DEFAULT_MS)
    deadline = start + ms / 1000.0
    plan = plan_turn(know.template, normal.SCORER, normal.MAX_NODES)
    if not plan.lines:
        return Move.from_wire(view["legal_moves"][0]), plan
    pool = candidates(plan)
    won = [ln for ln in pool if ln.how == "over" and ln.value >= WIN]
    if won or len(pool) == 1:
        return (won or pool)[0].moves[0], plan
    rng = random.Random(seed if seed is not None else 0)
    plans = TurnPlans() if TURN_SEARCH else None
    belief = Belief.from_view(view, know.template, know.seat) if INFER else None
    base = [prior(know.template, ln, know.seat) for ln in pool]
    # Paired differences against Normal's own choice (pool[0]) on the same samples: another
    # line is played only when it is better by more than the noise (`CONFIDENCE` standard errors).
    alive = list(range(1, len(pool)))
    n = 0
    sums = [0.0] * len(pool)
    squares = [0.0] * len(pool)
    iterations = 0
    while alive:
        sample = know.template.copy()
        know.determinize(sample, rng, belief)
        round_seed = rng.getrandbits(32)
        ref = base[0] + simulate(sample, pool[0], know.seat, random.Random(round_seed), plans)
        iterations += 1
        for i in alive:
            d = base[i] + simulate(sample, pool[i], know.seat, random.Random(round_seed), plans) - ref
            sums[i] += d
            squares[i] += d * d
            iterations += 1
        n += 1
        if max_iterations is not None and iterations >= max_iterations:
            break
        if max_iterations is None and time.perf_counter() >= deadline:
            break
        if n % PRUNE_EVERY == 0:
            alive = [i for i in alive if _upper(sums[i], squares[i], n) > 0]
    best, best_mean = 0, 0.0
    for i in alive:
        mean, se = _mean_se(sums[i], squares[i], n)
        if mean - CONFIDENCE * se > 0 and mean > best_mean:
            best, best_mean = i, mean
    STATS.add(iterations, time.perf_counter() - start, pool[best].moves[0] != pool[0].moves[0])
    return pool[best].moves[0], plan


def _upper(total: float, squares: float, n: int) -> float:
    """Two standard errors above the mean: below zero, a line is clearly worse."""
    mean, se = _mean_se(total, squares, n)
    return mean + 2 * se


def _mean_se(total: float, squares: float, n: int) -> tuple[float, float]:
    """Mean and standard error of `n` values from their sum and sum of squares."""
    if n == 0:
        return 0.0, float("inf")
    mean = total / n
    var = max(0.0, squares / n - mean * mean)
    return mean, (var / max(1, n - 1)) ** 0.5
