"""What a report generator is: a plain ``nn.Module`` with two hooks for the shared decoder.

A generator file in ``models/`` defines a config dataclass and a :class:`ReportGenerator` subclass,
and registers them::

    @dataclass
    class MyConfig(GeneratorConfig):
        d_model: int = 512

    @register_generator("mygen", config=MyConfig, paper="...", upstream="...", licence="...")
    class MyGen(ReportGenerator):
        def __init__(self, cfg: MyConfig, ctx: GeneratorContext): ...
        def encode(self, batch): ...                  # once per slide
        def decode(self, state, tokens, cache): ...   # teacher forcing, or one step with a cache

What is the generator's own stays with it, through class-level hooks the core calls without
knowing any model: ``input_streams`` (extra per-slide inputs), ``dataset_resources`` (files built
from the dataset, such as BiGen's knowledge bank) and ``build_tokenizer`` (a tokenizer of its
own). A generator that needs more than one file keeps its helpers in a package beside it
(``models/_<name>/``, imported relatively), and may add ``pathreport`` sub-commands through
the ``COMMANDS`` registry.

Lightning, the tokenizer, the optimiser, decoding settings and metrics are NOT the generator's
business: they are shared by every model, which is what makes comparisons fair.
"""

from __future__ import annotations

import dataclasses
from abc import ABCMeta, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from pathreport.data.batch import SlideBatch
from pathreport.data.dataset import DEFAULT_MAX_REPORT_TOKENS
from pathreport.data.resources import DatasetInfo
from pathreport.data.streams import StreamSpec
from pathreport.generation.nn import DecoderCache, TextDecoder
from pathreport.registry import GENERATORS, Entry


@dataclass
class GeneratorConfig:
    """Base of every generator config. ``name`` is filled in by the registry."""

    name: str = "???"


@dataclass
class TransformerGeneratorConfig(GeneratorConfig):
    """Settings shared by the R2Gen family (MI-Gen, HistGen, BiGen); defaults are the benchmark
    reference runs.

    Attributes:
        d_model: transformer width.
        d_ff: feed-forward width.
        d_vf: width of the patch projection (``wsi_mapping``) before ``att_embed``.
        num_heads: attention heads.
        num_layers: encoder and decoder layers.
        dropout: dropout inside the transformer.
        drop_prob_lm: dropout after ``att_embed`` (Linear(d_vf, d_model) + ReLU + Dropout).
    """

    d_model: int = 512
    d_ff: int = 512
    d_vf: int = 1024
    num_heads: int = 4
    num_layers: int = 3
    dropout: float = 0.1
    drop_prob_lm: float = 0.5


#: Parameters of modules that the reference implementation's R2Gen-family base (MI-Gen, BiGen)
#: builds but that never influence a report, so pathreport does not build them: their counts at
#: vocabulary 347 + 1 output row and the reference sizes (a model's ``REFERENCE_PARAMS`` adds these
#: to its own differences).
R2GEN_UNUSED_REFERENCE_MODULES: dict[str, int] = {
    "fc: classification head, only used by mode='encode'": -264_706,
    "encoder_decoder.out1: Linear(d_vf, 1024) + Tanh, never called": -1_049_600,
    "encoder_decoder.out2: Linear(d_ff, d_ff) + Tanh, never called": -262_656,
    "encoder_decoder.ln: LayerNorm(d_vf), never called": -2_048,
    "encoder_decoder.embeded: Embedding(V + 1, d_vf), never called": -356_352,
    "encoder_decoder.logit_mesh: Linear(d_model, d_model), never called": -262_656,
    "encoder_decoder.model.encoder.norm: LayerNorm(d_model), built but never applied": -1_024,
}


