"""Results tables in the paper's layout, from the ``summary.json`` of many runs.

* Model x dataset tables (paper Table 2, Table 3, C.T1-C.T15): one row per model, one column per
  (dataset, metric), values from the oracle view by default (or the fixed view). In Markdown the
  best value of each column is bold and the second best underlined, ties all marked, as in the
  paper; the CSV holds the raw values and the setting each value came from.
* Aggregation sensitivity (A.T1, A.T3-A.T5, A.T9, A.T11, A.T13-A.T14): model x setting, the metric
  averaged over the model's datasets, and the Spearman correlation of the model rankings between
  every pair of settings (A.T2, A.T6-A.T8, A.T10, A.T12, A.T15).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathreport.pathlang.metrics import spearman_rho

# Dataset column order of the paper's tables; other datasets follow in the order first seen.
PAPER_DATASET_ORDER = ("panda", "unitopatho", "camelyon16", "camelyon17", "tcga_gbmlgg")


@dataclass(frozen=True)
class Column:
    task: str
    unit: str
    metric: str
    header: str
    digits: int = 3
    signed: bool = False


def _ensemble_columns() -> tuple[Column, ...]:
    first = Column("t3", "paraphrase", "v3.L1.mean", "L1")
    return (
        first,
        *(
            Column("t3", "paraphrase", f"v3.L{n}.gain_pct", f"L{n} %", 1, True)
            for n in range(2, 10)
        ),
    )


def _t4(unit: str) -> tuple[Column, ...]:
    return (
        Column("t4", unit, "mean_recall", "mR"),
        Column("t4", unit, "recall@1", "R@1"),
        Column("t4", unit, "recall@5", "R@5"),
    )


def _t3(group: str) -> tuple[Column, ...]:
    return (
        Column("t3", "paraphrase", f"{group}.mean_accuracy", "Acc"),
        Column("t3", "paraphrase", f"{group}.prediction_consistency", "P.C."),
        Column("t3", "paraphrase", f"{group}.pss", "PSS"),
    )


TABLES: dict[str, tuple[str, tuple[Column, ...]]] = {
    "t1": (
        "T1 zero-shot classification (paper Table 2)",
        (
            Column("t1", "classification", "accuracy", "Acc"),
            Column("t1", "classification", "auc", "AUC"),
            Column("t1", "classification", "macro_f1", "mF1"),
        ),
    ),
    "t1_alignment": (
        "T1 alignment score and similarity gap (paper Fig. 2, C.T1)",
        (
            Column("t1", "classification", "alignment_score", "Align"),
            Column("t1", "classification", "similarity_gap", "Gap"),
        ),
    ),
    "t2_i2i": (
        "T2 image-to-image retrieval (paper C.T2)",
        tuple(
            Column("t2", "i2i", m, h)
            for m, h in (("recall@1", "R@1"), ("recall@5", "R@5"), ("mrr", "MRR"), ("ndcg", "nDCG"))
        ),
    ),
    "t2_i2t": (
        "T2 image-to-text retrieval (paper C.T3)",
        tuple(
            Column("t2", "i2t", m, h)
            for m, h in (("recall@1", "R@1"), ("mrr", "MRR"), ("ndcg", "nDCG"))
        ),
    ),
    "t2_t2i": (
        "T2 text-to-image retrieval (paper C.T4)",
        tuple(
            Column("t2", "t2i", m, h)
            for m, h in (("recall@1", "R@1"), ("recall@5", "R@5"), ("mrr", "MRR"), ("ndcg", "nDCG"))
        ),
    ),
    "t3_v1": ("T3 Variant 1, semantic-equivalence paraphrases (paper C.T5)", _t3("v1")),
    "t3_v2": ("T3 Variant 2, length and reporting style (paper C.T6)", _t3("v2")),
    "t3_v3": (
        "T3 Variant 3, prompt ensembles: L1 accuracy, L2-L9 change vs L1 in % (paper Table 3)",
        _ensemble_columns(),
    ),
    "t4_set1": ("T4 Set 1, open vocabulary (paper C.T12)", _t4("set1")),
    "t4_set2": ("T4 Set 2, label-specific mixture (paper C.T13)", _t4("set2")),
    "t4_set3": ("T4 Set 3, cross-organ (paper C.T14)", _t4("set3")),
    "t4_set4": ("T4 Set 4, all dataset labels (paper C.T15)", _t4("set4")),
}

# Sensitivity analyses: (per_setting key, metric, title).
SENSITIVITY: dict[str, tuple[str, str, str]] = {
    "t1_macro_f1": ("t1.classification", "macro_f1", "T1 macro-F1 (paper A.T1, A.T2)"),
    "t2_i2t_ndcg": ("t2.i2t", "ndcg", "T2 I2T nDCG (paper A.T3, A.T6)"),
    "t2_t2i_ndcg": ("t2.t2i", "ndcg", "T2 T2I nDCG (paper A.T4, A.T7)"),
    "t2_i2i_ndcg": ("t2.i2i", "ndcg", "T2 I2I nDCG (paper A.T5, A.T8)"),
    "t3_v1_mean_accuracy": (
        "t3.paraphrase",
        "v1.mean_accuracy",
        "T3 V1 mean accuracy (paper A.T9, A.T10)",
    ),
    "t3_v2_mean_accuracy": (
        "t3.paraphrase",
        "v2.mean_accuracy",
        "T3 V2 mean accuracy (paper A.T11, A.T12)",
    ),
    **{
        f"t4_{s}_recall1": (f"t4.{s}", "recall@1", f"T4 {s} Recall@1 (paper A.T13-A.T15)")
        for s in ("set1", "set2", "set3", "set4")
    },
}


def load_runs(paths: Sequence[str | os.PathLike]) -> list[dict[str, Any]]:
    """PathLang summaries from run folders (searched recursively) or ``summary.json`` files."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files.extend(sorted(p.rglob("summary.json")))
        else:
            raise FileNotFoundError(f"Run folder or summary file {p} does not exist.")
    runs, seen = [], {}
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        if data.get("benchmark") != "pathlang":
            continue
        key = (data["model"], data["dataset"])
        if key in seen:
            raise ValueError(
                f"Two PathLang runs for model '{key[0]}' on dataset '{key[1]}': {seen[key]} "
                f"and {f}. Keep one, or give the runs distinct model names (--model-name)."
            )
        seen[key] = f
        data["_path"] = str(f)
        runs.append(data)
    if not runs:
        raise FileNotFoundError(f"No PathLang summary.json under {', '.join(map(str, paths))}.")
    return runs


