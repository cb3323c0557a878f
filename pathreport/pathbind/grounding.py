"""The grounding protocol: does the model's attention to an entity fall on the entity's box?

Per sample: one forward pass with ``Look at the image and locate: {expression}``, the
entity-to-image attention turned into a heat map and a top-q mask (``maps.py``), then IoU /
precision / recall against the box, the threshold sweep, pixel AP, the layer ablation, N_eff/N, and
the cross-query correlation with alternative expressions from the same split (App. C). Scores are
per sample and averaged per split and over all samples.

Extraction and scoring are separate: with ``save_maps`` every per-layer, per-token map is written to
``maps/``, and :func:`rescore` recomputes every number from those files with other settings (other
layers, sigma, q, ...) without running the model again.
"""

from __future__ import annotations

import json
import math
import random
import string
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pathreport.pathbind.config import GroundingConfig, to_dict
from pathreport.pathbind.data import GroundingItem
from pathreport.pathbind.images import load_image
from pathreport.pathbind.maps import HeatMap, build_heatmap, quantile_mask
from pathreport.pathbind.metrics import (
    average_precision,
    box_mask,
    effective_support_ratio,
    mean_pairwise_pearson,
    region_scores,
)
from pathreport.pathbind.results import append_jsonl, file_sha256, read_jsonl, start_run, versions
from pathreport.pathbind.vlm import EntityAttention, GenerativeVLM

SAMPLES_FILE = "per_sample.jsonl"
MAPS_DIR = "maps"
ALL = "all"


def entity_span(
    prompt_template: str, expression: str, strip_punctuation: bool
) -> tuple[str, tuple[int, int]]:
    """The attention prompt for an expression and the character span of the entity in it."""
    start = prompt_template.index("{entity}")
    prompt = prompt_template.replace("{entity}", expression)
    entity = expression.rstrip()
    if strip_punctuation:
        entity = entity.rstrip(string.punctuation + string.whitespace)
    if not entity:
        entity = expression
    return prompt, (start + len(expression) - len(expression.lstrip()), start + len(entity))


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def alternative_expressions(
    items: Sequence[GroundingItem], count: int, seed: int
) -> dict[str, list[str]]:
    """For each sample, ``count`` other expressions of its split (different text), drawn with a
    generator seeded by (seed, sample id), so every model gets the same alternatives (App. C.4)."""
    by_split: dict[str, list[str]] = {}
    for item in items:
        by_split.setdefault(item.split, [])
        if _norm(item.expression) not in {_norm(e) for e in by_split[item.split]}:
            by_split[item.split].append(item.expression)
    chosen = {}
    for item in items:
        pool = sorted(e for e in by_split[item.split] if _norm(e) != _norm(item.expression))
        rng = random.Random(f"{seed}:alternatives:{item.id}")
        chosen[item.id] = rng.sample(pool, min(count, len(pool)))
    return chosen


def _mean(values: Sequence[float]) -> float:
    finite = [v for v in values if v is not None and math.isfinite(v)]
    return float(np.mean(finite)) if finite else float("nan")


def score_sample(
    item: GroundingItem,
    attention: EntityAttention,
    alternatives: Sequence[EntityAttention],
    config: GroundingConfig,
) -> dict[str, Any]:
    """Each per-sample protocol number from the sample's attention (and its alternatives')."""
    heat = build_heatmap(attention, config.attention)
    gt = box_mask(item.box, item.image_size)
    mask = quantile_mask(heat.heat, config.q, config.ties, config.quantile_method)
    scores: dict[str, Any] = {
        "id": item.id,
        "split": item.split,
        **region_scores(mask, gt),
        "mask_fraction": float(mask.mean()),
        "box_fraction": float(gt.mean()),
        "degenerate_map": heat.degenerate,
        "grid": list(attention.grid_shape),
        "entity_tokens": attention.entity_tokens,
    }
    for q in config.sweep:
        scores[f"iou@{q:g}"] = region_scores(
            quantile_mask(heat.heat, q, config.ties, config.quantile_method), gt
        )["iou"]
    if config.pixel_ap:
        scores["pixel_ap"] = average_precision(heat.heat, gt)
    for layers in config.layer_ablation:
        layer_heat = (
            heat
            if layers == config.attention.layers
            else build_heatmap(attention, config.attention, layers)
        )
        scores[f"iou_{layers}"] = region_scores(
            quantile_mask(layer_heat.heat, config.q, config.ties, config.quantile_method), gt
        )["iou"]
    scores["neff_ratio"] = effective_support_ratio(
        heat.raw if config.neff_map == "raw" else heat.smoothed
    )
    if config.specificity:
        maps = [_specificity_map(heat, config)] + [
            _specificity_map(build_heatmap(a, config.attention), config) for a in alternatives
        ]
        scores["specificity"] = mean_pairwise_pearson(maps) if len(maps) > 1 else float("nan")
        scores["n_queries"] = len(maps)
    return scores


def _specificity_map(heat: HeatMap, config: GroundingConfig) -> np.ndarray:
    return heat.heat if config.specificity_map == "upsampled" else heat.normalised


METRICS = ("iou", "precision", "recall", "pixel_ap", "neff_ratio", "specificity", "mask_fraction")


