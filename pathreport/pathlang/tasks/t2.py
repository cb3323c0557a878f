"""T2, cross-modal retrieval in three directions (paper A.2), reported descriptively.

* I2T: each slide ranks a text pool; the rank is that of the first text of the slide's class. The
  pool holds the dataset's positive descriptions and, by default (``t2_text_pool``), those of every
  other dataset of the corpus as cross-organ negatives that are never relevant (the paper's
  negative list is not published).
* T2I: each positive description ranks the dataset's slides; the rank is that of the first slide of
  the description's class. Queries of a class with no slide are left out and counted.
* I2I: each slide ranks all other slides; the rank is that of the first slide of its class. Under
  Top-K settings a slide embedding needs a text query; ``i2i_query`` says which (the paper does
  not).

The three directions are never compared with each other: their candidate sets differ. Each
direction is its own evaluation unit, its oracle setting chosen by ``t2_selection_metric`` (nDCG,
the metric of the paper's sensitivity analysis).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pathreport.pathlang import metrics as M
from pathreport.pathlang.aggregation import ScoreTable
from pathreport.pathlang.tasks.base import TaskContext, TaskResult, Unit

KS = (1, 5)
_ROW_BLOCK = 1024


class CrossModalRetrieval:
    """Plans the T2 text columns and the I2I embedding queries, then ranks in three directions."""

    task = "t2"

    def __init__(self, ctx: TaskContext) -> None:
        ds, cfg, bank = ctx.dataset, ctx.config, ctx.bank
        ds.require("T2_positive_bank")
        own = [(text, c) for c, texts in enumerate(ds.positives) for text in texts]
        foreign = []
        if cfg.t2_text_pool == "all_datasets":
            foreign = [
                (text, -1) for key, _cls, text in ctx.corpus.all_positives() if key != ds.key
            ]
        pool = own + foreign
        self.pool_columns = bank.texts([t for t, _ in pool])
        self.pool_class = np.array([c for _, c in pool], dtype=np.int64)
        self.n_foreign = len(foreign)
        self.query_texts = [t for t, _ in own]
        self.query_columns = bank.texts(self.query_texts)
        self.query_class = np.array([c for _, c in own], dtype=np.int64)
        self.canonical_columns = bank.texts(ds.canonical)
        if cfg.i2i_query == "canonical_mean":
            self.embed_queries = [bank.ensemble(ds.canonical)]
        elif cfg.i2i_query == "predicted_class":
            self.embed_queries = [int(c) for c in self.canonical_columns]
        else:
            self.embed_queries = []

    def slide_embeddings(self, ctx: TaskContext, table: ScoreTable, setting: int) -> np.ndarray:
        """The unit slide embeddings I2I compares under one setting."""
        if ctx.config.i2i_query == "mean_pooling" or table.embeddings is None:
            return table.mean_embeddings
        if ctx.config.i2i_query == "canonical_mean":
            return table.embeddings[:, setting, 0]
        predicted = table.scores[:, setting][:, self.canonical_columns].argmax(axis=1)
        return table.embeddings[np.arange(len(predicted)), setting, predicted]

    def evaluate(self, ctx: TaskContext, table: ScoreTable) -> TaskResult:
        ds, cfg, y = ctx.dataset, ctx.config, ctx.y
        results: dict[str, dict[str, dict[str, Any]]] = {"i2i": {}, "i2t": {}, "t2i": {}}
        rows: list[dict[str, Any]] = []
        for j, setting in enumerate(table.settings):
            scores = table.scores[:, j]
            i2t = M.first_relevant_rank(
                scores[:, self.pool_columns], self.pool_class[None, :] == y[:, None]
            )
            t2i = M.first_relevant_rank(
                scores[:, self.query_columns].T, y[None, :] == self.query_class[:, None]
            )
            i2i = image_to_image_ranks(self.slide_embeddings(ctx, table, j), y)
            for direction, ranks in (("i2i", i2i), ("i2t", i2t), ("t2i", t2i)):
                results[direction][setting.name] = M.retrieval_metrics(ranks, KS)
            for direction, ranks, queries, classes in (
                ("i2i", i2i, ctx.slide_ids, y),
                ("i2t", i2t, ctx.slide_ids, y),
                ("t2i", t2i, self.query_texts, self.query_class),
            ):
                rows.extend(
                    {
                        "direction": direction,
                        "setting": setting.name,
                        "query": q,
                        "class": ds.classes[c],
                        "rank": None if np.isnan(r) else int(r),
                    }
                    for q, c, r in zip(queries, classes, ranks, strict=True)
                )
        order = [s.name for s in table.settings]
        metric = cfg.t2_selection_metric
        units = {}
        for direction, per_setting in results.items():
            unit = Unit(direction, metric, per_setting)
            unit.select(order, cfg.fixed_setting)
            units[direction] = unit
        notes = [
            f"I2T pool: {len(self.pool_class)} texts ({len(self.pool_class) - self.n_foreign} "
            f"positives of {ds.key}, {self.n_foreign} from other datasets, never relevant)",
            f"T2I: {len(self.query_texts)} text queries; I2I slide embeddings: "
            f"i2i_query={cfg.i2i_query}",
            "directions differ in candidate sets; compare models within a direction only",
        ]
        return TaskResult(self.task, units, rows={"t2_ranks": rows}, notes=notes)


def image_to_image_ranks(embeddings: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Rank of the first other slide of the same class, for every slide (NaN if it has none)."""
    E = np.asarray(embeddings, dtype=np.float32)
    n = len(E)
    ranks = np.empty(n, dtype=np.float64)
    for start in range(0, n, _ROW_BLOCK):
        stop = min(start + _ROW_BLOCK, n)
        sim = (E[start:stop] @ E.T).astype(np.float64)
        rows = np.arange(stop - start)
        sim[rows, rows + start] = -np.inf
        relevant = y[start:stop, None] == y[None, :]
        relevant[rows, rows + start] = False
        ranks[start:stop] = M.first_relevant_rank(sim, relevant)
    return ranks