def _dig(values: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(values, dict) or part not in values:
            return None
        values = values[part]
    return values


def _order(runs: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    models = list(dict.fromkeys(r["model"] for r in runs))
    present = list(dict.fromkeys(r["dataset"] for r in runs))
    datasets = [d for d in PAPER_DATASET_ORDER if d in present] + [
        d for d in present if d not in PAPER_DATASET_ORDER
    ]
    return models, datasets


@dataclass
class Table:
    """A rendered table: title, header, rows of values, and per-cell settings (CSV only)."""

    name: str
    title: str
    header: list[str]
    rows: list[list[Any]]
    marks: list[list[str]]
    formats: list[tuple[int, bool]]

    def markdown(self) -> str:
        lines = [
            f"**{self.title}**",
            "",
            "| " + " | ".join(self.header) + " |",
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(self.header))) + "|",
        ]
        for row, marks in zip(self.rows, self.marks, strict=True):
            cells = [str(row[0])]
            for value, mark, (digits, signed) in zip(row[1:], marks, self.formats, strict=True):
                text = _fmt(value, digits, signed)
                cells.append(
                    f"**{text}**"
                    if mark == "best"
                    else f"<u>{text}</u>"
                    if mark == "second"
                    else text
                )
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"


def _fmt(value: Any, digits: int, signed: bool) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _mark(columns: list[list[Any]]) -> list[list[str]]:
    """Best (bold) and second-best (underlined) per column; ties share the mark."""
    marks = [["" for _ in columns] for _ in columns[0]] if columns else []
    for j, col in enumerate(columns):
        values = sorted(
            {v for v in col if isinstance(v, (int, float)) and not math.isnan(v)}, reverse=True
        )
        for i, v in enumerate(col):
            if values and v == values[0]:
                marks[i][j] = "best"
            elif len(values) > 1 and v == values[1]:
                marks[i][j] = "second"
    return marks


