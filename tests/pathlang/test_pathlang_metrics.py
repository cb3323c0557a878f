"""PathLang metrics against hand-computed values and reference implementations."""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pytest
import scipy.stats

from pathreport.pathlang import metrics as M
from pathreport.pathlang.aggregation import hybrid_k, setting_name, settings_grid


def test_krippendorff_alpha_matches_hand_computation() -> None:
    # 3 slides x 2 variants: (0,0), (0,1), (1,1). Coincidences: o00 = 2, o01 = o10 = 1, o11 = 2;
    # n0 = n1 = 3, n = 6.
    # alpha = 1 - (n-1) * sum_{c!=k} o_ck / sum_{c!=k} n_c n_k = 1 - 5*2/18 = 4/9.
    preds = np.array([[0, 0], [0, 1], [1, 1]])
    assert M.krippendorff_alpha_nominal(preds, 2) == pytest.approx(4 / 9)
    assert M.krippendorff_alpha_nominal(
        np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2]]), 3
    ) == pytest.approx(1.0)
    assert math.isnan(
        M.krippendorff_alpha_nominal(np.zeros((5, 4), dtype=int), 3)
    )  # one class: undefined


@pytest.mark.parametrize("seed", range(5))
def test_krippendorff_alpha_matches_the_krippendorff_package(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(2, 6))
    truth = rng.integers(0, n_classes, 40)
    preds = np.where(rng.random((40, 5)) < 0.7, truth[:, None], rng.integers(0, n_classes, (40, 5)))
    expected = krippendorff.alpha(reliability_data=preds.T, level_of_measurement="nominal")
    assert M.krippendorff_alpha_nominal(preds, n_classes) == pytest.approx(expected, abs=1e-12)


def test_bootstrap_stability_equals_recomputing_on_resampled_rows() -> None:
    rng = np.random.default_rng(3)
    preds = rng.integers(0, 3, (25, 4))
    weights = M.bootstrap_weights(25, 50, seed=42)
    boot = M.bootstrap_stability(preds, 3, weights)
    draws = np.random.default_rng(42).integers(0, 25, size=(50, 25))
    for b in range(50):
        rows = preds[draws[b]]
        assert boot["pss"][b] == pytest.approx(M.krippendorff_alpha_nominal(rows, 3))
        assert boot["prediction_consistency"][b] == pytest.approx(M.prediction_consistency(rows))


def test_classification_metrics_match_hand_values() -> None:
    y = np.array([0, 0, 0, 1, 1, 2])
    pred = np.array([0, 0, 1, 1, 2, 2])
    # F1: class 0 = 2*2/(2*2+0+1) = 0.8; class 1 = 2*1/(2+1+1) = 0.5; class 2 = 2*1/(2+1+0) = 2/3.
    assert M.macro_f1(y, pred, 4) == pytest.approx(
        (0.8 + 0.5 + 2 / 3) / 3
    )  # class 3 absent: not averaged
    assert M.balanced_accuracy(y, pred, 3) == pytest.approx((2 / 3 + 1 / 2 + 1) / 3)
    assert M.accuracy(y, pred) == pytest.approx(4 / 6)
    S = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]])
    y2 = np.array([0, 1, 1])
    assert M.alignment_score(S, y2) == pytest.approx((0.9 + 0.8 + 0.4) / 3)
    assert M.similarity_gap(S, y2) == pytest.approx((0.8 + 0.6 - 0.2) / 3)


def test_auc_handles_ties_like_mann_whitney() -> None:
    positive = np.array([1, 1, 0, 0, 1, 0], dtype=bool)
    scores = np.array([0.9, 0.5, 0.5, 0.1, 0.7, 0.6])
    # Pairs (pos, neg): 9 pairs; pos 0.9 beats 3; 0.5 ties 0.5, beats 0.1, loses to 0.6; 0.7 beats 3
    # -> 7.5/9.
    assert M.binary_auc(positive, scores) == pytest.approx(7.5 / 9)
    expected = scipy.stats.mannwhitneyu(scores[positive], scores[~positive]).statistic / 9
    assert M.binary_auc(positive, scores) == pytest.approx(expected)
    assert math.isnan(M.binary_auc(np.ones(3, dtype=bool), np.arange(3.0)))
    auc, skipped = M.macro_ovr_auc(
        np.array([0, 0, 1]), np.array([[0.9, 0.1, 0.0], [0.8, 0.2, 0.0], [0.1, 0.9, 0.0]])
    )
    assert auc == pytest.approx(1.0) and skipped == [2]


def test_ranks_count_duplicated_distractors_and_score_the_best_ground_truth() -> None:
    scores = np.array(
        [
            [0.5, 0.9, 0.9, 0.1],  # GT at 0; a distractor listed twice scores above it
            [0.4, 0.8, 0.1, 0.8],
        ]
    )  # GT listed twice (1 and 3): the best copy counts
    relevant = np.array([[True, False, False, False], [False, True, False, True]])
    assert M.first_relevant_rank(scores, relevant).tolist() == [3.0, 1.0]
    ties = M.first_relevant_rank(np.array([[0.5, 0.5]]), np.array([[False, True]]))
    assert ties.tolist() == [1.0]  # ties favour the relevant item
    assert np.isnan(M.first_relevant_rank(np.ones((1, 2)), np.zeros((1, 2), dtype=bool))[0])


def test_retrieval_metrics_and_set1_chance() -> None:
    out = M.retrieval_metrics(np.array([1.0, 2.0, 4.0, np.nan]), (1, 5))
    assert (
        out["recall@1"] == pytest.approx(1 / 3) and out["recall@5"] == 1.0 and out["n_queries"] == 3
    )
    assert out["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 4) / 3)
    assert out["ndcg"] == pytest.approx((1 + 1 / math.log2(3) + 1 / math.log2(5)) / 3)
    chance = M.chance_retrieval(20, range(1, 11))
    assert [chance[f"recall@{k}"] for k in range(1, 11)] == pytest.approx(
        [k / 20 for k in range(1, 11)]
    )
    assert chance["recall@1"] == 0.05
    assert chance["mrr"] == pytest.approx(
        sum(1 / r for r in range(1, 21)) / 20
    )  # H_20 / 20 = 0.180
    assert round(chance["mrr"], 3) == 0.180


def test_spearman_over_nine_models_lies_on_the_one_minus_k_over_60_grid() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.permutation(9), rng.permutation(9)
        rho = M.spearman_rho(a, b)
        assert rho == pytest.approx(scipy.stats.spearmanr(a, b).statistic)
        k = (1 - rho) * 60
        assert k == pytest.approx(round(k))
    assert M.spearman_rho([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


def test_hybrid_k_follows_eq1() -> None:
    assert [hybrid_k(500, r) for r in (0.01, 0.05, 0.1, 0.5)] == [10, 25, 50, 250]
    assert hybrid_k(30, 0.1) == 10  # fewer than K_min / r tiles: the minimum
    assert hybrid_k(6, 0.5) == 6  # fewer tiles than K: all of them
    assert hybrid_k(100, 0.07, k_min=1) == 7  # 0.07 * 100 = 7.000000000000001 in floating point
    assert [s.name for s in settings_grid()] == ["top1", "top5", "top10", "top50", "mean"]
    assert [s.label for s in settings_grid()] == ["Top 1%", "Top 5%", "Top 10%", "Top 50%", "Mean"]
    assert setting_name(0.025) == "top2p5"
