"""Shared machinery of the transformers-based adapters (not an adapter itself: files starting with
``_`` are skipped by adapter discovery).

A family adapter says only what differs between families: how an image becomes model inputs and
placeholder tokens, and where the image tokens sit on the patch grid and on the original image.
Everything else lives here once: loading with install and download hints, chat templating with the
image placed before the text, greedy generation, and attention capture.

Attention capture. With eager attention every decoder self-attention module returns its post-softmax
weights. Forward hooks on the language decoder's attention modules keep only the rows of the entity
tokens and the columns of the image tokens, averaged over heads, during ONE forward pass over the
prompt (no generation). This equals slicing ``output_attentions=True`` (a test checks it) without
holding L full ``[H, T, T]`` matrices in memory.

Entity tokens (ambiguity A10). The prompt is located in the fully expanded chat text; a token
belongs to the entity when its character span overlaps the entity's span on a non-space character
(so a leading-space token such as ``" tumor"`` counts, a lone space does not). Character offsets
need a fast tokenizer.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
from abc import abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pathreport.pathbind.config import VLMDecodingConfig
from pathreport.pathbind.vlm import AttentionVLM, EntityAttention
from pathreport.registry import GENERATIVE_VLMS

log = logging.getLogger(__name__)

INSTALL_HINT = "pip install 'pathreport[vlm]' (transformers and pillow)"


def require_transformers() -> Any:
    """The transformers module, or an ImportError with the install command."""
    try:
        import transformers
    except ImportError as err:
        raise ImportError(f"This model adapter needs transformers: {INSTALL_HINT}.") from err
    return transformers


@dataclass
class HFOptions:
    """Options shared by every transformers adapter (``--checkpoint``, ``--option key=value``).

    Attributes:
        checkpoint: Hugging Face hub id or local folder in the transformers format.
        revision: hub revision (branch, tag or commit) to pin; recorded in the results.
        device: ``auto`` (CUDA when available, else CPU), ``cpu``, ``cuda``, ``cuda:1``, ...
        dtype: ``auto`` (bfloat16 on GPU, float32 on CPU), ``float32``, ``bfloat16``, ``float16``.
        attn_implementation: ``eager`` is required for attention maps; ``sdpa`` is faster for VQA.
        chat_template: a Jinja template (text or path) overriding the checkpoint's.
        base_model: registry name of the general model this one was fine-tuned from.
        local_files_only: never contact the hub (use the local cache only).
        trust_remote_code: passed to transformers (off: every supported family is native).
    """

    checkpoint: str | None = None
    revision: str | None = None
    device: str = "auto"
    dtype: str = "auto"
    attn_implementation: str = "eager"
    chat_template: str | None = None
    base_model: str | None = None
    local_files_only: bool = False
    trust_remote_code: bool = False


@dataclass
class ImageEncoding:
    """What a family adapter makes of one image.

    Attributes:
        model_inputs: tensors for the model's forward (``pixel_values``, ``image_grid_thw``, ...).
        expansion: the text that replaces the single image placeholder in the chat text.
        num_tokens: how many image tokens the expansion holds.
        token_grid: ``[H_p, W_p]`` image-token index per grid cell.
        view_box: region of the original image the grid covers (see ``EntityAttention``).
        details: preprocessing facts for the results (resized size, tiles, padding, ...).
    """

    model_inputs: dict[str, Any]
    expansion: str
    num_tokens: int
    token_grid: np.ndarray
    view_box: tuple[float, float, float, float]
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Prepared:
    inputs: dict[str, Any]
    text: str
    offsets: list[tuple[int, int]] | None
    image_positions: list[int]
    encoding: ImageEncoding | None


class HFVisionLanguageModel(AttentionVLM):
    """Base class of transformers adapters; subclasses implement :meth:`encode_image`.

    Build from a checkpoint (``Adapter(name, options)``, lazy: weights load on first use) or from
    components already in memory (:meth:`from_components`, used for tests and notebooks).
    """

    family = "hf"
    options_class: type[HFOptions] = HFOptions
    #: Used only when neither the processor nor the tokenizer of a checkpoint has a chat template.
    default_chat_template: str = ""
    #: The text the chat template writes for an image.
    image_placeholder_fallback: str = "<image>"

    def __init__(self, name: str, options: HFOptions) -> None:
        self.name = name
        self.options = options
        self.base_model = options.base_model
        self._model: Any = None
        self._tokenizer: Any = None
        self._image_processor: Any = None
        self._chat_template: str | None = None
        self._template_source = ""

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def from_components(
        cls,
        name: str,
        model: Any,
        tokenizer: Any,
        image_processor: Any,
        *,
        chat_template: str | None = None,
        options: HFOptions | None = None,
    ) -> HFVisionLanguageModel:
        """Wrap a model, tokenizer and image processor that are already loaded."""
        adapter = cls(name, options or cls.options_class())
        adapter._model = model.eval()
        adapter._tokenizer = tokenizer
        adapter._image_processor = image_processor
        adapter._set_chat_template(chat_template, "given")
        return adapter

    def _set_chat_template(self, candidate: str | None, source: str) -> None:
        override = self.options.chat_template
        if override:
            path = Path(override).expanduser()
            self._chat_template = path.read_text(encoding="utf-8") if path.is_file() else override
            self._template_source = str(path) if path.is_file() else "option"
        elif candidate:
            self._chat_template, self._template_source = candidate, source
        elif getattr(self._tokenizer, "chat_template", None):
            self._chat_template, self._template_source = self._tokenizer.chat_template, "tokenizer"
        elif self.default_chat_template:
            self._chat_template, self._template_source = (
                self.default_chat_template,
                f"pathreport default for {self.family}",
            )
        else:
            raise ValueError(
                f"{self.name}: the checkpoint has no chat template; pass one with --option "
                "chat_template=<file.jinja>."
            )

    def _load(self) -> None:
        if self._model is not None:
            return
        transformers = require_transformers()
        checkpoint = self.options.checkpoint
        if not checkpoint:
            raise ValueError(
                f"Model '{self.name}' has no default checkpoint; pass --checkpoint <hub id "
                "or local folder>."
            )
        looks_local = (
            checkpoint.startswith((".", "/", "~")) or Path(checkpoint).expanduser().exists()
        )
        if looks_local and not Path(checkpoint).expanduser().is_dir():
            raise FileNotFoundError(
                f"Checkpoint folder {checkpoint} does not exist; download the weights first, "
                f"e.g. `hf download <hub id> --local-dir {checkpoint}`, or pass a hub id with "
                "--checkpoint."
            )
        common = {
            "revision": self.options.revision,
            "local_files_only": self.options.local_files_only,
            "trust_remote_code": self.options.trust_remote_code,
        }
        # transformers 5 renamed ``torch_dtype`` to ``dtype``
        dtype_key = "dtype" if int(transformers.__version__.split(".")[0]) >= 5 else "torch_dtype"
        try:
            self._model = transformers.AutoModelForImageTextToText.from_pretrained(
                checkpoint,
                **{dtype_key: self._dtype()},
                attn_implementation=self.options.attn_implementation,
                **common,
            ).eval()
            self._tokenizer = transformers.AutoTokenizer.from_pretrained(checkpoint, **common)
            self._image_processor = transformers.AutoImageProcessor.from_pretrained(
                checkpoint, **common
            )
        except (OSError, ValueError) as err:
            self._model = None
            raise FileNotFoundError(self._download_hint(checkpoint, err)) from err
        self._model.to(self._configured_device())
        processor_template = None
        try:
            processor_template = getattr(
                transformers.AutoProcessor.from_pretrained(checkpoint, **common),
                "chat_template",
                None,
            )
        except Exception as err:  # the processor class may need optional packages (torchvision)
            log.info(
                "No processor chat template for %s (%s); using the tokenizer's.", checkpoint, err
            )
        self._set_chat_template(
            processor_template, "processor" if processor_template else "tokenizer"
        )
        self.check_loaded()

    def _download_hint(self, checkpoint: str, err: Exception) -> str:
        return (
            f"Could not load model '{self.name}' "
            f"from {checkpoint!r}: {str(err).splitlines()[0]}\nDownload the weights with `hf "
            f"download {checkpoint}` (a gated model needs `hf auth login` and accepted terms), "
            "or pass --checkpoint <local folder in the transformers format>."
            + self.conversion_hint()
        )

    def conversion_hint(self) -> str:
        """Extra advice for checkpoints that are not in the transformers format."""
        return ""

    def check_loaded(self) -> None:
        """Family-specific sanity checks after loading (override when useful)."""

    def _device(self) -> torch.device:
        """Where inputs go: the loaded model's device, else the configured one."""
        if self._model is not None:
            return next(self._model.parameters()).device
        return self._configured_device()

    def _configured_device(self) -> torch.device:
        if self.options.device == "auto":
            return torch.device("cuda" if torch.cuda.is_available() else "cpu")
        return torch.device(self.options.device)

    def _dtype(self) -> torch.dtype:
        names = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
        if self.options.dtype == "auto":
            return torch.bfloat16 if self._configured_device().type == "cuda" else torch.float32
        try:
            return names[self.options.dtype]
        except KeyError:
            raise ValueError(
                f"dtype {self.options.dtype!r} is not one of auto, {', '.join(names)}."
            ) from None

    @property
    def model(self) -> Any:
        self._load()
        return self._model

    @property
    def tokenizer(self) -> Any:
        self._load()
        return self._tokenizer

    @property
    def image_processor(self) -> Any:
        self._load()
        return self._image_processor

    # -- family hooks ----------------------------------------------------------------------------
    def image_token(self) -> str:
        """The token the model's config reserves for image features."""
        config = self.model.config
        token_id = getattr(config, "image_token_id", None)
        if token_id is None:
            token_id = getattr(config, "image_token_index", None)
        if token_id is None:
            return self.image_placeholder_fallback
        return self.tokenizer.convert_ids_to_tokens(int(token_id))

    def image_token_id(self) -> int:
        return int(self.tokenizer.convert_tokens_to_ids(self.image_token()))

    @abstractmethod
    def encode_image(self, image: Any) -> ImageEncoding:
        """Pixel inputs, placeholder expansion and grid layout of one image."""

    def extra_inputs(self, input_ids: torch.Tensor) -> dict[str, Any]:
        """Additional forward inputs computed from the token ids (e.g. Qwen's modality types)."""
        return {}

    def preprocessing(self) -> dict[str, Any]:
        """Image preprocessing settings to record in the results."""
        return {}

    # -- prompting -------------------------------------------------------------------------------
    def chat_text(self, system: str | None, user: str, with_image: bool) -> str:
        """The chat-templated text with the image (if any) placed before the user text."""
        self._load()
        messages: list[dict[str, Any]] = []
        if system:
            messages.append({"role": "system", "content": [{"type": "text", "text": system}]})
        content = ([{"type": "image"}] if with_image else []) + [{"type": "text", "text": user}]
        messages.append({"role": "user", "content": content})
        return self.tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True, chat_template=self._chat_template
        )

    def _prepare(
        self, system: str | None, user: str, image: Any | None, *, offsets: bool = False
    ) -> _Prepared:
        text = self.chat_text(system, user, image is not None)
        token = self.image_token()
        count = text.count(token)
        encoding = None
        if image is not None:
            if count != 1:
                raise ValueError(
                    f"{self.name}: the chat template wrote the image token {token!r} {count} "
                    "times for one image; pass a matching template with --option "
                    "chat_template=<file.jinja>."
                )
            encoding = self.encode_image(image)
            text = text.replace(token, encoding.expansion, 1)
        elif count:
            raise ValueError(
                f"{self.name}: the text-only prompt contains the image token {token!r}; "
                "check the chat template."
            )
        bos = getattr(self.tokenizer, "bos_token", None)
        add_special = not (bos and text.startswith(bos))
        encoded = self.tokenizer(
            text,
            add_special_tokens=add_special,
            return_offsets_mapping=offsets,
            return_tensors="pt",
        )
        input_ids = encoded["input_ids"]
        image_positions = torch.nonzero(input_ids[0] == self.image_token_id()).flatten().tolist()
        expected = encoding.num_tokens if encoding is not None else 0
        if len(image_positions) != expected:
            raise RuntimeError(
                f"{self.name}: {len(image_positions)} image tokens in the tokenized prompt but "
                f"the image needs {expected}; the tokenizer does not keep {token!r} as one "
                "special token."
            )
        device = self._device()
        dtype = next(self.model.parameters()).dtype
        inputs: dict[str, Any] = {
            "input_ids": input_ids.to(device),
            "attention_mask": encoded["attention_mask"].to(device),
        }
        if encoding is not None:
            for key, value in encoding.model_inputs.items():
                if torch.is_tensor(value):
                    value = (
                        value.to(device=device, dtype=dtype)
                        if value.is_floating_point()
                        else value.to(device)
                    )
                inputs[key] = value
            inputs.update(self._accepted(self.extra_inputs(input_ids)))
        offset_list = [tuple(o) for o in encoded["offset_mapping"][0].tolist()] if offsets else None
        return _Prepared(inputs, text, offset_list, image_positions, encoding)

    def _accepted(self, extra: dict[str, Any]) -> dict[str, Any]:
        """Keep the extra inputs this transformers version's forward accepts."""
        parameters = inspect.signature(self.model.forward).parameters
        device = self._device()
        return {k: v.to(device) for k, v in extra.items() if k in parameters}

    # -- generation ------------------------------------------------------------------------------
    def generate(
        self, system: str, user: str, image: Any | None, decoding: VLMDecodingConfig
    ) -> str:
        transformers = require_transformers()
        prepared = self._prepare(system, user, image)
        tokenizer = self.tokenizer
        eos = getattr(self.model.generation_config, "eos_token_id", None) or tokenizer.eos_token_id
        pad = (
            tokenizer.pad_token_id
            if tokenizer.pad_token_id is not None
            else (eos[0] if isinstance(eos, list) else eos)
        )
        config = transformers.GenerationConfig(
            do_sample=decoding.do_sample,
            max_new_tokens=decoding.max_new_tokens,
            eos_token_id=eos,
            pad_token_id=pad,
            **(
                {"temperature": decoding.temperature, "top_p": decoding.top_p}
                if decoding.do_sample
                else {}
            ),
        )
        torch.manual_seed(decoding.seed)
        with torch.inference_mode():
            output = self.model.generate(**prepared.inputs, generation_config=config)
        new_tokens = output[0, prepared.inputs["input_ids"].shape[1] :]
        return tokenizer.decode(new_tokens, skip_special_tokens=True).strip()

    # -- attention -------------------------------------------------------------------------------
    def decoder_layers(self) -> list[Any]:
        """The language decoder's layers (each with a ``self_attn`` module)."""
        model = self.model
        for path in (
            "model.language_model.layers",
            "language_model.model.layers",
            "model.layers",
            "language_model.layers",
        ):
            node = model
            try:
                for attribute in path.split("."):
                    node = getattr(node, attribute)
            except AttributeError:
                continue
            layers = list(node)
            if layers and all(hasattr(layer, "self_attn") for layer in layers):
                return layers
        raise RuntimeError(
            f"{self.name}: cannot find the language decoder layers of {type(model).__name__}."
        )

    def entity_positions(
        self, prepared: _Prepared, prompt: str, entity_span: tuple[int, int]
    ) -> list[int]:
        """Token positions whose characters overlap the entity in the (last) prompt occurrence."""
        where = prepared.text.rfind(prompt)
        if where < 0 or prepared.offsets is None:
            raise RuntimeError(
                f"{self.name}: the prompt is not in the templated text; cannot locate the entity."
            )
        start, end = where + entity_span[0], where + entity_span[1]
        text = prepared.text
        positions = [
            i
            for i, (s, e) in enumerate(prepared.offsets)
            if e > s and s < end and e > start and text[max(s, start) : min(e, end)].strip()
        ]
        if not positions:
            raise RuntimeError(
                f"{self.name}: no token covers the "
                f"entity {prompt[entity_span[0] : entity_span[1]]!r}."
            )
        return positions

    def entity_attention(
        self, image: Any, prompt: str, entity_span: tuple[int, int], system: str | None = None
    ) -> EntityAttention:
        if not getattr(self.tokenizer, "is_fast", False):
            raise RuntimeError(
                f"{self.name}: locating entity tokens needs a fast tokenizer (character offsets)."
            )
        prepared = self._prepare(system, prompt, image, offsets=True)
        assert prepared.encoding is not None
        rows = torch.tensor(self.entity_positions(prepared, prompt, entity_span))
        columns = torch.tensor(prepared.image_positions)
        layers = self.decoder_layers()
        captured: list[torch.Tensor | None] = [None] * len(layers)
        heads = [0]

        def hook_for(index: int) -> Any:
            def hook(module: Any, args: Any, output: Any) -> None:
                weights = output[1] if isinstance(output, tuple) and len(output) > 1 else None
                if weights is None:
                    raise RuntimeError(
                        f"{self.name}: the attention layers returned no weights; load the model "
                        "with --option attn_implementation=eager."
                    )
                selected = weights[0][:, rows.to(weights.device)][:, :, columns.to(weights.device)]
                heads[0] = int(selected.shape[0])
                captured[index] = selected.float().mean(dim=0).cpu()

            return hook

        handles = [
            layer.self_attn.register_forward_hook(hook_for(i)) for i, layer in enumerate(layers)
        ]
        try:
            with torch.inference_mode():
                self.model(**prepared.inputs, use_cache=False)
        finally:
            for handle in handles:
                handle.remove()
        if any(c is None for c in captured):
            raise RuntimeError(
                f"{self.name}: some decoder layers produced no attention during the forward pass."
            )
        tokens = self.tokenizer.convert_ids_to_tokens(
            prepared.inputs["input_ids"][0, rows].tolist()
        )
        return EntityAttention(
            layer_token_maps=torch.stack(captured).numpy(),  # type: ignore[arg-type]
            token_grid=prepared.encoding.token_grid,
            view_box=prepared.encoding.view_box,
            image_size=tuple(image.size),
            entity_tokens=[str(t) for t in tokens],
            num_heads=heads[0],
        )

    # -- record ----------------------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        self._load()
        transformers = require_transformers()
        config = self.model.config
        return {
            **super().describe(),
            "checkpoint": self.options.checkpoint,
            "revision": self.options.revision,
            "commit": getattr(config, "_commit_hash", None),
            "model_class": type(self.model).__name__,
            "dtype": str(next(self.model.parameters()).dtype).replace("torch.", ""),
            "device": str(self._device()),
            "attn_implementation": self.options.attn_implementation,
            "decoder_layers": len(self.decoder_layers()),
            "chat_template_source": self._template_source,
            "chat_template_sha256": hashlib.sha256(
                (self._chat_template or "").encode()
            ).hexdigest()[:16],
            "image_placement": "image before the text in the user turn",
            "preprocessing": self.preprocessing(),
            "transformers": transformers.__version__,
        }


