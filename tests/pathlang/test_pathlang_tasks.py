"""PathLang tasks on generated embeddings whose right answers are known in closed form."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pathreport.pathlang.benchmark import run_pathlang
from pathreport.pathlang.config import PathLangConfig
from pathreport.pathlang.corpus import load_corpus
from pathreport.pathlang.queries import QueryBank
from pathreport.pathlang.slides import SlideSet
from pathreport.pathlang.synthetic import class_of_texts
from pathreport.pathlang.tasks.base import TaskContext, Unit
from pathreport.pathlang.tasks.t2 import CrossModalRetrieval
from pathreport.pathlang.tasks.t3 import draw_subsets
from pathreport.pathlang.tasks.t4 import OpenVocabularyRetrieval

CORPUS = load_corpus()
DIM = 420


def axis_encoder(ds):
    """Texts naming class c embed as axis c; every other text gets an axis of its own."""
    owner = class_of_texts(ds)
    own_axes: dict[str, int] = {}

    def encode(texts):
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, t in enumerate(texts):
            axis = (
                owner[t] if t in owner else own_axes.setdefault(t, ds.num_classes + len(own_axes))
            )
            out[i, axis] = 1.0
        return out

    return encode


def slides_along(ds, labels, tile_class, n_tiles=12):
    """Slides whose tiles all lie on the axis of ``tile_class[i]`` (with label ``labels[i]``)."""
    ids = [f"slide{i}" for i in range(len(labels))]
    tiles = {
        s: np.tile(np.eye(DIM, dtype=np.float32)[c], (n_tiles, 1))
        for s, c in zip(ids, tile_class, strict=True)
    }
    return SlideSet.from_arrays(
        tiles, {s: ds.classes[c] for s, c in zip(ids, labels, strict=True)}, ds
    )


def test_separable_classes_score_perfectly_on_every_task() -> None:
    ds = CORPUS.dataset("camelyon16")
    labels = [0, 1] * 6 + [1]
    result = run_pathlang(slides_along(ds, labels, labels), ds, axis_encoder(ds), corpus=CORPUS)
    summary = result.summary()["results"]
    for view in ("oracle", "fixed"):
        t1 = summary["t1"]["classification"][view]
        assert (t1["accuracy"], t1["macro_f1"], t1["auc"]) == (1.0, 1.0, 1.0)
        assert t1["alignment_score"] == pytest.approx(1.0) and t1[
            "similarity_gap"
        ] == pytest.approx(1.0)
        t3 = summary["t3"]["paraphrase"][view]
        for group in ("v1", "v2"):
            assert t3[group]["mean_accuracy"] == 1.0 and t3[group]["accuracy_std"] == 0.0
            assert t3[group]["prediction_consistency"] == 1.0 and t3[group]["pss"] == pytest.approx(
                1.0
            )
            assert (
                t3[group]["pss_ci95"] == pytest.approx([1.0, 1.0])
                and not t3[group]["pss_ci95_contains_zero"]
            )
        assert {n: c["mean"] for n, c in t3["v3"].items()} == {f"L{n}": 1.0 for n in range(1, 10)}
        assert all(c["gain_pct"] == 0.0 for c in t3["v3"].values())
        for direction in ("i2i", "i2t", "t2i"):
            assert summary["t2"][direction][view]["recall@1"] == 1.0
            assert summary["t2"][direction][view]["ndcg"] == 1.0
        for pool in ("set1", "set2", "set3", "set4"):
            assert (
                summary["t4"][pool][view]["recall@1"] == 1.0
                and summary["t4"][pool][view]["mrr"] == 1.0
            )
    assert summary["t2"]["t2i"]["oracle"]["n_queries"] == 8
    assert result.chance["t4"]["set1"]["recall@1"] == 0.05


def test_a_model_that_always_predicts_one_class_scores_the_class_prior() -> None:
    ds = CORPUS.dataset("camelyon16")
    labels = [0] * 3 + [1] * 7
    config = PathLangConfig(tasks=("t1", "t3"), bootstrap_resamples=200)
    result = run_pathlang(
        slides_along(ds, labels, [0] * 10), ds, axis_encoder(ds), config=config, corpus=CORPUS
    )
    t1 = result.tasks["t1"].units["classification"].per_setting["top1"]
    assert t1["accuracy"] == pytest.approx(0.3)
    assert t1["macro_f1"] == pytest.approx(
        (2 * 3 / (2 * 3 + 7)) / 2
    )  # F1 of class 0, and 0 for class 1
    assert t1["balanced_accuracy"] == pytest.approx(0.5)
    assert t1["auc"] == pytest.approx(0.5)  # the positive-class similarity is 0 for every slide
    v1 = result.tasks["t3"].units["paraphrase"].per_setting["top1"]["v1"]
    assert v1["prediction_consistency"] == 1.0
    assert math.isnan(v1["pss"]) and v1["pss_undefined"]  # one class everywhere: alpha is undefined


def test_oracle_takes_the_best_setting_and_the_first_on_ties() -> None:
    unit = Unit(
        "u",
        "accuracy",
        {
            "top1": {"accuracy": 0.5},
            "top5": {"accuracy": 0.7},
            "top10": {"accuracy": 0.7},
            "mean": {"accuracy": math.nan},
        },
    )
    unit.select(["top1", "top5", "top10", "mean"], fixed="top1")
    assert (unit.oracle, unit.fixed) == ("top5", "top1")
    assert unit.view("oracle") == {"setting": "top5", "accuracy": 0.7}


def _context(name: str, **options) -> TaskContext:
    return TaskContext(
        CORPUS.dataset(name),
        CORPUS,
        PathLangConfig(**options),
        QueryBank(),
        np.zeros(0, dtype=int),
        [],
    )


def test_t4_pools_follow_the_configured_choices() -> None:
    panda = OpenVocabularyRetrieval(_context("panda"))
    grade0, grade2 = panda.pools["set3"][0], panda.pools["set3"][2]
    assert (
        len(grade0[0]) == 9 and grade0[1] == "benign prostate tissue"
    )  # GT already in the shared pool
    assert len(grade2[0]) == 10 and grade2[1] == "ISUP Grade 2 prostate cancer"
    specific = OpenVocabularyRetrieval(_context("panda", t4_set3_candidate="label_specific"))
    assert specific.pools["set3"][2][1] == "ISUP Grade 2"
    tcga = OpenVocabularyRetrieval(_context("tcga_gbmlgg"))
    assert [len(p) for p, _ in tcga.pools["set3"]] == [10, 10]  # the GT is added to the shared pool
    assert len(tcga.pools["set4"][0][0]) == 19
    per_label = OpenVocabularyRetrieval(_context("tcga_gbmlgg", t4_set4_pool="one_per_label"))
    assert len(per_label.pools["set4"][0][0]) == 20


@pytest.mark.parametrize(("mode", "rank"), [("count", 3), ("collapse", 2)])
def test_t4_duplicated_distractors_cost_a_rank_each(mode: str, rank: int) -> None:
    ctx = _context("unitopatho", t4_duplicates=mode)
    task = OpenVocabularyRetrieval(ctx)
    c = ctx.dataset.classes.index("TVA.LG")
    pool, target = task.pools["set2"][c]
    columns = task.columns["set2"][c]
    scores = np.full((1, len(ctx.bank)), 0.1, dtype=np.float32)
    scores[0, columns[pool.index(target)]] = 0.5
    scores[0, columns[pool.index("inflammatory polyp")]] = 0.9  # listed twice in the paper's pool
    assert task.ranks("set2", scores, np.array([c])).tolist() == [rank]


def test_t2_text_queries_per_dataset_are_four_per_class() -> None:
    counts = {name: len(CrossModalRetrieval(_context(name)).query_texts) for name in CORPUS.names()}
    assert counts == {
        "camelyon16": 8,
        "tcga_gbmlgg": 8,
        "camelyon17": 16,
        "panda": 24,
        "unitopatho": 24,
    }
    own_only = CrossModalRetrieval(_context("camelyon16", t2_text_pool="same_dataset"))
    assert len(own_only.pool_class) == 8 and own_only.n_foreign == 0
    assert CrossModalRetrieval(_context("camelyon16")).n_foreign == 72


def test_t3_ensemble_draws_are_seeded_and_shared_by_every_class() -> None:
    draws = draw_subsets(9, 100, seed=42)
    assert draws == draw_subsets(9, 100, seed=42)
    assert sorted(draws) == list(range(1, 10))
    assert all(len(v) == 100 for n, v in draws.items() if n < 9) and draws[9] == [tuple(range(9))]
    assert all(len(set(s)) == n for n, v in draws.items() for s in v)
    assert draws != draw_subsets(9, 100, seed=7)


def test_t3_gain_is_relative_to_l1() -> None:
    from pathreport.pathlang.tasks.t3 import ensemble_curve

    draws = {1: [(0,), (1,)], 2: [(0, 1)]}
    curve = ensemble_curve(draws, {(0,): 0.4, (1,): 0.6, (0, 1): 0.75}, ddof=0)
    assert curve["L1"]["mean"] == pytest.approx(0.5) and curve["L1"]["std"] == pytest.approx(0.1)
    assert curve["L2"]["gain_pct"] == pytest.approx(50.0)
    assert curve["L1"]["p2_5"] == pytest.approx(0.405) and curve["L1"]["iqr"] == pytest.approx(0.1)


def test_i2i_without_a_same_class_partner_is_left_out() -> None:
    from pathreport.pathlang.tasks.t2 import image_to_image_ranks

    E = np.eye(3, dtype=np.float32)[[0, 0, 1]]
    ranks = image_to_image_ranks(E, np.array([0, 0, 1]))
    assert ranks[:2].tolist() == [1.0, 1.0] and np.isnan(ranks[2])


def test_fixed_setting_must_be_in_the_grid() -> None:
    ds = CORPUS.dataset("camelyon16")
    slides = slides_along(ds, [0, 1], [0, 1])
    with pytest.raises(ValueError, match="fixed_setting 'top5'"):
        run_pathlang(
            slides,
            ds,
            axis_encoder(ds),
            config=PathLangConfig(ratios=(0.01,), fixed_setting="top5"),
        )


def test_a_sixth_dataset_from_a_prompts_file_runs_the_tasks_it_has_prompts_for(tmp_path) -> None:
    import json

    prompts = {
        "T1_canonical": {"Skin-X": {"benign": "Benign skin.", "melanoma": "Invasive melanoma."}},
        "T4_set2": {
            "Skin-X": {
                "benign": {
                    "gt": "normal skin",
                    "pool": ["normal skin", "melanoma", "glioblastoma"],
                },
                "melanoma": {"gt": "melanoma", "pool": ["melanoma", "normal skin", "glioblastoma"]},
            }
        },
        "_datasets": {"Skin-X": {"name": "skin_x", "aliases": {"mel": "melanoma"}}},
    }
    path = tmp_path / "skin.json"
    path.write_text(json.dumps(prompts))
    corpus = load_corpus(path)
    ds = corpus.dataset("skin_x")
    labels = [0, 1, 1, 0]
    slides = slides_along(ds, labels, labels)
    result = run_pathlang(
        slides, ds, axis_encoder(ds), config=PathLangConfig(tasks=("t1", "t4")), corpus=corpus
    )
    assert result.tasks["t1"].units["classification"].per_setting["mean"]["accuracy"] == 1.0
    assert set(result.tasks["t4"].units) == {"set2"}
    assert "not run: set1, set3, set4" in " ".join(result.tasks["t4"].notes)
    with pytest.raises(ValueError, match="no T3_V1_paraphrases prompts"):
        run_pathlang(
            slides, ds, axis_encoder(ds), config=PathLangConfig(tasks=("t3",)), corpus=corpus
        )