@dataclass
class GeneratorContext:
    """Everything a generator needs to know about the data, decided by the core, not the plug-in.

    Attributes:
        vocab_size: number of token ids (special tokens included).
        pad_id, bos_id, eos_id, unk_id: special token ids of the run's tokenizer (the shared
            word-level one, or the generator's own); ``unk_id`` is None when it has none.
        feature_dim: D of the main stream, from the encoder spec.
        stream_dims: D of each extra stream the generator declared.
        max_report_tokens: longest report (in tokens, without <bos>/<eos>) the decoder will produce.
        resources: what the generator's ``dataset_resources`` hook returned (name -> file), e.g.
            BiGen's ``knowledge_bank``.
        tokenizer: the run's tokenizer object, for a generator that must encode text of its own (a
            prompt); given at run time, never saved (checkpoints store the tokenizer apart).
    """

    vocab_size: int
    feature_dim: int
    pad_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    unk_id: int | None = 3
    stream_dims: dict[str, int] = field(default_factory=dict)
    max_report_tokens: int = DEFAULT_MAX_REPORT_TOKENS
    resources: dict[str, str] = field(default_factory=dict)
    tokenizer: Any = field(default=None, repr=False, compare=False)

    @property
    def max_positions(self) -> int:
        """Rows of a generator's position table: ``<bos>`` + the longest report + ``<eos>``, and at
        least 1024 (the reference models' table, so parameter counts and weights match theirs)."""
        return max(1024, self.max_report_tokens + 2)


class ReportGenerator(nn.Module, metaclass=ABCMeta):
    """Base class of trainable generators.

    Row conventions (see :mod:`pathreport.generation.nn`): ``encode`` returns per-slide state with B
    rows;
    ``decode`` gets R = B x K token rows (K hypotheses per slide, slide-major) and must treat state
    tensors as shared by the K rows of a slide (``pathreport.generation.nn.fold_rows`` does that for
    attention).
    """

    config_class: ClassVar[type[GeneratorConfig]] = GeneratorConfig
    #: extra inputs by name (read by the data layer and passed in ``SlideBatch.streams``).
    streams: ClassVar[dict[str, StreamSpec]] = {}
    #: False for retrieval baselines that are fitted, not trained by gradient descent.
    trainable: ClassVar[bool] = True

    def __init__(self, cfg: GeneratorConfig, ctx: GeneratorContext) -> None:
        super().__init__()
        self.cfg = cfg
        self.ctx = ctx

    @classmethod
    def input_streams(cls, cfg: GeneratorConfig) -> dict[str, StreamSpec]:
        """The extra inputs this configuration reads: ``streams`` unless a generator makes some of
        them optional or sets their ``dim`` from its config (the data layer reads only these)."""
        return dict(cls.streams)

    @classmethod
    def dataset_resources(cls, cfg: GeneratorConfig, dataset: DatasetInfo) -> dict[str, str]:
        """Files this configuration needs from the dataset (name -> path), located or built here.

        Called by the data module once the splits are read; the result reaches the generator as
        ``ctx.resources`` (and is saved with a checkpoint's context). The default needs none.
        Raise a clear error (``FileNotFoundError`` naming the file and the command that builds
        it) when a resource a user must provide is missing.
        """
        return {}

    @classmethod
    def build_tokenizer(cls, cfg: GeneratorConfig, train_reports: list[str], style: str) -> Any:
        """The generator's own tokenizer, built from the TRAINING reports (cleaned with ``style``),
        or None (the default) for the shared word-level tokenizer.

        Only a generator that cannot read the shared vocabulary (one built on a pretrained language
        model) overrides this; the result must satisfy :class:`pathreport.data.text.TextTokenizer`
        and have a ``to_dict`` that :func:`pathreport.data.tokenizer_state.tokenizer_from_state`
        restores.
        """
        return None

    @abstractmethod
    def encode(self, batch: SlideBatch) -> dict[str, Tensor]:
        """Per-slide state (memory tokens, masks, ...), computed once per slide."""

    @abstractmethod
    def decode(
        self, state: dict[str, Tensor], tokens: Tensor, cache: DecoderCache | None = None
    ) -> Tensor:
        """Next-token logits.

        Args:
            state: output of :meth:`encode` (B rows).
            tokens: (R, T) token ids. Without a cache: the whole teacher-forced prefix. With a
                cache: only the new tokens (usually one per row); the cache holds the rest.
            cache: incremental-decoding state, updated in place.

        Returns:
            (R, T, V) logits.
        """

    def loss(self, batch: SlideBatch) -> tuple[Tensor, dict[str, Tensor]]:
        """Teacher-forced token cross-entropy, averaged over real (non-pad) target tokens.

        Generators with auxiliary losses override this and add their terms; the returned dict holds
        every term for logging.
        """
        if batch.tokens is None:
            raise ValueError("The batch has no report tokens; training needs references.")
        logits = self.decode(self.encode(batch), batch.tokens[:, :-1])
        nll = token_cross_entropy(logits, batch.tokens[:, 1:], self.ctx.pad_id)
        return nll, {"nll": nll.detach()}


