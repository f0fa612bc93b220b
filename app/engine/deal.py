"""Building a hand: the seeded deal (docs/fair-deals.md), a given deck order, or a layout.

Deal order: the shuffled list is dealt from its front. Pay-off piles first (seat 0's
`payoff_size` cards, then seat 1's, ...; the first card dealt lies at the bottom, the last
is the face-up top), then hands (seat by seat, `hand_size` each), then, under
`massachusetts`, one card to each side stack (seat by seat, slot 0 to 3). What remains is
the stock, its first card on top. With `deal=separate_packs` the pay-off piles come from
the first ceil(players * payoff_size / 52) decks (standard cards only, shuffled first) and
everything else (the rest of those decks, the other decks, every joker; in id order,
shuffled second) gives the hands and the stock.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import KING
from .options import Options
from .state import GameState

MAX_TIE_ROUNDS = 50


def _order_value(g: GameState, card: int) -> int:
    """Rank used to choose the first player: a wild King counts as King, a Joker above it."""
    r = g.deck.rank[card]
    return KING if (g.deck.wild[card] and r == KING) else r


def shuffled_order(opts: Options, g: GameState) -> list[int]:
    """The deal order of a seeded hand, consuming the hand's stream."""
    deck = g.deck
    if opts.deal == "separate_packs":
        payoff_decks = -(-(opts.players * opts.payoff_size) // 52)
        per = 52 + opts.jokers_per_deck
        pack_a = [d * per + i for d in range(payoff_decks) for i in range(52)]
        g.rng.shuffle(pack_a)
        used = opts.players * opts.payoff_size
        dealt = pack_a[:used]
        taken = set(dealt)
        pack_b = [c for c in range(deck.size) if c not in taken]
        g.rng.shuffle(pack_b)
        return dealt + pack_b
    cards = list(range(deck.size))
    g.rng.shuffle(cards)
    return cards


def deal_into(g: GameState, opts: Options, seed: str, order: Sequence[int] | None = None) -> None:
    """Deal a new hand into `g` from `seed` (or from an explicit deal `order`)."""
    g._init_static(opts, seed)
    if order is None:
        cards = shuffled_order(opts, g)
    else:
        cards = list(order)
        if sorted(cards) != list(range(g.deck.size)):
            raise ValueError(f"a deal order must hold each of the {g.deck.size} cards once")
    n = g.n
    pos = 0
    g.payoff = []
    for _s in range(n):
        g.payoff.append(cards[pos:pos + opts.payoff_size])
        pos += opts.payoff_size
    g.hands = []
    for _s in range(n):
        g.hands.append(cards[pos:pos + opts.hand_size])
        pos += opts.hand_size
    g.side = [[[] for _k in range(opts.side_stacks)] for _s in range(n)]
    if opts.massachusetts:
        for s in range(n):
            for k in range(opts.side_stacks):
                g.side[s][k].append(cards[pos])
                pos += 1
    g.stock = cards[pos:][::-1]
    g.aside = []
    g.centre = [[] for _i in range(opts.centre_stacks or 1)]
    g.payoff_low = g.payoff_total()
    g.turn = g.first = choose_first(g)


def choose_first(g: GameState) -> int:
    """First player by the pay-off tops; ties reshuffle only the tied piles (from the stream).

    `first_player=dealer`: the dealer is drawn uniformly from the hand's stream (the next
    number after the deal order) and goes first (seed 000: "the dealer goes first")."""
    if g.opts.first_player == "dealer":
        return g.rng.uniform(g.n)
    lowest = g.opts.first_player == "lowest_deals"
    tied = list(range(g.n))
    for _round in range(MAX_TIE_ROUNDS):
        values = {s: _order_value(g, g.payoff[s][-1]) for s in tied}
        best = min(values.values()) if lowest else max(values.values())
        tied = [s for s in tied if values[s] == best]
        if len(tied) == 1:
            break
        for s in tied:
            g.rng.shuffle(g.payoff[s])
    chosen = tied[0]
    return (chosen + 1) % g.n if lowest else chosen


def layout_into(
    g: GameState,
    opts: Options,
    *,
    payoff: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    side: Sequence[Sequence[Sequence[str]]] | None = None,
    centre: Sequence[Sequence[str]] | None = None,
    stock: Sequence[str] | None = None,
    aside: Sequence[str] = (),
    turn: int = 0,
    seed: str = "layout",
) -> None:
    """Build an exact position from card codes ('7H', 'KS', 'JK'); every pile top last.

    Cards not named anywhere go to the bottom of the stock, so every card of the deal is
    present. With several decks a code takes the lowest unused copy.
    """
    g._init_static(opts, seed)
    free: dict[str, list[int]] = {}
    for c in range(g.deck.size):
        free.setdefault(g.deck.code(c), []).append(c)

    def take(code: str) -> int:
        ids = g.deck.ids_for_code(code)
        bucket = free.get(g.deck.code(ids[0]), []) if ids else []
        if not bucket:
            raise ValueError(f"no unused {code} left in the deck")
        return bucket.pop(0)

    n = g.n
    payoff_ids = [[take(c) for c in payoff[s]] for s in range(n)]
    hand_ids = [[take(c) for c in hands[s]] for s in range(n)]
    sides = side or [[[] for _k in range(opts.side_stacks)] for _s in range(n)]
    side_ids = [[[take(c) for c in sides[s][k]] for k in range(opts.side_stacks)] for s in range(n)]
    centre_ids = [[take(c) for c in st] for st in (centre or ())]
    aside_ids = [take(c) for c in aside]
    listed = [take(c) for c in (stock or ())]
    rest = sorted(c for bucket in free.values() for c in bucket)
    set_piles(g, payoff=payoff_ids, hands=hand_ids, side=side_ids, centre=centre_ids,
              stock=rest + listed, aside=aside_ids, turn=turn)


def set_piles(
    g: GameState,
    *,
    payoff: Sequence[Sequence[int]],
    hands: Sequence[Sequence[int]],
    side: Sequence[Sequence[Sequence[int]]],
    centre: Sequence[Sequence[int]],
    stock: Sequence[int],
    aside: Sequence[int] = (),
    turn: int,
    first: int | None = None,
) -> None:
    """Put card ids into every zone of an initialised state (all piles top last).

    `centre` lists the stacks slot by slot; it is padded to the option's number of slots
    (or, with unlimited stacks, given one empty slot at the end).
    """
    opts = g.opts
    g.payoff = [list(p) for p in payoff]
    g.hands = [list(h) for h in hands]
    g.side = [[list(st) for st in sides] for sides in side]
    g.centre = [list(st) for st in centre]
    if opts.centre_stacks is not None:
        if len(g.centre) > opts.centre_stacks:
            raise ValueError("more centre stacks than the options allow")
        g.centre += [[] for _i in range(opts.centre_stacks - len(g.centre))]
    elif not g.centre or g.centre[-1]:
        g.centre.append([])
    g.stock = list(stock)
    g.aside = list(aside)
    g.turn = turn
    g.first = turn if first is None else first
    g.payoff_low = g.payoff_total()
