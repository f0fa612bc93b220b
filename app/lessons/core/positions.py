"""Fixed positions, built through the engine: `table(...)` names every pile by card codes
('7H', 'KS', 'JK'; piles top last) and `Game.layout` deals exactly that (every other card of
the decks goes to the stock), so a lesson's table is a real, legal position of the game."""

from __future__ import annotations

from collections.abc import Sequence

from app.engine import Game, Move, Options
from app.engine.moves import DISCARD, HAND, PAYOFF, SIDE, parse_pile

from .model import Position

Codes = Sequence[str]

# The other seat's piles when they do not matter to the step.
THEIRS_PAYOFF = ["QS", "8S", "7D"]
THEIRS_HAND = ["2C", "4C", "8H", "10D", "JS"]
Scripted = tuple[str, str, str | None, str]  # (kind, card code, from pile, to pile)


def table(*, payoff: Sequence[Codes], hands: Sequence[Codes], side: Sequence[Sequence[Codes]] | None = None,
          centre: Sequence[Codes] = (), stock: Codes = (), turn: int = 0) -> Position:
    """A position maker for a two-seat lesson (seat 0 the learner, to move unless `turn`)."""
    def make(options: Options) -> Game:
        sides = side or [[[] for _k in range(options.side_stacks)] for _s in range(options.players)]
        padded = [list(s) + [[] for _k in range(options.side_stacks - len(s))] for s in sides]
        return Game.layout(options, payoff=payoff, hands=hands, side=padded, centre=centre, stock=stock,
                           turn=turn, seed="lesson")
    return make


def deal(seed: str) -> Position:
    """A real deal from `seed` (a friendly one, chosen for the lesson)."""
    def make(options: Options) -> Game:
        return Game.deal(options, seed)
    return make


def then(position: Position, *moves: Scripted) -> Position:
    """`position` after `moves`, played through the engine in turn (whoever is to move):
    a step that goes on from where an earlier step left the table after the other seat's turn.
    A move names its card by code, e.g. ("discard", "JD", None, "side:0:0")."""
    def make(options: Options) -> Game:
        game = position(options)
        for kind, code, src, dst in moves:
            game.apply(Move(kind, _card(game, code, src), None if kind == DISCARD else src, dst))
        return game
    return make


def _card(game: Game, code: str, src: str | None) -> int:
    """The id of the card `code` in the mover's hand (a discard, or a play from the hand) or on
    top of the pile `src`."""
    pile = parse_pile(src or HAND)
    if pile.zone == HAND:
        cards = game.hands[game.turn]
    elif pile.zone == PAYOFF:
        cards = game.payoff[pile.seat][-1:]
    elif pile.zone == SIDE:
        cards = game.side[pile.seat][pile.slot][-1:]
    else:
        cards = []
    for card in cards:
        if game.deck.code(card) == code:
            return card
    raise ValueError(f"no {code} at {src or HAND}")


RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def climb(top: int, suit: str = "S") -> list[str]:
    """A centre stack built from the Ace up to rank `top`, in one suit (bottom first)."""
    return [f"{RANKS[r]}{suit}" for r in range(top)]
