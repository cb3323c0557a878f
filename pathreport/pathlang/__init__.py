"""PathLang: language robustness of dual-encoder pathology VLMs (tasks T1-T4).

Implements the benchmark of Gong et al., "PathLang: A Language-Centered Benchmark for
Vision-Language Models in Computational Pathology" (arXiv 2610.11329): zero-shot classification,
cross-modal retrieval, paraphrase robustness and open-vocabulary diagnosis retrieval, over slides
aggregated with Hybrid Top-K or mean pooling. See ``docs/pathlang.md``.

Importing this package is cheap (standard library, numpy, torch): it registers the ``pathlang``
evaluator. The adapter files in ``adapters/`` register themselves in ``pathreport.registry.VLMS``
when discovery imports them, without importing their model libraries.
"""

from __future__ import annotations

from typing import Any

from pathreport.pathlang.config import TASKS, PathLangConfig
from pathreport.registry import EVALUATORS


def evaluate_pathlang(slides: Any, dataset: Any, text_encoder: Any, **kwargs: Any) -> Any:
    """The registered evaluator: :func:`pathreport.pathlang.benchmark.run_pathlang`."""
    from pathreport.pathlang.benchmark import run_pathlang

    return run_pathlang(slides, dataset, text_encoder, **kwargs)


EVALUATORS.register(
    "pathlang",
    config=PathLangConfig,
    kind="vlm-dual-encoder",
    description=(
        "PathLang language robustness of dual-encoder VLMs: T1 zero-shot classification, T2 "
        "retrieval, T3 paraphrase robustness, T4 open-vocabulary retrieval"
    ),
    paper="Gong et al., PathLang, arXiv 2610.11329",
    tasks=list(TASKS),
)(evaluate_pathlang)

__all__ = ["PathLangConfig", "evaluate_pathlang"]
