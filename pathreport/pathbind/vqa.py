"""The VQA protocol: every question with and without the image, and Multimodal Gain.

Each item is asked once per condition with the SAME system and user prompt; only the image changes
(original, none, blank, a replacement from the same or another subset, or blurred). Answers are
parsed (``parsing.py``) and scored per column (a dimension, as in Table 2, or a source benchmark, as
in Table 1). The summary follows the paper's arithmetic exactly: accuracy in percent per column,
"Avg" as the unweighted mean of the columns, and MG = accuracy with image - accuracy without, per
column and for Avg, in percentage points, as in the paper's tables.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pathreport.pathbind.config import VQAConfig, blur_condition, parse_size, to_dict
from pathreport.pathbind.data import VQAItem
from pathreport.pathbind.images import blank_image, blurred_image, load_image
from pathreport.pathbind.parsing import parse_answer
from pathreport.pathbind.prompts import build_prompt, system_prompt
from pathreport.pathbind.results import append_jsonl, file_sha256, read_jsonl, start_run, versions
from pathreport.pathbind.vlm import GenerativeVLM

ANSWERS_FILE = "answers.jsonl"
IMAGE, TEXT = "image", "text"


@dataclass(frozen=True)
class ImageChoice:
    """Which picture one (item, condition) shows: ``kind`` is original, none, blank, replacement
    or blur; ``source`` names the item whose image replaces the original."""

    kind: str
    source: str | None = None
    radius: float | None = None


def column_of(item: VQAItem, columns: str) -> str:
    """The table column of an item: ``<component> <dimension>`` / ``<dimension>``, or its source."""
    if columns == "source":
        return item.source
    if item.dimension is None:
        raise ValueError(
            f"Item {item.id!r} has no 'dimension', so it cannot be grouped by dimension; "
            "add dimensions to the data or use --columns source."
        )
    return f"{item.component} {item.dimension}" if item.component else item.dimension


def ordered_columns(items: Sequence[VQAItem], columns: str) -> list[str]:
    """Columns in paper order: components in order of first appearance, dimensions sorted."""
    if columns == "source":
        return list(dict.fromkeys(item.source for item in items))
    components = list(dict.fromkeys(item.component for item in items))
    keys = {(components.index(item.component), item.dimension or "") for item in items}
    by_key = {
        (components.index(item.component), item.dimension or ""): column_of(item, columns)
        for item in items
    }
    return [by_key[k] for k in sorted(keys)]


def plan_images(items: Sequence[VQAItem], config: VQAConfig) -> dict[tuple[str, str], ImageChoice]:
    """The picture of every (item, condition), with replacement images drawn reproducibly.

    A replacement is drawn uniformly from the items of the same subset (or of the other subsets)
    whose image file differs, with a generator seeded by (seed, condition, item id): the draw of one
    item never depends on the order or number of the others (the sampling is NOT STATED).
    """
    pools: dict[str, list[VQAItem]] = {}
    for item in sorted(items, key=lambda i: i.id):
        pools.setdefault(item.pool, []).append(item)
    plan: dict[tuple[str, str], ImageChoice] = {}
    for condition in config.conditions:
        if condition == "cross_subset" and len(pools) < 2:
            raise ValueError(
                "The cross_subset condition needs items from at least two subsets; all items "
                f"are in {list(pools)}. Set 'subset' (or 'source') per item, or drop the "
                "condition."
            )
    for item in items:
        for condition in config.condition_names():
            if condition == IMAGE:
                choice = ImageChoice("original")
            elif condition == TEXT:
                choice = ImageChoice("none")
            elif condition == "blank":
                choice = ImageChoice("blank")
            elif condition.startswith("blur_"):
                choice = ImageChoice("blur", radius=float(condition[len("blur_") :]))
            else:
                same = condition == "same_subset"
                candidates = [
                    other
                    for pool, members in sorted(pools.items())
                    if (pool == item.pool) == same
                    for other in members
                    if other.image != item.image
                ]
                if not candidates:
                    raise ValueError(
                        f"Item {item.id!r}: no other image in {'its' if same else 'another'} "
                        f"subset ({item.pool!r}) to draw for the {condition} condition; add "
                        "items or drop the condition."
                    )
                rng = random.Random(f"{config.seed}:{condition}:{item.id}")
                choice = ImageChoice("replacement", source=rng.choice(candidates).id)
            plan[(item.id, condition)] = choice
    return plan


class _ImageSource:
    """Loads and perturbs pictures, keeping the current item's original in memory."""

    def __init__(self, items: Sequence[VQAItem], config: VQAConfig) -> None:
        self.by_id = {item.id: item for item in items}
        self.config = config
        self._cached: tuple[Path, Any] | None = None

    def _load(self, path: Path) -> Any:
        if self._cached is None or self._cached[0] != path:
            self._cached = (path, load_image(path))
        return self._cached[1]

    def picture(self, item: VQAItem, choice: ImageChoice) -> Any | None:
        if choice.kind == "none":
            return None
        if choice.kind == "original":
            return self._load(item.image)
        if choice.kind == "blank":
            size = (
                self._load(item.image).size
                if self.config.blank_size == "original"
                else parse_size(self.config.blank_size, "blank_size")
            )
            return blank_image(size, self.config.blank_color)
        if choice.kind == "blur":
            assert choice.radius is not None
            return blurred_image(self._load(item.image), choice.radius)
        assert choice.source is not None
        return load_image(self.by_id[choice.source].image)


