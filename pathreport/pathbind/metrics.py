"""Scores of the grounding protocol (App. C.2-C.4, Eqs. 6-10) and the ranking statistic.

All pure NumPy. Region scores are per sample and in percent; the paper averages them over samples
(its pooled numbers equal the sample-count-weighted means of the split means), so nothing here
pools pixels across samples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def box_mask(box: tuple[float, float, float, float], image_size: tuple[int, int]) -> np.ndarray:
    """The filled GT box: pixel (row v, column u) is inside when its centre (u + 0.5, v + 0.5) lies
    in [x1, x2) x [y1, y2), so an integer box [x1, y1, x2, y2] covers (x2 - x1) x (y2 - y1)
    pixels."""
    width, height = image_size
    x1, y1, x2, y2 = box
    cols = np.arange(width) + 0.5
    rows = np.arange(height) + 0.5
    return ((rows >= y1) & (rows < y2))[:, None] & ((cols >= x1) & (cols < x2))[None, :]


def region_scores(mask: np.ndarray, gt: np.ndarray) -> dict[str, float]:
    """IoU = A/U, precision = A/|mask|, recall = A/|GT| in percent (Eq. 6)."""
    inter = float(np.logical_and(mask, gt).sum())
    union = float(np.logical_or(mask, gt).sum())
    predicted = float(mask.sum())
    target = float(gt.sum())
    return {
        "iou": 100.0 * inter / union if union else 0.0,
        "precision": 100.0 * inter / predicted if predicted else 0.0,
        "recall": 100.0 * inter / target if target else 0.0,
    }


def average_precision(scores: np.ndarray, labels: np.ndarray) -> float:
    """Pixel-level AP in percent: sum over distinct thresholds of (R_n - R_{n-1}) * P_n, the
    step-wise definition of scikit-learn's ``average_precision_score`` (no interpolation)."""
    scores = np.asarray(scores, dtype=np.float64).ravel()
    labels = np.asarray(labels, dtype=bool).ravel()
    positives = int(labels.sum())
    if positives == 0:
        return float("nan")
    order = np.argsort(-scores, kind="stable")
    sorted_scores = scores[order]
    true_positives = np.cumsum(labels[order])
    # the last index of every run of equal scores is one threshold
    last = np.r_[np.flatnonzero(np.diff(sorted_scores)), sorted_scores.size - 1]
    tp = true_positives[last].astype(np.float64)
    precision = tp / (last + 1)
    recall = tp / positives
    steps = np.diff(np.r_[0.0, recall])
    return float(100.0 * np.sum(steps * precision))


def effective_support_ratio(grid_map: np.ndarray) -> float:
    """N_eff / N = exp(H(p)) / N with p the map normalised to sum 1 over the N grid cells (Eq. 7-9).

    1 means uniform attention; 1/N means all mass on one cell.
    """
    values = np.clip(np.asarray(grid_map, dtype=np.float64).ravel(), 0.0, None)
    total = values.sum()
    if total <= 0 or not np.isfinite(total):
        return float("nan")
    p = values / total
    nonzero = p[p > 0]
    entropy = float(-(nonzero * np.log(nonzero)).sum())
    return math.exp(entropy) / values.size


def pearson(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson correlation of two maps; NaN when either is constant (undefined)."""
    x = np.asarray(a, dtype=np.float64).ravel()
    y = np.asarray(b, dtype=np.float64).ravel()
    x = x - x.mean()
    y = y - y.mean()
    denominator = math.sqrt(float((x * x).sum()) * float((y * y).sum()))
    if denominator <= 0:
        return float("nan")
    return float((x * y).sum() / denominator)


def mean_pairwise_pearson(maps: Sequence[np.ndarray]) -> float:
    """Mean Pearson correlation over all pairs of maps (Eq. 10 with the pairwise normaliser
    1 / C(K, 2); the printed 1/K equals it only for K = 3, ambiguity A18). NaN when any pair is
    undefined (a constant map has no correlation): averaging the remaining pairs would report a
    number for a query whose own map carries no spatial signal, so the sample is counted as
    undefined instead."""
    values = [pearson(maps[i], maps[j]) for i in range(len(maps)) for j in range(i + 1, len(maps))]
    if not values or not all(math.isfinite(v) for v in values):
        return float("nan")
    return float(np.mean(values))


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b between two score lists over the same models (ties corrected; NaN when
    either list is constant). Matches ``scipy.stats.kendalltau``."""
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    if a.shape != b.shape or a.size < 2:
        raise ValueError(
            "Kendall's tau needs two equally long lists of at least two values, "
            f"got {a.size} and {b.size}."
        )
    i, j = np.triu_indices(a.size, k=1)
    da = np.sign(a[i] - a[j])
    db = np.sign(b[i] - b[j])
    concordance = float((da * db).sum())
    pairs_a = float((da != 0).sum())
    pairs_b = float((db != 0).sum())
    if pairs_a == 0 or pairs_b == 0:
        return float("nan")
    return concordance / math.sqrt(pairs_a * pairs_b)
