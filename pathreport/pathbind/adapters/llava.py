"""LLaVA-1.5 family: LLaVA-1.5-7B/13B, Quilt-LLaVA, PathGen-LLaVA.

Papers: Liu et al. 2024, "Improved Baselines with Visual Instruction Tuning" (LLaVA-1.5);
Seyfioglu et al. 2024, "Quilt-LLaVA"; Sun et al. 2024, "PathGen-1.6M" (PathGen-LLaVA).
Upstream code: https://github.com/haotian-liu/LLaVA (Apache-2.0); the transformers port
``LlavaForConditionalGeneration`` (Apache-2.0) is what runs here. Weights carry their own licences
(LLaMA 2 Community Licence for the Vicuna-based checkpoints).

Visual tokens: CLIP ViT-L/14 at 336 px gives a 24 x 24 grid of 576 tokens (the CLS token is dropped
by the ``default`` feature strategy), in row-major order.

Deliberate deviations from upstream:
* The square the model sees is made here, so the grid's place on the original image is exact:
  ``image_aspect=pad`` (default) pads to a square with the mean pixel colour, as upstream
  LLaVA-1.5's evaluation does (``image_aspect_ratio: pad``); ``crop`` takes the centre square (what
  the transformers processor does by default); ``resize`` squashes the whole image.
* Quilt-LLaVA and PathGen-LLaVA are published in the original LLaVA repository format, which
  transformers cannot load; convert them with transformers' ``convert_llava_weights_to_hf.py`` and
  pass the converted folder with ``--checkpoint``. The hub ids below are the ones the model cards
  name; they are not verified by pathreport.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pathreport.pathbind.adapters._hf import (
    HFOptions,
    HFVisionLanguageModel,
    ImageEncoding,
    PublishedCheckpoint,
    register_family,
)

# The LLaVA v1 conversation format ("USER: <image>\n... ASSISTANT:"), used only when a checkpoint
# ships no chat template.
LLAVA_V1_TEMPLATE = (
    "{% for message in messages %}{% if message['role'] == 'system' %}{% for part in "
    "message['content'] %}{{ part['text'] }}{% endfor %} {% elif message['role'] == 'user' "
    "%}USER: {% for part in message['content'] %}{% if part['type'] == 'image' %}<image>\n{% "
    "else %}{{ part['text'] }}{% endif %}{% endfor %} {% else %}ASSISTANT: {% for part in "
    "message['content'] %}{{ part['text'] }}{% endfor %}</s>{% endif %}{% endfor %}{% if "
    "add_generation_prompt %}ASSISTANT:{% endif %}"
)


@dataclass
class LlavaOptions(HFOptions):
    """LLaVA options (see ``HFOptions``), plus:

    Attributes:
        image_aspect: ``pad`` (upstream LLaVA-1.5), ``crop`` (centre square) or ``resize``.
    """

    image_aspect: str = "pad"


class LlavaVLM(HFVisionLanguageModel):
    """LLaVA-1.5 style models through ``LlavaForConditionalGeneration``."""

    family = "llava-1.5"
    options_class = LlavaOptions
    default_chat_template = LLAVA_V1_TEMPLATE
    options: LlavaOptions

    def conversion_hint(self) -> str:
        return (
            " Checkpoints in the original LLaVA format (Quilt-LLaVA, PathGen-LLaVA) must first "
            "be converted with transformers' convert_llava_weights_to_hf.py "
            "(src/transformers/models/llava/ in the transformers repository)."
        )

    def _square(self, image: Any) -> tuple[Any, tuple[float, float, float, float]]:
        from PIL import Image

        width, height = image.size
        aspect = self.options.image_aspect
        if aspect == "pad":
            side = max(width, height)
            mean = getattr(self.image_processor, "image_mean", None) or (0.5, 0.5, 0.5)
            canvas = Image.new("RGB", (side, side), tuple(int(round(255 * m)) for m in mean))
            left, top = (side - width) // 2, (side - height) // 2
            canvas.paste(image, (left, top))
            return canvas, (-left, -top, side - left, side - top)
        if aspect == "crop":
            side = min(width, height)
            left, top = (width - side) // 2, (height - side) // 2
            return image.crop((left, top, left + side, top + side)), (
                left,
                top,
                left + side,
                top + side,
            )
        if aspect == "resize":
            return image, (0.0, 0.0, float(width), float(height))
        raise ValueError(f"{self.name}: image_aspect must be pad, crop or resize, got {aspect!r}.")

    def encode_image(self, image: Any) -> ImageEncoding:
        square, view_box = self._square(image)
        if self.options.image_aspect == "resize":
            side = _crop_side(self.image_processor)
            square = square.resize((side, side), resample=3)  # bicubic, as CLIP preprocessing
        pixel_values = self.image_processor(images=square, return_tensors="pt")["pixel_values"]
        config = self.model.config
        patch = config.vision_config.patch_size
        rows, cols = pixel_values.shape[-2] // patch, pixel_values.shape[-1] // patch
        keep_cls = getattr(config, "vision_feature_select_strategy", "default") == "full"
        offset = 1 if keep_cls else 0
        num_tokens = rows * cols + offset
        grid = offset + np.arange(rows * cols).reshape(rows, cols)
        return ImageEncoding(
            model_inputs={"pixel_values": pixel_values},
            expansion=self.image_token() * num_tokens,
            num_tokens=num_tokens,
            token_grid=grid,
            view_box=view_box,
            details={
                "square": list(square.size),
                "model_input": [int(pixel_values.shape[-1]), int(pixel_values.shape[-2])],
            },
        )

    def preprocessing(self) -> dict[str, Any]:
        processor = self.image_processor
        return {
            "image_aspect": self.options.image_aspect,
            "image_processor": type(processor).__name__,
            "crop_size": _crop_side(processor),
            "image_mean": list(getattr(processor, "image_mean", []) or []),
        }


def _field(settings: Any, key: str) -> Any:
    """A key of a processor size setting, which is a dict or an object depending on the version."""
    return settings.get(key) if isinstance(settings, dict) else getattr(settings, key, None)


def _crop_side(processor: Any) -> int:
    """Side of the square the vision tower sees (336 for LLaVA-1.5)."""
    crop = getattr(processor, "crop_size", None) or {}
    size = getattr(processor, "size", None) or {}
    return int(
        _field(crop, "height") or _field(size, "shortest_edge") or _field(size, "height") or 336
    )


register_family(
    LlavaVLM,
    LlavaOptions,
    name="llava",
    family="llava-1.5",
    description="any LLaVA-1.5 style checkpoint in the transformers format (pass --checkpoint)",
    paper="PathBind (arXiv:2607.21065), Tables 1-3",
    checkpoints=(
        PublishedCheckpoint("llava_1_5_7b", "llava-hf/llava-1.5-7b-hf", "llava-1.5"),
        PublishedCheckpoint("llava_1_5_13b", "llava-hf/llava-1.5-13b-hf", "llava-1.5"),
        PublishedCheckpoint(
            "quilt_llava",
            "wisdomik/Quilt-Llava-v1.5-7b",
            "llava-1.5",
            base_model="llava_1_5_7b",
            weights_format="original LLaVA (convert first)",
        ),
        PublishedCheckpoint(
            "pathgen_llava",
            "jamessyx/PathGen-LLaVA",
            "llava-1.5",
            base_model="llava_1_5_13b",
            weights_format="original LLaVA (convert first)",
        ),
    ),
)
