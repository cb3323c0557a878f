"""Statistics behind the results: paired bootstrap, intervals over seeds, rank correlation.

Paired bootstrap (Efron & Tibshirani 1993, ch. 16; Koehn 2004 for MT metrics). Given per-slide
scores a_i and b_i of two systems on the same n slides, the observed difference is
d = mean(a) - mean(b). Each resample draws slide multiplicities c ~ Multinomial(n, 1/n) (the same
as drawing n slides with replacement) and computes d* = sum(c_i (a_i - b_i)) / n. The 95% interval
is the 2.5 and 97.5 percentiles of d*. The two-sided p-value tests d = 0 by the shifted
bootstrap: under the null the resampled differences are centred on zero, so

    p = (1 + #{|d* - d| >= |d|}) / (B + 1),

with the +1 that keeps a Monte-Carlo p-value from being exactly zero (Davison & Hinkley 1997,
eq. 4.11). Identical systems give p = 1; a difference every resample agrees on gives the smallest
p, 1 / (B + 1). Resamples come from ``numpy.random.default_rng(seed)``, so results are
reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Resamples drawn per batch: bounds memory at about 8 MB of counts for 1000 slides.
_RESAMPLE_BATCH_CELLS = 1_000_000


@dataclass(frozen=True)
class PairedDifference:
    """The difference A - B of mean per-slide scores, with its bootstrap interval and p-value."""

    mean_a: float
    mean_b: float
    difference: float
    ci_low: float
    ci_high: float
    p_value: float
    n: int
    n_resamples: int


def bootstrap_differences(differences: np.ndarray, *, n_resamples: int, seed: int) -> np.ndarray:
    """``n_resamples`` bootstrap means of ``differences`` ((n,) -> (B,), or (n, m) -> (B, m))."""
    values = np.asarray(differences, dtype=np.float64)
    n = values.shape[0]
    rng = np.random.default_rng(seed)
    uniform = np.full(n, 1.0 / n)
    batch = max(1, _RESAMPLE_BATCH_CELLS // n)
    means = []
    done = 0
    while done < n_resamples:
        size = min(batch, n_resamples - done)
        counts = rng.multinomial(n, uniform, size=size)
        means.append(counts @ values / n)
        done += size
    return np.concatenate(means, axis=0)


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    n_resamples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> PairedDifference:
    """Paired bootstrap of mean(a) - mean(b) over slides (method: see the module docstring)."""
    a_arr = np.asarray(a, dtype=np.float64)
    b_arr = np.asarray(b, dtype=np.float64)
    if a_arr.shape != b_arr.shape or a_arr.ndim != 1:
        raise ValueError(
            f"Paired scores need two equal-length lists, found {a_arr.shape} and {b_arr.shape}."
        )
    if len(a_arr) == 0:
        raise ValueError("No slide has a score from both systems; nothing to compare.")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, found {n_resamples}.")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, found {confidence}.")
    differences = a_arr - b_arr
    observed = float(differences.mean())
    resampled = bootstrap_differences(differences, n_resamples=n_resamples, seed=seed)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(resampled, [alpha, 1.0 - alpha])
    extreme = int(np.count_nonzero(np.abs(resampled - observed) >= abs(observed)))
    return PairedDifference(
        mean_a=float(a_arr.mean()),
        mean_b=float(b_arr.mean()),
        difference=observed,
        ci_low=float(low),
        ci_high=float(high),
        p_value=(1 + extreme) / (n_resamples + 1),
        n=len(a_arr),
        n_resamples=n_resamples,
    )


def student_t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with integer ``df`` degrees of freedom.

    Inverts the closed-form distribution function for integer degrees of freedom (Abramowitz &
    Stegun 26.7.3-26.7.4) by bisection, so no SciPy is needed for a confidence interval over a few
    seeds, where the normal approximation would be far too narrow (t(0.975, 2) = 4.30, not 1.96).
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"degrees of freedom must be a positive integer, found {df}.")
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be between 0 and 1, found {p}.")
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    target = 2.0 * p - 1.0  # P(|T| <= t)
    high = 1.0
    while _central_mass(high, int(df)) < target:
        high *= 2.0
    low = 0.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        if _central_mass(mid, int(df)) < target:
            low = mid
        else:
            high = mid
        if high - low <= 1e-12 * max(1.0, high):
            break
    return 0.5 * (low + high)


def _central_mass(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom (t >= 0)."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(1, df // 2):
            term *= (2 * k - 1) / (2 * k) * cos2
            total += term
        return sin * total
    if df == 1:
        return 2.0 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(1, (df - 1) // 2):
        term *= (2 * k) / (2 * k + 1) * cos2
        total += term
    return 2.0 / math.pi * (theta + sin * total)


def mean_interval(
    values: Sequence[float], confidence: float = 0.95
) -> tuple[float, float, float] | None:
    """(mean, low, high): the t interval of the mean of ``values`` (None for fewer than two)."""
    data = np.asarray([v for v in values if v is not None and math.isfinite(v)], dtype=np.float64)
    if len(data) < 2:
        return None
    mean = float(data.mean())
    half = (
        student_t_quantile(0.5 + confidence / 2.0, len(data) - 1)
        * float(data.std(ddof=1))
        / math.sqrt(len(data))
    )
    return mean, mean - half, mean + half


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's r of average ranks (ties share their mean rank).

    NaN for fewer than three points (two points always give +-1) or when one side is constant.
    """
    import pandas as pd

    if len(x) != len(y):
        raise ValueError(f"Rank correlation needs paired values, found {len(x)} and {len(y)}.")
    if len(x) < 3:
        return math.nan
    rx = pd.Series(x, dtype="float64").rank(method="average").to_numpy()
    ry = pd.Series(y, dtype="float64").rank(method="average").to_numpy()
    if np.ptp(rx) == 0 or np.ptp(ry) == 0:
        return math.nan
    return float(np.corrcoef(rx, ry)[0, 1])
