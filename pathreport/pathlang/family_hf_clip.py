"""Adapters for CLIP checkpoints published in transformers' format (``CLIPModel``).

The weights, tokenizer and image processor are read with ``from_pretrained`` from a hub id or a
local folder, exactly as such checkpoints are published. Text longer than the text encoder's
context (77 tokens for CLIP) is truncated, as CLIP's own tokenizer does, and recorded.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from pathreport.pathlang.vlm import VLMAdapter, require, weights_error

TRANSFORMERS_INSTALL = "pip install 'pathreport[vlm]'  (transformers and pillow)"


class HFClipAdapter(VLMAdapter):
    """A ``transformers`` CLIP model, its tokenizer and its image processor from one checkpoint.

    Args:
        checkpoint: hub id or local folder with ``config.json``, weights, tokenizer and
            ``preprocessor_config.json``.
        device: torch device.
        batch_size: inputs per forward pass.
        max_length: text context length (default: the text encoder's position embeddings).
    """

    download_hint: ClassVar[str] = (
        "Download the checkpoint where the hub is reachable (huggingface-cli download <id> "
        "--local-dir <dir>) and pass the folder with --vlm-checkpoint."
    )

    def __init__(
        self,
        checkpoint: str | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        max_length: int | None = None,
    ) -> None:
        super().__init__(checkpoint, device=device, batch_size=batch_size)
        if not self.checkpoint:
            raise ValueError(
                f"The '{self.name}' adapter needs --vlm-checkpoint (a hub id or a local folder)."
            )
        transformers = require("transformers", self.name, TRANSFORMERS_INSTALL)
        require("PIL", self.name, TRANSFORMERS_INSTALL)
        try:
            self.model = transformers.CLIPModel.from_pretrained(self.checkpoint).eval().to(device)
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(self.checkpoint)
            self.processor = transformers.AutoImageProcessor.from_pretrained(self.checkpoint)
        except OSError as err:
            raise weights_error(self.name, self.checkpoint, err, self.download_hint) from None
        self.context_length = int(
            max_length or self.model.config.text_config.max_position_embeddings
        )

    def _encode_text(self, texts: list[str]) -> np.ndarray:
        import torch

        lengths = [len(ids) for ids in self.tokenizer(texts, truncation=False)["input_ids"]]
        self.note_truncation(texts, lengths, self.context_length)
        batch = self.tokenizer(
            texts,
            padding=True,
            truncation=True,
            max_length=self.context_length,
            return_tensors="pt",
        )
        with torch.inference_mode():
            out = self.model.get_text_features(
                input_ids=batch["input_ids"].to(self.device),
                attention_mask=batch["attention_mask"].to(self.device),
            )
        return _features(out)

    def _encode_image(self, images: list[Any]) -> np.ndarray:
        import torch

        pixels = self.processor(images=images, return_tensors="pt")["pixel_values"]
        with torch.inference_mode():
            out = self.model.get_image_features(pixel_values=pixels.to(self.device))
        return _features(out)


def _features(out: Any) -> np.ndarray:
    """Projected features from ``get_*_features`` (a tensor in transformers 4, an output in 5)."""
    import torch

    tensor = out if torch.is_tensor(out) else out.pooler_output
    return tensor.float().cpu().numpy()
