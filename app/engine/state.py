"""The state of one hand of play: plain lists of card ids, cheap to copy.

Piles are lists with the top card last. `centre` is a list of slots that keep their place;
an empty list is a free slot. A centre stack's rank is its length (it starts at the Ace and
climbs one rank per card), so the rank a wild stands for is its position + 1.
Hidden information lives here in full; only `observer` decides what a receiver may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import ACE, Deck
from .moves import DISCARD, Move, payoff_pile, side_pile
from .options import Options, rank_set
from .shuffle import ShuffleStream, commitment


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended: `reason` is payoff_out, stock_out or stalemate (or forfeit, resign:
    the match ended with it, `play.forfeit`).

    `winners` are seats (both partners in a partnership; empty for a draw);
    `scores` are this hand's points by seat.
    """

    reason: str
    winners: tuple[int, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "winners": list(self.winners), "scores": list(self.scores)}


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """What everyone saw when a seat closed its turn (public): the cards on each centre slot
    and every seat's pay-off top (-1 for an empty pile). The seat's hand is still the hand it
    held then (nobody draws outside their own turn), so bots may infer from what it left
    unplayed (app/bots/belief.py). Forgotten when the hands are dealt anew."""

    centre_counts: tuple[int, ...]
    payoff_tops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Static:
    """What a hand's options alone decide (the deck, who partners whom, pile names): built once
    per set of options and shared by every hand played under them (all of it immutable)."""

    deck: Deck
    n: int
    top: int
    wild_ok: tuple[bool, ...]
    wild_side_mask: int
    side_card_ok: tuple[bool, ...]
    team_seats: tuple[tuple[int, ...], ...]
    opponents: tuple[tuple[int, ...], ...]
    payoff_names: tuple[str, ...]
    side_names: tuple[tuple[str, ...], ...]
    # by seat, built on first use (`discards`): by card, its discards onto each side stack
    discard_moves: list[tuple[tuple[Move, ...], ...] | None]

    def discards(self, seat: int) -> tuple[tuple[Move, ...], ...]:
        """By card id: `seat`'s discards of the card onto each of its side stacks in slot order
        (none for a card the options keep off side stacks), made once and shared by every hand."""
        table = self.discard_moves[seat]
        if table is None:
            names = self.side_names[seat]
            table = tuple(tuple(Move(DISCARD, c, None, name) for name in names) if ok else ()
                          for c, ok in enumerate(self.side_card_ok))
            self.discard_moves[seat] = table
        return table


@lru_cache(maxsize=256)
def _static(opts: Options) -> _Static:
    deck = Deck(opts.decks, opts.jokers_per_deck, opts.kings_wild)
    n = opts.players
    top = opts.top_rank
    banned = rank_set(opts.wild_cannot_be)
    side_card_ok = tuple(
        opts.wilds_on_side_stacks if deck.wild[c]
        else (opts.aces_on_side_stacks or deck.rank[c] != ACE)
        for c in range(deck.size)
    )
    if opts.teams == "pairs":
        half = n // 2
        team_seats = tuple(tuple(sorted((s, (s + half) % n))) for s in range(n))
    else:
        team_seats = tuple((s,) for s in range(n))
    return _Static(
        deck=deck, n=n, top=top,
        wild_ok=tuple(1 <= r <= top and r not in banned for r in range(16)),
        wild_side_mask=sum(1 << r for r in range(1, 14) if r not in banned),
        side_card_ok=side_card_ok,
        team_seats=team_seats,
        opponents=tuple(tuple(o for o in range(n) if o not in team_seats[s]) for s in range(n)),
        payoff_names=tuple(payoff_pile(s) for s in range(n)),
        side_names=tuple(tuple(side_pile(s, k) for k in range(opts.side_stacks)) for s in range(n)),
        discard_moves=[None] * n,
    )


