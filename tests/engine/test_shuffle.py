"""The documented shuffle: checked against an independent re-implementation of
docs/fair-deals.md, and against fixed vectors so that it can never change silently."""

from __future__ import annotations

import hashlib

from app.engine import Game, ShuffleStream, commitment, make_options


def reference_shuffle(seed: str, n: int) -> list[int]:
    """docs/fair-deals.md, written again from the text."""
    stream = b""
    block = 0
    pos = 0

    def u64() -> int:
        nonlocal stream, block, pos
        if pos + 8 > len(stream):
            stream += hashlib.sha256(seed.encode() + block.to_bytes(8, "big")).digest()
            block += 1
        x = int.from_bytes(stream[pos:pos + 8], "big")
        pos += 8
        return x

    def below(k: int) -> int:
        limit = 2**64 - (2**64 % k)
        while True:
            x = u64()
            if x < limit:
                return x % k

    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def test_shuffle_matches_the_reference() -> None:
    for seed in ["", "a", "7d2d4f88f8c9794d", "ff" * 16]:
        for n in (1, 2, 52, 104, 312, 1030):  # past the table of rejection bounds too
            items = list(range(n))
            ShuffleStream(seed).shuffle(items)
            assert items == reference_shuffle(seed, n)


def test_fixed_vector() -> None:
    items = list(range(10))
    ShuffleStream("spite").shuffle(items)
    assert items == reference_shuffle("spite", 10)
    assert items == [8, 4, 6, 3, 2, 9, 5, 7, 1, 0]


def test_a_copy_goes_on_as_the_stream_would_mid_block() -> None:
    s = ShuffleStream("copy")
    s.uniform(7)  # one integer of the first block read: the copy starts mid-block
    c = s.copy()
    a, b = list(range(60)), list(range(60))
    s.shuffle(a)
    c.shuffle(b)
    assert a == b and s.uniform(1000) == c.uniform(1000)
    whole = ShuffleStream("copy")
    whole.uniform(7)
    items = list(range(60))
    for i in range(59, 0, -1):  # the shuffle is Fisher-Yates over `uniform`
        j = whole.uniform(i + 1)
        items[i], items[j] = items[j], items[i]
    assert items == a


def test_uniform_is_unbiased_on_small_ranges() -> None:
    s = ShuffleStream("counts")
    counts = [0] * 3
    for _ in range(30_000):
        counts[s.uniform(3)] += 1
    assert all(9_500 < c < 10_500 for c in counts)


def test_commitment_is_sha256_of_the_seed() -> None:
    assert commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_deal_order_is_the_shuffled_deck_dealt_from_the_front() -> None:
    o = make_options()
    g = Game.deal(o, "deal-check")
    order = reference_shuffle("deal-check", 104)
    # the tops differ (a Jack and an 8), so no tie-break reshuffle touched the piles
    assert g.payoff[0] == order[:20] and g.payoff[1] == order[20:40]
    assert g.first == 0
    assert g.hands[0] == order[40:45] and g.hands[1] == order[45:50]
    assert g.stock == order[50:][::-1]  # first remaining card on top (top is last)


def test_same_seed_same_deal_and_different_seed_different_deal() -> None:
    o = make_options()
    a, b, c = Game.deal(o, "x"), Game.deal(o, "x"), Game.deal(o, "y")
    assert (a.payoff, a.hands, a.stock) == (b.payoff, b.hands, b.stock)
    assert (a.payoff, a.hands) != (c.payoff, c.hands)
