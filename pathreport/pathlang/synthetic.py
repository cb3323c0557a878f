"""Generated embeddings with a known class structure, for the speed benchmark and for trying the
pipeline without a model or slides.

Each class has a random unit direction in the joint space. A text that names a class (any prompt
of that class in the corpus) embeds near its class direction; any other text is a random
direction. A slide of class c holds background tiles plus a fraction of tiles near direction c,
so query-dependent Top-K aggregation has a focal signal to find, as in real slides.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np

from pathreport.pathlang.corpus import NO_CANDIDATE, DatasetPrompts


def class_of_texts(ds: DatasetPrompts) -> dict[str, int]:
    """Every prompt string of the dataset that names exactly one of its classes, with that class."""
    owners: dict[str, set[int]] = {}
    for c in range(ds.num_classes):
        texts = [ds.canonical[c]]
        texts += list(ds.positives[c]) if ds.positives else []
        texts += list(ds.paraphrases[c]) if ds.paraphrases else []
        texts += list(ds.styles[c]) if ds.styles else []
        texts += [ds.set1.targets[c]] if ds.set1 else []
        texts += [ds.set2[c][0]] if ds.set2 else []
        texts += [t for t in ds.set3_labels[c] if t != NO_CANDIDATE] if ds.set3_labels else []
        texts += [ds.set4.targets[c]] if ds.set4 else []
        for t in texts:
            owners.setdefault(t, set()).add(c)
    return {t: next(iter(cs)) for t, cs in owners.items() if len(cs) == 1}


def class_directions(n_classes: int, dim: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    d = rng.normal(size=(n_classes, dim))
    return d / np.linalg.norm(d, axis=1, keepdims=True)


def text_encoder(
    directions: np.ndarray, classes_of: dict[str, int], *, strength: float = 2.0, seed: int = 0
) -> Callable[[Sequence[str]], np.ndarray]:
    """Deterministic text encoder: vector seeded by the string's hash, plus its class direction."""
    dim = directions.shape[1]

    def encode(texts: Sequence[str]) -> np.ndarray:
        rows = []
        for t in texts:
            digest = int.from_bytes(hashlib.sha256(f"{seed}:{t}".encode()).digest()[:8], "little")
            v = np.random.default_rng(digest).normal(size=dim) / np.sqrt(dim)
            if t in classes_of:
                v = v + strength * directions[classes_of[t]]
            rows.append(v)
        return np.asarray(rows, dtype=np.float32)

    return encode


def slide_tiles(
    y: Sequence[int],
    directions: np.ndarray,
    *,
    n_tiles: int | Sequence[int] = 500,
    signal_fraction: float = 0.05,
    strength: float = 1.5,
    seed: int = 0,
) -> list[np.ndarray]:
    """Tiles per slide: Gaussian background, a ``signal_fraction`` of them shifted along the class
    direction.
    """
    rng = np.random.default_rng(seed)
    dim = directions.shape[1]
    counts = [n_tiles] * len(y) if isinstance(n_tiles, int) else list(n_tiles)
    slides = []
    for c, n in zip(y, counts, strict=True):
        tiles = rng.normal(size=(n, dim)).astype(np.float32) / np.sqrt(dim)
        k = max(1, int(round(signal_fraction * n)))
        tiles[:k] += strength * directions[c].astype(np.float32)
        slides.append(tiles)
    return slides
