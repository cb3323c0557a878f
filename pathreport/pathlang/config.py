"""Every option of a PathLang run, with the default the PathLang specification proposes.

The paper fixes the aggregation grid, the seeds and the metrics; it leaves several choices open.
Each open choice is a field here (and a ``pathreport pathlang`` flag of the same name), so that a
run's ``summary.json`` records exactly what was decided. ``docs/pathlang.md`` explains each one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

TASKS = ("t1", "t2", "t3", "t4")

# Allowed values of the string options (also the argparse choices).
CHOICES: dict[str, tuple[str, ...]] = {
    "auc_scores": ("raw", "softmax"),
    "t2_text_pool": ("all_datasets", "same_dataset"),
    "t2_selection_metric": ("ndcg", "mrr", "recall@1"),
    "i2i_query": ("canonical_mean", "predicted_class", "mean_pooling"),
    "t3_selection": ("mean_variant_accuracy", "t1_accuracy"),
    "t4_set3_candidate": ("gt", "label_specific"),
    "t4_set4_pool": ("as_listed", "one_per_label"),
    "t4_duplicates": ("count", "collapse"),
}


@dataclass
class PathLangConfig:
    """Options of one PathLang run.

    Attributes:
        tasks: task families to run (``t1`` zero-shot classification, ``t2`` retrieval, ``t3``
            paraphrase robustness, ``t4`` open-vocabulary retrieval).
        ratios: Hybrid Top-K ratios r (paper: 0.01, 0.05, 0.1, 0.5).
        include_mean: also run query-independent mean pooling (the paper's fifth setting).
        k_min: K_min of Eq. 1 (paper: 10).
        normalize_tiles: L2-normalise tile embeddings before averaging them (not stated; the
            specification suggests yes). Ranking tiles always uses cosine similarity.
        fixed_setting: the setting of the non-oracle ("fixed") report, e.g. ``top1`` or ``mean``.
        auc_scores: OvR/binary AUC on raw cosine similarities or on softmax-normalised rows.
        auc_softmax_scale: logit scale applied before the softmax when ``auc_scores=softmax``.
        t2_text_pool: I2T candidate texts: the positives of every dataset in the corpus (foreign
            classes are never relevant) or only the dataset's own.
        t2_selection_metric: metric that selects each T2 direction's oracle setting.
        i2i_query: text query that conditions the slide embeddings compared in I2I under Top-K
            settings: the normalised mean of the dataset's canonical prompts, the canonical prompt
            of the slide's T1-predicted class, or mean pooling whatever the setting.
        t3_selection: metric that selects the T3 oracle setting (shared by V1, V2 and V3): mean
            accuracy over all V1 and V2 prompt variants, or T1 accuracy.
        t3_ensemble_draws: random prompt subsets per ensemble size n < pool size (paper: 100).
        seed: seed of the ensemble draws and of the bootstrap (paper: 42).
        bootstrap_resamples: slide resamples for the P.C./PSS confidence intervals (paper: 1000).
        std_ddof: delta degrees of freedom of every reported standard deviation (0 = population).
        t4_set3_candidate: the Set 3 target: the ground-truth string (``gt``) or the table's
            label-specific column where it has one (PANDA prints "ISUP Grade k").
        t4_set4_pool: the Set 4 pool as printed (19 unique strings) or one entry per label of every
            dataset (20 entries, "normal lymph node" twice, as the table caption counts them).
        t4_duplicates: duplicated pool strings each take a rank (``count``) or are merged.
        device: torch device for the aggregation arithmetic (``cpu``, ``cuda``, ...).
        workers: slides scored in parallel, each with single-threaded torch operations; 0 means one
            per torch thread on CPU and 1 on other devices.
        text_batch_size: strings per call of the adapter's text encoder.
    """

    tasks: tuple[str, ...] = TASKS
    ratios: tuple[float, ...] = (0.01, 0.05, 0.1, 0.5)
    include_mean: bool = True
    k_min: int = 10
    normalize_tiles: bool = True
    fixed_setting: str = "top1"
    auc_scores: str = "raw"
    auc_softmax_scale: float = 100.0
    t2_text_pool: str = "all_datasets"
    t2_selection_metric: str = "ndcg"
    i2i_query: str = "canonical_mean"
    t3_selection: str = "mean_variant_accuracy"
    t3_ensemble_draws: int = 100
    seed: int = 42
    bootstrap_resamples: int = 1000
    std_ddof: int = 0
    t4_set3_candidate: str = "gt"
    t4_set4_pool: str = "as_listed"
    t4_duplicates: str = "count"
    device: str = "cpu"
    workers: int = 0
    text_batch_size: int = 64

    def __post_init__(self) -> None:
        self.tasks = tuple(self.tasks)
        self.ratios = tuple(float(r) for r in self.ratios)
        problems = []
        unknown = [t for t in self.tasks if t not in TASKS]
        if unknown or not self.tasks:
            problems.append(
                f"tasks must be a non-empty subset of {list(TASKS)}, found {list(self.tasks)}"
            )
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                problems.append(f"{name} must be one of {list(allowed)}, found {value!r}")
        for name in ("k_min", "t3_ensemble_draws", "bootstrap_resamples", "text_batch_size"):
            if int(getattr(self, name)) < 1:
                problems.append(f"{name} must be a positive integer, found {getattr(self, name)!r}")
        if int(self.workers) < 0:
            problems.append(f"workers must be 0 (automatic) or positive, found {self.workers!r}")
        if self.std_ddof not in (0, 1):
            problems.append(f"std_ddof must be 0 or 1, found {self.std_ddof!r}")
        if problems:
            raise ValueError("Invalid PathLang option(s): " + "; ".join(problems) + ".")

    def as_dict(self) -> dict[str, Any]:
        """The options as plain JSON values (recorded in ``summary.json``)."""
        return {
            f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v)
            for f in fields(self)
        }
