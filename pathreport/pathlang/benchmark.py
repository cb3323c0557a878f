"""One PathLang run: one VLM, one dataset, all requested task families, all aggregation settings.

The run is planned before anything is computed: every task names the text queries it needs, the
distinct strings are encoded once, every slide is scored once against every query under every
setting (:mod:`pathreport.pathlang.aggregation`), and the tasks read their metrics from that table.
Results are written as one ``summary.json`` (oracle and fixed views of every evaluation unit, and
the run's configuration and manifest), one JSON file per task with every setting's metrics, CSV
files of per-slide predictions and ranks, and the text embeddings used (reusable with the
``precomputed`` adapter).
"""

from __future__ import annotations

import logging
import os
import platform
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pathreport import __version__
from pathreport.evaluation.base import EvaluationResult
from pathreport.evaluation.evaluate import write_evaluation
from pathreport.io import write_json
from pathreport.pathlang.aggregation import Aggregator, Setting, score_slides, settings_grid
from pathreport.pathlang.config import PathLangConfig
from pathreport.pathlang.corpus import Corpus, DatasetPrompts, load_corpus
from pathreport.pathlang.queries import QueryBank
from pathreport.pathlang.slides import SlideSet, describe_tiles
from pathreport.pathlang.tasks.base import ORACLE_NOTE, TaskContext, TaskResult
from pathreport.pathlang.tasks.t1 import ZeroShotClassification
from pathreport.pathlang.tasks.t2 import CrossModalRetrieval
from pathreport.pathlang.tasks.t3 import ParaphraseRobustness
from pathreport.pathlang.tasks.t4 import OpenVocabularyRetrieval
from pathreport.pathlang.text_store import save_text_embeddings

log = logging.getLogger(__name__)

TASK_CLASSES = {
    "t1": ZeroShotClassification,
    "t2": CrossModalRetrieval,
    "t3": ParaphraseRobustness,
    "t4": OpenVocabularyRetrieval,
}
TASK_FILES = {
    "t1": "t1_classification.json",
    "t2": "t2_retrieval.json",
    "t3": "t3_paraphrase.json",
    "t4": "t4_open_vocabulary.json",
}
TEXT_EMBEDDINGS_FILE = "text_embeddings.npz"

TextEncoder = Callable[[list[str]], np.ndarray]


@dataclass
class PathLangResult:
    """Everything one run computed; :meth:`write` puts it on disk."""

    model: str
    dataset: DatasetPrompts
    config: PathLangConfig
    settings: tuple[Setting, ...]
    slide_ids: list[str]
    y: np.ndarray
    tasks: dict[str, TaskResult]
    chance: dict[str, Any]
    manifest: dict[str, Any]
    text_vectors: dict[str, np.ndarray]

    def summary(self) -> dict[str, Any]:
        """Headline: oracle and fixed views per unit, per-setting scalars, config, manifest."""
        ds = self.dataset
        counts = np.bincount(self.y, minlength=ds.num_classes)
        return {
            "benchmark": "pathlang",
            "model": self.model,
            "dataset": ds.name,
            "dataset_key": ds.key,
            "classes": list(ds.classes),
            "n_slides": len(self.slide_ids),
            "class_counts": {c: int(n) for c, n in zip(ds.classes, counts, strict=True)},
            "settings": [
                {"name": s.name, "label": s.label, "ratio": s.ratio} for s in self.settings
            ],
            "fixed_setting": self.config.fixed_setting,
            "oracle_note": ORACLE_NOTE,
            "results": {name: task.summary() for name, task in self.tasks.items()},
            "per_setting": {
                f"{name}.{unit_name}": {s: _scalars(m) for s, m in unit.per_setting.items()}
                for name, task in self.tasks.items()
                for unit_name, unit in task.units.items()
            },
            "chance": self.chance,
            "notes": {name: task.notes for name, task in self.tasks.items()},
            "config": self.config.as_dict(),
            "manifest": self.manifest,
        }

    def per_slide(self) -> dict[str, dict[str, Any]]:
        """Per slide: label, T1 predictions and T4 ranks under the oracle and fixed settings."""
        cases: dict[str, dict[str, Any]] = {
            s: {"label": self.dataset.classes[c]}
            for s, c in zip(self.slide_ids, self.y, strict=True)
        }
        if "t1" in self.tasks:
            unit = self.tasks["t1"].units["classification"]
            for row in self.tasks["t1"].rows["t1_predictions"]:
                for view, setting in (("oracle", unit.oracle), ("fixed", unit.fixed)):
                    if row["setting"] == setting:
                        cases[row["slide_id"]].setdefault("t1_prediction", {})[view] = row[
                            "prediction"
                        ]
        if "t4" in self.tasks:
            units = self.tasks["t4"].units
            for row in self.tasks["t4"].rows["t4_ranks"]:
                unit = units[row["set"]]
                for view, setting in (("oracle", unit.oracle), ("fixed", unit.fixed)):
                    if row["setting"] == setting:
                        cases[row["slide_id"]].setdefault("t4_rank", {}).setdefault(row["set"], {})[
                            view
                        ] = row["rank"]
        return cases

    def write(self, out_dir: str | os.PathLike) -> dict[str, Path]:
        """Write ``summary.json``, ``per_case.jsonl``, the task JSON and CSV files, and the text
        embeddings.
        """
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        tables = {name: rows for task in self.tasks.values() for name, rows in task.rows.items()}
        written = write_evaluation(
            EvaluationResult(summary=self.summary(), per_case=self.per_slide(), tables=tables), out
        )
        for name, task in self.tasks.items():
            written[name] = write_json(out / TASK_FILES[name], task.full())
        written["text_embeddings"] = save_text_embeddings(
            out / TEXT_EMBEDDINGS_FILE, self.text_vectors
        )
        return written


