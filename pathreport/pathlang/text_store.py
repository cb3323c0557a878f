"""Text embeddings stored in a file, keyed by the exact prompt string.

A run saves the embeddings it used (``text_embeddings.npz``), and the ``precomputed`` adapter reads
such a file, so a benchmark can be re-run, or run on embeddings made elsewhere, without the model.
Two formats are read: ``.npz`` with a string array ``texts`` and a float array ``embeddings``
(row i embeds ``texts[i]``), and ``.json`` mapping each string to its vector.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np


def save_text_embeddings(path: str | os.PathLike, vectors: Mapping[str, np.ndarray]) -> Path:
    """Write ``{text: vector}`` as ``.npz`` (``texts``, ``embeddings``)."""
    path = Path(path)
    texts = list(vectors)
    np.savez(
        path,
        texts=np.array(texts, dtype=str),
        embeddings=np.stack([np.asarray(vectors[t], np.float32) for t in texts]),
    )
    return path


def load_text_embeddings(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Read a text-embedding file (``.npz`` or ``.json``) into ``{text: float32 vector}``."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"Text-embedding file {path} does not exist.")
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as data:
            missing = [k for k in ("texts", "embeddings") if k not in data]
            if missing:
                raise ValueError(
                    f"{path}: needs arrays 'texts' and 'embeddings', found {sorted(data.files)}."
                )
            texts, emb = (
                [str(t) for t in data["texts"]],
                np.asarray(data["embeddings"], dtype=np.float32),
            )
        if emb.ndim != 2 or emb.shape[0] != len(texts):
            raise ValueError(
                f"{path}: 'embeddings' has shape {emb.shape} for {len(texts)} texts; "
                f"expected ({len(texts)}, D)."
            )
        table = dict(zip(texts, emb, strict=True))
    elif path.suffix == ".json":
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError(
                f"{path}: expected an object mapping each text to its vector, "
                f"found {type(raw).__name__}."
            )
        table = {str(k): np.asarray(v, dtype=np.float32) for k, v in raw.items()}
    else:
        raise ValueError(
            f"{path}: unknown text-embedding format '{path.suffix}'; use .npz (texts, "
            "embeddings) or .json."
        )
    if not table:
        raise ValueError(f"{path} holds no text embeddings.")
    dims = {v.shape for v in table.values()}
    if len(dims) != 1 or len(next(iter(dims))) != 1:
        raise ValueError(
            f"{path}: every text needs a vector of the same length, found "
            f"shapes {sorted(map(str, dims))}."
        )
    bad = [t for t, v in table.items() if not np.isfinite(v).all() or not np.any(v)]
    if bad:
        raise ValueError(
            f"{path}: {len(bad)} vector(s) are zero or not finite, e.g. for {bad[0]!r}."
        )
    return table
