"""``rouge``: ROUGE-1, ROUGE-2 and ROUGE-L F1 from Google's ``rouge-score`` package, with stemming.

Report-generation papers (R2Gen's successors, radiology suites such as RadEval) state ROUGE as
``rouge-score`` with the Porter stemmer: lower case, non-alphanumeric characters as separators,
F1 per report, averaged over reports. That differs from the COCO ROUGE-L of the ``nlg`` evaluator
(PTB tokens, no stemming, F-measure with beta = 1.2), so its ROUGE-L is a separate column,
``ROUGE_L_RS``; ROUGE-1 and ROUGE-2 exist only here. Upstream: google-research rouge-score
(Apache-2.0), used as installed, not vendored. Deviations: none.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.base import COMPARABILITY_KEY, EvaluationResult
from pathreport.registry import EVALUATORS

#: rouge-score's names -> this project's metric names.
METRICS = {"rouge1": "ROUGE_1", "rouge2": "ROUGE_2", "rougeL": "ROUGE_L_RS"}
INSTALL = "pip install rouge-score (or pip install 'pathreport[metrics]')"


@EVALUATORS.register(
    "rouge",
    kind="report",
    metrics=list(METRICS.values()),
    description=(
        "ROUGE-1/2/L F1 from rouge-score with Porter stemming (ROUGE_L_RS is not the COCO ROUGE_L)"
    ),
    needs="the rouge-score package",
    paper="Lin (2004), ROUGE; google-research rouge-score",
)
def evaluate_rouge(
    records: Sequence[PredictionRecord], *, dataset: str | None = None, stemming: bool = True
) -> EvaluationResult:
    """Report evaluator: mean per-report F1 of ROUGE-1, ROUGE-2 and ROUGE-L.

    Args:
        stemming: Porter stemming (on by default, as report-generation papers use it).
    """
    try:
        from rouge_score import rouge_scorer
    except ImportError:
        reason = f"rouge-score is not installed: {INSTALL}"
        return EvaluationResult(
            summary=dict.fromkeys(METRICS.values()),
            unavailable=dict.fromkeys(METRICS.values(), reason),
        )
    scorer = rouge_scorer.RougeScorer(list(METRICS), use_stemmer=stemming)
    per_case: dict[str, dict[str, Any]] = {}
    for record in records:
        scores = scorer.score(record.reference, record.prediction)
        per_case[record.id] = {name: float(scores[key].fmeasure) for key, name in METRICS.items()}
    n = len(per_case)
    summary: dict[str, Any] = {
        name: sum(c[name] for c in per_case.values()) / n if n else None
        for name in METRICS.values()
    }
    try:
        package = f"rouge-score {version('rouge-score')}"
    except PackageNotFoundError:  # pragma: no cover - imported but without metadata
        package = "rouge-score"
    settings = f"{package} stemming={stemming} F1 mean over reports"
    summary["rouge_settings"] = settings
    summary[COMPARABILITY_KEY] = {"ROUGE_RS": settings}
    return EvaluationResult(summary=summary, per_case=per_case)
