"""The paper's figures from the results table, each returned with the data it plots.

* ``scatter``: METEOR vs CRQS per dataset, one point per model x encoder (mean over seeds), with
  Spearman's rank correlation in each panel title (PathReportEval, Figure 3).
* ``bars``: CRQS per method grouped by encoder, bars with 95% interval whiskers, one panel per
  dataset (Figures 4-5). By default the interval is the t interval over seeds when a cell has
  three or more seeds, else the bootstrap interval over slides (``CRQS_CI95`` of a single run's
  summary, or a bootstrap of the per-slide scores averaged over the cell's runs); ``ci_source`` in
  the data says which.
* ``fields``: per dataset, a heat map of CRQS field recall, model x field, pooled over the model's
  runs as sum(matched) / sum(reference support) from the runs' ``<split>_fields.csv``.

Figures are drawn on :class:`matplotlib.figure.Figure` objects with the Agg canvas (no pyplot, no
display needed) and saved as PNG and PDF.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pathreport.evaluation.crqs.scoring import bootstrap_ci
from pathreport.results.metrics import display_name
from pathreport.results.per_case import read_per_case
from pathreport.results.stats import mean_interval, spearman
from pathreport.results.store import ResultsError
from pathreport.results.views import baseline_models, run_frame

if TYPE_CHECKING:
    import pandas as pd

KINDS = ("scatter", "bars", "fields")
CI_SOURCES = ("auto", "seeds", "cases")
# With two seeds the t interval uses t(0.975, 1) = 12.7 and spans far beyond any score's range;
# from three seeds on it is informative, below that the interval over slides is shown instead.
AUTO_MIN_SEEDS = 3


@dataclass
class FigureOutput:
    """Files written for one figure, the data drawn in it, and statistics printed on it."""

    kind: str
    paths: list[Path]
    data: pd.DataFrame
    stats: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _split_frame(frame: pd.DataFrame, split: str, datasets: Sequence[str] | None) -> pd.DataFrame:
    subset = frame[frame["split"] == split]
    if datasets:
        subset = subset[subset["dataset"].isin(list(datasets))]
    if subset.empty:
        raise ResultsError(
            f"No {split!r} runs{' of ' + ', '.join(datasets) if datasets else ''} in the results "
            "table; collect runs first or pass --split / --dataset."
        )
    return subset


def _model_order(models: Sequence[str]) -> list[str]:
    baselines = baseline_models(set(models))
    return sorted(set(models), key=lambda m: (m in baselines, m))


def _seed_means(runs: pd.DataFrame, metrics: Sequence[str]) -> pd.DataFrame:
    """Per dataset x model x encoder x seed, the metric means (repeated seeds averaged)."""
    return runs.groupby(["dataset", "model", "encoder", "seed_key"], as_index=False)[
        list(metrics)
    ].mean()


def scatter_data(
    frame: pd.DataFrame,
    *,
    x: str = "METEOR",
    y: str = "CRQS",
    split: str = "test",
    datasets: Sequence[str] | None = None,
) -> tuple[pd.DataFrame, dict[str, dict[str, float]]]:
    """Points (mean over seeds per model x encoder) and, per dataset, Spearman's rho and n."""
    runs = run_frame(_split_frame(frame, split, datasets), [x, y])
    seeds = _seed_means(runs, [x, y])
    points = seeds.groupby(["dataset", "model", "encoder"], as_index=False).agg(
        **{x: (x, "mean"), y: (y, "mean"), "n_seeds": ("seed_key", "size")}
    )
    stats = {}
    for name, group in points.groupby("dataset"):
        usable = group.dropna(subset=[x, y])
        stats[str(name)] = {
            "spearman": spearman(list(usable[x]), list(usable[y])),
            "n": len(usable),
        }
    return points, stats


