"""Adapters for models published as open_clip checkpoints (a hub id, or a file for an architecture).

open_clip imports timm and torchvision at import time, so it only works where torchvision matches
the installed torch; it is imported when a model is built, with the install instruction in the
error when it cannot be. Tokenisation and image preprocessing are open_clip's own for the
checkpoint; text longer than the context is truncated by open_clip and recorded here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from pathreport.pathlang.vlm import MissingDependency, VLMAdapter, require, weights_error

OPEN_CLIP_INSTALL = (
    "pip install open_clip_torch  (it imports timm and torchvision: install the torchvision "
    "build that matches your torch, e.g. from https://download.pytorch.org/whl/cpu for a "
    "CPU-only torch)"
)


class OpenClipAdapter(VLMAdapter):
    """An open_clip model: ``hf-hub:``/``local-dir:`` checkpoints, or a weights file for
    :attr:`architecture`.

    Args:
        checkpoint: ``hf-hub:<id>``, ``local-dir:<folder>``, or a path to a ``.pt``/``.bin`` file.
        architecture: open_clip model name used with a weights file (default: the adapter's).
        device: torch device.
        batch_size: inputs per forward pass.
    """

    architecture: ClassVar[str] = ""
    weights_hint: ClassVar[str] = ""

    def __init__(
        self,
        checkpoint: str | None = None,
        *,
        architecture: str | None = None,
        device: str = "cpu",
        batch_size: int = 64,
    ) -> None:
        super().__init__(checkpoint, device=device, batch_size=batch_size)
        if not self.checkpoint:
            raise MissingDependency(
                f"The '{self.name}' adapter needs its weights file: {self.weights_hint}"
            )
        arch = architecture or self.architecture
        on_hub = self.checkpoint.startswith(("hf-hub:", "local-dir:"))
        if not on_hub and not Path(self.checkpoint).is_file():
            raise MissingDependency(
                f"The '{self.name}' adapter cannot find the weights file "
                f"'{self.checkpoint}'. {self.weights_hint}"
            )
        open_clip = require("open_clip", self.name, OPEN_CLIP_INSTALL)
        try:
            if on_hub:
                model, _, preprocess = open_clip.create_model_and_transforms(self.checkpoint)
                tokenizer = open_clip.get_tokenizer(self.checkpoint)
            else:
                model, _, preprocess = open_clip.create_model_and_transforms(
                    arch, pretrained=self.checkpoint
                )
                tokenizer = open_clip.get_tokenizer(arch)
        except (OSError, RuntimeError) as err:
            raise weights_error(self.name, self.checkpoint, err, self.weights_hint) from None
        self.architecture_used = self.checkpoint if on_hub else arch
        self.model = model.eval().to(device)
        self.preprocess = preprocess
        self.tokenizer = tokenizer
        self.context_length = int(getattr(tokenizer, "context_length", 77))

    def _encode_text(self, texts: list[str]) -> np.ndarray:
        import torch

        self.note_truncation(texts, [self._token_count(t) for t in texts], self.context_length)
        tokens = self.tokenizer(texts).to(self.device)
        with torch.inference_mode():
            return self.model.encode_text(tokens).float().cpu().numpy()

    def _encode_image(self, images: list[Any]) -> np.ndarray:
        import torch

        batch = torch.stack([self.preprocess(img) for img in images]).to(self.device)
        with torch.inference_mode():
            return self.model.encode_image(batch).float().cpu().numpy()

    def _token_count(self, text: str) -> int:
        """Tokens including start and end markers (open_clip's BPE or a wrapped HF tokenizer)."""
        inner = getattr(self.tokenizer, "tokenizer", None)
        if inner is not None:
            return len(inner(text)["input_ids"])
        return len(self.tokenizer.encode(text)) + 2

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "architecture": self.architecture_used}
