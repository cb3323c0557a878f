"""Heat-map construction and the metric functions, against independent implementations and hand
arithmetic."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from pathreport.pathbind.maps import (
    entity_map,
    gaussian_smooth,
    layer_indices,
    min_max,
    quantile_mask,
    upsample,
)
from pathreport.pathbind.metrics import (
    average_precision,
    box_mask,
    kendall_tau,
    mean_pairwise_pearson,
)


@pytest.mark.parametrize(
    ("layers", "mid"),
    [(6, [2, 3]), (28, list(range(9, 18))), (32, list(range(10, 21))), (40, list(range(13, 26)))],
)
def test_layer_indices_mid_third_is_floor_l3_to_floor_2l3(layers, mid):
    assert layer_indices(layers, "mid") == mid
    thirds = (
        layer_indices(layers, "shallow")
        + layer_indices(layers, "mid")
        + layer_indices(layers, "deep")
    )
    assert thirds == layer_indices(layers, "all") == list(range(layers))


def test_entity_map_orders_follow_eqs_3_4_or_max_first():
    # two layers, two tokens, two image tokens
    maps = np.array([[[1.0, 0.0], [0.0, 0.2]], [[0.0, 0.0], [0.6, 0.2]]])
    # Eqs. 3-4: layer mean per token -> token0 [0.5, 0], token1 [0.3, 0.2]; max -> [0.5, 0.2]
    assert np.allclose(entity_map(maps, [0, 1], "layer_mean_first"), [0.5, 0.2])
    # max per layer -> [1.0, 0.2], [0.6, 0.2]; mean -> [0.8, 0.2]
    assert np.allclose(entity_map(maps, [0, 1], "token_max_first"), [0.8, 0.2])


@pytest.mark.parametrize(
    ("shape", "sigma", "border"),
    [
        ((24, 24), 3.0, "reflect"),
        ((4, 6), 3.0, "reflect"),
        ((5, 9), 1.3, "nearest"),
        ((7, 7), 2.0, "constant"),
    ],
)
def test_gaussian_smooth_matches_scipy(shape, sigma, border):
    ndimage = pytest.importorskip("scipy.ndimage")
    grid = np.random.default_rng(0).random(shape)
    expected = ndimage.gaussian_filter(grid, sigma, mode=border, truncate=4.0)
    assert np.allclose(gaussian_smooth(grid, sigma, 4.0, border), expected, atol=1e-12)


def test_upsample_whole_view_matches_torch_bilinear():
    grid = np.random.default_rng(1).random((5, 8))
    expected = torch.nn.functional.interpolate(
        torch.tensor(grid)[None, None], size=(37, 61), mode="bilinear", align_corners=False
    )
    assert np.allclose(upsample(grid, (61, 37)), expected[0, 0].numpy(), atol=1e-12)


def test_upsample_places_a_padded_view_on_the_original_image():
    # a 2 x 2 grid seen on a square padded 10 px above and below a 40 x 20 image
    grid = np.array([[1.0, 2.0], [3.0, 4.0]])
    heat = upsample(grid, (40, 20), view_box=(0, -10, 40, 30), mode="nearest")
    assert heat.shape == (20, 40)
    assert np.all(heat[:10, :20] == 1.0) and np.all(heat[:10, 20:] == 2.0)
    assert np.all(heat[10:, :20] == 3.0) and np.all(heat[10:, 20:] == 4.0)
    cropped = upsample(grid, (40, 20), view_box=(10, 0, 30, 20), mode="nearest", fill=-1.0)
    assert (
        np.all(cropped[:, :10] == -1.0)
        and np.all(cropped[:, 30:] == -1.0)
        and np.all(cropped[:10, 10:20] == 1.0)
    )


def test_min_max_flags_a_constant_map_and_quantile_ties():
    normalised, degenerate = min_max(np.full((3, 3), 0.25))
    assert degenerate and not normalised.any()
    heat = np.zeros((10, 10))
    heat[0, :5] = 1.0
    assert quantile_mask(heat, 0.2, "ge").mean() == 1.0  # every pixel ties at the threshold 0
    top = quantile_mask(heat, 0.2, "top_k")
    assert top.sum() == 20 and top[0, :5].all()


def test_box_mask_counts_pixel_centres_inside_the_box():
    mask = box_mask((10, 5, 20, 8), (30, 12))
    assert mask.sum() == 10 * 3 and mask[5:8, 10:20].all()
    assert box_mask((0.4, 0.4, 1.6, 1.6), (3, 3)).sum() == 4  # centres 0.5 and 1.5 on both axes
    assert box_mask((0.6, 0.6, 1.4, 1.4), (3, 3)).sum() == 0  # no pixel centre inside


def test_average_precision_is_the_stepwise_sum_of_precision_times_recall_gain():
    scores = np.array([0.9, 0.9, 0.5, 0.5, 0.1, 0.1, 0.1, 0.1])
    labels = np.array([1, 0, 1, 0, 1, 1, 0, 0], dtype=bool)
    # thresholds 0.9: P 1/2, R 1/4; 0.5: P 2/4, R 2/4; 0.1: P 4/8, R 1
    assert average_precision(scores, labels) == pytest.approx(
        100 * (0.25 * 0.5 + 0.25 * 0.5 + 0.5 * 0.5)
    )
    assert average_precision(np.arange(4.0), np.array([0, 0, 1, 1], dtype=bool)) == pytest.approx(
        100.0
    )


def test_kendall_tau_matches_scipy_including_ties():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(3)
    for _ in range(5):
        a, b = rng.integers(0, 4, 9), rng.integers(0, 4, 9)
        assert kendall_tau(a, b) == pytest.approx(stats.kendalltau(a, b).statistic)
    assert kendall_tau([1, 2, 3], [10, 20, 30]) == 1.0 and math.isnan(
        kendall_tau([1, 1, 1], [1, 2, 3])
    )


def test_mean_pairwise_pearson_of_disjoint_blocks_is_minus_k_over_n_minus_k():
    maps = []
    for cell in range(3):
        m = np.zeros(100)
        m[cell * 10 : (cell + 1) * 10] = 1.0
        maps.append(m)
    assert mean_pairwise_pearson(maps) == pytest.approx(-10 / 90)
    assert mean_pairwise_pearson([maps[0], maps[0], maps[0]]) == pytest.approx(1.0)
    # a constant map leaves its pairs undefined: the whole score is, not the mean of the others
    assert math.isnan(mean_pairwise_pearson([np.full(100, 0.3), maps[1], maps[2]]))
