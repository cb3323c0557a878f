"""Per-slide scores of one run: pathreport's per-case JSON Lines or a W&B per-case table.

``metrics/<split>_per_case.jsonl`` (and ``per_case.jsonl`` of ``pathreport evaluate``) hold one
object per slide, ``{"id", <metric>: value, ...}`` plus CRQS field details; a W&B table file holds
``{"columns": ["id", ...], "data": [[...], ...]}``. Only numeric scores are kept; null stays None.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from pathreport.io import read_jsonl
from pathreport.results.store import ResultsError

CaseScores = dict[str, dict[str, float | None]]


def read_per_case(path: str | Path) -> CaseScores:
    """slide id -> {metric: score or None}, in file order; duplicate ids are an error."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"Per-case scores {path} do not exist (moved or deleted since `pathreport results "
            "collect`?). Collect again from the runs' current location."
        )
    text = path.read_text(encoding="utf-8")
    if path.name.endswith(".table.json") or text.lstrip().startswith('{"columns"'):
        return _from_wandb_table(path, text)
    cases: CaseScores = {}
    for lineno, obj in read_jsonl(path, text):
        if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
            raise ResultsError(
                f"{path}:{lineno}: expected an object with a string 'id', found {str(obj)[:80]!r}."
            )
        _add(cases, obj["id"], obj, f"{path}:{lineno}")
    return cases


def _from_wandb_table(path: Path, text: str) -> CaseScores:
    try:
        table = json.loads(text)
        columns, rows = table["columns"], table["data"]
    except (json.JSONDecodeError, KeyError, TypeError):
        raise ResultsError(
            f"{path}: not a W&B table file (expected {{'columns': [...], 'data': [...]}})."
        ) from None
    if "id" not in columns:
        raise ResultsError(f"{path}: the table has no 'id' column (columns: {columns}).")
    cases: CaseScores = {}
    for i, row in enumerate(rows):
        obj = dict(zip(columns, row))
        _add(cases, str(obj["id"]), obj, f"{path} row {i}")
    return cases


def _add(cases: CaseScores, case_id: str, obj: dict, where: str) -> None:
    if case_id in cases:
        raise ResultsError(
            f"{where}: slide id {case_id!r} appears twice; each slide must be scored once."
        )
    scores: dict[str, float | None] = {}
    for key, value in obj.items():
        if key == "id" or isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            scores[key] = float(value) if math.isfinite(value) else None
        elif value is None:
            scores[key] = None
    cases[case_id] = scores
