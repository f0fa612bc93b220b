"""The analysis board's I/O: finished matches from the store, the board's own process pool (never
the bots'), answers kept per position, and each player's rate (docs/operations.md, "Analysis board")."""

from .service import Analyst, Limits, Refusal

__all__ = ["Analyst", "Limits", "Refusal"]
