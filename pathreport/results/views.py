"""The paper's two views of a results table, and the detailed one, as cells with their evidence.

PathReportEval reports each dataset twice (Table 2): method-wise, averaged over the encoders, and
encoder-wise, averaged over the methods; the appendix (Tables 4-6) lists every method-encoder
combination. Here each cell is

    mean over seeds of (mean over the averaged-over axis at that seed)  ±  sample std over seeds,

so the ± measures seed-to-seed variation only. Every cell carries the number of runs behind it;
a cell with no run is *missing*, a cell whose runs could not compute the metric is *unavailable*;
neither is ever zero. Whatever could mislead a reader is written into the view's notes: rows that
average fewer encoders (or methods) than others, encoders run with different seeds, runs scored on
different slide sets (``evaluated_set``), with different text normalisation or CRQS settings.

In the encoder-wise view the average over methods leaves out the retrieval baselines (they are
not report generators; ``most_frequent`` ignores the slide entirely), and the baselines follow as
reference rows, averaged over encoders, so they stand beside the models in every table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pathreport.registry import GENERATORS
from pathreport.results.metrics import PAPER_METRICS, display_name, higher_is_better, is_score
from pathreport.results.store import ResultsError

if TYPE_CHECKING:
    import pandas as pd

VIEWS = {
    "model": (("model",), "encoder"),
    "encoder": (("encoder",), "model"),
    "model,encoder": (("model", "encoder"), None),
}
KNOWN_BASELINES = frozenset({"most_frequent", "nearest_neighbor"})
Row = tuple[str, ...]


@dataclass
class Cell:
    """One table cell: the statistic and what stands behind it."""

    mean: float | None
    std: float | None
    n: int
    runs: int
    status: str  # "ok", "missing" (no run) or "unavailable" (runs, but none could compute it)


@dataclass
class View:
    """One table: rows x metrics cells for one dataset and split, with notes for the reader."""

    dataset: str
    split: str
    by: tuple[str, ...]
    averaged_over: str | None
    metrics: list[str]
    rows: list[Row] = field(default_factory=list)
    cells: dict[tuple[Row, str], Cell] = field(default_factory=dict)
    row_runs: dict[Row, int] = field(default_factory=dict)
    reference_rows: set[Row] = field(default_factory=set)
    incomplete_rows: set[Row] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        if self.by == ("model",):
            what = "Method-wise results"
            how = ", averaged across encoders"
        elif self.by == ("encoder",):
            what = "Encoder-wise results"
            how = ", averaged across methods"
        else:
            what, how = "Results for each method-encoder combination", ""
        return f"{what} on {self.dataset} ({self.split}){how}; mean ± std over seeds"

    @property
    def row_header(self) -> list[str]:
        return ["Method" if b == "model" else "Encoder" for b in self.by]

    def best(self, metric: str, digits: int) -> set[Row]:
        """Rows holding the best value of ``metric`` at the shown precision (ties all count)."""
        if not is_score(metric):
            return set()
        shown = {
            row: round(cell.mean, digits)
            for row in self.rows
            if row not in self.reference_rows
            and (cell := self.cells[(row, metric)]).mean is not None
        }
        if len(shown) < 2:
            return set()
        target = max(shown.values()) if higher_is_better(metric) else min(shown.values())
        return {row for row, value in shown.items() if value == target}


def build_views(
    frame: pd.DataFrame,
    *,
    by: str = "model",
    dataset: str | None = None,
    split: str = "test",
    metrics: Sequence[str] | None = None,
    baselines: set[str] | None = None,
) -> list[View]:
    """One :class:`View` per dataset (or only ``dataset``) of the tidy results ``frame``.

    ``metrics`` None means the paper's columns that any run reported (the others are named in a
    note); a metric asked for by name that no run reported is an error.
    """
    if by not in VIEWS:
        raise ResultsError(f"--by must be one of {', '.join(VIEWS)}, found {by!r}.")
    if frame.empty:
        raise ResultsError(
            "The results table has no runs; collect some first: `pathreport results collect "
            "<log dir>`."
        )
    subset = frame[frame["split"] == split]
    if subset.empty:
        splits = sorted(set(frame["split"]))
        raise ResultsError(
            f"The results table has no runs on split {split!r} (it has {splits}); pass --split."
        )
    datasets = sorted(set(subset["dataset"]))
    if dataset is not None:
        if dataset not in datasets:
            raise ResultsError(
                f"No {split} runs of dataset {dataset!r} in the results table; it has {datasets}."
            )
        datasets = [dataset]
    present = set(subset["metric"])
    unknown = [m for m in metrics or () if m not in present]
    if unknown:
        raise ResultsError(
            f"Metric(s) {unknown} are not in the results table's {split} runs; it has "
            f"{', '.join(sorted(present))}."
        )
    absent = [m for m in PAPER_METRICS if m not in present] if metrics is None else []
    metrics = [m for m in PAPER_METRICS if m in present] if metrics is None else list(metrics)
    baselines = baseline_models(set(subset["model"])) if baselines is None else baselines
    views = [
        _build(subset[subset["dataset"] == name], name, split, by, metrics, baselines)
        for name in datasets
    ]
    if absent:
        for view in views:
            view.notes.append(
                f"No run reported {', '.join(display_name(m) for m in absent)}; those "
                "columns are left out."
            )
    return views


def baseline_models(models: set[str]) -> set[str]:
    """Which ``models`` are baselines: registered with kind 'baseline', or the built-in ones."""
    found = set(models & KNOWN_BASELINES)
    try:
        for entry in GENERATORS.entries():
            if entry.name in models and entry.metadata.get("kind") == "baseline":
                found.add(entry.name)
    except Exception:  # noqa: BLE001 - a broken plug-in must not stop a table; built-in names still count
        pass
    return found


def run_frame(subset: pd.DataFrame, metrics: Sequence[str]) -> pd.DataFrame:
    """One row per run: identity, provenance and one column per metric (NaN when unavailable)."""
    import pandas as pd

    meta_columns = [
        "run",
        "dataset",
        "model",
        "encoder",
        "seed",
        "evaluated_set",
        "text_normalization",
        "crqs_settings",
        "comparability",
        "per_case",
        "fields",
    ]
    runs = subset.drop_duplicates("run")[meta_columns].set_index("run")
    values = subset[subset["metric"].isin(metrics)].pivot_table(
        index="run", columns="metric", values="value", aggfunc="first", dropna=False
    )
    wide = runs.join(values, how="left")
    for metric in metrics:
        if metric not in wide.columns:
            wide[metric] = math.nan
    wide["seed_key"] = wide["seed"].astype("string").fillna("?")
    return wide.reset_index() if isinstance(wide, pd.DataFrame) else wide


def _build(
    subset: pd.DataFrame, dataset: str, split: str, by: str, metrics: list[str], baselines: set[str]
) -> View:
    keys, averaged = VIEWS[by]
    runs = run_frame(subset, metrics)
    view = View(dataset=dataset, split=split, by=keys, averaged_over=averaged, metrics=metrics)
    reasons = _reasons(subset)
    generators = runs[~runs["model"].isin(baselines)]
    if by == "encoder" and not generators.empty:
        main = generators
        reference = runs[runs["model"].isin(baselines)]
        if not reference.empty:
            view.notes.append(
                f"Encoder rows average the methods {', '.join(sorted(set(main['model'])))}; the "
                f"baselines {', '.join(sorted(set(reference['model'])))} follow as reference "
                "rows (averaged across encoders)."
            )
    else:
        main, reference = runs, runs.iloc[0:0]
        if by == "encoder":
            view.notes.append(
                "Only baselines were run on this dataset; the encoder rows average them."
            )
    for row, group in _groups(main, keys, runs):
        _fill_row(view, row, group, averaged, metrics, reasons)
    for model, group in sorted(reference.groupby("model", sort=True)):
        row = (f"{model} (baseline)",)
        view.reference_rows.add(row)
        _fill_row(view, row, group, "encoder", metrics, reasons)
    _order_rows(view, baselines)
    _coverage_notes(view, main, keys, averaged)
    _consistency_notes(view, runs)
    return view


def _groups(
    runs: pd.DataFrame, keys: tuple[str, ...], all_runs: pd.DataFrame
) -> list[tuple[Row, pd.DataFrame]]:
    """Row keys with their runs; the detailed view lists every model x encoder, run or not."""
    if len(keys) == 1:
        return [((str(k),), g) for k, g in runs.groupby(keys[0], sort=True)]
    models = sorted(set(all_runs["model"]))
    encoders = sorted(set(all_runs["encoder"]))
    return [
        ((m, e), runs[(runs["model"] == m) & (runs["encoder"] == e)])
        for m in models
        for e in encoders
    ]


def _fill_row(
    view: View,
    row: Row,
    group: pd.DataFrame,
    averaged: str | None,
    metrics: list[str],
    reasons: dict[str, str],
) -> None:
    view.rows.append(row)
    view.row_runs[row] = len(group)
    for metric in metrics:
        view.cells[(row, metric)] = _cell(group, metric, averaged)
        cell = view.cells[(row, metric)]
        label = " / ".join(row)
        if cell.status == "unavailable":
            view.notes.append(
                f"{label}: {display_name(metric)} unavailable in all {cell.runs} run(s)"
                f"{_why(reasons, group, metric)}."
            )
        elif cell.status == "ok" and cell.n < cell.runs:
            view.notes.append(
                f"{label}: {display_name(metric)} averages {cell.n} of {cell.runs} runs; the "
                f"others could not compute it{_why(reasons, group, metric)}."
            )
    if len(set(group["seed_key"])) < len(group) and averaged is None:
        view.notes.append(
            f"{' / '.join(row)}: {len(group)} runs share {len(set(group['seed_key']))} seed "
            "value(s); runs with the same seed are averaged before the std over seeds."
        )


def _cell(group: pd.DataFrame, metric: str, averaged: str | None) -> Cell:
    if group.empty:
        return Cell(None, None, 0, 0, "missing")
    valid = group[group[metric].notna()]
    if valid.empty:
        return Cell(None, None, 0, len(group), "unavailable")
    per_seed = valid.groupby("seed_key")[
        metric
    ].mean()  # mean over the averaged-over axis at each seed
    values = per_seed.to_numpy(dtype=float)
    std = float(values.std(ddof=1)) if len(values) > 1 else None
    return Cell(float(values.mean()), std, len(valid), len(group), "ok")


def _reasons(subset: pd.DataFrame) -> dict[str, str]:
    noted = subset[subset["note"] != ""]
    return {f"{r}|{m}": n for r, m, n in zip(noted["run"], noted["metric"], noted["note"])}


def _why(reasons: dict[str, str], group: pd.DataFrame, metric: str) -> str:
    found = sorted({reasons[k] for r in group["run"] if (k := f"{r}|{metric}") in reasons})
    return f" ({'; '.join(found)})" if found else ""


def _order_rows(view: View, baselines: set[str]) -> None:
    """Methods first, then baselines, then reference rows; alphabetical within each."""

    def rank(row: Row) -> tuple[int, Row]:
        if row in view.reference_rows:
            return (2, row)
        return (1 if "model" in view.by and row[view.by.index("model")] in baselines else 0, row)

    view.rows.sort(key=rank)


def _coverage_notes(
    view: View, runs: pd.DataFrame, keys: tuple[str, ...], averaged: str | None
) -> None:
    if averaged is None:
        missing = [" / ".join(r) for r in view.rows if view.row_runs[r] == 0]
        if missing:
            view.notes.append(f"No run for {', '.join(missing)} (shown as missing).")
        return
    everything = sorted(set(runs[averaged]))
    for row in view.rows:
        if row in view.reference_rows:
            continue
        group = runs[runs[keys[0]] == row[0]]
        present = sorted(set(group[averaged]))
        if present != everything:
            absent = sorted(set(everything) - set(present))
            view.incomplete_rows.add(row)
            view.notes.append(
                f"{row[0]}: no run with {averaged} {', '.join(absent)}; its row averages "
                f"{len(present)} of {len(everything)} {averaged}s (marked †)."
            )
        seeds = {name: tuple(sorted(g["seed_key"])) for name, g in group.groupby(averaged)}
        if len(set(seeds.values())) > 1:
            listing = "; ".join(f"{k}: {','.join(v)}" for k, v in sorted(seeds.items()))
            view.notes.append(
                f"{row[0]}: the {averaged}s were run with different seeds ({listing}); its ± mixes "
                f"{averaged} and seed variation."
            )


def _consistency_notes(view: View, runs: pd.DataFrame) -> None:
    row_of = _row_labels(view, runs)
    sets = runs[runs["evaluated_set"] != ""]
    digests = sorted(set(sets["evaluated_set"]))
    if len(digests) > 1:
        members = {
            d: ", ".join(sorted({row_of[r] for r in sets[sets["evaluated_set"] == d]["run"]}))
            for d in digests
        }
        listing = "; ".join(f"{d}: {members[d]}" for d in digests)
        view.notes.append(
            f"WARNING: runs were evaluated on {len(digests)} different slide sets ({listing}); "
            "values are not comparable across them."
        )
        per_row: dict[str, set[str]] = {}
        for run, digest in zip(sets["run"], sets["evaluated_set"]):
            per_row.setdefault(row_of[run], set()).add(digest)
        for label, found in sorted(per_row.items()):
            if len(found) > 1:
                view.notes.append(
                    f"WARNING: {label}: its cells average runs evaluated on different slide sets "
                    f"({', '.join(sorted(found))})."
                )
    unknown = int((runs["evaluated_set"] == "").sum())
    if unknown:
        view.notes.append(
            f"{unknown} run(s) carry no evaluated-set fingerprint (W&B summaries); "
            "that they saw the same slides cannot be checked."
        )
    for column, what in (
        ("text_normalization", "text normalisations"),
        ("crqs_settings", "CRQS settings"),
    ):
        values = sorted(set(runs[column]) - {""})
        if len(values) > 1:
            view.notes.append(
                f"WARNING: runs use {len(values)} different {what} ({' | '.join(values)}); "
                "their scores are not comparable."
            )
    _model_notes(view, runs, row_of)


def _model_notes(view: View, runs: pd.DataFrame, row_of: dict[str, str]) -> None:
    """Warn per metric family (REG2025, WSI_P, ...) whose runs used different models or settings."""
    families: dict[str, dict[str, set[str]]] = {}
    for run, text in zip(runs["run"], runs["comparability"]):
        for family, setting in (json.loads(text) if text else {}).items():
            families.setdefault(family, {}).setdefault(setting, set()).add(row_of[run])
    for family, settings in sorted(families.items()):
        if len(settings) > 1:
            listing = "; ".join(
                f"{s} ({', '.join(sorted(rows))})" for s, rows in sorted(settings.items())
            )
            view.notes.append(
                f"WARNING: {family} scores were computed with {len(settings)} different models or "
                f"settings: {listing}; they are not comparable across them."
            )


def _row_labels(view: View, runs: pd.DataFrame) -> dict[str, str]:
    if view.by == ("encoder",):
        return dict(zip(runs["run"], runs["encoder"]))
    if view.by == ("model",):
        return dict(zip(runs["run"], runs["model"]))
    return {r: f"{m} / {e}" for r, m, e in zip(runs["run"], runs["model"], runs["encoder"])}


def cells_as_records(view: View) -> list[dict[str, Any]]:
    """Flat records of a view (for CSV and tests): one per row, four columns per metric."""
    out = []
    for row in view.rows:
        record: dict[str, Any] = {"dataset": view.dataset, "split": view.split}
        record.update(dict(zip(view.by, row)))
        record["runs"] = view.row_runs[row]
        for metric in view.metrics:
            cell = view.cells[(row, metric)]
            record[metric] = cell.mean
            record[f"{metric}_std"] = cell.std
            record[f"{metric}_n"] = cell.n
            record[f"{metric}_status"] = cell.status
        out.append(record)
    return out
