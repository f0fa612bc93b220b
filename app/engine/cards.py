"""Physical cards of a deal: stable integer ids with a rank, a suit and a wild flag.

Ids are dense integers ``0..len(deck)-1`` derived from the card's identity, never
from its position in the shuffle: deck ``d`` of ``52 + jokers_per_deck`` cards holds
ids ``d * (52 + jokers_per_deck) + i`` where ``i = suit * 13 + (rank - 1)`` for the
52 standard cards (suits S, H, D, C; ranks A=1 .. K=13) and ``52, 53`` for its jokers.
So an id tells the card's face and its deck, never its place in the deal (under
`deal=separate_packs` the deck is the pack, as a real pack's back shows; docs/rules.md, "Cards").
"""

from __future__ import annotations

from typing import Any

ACE = 1
KING = 13
JOKER = 14
RANK_NAMES: tuple[str, ...] = (
    "", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JOKER",
)
RANK_BY_NAME: dict[str, int] = {name: r for r, name in enumerate(RANK_NAMES) if name}
SUIT_NAMES: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: tuple[str, ...] = ("\u2660", "\u2665", "\u2666", "\u2663")
WORDS: dict[int, str] = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King", 14: "Joker"}


def rank_word(rank: int) -> str:
    """A rank as a player says it: 'Ace', '7', 'Queen', 'Joker'."""
    return WORDS.get(rank, RANK_NAMES[rank])


def a_rank(rank: int) -> str:
    """'an Ace', 'a 7', 'an 8'."""
    word = rank_word(rank)
    return ("an " if word[0] in "A8" else "a ") + word


class Deck:
    """The cards of one deal. Immutable after construction; shared by copies of a game."""

    __slots__ = ("size", "decks", "jokers_per_deck", "rank", "suit", "wild", "_json")

    def __init__(self, decks: int, jokers_per_deck: int, kings_wild: bool) -> None:
        self.decks = decks
        self.jokers_per_deck = jokers_per_deck
        per = 52 + jokers_per_deck
        ranks: list[int] = []
        suits: list[int] = []
        for _d in range(decks):
            for i in range(per):
                if i < 52:
                    ranks.append(i % 13 + 1)
                    suits.append(i // 13)
                else:
                    ranks.append(JOKER)
                    suits.append(-1)
        self.size = len(ranks)
        self.rank: tuple[int, ...] = tuple(ranks)
        self.suit: tuple[int, ...] = tuple(suits)
        self.wild: tuple[bool, ...] = tuple(
            r == JOKER or (kings_wild and r == KING) for r in ranks
        )
        self._json: tuple[dict[str, Any], ...] = tuple(self._make_json(c) for c in range(self.size))

    def _make_json(self, card: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": card,
            "rank": RANK_NAMES[self.rank[card]],
            "suit": SUIT_NAMES[self.suit[card]] if self.suit[card] >= 0 else None,
        }
        if self.wild[card]:
            out["wild"] = True
        return out

    def json(self, card: int, as_rank: int | None = None) -> dict[str, Any]:
        """The card as the wire shows it; `as_rank` adds `as` (a wild on a centre stack).

        Without `as_rank` the same dict is returned every time: callers must not mutate it."""
        if as_rank is None:
            return self._json[card]
        out = dict(self._json[card])
        out["as"] = RANK_NAMES[as_rank]
        return out

    def jsons(self, cards: list[int]) -> list[dict[str, Any]]:
        """`json(c)` of each card, in order (the shared dicts: callers must not mutate them)."""
        return list(map(self._json.__getitem__, cards))

    def name(self, card: int) -> str:
        """Short human name: '7♥', 'K♠', 'Joker'."""
        r = self.rank[card]
        if r == JOKER:
            return "Joker"
        return RANK_NAMES[r] + SUIT_SYMBOLS[self.suit[card]]

    def code(self, card: int) -> str:
        """Compact ASCII code used by layouts and golden files: '7H', 'KS', 'JK'."""
        r = self.rank[card]
        if r == JOKER:
            return "JK"
        return RANK_NAMES[r] + SUIT_NAMES[self.suit[card]]

    def ids_for_code(self, code: str) -> list[int]:
        """Every id whose face is `code` ('7H', '10S', 'JK'), lowest first."""
        code = code.strip().upper()
        if code in ("JK", "JOKER"):
            return [c for c in range(self.size) if self.rank[c] == JOKER]
        rank_part, suit_part = code[:-1], code[-1:]
        if rank_part not in RANK_BY_NAME or suit_part not in SUIT_NAMES:
            raise ValueError(f"not a card code: {code!r}")
        r, s = RANK_BY_NAME[rank_part], SUIT_NAMES.index(suit_part)
        return [c for c in range(self.size) if self.rank[c] == r and self.suit[c] == s]
