"""Hidden information: the one place that decides who may know which card.

docs/rules.md ("What each player may know") is the rule; this module is its only
implementation, after OpenSpiel's observer: the engine state holds everything, and every
path by which a card, a seed or a result leaves the engine asks here first.

- `view(match, seat)`: what one receiver (None: a spectator) may know of the current hand:
  its own hand, every pay-off top and count, side stacks (every card, or under
  `side_stacks_shown=squared`/`peek` each stack's top card and its count; under `peek` the
  receiver's own stacks whole, in `own_side`), centre; other hands and the stock
  as counts; the result (with the hand's seed) only once the hand is over. It is
  `shared_view(match)` (the same for every receiver) joined with `own_view(match, seat)` (`you`,
  `hand`, `own_side`, `legal_moves`): split views send the two parts.
- `omniscient_view(match)`: every card face up, for replays; `replay_open(status)` says when.
- `events_for(events, seat)` / `events_same_for_all(events)`: the animation events a receiver
  may see, by an allow-list of event types (`EVENT_RULES`).
- `seed_revealed(status)` / `seed_if_over(seed, hand_over)`: a hand's seed stays on the server
  until that hand is over.
- `hand_summary(match)`: what is recorded of a hand that just ended (all of it public).
- `side_shown(opts, stack)` / `uncovers_hidden(opts, stack)`: what the table shows of a side stack;
  the rules read them too (a discard onto a squared stack reads only the card showing, and a move
  that uncovers a card the table did not show cannot be taken back).

The module reads a match through `MatchLike` and imports no module that moves cards, so the
rules (legal, play) may ask it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import RANK_NAMES
from .moves import Move, shared_wires
from .options import Options, options_json
from .state import GameState, TurnEnd
from .status import MatchStatus


class MatchLike(Protocol):
    """What the observer reads of a match (`app.engine.match.Match`)."""

    @property
    def game(self) -> GameState: ...
    @property
    def options(self) -> Options: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def totals(self) -> list[int]: ...
    @property
    def status(self) -> str: ...
    @property
    def hands(self) -> Sequence[object]: ...
    @property
    def winners(self) -> list[int]: ...
    def legal_moves(self) -> list[Move]: ...


# --- side stacks: what the table shows --------------------------------------------------------
def side_shown(opts: Options, stack: list[int]) -> list[int]:
    """The cards of a side stack that the table shows every receiver: all of them
    (`side_stacks_shown=spread`) or the top card only (`squared`, `peek`; under `peek` the owner
    may also look through its own, `own_view`)."""
    return stack if opts.side_stacks_shown == "spread" else stack[-1:]


def uncovers_hidden(opts: Options, stack: list[int]) -> bool:
    """Whether taking the top card off a side stack, leaving `stack`, turns up a card the table
    did not show (under `squared` and `peek` the card below was shown to nobody, or only to its
    owner): such a move revealed something and cannot be taken back."""
    return bool(stack) and opts.side_stacks_shown != "spread"


def _cards(g: GameState, cards: list[int]) -> list[dict[str, Any]]:
    return g.deck.jsons(cards)


def _centre(g: GameState) -> list[list[dict[str, Any]]]:
    deck = g.deck
    return [
        [deck.json(c, i + 1 if deck.wild[c] else None) for i, c in enumerate(stack)]
        for stack in g.centre
    ]


_TURN_ENDS: dict[int, tuple[TurnEnd, dict[str, Any]]] = {}


def _turn_end(g: GameState, end: TurnEnd | None) -> dict[str, Any] | None:
    """The public table when a seat last closed its turn in this deal (None: not yet). A turn's
    end lasts many versions: its JSON is made once and shared (found by the object's identity;
    the entry holds the object, so its id is not reused while it is there)."""
    if end is None:
        return None
    hit = _TURN_ENDS.get(id(end))
    if hit is not None and hit[0] is end:
        return hit[1]
    if len(_TURN_ENDS) >= 4096:
        _TURN_ENDS.clear()
    # ranks, not cards: a top played since may be anywhere now (a card id would follow it)
    out = {"centre_counts": list(end.centre_counts),
           "payoff_ranks": [RANK_NAMES[g.deck.rank[c]] if c >= 0 else None for c in end.payoff_tops]}
    _TURN_ENDS[id(end)] = (end, out)
    return out


VIEW_FIELDS = ("you", "turn", "status", "hand_number", "first", "stock_count", "set_aside_count", "centre",
               "players", "hand", "own_side", "legal_moves", "turn_info", "result", "options", "deal_commitment",
               "totals", "match_target")


def shared_view(match: MatchLike, connected: Sequence[bool] | None = None) -> dict[str, Any]:
    """Every field of the current hand's view that is the same for every receiver: the
    public table (protocol.md, split views). Built once per version, whoever receives it."""
    g = match.game
    o = match.options
    over = seed_revealed(match.status)  # the result carries the seed
    players = []
    jsons = g.deck.jsons
    for s in range(g.n):
        pile = g.payoff[s]
        sides = g.side[s]
        players.append({
            "seat": s,
            "name": match.names[s],
            "team": o.team_of(s),
            "hand_count": len(g.hands[s]),
            "payoff_count": len(pile),
            "payoff_top": g.deck.json(pile[-1]) if pile else None,
            "side": [jsons(side_shown(o, st)) for st in sides],
            "side_counts": list(map(len, sides)),
            "connected": bool(connected[s]) if connected is not None else None,
            "score": match.totals[s],
            "last_turn_end": _turn_end(g, g.turn_ends[s]),
        })
    return {
        "turn": g.turn,
        "status": match.status,
        "hand_number": len(match.hands),
        "first": g.first,
        "stock_count": len(g.stock),
        "set_aside_count": len(g.aside),
        "centre": _centre(g),
        "players": players,
        "turn_info": {
            "plays": g.turn_plays,
            "centre_plays": g.turn_centre,
            "moved_side": list(g.moved),
            "passes": g.passes,
            "dry_turns": g.dry,
            "discards": g.turn_discards,
            "off_centre": g.off_centre,
            "block": g.block,
            "stale_refills": g.stale_refills,
            "take_backs": g.take_backs_used,
        },
        "result": _result(match) if over else None,
        "options": options_json(o),
        "deal_commitment": g.commitment,
        "totals": list(match.totals),
        "match_target": o.match_target,
    }


def own_view(match: MatchLike, seat: int | None) -> dict[str, Any]:
    """What only receiver `seat` (None: a spectator) may know: its seat, its hand, under
    `side_stacks_shown=peek` its own side stacks whole (`own_side`, else None: Hoyle's "peek"
    at your own stacks), and its legal moves if it is to move.
    `{**shared_view(...), **own_view(...)}` is its view."""
    g = match.game
    to_move = seat is not None and seat == g.turn and g.outcome is None
    peek = seat is not None and match.options.side_stacks_shown == "peek"
    return {
        "you": seat,
        "hand": _cards(g, g.hands[seat]) if seat is not None else [],
        "own_side": [_cards(g, st) for st in g.side[seat]] if peek and seat is not None else None,
        "legal_moves": shared_wires(match.legal_moves()) if to_move else [],
    }


def view(match: MatchLike, seat: int | None,
         connected: Sequence[bool] | None = None) -> dict[str, Any]:
    """The JSON-ready view of the current hand for `seat` (None: a spectator): the shared
    view and the receiver's own part, in one object.

    Card, move and options dicts inside may be shared between views: serialise, don't mutate."""
    return join_view(shared_view(match, connected), own_view(match, seat))


