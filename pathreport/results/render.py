"""Views as Markdown, LaTeX (booktabs) or CSV text.

A cell reads ``0.412 ± 0.010`` (mean ± std over seeds; no ± with one seed). The best value of each
column is bold (the lowest for HR and CDS). The ``Runs`` column gives the number of runs behind the
row; a cell resting on fewer runs (some could not compute the metric) adds ``[n=k]``. A cell with
no run reads ``missing``, one whose runs could not compute the metric ``n/a``; rows marked † average
fewer encoders (or methods) than the others. The notes under each table say why.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from pathreport.results.metrics import display_name
from pathreport.results.views import Cell, View, cells_as_records

FORMATS = ("markdown", "latex", "csv")
DAGGER = "†"


def render(views: Sequence[View], fmt: str = "markdown", digits: int = 3) -> str:
    if fmt == "markdown":
        return "\n\n".join(to_markdown(v, digits) for v in views) + "\n"
    if fmt == "latex":
        return "\n\n".join(to_latex(v, digits) for v in views) + "\n"
    if fmt == "csv":
        return to_csv(views)
    raise ValueError(f"Unknown table format {fmt!r}; choose from {', '.join(FORMATS)}.")


def _number(value: float, digits: int) -> str:
    text = f"{value:.{digits}f}"
    return "0." + "0" * digits if text.startswith("-") and float(text) == 0 else text  # no "-0.000"


def _cell_parts(cell: Cell, runs: int, digits: int) -> tuple[str, str, str]:
    """(value, spread, count) texts of one cell."""
    if cell.status == "missing":
        return "missing", "", ""
    if cell.status == "unavailable":
        return "n/a", "", ""
    spread = _number(cell.std, digits) if cell.std is not None else ""
    count = f"[n={cell.n}]" if cell.n != runs else ""
    return _number(cell.mean, digits), spread, count


def _label(view: View, row: tuple[str, ...]) -> list[str]:
    labels = list(row)
    if row in view.incomplete_rows:
        labels[0] += f" {DAGGER}"
    return labels


def to_markdown(view: View, digits: int = 3) -> str:
    header = [*view.row_header, *(display_name(m) for m in view.metrics), "Runs"]
    lines = [
        f"**{view.title}**",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join([":---"] * len(view.by) + ["---:"] * (len(view.metrics) + 1)) + "|",
    ]
    best = {m: view.best(m, digits) for m in view.metrics}
    for row in view.rows:
        cells = []
        for metric in view.metrics:
            value, spread, count = _cell_parts(
                view.cells[(row, metric)], view.row_runs[row], digits
            )
            if row in best[metric]:
                value = f"**{value}**"
            cells.append(" ".join(p for p in (value, f"± {spread}" if spread else "", count) if p))
        lines.append(
            "| " + " | ".join([*_label(view, row), *cells, str(view.row_runs[row])]) + " |"
        )
    if view.notes:
        lines += ["", *(f"- {note}" for note in view.notes)]
    return "\n".join(lines)


def _tex(text: str) -> str:
    for char, escaped in (
        ("\\", r"\textbackslash{}"),
        ("&", r"\&"),
        ("%", r"\%"),
        ("_", r"\_"),
        ("#", r"\#"),
        ("$", r"\$"),
        ("{", r"\{"),
        ("}", r"\}"),
        (DAGGER, r"$^\dagger$"),
        ("±", r"$\pm$"),
    ):
        text = text.replace(char, escaped)
    return text


def to_latex(view: View, digits: int = 3) -> str:
    """A booktabs ``table``; the notes follow as comments (they never break compilation)."""
    best = {m: view.best(m, digits) for m in view.metrics}
    spec = "l" * len(view.by) + "c" * len(view.metrics) + "r"
    header = [*view.row_header, *(display_name(m) for m in view.metrics), "Runs"]
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        f"\\caption{{{_tex(view.title)}}}",
        f"\\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(_tex(h) for h in header) + r" \\",
        r"\midrule",
    ]
    first_reference = next((r for r in view.rows if r in view.reference_rows), None)
    for row in view.rows:
        if row == first_reference:
            lines.append(r"\midrule")
        cells = []
        for metric in view.metrics:
            value, spread, count = _cell_parts(
                view.cells[(row, metric)], view.row_runs[row], digits
            )
            if row in best[metric]:
                value = f"\\textbf{{{value}}}"
            cells.append(
                " ".join(p for p in (value, rf"$\pm$ {spread}" if spread else "", _tex(count)) if p)
            )
        lines.append(
            " & ".join([*(_tex(x) for x in _label(view, row)), *cells, str(view.row_runs[row])])
            + r" \\"
        )
    lines += [r"\bottomrule", r"\end{tabular}"]
    lines += [f"% {note}" for note in view.notes]
    lines.append(r"\end{table}")
    return "\n".join(lines)


def to_csv(views: Sequence[View]) -> str:
    """Raw numbers (no rounding, no bold): dataset, split, row keys, runs, then per metric the mean,
    std, n, status and whether it is the column's best."""
    records = []
    for view in views:
        best = {m: view.best(m, 12) for m in view.metrics}
        for row, record in zip(view.rows, cells_as_records(view)):
            for metric in view.metrics:
                record[f"{metric}_best"] = row in best[metric]
            records.append(record)
    columns = list(dict.fromkeys(k for r in records for k in r))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for record in records:
        writer.writerow({k: "" if v is None else v for k, v in record.items()})
    return buffer.getvalue()
