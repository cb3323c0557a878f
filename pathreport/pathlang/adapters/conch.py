"""CONCH: a CoCa-style visual-language model (ViT-B/16) pretrained on 1.17M pathology pairs.

Paper: Lu et al., "A visual-language foundation model for computational pathology", Nature
Medicine 2024. Upstream: https://github.com/mahmoodlab/CONCH (the ``conch`` package); weights:
https://huggingface.co/MahmoodLab/conch (gated: request access, then log in or set ``HF_TOKEN``).
Licence: CC-BY-NC-ND 4.0 (weights and code, academic non-commercial use).

Deviations: none in the model. Images use CONCH's own preprocessing and ``encode_image`` with the
contrastive projection (``proj_contrast=True``); text uses CONCH's tokenizer (127 tokens + CLS),
longer prompts are truncated as upstream does and recorded. Note that TRIDENT's ``conch_v1``
features are taken *before* that projection (``proj_contrast=False``), so they are not in the
joint space and cannot be scored against text: encode tiles with this adapter instead.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from pathreport.pathlang.vlm import VLMAdapter, require, weights_error
from pathreport.registry import VLMS

INSTALL = (
    "pip install git+https://github.com/mahmoodlab/CONCH.git  (it needs timm and a "
    "torchvision matching your torch)"
)


@VLMS.register(
    "conch",
    paper="Lu et al., Nature Medicine 2024 (CONCH)",
    upstream="https://github.com/mahmoodlab/CONCH",
    weights="hf_hub:MahmoodLab/conch (gated)",
    licence="CC-BY-NC-ND-4.0",
    install=INSTALL,
)
class ConchAdapter(VLMAdapter):
    """CONCH through its own package. ``checkpoint`` is ``hf_hub:MahmoodLab/conch`` or a local
    ``pytorch_model.bin``."""

    name = "conch"
    default_checkpoint = "hf_hub:MahmoodLab/conch"
    context_length = 127

    def __init__(
        self, checkpoint: str | None = None, *, device: str = "cpu", batch_size: int = 64
    ) -> None:
        super().__init__(checkpoint, device=device, batch_size=batch_size)
        custom = require("conch.open_clip_custom", self.name, INSTALL)
        try:
            model, self.preprocess = custom.create_model_from_pretrained(
                "conch_ViT-B-16", self.checkpoint, hf_auth_token=os.environ.get("HF_TOKEN")
            )
        except (OSError, RuntimeError, ValueError) as err:
            raise weights_error(
                self.name,
                self.checkpoint,
                err,
                "Request access at https://huggingface.co/MahmoodLab/conch, download "
                "pytorch_model.bin and pass its path with --vlm-checkpoint (or set HF_TOKEN).",
            ) from None
        self.model = model.eval().to(device)
        self._tokenize = custom.tokenize
        self.tokenizer = custom.get_tokenizer()

    def _encode_text(self, texts: list[str]) -> np.ndarray:
        import torch

        lengths = [len(ids) for ids in self.tokenizer(texts)["input_ids"]]
        self.note_truncation(texts, lengths, self.context_length)
        tokens = self._tokenize(texts=texts, tokenizer=self.tokenizer).to(self.device)
        with torch.inference_mode():
            return self.model.encode_text(tokens, normalize=False).float().cpu().numpy()

    def _encode_image(self, images: list[Any]) -> np.ndarray:
        import torch

        batch = torch.stack([self.preprocess(img) for img in images]).to(self.device)
        with torch.inference_mode():
            return (
                self.model.encode_image(batch, proj_contrast=True, normalize=False)
                .float()
                .cpu()
                .numpy()
            )
