"""Search counters of this process (for benchmarks): iterations run, seconds spent, and how
often the search chose another move than Normal's."""

from __future__ import annotations


class SearchStats:
    __slots__ = ("iterations", "seconds", "searches", "departures")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.searches = 0
        self.departures = 0

    def add(self, iterations: int, seconds: float, departed: bool = False) -> None:
        self.iterations += iterations
        self.seconds += seconds
        self.searches += 1
        self.departures += departed


STATS = SearchStats()