class GameState:
    """All of one hand. Construct through `deal` (or `layout` for exact scenarios)."""

    __slots__ = (
        "opts", "deck", "n", "top", "wild_ok", "team_seats", "opponents",
        "payoff_names", "side_names", "side_card_ok", "wild_side_mask",
        "payoff", "hands", "side", "centre", "stock", "aside",
        "turn", "outcome", "seed", "commitment", "rng",
        "turn_plays", "turn_centre", "moved", "passes", "dry", "payoff_since_redeal",
        "turn_discards", "off_centre", "block", "payoff_low", "stale_refills", "undo", "take_backs_used", "revealing",
        "turn_ends",
        "first", "events", "_legal", "static",
    )

    opts: Options
    deck: Deck
    n: int
    top: int
    wild_ok: tuple[bool, ...]
    team_seats: tuple[tuple[int, ...], ...]
    opponents: tuple[tuple[int, ...], ...]
    payoff_names: tuple[str, ...]
    side_card_ok: tuple[bool, ...]
    wild_side_mask: int
    side_names: tuple[tuple[str, ...], ...]
    payoff: list[list[int]]
    hands: list[list[int]]
    side: list[list[list[int]]]
    centre: list[list[int]]
    stock: list[int]
    aside: list[int]
    turn: int
    outcome: Outcome | None
    seed: str
    commitment: str
    rng: ShuffleStream
    turn_plays: int
    turn_centre: int
    moved: list[int]
    passes: int
    dry: int
    payoff_since_redeal: bool  # a pay-off card was played since the last redeal (or none yet happened)
    turn_discards: int  # discards this turn (side_plays=many: must_discard asks for one)
    off_centre: bool  # a card left the hand other than to the centre since it was last filled
    block: bool  # stalemate_aces_twos: everyone passed, but someone holds an Ace or 2 that fits
    payoff_low: int  # the fewest pay-off cards (all piles together) seen in this hand
    stale_refills: int  # stacks completed and redeals since payoff_low last fell (rules: every hand ends)
    undo: list[Any]  # takeback.Snapshot: positions before this turn's moves that revealed nothing
    take_backs_used: int  # take-backs made this turn (at most MAX_TAKE_BACKS)
    revealing: bool  # set by the automatic steps of a move that showed something hidden
    turn_ends: list[TurnEnd | None]  # by seat: the public table when its last turn of this deal ended
    first: int
    events: list[dict[str, Any]] | None
    _legal: list[Move] | None
    static: _Static

    def _init_static(self, opts: Options, seed: str) -> None:
        self.static = st = _static(opts)
        self.opts = opts
        self.deck = st.deck
        self.n = st.n
        self.top = st.top
        self.wild_ok = st.wild_ok
        self.wild_side_mask = st.wild_side_mask
        self.side_card_ok = st.side_card_ok
        self.team_seats = st.team_seats
        self.opponents = st.opponents
        self.payoff_names = st.payoff_names
        self.side_names = st.side_names
        self.seed = seed
        self.commitment = commitment(seed)
        self.rng = ShuffleStream(seed)
        self.outcome = None
        self.turn_plays = self.turn_centre = self.passes = self.dry = 0
        self.moved = []
        self.payoff_since_redeal = True
        self.turn_discards = self.take_backs_used = self.stale_refills = 0
        self.block = self.revealing = self.off_centre = False
        self.payoff_low = 1 << 30  # set by the deal (deal.py) or set_piles
        self.undo = []
        self.turn_ends = [None] * st.n
        self.events = None
        self._legal = None

    def copy(self) -> GameState:
        """An independent copy for search (shares only immutable parts, and the lists and the
        stream the rules never change in place: `aside`, `moved`, `undo`, `turn_ends`, `rng`;
        play.py replaces them instead). Events are off."""
        cls = type(self)
        g = cls.__new__(cls)
        g.opts = self.opts
        g.static = self.static
        g.deck = self.deck
        g.n = self.n
        g.top = self.top
        g.wild_ok = self.wild_ok
        g.team_seats = self.team_seats
        g.opponents = self.opponents
        g.payoff_names = self.payoff_names
        g.side_card_ok = self.side_card_ok
        g.wild_side_mask = self.wild_side_mask
        g.side_names = self.side_names
        g.payoff = [p[:] for p in self.payoff]
        g.hands = [h[:] for h in self.hands]
        g.side = [[st[:] for st in sides] for sides in self.side]
        g.centre = [st[:] for st in self.centre]
        g.stock = self.stock[:]
        g.aside = self.aside  # the lists below are never changed in place (a change replaces them): shared
        g.turn = self.turn
        g.outcome = self.outcome
        g.seed = self.seed
        g.commitment = self.commitment
        g.rng = self.rng  # copied before each shuffle (play.py), so shared until one
        g.turn_plays = self.turn_plays
        g.turn_centre = self.turn_centre
        g.moved = self.moved
        g.passes = self.passes
        g.dry = self.dry
        g.payoff_since_redeal = self.payoff_since_redeal
        g.turn_discards = self.turn_discards
        g.off_centre = self.off_centre
        g.block = self.block
        g.payoff_low = self.payoff_low
        g.stale_refills = self.stale_refills
        g.undo = self.undo  # and the snapshots in it are never mutated
        g.take_backs_used = self.take_backs_used
        g.revealing = self.revealing
        g.turn_ends = self.turn_ends
        g.first = self.first
        g.events = None
        g._legal = self._legal
        return g

    # --- small queries -------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.outcome is not None

    def payoff_total(self) -> int:
        """Cards left in every pay-off pile together."""
        return sum(len(p) for p in self.payoff)

    def team_payoff(self, seat: int) -> int:
        """Cards left in the pay-off piles of `seat`'s team (just the seat without teams)."""
        return sum(len(self.payoff[s]) for s in self.team_seats[seat])

    def all_cards(self) -> list[int]:
        """Every card id in every zone (for conservation checks)."""
        out: list[int] = []
        for s in range(self.n):
            out += self.payoff[s]
            out += self.hands[s]
            for st in self.side[s]:
                out += st
        for st in self.centre:
            out += st
        out += self.stock
        out += self.aside
        return out

    def emit(self, event: dict[str, Any]) -> None:
        if self.events is not None:
            self.events.append(event)
