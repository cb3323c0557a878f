"""T3, paraphrase robustness: the same zero-shot classification under varied prompt wording.

* V1, semantic-equivalence paraphrases: classifier k uses every class's k-th paraphrase.
* V2, length and reporting style: one classifier per style (short, medium, long, clinical).
  For each: per-variant accuracy and balanced accuracy; across variants the accuracy mean and
  standard deviation, Prediction Consistency (all variants agree on a slide) and the Prompt
  Stability Score (Krippendorff's nominal alpha over the slides x variants predictions), with
  bootstrap 95% intervals (slides resampled ``bootstrap_resamples`` times, seed ``seed``).
* V3, prompt ensembles: the joint pool of a class is its V1 then V2 prompts (9 in the paper). For
  n below the pool size, ``t3_ensemble_draws`` subsets of n prompt indices are drawn without
  replacement, the same indices for every class; each class's selected unit embeddings are
  averaged and re-normalised and classification is run; n equal to the pool size is one
  deterministic ensemble. Draws come from one ``numpy.random.default_rng(seed)``, for n = 1, 2, ...
  in order, so they are identical for every model and dataset. Reported per n: mean, std,
  2.5/97.5 percentiles, IQR, and the gain ``100 * (L_n - L_1) / L_1`` relative to n = 1.

With Top-K settings the ensemble embedding is the text query that selects the tiles. One setting
is selected per (model, dataset) and held for V1, V2 and V3 (``t3_selection``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from pathreport.pathlang import metrics as M
from pathreport.pathlang.aggregation import ScoreTable
from pathreport.pathlang.tasks.base import TaskContext, TaskResult, Unit, std
from pathreport.pathlang.tasks.t1 import classification_metrics


class ParaphraseRobustness:
    """Plans the V1/V2 prompt columns and the V3 ensemble columns, then scores all three."""

    task = "t3"

    def __init__(self, ctx: TaskContext) -> None:
        ds, cfg, bank = ctx.dataset, ctx.config, ctx.bank
        ds.require("T3_V1_paraphrases")
        ds.require("T3_V2_length_style")
        n_v1 = len(ds.paraphrases[0])
        self.groups = {
            "v1": (
                [f"v{k + 1}" for k in range(n_v1)],
                [bank.texts([p[k] for p in ds.paraphrases]) for k in range(n_v1)],
            ),
            "v2": (
                list(ds.style_names),
                [bank.texts([s[k] for s in ds.styles]) for k in range(len(ds.style_names))],
            ),
        }
        pools = [tuple(p) + tuple(s) for p, s in zip(ds.paraphrases, ds.styles, strict=True)]
        self.pool_size = len(pools[0])
        self.pool_names = self.groups["v1"][0] + self.groups["v2"][0]
        self.draws = draw_subsets(self.pool_size, cfg.t3_ensemble_draws, cfg.seed)
        subsets = {s for draws in self.draws.values() for s in draws}
        self.subset_columns = {
            s: np.array([bank.ensemble([pool[i] for i in s]) for pool in pools], dtype=np.int64)
            for s in sorted(subsets)
        }

    def evaluate(
        self, ctx: TaskContext, table: ScoreTable, t1: TaskResult | None = None
    ) -> TaskResult:
        ds, cfg, y = ctx.dataset, ctx.config, ctx.y
        weights = M.bootstrap_weights(len(y), cfg.bootstrap_resamples, cfg.seed)
        per_setting: dict[str, dict[str, Any]] = {}
        rows, draw_rows = [], []
        for j, setting in enumerate(table.settings):
            scores = table.scores[:, j]
            result: dict[str, Any] = {}
            for group, (names, columns) in self.groups.items():
                preds = np.stack([scores[:, c].argmax(axis=1) for c in columns], axis=1)
                result[group] = variant_group_metrics(
                    preds, y, names, ds.num_classes, weights, cfg.std_ddof
                )
                rows.extend(
                    {
                        "slide_id": slide,
                        "label": ds.classes[y[i]],
                        "setting": setting.name,
                        "group": group,
                        "variant": name,
                        "prediction": ds.classes[preds[i, k]],
                    }
                    for k, name in enumerate(names)
                    for i, slide in enumerate(ctx.slide_ids)
                )
            accuracy_of = {
                s: M.accuracy(y, scores[:, cols].argmax(axis=1))
                for s, cols in self.subset_columns.items()
            }
            result["v3"] = ensemble_curve(self.draws, accuracy_of, cfg.std_ddof)
            draw_rows.extend(
                {
                    "setting": setting.name,
                    "n": n,
                    "draw": d + 1,
                    "prompts": "+".join(self.pool_names[i] for i in subset),
                    "accuracy": accuracy_of[subset],
                }
                for n, draws in self.draws.items()
                for d, subset in enumerate(draws)
            )
            result["mean_variant_accuracy"] = float(
                np.mean(
                    [
                        v["accuracy"]
                        for group in ("v1", "v2")
                        for v in result[group]["per_variant"].values()
                    ]
                )
            )
            per_setting[setting.name] = result
        unit = Unit("paraphrase", "mean_variant_accuracy", per_setting)
        order = [s.name for s in table.settings]
        if cfg.t3_selection == "t1_accuracy":
            if t1 is None:
                raise ValueError(
                    "t3_selection=t1_accuracy needs task t1 in the same run; add t1 to --tasks."
                )
            t1_unit = t1.units["classification"]
            unit.select(
                order, cfg.fixed_setting, {s: t1_unit.per_setting[s]["accuracy"] for s in order}
            )
        else:
            unit.select(order, cfg.fixed_setting)
        notes = [
            f"V3 pool per class: {', '.join(self.pool_names)}; draws: numpy "
            f"default_rng({cfg.seed}), {cfg.t3_ensemble_draws} subsets per n < {self.pool_size}, "
            "same indices for every class",
            f"bootstrap: {cfg.bootstrap_resamples} slide resamples, numpy "
            f"default_rng({cfg.seed}); PSS interval containing 0 = indistinguishable from chance "
            "agreement",
        ]
        return TaskResult(
            self.task,
            {"paraphrase": unit},
            rows={"t3_predictions": rows, "t3_ensemble_draws": draw_rows},
            notes=notes,
            selection_metric={"paraphrase": cfg.t3_selection},
        )


def draw_subsets(pool_size: int, n_draws: int, seed: int) -> dict[int, list[tuple[int, ...]]]:
    """Prompt-index subsets by ensemble size: ``n_draws`` random below the pool size, one at it."""
    rng = np.random.default_rng(seed)
    draws = {
        n: [
            tuple(sorted(int(i) for i in rng.choice(pool_size, n, replace=False)))
            for _ in range(n_draws)
        ]
        for n in range(1, pool_size)
    }
    draws[pool_size] = [tuple(range(pool_size))]
    return draws


def variant_group_metrics(
    preds: np.ndarray,
    y: np.ndarray,
    names: list[str],
    n_classes: int,
    weights: np.ndarray,
    ddof: int,
) -> dict[str, Any]:
    """Per-variant accuracy and balanced accuracy, their spread, P.C. and PSS with bootstrap CIs."""
    per_variant = {
        name: classification_metrics(y, preds[:, k], n_classes) for k, name in enumerate(names)
    }
    accuracies = [v["accuracy"] for v in per_variant.values()]
    boot = M.bootstrap_stability(preds, n_classes, weights)
    pss = M.krippendorff_alpha_nominal(preds, n_classes)
    pss_low, pss_high = M.percentile_interval(boot["pss"])
    return {
        "per_variant": {
            name: {k: v[k] for k in ("accuracy", "balanced_accuracy")}
            for name, v in per_variant.items()
        },
        "mean_accuracy": float(np.mean(accuracies)),
        "accuracy_std": std(accuracies, ddof),
        "mean_balanced_accuracy": float(
            np.mean([v["balanced_accuracy"] for v in per_variant.values()])
        ),
        "prediction_consistency": M.prediction_consistency(preds),
        "pss": pss,
        "pss_undefined": math.isnan(pss),
        "prediction_consistency_ci95": list(M.percentile_interval(boot["prediction_consistency"])),
        "pss_ci95": [pss_low, pss_high],
        "pss_ci95_contains_zero": bool(pss_low <= 0.0 <= pss_high),
        "pss_bootstrap_undefined": int(np.isnan(boot["pss"]).sum()),
    }


def ensemble_curve(
    draws: dict[int, list[tuple[int, ...]]], accuracy_of: dict[tuple[int, ...], float], ddof: int
) -> dict[str, Any]:
    """Mean, spread and percentile intervals of accuracy per ensemble size, and gains over n = 1."""
    curve = {}
    for n, subsets in draws.items():
        acc = np.array([accuracy_of[s] for s in subsets], dtype=np.float64)
        p2_5, p25, p75, p97_5 = np.percentile(acc, [2.5, 25, 75, 97.5])
        curve[n] = {
            "mean": float(acc.mean()),
            "std": std(acc, ddof) if len(acc) > 1 else 0.0,
            "p2_5": float(p2_5),
            "p97_5": float(p97_5),
            "iqr": float(p75 - p25),
            "n_draws": len(subsets),
            "n_distinct": len(set(subsets)),
        }
    base = curve[1]["mean"]
    for values in curve.values():
        values["gain_pct"] = 100.0 * (values["mean"] - base) / base if base > 0 else math.nan
    return {f"L{n}": values for n, values in curve.items()}
