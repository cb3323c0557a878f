"""MI-Zero: CTransPath image encoder and a clinical BERT text encoder, contrastively aligned.

Paper: Lu et al., "Visual Language Pretrained Multiple Instance Zero-Shot Transfer for
Histopathology Images", CVPR 2023. Upstream: https://github.com/mahmoodlab/MI-Zero (code under
``src/``, not a package; it needs its bundled ``timm_ctp`` timm fork); weights:
``ctranspath_448_<text model>/checkpoints/epoch_50.pt`` from the Google Drive folder linked in the
upstream README. Licence: CC-BY-NC-ND 4.0.

Options: ``repo_dir`` (the upstream ``src`` folder), ``text_model`` (``bioclinicalbert``, default,
or
``pubmedbert``), ``image_size`` (224, the size upstream's embedding script uses).

Deviations: the image transform (resize of the shorter side, centre crop, ImageNet mean/std) is
written with PIL and numpy instead of torchvision. Text is tokenised to 64 tokens as upstream.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import numpy as np

from pathreport.pathlang.vlm import (
    IMAGENET_MEAN,
    IMAGENET_STD,
    MissingDependency,
    VLMAdapter,
    require,
    resize_crop_normalize,
    weights_error,
)
from pathreport.registry import VLMS

INSTALL = (
    "git clone https://github.com/mahmoodlab/MI-Zero; pip install MI-Zero/assets/timm_ctp.tar "
    "--no-deps; then pass --vlm-option repo_dir=MI-Zero/src"
)
TEXT_MODELS = {
    "bioclinicalbert": "emilyalsentzer/Bio_ClinicalBERT",
    "pubmedbert": "microsoft/BiomedNLP-PubMedBERT-base-uncased-abstract-fulltext",
}


@VLMS.register(
    "mi_zero",
    paper="Lu et al., CVPR 2023 (MI-Zero)",
    upstream="https://github.com/mahmoodlab/MI-Zero",
    weights=(
        "ctranspath_448_bioclinicalbert/checkpoints/epoch_50.pt (Google Drive, see upstream README)"
    ),
    licence="CC-BY-NC-ND-4.0",
    install=INSTALL,
)
class MiZeroAdapter(VLMAdapter):
    name = "mi_zero"
    context_length = 64

    def __init__(
        self,
        checkpoint: str | None = None,
        *,
        repo_dir: str | None = None,
        text_model: str = "bioclinicalbert",
        image_size: int = 224,
        device: str = "cpu",
        batch_size: int = 64,
    ) -> None:
        import torch

        super().__init__(checkpoint, device=device, batch_size=batch_size)
        if text_model not in TEXT_MODELS:
            raise ValueError(
                f"text_model must be one of {sorted(TEXT_MODELS)}, found {text_model!r}."
            )
        if not repo_dir or not (Path(repo_dir) / "models" / "factory.py").is_file():
            raise MissingDependency(
                "The 'mi_zero' adapter needs MI-Zero's source folder (found "
                f"repo_dir={repo_dir!r}): {INSTALL}"
            )
        if not self.checkpoint or not Path(self.checkpoint).is_file():
            raise MissingDependency(
                f"The 'mi_zero' adapter needs its checkpoint file (found {self.checkpoint!r}): "
                f"download ctranspath_448_{text_model}/checkpoints/epoch_50.pt from the link in "
                "MI-Zero's README and pass it with --vlm-checkpoint."
            )
        transformers = require("transformers", self.name, "pip install 'pathreport[vlm]'")
        require("timm", self.name, INSTALL)
        sys.path.insert(0, str(Path(repo_dir).resolve()))
        try:
            factory = importlib.import_module("models.factory")
            model = factory.create_model(
                f"ctranspath_448_{text_model}", device=torch.device(device)
            )
            factory.load_checkpoint(model, self.checkpoint)
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(TEXT_MODELS[text_model])
        except (OSError, RuntimeError) as err:
            raise weights_error(
                self.name,
                self.checkpoint,
                err,
                "MI-Zero also loads its BERT text model from the Hugging Face hub; make it "
                "reachable or cached (HF_HOME).",
            ) from None
        self.model = model.eval()
        self.text_model = text_model
        self.image_size = int(image_size)

    def _encode_text(self, texts: list[str]) -> np.ndarray:
        import torch

        self.note_truncation(
            texts, [len(ids) for ids in self.tokenizer(texts)["input_ids"]], self.context_length
        )
        tokens = self.tokenizer(
            texts,
            max_length=self.context_length,
            truncation=True,
            padding="max_length",
            return_attention_mask=True,
            return_token_type_ids=False,
            return_tensors="pt",
        )
        with torch.inference_mode():
            out = self.model.encode_text(
                tokens["input_ids"].to(self.device),
                attention_mask=tokens["attention_mask"].to(self.device),
            )
        return out.float().cpu().numpy()

    def _encode_image(self, images: list[Any]) -> np.ndarray:
        import torch

        pixels = torch.from_numpy(
            resize_crop_normalize(images, self.image_size, IMAGENET_MEAN, IMAGENET_STD)
        )
        with torch.inference_mode():
            return self.model.encode_image(pixels.to(self.device)).float().cpu().numpy()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "text_model": self.text_model, "image_size": self.image_size}
