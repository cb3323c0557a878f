"""PathLang's metrics (paper Appendix A.3), vectorised with numpy.

Conventions the paper does not state, chosen to match scikit-learn (what such evaluations usually
call) unless the PathLang specification proposes otherwise:

* macro-F1 averages over the classes present in the labels or the predictions, an undefined F1
  (no true and no predicted slide of a class) counting 0; balanced accuracy averages recall over
  the classes present in the labels;
* AUC is the Mann-Whitney statistic with tied scores counting one half;
* a rank is ``1 + the number of non-relevant candidates scoring strictly above the best relevant
  one``: duplicated candidates count once per copy, a duplicated ground truth is scored at its
  highest occurrence, and ties favour the relevant item;
* standard deviations use ``ddof`` (0, population, by default) and percentiles numpy's linear
  interpolation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

# -- classification -----------------------------------------------------------------------------


def accuracy(y: np.ndarray, pred: np.ndarray) -> float:
    return float(np.mean(y == pred)) if len(y) else math.nan


def per_class_counts(
    y: np.ndarray, pred: np.ndarray, n_classes: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """True positives, false positives and false negatives per class."""
    tp = np.bincount(y[y == pred], minlength=n_classes)
    predicted = np.bincount(pred, minlength=n_classes)
    actual = np.bincount(y, minlength=n_classes)
    return tp, predicted - tp, actual - tp


def macro_f1(y: np.ndarray, pred: np.ndarray, n_classes: int) -> float:
    tp, fp, fn = per_class_counts(y, pred, n_classes)
    present = (tp + fp + fn) > 0
    denominator = 2 * tp + fp + fn
    f1 = np.divide(2 * tp, denominator, out=np.zeros(n_classes), where=denominator > 0)
    return float(f1[present].mean()) if present.any() else math.nan


def balanced_accuracy(y: np.ndarray, pred: np.ndarray, n_classes: int) -> float:
    tp, _, fn = per_class_counts(y, pred, n_classes)
    actual = tp + fn
    present = actual > 0
    return float((tp[present] / actual[present]).mean()) if present.any() else math.nan


def binary_auc(positive: np.ndarray, scores: np.ndarray) -> float:
    """ROC-AUC of ``scores`` for the boolean labels ``positive`` (NaN without both classes)."""
    positive = np.asarray(positive, dtype=bool)
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    if n_pos == 0 or n_neg == 0:
        return math.nan
    ranks = average_ranks(np.asarray(scores, dtype=np.float64))
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def average_ranks(values: np.ndarray) -> np.ndarray:
    """1-based ranks, tied values sharing the mean of their ranks."""
    order = np.argsort(values, kind="mergesort")
    sorted_values = values[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_values)) + 1]
    ends = np.r_[starts[1:], len(values)]
    mean_rank = (starts + ends + 1) / 2.0
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.repeat(mean_rank, ends - starts)
    return ranks


def macro_ovr_auc(y: np.ndarray, scores: np.ndarray) -> tuple[float, list[int]]:
    """Mean one-vs-rest AUC over classes that have positive and negative slides.

    Returns the mean and the classes left out because they had no positive (or no negative) slide.
    """
    values, skipped = [], []
    for c in range(scores.shape[1]):
        auc = binary_auc(y == c, scores[:, c])
        (skipped.append(c) if math.isnan(auc) else values.append(auc))
    return (float(np.mean(values)) if values else math.nan), skipped


def softmax(scores: np.ndarray, scale: float) -> np.ndarray:
    logits = scale * scores.astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


def alignment_score(S: np.ndarray, y: np.ndarray) -> float:
    """Mean similarity of each slide to its own class text, ``(1/N) sum_i S[i, y_i]``."""
    return float(S[np.arange(len(y)), y].mean())


def similarity_gap(S: np.ndarray, y: np.ndarray) -> float:
    """Mean of ``S[i, y_i] - max_{c != y_i} S[i, c]`` (positive: correct separation on average)."""
    rows = np.arange(len(y))
    own = S[rows, y]
    others = S.astype(np.float64).copy()
    others[rows, y] = -np.inf
    return float((own - others.max(axis=1)).mean())


# -- retrieval ----------------------------------------------------------------------------------


def first_relevant_rank(scores: np.ndarray, relevant: np.ndarray) -> np.ndarray:
    """Rank of the best relevant candidate per query row; NaN for rows without a relevant one.

    Args:
        scores: ``(Q, K)`` candidate scores per query (``-inf`` marks a candidate to ignore).
        relevant: ``(Q, K)`` booleans.
    """
    scores = np.asarray(scores, dtype=np.float64)
    relevant = np.asarray(relevant, dtype=bool)
    best = np.where(relevant, scores, -np.inf).max(axis=1)
    above = ((scores > best[:, None]) & ~relevant).sum(axis=1)
    ranks = 1.0 + above
    ranks[~relevant.any(axis=1)] = np.nan
    return ranks


def retrieval_metrics(ranks: np.ndarray, ks: Sequence[int]) -> dict[str, float]:
    """Recall@K for each K, MRR and single-relevant-item nDCG over the queries with a rank."""
    ranks = np.asarray(ranks, dtype=np.float64)
    ranks = ranks[~np.isnan(ranks)]
    out: dict[str, float] = {}
    if not len(ranks):
        out.update({f"recall@{k}": math.nan for k in ks})
        out.update(mrr=math.nan, ndcg=math.nan, n_queries=0)
        return out
    for k in ks:
        out[f"recall@{k}"] = float(np.mean(ranks <= k))
    out["mrr"] = float(np.mean(1.0 / ranks))
    out["ndcg"] = float(np.mean(1.0 / np.log2(ranks + 1.0)))
    out["n_queries"] = len(ranks)
    return out


def chance_retrieval(pool_size: int, ks: Sequence[int]) -> dict[str, float]:
    """Expected metrics of a uniformly random ranking of ``pool_size`` candidates, one relevant."""
    ranks = np.arange(1, pool_size + 1, dtype=np.float64)
    out = {f"recall@{k}": min(k, pool_size) / pool_size for k in ks}
    out["mrr"] = float(np.mean(1.0 / ranks))
    out["ndcg"] = float(np.mean(1.0 / np.log2(ranks + 1.0)))
    out["mean_recall"] = float(np.mean([out[f"recall@{k}"] for k in ks]))
    return out


# -- prompt stability ---------------------------------------------------------------------------


def prediction_consistency(predictions: np.ndarray) -> float:
    """Fraction of slides whose predictions agree across all variants (``(N, V)`` matrix)."""
    return float(np.mean((predictions == predictions[:, :1]).all(axis=1)))


def _alpha_terms(predictions: np.ndarray, n_classes: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Per-slide pairable agreement and class counts for Krippendorff's nominal alpha."""
    n_units, m = predictions.shape
    if m < 2:
        raise ValueError("Krippendorff's alpha needs at least two prompt variants.")
    counts = np.zeros((n_units, n_classes), dtype=np.float64)
    np.add.at(counts, (np.repeat(np.arange(n_units), m), predictions.reshape(-1)), 1.0)
    agreement = (counts * (counts - 1)).sum(axis=1) / (m - 1)
    return agreement, counts, m