def model_by_dataset(
    runs: list[dict[str, Any]], name: str, view: str = "oracle"
) -> tuple[Table, list[dict[str, Any]]]:
    """One paper-layout table and its CSV rows (values plus the setting of each value)."""
    title, columns = TABLES[name]
    models, datasets = _order(runs)
    by_key = {(r["model"], r["dataset"]): r for r in runs}
    header = ["Model"] + [f"{_label(runs, d)} {c.header}" for d in datasets for c in columns]
    rows, csv_rows = [], []
    for m in models:
        row: list[Any] = [m]
        csv_row: dict[str, Any] = {"model": m}
        for d in datasets:
            unit_view = (
                _dig(by_key.get((m, d), {}), f"results.{columns[0].task}.{columns[0].unit}.{view}")
                or {}
            )
            for c in columns:
                value = _dig(by_key.get((m, d), {}), f"results.{c.task}.{c.unit}.{view}.{c.metric}")
                row.append(value)
                csv_row[f"{d}/{c.header}"] = value
            csv_row[f"{d}/setting"] = unit_view.get("setting")
        rows.append(row)
        csv_rows.append(csv_row)
    formats = [(c.digits, c.signed) for _ in datasets for c in columns]
    # Signed columns are changes (V3 gains), where "best" is not the point; they stay unmarked.
    marks = _mark(
        [
            [r[j] for r in rows] if not formats[j - 1][1] else [None] * len(rows)
            for j in range(1, len(header))
        ]
    )
    chance = _chance_row(runs, columns, datasets)
    if chance:  # Set 1's uniform-random baseline, as the paper's C.T12 shows it (never marked)
        rows.append(["Chance", *chance.values()])
        marks.append([""] * len(chance))
        csv_rows.append({"model": "Chance", **chance})
    view_note = (
        "oracle setting per evaluation unit (upper bound)" if view == "oracle" else "fixed setting"
    )
    return Table(name, f"{title}: {view_note}", header, rows, marks, formats), csv_rows


def _chance_row(
    runs: list[dict[str, Any]], columns: Sequence[Column], datasets: list[str]
) -> dict[str, Any]:
    """Chance values per (dataset, metric) when the runs report a chance level for this pool."""
    unit = columns[0].unit
    row: dict[str, Any] = {}
    for d in datasets:
        chance = next(
            (
                _dig(r, f"chance.t4.{unit}")
                for r in runs
                if r["dataset"] == d and _dig(r, f"chance.t4.{unit}")
            ),
            None,
        )
        for c in columns:
            row[f"{d}/{c.header}"] = chance.get(c.metric) if chance else None
    return row if columns[0].task == "t4" and any(v is not None for v in row.values()) else {}


def _label(runs: list[dict[str, Any]], dataset: str) -> str:
    return next((r.get("dataset_key") or dataset for r in runs if r["dataset"] == dataset), dataset)


def sensitivity(
    runs: list[dict[str, Any]], name: str
) -> tuple[Table, Table | None, list[dict[str, Any]]]:
    """Model x setting averages over datasets, and the Spearman matrix between settings."""
    key, metric, title = SENSITIVITY[name]
    models, _ = _order(runs)
    settings = list(dict.fromkeys(s["name"] for r in runs for s in r.get("settings", [])))
    rows, csv_rows = [], []
    for m in models:
        row: list[Any] = [m]
        n_datasets = 0
        for s in settings:
            values = [
                r.get("per_setting", {}).get(key, {}).get(s, {}).get(metric)
                for r in runs
                if r["model"] == m
            ]
            values = [v for v in values if v is not None and not math.isnan(v)]
            n_datasets = max(n_datasets, len(values))
            row.append(sum(values) / len(values) if values else None)
        rows.append(row + [n_datasets])
        csv_rows.append(
            {"model": m, **dict(zip(settings, row[1:], strict=True)), "n_datasets": n_datasets}
        )
    header = ["Model", *settings, "datasets"]
    marks = [m + [""] for m in _mark_rows([r[1:-1] for r in rows])]
    table = Table(
        name,
        f"{title}: averaged over each model's datasets (best setting per model in bold)",
        header,
        rows,
        marks,
        [(3, False)] * len(settings) + [(0, False)],
    )
    rho = None
    complete = [r for r in rows if all(isinstance(v, (int, float)) for v in r[1:-1])]
    if len(complete) >= 2 and len(settings) >= 2:
        matrix = [
            [s]
            + [
                spearman_rho([r[1 + i] for r in complete], [r[1 + j] for r in complete])
                for j in range(len(settings))
            ]
            for i, s in enumerate(settings)
        ]
        rho = Table(
            f"{name}_spearman",
            f"{title}: Spearman rho between model rankings of settings ({len(complete)} models)",
            ["Setting", *settings],
            matrix,
            [[""] * len(settings) for _ in settings],
            [(3, False)] * len(settings),
        )
    return table, rho, csv_rows


def _mark_rows(rows: list[list[Any]]) -> list[list[str]]:
    """Best per row (bold), for setting-sensitivity tables."""
    out = []
    for row in rows:
        values = [v for v in row if isinstance(v, (int, float))]
        best = max(values) if values else None
        out.append(["best" if best is not None and v == best else "" for v in row])
    return out


