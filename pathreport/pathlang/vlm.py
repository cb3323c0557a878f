"""What a dual-encoder VLM adapter is, and the helpers adapters share.

An adapter wraps one published model behind two calls that return embeddings in the model's joint
image-text space: ``encode_image(tiles)`` and ``encode_text(strings)``. Outputs are the model's
projected embeddings, not normalised: PathLang normalises centrally, and averaging raw tiles is a
run option. Adapters are registered in ``pathreport.registry.VLMS``, one file each in
``pathreport/pathlang/adapters/`` (or any installed package, through the ``pathreport.vlms`` entry
point group). Heavy libraries are imported when a model is built, never when the file is imported,
and a missing library or checkpoint raises :class:`MissingDependency` saying what to install or
download.
"""

from __future__ import annotations

import dataclasses
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from pathreport.registry import VLMS, Entry

Tiles = Any  # a sequence of PIL images, or a uint8 array (B, H, W, 3)


class MissingDependency(ImportError):
    """A library or checkpoint an adapter needs is not available; the message says how to get it."""


def require(module: str, adapter: str, install: str) -> Any:
    """Import ``module`` or raise :class:`MissingDependency` with the install instruction."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise MissingDependency(
            f"The '{adapter}' VLM adapter needs the Python package '{module}', which cannot be "
            f"imported ({err}). Install it with: {install}"
        ) from None


def weights_error(adapter: str, source: str, err: BaseException, how: str) -> MissingDependency:
    """The error for weights that could not be loaded (gated, not downloaded, no network)."""
    return MissingDependency(
        f"The '{adapter}' VLM adapter could not load its weights from '{source}' "
        f"({type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}). {how}"
    )


class VLMAdapter(ABC):
    """Base class of dual-encoder adapters.

    Subclasses set the class attributes and implement :meth:`_encode_text` (and
    :meth:`_encode_image`, unless the adapter only serves precomputed tile embeddings) on batches.

    Args:
        checkpoint: where the weights are (a local path or the publisher's hub id); ``None`` uses
            the adapter's default.
        device: torch device for the model.
        batch_size: images or strings per forward pass.
    """

    name: ClassVar[str] = ""
    default_checkpoint: ClassVar[str | None] = None
    context_length: int | None = None

    def __init__(
        self, checkpoint: str | None = None, *, device: str = "cpu", batch_size: int = 64
    ) -> None:
        self.checkpoint = checkpoint or self.default_checkpoint
        self.device = device
        self.batch_size = int(batch_size)
        self.truncated: list[str] = []

    # -- public API --------------------------------------------------------------------------
    def encode_image(self, tiles: Tiles) -> np.ndarray:
        """Joint-space embeddings ``(B, D)`` float32 of image tiles."""
        images = as_pil_images(tiles)
        return self._batched(images, self._encode_image)

    def encode_text(self, texts: Sequence[str]) -> np.ndarray:
        """Joint-space embeddings ``(T, D)`` float32 of strings, encoded exactly as given."""
        texts = list(texts)
        if not all(isinstance(t, str) for t in texts):
            raise TypeError("encode_text expects a list of strings.")
        return self._batched(texts, self._encode_text)

    def describe(self) -> dict[str, Any]:
        """Facts for the run manifest: checkpoint, text context length, truncated prompts."""
        return {
            "adapter": self.name,
            "checkpoint": self.checkpoint,
            "context_length": self.context_length,
            "n_truncated_texts": len(self.truncated),
            "truncated_texts": self.truncated[:20],
        }

    # -- to implement ------------------------------------------------------------------------
    def _encode_image(self, images: list[Any]) -> np.ndarray:
        raise TypeError(f"The '{self.name}' adapter has no image encoder.")

    @abstractmethod
    def _encode_text(self, texts: list[str]) -> np.ndarray:
        """Embeddings of one batch of strings."""

    # -- helpers -----------------------------------------------------------------------------
    def _batched(self, items: list[Any], encode: Callable[[list[Any]], np.ndarray]) -> np.ndarray:
        if not items:
            raise ValueError("Nothing to encode: the input is empty.")
        parts = [
            np.asarray(encode(items[i : i + self.batch_size]), dtype=np.float32)
            for i in range(0, len(items), self.batch_size)
        ]
        out = np.concatenate(parts, axis=0)
        if out.ndim != 2 or out.shape[0] != len(items):
            raise RuntimeError(
                f"The '{self.name}' adapter returned shape {out.shape} for {len(items)} inputs."
            )
        return out

    def note_truncation(self, texts: Sequence[str], lengths: Sequence[int], limit: int) -> None:
        """Record prompts whose token count exceeds the text encoder's context length."""
        self.truncated.extend(
            t for t, n in zip(texts, lengths, strict=True) if n > limit and t not in self.truncated
        )


def as_pil_images(tiles: Tiles) -> list[Any]:
    """PIL RGB images from a list of images or a uint8 ``(B, H, W, 3)`` array."""
    from PIL import Image

    if isinstance(tiles, np.ndarray):
        if tiles.ndim != 4 or tiles.shape[-1] != 3:
            raise ValueError(f"Tile arrays must be (B, H, W, 3) RGB, found shape {tiles.shape}.")
        return [Image.fromarray(np.ascontiguousarray(t, dtype=np.uint8), "RGB") for t in tiles]
    images = list(tiles)
    for i, img in enumerate(images):
        if not isinstance(img, Image.Image):
            raise TypeError(
                f"Tile {i} is a {type(img).__name__}; give PIL images or a uint8 array."
            )
    return [img.convert("RGB") for img in images]


def resize_crop_normalize(
    images: list[Any], size: int, mean: Sequence[float], std: Sequence[float], *, crop: bool = True
) -> np.ndarray:
    """Bicubic resize of the shorter side to ``size``, centre crop, scale to [0, 1], normalise.

    The standard CLIP/timm evaluation transform, written with PIL and numpy so that adapters whose
    owners use torchvision transforms do not need torchvision for preprocessing.
    """
    from PIL import Image

    out = []
    for img in images:
        w, h = img.size
        scale = size / min(w, h)
        resized = img.resize(
            (max(size, round(w * scale)), max(size, round(h * scale))), Image.Resampling.BICUBIC
        )
        if crop:
            left = (resized.width - size) // 2
            top = (resized.height - size) // 2
            resized = resized.crop((left, top, left + size, top + size))
        arr = np.asarray(resized, dtype=np.float32) / 255.0
        out.append((arr - np.asarray(mean, dtype=np.float32)) / np.asarray(std, dtype=np.float32))
    return np.stack(out).transpose(0, 3, 1, 2)


IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


def _check_adapter(entry: Entry) -> Entry:
    """The rules of a ``VLMS`` entry (installed as the registry's hook): a :class:`VLMAdapter` class
    whose ``name`` is its registered name; shown by ``pathreport list vlms`` as a dual encoder, with
    its paper as the description unless it gives one."""
    cls = entry.obj
    if isinstance(cls, type) and issubclass(cls, VLMAdapter):
        if not cls.name:
            cls.name = entry.name
        elif cls.name != entry.name:
            raise TypeError(
                f"VLM adapter {cls.__name__} ({entry.provider}) is registered as '{entry.name}' "
                f"but its name attribute is '{cls.name}'; make them the same."
            )
    metadata = {
        "kind": "dual-encoder",
        "description": entry.metadata.get("paper", ""),
        **entry.metadata,
    }
    return dataclasses.replace(entry, metadata=metadata)


VLMS.set_hooks(prepare=_check_adapter)
