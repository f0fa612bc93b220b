"""Match review (pure): each decision's chance to win, the best alternative, marks, and luck
told apart from skill. See `analysis.py`; the estimator is `app.bots.estimate`."""

from .analysis import HandInput, MatchInput, MoveInput, Review, ReviewSettings, run
from .marks import BLUNDER, INACCURACY, MISTAKE, accuracy, mark, summary

__all__ = ["BLUNDER", "HandInput", "INACCURACY", "MISTAKE", "MatchInput", "MoveInput", "Review", "ReviewSettings",
           "accuracy", "mark", "run", "summary"]
