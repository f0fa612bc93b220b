"""The goals steps are made of.

`MoveGoal` accepts the learner's legal moves that `wanted` says serve the step and refuses
the others with its `miss` reason (a catalogue key `lesson.miss.<name>`, filled from the
table); the step is done when `until` holds (by default: after one accepted move). The
predicates below name the moves a lesson asks for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.engine import Game, Move
from app.engine.moves import CENTRE, DISCARD, END_TURN, HAND, PAYOFF, PLAY, SIDE, parse_pile

from .model import LEARNER, Params, Why, no_params

Wanted = Callable[[Game, Move], bool]
Until = Callable[[Game, Game, Sequence[Move]], bool]


def one_move(start: Game, now: Game, moves: Sequence[Move]) -> bool:
    return len(moves) >= 1


def hand_over(start: Game, now: Game, moves: Sequence[Move]) -> bool:
    return now.outcome is not None


def moves_made(n: int) -> Until:
    """Done after `n` accepted moves of the learner."""
    def until(start: Game, now: Game, moves: Sequence[Move]) -> bool:
        return len(moves) >= n
    return until


def turn_over(start: Game, now: Game, moves: Sequence[Move]) -> bool:
    """Done once the learner's turn has ended (or the hand)."""
    return now.turn != LEARNER or now.outcome is not None


def played_from(source: str) -> Until:
    """Done once a card went from `source` (a zone: payoff, hand, side) to the centre."""
    def until(start: Game, now: Game, moves: Sequence[Move]) -> bool:
        return any(m.kind == PLAY and zone(m.src) == source for m in moves) or now.outcome is not None
    return until


@dataclass(frozen=True)
class MoveGoal:
    """Moves `wanted` serves; others are refused with `lesson.miss.<miss>`."""

    wanted: Wanted
    miss: str
    until: Until = one_move
    miss_params: Params = no_params

    def accepts(self, game: Game, move: Move) -> Why | None:
        if self.wanted(game, move):
            return None
        return f"lesson.miss.{self.miss}", self.miss_params(game)

    def done(self, start: Game, now: Game, moves: Sequence[Move]) -> bool:
        return self.until(start, now, moves)


def zone(pile: str | None) -> str | None:
    return parse_pile(pile).zone if pile else None


def any_move(game: Game, move: Move) -> bool:
    return True


def plays_from(*zones: str) -> Wanted:
    """A play from one of `zones` (hand, payoff, side) to a centre stack."""
    def wanted(game: Game, move: Move) -> bool:
        return move.kind == PLAY and zone(move.src) in zones and zone(move.dst) == CENTRE
    return wanted


def is_discard(game: Game, move: Move) -> bool:
    return move.kind == DISCARD and zone(move.dst) == SIDE


plays_payoff = plays_from(PAYOFF)
plays_hand = plays_from(HAND)
plays_side = plays_from(SIDE)


def to_centre(move: Move) -> bool:
    return move.kind == PLAY and zone(move.dst) == CENTRE


def centre_play(game: Game, move: Move) -> bool:
    """Any play to a centre stack."""
    return to_centre(move)


def plays_ace(game: Game, move: Move) -> bool:
    """A real Ace to the centre (it starts a stack)."""
    return to_centre(move) and move.card is not None and game.deck.rank[move.card] == 1 \
        and not game.deck.wild[move.card]


def plays_wild(game: Game, move: Move) -> bool:
    """A wild card to the centre (it stands for the rank the stack needs)."""
    return to_centre(move) and move.card is not None and game.deck.wild[move.card]


def completes_stack(game: Game, move: Move) -> bool:
    """A play that brings a centre stack to the top rank (Queen, or King when kings aren't wild)."""
    return to_centre(move) and len(game.centre[parse_pile(move.dst or "").slot]) + 1 == game.top


def discards_on_a_card(game: Game, move: Move) -> bool:
    """A discard onto one of the learner's side stacks that already holds cards."""
    return is_discard(game, move) and bool(game.side[LEARNER][parse_pile(move.dst or "").slot])


def ends_turn(game: Game, move: Move) -> bool:
    return move.kind == END_TURN


def discards_card(code: str) -> Wanted:
    """A discard of the card `code` (to any side stack)."""
    def wanted(game: Game, move: Move) -> bool:
        return is_discard(game, move) and move.card is not None and game.deck.code(move.card) == code
    return wanted


def fed_card(game: Game, move: Move) -> int | None:
    """The other player's pay-off top card a centre play would let them play next (the stack
    it goes on then needs exactly that card's rank), or None. Wild tops fit anywhere anyway."""
    if not to_centre(move):
        return None
    needs = len(game.centre[parse_pile(move.dst or "").slot]) + 2
    for seat in range(game.n):
        pile = game.payoff[seat]
        if seat != LEARNER and pile and not game.deck.wild[pile[-1]] and game.deck.rank[pile[-1]] == needs:
            return pile[-1]
    return None


def not_feeding(game: Game, move: Move) -> bool:
    return fed_card(game, move) is None


def fed_param(game: Game) -> dict[str, Any]:
    """The other player's pay-off top card, as `{card:card}`."""
    return card_param(game, game.payoff[1 - LEARNER][-1])


def either(*options: Wanted) -> Wanted:
    def wanted(game: Game, move: Move) -> bool:
        return any(w(game, move) for w in options)
    return wanted


def both(*options: Wanted) -> Wanted:
    def wanted(game: Game, move: Move) -> bool:
        return all(w(game, move) for w in options)
    return wanted


def first_wanted(game: Game, wanted: Wanted) -> Move:
    """The first legal move `wanted` serves (a step's solution)."""
    for move in game.legal_moves():
        if wanted(game, move):
            return move
    raise ValueError("no legal move serves this step")


def solver(wanted: Wanted) -> Callable[[Game], Move]:
    return lambda game: first_wanted(game, wanted)


def prefer(*options: Wanted) -> Callable[[Game], Move]:
    """A solution that takes the first option any legal move serves, in order."""
    def solve(game: Game) -> Move:
        legal = game.legal_moves()
        for wanted in options:
            for move in legal:
                if wanted(game, move):
                    return move
        raise ValueError("no legal move serves this step")
    return solve


def card_param(game: Game, card: int) -> dict[str, Any]:
    """A card as a catalogue `{card:card}` parameter (its code, e.g. 'QH')."""
    return {"card": game.deck.code(card)}


def payoff_top(game: Game) -> dict[str, Any]:
    """The learner's pay-off top card, as `{card:card}`."""
    return card_param(game, game.payoff[LEARNER][-1])


def side_top(game: Game) -> dict[str, Any]:
    """The top card of the learner's first side stack that holds cards, as `{card:card}`."""
    stack = next(st for st in game.side[LEARNER] if st)
    return card_param(game, stack[-1])


def fixed(**params: Any) -> Params:
    """Parameters that do not depend on the table."""
    return lambda game: dict(params)