def bars_data(
    frame: pd.DataFrame,
    *,
    metric: str = "CRQS",
    split: str = "test",
    ci: str = "auto",
    confidence: float = 0.95,
    datasets: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Per dataset x model x encoder (run or not): mean and interval of ``metric``."""
    import pandas as pd

    if ci not in CI_SOURCES:
        raise ResultsError(f"ci must be one of {CI_SOURCES}, found {ci!r}.")
    subset = _split_frame(frame, split, datasets)
    runs = run_frame(subset, [metric, f"{metric}_CI95_low", f"{metric}_CI95_high"])
    seeds = _seed_means(runs, [metric])
    rows = []
    for dataset, in_dataset in runs.groupby("dataset", sort=True):
        for model in _model_order(list(in_dataset["model"])):
            for encoder in sorted(set(in_dataset["encoder"])):
                cell = in_dataset[
                    (in_dataset["model"] == model) & (in_dataset["encoder"] == encoder)
                ]
                values = (
                    seeds[
                        (seeds["dataset"] == dataset)
                        & (seeds["model"] == model)
                        & (seeds["encoder"] == encoder)
                    ][metric]
                    .dropna()
                    .tolist()
                )
                row = {
                    "dataset": dataset,
                    "model": model,
                    "encoder": encoder,
                    "n_runs": len(cell),
                    "mean": math.nan,
                    "ci_low": math.nan,
                    "ci_high": math.nan,
                    "ci_source": "none",
                    "status": "missing" if cell.empty else ("ok" if values else "unavailable"),
                }
                if values:
                    row["mean"] = sum(values) / len(values)
                    by_seeds = ci == "seeds" or (ci == "auto" and len(values) >= AUTO_MIN_SEEDS)
                    interval = mean_interval(values, confidence) if by_seeds else None
                    if interval is not None:
                        row.update(
                            ci_low=interval[1],
                            ci_high=interval[2],
                            ci_source=f"seeds (t, n={len(values)})",
                        )
                    elif ci in ("auto", "cases"):
                        row.update(_case_interval(cell, metric, confidence))
                rows.append(row)
    return pd.DataFrame(rows)


def _case_interval(cell: pd.DataFrame, metric: str, confidence: float) -> dict[str, Any]:
    """The bootstrap interval over slides of a cell: stored in the summary (one run) or from
    per-case files.
    """
    low, high = f"{metric}_CI95_low", f"{metric}_CI95_high"
    if (
        len(cell) == 1
        and confidence == 0.95
        and cell[low].notna().all()
        and cell[high].notna().all()
    ):
        return {
            "ci_low": float(cell[low].iloc[0]),
            "ci_high": float(cell[high].iloc[0]),
            "ci_source": "cases (summary)",
        }
    files = [p for p in cell["per_case"] if p and Path(p).is_file()]
    if len(files) != len(cell) or not files:
        return {}

    per_run = [read_per_case(p) for p in files]
    common = set.intersection(*(set(s) for s in per_run))
    values = []
    for case in sorted(common):
        scores = [s[case].get(metric) for s in per_run if s[case].get(metric) is not None]
        if scores:
            values.append(sum(scores) / len(scores))
    interval = bootstrap_ci(values, n_resamples=1000, confidence=confidence, seed=0)
    if interval is None:
        return {}
    return {"ci_low": interval[0], "ci_high": interval[1], "ci_source": "cases (bootstrap)"}


def field_recall_data(
    frame: pd.DataFrame, *, split: str = "test", datasets: Sequence[str] | None = None
) -> tuple[pd.DataFrame, list[str]]:
    """Pooled recall per dataset x model x field from the runs' field tables; notes for the rest."""
    import pandas as pd

    subset = _split_frame(frame, split, datasets).drop_duplicates("run")
    tables, notes = [], []
    for run, dataset, model, path in zip(
        subset["run"], subset["dataset"], subset["model"], subset["fields"]
    ):
        if not path or not Path(path).is_file():
            notes.append(
                f"{run}: no CRQS field table ({path or 'none recorded'}); left out of the heat map."
            )
            continue
        table = pd.read_csv(path)
        missing = {"field", "reference_support", "matched"} - set(table.columns)
        if missing:
            raise ResultsError(
                f"{path}: columns {sorted(missing)} are missing; expected a CRQS field table "
                "(field, reference_support, matched, ...). Score the run again to rewrite it."
            )
        table = table[["field", "reference_support", "matched"]].assign(
            dataset=dataset, model=model, order=range(len(table))
        )
        tables.append(table)
    if not tables:
        return pd.DataFrame(
            columns=["dataset", "model", "field", "support", "matched", "recall", "runs"]
        ), notes
    every = pd.concat(tables, ignore_index=True)
    pooled = every.groupby(["dataset", "model", "field"], as_index=False, sort=False).agg(
        support=("reference_support", "sum"),
        matched=("matched", "sum"),
        order=("order", "min"),
        runs=("order", "size"),
    )
    pooled["recall"] = [
        m / s if s > 0 else math.nan for m, s in zip(pooled["matched"], pooled["support"])
    ]
    return pooled.sort_values(["dataset", "order", "model"]).drop(columns="order").reset_index(
        drop=True
    ), notes


def _save(figure: Any, out_dir: Path, stem: str, formats: Sequence[str]) -> list[Path]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = out_dir / f"{stem}.{fmt}"
        metadata = {"CreationDate": None} if fmt == "pdf" else None
        figure.savefig(path, format=fmt, bbox_inches="tight", metadata=metadata)
        paths.append(path)
    return paths


def _figure(
    n_panels: int, width: float, height: float, extra_width: float = 0.0
) -> tuple[Any, list[Any]]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width * n_panels + extra_width, height), dpi=100, layout="constrained")
    axes = figure.subplots(1, n_panels, squeeze=False)[0]
    return figure, list(axes)


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def plot_scatter(
    frame: pd.DataFrame,
    out_dir: Path,
    *,
    x: str = "METEOR",
    y: str = "CRQS",
    split: str = "test",
    datasets: Sequence[str] | None = None,
    formats: Sequence[str] = ("png", "pdf"),
) -> FigureOutput:
    points, stats = scatter_data(frame, x=x, y=y, split=split, datasets=datasets)
    names = sorted(set(points["dataset"]))
    figure, axes = _figure(len(names), 4.0, 3.6, extra_width=1.6)
    models = _model_order(list(points["model"]))
    encoders = sorted(set(points["encoder"]))
    colors = {m: f"C{i % 10}" for i, m in enumerate(models)}
    for ax, dataset in zip(axes, names):
        group = points[points["dataset"] == dataset].dropna(subset=[x, y])
        for model, encoder, px, py in zip(group["model"], group["encoder"], group[x], group[y]):
            ax.scatter(
                px,
                py,
                color=colors[model],
                marker=MARKERS[encoders.index(encoder) % len(MARKERS)],
                s=46,
                edgecolor="black",
                linewidth=0.4,
            )
        rho = stats[dataset]["spearman"]
        rho_text = "n/a" if math.isnan(rho) else f"{rho:.2f}"
        ax.set_title(
            f"{dataset}\nSpearman ρ = {rho_text} (n={stats[dataset]['n']} points)", fontsize=10
        )
        ax.set_xlabel(display_name(x))
        ax.set_ylabel(display_name(y))
        ax.grid(alpha=0.3)
    handles = [_legend_point(colors[m], "o", m) for m in models] + [
        _legend_point("white", MARKERS[i % len(MARKERS)], e) for i, e in enumerate(encoders)
    ]
    figure.legend(handles=handles, loc="outside right upper", fontsize=8, frameon=False)
    paths = _save(figure, out_dir, f"{x}_vs_{y}".lower(), formats)
    return FigureOutput("scatter", paths, points, stats={k: v for k, v in stats.items()})


