"""What PathBind needs from a generative vision-language model.

Two capabilities, kept separate because closed models only have the first:

* ``generate``: answer a prompt with or without an image (the VQA protocol). ``image=None`` is the
  text-only condition: the adapter drops the image AND its placeholder tokens, nothing else.
* ``entity_attention`` (open-weight models): one forward pass over the image and a prompt, returning
  the head-averaged attention from the entity's tokens to the image tokens for every decoder layer,
  with the layout of the image tokens on the patch grid and where that grid lies on the original
  image. Map post-processing is shared (``pathreport.pathbind.maps``), so adapters only extract.

Model families register factories in ``pathreport.registry.GENERATIVE_VLMS`` (see
``pathreport/pathbind/adapters/``); :func:`build_vlm` turns a registered name plus options into a
model.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pathreport.pathbind.config import VLMDecodingConfig
from pathreport.registry import GENERATIVE_VLMS, Entry, did_you_mean


@dataclass
class EntityAttention:
    """Entity-to-image attention of one forward pass.

    Attributes:
        layer_token_maps: ``[L, K, N]`` post-softmax attention, averaged over heads (Eq. 1), from
            each of the K entity tokens to each of the N image tokens, for all L decoder layers.
            Keeping every layer lets any layer set be scored later without a new pass.
        token_grid: ``[H_p, W_p]`` index of the image token shown in each grid cell (row-major
            layouts are ``arange(N).reshape(H_p, W_p)``; tiled layouts are mosaics).
        view_box: (x0, y0, x1, y1): the region of the ORIGINAL image, in its pixel coordinates,
            that the grid covers (beyond the image when the model saw a padded square, inside it
            for a centre crop).
        image_size: (W, H) of the original image.
        entity_tokens: the entity's token strings (for the record).
        num_heads: query heads averaged in Eq. 1.
    """

    layer_token_maps: np.ndarray
    token_grid: np.ndarray
    view_box: tuple[float, float, float, float]
    image_size: tuple[int, int]
    entity_tokens: list[str] = field(default_factory=list)
    num_heads: int = 0

    def __post_init__(self) -> None:
        maps = np.asarray(self.layer_token_maps)
        if maps.ndim != 3 or 0 in maps.shape:
            raise ValueError(
                "layer_token_maps must be a non-empty [layers, entity tokens, image tokens] "
                f"array, got shape {maps.shape}."
            )
        grid = np.asarray(self.token_grid)
        if grid.ndim != 2 or grid.size == 0 or grid.min() < 0 or grid.max() >= maps.shape[2]:
            raise ValueError(
                f"token_grid must be a 2-D array of image-token indices in [0, {maps.shape[2]}), "
                f"got shape {grid.shape}"
                + (f" and range [{grid.min()}, {grid.max()}]." if grid.size else ".")
            )
        x0, y0, x1, y1 = self.view_box
        if not (x1 > x0 and y1 > y0):
            raise ValueError(f"view_box must have x1 > x0 and y1 > y0, got {self.view_box}.")
        self.layer_token_maps = maps
        self.token_grid = grid

    @property
    def num_layers(self) -> int:
        return int(self.layer_token_maps.shape[0])

    @property
    def grid_shape(self) -> tuple[int, int]:
        return tuple(int(v) for v in self.token_grid.shape)  # type: ignore[return-value]


class GenerativeVLM(ABC):
    """A model that answers questions about an image.

    Attributes:
        name: registry name (the join key in result tables).
        family: model family, e.g. ``llava-1.5``, ``qwen2-vl``, ``api``.
        base_model: registry name of the general model it was fine-tuned from (paired deltas).
        is_api: closed model behind an API: answers only, no attention.
    """

    name: str = "unnamed"
    family: str = "unknown"
    base_model: str | None = None
    is_api: bool = False

    @abstractmethod
    def generate(
        self, system: str, user: str, image: Any | None, decoding: VLMDecodingConfig
    ) -> str:
        """Answer ``user`` under ``system``; ``image`` is a PIL image or None (text-only)."""

    @property
    def supports_attention(self) -> bool:
        return False

    def entity_attention(
        self, image: Any, prompt: str, entity_span: tuple[int, int], system: str | None = None
    ) -> EntityAttention:
        """Attention from the characters ``prompt[entity_span[0]:entity_span[1]]`` to the image."""
        raise NotImplementedError(
            f"{self.name} ({self.family}) gives no attention weights: the grounding protocol "
            "needs an open-weight model whose adapter implements entity_attention."
        )

    def describe(self) -> dict[str, Any]:
        """Everything about the model a results file must record (checkpoint, revision, ...)."""
        return {
            "name": self.name,
            "family": self.family,
            "base_model": self.base_model,
            "is_api": self.is_api,
        }


class AttentionVLM(GenerativeVLM):
    """A generative VLM that also exposes its attention (the grounding protocol)."""

    @property
    def supports_attention(self) -> bool:
        return True

    @abstractmethod
    def entity_attention(
        self, image: Any, prompt: str, entity_span: tuple[int, int], system: str | None = None
    ) -> EntityAttention:
        """See :meth:`GenerativeVLM.entity_attention`."""


@dataclass(frozen=True)
class VLMFactory:
    """A registered model: the adapter class plus its preset options (checkpoint, base model, ...).

    Calling it with user options builds the model; unknown option names are rejected with the list
    of valid ones, so a typo never falls back silently to a default.
    """

    adapter: Callable[..., GenerativeVLM]
    options_class: type
    presets: dict[str, Any] = field(default_factory=dict)

    def __call__(self, name: str, **options: Any) -> GenerativeVLM:
        valid = [f.name for f in dataclasses.fields(self.options_class)]
        unknown = [k for k in options if k not in valid]
        if unknown:
            hint = did_you_mean(unknown[0], valid)
            raise ValueError(
                f"Unknown option(s) {unknown} for model '{name}'. {hint + ' ' if hint else ''}"
                f"Valid options: {', '.join(valid)}."
            )
        merged = {**self.presets, **{k: v for k, v in options.items() if v is not None}}
        return self.adapter(name, self.options_class(**merged))


def _wrap_adapter(entry: Entry) -> Entry:
    """The ``GENERATIVE_VLMS`` hook: a registered adapter class with an options dataclass
    (``config=``) becomes a :class:`VLMFactory` with its ``presets`` (checkpoint, base model, ...),
    and the listing shows the preset checkpoint. Adapter files register each named model with::

        GENERATIVE_VLMS.register("llava_1_5_7b", config=LlavaOptions,
                                 presets={"checkpoint": "llava-hf/llava-1.5-7b-hf"},
                                 family=...)(LlavaVLM)

    Any other entry (a plain factory returning a :class:`GenerativeVLM`) is stored as given.
    """
    metadata = dict(entry.metadata)
    presets = dict(metadata.pop("presets", None) or {})
    if entry.config is None:
        return dataclasses.replace(entry, metadata=metadata)
    shown = {k: presets[k] for k in ("checkpoint", "base_model") if presets.get(k)}
    if "description" not in metadata and shown:
        base = f"; fine-tuned from {shown['base_model']}" if "base_model" in shown else ""
        metadata["description"] = f"{shown.get('checkpoint', '')}{base}"
    return dataclasses.replace(
        entry, obj=VLMFactory(entry.obj, entry.config, presets), metadata={**shown, **metadata}
    )


GENERATIVE_VLMS.set_hooks(prepare=_wrap_adapter)


def build_vlm(name: str, **options: Any) -> GenerativeVLM:
    """Build registered model ``name`` with adapter options (``checkpoint``, ``device``, ...)."""
    entry = GENERATIVE_VLMS.get(name)
    factory = entry.obj
    if isinstance(factory, VLMFactory):
        return factory(name, **options)
    model = factory(**options) if callable(factory) else factory
    if not isinstance(model, GenerativeVLM):
        raise TypeError(
            f"Generative VLM '{name}' ({entry.provider}) did not build a GenerativeVLM, "
            f"got {type(model).__name__}."
        )
    if model.name == GenerativeVLM.name:
        model.name = name
    return model
