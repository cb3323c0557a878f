"""Patch-to-slide aggregation: Hybrid Top-K and mean pooling, as slide x query score tables.

PathLang (paper Eq. 1) turns a slide's tile embeddings into a slide embedding per text query: rank
the tiles by cosine similarity to the query, average the top ``K = max(K_min, ceil(r * N))`` of
them, L2-normalise, and take the cosine with the query. Mean pooling averages all tiles whatever the
query. So the basic unit of the whole benchmark is a score per (slide, query) and per setting, and
every task reads its numbers from one table of such scores.

How the table is computed (all slides x all queries, no Python loop over queries):

* one matrix product ``queries @ tiles.T`` gives every cosine of a slide;
* one partial sort (``torch.topk`` with the largest K of the grid) gives every setting's tile set,
  because the top-K sets of the smaller settings are prefixes of the largest one;
* the selected tiles are summed in rank bands (``embedding_bag``), cumulatively, so the four Top-K
  settings cost one pass over the largest K; the score is ``<sum, q> / ||sum||``, the cosine of
  the normalised mean.

Choices the paper leaves open, and ours (all switchable):

* tiles are L2-normalised before averaging (``normalize_tiles``); ranking always uses cosines;
* a slide with fewer tiles than K uses all of its tiles (``K = min(K, N)``);
* ties between tiles with exactly equal cosine are broken by ``torch.topk``. Only tiles with
  different embeddings but identical cosines can change a result, which real features make
  vanishingly rare; duplicated tiles give the same sum whichever copy is taken.
"""

from __future__ import annotations

import math
import warnings
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

DEFAULT_RATIOS = (0.01, 0.05, 0.1, 0.5)
DEFAULT_K_MIN = 10
MEAN = "mean"
_EPS = 1e-12
# Upper bound on the elements of the per-chunk cosine matrix, to bound memory on large slides.
_CHUNK_ELEMENTS = 1 << 25


@dataclass(frozen=True)
class Setting:
    """One aggregation setting: Hybrid Top-K with ``ratio``, or mean pooling (``ratio=None``)."""

    name: str
    ratio: float | None

    @property
    def label(self) -> str:
        """The paper's name for the setting ("Top 1%", ..., "Mean")."""
        return "Mean" if self.ratio is None else f"Top {self.ratio * 100:g}%"

    @property
    def query_dependent(self) -> bool:
        return self.ratio is not None


def setting_name(ratio: float | None) -> str:
    """``top1`` for r = 0.01, ``top50`` for 0.5, ``top2p5`` for 0.025, ``mean`` for mean pooling."""
    if ratio is None:
        return MEAN
    return "top" + f"{ratio * 100:g}".replace(".", "p")


def settings_grid(
    ratios: Sequence[float] = DEFAULT_RATIOS, include_mean: bool = True
) -> tuple[Setting, ...]:
    """The settings every task is run under (the paper's five by default)."""
    for r in ratios:
        if not 0 < r <= 1:
            raise ValueError(
                f"Top-K ratio {r} is outside (0, 1]; ratios are fractions of a slide's tiles."
            )
    if len(set(ratios)) != len(ratios):
        raise ValueError(f"Top-K ratios {list(ratios)} contain duplicates.")
    grid = [Setting(setting_name(r), float(r)) for r in ratios]
    if include_mean:
        grid.append(Setting(MEAN, None))
    if not grid:
        raise ValueError("No aggregation setting: give at least one ratio or include mean pooling.")
    return tuple(grid)


def hybrid_k(n_tiles: int, ratio: float, k_min: int = DEFAULT_K_MIN) -> int:
    """Eq. 1, ``K = max(K_min, ceil(r * N))``, capped at ``N``.

    ``r * N`` is rounded to 9 decimals before the ceiling so that floating-point noise
    (``0.1 * 30 = 3.0000000000000004``) cannot add a tile.
    """
    if n_tiles <= 0:
        raise ValueError("A slide needs at least one tile to be aggregated.")
    return min(max(int(k_min), math.ceil(round(ratio * n_tiles, 9))), n_tiles)


@dataclass
class ScoreTable:
    """Cosine scores of every slide against every query, under every setting.

    Attributes:
        settings: the aggregation settings, in the order of axis 1.
        scores: ``(n_slides, n_settings, n_queries)`` float32.
        embeddings: ``(n_slides, n_settings, E, D)`` unit slide embeddings for the E embedding
            queries (image-to-image retrieval compares them), or ``None``.
        mean_embeddings: ``(n_slides, D)`` unit mean-pooled slide embeddings.
        n_tiles: tiles per slide.
    """

    settings: tuple[Setting, ...]
    scores: np.ndarray
    embeddings: np.ndarray | None
    mean_embeddings: np.ndarray
    n_tiles: np.ndarray


