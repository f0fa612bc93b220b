"""Search counters of this process (for benchmarks): iterations run and seconds spent."""

from __future__ import annotations


class SearchStats:
    __slots__ = ("iterations", "seconds", "searches")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.searches = 0

    def add(self, iterations: int, seconds: float) -> None:
        self.iterations += iterations
        self.seconds += seconds
        self.searches += 1


STATS = SearchStats()