def join_view(shared: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """The whole view of a receiver from the two parts (fields in the protocol's order)."""
    return {k: own[k] if k in own else shared[k] for k in VIEW_FIELDS}


def _result(match: MatchLike) -> dict[str, Any]:
    g = match.game
    assert g.outcome is not None
    out = g.outcome.to_json()
    out["totals"] = list(match.totals)
    out["seed"] = g.seed
    out["match_over"] = match.status == MatchStatus.MATCH_OVER
    out["match_winners"] = match.winners
    return out


def omniscient_view(match: MatchLike) -> dict[str, Any]:
    """Every card face up: each player's `hand`, whole `payoff` (top last) and `side_cards`
    (every card of each side stack: `side` stays as the table showed it, top only under
    `side_stacks_shown=squared`), the `stock` (top last) and the set-aside cards. For replays
    of finished matches only."""
    g = match.game
    out = view(match, None)
    out["legal_moves"] = shared_wires(match.legal_moves())
    for s, p in enumerate(out["players"]):
        p["hand"] = _cards(g, g.hands[s])
        p["payoff"] = _cards(g, g.payoff[s])
        p["side_cards"] = [_cards(g, st) for st in g.side[s]]
    out["stock"] = _cards(g, g.stock)
    out["set_aside"] = _cards(g, g.aside)
    out["seed"] = g.seed
    return out


# --- events -------------------------------------------------------------------------------
PUBLIC = "public"
"""Rule: every receiver gets the event as it is."""

EVENT_RULES: dict[str, str] = {
    # engine events (app/engine/game.py, play.py); a card in one is face up after the move
    "deal": PUBLIC,        # who starts; the dealt cards reach receivers only through views
    "play": PUBLIC,        # the card played, face up on a centre stack
    "reveal": PUBLIC,      # a pay-off pile's new top card, face up
    "complete": PUBLIC,    # a completed centre stack: slot, count, where it went (no cards)
    "discard": PUBLIC,     # the card discarded, face up on a side stack
    "move_side": PUBLIC,   # a side stack top moved to another side stack, face up
    "load": PUBLIC,        # the card put on an opponent's pay-off pile, its new top
    "reshuffle": PUBLIC,   # set-aside cards back into the stock: a count
    "draw": PUBLIC,        # cards drawn: a count, never the cards
    "end_turn": PUBLIC,    # a seat ended its turn without a discard
    "turn": PUBLIC,        # whose turn it is now
    "redeal": PUBLIC,      # a stalemate redeal happened (the new hands arrive in views)
    "take_back": PUBLIC,   # a seat took back its last move (the restored table arrives in views)
    "hand_over": PUBLIC,   # the outcome: reason, winners, scores (no seed)
    "forfeit": PUBLIC,     # the seat to move lost the match by forfeit (docs/rules.md, "Forfeit")
    "resign": PUBLIC,      # a seat resigned: its team lost the match (docs/rules.md, "Resign")
    # room notices (app/rooms) sent in the same list
    "autoplay": PUBLIC,    # a seat's move was made for it (timer, absence): who and by what
}
"""How each event type is shown. A type not listed is refused (`UnknownEvent`): a new event
must be classified here before any receiver can get it, so nothing leaks by default."""


class UnknownEvent(ValueError):
    """An event type `EVENT_RULES` does not classify."""


def _rule(event: dict[str, Any]) -> str:
    rule = EVENT_RULES.get(event.get("type", ""))
    if rule is None:
        raise UnknownEvent(f"event type {event.get('type')!r} is not classified in observer.EVENT_RULES")
    return rule


def events_for(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events of one version that receiver `seat` (None: a spectator) may know, in order.

    Today every event type is public, so this is a new list of the same (shared, don't
    mutate) event dicts. Raises `UnknownEvent` for a type `EVENT_RULES` does not list."""
    out = []
    for event in events:
        if _rule(event) == PUBLIC:
            out.append(event)
    return out


def events_same_for_all(events: list[dict[str, Any]]) -> bool:
    """True when `events_for` gives every receiver (each seat and spectators) the same list,
    so a server may send one list to all. Raises `UnknownEvent` like `events_for`."""
    return all(_rule(event) == PUBLIC for event in events)


# --- seeds, replays, results ----------------------------------------------------------------
def seed_revealed(status: str) -> bool:
    """Whether the current hand's seed (and result) may be shown: once the hand is over
    (`hand_over` or `match_over`); while it is played the seed would reveal every card."""
    return status == MatchStatus.HAND_OVER or status == MatchStatus.MATCH_OVER


def seed_if_over(seed: str, hand_over: bool) -> str | None:
    """A stored hand's seed as history may show it: the seed once that hand is over, else None
    (and never a duplicate tournament's: its tournament publishes it, `seed_sealed`)."""
    return seed if hand_over and not seed.startswith(DUPLICATE_PREFIX) else None


def replay_open(status: str) -> bool:
    """Whether a match's replay (every card face up, at any version) may be shown: only once
    the match status is `match_over`; a hand over in a match that goes on stays closed."""
    return status == MatchStatus.MATCH_OVER


@dataclass(frozen=True)
class HandSummary:
    """A hand that just ended, as recorded: its number (1-based), `result` (equal to
    `view(match, None)["result"]`), this hand's `points` by seat, the match `totals` and
    each seat's pay-off cards left."""

    number: int
    result: dict[str, Any]
    points: list[int]
    totals: list[int]
    payoff_left: list[int]


def hand_summary(match: MatchLike) -> HandSummary:
    """The summary of the match's current hand, which must be over (else ValueError)."""
    g = match.game
    if g.outcome is None or not seed_revealed(match.status):
        raise ValueError("the hand is not over")
    return HandSummary(
        number=len(match.hands),
        result=_result(match),
        points=list(g.outcome.scores),
        totals=list(match.totals),
        payoff_left=[len(p) for p in g.payoff],
    )


def room_code_visible(room_public: bool, took_part: bool) -> bool:
    """A match's history names its room only to those who played in it, or when the room is
    public: a private room's code is its invite, and a history must not hand it out."""
    return room_public or took_part


# --- the daily deal -------------------------------------------------------------------------
DAILY_PREFIX = "daily-"
# A duplicate tournament round's seeds: every table of the round plays them, so no table may
# show them; the tournament publishes the round's seed once the round is over.
DUPLICATE_PREFIX = "tdup-"


def daily_seed_day(seed: str | None) -> str | None:
    """The UTC day (`YYYY-MM-DD`) of a daily deal's seed (`daily-YYYY-MM-DD-<hex>`), else None."""
    if seed is None or not seed.startswith(DAILY_PREFIX) or len(seed) < len(DAILY_PREFIX) + 10:
        return None
    return seed[len(DAILY_PREFIX):len(DAILY_PREFIX) + 10]


def seed_sealed(seed: str | None, today: str) -> bool:
    """Whether a seed must stay hidden although its hand is over: a daily deal's seed is
    revealed only once its day is over (everybody plays that deal all day; anyone who learnt
    the seed would know every card of it). `today` is the current UTC day, `YYYY-MM-DD`. A
    duplicate tournament's seeds stay sealed here for good: other tables may still be playing
    them, and the tournament page publishes the round's seed when the round is over."""
    if seed is not None and seed.startswith(DUPLICATE_PREFIX):
        return True
    day = daily_seed_day(seed)
    return day is not None and day >= today


def sealed_result(result: dict[str, Any] | None, today: str) -> dict[str, Any] | None:
    """A hand's result as it may be shown today: without its seed while the seed is sealed."""
    if result is None or not seed_sealed(result.get("seed"), today):
        return result
    return {**result, "seed": None}