def _alpha_from_totals(
    observed_agreement: np.ndarray, class_totals: np.ndarray, n_values: float
) -> np.ndarray:
    expected_pairs = (class_totals * (class_totals - 1)).sum(axis=-1)
    numerator = (n_values - 1) * observed_agreement - expected_pairs
    denominator = n_values * (n_values - 1) - expected_pairs
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / denominator, np.nan)


def krippendorff_alpha_nominal(predictions: np.ndarray, n_classes: int) -> float:
    """Krippendorff's alpha (nominal, no missing values) of an ``(N, V)`` prediction matrix.

    Units are slides, coders are prompt variants. NaN when every value is the same class (the
    expected disagreement is zero, so alpha is undefined).
    """
    predictions = np.asarray(predictions, dtype=np.int64)
    agreement, counts, m = _alpha_terms(predictions, n_classes)
    return float(
        _alpha_from_totals(agreement.sum(), counts.sum(axis=0), float(len(predictions) * m))
    )


def bootstrap_weights(n_units: int, n_resamples: int = 1000, seed: int = 42) -> np.ndarray:
    """How often each slide is drawn in each resample: ``(n_resamples, n_units)``.

    Drawn with ``numpy.random.default_rng(seed).integers(0, N, (B, N))``, i.e. slides resampled
    with replacement; the same weights serve every statistic, so they share their resampled rows.
    """
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n_units, size=(n_resamples, n_units))
    offsets = (np.arange(n_resamples)[:, None] * n_units + draws).reshape(-1)
    return (
        np.bincount(offsets, minlength=n_resamples * n_units)
        .reshape(n_resamples, n_units)
        .astype(np.float64)
    )


def bootstrap_stability(
    predictions: np.ndarray, n_classes: int, weights: np.ndarray
) -> dict[str, np.ndarray]:
    """Prediction consistency and alpha on each resample given by :func:`bootstrap_weights`.

    Each resample's statistics follow from per-slide terms weighted by how often the slide was
    drawn, which equals recomputing them on the resampled prediction matrix.
    """
    predictions = np.asarray(predictions, dtype=np.int64)
    n_units = len(predictions)
    agreement, counts, m = _alpha_terms(predictions, n_classes)
    consistent = (predictions == predictions[:, :1]).all(axis=1).astype(np.float64)
    alpha = _alpha_from_totals(weights @ agreement, weights @ counts, float(n_units * m))
    return {"prediction_consistency": weights @ consistent / n_units, "pss": alpha}


def percentile_interval(
    values: np.ndarray, low: float = 2.5, high: float = 97.5
) -> tuple[float, float]:
    values = np.asarray(values, dtype=np.float64)
    values = values[~np.isnan(values)]
    if not len(values):
        return math.nan, math.nan
    lo, hi = np.percentile(values, [low, high])
    return float(lo), float(hi)


# -- rank stability across settings -------------------------------------------------------------


def spearman_rho(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation with average ranks for ties (NaN if either side is constant)."""
    ra = average_ranks(np.asarray(a, dtype=np.float64))
    rb = average_ranks(np.asarray(b, dtype=np.float64))
    if len(ra) < 2 or np.all(ra == ra[0]) or np.all(rb == rb[0]):
        return math.nan
    return float(np.corrcoef(ra, rb)[0, 1])