class R2GenGenerator(ReportGenerator):
    """The trunk shared by the R2Gen family (MI-Gen, HistGen, BiGen); a subclass adds its encoder.

    All three map patch features to ``d_vf`` (``wsi_mapping``), may put a learned prompt token in
    front, embed to ``d_model`` (``att_embed``: Linear, ReLU, Dropout(``drop_prob_lm``)) and decode
    with :class:`pathreport.generation.nn.TextDecoder` over the memory their encoder builds
    (``memory`` and, when the memory has padding, ``memory_mask`` in the state).

    A subclass calls :meth:`build_patch_embedding` and :meth:`build_decoder` at the point of its
    constructor where it wants those modules: the order of construction decides which random
    numbers each initialisation draws, so a seed keeps giving the same model. The attribute names
    are the state-dict keys of saved checkpoints and must not change.
    """

    cfg: TransformerGeneratorConfig

    def build_patch_embedding(self, in_dim: int, *, prompt: bool) -> None:
        """``wsi_mapping`` Linear(in_dim, d_vf), the ``prompt`` token (or none), ``att_embed``."""
        cfg = self.cfg
        self.wsi_mapping = nn.Linear(in_dim, cfg.d_vf)
        if prompt:
            self.prompt = nn.Parameter(torch.randn(1, 1, cfg.d_vf))
        else:
            self.register_parameter("prompt", None)
        self.att_embed = nn.Sequential(
            nn.Linear(cfg.d_vf, cfg.d_model), nn.ReLU(), nn.Dropout(cfg.drop_prob_lm)
        )

    def build_decoder(self) -> None:
        """The report decoder: ``num_layers`` layers of width ``d_model`` over the slide memory."""
        cfg, ctx = self.cfg, self.ctx
        self.decoder = TextDecoder(
            ctx.vocab_size,
            cfg.d_model,
            cfg.num_heads,
            cfg.d_ff,
            cfg.num_layers,
            cfg.dropout,
            max_len=ctx.max_positions,
        )

    def embed_patches(self, features: Tensor, mask: Tensor) -> tuple[Tensor, Tensor]:
        """Tokens (B, N, d_model) of the (B, N, in_dim) ``features`` and their mask, with the
        prompt token (always real) in front when there is one."""
        x = self.wsi_mapping(features)
        if self.prompt is not None:
            b = x.shape[0]
            x = torch.cat([self.prompt.expand(b, -1, -1).to(x.dtype), x], dim=1)
            mask = torch.cat([mask.new_ones(b, 1), mask], dim=1)
        return self.att_embed(x), mask

    def decode(
        self, state: dict[str, Tensor], tokens: Tensor, cache: DecoderCache | None = None
    ) -> Tensor:
        return self.decoder(tokens, state["memory"], state.get("memory_mask"), cache)


class RetrievalBaseline(nn.Module, metaclass=ABCMeta):
    """Base class of baselines that are fitted on the training split and predict text directly.

    They live in the generator registry and are evaluated exactly like trained generators, because a
    benchmark must show how far a trivial strategy gets (in REG 2025, 94.7% of test reports occur
    verbatim in training).
    """

    config_class: ClassVar[type[GeneratorConfig]] = GeneratorConfig
    streams: ClassVar[dict[str, StreamSpec]] = {}
    trainable: ClassVar[bool] = False

    def __init__(self, cfg: GeneratorConfig, ctx: GeneratorContext) -> None:
        super().__init__()
        self.cfg = cfg
        self.ctx = ctx

    @abstractmethod
    def fit(self, batches: Iterable[SlideBatch]) -> None:
        """Learn from the training split (one pass, in a fixed order)."""

    @abstractmethod
    def predict(self, batch: SlideBatch) -> list[str]:
        """One report per slide."""


def token_cross_entropy(logits: Tensor, targets: Tensor, pad_id: int) -> Tensor:
    """Mean cross-entropy over non-pad targets of a padded batch (each real token weighs the same).

    Half-precision logits are upcast to float32; float64 stays float64 (exact parity tests).
    """
    if logits.dtype in (torch.float16, torch.bfloat16):
        logits = logits.float()
    return F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]),
        targets.reshape(-1),
        ignore_index=pad_id,
        reduction="mean",
    )


