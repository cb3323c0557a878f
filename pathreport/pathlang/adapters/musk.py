"""MUSK: a vision-language foundation model for precision oncology (BEiT-3-style, 384 px).

Paper: Xiang et al., "A vision-language foundation model for precision oncology", Nature 2025.
Upstream: https://github.com/lilab-stanford/MUSK (the ``musk`` package, built on timm); weights:
``hf_hub:xiangjx/musk`` (gated). Licence: CC-BY-NC-ND 4.0.

Deviations: the image transform (bicubic resize to 384, centre crop 384, mean = std = 0.5, timm's
"inception" constants) is written with PIL and numpy instead of torchvision. Embeddings come from
the retrieval head (``with_head=True``) without multiscale augmentation and before normalisation;
text uses MUSK's XLM-R tokenizer with ``max_len=100`` as upstream's examples do.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from pathreport.pathlang.vlm import (
    VLMAdapter,
    require,
    resize_crop_normalize,
    weights_error,
)
from pathreport.registry import VLMS

INSTALL = (
    "pip install git+https://github.com/lilab-stanford/MUSK.git  (it needs timm and a "
    "torchvision matching your torch)"
)
INCEPTION_MEAN = (0.5, 0.5, 0.5)
INCEPTION_STD = (0.5, 0.5, 0.5)


@VLMS.register(
    "musk",
    paper="Xiang et al., Nature 2025 (MUSK)",
    upstream="https://github.com/lilab-stanford/MUSK",
    weights="hf_hub:xiangjx/musk (gated)",
    licence="CC-BY-NC-ND-4.0",
    install=INSTALL,
)
class MuskAdapter(VLMAdapter):
    name = "musk"
    default_checkpoint = "hf_hub:xiangjx/musk"
    context_length = 100
    image_size = 384

    def __init__(
        self, checkpoint: str | None = None, *, device: str = "cpu", batch_size: int = 64
    ) -> None:
        super().__init__(checkpoint, device=device, batch_size=batch_size)
        musk = require("musk", self.name, INSTALL)
        timm_models = require("timm.models", self.name, INSTALL)
        transformers = require("transformers", self.name, INSTALL)
        utils = require("musk.utils", self.name, INSTALL)
        require("musk.modeling", self.name, INSTALL)  # registers the MUSK architectures with timm
        try:
            model = timm_models.create_model("musk_large_patch16_384")
            utils.load_model_and_may_interpolate(self.checkpoint, model, "model|module", "")
        except (OSError, RuntimeError) as err:
            raise weights_error(
                self.name,
                self.checkpoint,
                err,
                "Request access at https://huggingface.co/xiangjx/musk and log in (or set "
                "HF_TOKEN), or pass a downloaded checkpoint with --vlm-checkpoint.",
            ) from None
        self.model = model.eval().to(device)
        self._xlm_tokenize = utils.xlm_tokenizer
        spm = os.path.join(os.path.dirname(musk.__file__), "models", "tokenizer.spm")
        self.tokenizer = transformers.XLMRobertaTokenizer(spm)

    def _encode_text(self, texts: list[str]) -> np.ndarray:
        import torch

        self.note_truncation(
            texts, [len(self.tokenizer.tokenize(t)) + 2 for t in texts], self.context_length
        )
        ids, pads = zip(
            *(self._xlm_tokenize(t, self.tokenizer, max_len=self.context_length) for t in texts),
            strict=True,
        )
        with torch.inference_mode():
            out = self.model(
                text_description=torch.tensor(ids).to(self.device),
                padding_mask=torch.tensor(pads).to(self.device),
                with_head=True,
                out_norm=False,
                ms_aug=False,
                return_global=True,
            )[1]
        return out.float().cpu().numpy()

    def _encode_image(self, images: list[Any]) -> np.ndarray:
        import torch

        pixels = torch.from_numpy(
            resize_crop_normalize(images, self.image_size, INCEPTION_MEAN, INCEPTION_STD)
        )
        with torch.inference_mode():
            out = self.model(
                image=pixels.to(self.device),
                with_head=True,
                out_norm=False,
                ms_aug=False,
                return_global=True,
            )[0]
        return out.float().cpu().numpy()