def _legend_point(color: str, marker: str, label: str) -> Any:
    from matplotlib.lines import Line2D

    return Line2D(
        [],
        [],
        color=color,
        marker=marker,
        linestyle="",
        markeredgecolor="black",
        markersize=7,
        label=label,
    )


def plot_bars(
    frame: pd.DataFrame,
    out_dir: Path,
    *,
    metric: str = "CRQS",
    split: str = "test",
    ci: str = "auto",
    datasets: Sequence[str] | None = None,
    formats: Sequence[str] = ("png", "pdf"),
) -> FigureOutput:
    data = bars_data(frame, metric=metric, split=split, ci=ci, datasets=datasets)
    names = sorted(set(data["dataset"]))
    figure, axes = _figure(len(names), 5.0, 3.4)
    encoders = sorted(set(data["encoder"]))
    width = 0.8 / max(1, len(encoders))
    for ax, dataset in zip(axes, names):
        group = data[data["dataset"] == dataset]
        models = _model_order(list(group["model"]))
        for j, encoder in enumerate(encoders):
            rows = group[group["encoder"] == encoder].set_index("model").reindex(models)
            xs = [i + (j - (len(encoders) - 1) / 2) * width for i in range(len(models))]
            heights = rows["mean"].to_numpy(dtype=float)
            low = (rows["mean"] - rows["ci_low"]).to_numpy(dtype=float)
            high = (rows["ci_high"] - rows["mean"]).to_numpy(dtype=float)
            ax.bar(
                xs,
                heights,
                width=width * 0.95,
                color=f"C{j % 10}",
                label=encoder,
                yerr=[low, high],
                capsize=2,
                error_kw={"linewidth": 0.8},
            )
            for xpos, status in zip(xs, rows["status"]):
                if status != "ok":
                    ax.text(
                        xpos,
                        0,
                        "missing" if status == "missing" else "n/a",
                        rotation=90,
                        ha="center",
                        va="bottom",
                        fontsize=7,
                        color="0.4",
                    )
        ax.set_xticks(range(len(models)), models, rotation=30, ha="right", fontsize=8)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(dataset, fontsize=10)
        ax.set_ylabel(display_name(metric))
        ax.grid(axis="y", alpha=0.3)
    axes[-1].legend(title="encoder", fontsize=8, title_fontsize=8, frameon=False, loc="best")
    paths = _save(figure, out_dir, f"{metric}_by_encoder".lower(), formats)
    notes = [
        f"{d} / {m} / {e}: no interval (one run without stored or per-case scores)"
        for d, m, e, s, src in zip(
            data["dataset"], data["model"], data["encoder"], data["status"], data["ci_source"]
        )
        if s == "ok" and src == "none"
    ]
    return FigureOutput("bars", paths, data, notes=notes)


