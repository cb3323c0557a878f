"""Shared data for the results tests: real run folders (trained once per session) and small
hand-written runs whose numbers are known."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from pathreport.results.store import RunResult, runs_to_frame
from tests.conftest import FAST_RUN, TINY_DATA, compose_train

# (folder, overrides): the folder names deliberately say nothing true about the run, because
# collection must read identity from the files, never from paths.
REAL_RUNS = {
    "alpha": ("model=most_frequent", "encoder=uni2", "seed=0"),
    "beta": ("model=nearest_neighbor", "encoder=uni2", "seed=0"),
    "gamma": ("model=nearest_neighbor", "encoder=conch15", "seed=0"),
    "delta": ("model=nearest_neighbor", "encoder=uni2", "seed=1"),
}
_CACHE: dict[str, Path] = {}


def real_runs(root_factory: Any) -> Path:
    """A folder with the 4 REAL_RUNS trained by ``pathreport.app.run.train`` (once per session)."""
    if "root" not in _CACHE:
        from pathreport.app.run import train

        root = root_factory.mktemp("real-runs")
        for name, overrides in REAL_RUNS.items():
            train(compose_train([*TINY_DATA, *FAST_RUN, *overrides], root / "logs" / name))
        _CACHE["root"] = root
    return _CACHE["root"]


def result(
    model: str,
    encoder: str,
    seed: int | None,
    dataset: str = "reg",
    *,
    evaluated_set: str = "set1",
    notes: dict[str, str] | None = None,
    **metrics: float | None,
) -> RunResult:
    """A hand-made RunResult (the in-memory form of one collected run)."""
    run = f"/runs/{dataset}/{model}/{encoder}/{seed}"
    return RunResult(
        dataset=dataset,
        model=model,
        encoder=encoder,
        seed=seed,
        split="test",
        metrics=dict(metrics),
        notes=notes or {},
        source="files",
        run=run,
        summary=f"{run}/metrics/test.json",
        n_cases=10,
        evaluated_set=evaluated_set,
        text_normalization="ptb",
        crqs_settings="formula=subtractive",
    )


def frame(*results: RunResult):
    return runs_to_frame(results)


def write_run(
    folder: Path,
    *,
    model: str,
    encoder: str,
    seed: int | None,
    dataset: str = "reg",
    per_case: dict[str, dict[str, float | None]] | None = None,
    fields: list[dict[str, Any]] | None = None,
    **metrics: Any,
) -> Path:
    """A run folder as train.py lays it out: metrics/test.json (+ per-case and field files)."""
    metrics_dir = folder / "metrics"
    metrics_dir.mkdir(parents=True, exist_ok=True)
    summary = {
        "dataset": dataset,
        "model": model,
        "encoder": encoder,
        "seed": seed,
        "split": "test",
        "n_cases": len(per_case or {}),
        "evaluated_set": "hand",
        **metrics,
    }
    (metrics_dir / "test.json").write_text(json.dumps(summary))
    if per_case is not None:
        lines = [json.dumps({"id": case, **scores}) for case, scores in per_case.items()]
        (metrics_dir / "test_per_case.jsonl").write_text("\n".join(lines) + "\n")
    if fields is not None:
        with open(metrics_dir / "test_fields.csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(fields[0]))
            writer.writeheader()
            writer.writerows(fields)
    return folder
