"""Match review (pure): each decision's chance to win, the best alternative, marks, and luck
told apart from skill. See `analysis.py`; the estimator is `app.bots.estimate`."""

from .analysis import HandInput, MatchInput, MoveInput, Review, ReviewSettings, run
from .marks import BLUNDER, INACCURACY, MISTAKE, Judged, accuracy, judged, mark, summary

__all__ = ["BLUNDER", "HandInput", "INACCURACY", "MISTAKE", "Judged", "MatchInput", "MoveInput", "Review",
           "ReviewSettings", "accuracy", "judged", "mark", "run", "summary"]
