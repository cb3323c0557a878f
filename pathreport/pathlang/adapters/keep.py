"""KEEP: knowledge-enhanced pathology vision-language pretraining (ViT-L/16, PubMedBERT-style text).

Paper: Zhou et al., "Knowledge-enhanced pretraining for vision-language pathology foundation model
on cancer diagnosis", Cancer Cell 2026 (arXiv 2412.13126). Upstream:
https://github.com/MAGIC-AI4Med/KEEP; weights: https://huggingface.co/Astaxanthin/KEEP, loaded with
``transformers.AutoModel.from_pretrained(..., trust_remote_code=True)`` as the model card shows
(MIT licence). The remote code imports timm and torchvision.

Deviations: the image transform (bicubic resize of the shorter side to 224, centre crop 224,
ImageNet mean/std) is written with PIL and numpy instead of torchvision, with the card's values.
Text is tokenised to at most 256 tokens as on the card; truncation is recorded.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pathreport.pathlang.vlm import (
    IMAGENET_MEAN,
    IMAGENET_STD,
    VLMAdapter,
    require,
    resize_crop_normalize,
    weights_error,
)
from pathreport.registry import VLMS

INSTALL = "pip install 'pathreport[vlm]' timm torchvision  (torchvision must match your torch)"


@VLMS.register(
    "keep",
    paper="Zhou et al., Cancer Cell 2026 (KEEP)",
    upstream="https://github.com/MAGIC-AI4Med/KEEP",
    weights="Astaxanthin/KEEP",
    licence="MIT (model card)",
    install=INSTALL,
)
class KeepAdapter(VLMAdapter):
    name = "keep"
    default_checkpoint = "Astaxanthin/KEEP"
    context_length = 256
    image_size = 224

    def __init__(
        self, checkpoint: str | None = None, *, device: str = "cpu", batch_size: int = 64
    ) -> None:
        super().__init__(checkpoint, device=device, batch_size=batch_size)
        transformers = require("transformers", self.name, INSTALL)
        require("timm", self.name, INSTALL)
        require("torchvision", self.name, INSTALL)
        try:
            self.model = (
                transformers.AutoModel.from_pretrained(self.checkpoint, trust_remote_code=True)
                .eval()
                .to(device)
            )
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(
                self.checkpoint, trust_remote_code=True
            )
        except OSError as err:
            raise weights_error(
                self.name,
                self.checkpoint,
                err,
                "Download https://huggingface.co/Astaxanthin/KEEP (huggingface-cli download "
                "Astaxanthin/KEEP --local-dir <dir>) and pass the folder with --vlm-checkpoint.",
            ) from None

    def _encode_text(self, texts: list[str]) -> np.ndarray:
        import torch

        self.note_truncation(
            texts, [len(ids) for ids in self.tokenizer(texts)["input_ids"]], self.context_length
        )
        tokens = self.tokenizer(
            texts,
            max_length=self.context_length,
            padding="max_length",
            truncation=True,
            return_tensors="pt",
        ).to(self.device)
        with torch.inference_mode():
            return self.model.encode_text(tokens).float().cpu().numpy()

    def _encode_image(self, images: list[Any]) -> np.ndarray:
        import torch

        pixels = torch.from_numpy(
            resize_crop_normalize(images, self.image_size, IMAGENET_MEAN, IMAGENET_STD)
        )
        with torch.inference_mode():
            return self.model.encode_image(pixels.to(self.device)).float().cpu().numpy()
