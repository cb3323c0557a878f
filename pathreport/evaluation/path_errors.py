"""``path_errors``: a pathology error-count LLM judge in the style of GREEN and CRIMSON.

Radiology's strongest report metrics (GREEN, Ostmeier et al. 2024; CRIMSON; both bundled by
RadEval) ask an LLM to list, for one (reference, candidate) pair, the findings the candidate got
right and its errors in fixed categories, each clinically significant or not, and score::

    PATH_ERRORS = matched / (matched + significant errors)

This evaluator applies that design to pathology with seven categories (false finding, missed
finding, wrong diagnosis/subtype, wrong grade/score, wrong site/laterality, wrong
measurement/count, wrong negation). Prompt, categories and output schema are versioned data
(``pathreport/resources/judge_path_errors.yaml``); no code or prompt text was taken from GREEN or
CRIMSON (upstream code: none used; licence of this file: the project's). Choices of this file:
pathology categories instead of radiology's, and a pair with neither matched findings nor
significant errors is left undefined rather than given a score. It
has NOT been validated against pathologists' judgements.

Per case: the score, matched count, significant and minor error counts per category, and the
judge's lists. Set level: mean score over scored cases and mean counts per case. A pair with
neither matched findings nor significant errors has no defined score (counted in
``PATH_ERRORS_n_undefined``); judge failures are counted, never scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.base import EvaluationResult
from pathreport.evaluation.judging.judge import Judge, JudgeOptions, judge_summary
from pathreport.registry import EVALUATORS

PROMPTS = "path_errors"
PREFIX = "PATH_ERRORS"


def case_counts(value: dict[str, Any], categories: Sequence[str]) -> dict[str, Any]:
    """Score and counts of one parsed judge answer."""
    matched = len(value["matched_findings"])
    counts: dict[str, Any] = {}
    for category in categories:
        errors = [e for e in value["errors"] if e["category"] == category]
        counts[f"{PREFIX}_{category}"] = sum(1 for e in errors if e["significant"])
        counts[f"{PREFIX}_{category}_minor"] = sum(1 for e in errors if not e["significant"])
    significant = sum(counts[f"{PREFIX}_{c}"] for c in categories)
    minor = sum(counts[f"{PREFIX}_{c}_minor"] for c in categories)
    score = matched / (matched + significant) if matched + significant else None
    return {
        PREFIX: score,
        f"{PREFIX}_matched": matched,
        f"{PREFIX}_significant": significant,
        f"{PREFIX}_minor": minor,
        **counts,
    }


@EVALUATORS.register(
    "path_errors",
    kind="report",
    metrics=[PREFIX],
    description=(
        "pathology error counts by an LLM judge (GREEN-style): matched / (matched + "
        "significant errors)"
    ),
    needs=(
        "a judge: --option path_errors.backend=openai|transformers --option path_errors.model=<id>"
    ),
    paper="GREEN (Ostmeier et al., 2024) / CRIMSON design, adapted to pathology; unvalidated",
)
def evaluate_path_errors(
    records: Sequence[PredictionRecord], *, dataset: str | None = None, **options: Any
) -> EvaluationResult:
    """Report evaluator: error counts per category and the matched-over-errors score."""
    judge = Judge.from_options(JudgeOptions(**options), PROMPTS)
    categories = judge.prompts.data["categories"]
    ids = [c["id"] for c in categories]
    listing = "\n".join(f"- {c['id']}: {c['name']}: {c['definition']}" for c in categories)
    answers = judge.ask(
        "find_errors",
        [
            {"categories": listing, "reference": r.reference, "prediction": r.prediction}
            for r in records
        ],
    )
    per_case: dict[str, dict[str, Any]] = {}
    count_keys: list[str] = []
    for record, answer in zip(records, answers):
        if not answer.ok:
            per_case[record.id] = {PREFIX: None, f"{PREFIX}_judge_error": answer.error}
            continue
        counts = case_counts(answer.value, ids)
        count_keys = [k for k in counts if k != PREFIX]
        per_case[record.id] = {
            **counts,
            f"{PREFIX}_findings": answer.value["matched_findings"],
            f"{PREFIX}_errors": answer.value["errors"],
            f"{PREFIX}_judge_error": None,
        }
    judged = [c for c in per_case.values() if c.get(f"{PREFIX}_judge_error") is None]
    failures = len(records) - len(judged)
    scored = [c[PREFIX] for c in judged if c[PREFIX] is not None]
    means = (
        {f"{k}_per_case": sum(c[k] for c in judged) / len(judged) for k in count_keys}
        if judged
        else {}
    )
    extra = {
        f"{PREFIX}_n_undefined": len(judged) - len(scored),
        **means,
        f"{PREFIX}_categories": ids,
    }
    unavailable = (
        {} if scored else {PREFIX: f"the judge scored no case ({failures} judge failure(s))"}
    )
    return EvaluationResult(
        summary=judge_summary(PREFIX, judge, failures, scored, extra),
        per_case=per_case,
        unavailable=unavailable,
    )


evaluate_path_errors.options_class = JudgeOptions  # type: ignore[attr-defined]