def masked_mean(x: Tensor, mask: Tensor) -> Tensor:
    """Mean over the patch axis of (B, N, D) using a (B, N) bool mask."""
    weights = mask.to(x.dtype).unsqueeze(-1)
    return (x * weights).sum(1) / weights.sum(1).clamp_min(1.0)


def _check_generator(entry: Entry) -> Entry:
    """The rules of a generator entry, checked where it registers (installed on :data:`GENERATORS`).

    The class must subclass :class:`ReportGenerator` or :class:`RetrievalBaseline`, its config must
    be a :class:`GeneratorConfig` dataclass, and every ``dataset_presets`` field must be a config
    field. The class learns its config (``config_class``) and the entry its ``kind``.
    """
    name, cls, config = entry.name, entry.obj, entry.config
    if not (isinstance(config, type) and issubclass(config, GeneratorConfig)):
        raise TypeError(
            f"Generator '{name}': config must be a GeneratorConfig dataclass, got {config!r}."
        )
    fields = set(config.__dataclass_fields__)
    presets = entry.metadata.get("dataset_presets") or {}
    for dataset, values in presets.items():
        unknown = sorted(set(values) - fields)
        if unknown:
            raise TypeError(
                f"Generator '{name}': dataset preset '{dataset}' sets {unknown}, which are not "
                f"fields of {config.__name__} ({sorted(fields)})."
            )
    if not (isinstance(cls, type) and issubclass(cls, (ReportGenerator, RetrievalBaseline))):
        raise TypeError(f"Generator '{name}' must subclass ReportGenerator or RetrievalBaseline.")
    cls.config_class = config
    metadata = dict(entry.metadata)
    metadata.setdefault("kind", "generator" if cls.trainable else "baseline")
    if presets:
        metadata["dataset_presets"] = {d: dict(v) for d, v in presets.items()}
    return dataclasses.replace(entry, metadata=metadata)


GENERATORS.set_hooks(prepare=_check_generator)

#: ``@register_generator("mygen", config=MyConfig, smoke={...}, dataset_presets={...}, paper=...)``
#: is ``@GENERATORS.register(...)``: the name is kept because every generator file uses it.
#: ``config`` is the generator's :class:`GeneratorConfig` dataclass (Hydra then knows it as
#: ``model=<name>``); ``smoke`` gives a tiny configuration for fast tests; ``dataset_presets``
#: (``{dataset: {field: value}}``) holds sizes that fit a dataset better than the config's defaults
#: (the paper's sizes): ``python train.py data=<dataset> model=<name>`` starts from them (Hydra
#: option ``model_preset=<dataset>-<name>``, below any ``model.<field>=...`` on the command line);
#: ``moved_keys`` (``{old key: new key}``) names the settings that moved into this config, so the
#: old command-line key fails with a message that names the new one; other metadata: paper,
#: upstream, licence, kind (``generator`` or ``baseline``).
register_generator = GENERATORS.register


def typed_generator_config(cfg: Any) -> GeneratorConfig:
    """The ``model`` config node as the registered generator's config dataclass."""
    from omegaconf import OmegaConf

    entry = GENERATORS.get(cfg["name"] if isinstance(cfg, dict) else cfg.name)
    config_cls = entry.config or GeneratorConfig
    if not isinstance(cfg, config_cls):
        base = OmegaConf.structured(config_cls)
        merged = OmegaConf.merge(
            base,
            OmegaConf.create(OmegaConf.to_container(cfg) if not isinstance(cfg, dict) else cfg),
        )
        cfg = OmegaConf.to_object(merged)
    return cfg


def build_generator(cfg: Any, ctx: GeneratorContext) -> nn.Module:
    """Instantiate the registered generator named ``cfg.name`` with its typed config."""
    cfg = typed_generator_config(cfg)
    return GENERATORS.get(cfg.name).obj(cfg, ctx)


__all__ = [
    "DatasetInfo",
    "DecoderCache",
    "GeneratorConfig",
    "GeneratorContext",
    "R2GenGenerator",
    "ReportGenerator",
    "RetrievalBaseline",
    "StreamSpec",
    "TransformerGeneratorConfig",
    "build_generator",
    "masked_mean",
    "register_generator",
    "token_cross_entropy",
    "typed_generator_config",
]
