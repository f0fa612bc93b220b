"""Views: the only place hidden information is removed.

`view(match, seat)` is what one receiver may know (docs/rules.md, "What each player may
know"): every hand but the receiver's own is a count, pay-off piles show their top and count,
the stock is a count, and the seed stays secret until the hand is over. `seat=None` is a
spectator. `omniscient_view(match)` shows every card (for replays of finished matches).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .match import Match, MatchStatus
from .moves import shared_wire
from .options import options_json
from .state import GameState


def _cards(g: GameState, cards: list[int]) -> list[dict[str, Any]]:
    return [g.deck.json(c) for c in cards]


def _centre(g: GameState) -> list[list[dict[str, Any]]]:
    deck = g.deck
    return [
        [deck.json(c, i + 1 if deck.wild[c] else None) for i, c in enumerate(stack)]
        for stack in g.centre
    ]


def view(match: Match, seat: int | None,
         connected: Sequence[bool] | None = None) -> dict[str, Any]:
    """The JSON-ready view of the current hand for `seat` (None: a spectator).

    Card, move and options dicts inside may be shared between views: serialise, don't mutate."""
    g = match.game
    o = match.options
    over = match.status in (MatchStatus.HAND_OVER, MatchStatus.MATCH_OVER)
    players = []
    for s in range(g.n):
        pile = g.payoff[s]
        players.append({
            "seat": s,
            "name": match.names[s],
            "team": o.team_of(s),
            "hand_count": len(g.hands[s]),
            "payoff_count": len(pile),
            "payoff_top": g.deck.json(pile[-1]) if pile else None,
            "side": [_cards(g, st) for st in g.side[s]],
            "connected": bool(connected[s]) if connected is not None else None,
            "score": match.totals[s],
        })
    to_move = seat is not None and seat == g.turn and g.outcome is None
    out: dict[str, Any] = {
        "you": seat,
        "turn": g.turn,
        "status": match.status,
        "hand_number": len(match.hands),
        "first": g.first,
        "stock_count": len(g.stock),
        "set_aside_count": len(g.aside),
        "centre": _centre(g),
        "players": players,
        "hand": _cards(g, g.hands[seat]) if seat is not None else [],
        "legal_moves": [shared_wire(m) for m in g.legal_moves()] if to_move else [],
        "turn_info": {
            "plays": g.turn_plays,
            "centre_plays": g.turn_centre,
            "moved_side": list(g.moved),
            "passes": g.passes,
            "dry_turns": g.dry,
        },
        "result": _result(match) if over else None,
        "options": options_json(o),
        "deal_commitment": g.commitment,
        "totals": list(match.totals),
        "match_target": o.match_target,
    }
    return out


def _result(match: Match) -> dict[str, Any]:
    g = match.game
    assert g.outcome is not None
    out = g.outcome.to_json()
    out["totals"] = list(match.totals)
    out["seed"] = g.seed
    out["match_over"] = match.status == MatchStatus.MATCH_OVER
    out["match_winners"] = match.winners
    return out


def omniscient_view(match: Match) -> dict[str, Any]:
    """Every card face up: each player's `hand` and whole `payoff` (top last), the `stock`
    (top last) and the set-aside cards. For replays of finished matches only."""
    g = match.game
    out = view(match, None)
    out["legal_moves"] = [shared_wire(m) for m in g.legal_moves()]
    for s, p in enumerate(out["players"]):
        p["hand"] = _cards(g, g.hands[s])
        p["payoff"] = _cards(g, g.payoff[s])
    out["stock"] = _cards(g, g.stock)
    out["set_aside"] = _cards(g, g.aside)
    out["seed"] = g.seed
    return out
