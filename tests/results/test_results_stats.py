"""Statistics of the results: paired bootstrap, t quantiles, intervals over seeds, rank correlation,
checked against values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pathreport.results import stats
from pathreport.results.stats import mean_interval, paired_bootstrap, spearman, student_t_quantile


def test_paired_bootstrap_constant_difference_is_certain():
    a = [0.5, 0.7, 0.2, 0.9]
    b = [x - 0.25 for x in a]
    result = paired_bootstrap(a, b, n_resamples=999, seed=3)
    assert result.difference == pytest.approx(0.25)
    assert (result.ci_low, result.ci_high) == pytest.approx((0.25, 0.25))
    assert result.p_value == pytest.approx(1 / 1000)  # no resample is as far from d as 0 is
    assert (result.mean_a, result.mean_b, result.n) == (
        pytest.approx(0.575),
        pytest.approx(0.325),
        4,
    )


def test_paired_bootstrap_identical_systems_have_p_one():
    a = [0.1, 0.4, 0.3]
    result = paired_bootstrap(a, a, n_resamples=500)
    assert (
        result.difference == 0.0
        and result.p_value == 1.0
        and result.ci_low == result.ci_high == 0.0
    )


def test_paired_bootstrap_two_slides_matches_the_exact_resampling_distribution():
    # differences (0, 1): a resample mean is 0, 0.5 or 1 with probabilities 1/4, 1/2, 1/4, so the
    # 95% interval is [0, 1] and P(|d* - 0.5| >= 0.5) = 1/2.
    result = paired_bootstrap([1.0, 2.0], [1.0, 1.0], n_resamples=20_000, seed=0)
    assert result.difference == 0.5
    assert (result.ci_low, result.ci_high) == (0.0, 1.0)
    assert result.p_value == pytest.approx(0.5, abs=0.015)


def test_paired_bootstrap_equals_its_definition_resample_by_resample(monkeypatch):
    rng_values = np.random.default_rng(11)
    a, b = rng_values.random(7), rng_values.random(7)
    monkeypatch.setattr(
        stats, "_RESAMPLE_BATCH_CELLS", 20
    )  # several batches of 2 resamples and a remainder
    result = paired_bootstrap(a, b, n_resamples=9, seed=5)
    # the definition: each resample draws multiplicities from Multinomial(n, 1/n), in order
    rng = np.random.default_rng(5)
    d = a - b
    means = []
    for _ in range(9):
        counts = rng.multinomial(7, np.full(7, 1 / 7), size=1)[0]
        means.append(float((counts * d).sum() / 7))
    low, high = np.quantile(means, [0.025, 0.975])
    extreme = sum(abs(m - d.mean()) >= abs(d.mean()) for m in means)
    assert (result.ci_low, result.ci_high) == pytest.approx((low, high))
    assert result.p_value == pytest.approx((1 + extreme) / 10)


def test_paired_bootstrap_sign_and_magnitude_on_constructed_data():
    rng = np.random.default_rng(0)
    b = rng.random(200)
    a = b + 0.05 + rng.normal(0, 0.02, 200)
    forward = paired_bootstrap(a, b, n_resamples=2000, seed=1)
    backward = paired_bootstrap(b, a, n_resamples=2000, seed=1)
    assert forward.difference == pytest.approx(float(np.mean(a - b)))
    assert 0.045 < forward.ci_low < forward.difference < forward.ci_high < 0.055
    assert forward.p_value == pytest.approx(1 / 2001)
    assert backward.difference == pytest.approx(-forward.difference)
    assert (backward.ci_low, backward.ci_high) == pytest.approx((-forward.ci_high, -forward.ci_low))
    # a small, noisy difference is not significant
    noisy = paired_bootstrap(b + rng.normal(0, 0.2, 200), b, n_resamples=2000, seed=1)
    assert noisy.ci_low < 0 < noisy.ci_high and noisy.p_value > 0.05


def test_paired_bootstrap_is_reproducible_with_a_fixed_seed():
    rng = np.random.default_rng(2)
    a, b = rng.random(30), rng.random(30)
    assert paired_bootstrap(a, b, seed=4, n_resamples=300) == paired_bootstrap(
        a, b, seed=4, n_resamples=300
    )
    assert paired_bootstrap(a, b, seed=4, n_resamples=300) != paired_bootstrap(
        a, b, seed=5, n_resamples=300
    )


def test_paired_bootstrap_rejects_unpaired_input():
    with pytest.raises(ValueError, match="equal-length"):
        paired_bootstrap([1, 2], [1])
    with pytest.raises(ValueError, match="nothing to compare"):
        paired_bootstrap([], [])


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [
        # Student t table values (e.g. Abramowitz & Stegun Table 26.10)
        (0.975, 1, 12.7062),
        (0.975, 2, 4.3027),
        (0.975, 3, 3.1824),
        (0.975, 4, 2.7764),
        (0.975, 9, 2.2622),
        (0.975, 30, 2.0423),
        (0.95, 5, 2.0150),
        (0.025, 2, -4.3027),
    ],
)
def test_student_t_quantile_matches_table_values(p, df, expected):
    assert student_t_quantile(p, df) == pytest.approx(expected, abs=1e-4)


def test_mean_interval_over_three_seeds():
    mean, low, high = mean_interval([1.0, 2.0, 3.0])
    half = 4.302653 * 1.0 / math.sqrt(3)  # t(0.975, 2) * s / sqrt(n), s = 1
    assert (mean, low, high) == pytest.approx((2.0, 2.0 - half, 2.0 + half), abs=1e-5)
    assert mean_interval([0.4]) is None


def test_spearman_hand_values():
    assert spearman([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)  # 1 - 6*2/(3*8)
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == pytest.approx(-1.0)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(
        np.corrcoef([1, 2.5, 2.5, 4], [1, 2, 3, 4])[0, 1]
    )
    assert math.isnan(spearman([1, 2], [2, 1]))
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
