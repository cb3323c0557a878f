"""Result tables in the paper's layouts, as Markdown (for reading) and CSV (for further analysis).

Inputs are the ``summary.json`` documents the protocols write, one per model, so a table can always
be rebuilt from results alone. Layouts:

* ``vqa``: model x column, each cell "with image / without image (+MG)" (Tables 1, 2, A.1, A.2);
  the CSV has three columns per table column (image, text, gain) and the unweighted Avg.
* ``vqa_conditions``: model x input condition, Avg accuracy (Table A.3 for the perturbations).
* ``grounding``: model x split (IoU, precision, recall) plus all samples (Table 3, A.4).
* ``grounding_sweep``: IoU per threshold q and pixel AP (Table C.10).
* ``grounding_layers``: IoU per layer set (Table C.9).
* ``grounding_diagnostics``: N_eff/N and cross-query correlation per split (Fig. 2b, c).
* ``kendall``: Kendall's tau between the model rankings of every pair of sweep columns (App. C.1).
* ``pairs``: fine-tuned minus base model deltas (Fig. 4, Fig. 2a).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathreport.pathbind.metrics import kendall_tau

PERTURBATION_PREFIXES = ("blank", "same_subset", "cross_subset")


@dataclass
class Table:
    """A titled table: ``cells`` are display strings, ``values`` the numbers behind them."""

    name: str
    title: str
    columns: list[str]
    cells: list[list[str]]
    csv_columns: list[str]
    values: list[list[Any]]

    def to_markdown(self) -> str:
        lines = [
            f"### {self.title}",
            "",
            "| " + " | ".join(self.columns) + " |",
            "|" + "---|" * len(self.columns),
        ]
        lines += ["| " + " | ".join(row) + " |" for row in self.cells]
        return "\n".join(lines) + "\n"

    def write_csv(self, path: Path) -> Path:
        with open(path, "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(self.csv_columns)
            for row in self.values:
                writer.writerow(
                    [
                        ""
                        if isinstance(v, float) and not math.isfinite(v)
                        else (round(v, 4) if isinstance(v, float) else v)
                        for v in row
                    ]
                )
        return path


def _fmt(value: Any, signed: bool = False) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    return f"{value:+.1f}" if signed else f"{value:.1f}"


def _num(value: Any) -> float:
    """A number from a summary (JSON writes NaN as null)."""
    return float("nan") if value is None else float(value)


def _union(lists: Sequence[Sequence[str]]) -> list[str]:
    return list(dict.fromkeys(x for values in lists for x in values))


def _model_table(
    name: str,
    title: str,
    docs: Sequence[dict[str, Any]],
    columns: tuple[list[str], list[str]],
    numbers: Callable[[dict[str, Any]], list[float]],
) -> Table:
    """One row per model of ``numbers(doc)``, shown formatted and kept as numbers for the CSV.

    ``columns`` are the (display, CSV) names of the number columns, after the model's.
    """
    values = [[doc["model"], *numbers(doc)] for doc in docs]
    cells = [[row[0], *[_fmt(v) for v in row[1:]]] for row in values]
    header, csv_header = columns
    return Table(name, title, ["Model", *header], cells, ["model", *csv_header], values)


def _cell(doc: dict[str, Any], condition: str, column: str) -> float:
    cell = doc.get("cells", {}).get(condition, {}).get(column)
    return _num(cell["accuracy"]) if cell else float("nan")


def vqa_table(docs: Sequence[dict[str, Any]]) -> Table:
    """Model x column: with image / without image (+MG), and the unweighted Avg."""
    columns = _union([d["columns"] for d in docs])
    header = ["Model", *columns, "Avg (MG)"]
    csv_header = (
        ["model"]
        + [f"{c} {part}" for c in [*columns, "Avg"] for part in ("image", "text", "gain")]
        + ["unparsed image", "unparsed text"]
    )
    random_row = docs[0].get("random", {}) if docs else {}
    cells = [["Random", *[_fmt(random_row.get(c)) for c in columns], _fmt(random_row.get("Avg"))]]
    values: list[list[Any]] = [
        ["Random"]
        + [
            v
            for c in [*columns, "Avg"]
            for v in (_num(random_row.get(c)), float("nan"), float("nan"))
        ]
        + [float("nan"), float("nan")]
    ]
    for doc in docs:
        row, numbers = [doc["model"]], [doc["model"]]
        for column in [*columns, "Avg"]:
            if column == "Avg":
                image, text = (
                    _num(doc.get("avg", {}).get("image")),
                    _num(doc.get("avg", {}).get("text")),
                )
            else:
                image, text = _cell(doc, "image", column), _cell(doc, "text", column)
            gain = image - text
            row.append(f"{_fmt(image)} / {_fmt(text)} ({_fmt(gain, signed=True)})")
            numbers += [image, text, gain]
        unparsed = doc.get("unparsed", {})
        numbers += [
            unparsed.get("image", {}).get("count", float("nan")),
            unparsed.get("text", {}).get("count", float("nan")),
        ]
        cells.append(row)
        values.append(numbers)
    return Table(
        "vqa",
        "Accuracy (%) with image / without image (Multimodal Gain, pp)",
        header,
        cells,
        csv_header,
        values,
    )


def vqa_conditions_table(docs: Sequence[dict[str, Any]]) -> Table:
    """Model x condition: Avg accuracy, plus the mean of the replacement conditions (Table A.3)."""
    conditions = _union([d["conditions"] for d in docs])
    perturbations = [c for c in conditions if c.startswith(PERTURBATION_PREFIXES)]
    extra = ["Avg of perturbations"] if perturbations else []

    def numbers(doc: dict[str, Any]) -> list[float]:
        row = [_num(doc.get("avg", {}).get(c)) for c in conditions]
        if perturbations:
            chosen = [_num(doc.get("avg", {}).get(c)) for c in perturbations]
            row.append(sum(chosen) / len(chosen))
        return row

    title = "Avg accuracy (%) per input condition"
    columns = [*conditions, *extra]
    return _model_table("vqa_conditions", title, docs, (columns, columns), numbers)


def _metric(doc: dict[str, Any], split: str, key: str) -> float:
    return _num(doc.get("metrics", {}).get(split, {}).get(key))


def grounding_table(docs: Sequence[dict[str, Any]]) -> Table:
    """Model x split: attention IoU / precision / recall (%), then all samples."""
    splits = [s for s in _union([d["splits"] for d in docs]) if s != "all"]
    parts = [(s, k) for s in splits for k in ("iou", "precision", "recall")] + [
        ("all", "iou"),
        ("all", "precision"),
        ("all", "recall"),
    ]
    names = {"iou": "IoU", "precision": "Prec", "recall": "Rec"}
    columns = ([f"{s} {names[k]}" for s, k in parts], [f"{s} {k}" for s, k in parts])
    return _model_table(
        "grounding",
        "Attention grounding (%): top-q mask vs box",
        docs,
        columns,
        lambda d: [_metric(d, s, k) for s, k in parts],
    )


def _sweep_keys(docs: Sequence[dict[str, Any]]) -> list[str]:
    keys = _union([list(d.get("metrics", {}).get("all", {})) for d in docs])
    return sorted((k for k in keys if k.startswith("iou@")), key=lambda k: float(k[4:])) + (
        ["pixel_ap"] if "pixel_ap" in keys else []
    )


def grounding_sweep_table(docs: Sequence[dict[str, Any]]) -> Table:
    """Model x threshold: mean IoU at each retained fraction q, and pixel AP (all samples)."""
    keys = _sweep_keys(docs)
    header = [f"IoU q={k[4:]}" if k.startswith("iou@") else "Pixel AP" for k in keys]
    return _model_table(
        "grounding_sweep",
        "Threshold sensitivity: IoU (%) per q and pixel AP (%)",
        docs,
        (header, keys),
        lambda d: [_metric(d, "all", k) for k in keys],
    )


def grounding_layers_table(docs: Sequence[dict[str, Any]]) -> Table:
    """Model x layer set: mean IoU (%) at the default q (all samples)."""
    keys = [
        k
        for k in _union([list(d.get("metrics", {}).get("all", {})) for d in docs])
        if k.startswith("iou_")
    ]
    return _model_table(
        "grounding_layers",
        "Layer aggregation: IoU (%) per decoder-layer set",
        docs,
        ([k[4:] for k in keys], keys),
        lambda d: [_metric(d, "all", k) for k in keys],
    )


def grounding_diagnostics_table(docs: Sequence[dict[str, Any]]) -> Table:
    """Model x split: N_eff/N and cross-query correlation, in percent."""
    splits = _union([d["splits"] for d in docs])
    parts = [(s, k) for s in splits for k in ("neff_ratio", "specificity")]
    names = {"neff_ratio": "N_eff/N", "specificity": "cross-query r"}
    return _model_table(
        "grounding_diagnostics",
        "Diffuseness (N_eff/N, %) and query specificity (mean pairwise Pearson, %)",
        docs,
        ([f"{s} {names[k]}" for s, k in parts], [f"{s} {k}" for s, k in parts]),
        lambda d: [100 * _metric(d, s, k) for s, k in parts],
    )


def kendall_table(docs: Sequence[dict[str, Any]]) -> Table | None:
    """Kendall's tau between model rankings of each pair of sweep columns; None for < 2 models."""
    if len(docs) < 2:
        return None
    keys = _sweep_keys(docs)
    scores = {k: [_metric(d, "all", k) for d in docs] for k in keys}
    cells, values = [], []
    for a in keys:
        row = [kendall_tau(scores[a], scores[b]) for b in keys]
        cells.append([a, *[f"{v:.2f}" if math.isfinite(v) else "n/a" for v in row]])
        values.append([a, *row])
    return Table(
        "kendall",
        f"Kendall's tau between model rankings ({len(docs)} models)",
        ["", *keys],
        cells,
        ["setting", *keys],
        values,
    )


