"""Qwen-VL family: Qwen2-VL, Qwen2.5-VL, Qwen3-VL and models fine-tuned from them
(HuatuoGPT-Vision, Patho-R1).

Papers: Wang et al. 2024, "Qwen2-VL"; Bai et al. 2025, "Qwen2.5-VL Technical Report"; Qwen3-VL
(Qwen team, 2025); Zhang et al. 2025, "Patho-R1" (arXiv:2505.11404); Chen et al. 2024,
"HuatuoGPT-Vision". Upstream code: https://github.com/QwenLM/Qwen2.5-VL and
https://github.com/QwenLM/Qwen3-VL; https://github.com/Wenchuan-Zhang/Patho-R1. The transformers
ports (``Qwen2VLForConditionalGeneration`` and successors) run here, loaded through
``AutoModelForImageTextToText`` so one adapter serves all three generations. Licence: Apache-2.0 for
the Qwen code and the transformers ports; each checkpoint carries its own licence (see its card).

Visual tokens: the image is resized so both sides are multiples of patch x merge (28 px for
Qwen2/2.5-VL, 32 px for Qwen3-VL) within the processor's pixel budget; each 2 x 2 block of patches
is merged into one token, and the merged tokens enter the decoder in row-major order (Qwen2.5-VL's
windowed vision attention restores that order before the merger output). The whole image is resized,
never cropped, so the grid covers the whole original image.

Deliberate deviations from upstream: the image pixel budget is the checkpoint's unless
``min_pixels`` /
``max_pixels`` are given; images are passed directly (no ``qwen_vl_utils`` URL fetching).
HuatuoGPT-Vision's first release uses its own LLaVA-style code that transformers cannot load; the
paper pairs HuatuoGPT-Vision-7B with Qwen2-VL-7B, so the preset below points at the
Qwen-VL-architecture release. Hub ids are the ones the model cards name; they are not verified by
pathreport.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from pathreport.pathbind.adapters._hf import (
    HFOptions,
    HFVisionLanguageModel,
    ImageEncoding,
    PublishedCheckpoint,
    register_family,
)

# The ChatML format of the Qwen-VL instruct models, used only when a checkpoint ships no template.
QWEN_CHATML_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{% for part in "
    "message['content'] %}{% if part['type'] == 'image' "
    "%}<|vision_start|><|image_pad|><|vision_end|>{% else %}{{ part['text'] }}{% endif %}{% "
    "endfor %}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% "
    "endif %}"
)


@dataclass
class QwenVLOptions(HFOptions):
    """Qwen-VL options (see ``HFOptions``), plus:

    Attributes:
        min_pixels: lower pixel budget of the resized image (None: the checkpoint's).
        max_pixels: upper pixel budget (None: the checkpoint's, 12.8 M px for Qwen2-VL). Lower it to
            bound memory; it changes the grid, so it is recorded in the results.
    """

    min_pixels: int | None = None
    max_pixels: int | None = None


class QwenVLModel(HFVisionLanguageModel):
    """Qwen2-VL / Qwen2.5-VL / Qwen3-VL style models."""

    family = "qwen-vl"
    options_class = QwenVLOptions
    default_chat_template = QWEN_CHATML_TEMPLATE
    image_placeholder_fallback = "<|image_pad|>"
    options: QwenVLOptions

    def _size_override(self) -> dict[str, Any]:
        size = {}
        if self.options.min_pixels is not None:
            size["shortest_edge"] = int(self.options.min_pixels)
        if self.options.max_pixels is not None:
            size["longest_edge"] = int(self.options.max_pixels)
        if not size:
            return {}
        current = getattr(self.image_processor, "size", None) or {}
        base = (
            dict(current)
            if isinstance(current, dict)
            else {k: getattr(current, k, None) for k in ("shortest_edge", "longest_edge")}
        )
        return {"size": {**{k: v for k, v in base.items() if v is not None}, **size}}

    def merge_size(self) -> int:
        merge = getattr(self.image_processor, "merge_size", None)
        return int(merge or getattr(self.model.config.vision_config, "spatial_merge_size", 2))

    def encode_image(self, image: Any) -> ImageEncoding:
        processed = self.image_processor(
            images=[image], return_tensors="pt", **self._size_override()
        )
        grid_thw = processed["image_grid_thw"]
        t, h, w = (int(v) for v in grid_thw[0])
        merge = self.merge_size()
        rows, cols = h // merge, w // merge
        num_tokens = t * rows * cols
        patch = int(getattr(self.image_processor, "patch_size", 14))
        return ImageEncoding(
            model_inputs={"pixel_values": processed["pixel_values"], "image_grid_thw": grid_thw},
            expansion=self.image_token() * num_tokens,
            num_tokens=num_tokens,
            token_grid=np.arange(rows * cols).reshape(rows, cols),
            view_box=(0.0, 0.0, float(image.size[0]), float(image.size[1])),
            details={"resized": [w * patch, h * patch], "grid": [rows, cols]},
        )

    def extra_inputs(self, input_ids: torch.Tensor) -> dict[str, Any]:
        # transformers >= 5 computes multimodal RoPE positions from per-token modality types.
        return {"mm_token_type_ids": (input_ids == self.image_token_id()).long()}

    def preprocessing(self) -> dict[str, Any]:
        processor = self.image_processor
        size = getattr(processor, "size", None)
        return {
            "image_processor": type(processor).__name__,
            "patch_size": getattr(processor, "patch_size", None),
            "merge_size": self.merge_size(),
            "size": dict(size) if isinstance(size, dict) else str(size),
            "override": self._size_override(),
        }


register_family(
    QwenVLModel,
    QwenVLOptions,
    name="qwen_vl",
    family="qwen-vl",
    description="any Qwen2-VL / Qwen2.5-VL / Qwen3-VL style checkpoint (pass --checkpoint)",
    paper="PathBind (arXiv:2607.21065), Tables 1-3",
    checkpoints=(
        PublishedCheckpoint("qwen2_vl_7b", "Qwen/Qwen2-VL-7B-Instruct", "qwen2-vl"),
        PublishedCheckpoint(
            "huatuogpt_vision_7b",
            "FreedomIntelligence/HuatuoGPT-Vision-7B-Qwen2.5VL",
            "qwen-vl",
            base_model="qwen2_vl_7b",
        ),
        PublishedCheckpoint("qwen2_5_vl_7b", "Qwen/Qwen2.5-VL-7B-Instruct", "qwen2.5-vl"),
        PublishedCheckpoint(
            "patho_r1_7b", "WenchuanZhang/Patho-R1-7B", "qwen2.5-vl", base_model="qwen2_5_vl_7b"
        ),
        PublishedCheckpoint("qwen3_vl_8b", "Qwen/Qwen3-VL-8B-Instruct", "qwen3-vl"),
    ),
)