def run_pathlang(
    slides: SlideSet,
    dataset: str | DatasetPrompts,
    text_encoder: Any,
    *,
    config: PathLangConfig | None = None,
    corpus: Corpus | None = None,
    model: str = "custom",
) -> PathLangResult:
    """Run the requested PathLang tasks.

    Args:
        slides: the evaluated slides (ids, class indices, tile loader); see :mod:`.slides`.
        dataset: dataset name or its prompts.
        text_encoder: a VLM adapter (anything with ``encode_text``) or a function from a list of
            strings to an ``(T, D)`` array of joint-space text embeddings.
        config: run options (defaults: the paper's protocol; where it is silent, the documented
            choices).
        corpus: the prompt corpus (default: the shipped one).
        model: the model name recorded in the results (the join key of results tables).
    """
    cfg = config or PathLangConfig()
    corpus = corpus or load_corpus()
    ds = corpus.dataset(dataset) if isinstance(dataset, str) else dataset
    settings = settings_grid(cfg.ratios, cfg.include_mean)
    names = [s.name for s in settings]
    if cfg.fixed_setting not in names:
        raise ValueError(
            f"fixed_setting '{cfg.fixed_setting}' is not one of the run's settings {names}."
        )
    if cfg.t3_selection == "t1_accuracy" and "t3" in cfg.tasks and "t1" not in cfg.tasks:
        raise ValueError(
            "t3_selection=t1_accuracy needs task t1 in the same run; add t1 to the tasks."
        )
    timing: dict[str, float] = {}
    bank = QueryBank()
    ctx = TaskContext(
        dataset=ds, corpus=corpus, config=cfg, bank=bank, y=slides.y, slide_ids=slides.ids
    )
    tasks = {name: TASK_CLASSES[name](ctx) for name in TASK_CLASSES if name in cfg.tasks}

    started = time.perf_counter()
    texts = bank.required_texts()
    vectors = encode_texts(text_encoder, texts, cfg.text_batch_size)
    timing["encode_texts_s"] = time.perf_counter() - started
    unit_texts, combination = bank.system(vectors)
    embed = tasks["t2"].embed_queries if "t2" in tasks else []
    aggregator = Aggregator(
        unit_texts,
        settings,
        combination=combination,
        k_min=cfg.k_min,
        normalize_tiles=cfg.normalize_tiles,
        embed_queries=embed,
        device=cfg.device,
    )
    log.info(
        "Scoring %d slides against %d queries (%d texts) under %d settings",
        len(slides),
        len(bank),
        len(texts),
        len(settings),
    )
    started = time.perf_counter()
    workers = cfg.workers or (torch.get_num_threads() if aggregator.device.type == "cpu" else 1)
    table = score_slides(
        _with_progress(slides), aggregator, len(slides), ids=slides.ids, workers=workers
    )
    timing["score_slides_s"] = time.perf_counter() - started

    results: dict[str, TaskResult] = {}
    for name, task in tasks.items():
        started = time.perf_counter()
        results[name] = (
            task.evaluate(ctx, table, results.get("t1"))
            if name == "t3"
            else task.evaluate(ctx, table)
        )
        timing[f"{name}_s"] = time.perf_counter() - started
    chance = {"t4": tasks["t4"].chance()} if "t4" in tasks else {}
    manifest = {
        "pathreport_version": __version__,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "torch_threads": torch.get_num_threads(),
        "slide_workers": workers,
        "vlm": text_encoder.describe() if hasattr(text_encoder, "describe") else {"adapter": model},
        "prompts": {"sources": list(corpus.sources), "sha256": dict(corpus.sha256)},
        "slides": {
            "source": slides.source,
            "n_evaluated": len(slides),
            "skipped": slides.skipped,
            "tiles": describe_tiles(table.n_tiles.tolist(), cfg.k_min),
        },
        "queries": {
            "distinct_texts": len(texts),
            "score_columns": len(bank),
            "embedding_dim": int(unit_texts.shape[1]),
        },
        "random_generators": {
            "t3_ensemble_draws": (
                f"numpy.random.default_rng({cfg.seed}).choice(pool, n, replace=False), n = "
                "1, 2, ... in order"
            ),
            "bootstrap": (
                f"numpy.random.default_rng({cfg.seed}).integers(0, n_slides, "
                f"({cfg.bootstrap_resamples}, n_slides))"
            ),
        },
        "timing": {k: round(v, 3) for k, v in timing.items()},
    }
    return PathLangResult(
        model=model,
        dataset=ds,
        config=cfg,
        settings=settings,
        slide_ids=list(slides.ids),
        y=slides.y,
        tasks=results,
        chance=chance,
        manifest=manifest,
        text_vectors=vectors,
    )