def summarize(samples: Sequence[dict[str, Any]], config: GroundingConfig) -> dict[str, Any]:
    """Means per split and over all samples (the paper averages per sample, not per pixel)."""
    keys = [k for k in METRICS if any(k in s for s in samples)]
    keys += [f"iou@{q:g}" for q in config.sweep] + [
        f"iou_{layers}" for layers in config.layer_ablation
    ]
    splits = list(dict.fromkeys(s["split"] for s in samples)) + [ALL]
    summary: dict[str, Any] = {"splits": splits, "metrics": {}, "counts": {}}
    for split in splits:
        rows = [s for s in samples if split == ALL or s["split"] == split]
        summary["metrics"][split] = {k: _mean([r.get(k, float("nan")) for r in rows]) for k in keys}
        summary["counts"][split] = {
            "n": len(rows),
            "degenerate_maps": sum(1 for r in rows if r.get("degenerate_map")),
            "undefined_specificity": sum(
                1 for r in rows if "specificity" in r and not math.isfinite(r["specificity"])
            ),
            "undefined_pixel_ap": sum(
                1 for r in rows if "pixel_ap" in r and not math.isfinite(r["pixel_ap"])
            ),
        }
    summary["notes"] = {
        "units": (
            "IoU, precision, recall, pixel AP in percent; neff_ratio and specificity as fractions"
        ),
        "aggregation": "mean over samples per split; 'all' is the mean over every sample",
    }
    return summary


# -- saved maps ------------------------------------------------------------------------------------
def save_maps(
    folder: Path,
    index: int,
    item: GroundingItem,
    queries: Sequence[str],
    attentions: Sequence[EntityAttention],
) -> None:
    """Write one sample's attention (every query) to ``maps/<index>.npz`` in float16."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {}
    meta = {"id": item.id, "queries": list(queries), "entries": []}
    for j, attention in enumerate(attentions):
        arrays[f"maps_{j}"] = attention.layer_token_maps.astype(np.float16)
        arrays[f"grid_{j}"] = attention.token_grid.astype(np.int32)
        meta["entries"].append(
            {
                "view_box": list(attention.view_box),
                "image_size": list(attention.image_size),
                "entity_tokens": attention.entity_tokens,
                "num_heads": attention.num_heads,
            }
        )
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(folder / f"{index:06d}.npz", **arrays)


def load_maps(path: Path) -> tuple[str, list[str], list[EntityAttention]]:
    """(sample id, queries, attentions) from one saved file."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        attentions = [
            EntityAttention(
                layer_token_maps=data[f"maps_{j}"].astype(np.float32),
                token_grid=data[f"grid_{j}"],
                view_box=tuple(entry["view_box"]),
                image_size=tuple(entry["image_size"]),
                entity_tokens=entry["entity_tokens"],
                num_heads=entry["num_heads"],
            )
            for j, entry in enumerate(meta["entries"])
        ]
    return meta["id"], meta["queries"], attentions


# -- runs ------------------------------------------------------------------------------------------
def run_settings(
    vlm_info: dict[str, Any],
    items: Sequence[GroundingItem],
    config: GroundingConfig,
    samples_file: Path | None,
) -> dict[str, Any]:
    return {
        "protocol": "grounding",
        "model": vlm_info,
        "config": to_dict(config),
        "data": {
            "samples": str(samples_file) if samples_file else None,
            "sha256": file_sha256(samples_file) if samples_file else None,
            "n_samples": len(items),
            "splits": {
                s: sum(1 for i in items if i.split == s)
                for s in dict.fromkeys(i.split for i in items)
            },
        },
        "versions": versions(),
    }


def run_grounding(
    vlm: GenerativeVLM,
    items: Sequence[GroundingItem],
    config: GroundingConfig,
    out_dir: str | Path,
    *,
    samples_file: Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Extract and score every sample; per-sample scores are appended as they are produced."""
    if not vlm.supports_attention:
        raise ValueError(
            f"Model '{vlm.name}' ({vlm.family}) exposes no attention weights; the grounding "
            "protocol needs an open-weight model (see `pathreport list generative_vlms`)."
        )
    out = Path(out_dir)
    start_run(out, run_settings(vlm.describe(), items, config, samples_file), SAMPLES_FILE, resume)
    samples_path = out / SAMPLES_FILE
    done = {r["id"]: r for r in read_jsonl(samples_path)} if samples_path.exists() else {}
    alternatives = (
        alternative_expressions(items, config.alternatives, config.seed)
        if config.specificity
        else {}
    )
    attention_config = config.attention
    for index, item in enumerate(items):
        if item.id in done:
            continue
        image = load_image(item.image)
        queries = [item.expression] + alternatives.get(item.id, [])
        attentions = []
        for query in queries:
            prompt, span = entity_span(
                attention_config.prompt, query, attention_config.strip_entity_punctuation
            )
            attentions.append(
                vlm.entity_attention(image, prompt, span, attention_config.system_prompt)
            )
        if config.save_maps:
            save_maps(out / MAPS_DIR, index, item, queries, attentions)
        record = {
            **score_sample(item, attentions[0], attentions[1:], config),
            "alternatives": queries[1:],
        }
        append_jsonl(samples_path, [record])
        done[item.id] = record
        if progress is not None:
            progress(index + 1, len(items))
    return [done[item.id] for item in items]


def rescore(
    maps_dir: str | Path, items: Sequence[GroundingItem], config: GroundingConfig
) -> list[dict[str, Any]]:
    """Recompute per-sample scores from saved maps with ``config`` (no model needed)."""
    folder = Path(maps_dir)
    files = sorted(folder.glob("*.npz"))
    if not files:
        raise FileNotFoundError(
            f"No saved maps (*.npz) in {folder}; run the grounding protocol with map saving first."
        )
    by_id = {item.id: item for item in items}
    samples = []
    for path in files:
        sample_id, queries, attentions = load_maps(path)
        if sample_id not in by_id:
            raise ValueError(
                f"{path} holds sample {sample_id!r}, which is not in the samples file; pass "
                "the file the maps came from."
            )
        record = score_sample(
            by_id[sample_id], attentions[0], attentions[1 : 1 + config.alternatives], config
        )
        samples.append({**record, "alternatives": queries[1 : 1 + config.alternatives]})
    return samples
