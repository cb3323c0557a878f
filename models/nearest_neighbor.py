"""Baseline: the report of the most similar training slide.

Slides are compared by the cosine similarity of their mean-pooled patch features (padding
excluded), and the neighbour's raw report is returned unchanged. On REG 2025, where 94.7% of test
reports occur verbatim in the training split, this retrieval baseline is the honest yardstick for
any generator.
Paper: none (a standard retrieval baseline). Upstream code: none. Licence: Apache-2.0 (pathreport).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F

from pathreport import (
    GeneratorConfig,
    RetrievalBaseline,
    SlideBatch,
    masked_mean,
    register_generator,
)


@dataclass
class NearestNeighborConfig(GeneratorConfig):
    """No settings: ties go to the first training slide in split order."""


@register_generator(
    "nearest_neighbor",
    config=NearestNeighborConfig,
    paper="baseline",
    description="report of the training slide with the most similar mean feature",
)
class NearestNeighbor(RetrievalBaseline):
    def __init__(self, cfg: NearestNeighborConfig, ctx) -> None:
        super().__init__(cfg, ctx)
        self.embeddings = torch.empty(0, ctx.feature_dim)
        self.reports: list[str] = []

    @staticmethod
    def _embed(batch: SlideBatch) -> torch.Tensor:
        return F.normalize(masked_mean(batch.features.float(), batch.mask), dim=-1)

    def fit(self, batches: Iterable[SlideBatch]) -> None:
        vectors, reports = [], []
        for batch in batches:
            vectors.append(self._embed(batch).cpu())
            reports.extend(batch.references)
        if not reports:
            raise ValueError("nearest_neighbor: the training split has no slides.")
        self.embeddings = torch.cat(vectors)
        self.reports = reports

    def predict(self, batch: SlideBatch) -> list[str]:
        if not self.reports:
            raise RuntimeError("nearest_neighbor has not been fitted on a training split.")
        sims = self._embed(batch) @ self.embeddings.to(batch.features.device).T
        return [self.reports[i] for i in sims.argmax(dim=1).tolist()]

    def get_extra_state(self) -> Any:
        return {"embeddings": self.embeddings, "reports": self.reports}

    def set_extra_state(self, state: Any) -> None:
        self.embeddings = state["embeddings"]
        self.reports = list(state["reports"])
