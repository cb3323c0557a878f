"""Embeddings computed elsewhere: tiles from the ``--slides`` h5 files, text from a file.

Not a model: the adapter for users who have joint-space embeddings from any source (the authors'
released text embeddings, another framework, a GPU machine). Text embeddings are looked up by the
exact prompt string in a ``.npz`` (``texts``, ``embeddings``) or ``.json`` file, such as the
``text_embeddings.npz`` every run writes. ``pathreport pathlang --list-texts`` prints the strings a
run needs. Licence: that of the embeddings. No deviation: no computation happens here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pathreport.pathlang.text_store import load_text_embeddings
from pathreport.pathlang.vlm import VLMAdapter
from pathreport.registry import VLMS


@VLMS.register(
    "precomputed",
    paper="(none: reads embeddings computed elsewhere)",
    upstream="",
    weights="--text-embeddings FILE (.npz texts/embeddings or .json)",
    licence="that of the embeddings",
    install="",
)
class PrecomputedAdapter(VLMAdapter):
    """Serves text embeddings from a file; tile embeddings come from the slides' h5 files."""

    name = "precomputed"

    def __init__(
        self,
        checkpoint: str | None = None,
        *,
        text_embeddings: str | None = None,
        device: str = "cpu",
        batch_size: int = 4096,
    ) -> None:
        super().__init__(checkpoint, device=device, batch_size=batch_size)
        source = text_embeddings or checkpoint
        if not source:
            raise ValueError(
                "The 'precomputed' adapter needs a text-embedding file: --text-embeddings FILE "
                "(.npz with texts/embeddings, or .json {text: vector})."
            )
        self.source = str(source)
        self.table = load_text_embeddings(source)

    def _encode_text(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in texts if t not in self.table]
        if missing:
            raise KeyError(
                f"{self.source} has no embedding for {len(missing)} of the {len(texts)} texts "
                f"requested, e.g. {missing[0]!r}. Texts are matched exactly (case, punctuation, "
                "dashes); list the strings a run needs with: pathreport pathlang --list-texts "
                "--dataset <name>"
            )
        return np.stack([self.table[t] for t in texts])

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "checkpoint": None,
            "text_embeddings": self.source,
            "n_texts_in_file": len(self.table),
        }
