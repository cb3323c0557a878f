"""The distinct text queries of a run: one column of the score table each.

Tasks ask for columns by text (or by a tuple of texts, for a prompt ensemble) before any text is
encoded; the same string asked by two tasks is one column, scored once. After the plan is complete
the run encodes :meth:`QueryBank.required_texts` once and builds the query matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def normalize_rows(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    if np.any(norms == 0):
        raise ValueError(
            "A text embedding is the zero vector; it has no direction to compare with."
        )
    return x / norms


class QueryBank:
    """Columns of the score table: single texts and normalised means of several texts."""

    def __init__(self) -> None:
        self._columns: dict[tuple[str, ...], int] = {}

    def text(self, text: str) -> int:
        """Column of one text."""
        return self.ensemble((text,))

    def texts(self, texts: Sequence[str]) -> np.ndarray:
        """Columns of several texts, in order."""
        return np.array([self.text(t) for t in texts], dtype=np.int64)

    def ensemble(self, texts: Sequence[str]) -> int:
        """Column of the normalised mean of the texts' unit embeddings (order does not matter)."""
        key = tuple(sorted(texts)) if len(texts) > 1 else tuple(texts)
        if not key:
            raise ValueError("An ensemble query needs at least one text.")
        return self._columns.setdefault(key, len(self._columns))

    def __len__(self) -> int:
        return len(self._columns)

    def required_texts(self) -> list[str]:
        """Every distinct string some column needs, in first-use order."""
        seen: dict[str, None] = {}
        for key in self._columns:
            seen.update(dict.fromkeys(key))
        return list(seen)

    def system(self, text_vectors: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The distinct unit text embeddings ``(T, D)`` and the ``(M, T)`` weights that make each
        column's unit query vector from them (``1 / ||sum of its unit texts||`` per text)."""
        texts = self.required_texts()
        unit = normalize_rows(
            np.stack([np.asarray(text_vectors[t], dtype=np.float64) for t in texts])
        )
        index = {t: i for i, t in enumerate(texts)}
        combination = np.zeros((len(self._columns), len(texts)), dtype=np.float64)
        for column, key in enumerate(self._columns):
            rows = [index[t] for t in key]
            length = np.linalg.norm(unit[rows].sum(axis=0))
            if length == 0:
                raise ValueError(f"The prompt ensemble {list(key)} averages to the zero vector.")
            np.add.at(combination[column], rows, 1.0 / length)
        return unit.astype(np.float32), combination.astype(np.float32)

    def matrix(self, text_vectors: Mapping[str, np.ndarray]) -> np.ndarray:
        """The ``(M, D)`` float32 matrix of unit query vectors, column order."""
        texts, combination = self.system(text_vectors)
        return combination @ texts