@dataclass(frozen=True)
class PublishedCheckpoint:
    """A named model of a family: a hub checkpoint the paper evaluates, run by the family adapter.

    Attributes:
        name: the registry name (``--model``).
        hub_id: the checkpoint preset for ``--checkpoint``.
        family: the architecture it belongs to (recorded with the results).
        base_model: the general model it was fine-tuned from, when it is a pathology fine-tune.
        weights_format: set when the published weights need converting before transformers loads
            them.
    """

    name: str
    hub_id: str
    family: str
    base_model: str | None = None
    weights_format: str | None = None


def register_family(
    adapter: type,
    config: type,
    *,
    name: str,
    family: str,
    description: str,
    paper: str,
    checkpoints: tuple[PublishedCheckpoint, ...],
) -> None:
    """Register a family adapter under its own name (any checkpoint) and under each published one.

    One place writes the registrations so that every named checkpoint carries the same facts
    (attention support, the paper it is evaluated in) and differs only in what it is.
    """
    GENERATIVE_VLMS.register(
        name, config=config, family=family, attention=True, description=description
    )(adapter)
    for checkpoint in checkpoints:
        presets = {"checkpoint": checkpoint.hub_id}
        if checkpoint.base_model is not None:
            presets["base_model"] = checkpoint.base_model
        extra = (
            {}
            if checkpoint.weights_format is None
            else {"weights_format": checkpoint.weights_format}
        )
        GENERATIVE_VLMS.register(
            checkpoint.name,
            config=config,
            presets=presets,
            family=checkpoint.family,
            attention=True,
            paper=paper,
            **extra,
        )(adapter)
