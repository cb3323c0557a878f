"""The one evaluation function: predictions in, summary and per-case scores out.

Data flows one way (decode -> predictions file -> evaluators -> summary). The test stage of
``train.py``, ``eval.py`` and ``pathreport evaluate`` all call :func:`evaluate_records` and
:func:`write_evaluation`, so a number in a table is always recomputable from the predictions file.
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pathreport.data.predictions import PredictionRecord, evaluated_set_digest
from pathreport.evaluation.base import EvaluationResult
from pathreport.evaluation.options import check_selection
from pathreport.io import atomic_write_text, jsonable, write_json, write_jsonl
from pathreport.registry import EVALUATORS

DEFAULT_METRICS = ("nlg", "crqs")


def evaluate_records(
    records: Sequence[PredictionRecord],
    *,
    dataset: str | None = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    options: dict[str, dict[str, Any]] | None = None,
) -> EvaluationResult:
    """Score ``records`` with each evaluator named in ``metrics``.

    Args:
        records: one per evaluated slide (ids must be unique).
        dataset: dataset name; selects the CRQS schema and appears in the summary.
        metrics: evaluator names (``nlg``, ``crqs``, or any registered report evaluator).
        options: per-evaluator keyword options, e.g. ``{"crqs": {"formula": "eq6"}}``; an unknown
            evaluator or option is a :class:`~pathreport.errors.ConfigError` before any scoring.
    """
    if not records:
        raise ValueError("Nothing to evaluate: the predictions are empty.")
    check_selection(metrics, options)
    ids = [r.id for r in records]
    if len(set(ids)) != len(ids):
        dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise ValueError(f"Slide ids appear more than once in the predictions: {dupes[:10]}.")
    options = options or {}
    result = EvaluationResult(
        summary={
            "dataset": dataset,
            "n_cases": len(records),
            "evaluated_set": evaluated_set_digest(ids),
            "n_empty_predictions": sum(1 for r in records if not r.prediction.strip()),
        }
    )
    for name in metrics:
        result = result.merge(
            EVALUATORS[name](records, dataset=dataset, **(options.get(name) or {}))
        )
    return result


def align_to_references(
    records: Sequence[PredictionRecord],
    references: dict[str, str],
    *,
    missing_as_empty: bool = False,
    source: str = "the references",
) -> list[PredictionRecord]:
    """The records of exactly the evaluated set ``references`` (id -> raw reference report).

    A slide of the evaluated set without a prediction is an error (a silently smaller test set
    inflates every metric), unless ``missing_as_empty``: then it is scored as an empty
    prediction. A prediction for a slide outside the set is an error too. The reference text
    comes from ``references``, so a truncated or cleaned reference in the predictions file
    cannot leak into the scores.
    """
    by_id = {r.id: r for r in records}
    extra = sorted(set(by_id) - set(references))
    if extra:
        raise ValueError(
            f"{len(extra)} prediction(s) are for slides that are not in {source} "
            f"(ids {extra[:5]}); check that the predictions and the references come from the "
            "same split."
        )
    missing = [i for i in references if i not in by_id]
    if missing and not missing_as_empty:
        raise ValueError(
            f"{len(missing)} slide(s) of {source} have no prediction (ids {missing[:5]}); decode "
            "them, or pass --missing-as-empty to score them as empty reports."
        )
    out = []
    for slide_id, reference in references.items():
        record = by_id.get(slide_id)
        if record is None:
            out.append(PredictionRecord(id=slide_id, reference=reference, prediction=""))
        else:
            out.append(replace(record, reference=reference))
    return out


def write_evaluation(
    result: EvaluationResult,
    out_dir: str | os.PathLike,
    *,
    summary_name: str = "summary.json",
    per_case_name: str = "per_case.jsonl",
    table_prefix: str = "",
) -> dict[str, Path]:
    """Write the summary JSON, the per-case JSON Lines and one CSV per table; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = dict(result.summary)
    if result.unavailable:
        summary["unavailable"] = dict(result.unavailable)
    written = {"summary": write_json(out / summary_name, summary)}
    per_case = [{"id": cid, **vals} for cid, vals in sorted(result.per_case.items())]
    written["per_case"] = write_jsonl(out / per_case_name, per_case)
    for name, rows in result.tables.items():
        written[name] = _write_csv(out / f"{table_prefix}{name}.csv", rows)
    return written


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> Path:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: jsonable(v) for k, v in row.items()})
    return atomic_write_text(path, buffer.getvalue())
