"""Take-backs (`take_backs`): undoing your own last move of this turn while it revealed nothing.

The rule (docs/rules.md): a move may be taken back while the turn goes on and the move showed
nothing hidden — no pay-off card turned up, no card drawn, no stack completed (a completion
shuffles the stock), no redeal — and nobody else has acted (a move that ends the turn can never
be taken back). A take-back is itself a move (`take_back`) and restores the position before the
move exactly; several take-backs in a row walk back through the turn, at most `MAX_TAKE_BACKS`
a turn, so a turn (and so a hand) still ends.

`play.apply` calls `before_move` and `after_move` around every move; `take_back` restores.
The snapshots hold only this turn's positions, so restoring one reveals nothing either.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import GameState

MAX_TAKE_BACKS = 5
"""Take-backs a player may make in one turn."""

@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a move that reveals nothing can change (such a move never uses the stream)."""

    payoff: list[list[int]]
    hands: list[list[int]]
    side: list[list[list[int]]]
    centre: list[list[int]]
    counters: tuple[int, int, int, bool, int, int, bool, bool]  # plays, centre, discards, since redeal, low,
    # stale, block, off centre
    moved: list[int]


def snapshot(g: GameState) -> Snapshot:
    return Snapshot(
        [p[:] for p in g.payoff], [h[:] for h in g.hands], [[st[:] for st in sides] for sides in g.side],
        [st[:] for st in g.centre],
        (g.turn_plays, g.turn_centre, g.turn_discards, g.payoff_since_redeal, g.payoff_low, g.stale_refills,
         g.block, g.off_centre),
        g.moved[:],
    )


def restore(g: GameState, snap: Snapshot) -> None:
    """Put `g` back into the snapshot's position (the snapshot stays untouched)."""
    g.payoff = [p[:] for p in snap.payoff]
    g.hands = [h[:] for h in snap.hands]
    g.side = [[st[:] for st in sides] for sides in snap.side]
    g.centre = [st[:] for st in snap.centre]
    (g.turn_plays, g.turn_centre, g.turn_discards, g.payoff_since_redeal, g.payoff_low,
     g.stale_refills, g.block, g.off_centre) = snap.counters
    g.moved = snap.moved[:]


def can_take_back(g: GameState) -> bool:
    """Whether `take_back` is legal now (the engine lists it in `legal_moves` exactly then)."""
    return bool(g.opts.take_backs and g.undo and g.take_backs_used < MAX_TAKE_BACKS and g.outcome is None)


def before_move(g: GameState) -> Snapshot | None:
    """Called before a move is applied: the position to return to, if take-backs are on."""
    g.revealing = False
    return snapshot(g) if g.opts.take_backs else None


def after_move(g: GameState, snap: Snapshot | None, turn_before: int) -> None:
    """Called after a move: keep the snapshot if the move may be taken back, else forget the
    turn's snapshots (nothing before a revealing move may be taken back either)."""
    if snap is None:
        return
    if g.revealing or g.outcome is not None or g.turn != turn_before:
        g.undo = []
    else:
        g.undo = g.undo + [snap]


def take_back(g: GameState) -> None:
    """Undo the last move of this turn (the caller has checked `can_take_back`)."""
    snap = g.undo[-1]
    g.undo = g.undo[:-1]
    restore(g, snap)
    g.take_backs_used += 1
    if g.events is not None:
        g.emit({"type": "take_back", "seat": g.turn})
