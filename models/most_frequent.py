"""Baseline: the most frequent training report, predicted for every slide.

It sets the floor a generator must clear: on a templated dataset a single frequent report already
earns non-trivial BLEU and ROUGE. It looks at no image.
Paper: none (a standard sanity baseline). Upstream code: none. Licence: Apache-2.0 (pathreport).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pathreport import (
    GeneratorConfig,
    RetrievalBaseline,
    SlideBatch,
    register_generator,
)


@dataclass
class MostFrequentConfig(GeneratorConfig):
    """No settings: ties between equally frequent reports go to the alphabetically first."""


@register_generator(
    "most_frequent",
    config=MostFrequentConfig,
    paper="baseline",
    description="the most frequent training report for every slide",
)
class MostFrequent(RetrievalBaseline):
    def __init__(self, cfg: MostFrequentConfig, ctx) -> None:
        super().__init__(cfg, ctx)
        self.report: str | None = None

    def fit(self, batches: Iterable[SlideBatch]) -> None:
        counts = Counter(ref for batch in batches for ref in batch.references)
        if not counts:
            raise ValueError("most_frequent: the training split has no reports.")
        top = max(counts.values())
        self.report = min(r for r, n in counts.items() if n == top)

    def predict(self, batch: SlideBatch) -> list[str]:
        if self.report is None:
            raise RuntimeError("most_frequent has not been fitted on a training split.")
        return [self.report] * len(batch)

    def get_extra_state(self) -> Any:
        return {"report": self.report}

    def set_extra_state(self, state: Any) -> None:
        self.report = state["report"]