class Aggregator:
    """Scores one slide's tiles against a fixed set of unit-norm queries under every setting.

    Queries are given as distinct unit text embeddings and, optionally, a combination matrix whose
    row q says which texts query q averages (a prompt ensemble) and with what weight. Because a
    normalised mean of texts has cosines that are the same combination of the texts' cosines,
    the slide's cosine matrix costs one product with the distinct texts (``T x D x N``) and a sparse
    product, instead of one dense product per query.

    Args:
        texts: ``(T, D)`` unit-norm text embeddings.
        settings: the settings grid.
        combination: ``(M, T)`` weights, query q = ``sum_t combination[q, t] * texts[t]`` (a unit
            vector); ``None`` means the queries are the texts.
        k_min: ``K_min`` of Eq. 1.
        normalize_tiles: average L2-normalised tiles (``True``) or raw tiles.
        embed_queries: indices of the queries whose slide embeddings are also returned.
        device: torch device for the arithmetic.
    """

    def __init__(
        self,
        texts: np.ndarray,
        settings: Sequence[Setting],
        *,
        combination: np.ndarray | None = None,
        k_min: int = DEFAULT_K_MIN,
        normalize_tiles: bool = True,
        embed_queries: Sequence[int] = (),
        device: str = "cpu",
    ) -> None:
        if texts.ndim != 2 or texts.shape[0] == 0:
            raise ValueError(
                f"Text embeddings must be a non-empty (T, D) matrix, found shape {texts.shape}."
            )
        self.device = torch.device(device)
        self.texts = torch.as_tensor(
            np.ascontiguousarray(texts, dtype=np.float32), device=self.device
        )
        if combination is not None and combination.shape[1] != texts.shape[0]:
            raise ValueError(
                f"The combination matrix has {combination.shape[1]} columns "
                f"for {texts.shape[0]} texts."
            )
        self._combination = (
            None if combination is None else np.asarray(combination, dtype=np.float32)
        )
        self._chunks: dict[int, list[tuple[int, int, torch.Tensor | None]]] = {}
        self.n_queries = int(texts.shape[0] if combination is None else combination.shape[0])
        self.settings = tuple(settings)
        self.k_min = int(k_min)
        self.normalize_tiles = normalize_tiles
        self.embed_queries = [int(i) for i in embed_queries]

    @property
    def dim(self) -> int:
        return int(self.texts.shape[1])

    def _query_chunks(self, rows: int) -> list[tuple[int, int, torch.Tensor | None]]:
        """Row blocks of the query set, each with its sparse combination block (cached by size)."""
        if rows not in self._chunks:
            blocks = []
            for start in range(0, self.n_queries, rows):
                stop = min(start + rows, self.n_queries)
                weights = None
                if self._combination is not None:
                    with warnings.catch_warnings():  # "sparse CSR support is in beta"
                        warnings.simplefilter("ignore", UserWarning)
                        weights = torch.as_tensor(
                            self._combination[start:stop], device=self.device
                        ).to_sparse_csr()
                blocks.append((start, stop, weights))
            self._chunks[rows] = blocks
        return self._chunks[rows]

    @torch.inference_mode()
    def __call__(self, tiles: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """Scores ``(n_settings, M)``, embeddings ``(n_settings, E, D)`` (or ``None``) and the
        unit mean-pooled embedding ``(D,)``."""
        P = torch.as_tensor(np.ascontiguousarray(tiles, dtype=np.float32), device=self.device)
        if P.ndim != 2 or P.shape[0] == 0:
            raise ValueError(
                f"Tiles must be a non-empty (N, D) matrix, found shape {tuple(P.shape)}."
            )
        if P.shape[1] != self.dim:
            raise ValueError(
                f"tile embeddings have dimension {P.shape[1]} but the text embeddings "
                f"have {self.dim}. The slides must hold the same VLM's joint image-text "
                "embeddings: check --slides and --vlm."
            )
        n = int(P.shape[0])
        norms = P.norm(dim=1)
        unit = P / norms.clamp_min(_EPS)[:, None]
        summed = unit if self.normalize_tiles else P
        scores = torch.empty(len(self.settings), self.n_queries, device=self.device)
        embeddings = (
            torch.empty(len(self.settings), len(self.embed_queries), self.dim, device=self.device)
            if self.embed_queries
            else None
        )
        total = summed.sum(0)
        mean_embedding = total / total.norm().clamp_min(_EPS)
        ks = {
            i: hybrid_k(n, s.ratio, self.k_min)
            for i, s in enumerate(self.settings)
            if s.ratio is not None
        }
        if ks:
            text_cosines = self.texts @ unit.T  # (T, N)
            # Rows per block: a power of two (so that few block layouts are ever cached) that keeps
            # the block's cosine and index matrices within _CHUNK_ELEMENTS.
            target = max(1, _CHUNK_ELEMENTS // (n + max(ks.values())))
            rows = min(self.n_queries, 1 << (target.bit_length() - 1))
            for start, stop, weights in self._query_chunks(rows):
                cosines = text_cosines[start:stop] if weights is None else weights @ text_cosines
                self._top_k(cosines, summed, norms, ks, start, stop, scores, embeddings)
        for i, s in enumerate(self.settings):
            if s.ratio is None:
                scores[i] = self._mean_scores(mean_embedding)
                if embeddings is not None:
                    embeddings[i] = mean_embedding
        return (
            scores.cpu().numpy(),
            embeddings.cpu().numpy() if embeddings is not None else None,
            mean_embedding.cpu().numpy(),
        )

    def _mean_scores(self, mean_embedding: torch.Tensor) -> torch.Tensor:
        text_scores = self.texts @ mean_embedding
        if self._combination is None:
            return text_scores
        return torch.cat(
            [w @ text_scores[:, None] for _, _, w in self._query_chunks(self.n_queries)]
        )[:, 0]

    def _top_k(
        self,
        cosines: torch.Tensor,
        summed: torch.Tensor,
        norms: torch.Tensor,
        ks: dict[int, int],
        start: int,
        stop: int,
        scores: torch.Tensor,
        embeddings: torch.Tensor | None,
    ) -> None:
        """Nested top-K selections, largest K first, each a partial sort of the previous one."""
        values, order = None, None
        for k in sorted(set(ks.values()), reverse=True):
            if values is None:
                values, order = torch.topk(cosines, k, dim=1, sorted=False)
            else:
                values, pick = torch.topk(values, k, dim=1, sorted=False)
                order = torch.gather(order, 1, pick)
            # <sum of the selected tiles, q> is the sum of their cosines (times the tile norms when
            # raw tiles are averaged); only the norm of the sum needs the tile vectors.
            dots = (values if self.normalize_tiles else values * norms[order]).sum(dim=1)
            sums = torch.nn.functional.embedding_bag(order, summed, mode="sum")
            length = sums.norm(dim=1).clamp_min(_EPS)
            for i, k_i in ks.items():
                if k_i != k:
                    continue
                scores[i, start:stop] = dots / length
                for e, query in enumerate(self.embed_queries):
                    if embeddings is not None and start <= query < stop:
                        embeddings[i, e] = sums[query - start] / length[query - start]


def score_slides(
    slides: Iterable[np.ndarray],
    aggregator: Aggregator,
    n_slides: int,
    ids: Sequence[str] | None = None,
    *,
    workers: int = 1,
) -> ScoreTable:
    """Run ``aggregator`` over every slide's tiles (an iterable, so slides can be read lazily).

    Args:
        slides: tile matrices, one per slide, in order.
        aggregator: the scorer.
        n_slides: how many slides ``slides`` yields.
        ids: slide names for error messages.
        workers: slides scored at the same time. With more than one, each torch operation runs
            single-threaded (``torch.set_num_threads(1)`` for the duration, restored after), which
            uses several cores far better than splitting each small operation across threads.
    """
    scores = np.empty((n_slides, len(aggregator.settings), aggregator.n_queries), dtype=np.float32)
    embeddings = (
        np.empty(
            (n_slides, len(aggregator.settings), len(aggregator.embed_queries), aggregator.dim),
            dtype=np.float32,
        )
        if aggregator.embed_queries
        else None
    )
    mean_embeddings = np.empty((n_slides, aggregator.dim), dtype=np.float32)
    n_tiles = np.zeros(n_slides, dtype=np.int64)

    def score(item: tuple[int, np.ndarray]) -> int:
        i, tiles = item
        if i >= n_slides:
            raise ValueError(f"More slides than announced ({n_slides}).")
        try:
            scores[i], e, mean_embeddings[i] = aggregator(tiles)
        except ValueError as err:
            raise ValueError(f"Slide '{ids[i] if ids is not None else i}': {err}") from None
        if embeddings is not None:
            embeddings[i] = e
        n_tiles[i] = len(tiles)
        return i

    if workers > 1:
        from concurrent.futures import ThreadPoolExecutor

        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        count = 0
        try:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                pending: deque = deque()
                for item in enumerate(slides):  # at most 2 slides per worker in memory
                    pending.append(pool.submit(score, item))
                    if len(pending) >= 2 * workers:
                        pending.popleft().result()
                        count += 1
                while pending:
                    pending.popleft().result()
                    count += 1
        finally:
            torch.set_num_threads(threads)
    else:
        count = sum(1 for _ in map(score, enumerate(slides)))
    if count != n_slides:
        raise ValueError(f"Expected {n_slides} slides, received {count}.")
    return ScoreTable(
        settings=aggregator.settings,
        scores=scores,
        embeddings=embeddings,
        mean_embeddings=mean_embeddings,
        n_tiles=n_tiles,
    )