def query_independent_baseline(
    runs: list[dict[str, Any]], group: str, settings: tuple[str, str] = ("top1", "mean")
) -> tuple[Table, list[dict[str, Any]]] | None:
    """P.C. and PSS of a T3 variant group under Hybrid Top-1% and mean pooling, averaged over each
    model's datasets, and how many model-dataset pairs have a negative PSS (paper A.T16, A.T17)."""
    models, _ = _order(runs)
    key = "t3.paraphrase"
    if not any(all(s in r.get("per_setting", {}).get(key, {}) for s in settings) for r in runs):
        return None
    header = ["Model"] + [f"{s} {m}" for s in settings for m in ("P.C.", "PSS")]
    rows, csv_rows, negative, pairs = [], [], dict.fromkeys(settings, 0), 0
    for m in models:
        mine = [
            r["per_setting"][key]
            for r in runs
            if r["model"] == m and key in r.get("per_setting", {})
        ]
        row: list[Any] = [m]
        for s in settings:
            for metric in ("prediction_consistency", "pss"):
                values = [v[s].get(f"{group}.{metric}") for v in mine if s in v]
                values = [x for x in values if x is not None and not math.isnan(x)]
                row.append(sum(values) / len(values) if values else None)
            negative[s] += sum(1 for v in mine if s in v and (v[s].get(f"{group}.pss") or 0.0) < 0)
        pairs += len(mine)
        rows.append(row)
        csv_rows.append({"model": m, **dict(zip(header[1:], row[1:], strict=True))})
    counts = ", ".join(f"{negative[s]}/{pairs} under {s}" for s in settings)
    title = (
        f"T3 {group.upper()} query-independent baseline (paper "
        f"A.T{16 if group == 'v1' else 17}): averaged over each model's datasets; model-dataset "
        f"pairs with negative PSS: {counts}"
    )
    return Table(
        f"baseline_{group}",
        title,
        header,
        rows,
        [[""] * (len(header) - 1) for _ in rows],
        [(3, False)] * (len(header) - 1),
    ), csv_rows


def write_tables(
    runs: list[dict[str, Any]],
    out_dir: str | os.PathLike,
    *,
    names: Sequence[str] | None = None,
    view: str = "oracle",
    with_sensitivity: bool = True,
) -> tuple[str, list[Path]]:
    """Write each table as ``pathlang_<name>.md`` and ``.csv``; return all Markdown and paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    parts: list[str] = []
    available = {task for r in runs for task in r.get("results", {})}
    for name in names or list(TABLES):
        if name not in TABLES:
            raise ValueError(f"Unknown PathLang table '{name}'; tables: {', '.join(TABLES)}.")
        if TABLES[name][1][0].task not in available:
            continue
        table, csv_rows = model_by_dataset(runs, name, view)
        written += _write(out, name, table.markdown(), csv_rows)
        parts.append(table.markdown())
    if with_sensitivity:
        for name in SENSITIVITY:
            if SENSITIVITY[name][0].split(".")[0] not in available:
                continue
            table, rho, csv_rows = sensitivity(runs, name)
            text = table.markdown() + ("\n" + rho.markdown() if rho else "")
            written += _write(out, f"sensitivity_{name}", text, csv_rows)
            if rho:  # the Spearman matrix as CSV too (its Markdown is part of the sensitivity page)
                rho_rows = [
                    {"setting": row[0], **dict(zip(rho.header[1:], row[1:], strict=True))}
                    for row in rho.rows
                ]
                written.append(
                    _write_csv(out / f"pathlang_sensitivity_{name}_spearman.csv", rho_rows)
                )
            parts.append(text)
        for group in ("v1", "v2") if "t3" in available else ():
            baseline = query_independent_baseline(runs, group)
            if baseline:
                table, csv_rows = baseline
                written += _write(out, f"baseline_t3_{group}", table.markdown(), csv_rows)
                parts.append(table.markdown())
    return "\n".join(parts), written


def _write(out: Path, name: str, markdown: str, rows: list[dict[str, Any]]) -> list[Path]:
    md = out / f"pathlang_{name}.md"
    md.write_text(markdown, encoding="utf-8")
    return [md, _write_csv(out / f"pathlang_{name}.csv", rows)]


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> Path:
    buffer = io.StringIO()
    columns = list(dict.fromkeys(k for row in rows for k in row))
    writer = csv.DictWriter(buffer, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path
