"""The results table: every run's summary as tidy rows, kept in one file.

One row per (run, split, metric), with the run's identity and provenance repeated on each row,
so the file can be filtered, pivoted and joined with any tool (pandas, R, a spreadsheet):

``dataset, model, encoder, seed, split, metric, value, note, n_cases, evaluated_set,
text_normalization, crqs_settings, source, run, summary, per_case, fields, comparability``

``comparability`` is the summary's metric family -> models/settings mapping as JSON (for example
the REG 2025 score's spaCy pipeline and embedding model); tables warn when it differs between runs.

* ``value`` is empty when the metric was unavailable (for example METEOR without Java); ``note``
  then says why. An unavailable metric is never written as zero.
* ``run`` is the run folder (or ``wandb:<entity>/<project>/<id>``); ``summary`` the file the numbers
  came from; ``per_case`` and ``fields`` point to the per-slide scores and the CRQS field table that
  ``results compare`` and ``results figures`` read.
* A run's identity is ``(run, split)``. Collecting again replaces a run's rows with the fresh ones
  and keeps every other run, so re-collecting is idempotent and never loses a run.

The default location is ``results/results.csv`` under the working directory (next to ``logs/``),
or the path in the environment variable ``PATHREPORT_RESULTS``; a ``.parquet`` name writes Parquet
(needs pyarrow).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pathreport.errors import PathreportError

if TYPE_CHECKING:
    import pandas as pd

RESULTS_ENV = "PATHREPORT_RESULTS"
DEFAULT_TABLE = Path("results") / "results.csv"

RUN_KEY = ("run", "split")
COLUMNS = (
    "dataset",
    "model",
    "encoder",
    "seed",
    "split",
    "metric",
    "value",
    "note",
    "n_cases",
    "evaluated_set",
    "text_normalization",
    "crqs_settings",
    "source",
    "run",
    "summary",
    "per_case",
    "fields",
    "comparability",
)
# Numbers are typed as such when a table is read; every other column is text ('' when empty).
NUMERIC_COLUMNS = ("seed", "value", "n_cases")
TEXT_COLUMNS = tuple(column for column in COLUMNS if column not in NUMERIC_COLUMNS)
# Columns added after tables were first written: an older table reads them as empty.
LATER_COLUMNS = ("comparability",)
SORT_ORDER = ("dataset", "split", "model", "encoder", "seed", "run", "metric")


class ResultsError(PathreportError, ValueError):
    """Unusable results input; the message names the file, the run or field, and the fix."""


def default_table_path() -> Path:
    """``$PATHREPORT_RESULTS`` or ``results/results.csv`` (relative to the working directory)."""
    return Path(os.environ.get(RESULTS_ENV) or DEFAULT_TABLE)


@dataclass
class Defaults:
    """Identity values the user gives (``pathreport results collect --dataset ...``) for runs whose
    files do not say them (they never override a file).
    """

    dataset: str | None = None
    model: str | None = None
    encoder: str | None = None
    seed: int | None = None


class NotASummary(Exception):
    """A JSON file that is not a report-metrics summary (listed as ignored, not an error)."""


@dataclass
class RunResult:
    """One run's scores on one split, with everything needed to find and check them again."""

    dataset: str
    model: str
    encoder: str
    seed: int | None
    split: str
    metrics: dict[str, float | None]
    source: str
    run: str
    summary: str
    notes: dict[str, str] = field(default_factory=dict)
    n_cases: int | None = None
    evaluated_set: str = ""
    text_normalization: str = ""
    crqs_settings: str = ""
    comparability: str = ""
    per_case: str = ""
    fields: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.run, self.split)

    def rows(self) -> list[dict[str, Any]]:
        shared = {c: getattr(self, c) for c in COLUMNS if c not in ("metric", "value", "note")}
        return [
            {**shared, "metric": metric, "value": value, "note": self.notes.get(metric, "")}
            for metric, value in sorted(self.metrics.items())
        ]


@dataclass
class MergeReport:
    """What an upsert did, so ``collect`` can say it (a re-collect must read "0 new")."""

    new: list[tuple[str, str]] = field(default_factory=list)
    updated: list[tuple[str, str]] = field(default_factory=list)
    unchanged: list[tuple[str, str]] = field(default_factory=list)
    total_runs: int = 0


def empty_table() -> pd.DataFrame:
    return _typed(_pandas().DataFrame({c: [] for c in COLUMNS}))


def runs_to_frame(runs: Iterable[RunResult]) -> pd.DataFrame:
    rows = [row for run in runs for row in run.rows()]
    if not rows:
        return empty_table()
    return _typed(_pandas().DataFrame(rows, columns=list(COLUMNS)))


