"""The ``crqs`` report evaluator: extraction, scoring and summary over one predictions set.

Called through :func:`pathreport.evaluation.evaluate.evaluate_records` like every report evaluator.
Each distinct text is extracted once (REG 2025 predictions repeat a handful of templates), and
nothing is learned from the predictions: the schema and its frozen vocabulary are the only inputs
besides the texts, so one case's score never depends on the other cases in the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.base import EvaluationResult
from pathreport.evaluation.crqs.extractors import get_extractor
from pathreport.evaluation.crqs.schema import Schema, load_schema
from pathreport.evaluation.crqs.scoring import (
    COMPONENTS,
    DEFAULT_WEIGHTS,
    PAPER_WEIGHTS,
    CRQSConfig,
    bootstrap_ci,
    field_table,
    score_fields,
    summarise,
)
from pathreport.registry import EVALUATORS

CRQS_METRICS = ("CRQS", "CRQS_raw", *COMPONENTS)


def parse_weights(weights: Any, profile: str | None = None) -> tuple[float, float, float, float]:
    """Weights from a tuple, a list, a mapping {CFC, KIR, HR, CDS} or a string "0.3,0.4,0.2,0.4";
    None gives the profile's (``default_weights``)."""
    if weights is None:
        return default_weights(profile)
    if isinstance(weights, str):
        weights = [w for w in weights.replace(" ", "").split(",") if w]
    if isinstance(weights, dict):
        missing = [k for k in COMPONENTS if k not in weights]
        if missing:
            raise ValueError(
                f"CRQS weights mapping lacks {missing}; give all of {list(COMPONENTS)}."
            )
        weights = [weights[k] for k in COMPONENTS]
    try:
        values = tuple(float(w) for w in weights)
    except (TypeError, ValueError):
        raise ValueError(
            "CRQS weights must be four numbers for CFC, KIR, HR, CDS (e.g. 0.3,0.4,0.2,0.4), "
            f"found {weights!r}."
        ) from None
    if len(values) != 4:
        raise ValueError(
            f"CRQS weights must be four numbers for CFC, KIR, HR, CDS, found {len(values)}: "
            f"{weights!r}."
        )
    return values  # type: ignore[return-value]


def default_weights(profile: str | None) -> tuple[float, float, float, float]:
    """The paper's profile scores with the paper's component weights; others double discordance."""
    return PAPER_WEIGHTS if profile == "paper" else DEFAULT_WEIGHTS


def default_weighting(profile: str | None) -> str:
    """The paper's profile scores as the paper does (every field counts 1); others by severity."""
    return "uniform" if profile == "paper" else "severity"


def resolve_schema(
    dataset: str | None, schema: str | Path | Schema | None, profile: str | None = None
) -> Schema:
    """The schema to score with (an explicit one, else ``crqs/<dataset>.yaml``) in ``profile``."""
    return _load(dataset, schema).for_profile(profile)


def _load(dataset: str | None, schema: str | Path | Schema | None) -> Schema:
    if isinstance(schema, Schema):
        return schema
    if schema is not None:
        return load_schema(schema)
    if not dataset:
        raise FileNotFoundError(
            "No dataset given, so no CRQS schema can be chosen; pass the dataset name (--dataset) "
            "or a schema file."
        )
    return load_schema(dataset)


@EVALUATORS.register(
    "crqs",
    kind="report",
    description=(
        "Clinical Report Quality Score: schema-based clinical fields, "
        "CFC/KIR/HR/CDS (PathReportEval)"
    ),
    metrics=list(CRQS_METRICS),
    paper="PathReportEval (arXiv 2607.18448), Sec. 3.4 and App. A.7",
)
def evaluate_crqs(
    records: Sequence[PredictionRecord],
    *,
    dataset: str | None = None,
    schema: str | Path | Schema | None = None,
    extractor: str = "rule",
    formula: str = "subtractive",
    weights: Any = None,
    on_empty_reference: str = "vacuous",
    profile: str = "complete",
    weighting: str | None = None,
    n_bootstrap: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> EvaluationResult:
    """Report evaluator: CRQS and its components for each case and over the set.

    A dataset without a schema does not fail the evaluation: CRQS is reported as unavailable
    with the reason, and other evaluators still run. ``profile`` selects the schema's field set
    (``complete``, or ``paper`` for the paper's own lists); ``weighting`` and ``weights``
    default to the profile's (uniform fields and the paper's weights for ``paper``, severity
    and doubled discordance otherwise).
    """
    config = CRQSConfig(
        formula=formula,
        weights=parse_weights(weights, profile),
        on_empty_reference=on_empty_reference,
        weighting=weighting or default_weighting(profile),
    )
    try:
        resolved = resolve_schema(dataset, schema, profile)
    except FileNotFoundError as err:
        return EvaluationResult(
            summary={m: None for m in CRQS_METRICS}, unavailable={"CRQS": str(err)}
        )
    backend = get_extractor(extractor, resolved)

    texts = list(dict.fromkeys(t for r in records for t in (r.reference, r.prediction)))
    extracted = dict(zip(texts, backend.extract_many(texts), strict=True))
    references = [extracted[r.reference] for r in records]
    predictions = [extracted[r.prediction] for r in records]
    scores = [
        score_fields(ref, pred, resolved, config)
        for ref, pred in zip(references, predictions, strict=True)
    ]

    summary = summarise(scores)
    crqs_values = [s.CRQS for s in scores if not s.skipped]
    ci = bootstrap_ci(crqs_values, n_resamples=n_bootstrap, confidence=confidence, seed=seed)
    ci_key = f"CRQS_CI{round(confidence * 100):d}"
    summary = {
        **{m: summary[m] for m in CRQS_METRICS},
        ci_key: list(ci) if ci else None,
        "CRQS_n_scored": summary["n_scored"],
        **{
            k: summary[k]
            for k in (
                "n_vacuous_reference",
                "n_vacuous_key",
                "n_empty_prediction_fields",
                "n_no_comparable_fields",
                "n_skipped",
            )
        },
        "crqs_settings": {
            **config.describe(),
            **resolved.describe(),
            "extractor": extractor,
            "bootstrap": {
                "n_resamples": n_bootstrap,
                "confidence": confidence,
                "seed": seed,
                "unit": "case",
            },
        },
    }
    per_case = {
        r.id: {"reference_fields": ref, "prediction_fields": pred, **s.to_json()}
        for r, ref, pred, s in zip(records, references, predictions, scores, strict=True)
    }
    return EvaluationResult(
        summary=summary,
        per_case=per_case,
        tables={"fields": field_table(resolved, references, predictions, scores)},
    )
