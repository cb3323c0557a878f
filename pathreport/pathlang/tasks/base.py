"""What every task shares: its evaluation units, oracle and fixed selection, and its context.

An evaluation unit is what one aggregation setting is chosen for (paper §3.4): (model, dataset)
for T1 and T3, (model, dataset, pool) for T4, and here one unit per direction for T2. Every unit
keeps its metrics under all settings; the *oracle* view reports the setting that maximises the
unit's primary metric on the evaluation labels themselves (an upper bound, not a deployable
estimate), the *fixed* view reports the setting the user chose. Ties go to the first setting of
the grid.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pathreport.pathlang.config import PathLangConfig
from pathreport.pathlang.corpus import Corpus, DatasetPrompts
from pathreport.pathlang.queries import QueryBank

ORACLE_NOTE = (
    "oracle: per evaluation unit, the aggregation setting that maximises the primary metric on the "
    "evaluation labels themselves; an upper-bound reference, not a deployable estimate"
)


@dataclass
class TaskContext:
    """The inputs every task reads."""

    dataset: DatasetPrompts
    corpus: Corpus
    config: PathLangConfig
    bank: QueryBank
    y: np.ndarray
    slide_ids: Sequence[str]


@dataclass
class Unit:
    """Metrics of one evaluation unit under every setting, and the settings its views use."""

    name: str
    primary: str
    per_setting: dict[str, dict[str, Any]]
    oracle: str = ""
    fixed: str = ""

    def select(
        self, order: Sequence[str], fixed: str, score: dict[str, float] | None = None
    ) -> None:
        """Pick the oracle setting (by ``score`` or the primary metric) and record the fixed one."""
        values = (
            score
            if score is not None
            else {s: self.per_setting[s].get(self.primary, math.nan) for s in order}
        )
        best, best_value = order[0], -math.inf
        for s in order:
            value = values[s]
            if value is not None and not math.isnan(value) and value > best_value:
                best, best_value = s, value
        self.oracle = best
        self.fixed = fixed

    def view(self, which: str) -> dict[str, Any]:
        setting = self.oracle if which == "oracle" else self.fixed
        return {"setting": setting, **self.per_setting[setting]}


@dataclass
class TaskResult:
    """A task's units, its per-slide rows (written as CSV) and notes for the reader."""

    task: str
    units: dict[str, Unit]
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    selection_metric: dict[str, str] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """Oracle and fixed views of every unit (what ``summary.json`` holds)."""
        return {
            name: {
                "selection_metric": self.selection_metric.get(name, unit.primary),
                "oracle": unit.view("oracle"),
                "fixed": unit.view("fixed"),
            }
            for name, unit in self.units.items()
        }

    def full(self) -> dict[str, Any]:
        """Everything: per-setting metrics of every unit, the selections and the notes."""
        return {
            "task": self.task,
            "oracle_note": ORACLE_NOTE,
            "notes": self.notes,
            "units": {
                name: {
                    "selection_metric": self.selection_metric.get(name, unit.primary),
                    "oracle_setting": unit.oracle,
                    "fixed_setting": unit.fixed,
                    "per_setting": unit.per_setting,
                }
                for name, unit in self.units.items()
            },
        }


def std(values: Sequence[float], ddof: int) -> float:
    values = np.asarray(values, dtype=np.float64)
    return float(values.std(ddof=ddof)) if len(values) > ddof else math.nan
