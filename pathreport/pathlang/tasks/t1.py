"""T1, zero-shot classification: one canonical prompt per class, prediction = most similar class.

Metrics (paper A.3): accuracy, macro-F1, AUC, alignment score, similarity gap (and balanced
accuracy). AUC uses the positive class's similarity for binary datasets and the macro one-vs-rest
AUC over the similarity matrix otherwise; raw cosines by default (``auc_scores``), because the
paper never mentions a softmax. The oracle setting maximises accuracy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pathreport.pathlang import metrics as M
from pathreport.pathlang.aggregation import ScoreTable
from pathreport.pathlang.tasks.base import TaskContext, TaskResult, Unit


class ZeroShotClassification:
    """Plans the canonical-prompt columns, then scores T1 under every setting."""

    task = "t1"

    def __init__(self, ctx: TaskContext) -> None:
        self.columns = ctx.bank.texts(ctx.dataset.canonical)

    def similarities(self, table: ScoreTable, setting: int) -> np.ndarray:
        """``(n_slides, C)`` slide-to-canonical-prompt similarities under one setting."""
        return table.scores[:, setting][:, self.columns]

    def evaluate(self, ctx: TaskContext, table: ScoreTable) -> TaskResult:
        ds, cfg, y = ctx.dataset, ctx.config, ctx.y
        per_setting: dict[str, dict[str, Any]] = {}
        rows = []
        notes = []
        for j, setting in enumerate(table.settings):
            S = self.similarities(table, j)
            pred = S.argmax(axis=1)
            values = classification_metrics(y, pred, ds.num_classes)
            auc, skipped = auc_of(S, y, ds, cfg.auc_scores, cfg.auc_softmax_scale)
            values.update(
                auc=auc,
                alignment_score=M.alignment_score(S, y),
                similarity_gap=M.similarity_gap(S, y),
            )
            if skipped:
                values["auc_classes_without_both_outcomes"] = [ds.classes[c] for c in skipped]
            per_setting[setting.name] = values
            for i, slide in enumerate(ctx.slide_ids):
                row = {
                    "slide_id": slide,
                    "label": ds.classes[y[i]],
                    "setting": setting.name,
                    "prediction": ds.classes[pred[i]],
                    "correct": bool(pred[i] == y[i]),
                }
                row.update({f"score[{c}]": float(S[i, k]) for k, c in enumerate(ds.classes)})
                rows.append(row)
        if ds.num_classes == 2:
            notes.append(f"binary AUC decision function: similarity to '{positive_class(ds)}'")
        unit = Unit("classification", "accuracy", per_setting)
        unit.select([s.name for s in table.settings], cfg.fixed_setting)
        return TaskResult(
            self.task, {"classification": unit}, rows={"t1_predictions": rows}, notes=notes
        )


def classification_metrics(y: np.ndarray, pred: np.ndarray, n_classes: int) -> dict[str, Any]:
    return {
        "accuracy": M.accuracy(y, pred),
        "macro_f1": M.macro_f1(y, pred, n_classes),
        "balanced_accuracy": M.balanced_accuracy(y, pred, n_classes),
        "n_slides": len(y),
    }


def positive_class(ds: Any) -> str:
    """The class whose similarity is the binary AUC's decision function (the second by default)."""
    return ds.positive_class or ds.classes[1]


def auc_of(
    S: np.ndarray, y: np.ndarray, ds: Any, mode: str, scale: float
) -> tuple[float, list[int]]:
    scores = M.softmax(S, scale) if mode == "softmax" else S
    if ds.num_classes == 2:
        pos = ds.classes.index(positive_class(ds))
        auc = M.binary_auc(y == pos, scores[:, pos])
        return auc, ([] if not np.isnan(auc) else [0, 1])
    return M.macro_ovr_auc(y, scores)
