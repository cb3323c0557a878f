"""What a report evaluator receives and returns.

Report evaluators (NLG metrics, CRQS, and any user metric) are registered in
``pathreport.registry.EVALUATORS`` with ``kind="report"`` and called with the prediction records of
one evaluated set. They never learn anything from the predictions they score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pathreport.data.predictions import PredictionRecord


@dataclass
class EvaluationResult:
    """Scores of one evaluator (or of several, merged).

    Attributes:
        summary: one value per metric over the whole set (``None`` when unavailable), plus counts,
            confidence intervals and settings such as the text normalisation used.
        per_case: per slide id, the metric values and details (field matches, ...).
        tables: extra tables, each a list of rows, written as ``<name>.csv`` (e.g. ``fields``).
        unavailable: metric name -> why it could not be computed (e.g. Java missing for METEOR).
    """

    summary: dict[str, Any] = field(default_factory=dict)
    per_case: dict[str, dict[str, Any]] = field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)

    def merge(self, other: EvaluationResult) -> EvaluationResult:
        """Combine two results on the same cases; a metric computed by both is an error."""
        clash = (set(self.summary) & set(other.summary)) - SHARED_SUMMARY_KEYS - {COMPARABILITY_KEY}
        if clash:
            raise ValueError(f"Two evaluators both report {sorted(clash)}; rename one metric.")
        summary = {**self.summary, **other.summary}
        settings = {
            **self.summary.get(COMPARABILITY_KEY, {}),
            **other.summary.get(COMPARABILITY_KEY, {}),
        }
        if settings:
            summary[COMPARABILITY_KEY] = settings
        per_case = {k: dict(v) for k, v in self.per_case.items()}
        for case_id, values in other.per_case.items():
            per_case.setdefault(case_id, {}).update(values)
        return EvaluationResult(
            summary=summary,
            per_case=per_case,
            tables={**self.tables, **other.tables},
            unavailable={**self.unavailable, **other.unavailable},
        )


# Keys that several evaluators may report with the same value.
SHARED_SUMMARY_KEYS = frozenset({"n_cases"})

#: Summary key mapping a metric family (e.g. ``REG2025``) to the models and settings its scores
#: depend on. Scores of one family are only comparable between runs with the same entry, so
#: ``pathreport results`` warns when a table mixes them. Evaluators add their entry; merging
#: results unions the mappings.
COMPARABILITY_KEY = "comparability"


class ReportEvaluator(Protocol):
    """A callable that scores prediction records of one dataset."""

    def __call__(
        self, records: Sequence[PredictionRecord], *, dataset: str | None = None, **options: Any
    ) -> EvaluationResult: ...
