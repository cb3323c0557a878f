"""InternVL3 family (InternVL3-8B, InternVL3-38B) in the transformers-native format.

Paper: Zhu et al. 2025, "InternVL3: Exploring Advanced Training and Test-Time Recipes for
Open-Source Multimodal Models". Upstream code: https://github.com/OpenGVLab/InternVL; the
transformers port
``InternVLForConditionalGeneration`` runs here, so the checkpoints must be the ``-hf`` conversions
(e.g. ``OpenGVLab/InternVL3-8B-hf``; not verified by pathreport). Licence: MIT (upstream code),
Apache-2.0 (transformers port); the weights carry their own licence.

Visual tokens: dynamic tiling. The image is resized to a canvas of ``cols x rows`` tiles of 448 px
(the tile count closest to the image's aspect ratio, between ``min_tiles`` and ``max_tiles``), each
tile gives 16 x 16 tokens after pixel shuffle (row-major), and a 448 px thumbnail of the whole image
is appended when there is more than one tile. The patch grid used for attention maps is the mosaic
of the tiles, ``16 rows x 16 cols`` cells, covering the whole image; the thumbnail's tokens are part
of the image span but not of the grid (ambiguity A12: the paper does not say how tiles map back).

Deliberate deviations from upstream: tiles are cut here (the tile-choice rule of upstream's
``dynamic_preprocess``: closest aspect ratio, ties to the larger grid when the image is big enough)
so the mosaic layout is known exactly; the transformers image processor only normalises each tile.
The
``<img>`` / ``</img>`` markers are not counted as patches.
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

INTERNVL_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% for part in message['content'] %}{% if part['type'] == 'image' %}<IMG_CONTEXT>\n"
    "{% else %}{{ part['text'] }}{% endif %}{% endfor %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@dataclass
class InternVLOptions(HFOptions):
    """InternVL options (see ``HFOptions``), plus:

    Attributes:
        min_tiles: fewest 448 px tiles (upstream: 1).
        max_tiles: most tiles (upstream default: 12); 1 disables tiling (one 16 x 16 grid).
        use_thumbnail: append the whole-image thumbnail when tiling (upstream: yes).
        start_image_token: marker before the image tokens.
        end_image_token: marker after them.
    """

    min_tiles: int = 1
    max_tiles: int = 12
    use_thumbnail: bool = True
    start_image_token: str = "<img>"
    end_image_token: str = "</img>"


def tile_layout(
    width: int, height: int, tile: int, min_tiles: int, max_tiles: int
) -> tuple[int, int]:
    """(cols, rows) of the tile canvas, by upstream InternVL's closest-aspect-ratio rule."""
    candidates = sorted(
        {
            (c, r)
            for n in range(min_tiles, max_tiles + 1)
            for c in range(1, n + 1)
            for r in range(1, n + 1)
            if min_tiles <= c * r <= max_tiles
        },
        key=lambda cr: cr[0] * cr[1],
    )
    aspect = width / height
    best, best_diff = (1, 1), float("inf")
    for cols, rows in candidates:
        diff = abs(aspect - cols / rows)
        if diff < best_diff:
            best, best_diff = (cols, rows), diff
        elif diff == best_diff and width * height > 0.5 * tile * tile * cols * rows:
            best = (cols, rows)
    return best


class InternVLModel(HFVisionLanguageModel):
    """InternVL3 style models through ``InternVLForConditionalGeneration``."""

    family = "internvl3"
    options_class = InternVLOptions
    default_chat_template = INTERNVL_TEMPLATE
    image_placeholder_fallback = "<IMG_CONTEXT>"
    options: InternVLOptions

    def tile_size(self) -> int:
        size = self.model.config.vision_config.image_size
        return int(size[0] if isinstance(size, (list, tuple)) else size)

    def tokens_per_side(self) -> int:
        vision = self.model.config.vision_config
        patch = (
            vision.patch_size[0]
            if isinstance(vision.patch_size, (list, tuple))
            else vision.patch_size
        )
        ratio = float(getattr(self.model.config, "downsample_ratio", 0.5))
        return int(round(self.tile_size() // int(patch) * ratio))

    def encode_image(self, image: Any) -> ImageEncoding:
        tile = self.tile_size()
        width, height = image.size
        options = self.options
        cols, rows = tile_layout(width, height, tile, options.min_tiles, options.max_tiles)
        canvas = image.resize((cols * tile, rows * tile), resample=3)
        tiles = [
            canvas.crop((c * tile, r * tile, (c + 1) * tile, (r + 1) * tile))
            for r in range(rows)
            for c in range(cols)
        ]
        if len(tiles) > 1 and options.use_thumbnail:
            tiles.append(image.resize((tile, tile), resample=3))
        processed = self.image_processor(images=tiles, crop_to_patches=False, return_tensors="pt")
        pixel_values = processed["pixel_values"]
        side = self.tokens_per_side()
        per_tile = side * side
        grid = np.zeros((rows * side, cols * side), dtype=np.int64)
        for index in range(rows * cols):
            r, c = divmod(index, cols)
            grid[r * side : (r + 1) * side, c * side : (c + 1) * side] = (
                index * per_tile + np.arange(per_tile).reshape(side, side)
            )
        num_tokens = per_tile * len(tiles)
        expansion = (
            options.start_image_token + self.image_token() * num_tokens + options.end_image_token
        )
        return ImageEncoding(
            model_inputs={"pixel_values": pixel_values},
            expansion=expansion,
            num_tokens=num_tokens,
            token_grid=grid,
            view_box=(0.0, 0.0, float(width), float(height)),
            details={"tiles": [cols, rows], "thumbnail": len(tiles) > rows * cols},
        )

    def preprocessing(self) -> dict[str, Any]:
        return {
            "tile_size": self.tile_size(),
            "tokens_per_tile": self.tokens_per_side() ** 2,
            "min_tiles": self.options.min_tiles,
            "max_tiles": self.options.max_tiles,
            "use_thumbnail": self.options.use_thumbnail,
            "grid": "mosaic of the tiles; thumbnail tokens excluded from the grid",
        }


register_family(
    InternVLModel,
    InternVLOptions,
    name="internvl",
    family="internvl3",
    description="any InternVL3 checkpoint in the transformers format (pass --checkpoint)",
    paper="PathBind (arXiv:2607.21065), Tables 3, A.1, A.2",
    checkpoints=(
        PublishedCheckpoint("internvl3_8b", "OpenGVLab/InternVL3-8B-hf", "internvl3"),
        PublishedCheckpoint("internvl3_38b", "OpenGVLab/InternVL3-38B-hf", "internvl3"),
    ),
)