def pairs_table(
    vqa_docs: Sequence[dict[str, Any]], grounding_docs: Sequence[dict[str, Any]]
) -> Table | None:
    """Fine-tuned minus base deltas for every model whose ``base_model`` has results too."""
    vqa = {d["model"]: d for d in vqa_docs}
    grounding = {d["model"]: d for d in grounding_docs}
    models = {d["model"]: d.get("base_model") for d in [*vqa_docs, *grounding_docs]}
    header = ["Pair (fine-tuned <- base)", "dAcc image", "dAcc text", "dMG", "dIoU", "dRecall"]
    cells, values = [], []
    for model, base in models.items():
        if not base or (base not in vqa and base not in grounding):
            continue
        numbers = [float("nan")] * 5
        if model in vqa and base in vqa:
            a, b = vqa[model].get("avg", {}), vqa[base].get("avg", {})
            numbers[0] = _num(a.get("image")) - _num(b.get("image"))
            numbers[1] = _num(a.get("text")) - _num(b.get("text"))
            numbers[2] = numbers[0] - numbers[1]
        if model in grounding and base in grounding:
            numbers[3] = _metric(grounding[model], "all", "iou") - _metric(
                grounding[base], "all", "iou"
            )
            numbers[4] = _metric(grounding[model], "all", "recall") - _metric(
                grounding[base], "all", "recall"
            )
        label = f"{model} <- {base}"
        cells.append([label, *[_fmt(v, signed=True) for v in numbers]])
        values.append([label, *numbers])
    if not cells:
        return None
    return Table(
        "pairs",
        "Paired deltas, fine-tuned minus base (pp)",
        header,
        cells,
        ["pair", "d_acc_image", "d_acc_text", "d_mg", "d_iou", "d_recall"],
        values,
    )


def build_tables(
    vqa_docs: Sequence[dict[str, Any]], grounding_docs: Sequence[dict[str, Any]]
) -> list[Table]:
    """Every table the given results support."""
    tables: list[Table | None] = []
    if vqa_docs:
        tables += [vqa_table(vqa_docs), vqa_conditions_table(vqa_docs)]
    if grounding_docs:
        tables += [
            grounding_table(grounding_docs),
            grounding_sweep_table(grounding_docs),
            grounding_layers_table(grounding_docs),
            grounding_diagnostics_table(grounding_docs),
            kendall_table(grounding_docs),
        ]
    tables.append(pairs_table(vqa_docs, grounding_docs))
    return [t for t in tables if t is not None]


def write_tables(tables: Sequence[Table], out_dir: Path) -> dict[str, Path]:
    """``<name>.md`` and ``<name>.csv`` per table, plus ``tables.md`` with all of them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for table in tables:
        (out_dir / f"{table.name}.md").write_text(table.to_markdown(), encoding="utf-8")
        written[table.name] = table.write_csv(out_dir / f"{table.name}.csv")
    (out_dir / "tables.md").write_text("\n".join(t.to_markdown() for t in tables), encoding="utf-8")
    return written
