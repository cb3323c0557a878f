"""Hybrid Top-K and mean pooling: the vectorised score table equals the definition per slide."""

from __future__ import annotations

import numpy as np
import pytest

from pathreport.pathlang.aggregation import Aggregator, hybrid_k, score_slides, settings_grid
from pathreport.pathlang.queries import QueryBank


def _naive(
    tiles: np.ndarray, query: np.ndarray, ratio: float | None, normalize: bool
) -> tuple[float, np.ndarray]:
    """Eq. 1 written out: rank tiles by cosine, average the top K (or all), normalise, dot."""
    unit = tiles / np.linalg.norm(tiles, axis=1, keepdims=True)
    summed = unit if normalize else tiles
    if ratio is None:
        z = summed.mean(0)
    else:
        order = np.argsort(-(unit @ query), kind="stable")[: hybrid_k(len(tiles), ratio)]
        z = summed[order].mean(0)
    z = z / np.linalg.norm(z)
    return float(z @ query), z


@pytest.mark.parametrize("normalize", [True, False])
def test_aggregator_matches_the_definition_for_texts_and_ensembles(normalize: bool) -> None:
    rng = np.random.default_rng(0)
    vectors = {f"text{i}": rng.normal(size=24) for i in range(8)}
    bank = QueryBank()
    bank.texts(list(vectors))
    bank.ensemble(["text1", "text2", "text3"])
    bank.ensemble(["text5", "text5", "text0"])  # a text drawn twice weighs twice
    texts, combination = bank.system(vectors)
    queries = bank.matrix(vectors).astype(np.float64)
    settings = settings_grid()
    aggregator = Aggregator(
        texts, settings, combination=combination, normalize_tiles=normalize, embed_queries=[8, 2]
    )
    for n_tiles in (1, 9, 10, 37, 260):
        tiles = rng.normal(size=(n_tiles, 24)) * rng.uniform(0.3, 3.0, size=(n_tiles, 1))
        scores, embeddings, mean_embedding = aggregator(tiles)
        for j, setting in enumerate(settings):
            for q in range(len(queries)):
                value, z = _naive(tiles, queries[q], setting.ratio, normalize)
                assert scores[j, q] == pytest.approx(value, abs=2e-5)
                if q == 8:
                    np.testing.assert_allclose(embeddings[j, 0], z, atol=2e-5)
        np.testing.assert_allclose(
            mean_embedding, _naive(tiles, queries[0], None, normalize)[1], atol=2e-5
        )


def test_score_slides_in_parallel_equals_sequential() -> None:
    rng = np.random.default_rng(1)
    texts = rng.normal(size=(5, 16))
    texts /= np.linalg.norm(texts, axis=1, keepdims=True)
    slides = [rng.normal(size=(int(n), 16)) for n in rng.integers(1, 80, 11)]
    aggregator = Aggregator(texts, settings_grid(), embed_queries=[0])
    one = score_slides(iter(slides), aggregator, len(slides), workers=1)
    two = score_slides(iter(slides), aggregator, len(slides), workers=2)
    # Single-threaded operations may round the last bit differently from multi-threaded ones.
    np.testing.assert_allclose(one.scores, two.scores, atol=1e-6)
    np.testing.assert_allclose(one.embeddings, two.embeddings, atol=1e-6)
    assert one.n_tiles.tolist() == [len(s) for s in slides]


def test_top_k_finds_a_focal_lesion_that_mean_pooling_dilutes() -> None:
    dim = 32
    lesion = np.eye(dim)[0]
    tiles = np.tile(np.eye(dim)[1], (1000, 1)) + 0.01 * np.random.default_rng(2).normal(
        size=(1000, dim)
    )
    tiles[:10] = lesion  # 1% of the slide
    aggregator = Aggregator(lesion[None, :], settings_grid())
    scores, _, _ = aggregator(tiles)
    by_setting = dict(zip([s.name for s in settings_grid()], scores[:, 0], strict=True))
    assert by_setting["top1"] == pytest.approx(1.0, abs=1e-6)  # K = 10: exactly the lesion tiles
    assert by_setting["top5"] < by_setting["top1"]
    assert by_setting["mean"] < 0.02


def test_aggregator_rejects_mismatched_dimensions_naming_the_slide() -> None:
    aggregator = Aggregator(np.eye(4)[:2], settings_grid())
    with pytest.raises(ValueError, match="Slide 'b'.*dimension 3 but the text embeddings have 4"):
        score_slides(iter([np.ones((5, 4)), np.ones((5, 3))]), aggregator, 2, ids=["a", "b"])


def test_query_blocks_for_large_slides_give_the_same_scores(monkeypatch) -> None:
    from pathreport.pathlang import aggregation

    rng = np.random.default_rng(3)
    texts = rng.normal(size=(6, 16))
    texts /= np.linalg.norm(texts, axis=1, keepdims=True)
    combination = np.abs(rng.normal(size=(9, 6))) * (rng.random((9, 6)) < 0.5)
    combination[np.arange(6), np.arange(6)] = 1.0
    combination[6:, 0] = 1.0  # every query averages at least one text
    combination /= np.linalg.norm(combination @ texts, axis=1, keepdims=True)
    tiles = rng.normal(size=(50, 16))
    whole = Aggregator(texts, settings_grid(), combination=combination, embed_queries=[7])(tiles)
    monkeypatch.setattr(aggregation, "_CHUNK_ELEMENTS", 200)  # blocks of 2 queries for 50 tiles
    blocked_aggregator = Aggregator(
        texts, settings_grid(), combination=combination, embed_queries=[7]
    )
    blocked = blocked_aggregator(tiles)
    assert len(blocked_aggregator._chunks[2]) == 5
    assert np.isfinite(whole[0]).all()
    np.testing.assert_allclose(blocked[0], whole[0], atol=1e-6)
    np.testing.assert_allclose(blocked[1], whole[1], atol=1e-6)
