"""The documented, seeded shuffle (see docs/fair-deals.md).

A hand's randomness is one byte stream made from its seed string:
block i (i = 0, 1, 2, ...) is SHA-256(UTF-8 bytes of the seed || i as 8 bytes big-endian);
the stream is the blocks one after another. A uniform integer below n takes the next
8 bytes as a big-endian unsigned 64-bit x, rejects x >= 2**64 - (2**64 mod n) and
returns x mod n. A shuffle is Fisher–Yates: for i from len-1 down to 1, swap item i with
item uniform(i + 1). Every shuffle of a hand (the deal, tie-break reshuffles of pay-off
piles, completed stacks shuffled into the stock, stalemate redeals) reads the same stream
in the order the events happen.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_TWO64 = 1 << 64


def commitment(seed: str) -> str:
    """The deal commitment: lowercase hex SHA-256 of the seed's UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class ShuffleStream:
    """A deterministic stream of uniform integers from a seed string. Copyable."""

    __slots__ = ("seed", "_prefix", "_block", "_buf", "_pos")

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._prefix = seed.encode("utf-8")
        self._block = 0
        self._buf = b""
        self._pos = 0

    def copy(self) -> ShuffleStream:
        other = ShuffleStream.__new__(ShuffleStream)
        other.seed = self.seed
        other._prefix = self._prefix
        other._block = self._block
        other._buf = self._buf
        other._pos = self._pos
        return other

    def _next_u64(self) -> int:
        if self._pos + 8 > len(self._buf):
            rest = self._buf[self._pos:]
            block = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._buf = rest + block
            self._pos = 0
        x = int.from_bytes(self._buf[self._pos:self._pos + 8], "big")
        self._pos += 8
        return x

    def uniform(self, n: int) -> int:
        """A uniform integer in [0, n) (n >= 1), by rejection sampling."""
        if n <= 1:
            return 0
        limit = _TWO64 - (_TWO64 % n)
        while True:
            x = self._next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place, from the last position down to 1."""
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]