def _with_progress(slides: SlideSet) -> Iterator[np.ndarray]:
    """The slides' tiles, logging progress every tenth of the way (long runs read thousands)."""
    step = max(1, len(slides) // 10)
    for i, tiles in enumerate(slides, start=1):
        yield tiles
        if i % step == 0 or i == len(slides):
            log.info("  read %d/%d slides", i, len(slides))


def encode_texts(text_encoder: Any, texts: Sequence[str], batch_size: int) -> dict[str, np.ndarray]:
    """Encode every string once, checking shapes and values."""
    encode = text_encoder.encode_text if hasattr(text_encoder, "encode_text") else text_encoder
    rows: list[np.ndarray] = []
    for start in range(0, len(texts), batch_size):
        chunk = list(texts[start : start + batch_size])
        out = np.asarray(encode(chunk), dtype=np.float32)
        if out.ndim != 2 or out.shape[0] != len(chunk):
            raise ValueError(
                f"The text encoder returned shape {out.shape} for {len(chunk)} strings; "
                f"expected ({len(chunk)}, D)."
            )
        rows.extend(out)
    dims = {r.shape[0] for r in rows}
    if len(dims) != 1:
        raise ValueError(f"The text encoder returned vectors of different lengths {sorted(dims)}.")
    bad = [t for t, r in zip(texts, rows, strict=True) if not np.isfinite(r).all() or not np.any(r)]
    if bad:
        raise ValueError(
            f"The text encoder returned zero or non-finite vectors for {len(bad)} string(s), "
            f"e.g. {bad[0]!r}."
        )
    return dict(zip(texts, rows, strict=True))


def _scalars(metrics: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """The numeric leaves of a nested metrics dict, with dotted keys."""
    flat: dict[str, float] = {}
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_scalars(value, name + "."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            flat[name] = float(value)
    return flat