def score_answer(item: VQAItem, raw: str) -> dict[str, Any]:
    """Parse one output and compare it with the gold answer."""
    parsed = parse_answer(raw, item.options)
    return {
        "parsed": parsed.value,
        "parse_method": parsed.method,
        "parse_failed": parsed.failed,
        "parse_reason": parsed.reason,
        "correct": (not parsed.failed) and parsed.value == item.answer,
    }


def run_vqa(
    vlm: GenerativeVLM,
    items: Sequence[VQAItem],
    config: VQAConfig,
    out_dir: str | Path,
    *,
    questions_file: Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Ask every item under every condition; append each answer to ``answers.jsonl`` as it comes.

    Returns all answer records (including those of a resumed earlier part of the run).
    """
    out = Path(out_dir)
    for item in items:
        column_of(item, config.columns)  # fail before the first model call
    plan = plan_images(items, config)
    settings = run_settings(vlm, items, config, questions_file)
    start_run(out, settings, ANSWERS_FILE, resume)
    answers_path = out / ANSWERS_FILE
    done = (
        {(r["id"], r["condition"]): r for r in read_jsonl(answers_path)}
        if answers_path.exists()
        else {}
    )
    images = _ImageSource(items, config)
    conditions = config.condition_names()
    total, count = len(items) * len(conditions), 0
    for item in items:
        prompt = build_prompt(item, config.prompts)
        for condition in conditions:
            count += 1
            if (item.id, condition) in done:
                continue
            choice = plan[(item.id, condition)]
            started = time.perf_counter()
            raw = vlm.generate(
                prompt.system, prompt.user, images.picture(item, choice), config.decoding
            )
            record = {
                "id": item.id,
                "model": vlm.name,
                "condition": condition,
                "column": column_of(item, config.columns),
                "qtype": item.qtype,
                "answer": item.answer,
                "image": choice.kind,
                "image_source": choice.source,
                "raw": raw,
                **score_answer(item, raw),
                "seconds": round(time.perf_counter() - started, 3),
            }
            append_jsonl(answers_path, [record])
            done[(item.id, condition)] = record
            if progress is not None:
                progress(count, total)
    return [done[(item.id, c)] for item in items for c in conditions]


def run_settings(
    vlm: GenerativeVLM, items: Sequence[VQAItem], config: VQAConfig, questions_file: Path | None
) -> dict[str, Any]:
    """Everything that determines the answers; written to ``run.json`` and the summary."""
    qtypes = sorted({item.qtype for item in items})
    return {
        "protocol": "vqa",
        "model": vlm.describe(),
        "config": to_dict(config),
        "conditions": config.condition_names(),
        "data": {
            "questions": str(questions_file) if questions_file else None,
            "sha256": file_sha256(questions_file) if questions_file else None,
            "n_items": len(items),
        },
        "system_prompts": {qtype: system_prompt(qtype, config.prompts) for qtype in qtypes},
        "versions": versions(),
    }


def random_baseline(items: Sequence[VQAItem]) -> float:
    """Analytic chance accuracy in percent: the mean of 1 / (number of options) (NOT STATED in the
    paper; yes/no items count 2 options)."""
    return 100.0 * float(np.mean([1.0 / (len(i.options) if i.options else 2) for i in items]))


def summarize(
    answers: Sequence[dict[str, Any]], items: Sequence[VQAItem], config: VQAConfig
) -> dict[str, Any]:
    """Accuracy per condition and column, unweighted Avg, MG and parse failures.

    Unparsed answers are always counted (``n_unparsed``); with ``unparsed=wrong`` they stay in the
    denominator as incorrect, with ``exclude`` they leave it.
    """
    columns = ordered_columns(items, config.columns)
    by_column: dict[str, list[VQAItem]] = {c: [] for c in columns}
    for item in items:
        by_column[column_of(item, config.columns)].append(item)
    conditions = list(dict.fromkeys(a["condition"] for a in answers))
    cells: dict[str, dict[str, dict[str, Any]]] = {}
    for condition in conditions:
        cells[condition] = {}
        for column in columns:
            rows = [a for a in answers if a["condition"] == condition and a["column"] == column]
            unparsed = sum(1 for a in rows if a["parse_failed"])
            scored = len(rows) - (unparsed if config.unparsed == "exclude" else 0)
            correct = sum(1 for a in rows if a["correct"])
            cells[condition][column] = {
                "n": len(rows),
                "n_scored": scored,
                "n_correct": correct,
                "n_unparsed": unparsed,
                "accuracy": 100.0 * correct / scored if scored else float("nan"),
            }
    summary: dict[str, Any] = {
        "columns": columns,
        "conditions": conditions,
        "cells": cells,
        "avg": {},
        "pooled_accuracy": {},
        "unparsed": {},
    }
    for condition in conditions:
        accuracies = [cells[condition][c]["accuracy"] for c in columns]
        summary["avg"][condition] = float(np.mean(accuracies)) if accuracies else float("nan")
        rows = [a for a in answers if a["condition"] == condition]
        unparsed = sum(1 for a in rows if a["parse_failed"])
        scored = len(rows) - (unparsed if config.unparsed == "exclude" else 0)
        summary["pooled_accuracy"][condition] = (
            100.0 * sum(a["correct"] for a in rows) / scored if scored else float("nan")
        )
        summary["unparsed"][condition] = {
            "count": unparsed,
            "rate": 100.0 * unparsed / len(rows) if rows else 0.0,
        }
    if IMAGE in cells and TEXT in cells:
        summary["gain"] = {
            c: cells[IMAGE][c]["accuracy"] - cells[TEXT][c]["accuracy"] for c in columns
        }
        summary["gain"]["Avg"] = summary["avg"][IMAGE] - summary["avg"][TEXT]
    summary["random"] = {c: random_baseline(by_column[c]) for c in columns}
    summary["random"]["Avg"] = float(np.mean([summary["random"][c] for c in columns]))
    summary["notes"] = {
        "avg": "unweighted mean of the column accuracies (as in the paper's tables)",
        "pooled_accuracy": "accuracy over all items of a condition; not a number the paper reports",
        "gain": "Multimodal Gain: image minus text accuracy, in percentage points",
        "random": "analytic chance level, mean of 1/#options (the paper does not state its method)",
        "blur_conditions": [blur_condition(r) for r in config.blur_radii]
        if "blur" in config.conditions
        else [],
    }
    return summary
