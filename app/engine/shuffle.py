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
import struct
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_TWO64 = 1 << 64
_PER_BLOCK = 4  # 64-bit integers in a SHA-256 block
_unpack = struct.Struct(">4Q").unpack
sha256 = hashlib.sha256
_LIMITS = tuple(_TWO64 - (_TWO64 % k) if k else 0 for k in range(1024))  # rejection bound below k


def commitment(seed: str) -> str:
    """The deal commitment: lowercase hex SHA-256 of the seed's UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class ShuffleStream:
    """A deterministic stream of uniform integers from a seed string. Copyable.

    Each 32-byte block is read as four big-endian 64-bit integers at once (every read takes
    8 bytes, so reads never straddle a block): the same stream as docs/fair-deals.md's bytes."""

    __slots__ = ("seed", "_prefix", "_block", "_vals", "_pos")

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._prefix = seed.encode("utf-8")
        self._block = 0
        self._vals: tuple[int, ...] = ()
        self._pos = _PER_BLOCK  # the current block's integers are used up: read the next

    def copy(self) -> ShuffleStream:
        other = ShuffleStream.__new__(ShuffleStream)
        other.seed = self.seed
        other._prefix = self._prefix
        other._block = self._block
        other._vals = self._vals
        other._pos = self._pos
        return other

    def _next_u64(self) -> int:
        if self._pos == _PER_BLOCK:
            self._vals = _unpack(sha256(self._prefix + self._block.to_bytes(8, "big")).digest())
            self._block += 1
            self._pos = 0
        x = self._vals[self._pos]
        self._pos += 1
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
        """Fisher–Yates in place, from the last position down to 1 (`uniform` inlined: a deal
        draws a hundred of them)."""
        vals, pos, block, prefix = self._vals, self._pos, self._block, self._prefix
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            k = i + 1
            limit = limits[k] if k < 1024 else _TWO64 - (_TWO64 % k)
            while True:
                if pos == _PER_BLOCK:
                    vals = _unpack(sha256(prefix + block.to_bytes(8, "big")).digest())
                    block += 1
                    pos = 0
                x = vals[pos]
                pos += 1
                if x < limit:
                    break
            j = x % k
            items[i], items[j] = items[j], items[i]
        self._vals, self._pos, self._block = vals, pos, block