def plot_field_heatmaps(
    frame: pd.DataFrame,
    out_dir: Path,
    *,
    split: str = "test",
    datasets: Sequence[str] | None = None,
    formats: Sequence[str] = ("png", "pdf"),
) -> FigureOutput:
    import numpy as np

    data, notes = field_recall_data(frame, split=split, datasets=datasets)
    paths: list[Path] = []
    for dataset, group in data.groupby("dataset", sort=True):
        supported = group.groupby("field", sort=False)["support"].sum()
        fields = [f for f in dict.fromkeys(group["field"]) if supported[f] > 0]
        models = _model_order(list(group["model"]))
        grid = group.pivot_table(
            index="model", columns="field", values="recall", aggfunc="first", dropna=False
        )
        grid = grid.reindex(index=models, columns=fields)
        values = np.ma.masked_invalid(grid.to_numpy(dtype=float))
        figure, (ax,) = _figure(
            1, max(4.0, 0.45 * len(fields) + 2.0), max(2.2, 0.4 * len(models) + 1.4)
        )
        cmap = _cmap()
        image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap=cmap, aspect="auto")
        ax.set_xticks(range(len(fields)), fields, rotation=45, ha="right", fontsize=8)
        ax.set_yticks(range(len(models)), models, fontsize=8)
        for i in range(len(models)):
            for j in range(len(fields)):
                value = grid.iat[i, j]
                text = "n/a" if math.isnan(value) else f"{value:.2f}"
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    color="white" if not math.isnan(value) and value < 0.6 else "black",
                )
        ax.set_title(f"CRQS field recall on {dataset} ({split})", fontsize=10)
        figure.colorbar(image, ax=ax, label="recall", shrink=0.9)
        paths += _save(figure, out_dir, f"field_recall_{dataset}", formats)
    if data.empty:
        notes.append("No run has a CRQS field table; no heat map written.")
    return FigureOutput("fields", paths, data, notes=notes)


def _cmap() -> Any:
    from matplotlib import colormaps

    return colormaps["viridis"].with_extremes(bad="0.85")


def make_figures(
    frame: pd.DataFrame,
    out_dir: Path,
    *,
    kinds: Sequence[str] = KINDS,
    split: str = "test",
    datasets: Sequence[str] | None = None,
    x: str = "METEOR",
    y: str = "CRQS",
    metric: str = "CRQS",
    ci: str = "auto",
    formats: Sequence[str] = ("png", "pdf"),
) -> list[FigureOutput]:
    """Every requested figure kind, written under ``out_dir``."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ResultsError(f"Unknown figure kind(s) {unknown}; choose from {', '.join(KINDS)}.")
    outputs = []
    for kind in kinds:
        if kind == "scatter":
            outputs.append(
                plot_scatter(
                    frame, out_dir, x=x, y=y, split=split, datasets=datasets, formats=formats
                )
            )
        elif kind == "bars":
            outputs.append(
                plot_bars(
                    frame,
                    out_dir,
                    metric=metric,
                    split=split,
                    ci=ci,
                    datasets=datasets,
                    formats=formats,
                )
            )
        else:
            outputs.append(
                plot_field_heatmaps(frame, out_dir, split=split, datasets=datasets, formats=formats)
            )
    return outputs