def read_table(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """Read a results table written by :func:`write_table` (CSV or Parquet), checking columns."""
    pd = _pandas()
    path = Path(path) if path is not None else default_table_path()
    if not path.is_file():
        raise FileNotFoundError(
            f"No results table at {path}. Create it with `pathreport results collect <log dir>` "
            "(or point to another one with --table)."
        )
    if path.suffix == ".parquet":
        try:
            frame = pd.read_parquet(path)
        except ImportError as err:
            raise ResultsError(
                f"Reading {path} needs pyarrow: pip install pyarrow ({str(err).splitlines()[0]})"
            ) from None
    else:
        try:
            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        except (pd.errors.ParserError, UnicodeDecodeError) as err:
            raise ResultsError(f"{path}: not a readable CSV results table ({err}).") from None
    for column in LATER_COLUMNS:
        if column not in frame.columns:
            frame[column] = ""
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ResultsError(
            f"{path}: columns {missing} are missing (found {list(frame.columns)}); this is not a "
            "pathreport results table, or an old one: rebuild it with `pathreport results "
            "collect --fresh <log dir>`."
        )
    frame = _typed(frame[list(COLUMNS)])
    bad = frame["metric"].eq("") | frame["run"].eq("")
    if bad.any():
        line = int(bad.to_numpy().nonzero()[0][0]) + 2  # header is line 1
        raise ResultsError(
            f"{path}:{line}: empty 'metric' or 'run'; every row needs both. Re-collect the table."
        )
    return frame


def write_table(frame: pd.DataFrame, path: str | os.PathLike | None = None) -> Path:
    """Write atomically, rows in a fixed order, so the same content always gives the same bytes."""
    path = Path(path) if path is not None else default_table_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = sort_table(_typed(frame[list(COLUMNS)]))
    with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False, suffix=".tmp") as handle:
        tmp = handle.name
    try:
        if path.suffix == ".parquet":
            try:
                frame.to_parquet(tmp, index=False)
            except ImportError as err:
                raise ResultsError(
                    f"Writing {path} needs pyarrow: pip install pyarrow, or use a .csv name "
                    f"({str(err).splitlines()[0]})"
                ) from None
        else:
            frame.to_csv(tmp, index=False, lineterminator="\n")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def sort_table(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(list(SORT_ORDER), kind="stable", na_position="first").reset_index(
        drop=True
    )


def upsert(existing: pd.DataFrame, runs: Iterable[RunResult]) -> tuple[pd.DataFrame, MergeReport]:
    """The table with ``runs`` replacing rows of the same (run, split) and every other row kept."""
    pd = _pandas()
    runs = list(runs)
    report = MergeReport()
    new_frame = runs_to_frame(runs)
    old_runs = dict(iter(existing.groupby(list(RUN_KEY), sort=False))) if len(existing) else {}
    new_runs = dict(iter(new_frame.groupby(list(RUN_KEY), sort=False))) if len(new_frame) else {}
    for run in runs:
        if run.key not in old_runs:
            report.new.append(run.key)
            continue
        same = _comparable(old_runs[run.key]).equals(_comparable(new_runs[run.key]))
        (report.unchanged if same else report.updated).append(run.key)
    replaced = {run.key for run in runs}
    keep = [key not in replaced for key in zip(existing["run"], existing["split"])]
    merged = (
        pd.concat([existing[keep], new_frame], ignore_index=True) if len(existing) else new_frame
    )
    merged = sort_table(_typed(merged))
    report.total_runs = len(set(zip(merged["run"], merged["split"])))
    return merged, report


def _comparable(frame: pd.DataFrame) -> pd.DataFrame:
    return sort_table(frame).astype(str)


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Fixed dtypes: text as str ('' for missing), value float, seed and n_cases nullable int."""
    pd = _pandas()
    frame = frame.copy()
    for column in TEXT_COLUMNS:
        frame[column] = frame[column].astype(object).where(frame[column].notna(), "").astype(str)
    frame["value"] = pd.to_numeric(frame["value"].replace("", None), errors="coerce").astype(
        "float64"
    )
    for column in ("seed", "n_cases"):
        numbers = pd.to_numeric(frame[column].replace("", None), errors="coerce")
        frame[column] = numbers.round().astype("Int64")
    return frame


def _pandas() -> Any:
    try:
        import pandas as pd
    except ImportError as err:  # pragma: no cover - pandas is a core dependency
        raise ImportError("pathreport results needs pandas: pip install pandas") from err
    return pd
