"""Scoring generated reports: one evaluation function shared by ``train.py``, ``eval.py`` and
``pathreport evaluate``, so every number in a table can be recomputed from a predictions file."""

from pathreport.data.predictions import PredictionRecord, read_predictions, write_predictions
from pathreport.evaluation.base import EvaluationResult, ReportEvaluator

__all__ = [
    "EvaluationResult",
    "PredictionRecord",
    "ReportEvaluator",
    "read_predictions",
    "write_predictions",
]
