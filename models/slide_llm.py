"""slide_llm: slide tokens before a causal language model (WSI-LLaVA / SlideChat / PRISM family).

Papers:

* WSI-LLaVA: Y. Liang, X. Lyu et al., "WSI-LLaVA: A Multimodal Large Language Model for Whole
  Slide Image", ICCV 2025 (arXiv:2412.02141); code https://github.com/XinhengLyu/WSI-LLaVA
  (Apache-2.0). Slide features -> two-layer MLP projector -> Vicuna; training stages with a frozen
  LM and a trained projector, then LoRA (r 128, alpha 256).
* SlideChat: Y. Chen et al., "SlideChat: A Large Vision-Language Assistant for Whole-Slide
  Pathology Image Understanding", CVPR 2025 (arXiv:2410.11761); code
  https://github.com/uni-medical/SlideChat. Patch features -> slide encoder -> projector -> Qwen2.5.
* PRISM: G. Shaikovski et al., "PRISM: A Multi-Modal Generative Foundation Model for Slide-Level
  Histopathology", arXiv:2405.10254. A Perceiver resampler turns all tiles of a slide into a fixed
  number of latent tokens that a language decoder reads.

No code of these projects is used; this file is written for this benchmark.

Architecture:

* Slide side (``pooling``) turns the patch bag into ``num_slide_tokens`` language-model tokens:
  ``mean`` averages consecutive groups of patches (adaptive average pooling over the bag, as the
  WSI-LLaVA code pools its slide encoder's output to a fixed token count), ``attention``
  is gated attention pooling with one attention map per token, ``resampler`` is a Perceiver-style
  resampler (learned queries cross-attend to every patch, ``resampler_layers`` times). A
  10,000-patch slide costs the language model the same as a 100-patch one.
* Projector: Linear -> GELU -> Linear to the LM width (LLaVA-1.5's ``mlp2x_gelu``).
* Extra streams (``prefix_streams``): ``titan`` (TITAN slide embedding, one token) and ``conch``
  (CONCH v1 patch features, mean-pooled to ``num_slide_tokens`` tokens), each with its own
  projector.
* Sequence: ``[prompt before <slide>] [slide tokens] [extra stream tokens] [prompt after <slide>]
  <bos> report <eos>``; the loss is the shared token cross-entropy over the report only.
* Language model: by default a small Llama built from the ``lm_*`` settings (random
  initialisation, nothing downloaded); ``lm=<hub name or local folder>`` loads any transformers
  causal LM and its tokenizer.
* Training modes: full fine-tuning (default), frozen LM with only the slide side trained
  (``lm_frozen=true``: WSI-LLaVA's projector stage), LoRA through peft (``adapter=lora
  lm_frozen=true``). ``gradient_checkpointing`` trades compute for memory; ``lm_dtype=bfloat16``
  stores the LM in bf16 (with ``trainer=gpu``, whose bf16 autocast runs the compute).
* Text: the LM's own tokenizer (``pathreport.data.subword``): by default a byte-level BPE trained on
  the training reports, saved in the checkpoint; with ``lm=...``, the model's tokenizer.
* Decoding: the benchmark's shared beam search. The prefix runs through the LM once per slide; its
  keys and values then sit in the LM's own cache (:class:`BeamPrefixCache`), which beam selection
  reorders in place, on a CPU moving only the generated positions (a slide's hypotheses share the
  prefix; on an accelerator every position moves, so that no step waits for the device).

Deviations from the papers (by design of the benchmark):

* One task (report generation) with one instruction, not multi-task visual instruction tuning; no
  contrastive WSI-text stage (WSI-LLaVA stage 1); no LongNet slide encoder: the TRIDENT patch
  features are pooled or resampled directly.
* The default LM is small and random, so that the benchmark runs offline on a CPU; the papers use
  7B pretrained LMs (Vicuna-7B, Qwen2.5-7B).
* Decoding settings are the benchmark's (beam search, no sampling), shared by every generator.
* The LoRA targets (``all-linear``) and dropout are not stated by WSI-LLaVA; these are choices.
* With ``lm=...``, a tokenizer without a padding token, or whose start token is missing or equals
  its end token, gets a new special token (and the LM's embeddings a new row).
* Checkpoints of a pretrained LM trained frozen or with LoRA hold the trainable weights (and any
  embeddings grown for added tokens) only; the LM's own weights are read again from ``lm`` when a
  checkpoint is restored.
* A sliding-window LM (Gemma 2/3, Mistral) is attended without its window during decoding:
  prompts and reports here are far shorter than those windows.
"""

from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import Tensor, nn

from pathreport import (
    ConfigError,
    DecoderCache,
    FeedForward,
    GeneratorConfig,
    GeneratorContext,
    MultiHeadAttention,
    ReportGenerator,
    SlideBatch,
    StreamSpec,
    register_generator,
)

SLIDE_PLACEHOLDER = "<slide>"

#: WSI-Bench's report-generation question (WSI-LLaVA paper, App. Table 7), in the "USER: ...
#: ASSISTANT:" turn format of LLaVA-1.5 / Vicuna v1, on which the WSI-LLaVA code is built.
DEFAULT_PROMPT = (
    "USER: <slide>\nWhat are the main observations in the whole slide histopathology image, "
    "and what is the likely diagnosis? ASSISTANT:"
)

#: Extra inputs that can be added as prefix tokens (``prefix_streams``).
PREFIX_STREAMS: dict[str, StreamSpec] = {
    "titan": StreamSpec(
        kind="slide", encoder="titan", description="TITAN slide embedding (one prefix token)"
    ),
    "conch": StreamSpec(
        kind="patch",
        encoder="conch1",
        description="CONCH v1 text-aligned patch features (mean-pooled prefix tokens)",
    ),
}
POOLINGS = ("mean", "attention", "resampler")
ADAPTERS = ("none", "lora")
LM_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


@dataclass
class SlideLLMConfig(GeneratorConfig):
    """slide_llm settings.

    Attributes:
        lm: hub name or local folder of a transformers causal LM (and its tokenizer); empty builds
            a Llama from the ``lm_*`` settings below, with a tokenizer trained on the training
            reports.
        lm_hidden, lm_layers, lm_heads, lm_kv_heads, lm_intermediate: size of the built Llama.
        lm_dtype: ``float32`` or ``bfloat16`` (the LM's weights; the slide side stays float32).
        tokenizer_vocab_size: size of the BPE trained on the training reports (built LM only).
        lm_frozen: keep the LM's weights fixed (projector-only training; required with LoRA).
        adapter: ``none`` or ``lora`` (peft).
        lora_r, lora_alpha, lora_dropout, lora_targets: LoRA settings (WSI-LLaVA: r 128, alpha 256;
            targets and dropout are not stated there). ``lora_targets`` is ``all-linear`` or a
            comma-separated list of module names.
        gradient_checkpointing: recompute LM activations in the backward pass.
        pooling: ``mean``, ``attention`` or ``resampler`` (see the module docstring).
        num_slide_tokens: LM tokens per slide (and per patch-level extra stream).
        resampler_dim, resampler_layers, resampler_heads: width, depth and heads of the resampler
            (``resampler_dim`` is also the attention pooling's hidden width).
        dropout: dropout in the resampler.
        prefix_streams: extra streams as prefix tokens, from ``titan`` and ``conch``.
        prompt: instruction template; ``<slide>`` marks where the slide tokens go. Default:
            WSI-Bench's report-generation question (see ``DEFAULT_PROMPT``).
    """

    lm: str = ""
    lm_hidden: int = 256
    lm_layers: int = 4
    lm_heads: int = 4
    lm_kv_heads: int = 4
    lm_intermediate: int = 688
    lm_dtype: str = "float32"
    tokenizer_vocab_size: int = 2048
    lm_frozen: bool = False
    adapter: str = "none"
    lora_r: int = 128
    lora_alpha: int = 256
    lora_dropout: float = 0.05
    lora_targets: str = "all-linear"
    gradient_checkpointing: bool = False
    pooling: str = "resampler"
    num_slide_tokens: int = 16
    resampler_dim: int = 256
    resampler_layers: int = 2
    resampler_heads: int = 4
    dropout: float = 0.1
    prefix_streams: list[str] = field(default_factory=list)
    prompt: str = DEFAULT_PROMPT

    def __post_init__(self) -> None:
        checks = [
            (
                self.pooling in POOLINGS,
                f"model.pooling must be one of {POOLINGS}, found {self.pooling!r}.",
            ),
            (
                self.adapter in ADAPTERS,
                f"model.adapter must be one of {ADAPTERS}, found {self.adapter!r}.",
            ),
            (
                self.lm_dtype in LM_DTYPES,
                f"model.lm_dtype must be one of {tuple(LM_DTYPES)}, found {self.lm_dtype!r}.",
            ),
            (
                self.adapter != "lora" or self.lm_frozen,
                "model.adapter=lora trains adapters on a frozen LM: add model.lm_frozen=true "
                "(or use model.adapter=none for full fine-tuning).",
            ),
            (
                self.prompt.count(SLIDE_PLACEHOLDER) == 1,
                f"model.prompt must contain {SLIDE_PLACEHOLDER} exactly once (where the slide "
                f"tokens go), found it {self.prompt.count(SLIDE_PLACEHOLDER)} times.",
            ),
            (
                self.num_slide_tokens >= 1,
                f"model.num_slide_tokens must be >= 1, found {self.num_slide_tokens}.",
            ),
        ]
        unknown = [s for s in self.prefix_streams if s not in PREFIX_STREAMS]
        checks.append(
            (
                not unknown,
                f"model.prefix_streams: unknown {unknown}; choose from {sorted(PREFIX_STREAMS)}.",
            )
        )
        for ok, message in checks:
            if not ok:
                raise ConfigError(message)


# -- slide side ------------------------------------------------------------------------------------
def adaptive_mean(x: Tensor, mask: Tensor, k: int) -> Tensor:
    """Each slide's real patches in ``k`` consecutive groups, averaged: (B, N, D) -> (B, k, D).

    Group i of a slide with n patches spans [floor(i n / k), ceil((i + 1) n / k)) (adaptive average
    pooling); with n < k groups repeat patches. Real patches come first in a padded batch.
    """
    b, _, d = x.shape
    n = mask.sum(1, keepdim=True)  # (B, 1)
    i = torch.arange(k, device=x.device)[None, :]
    start = torch.div(i * n, k, rounding_mode="floor")
    end = torch.div((i + 1) * n + k - 1, k, rounding_mode="floor")
    zero = x.new_zeros(b, 1, d)
    sums = torch.cat([zero, (x * mask.unsqueeze(-1).to(x.dtype)).cumsum(1)], dim=1)
    total = sums.gather(1, end.unsqueeze(-1).expand(-1, -1, d)) - sums.gather(
        1, start.unsqueeze(-1).expand(-1, -1, d)
    )
    return total / (end - start).unsqueeze(-1).to(x.dtype)


class GatedAttentionPooling(nn.Module):
    """Gated attention pooling (ABMIL) with one attention map per output token."""

    def __init__(self, d_in: int, hidden: int, tokens: int) -> None:
        super().__init__()
        self.value = nn.Linear(d_in, hidden)
        self.gate = nn.Linear(d_in, hidden)
        self.score = nn.Linear(hidden, tokens)

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        scores = self.score(torch.tanh(self.value(x)) * torch.sigmoid(self.gate(x)))  # (B, N, k)
        weights = scores.masked_fill(~mask.unsqueeze(-1), float("-inf")).softmax(dim=1)
        return weights.transpose(1, 2) @ x  # (B, k, D)


class PerceiverResampler(nn.Module):
    """Learned queries cross-attending to every real patch, then feed-forward, ``layers`` times."""

    def __init__(
        self, d_in: int, dim: int, tokens: int, layers: int, heads: int, dropout: float
    ) -> None:
        super().__init__()
        self.input = nn.Sequential(nn.Linear(d_in, dim), nn.LayerNorm(dim))
        self.queries = nn.Parameter(torch.randn(tokens, dim) / math.sqrt(dim))
        self.attn = nn.ModuleList(MultiHeadAttention(dim, heads, dropout) for _ in range(layers))
        self.ff = nn.ModuleList(
            FeedForward(dim, 4 * dim, dropout, activation="gelu") for _ in range(layers)
        )
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(2 * layers))
        self.out_norm = nn.LayerNorm(dim)

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        x = self.input(x)
        q = self.queries.to(x.dtype).expand(x.shape[0], -1, -1)
        for i, (attn, ff) in enumerate(zip(self.attn, self.ff, strict=True)):
            q = q + attn(self.norms[2 * i](q), x, mask)
            q = q + ff(self.norms[2 * i + 1](q))
        return self.out_norm(q)


def projector(d_in: int, d_out: int) -> nn.Sequential:
    """LLaVA-1.5's ``mlp2x_gelu``: Linear, GELU, Linear."""
    return nn.Sequential(nn.Linear(d_in, d_out), nn.GELU(), nn.Linear(d_out, d_out))


# -- the language model's cache --------------------------------------------------------------------
@functools.cache
def _cache_classes():
    from transformers.cache_utils import Cache, DynamicLayer

    class BeamLayer(DynamicLayer):
        """One layer's keys and values in a buffer that grows by doubling (no copy per step).

        Positions before ``shared`` are the slide's prefix, identical for the K hypotheses of a
        slide, so reordering hypotheses of the same slide moves only the generated positions.
        """

        def lazy_initialization(self, key_states: Tensor, value_states: Tensor) -> None:
            self.device = key_states.device
            self.length = 0
            self.shared = 0
            self.group = 1
            self.buffers: list[Tensor] = []
            self.is_initialized = True

        def update(
            self, key_states: Tensor, value_states: Tensor, *args: Any, **kwargs: Any
        ) -> tuple[Tensor, Tensor]:
            if not self.is_initialized:
                self.lazy_initialization(key_states, value_states)
            new = key_states.shape[-2]
            if not self.buffers or self.length + new > self.buffers[0].shape[-2]:
                capacity = max(2 * (self.length + new), 64)
                grown = []
                for old, state in zip(
                    self.buffers or [None, None], (key_states, value_states), strict=True
                ):
                    buf = state.new_empty(*state.shape[:2], capacity, state.shape[-1])
                    if old is not None:
                        buf[:, :, : self.length] = old[:, :, : self.length]
                    grown.append(buf)
                self.buffers = grown
            end = self.length + new
            self.buffers[0][:, :, self.length : end] = key_states
            self.buffers[1][:, :, self.length : end] = value_states
            self.length = end
            self.keys, self.values = self.buffers[0][:, :, :end], self.buffers[1][:, :, :end]
            return self.keys, self.values

        def get_seq_length(self) -> int:
            return self.length if self.is_initialized else 0

        def expand_rows(self, k: int) -> None:
            """B slide rows -> B x K hypothesis rows; what is cached so far is shared prefix."""
            self.buffers = [b.repeat_interleave(k, dim=0) for b in self.buffers]
            self.shared, self.group = self.length, k
            self.keys, self.values = (
                self.buffers[0][:, :, : self.length],
                self.buffers[1][:, :, : self.length],
            )

        def keep_rows(self, index: Tensor) -> None:
            self.buffers = [buf.index_select(0, index) for buf in self.buffers]
            self.keys, self.values = (
                self.buffers[0][:, :, : self.length],
                self.buffers[1][:, :, : self.length],
            )

        def reorder_rows(self, index: Tensor, within_slide: bool) -> None:
            start = self.shared if within_slide else 0
            for buf in self.buffers:
                buf[:, :, start : self.length] = buf[index, :, start : self.length]
            self.keys, self.values = (
                self.buffers[0][:, :, : self.length],
                self.buffers[1][:, :, : self.length],
            )

    class BeamPrefixCache(Cache):
        """The LM's key/value cache for the shared beam search (``DecoderCache.external_state``)."""

        def __init__(self) -> None:
            super().__init__(layer_class_to_replicate=BeamLayer)

        def expand_rows(self, k: int) -> None:
            for layer in self.layers:
                layer.expand_rows(k)

        def reorder(self, index: Tensor) -> None:
            if self.layers and index.shape[0] != self.layers[0].buffers[0].shape[0]:
                for (
                    layer
                ) in self.layers:  # finished slides leave the batch: keep the rows of the others
                    layer.keep_rows(index)
                return
            group = self.layers[0].group if self.layers else 1
            # Whether every hypothesis stays within its slide (then the shared prefix stays put).
            # On an accelerator, looking would wait for the device at every step: the whole
            # history moves instead, which gives the same cache (the prefix is the same for all
            # hypotheses of a slide, and a move across slides copies it anyway).
            within_slide = False
            if index.device.type == "cpu":
                rows = torch.arange(index.shape[0])
                within_slide = bool(
                    (
                        torch.div(index, group, rounding_mode="floor")
                        == torch.div(rows, group, rounding_mode="floor")
                    ).all()
                )
            for layer in self.layers:
                layer.reorder_rows(index, within_slide)

    return BeamPrefixCache


# -- the generator ---------------------------------------------------------------------------------
@register_generator(
    "slide_llm",
    config=SlideLLMConfig,
    smoke={
        "lm_hidden": 16,
        "lm_layers": 2,
        "lm_heads": 2,
        "lm_kv_heads": 1,
        "lm_intermediate": 24,
        "num_slide_tokens": 3,
        "resampler_dim": 8,
        "resampler_layers": 1,
        "resampler_heads": 2,
        "tokenizer_vocab_size": 300,
    },
    paper="WSI-LLaVA (ICCV 2025), SlideChat (CVPR 2025), PRISM (arXiv:2405.10254)",
    upstream="https://github.com/XinhengLyu/WSI-LLaVA",
    licence="Apache-2.0 (upstream); written for this benchmark, no upstream code",
)
class SlideLLM(ReportGenerator):
    """Slide tokens (pooled or resampled patches, plus optional streams) before a causal LM."""

    def __init__(self, cfg: SlideLLMConfig, ctx: GeneratorContext) -> None:
        super().__init__(cfg, ctx)
        self.lm = self._build_lm(cfg, ctx)
        d_lm = self.lm.get_input_embeddings().embedding_dim
        k = cfg.num_slide_tokens
        if cfg.pooling == "resampler":
            self.pool = PerceiverResampler(
                ctx.feature_dim,
                cfg.resampler_dim,
                k,
                cfg.resampler_layers,
                cfg.resampler_heads,
                cfg.dropout,
            )
            d_pooled = cfg.resampler_dim
        elif cfg.pooling == "attention":
            self.pool = GatedAttentionPooling(ctx.feature_dim, cfg.resampler_dim, k)
            d_pooled = ctx.feature_dim
        else:
            self.pool = None
            d_pooled = ctx.feature_dim
        self.projector = projector(d_pooled, d_lm)
        self.stream_projectors = nn.ModuleDict(
            {name: projector(ctx.stream_dims[name], d_lm) for name in cfg.prefix_streams}
        )
        before, after = self._prompt_ids(cfg, ctx)
        self.register_buffer(
            "prompt_before", torch.tensor(before, dtype=torch.long), persistent=False
        )
        self.register_buffer(
            "prompt_after", torch.tensor(after, dtype=torch.long), persistent=False
        )
        accepted = inspect.signature(self._base_lm().forward).parameters
        self._cache_arg = (
            "cache" if "cache" in accepted else "past_key_values"
        )  # transformers 5 / 4
        self._keep_arg = "logits_to_keep" in accepted
        # A pretrained LM whose own weights are not trained is read again from ``lm``: keep it out
        # of checkpoints (a 7B model would otherwise be copied into every one). Embeddings that grew
        # for added tokens are saved: their new rows are random, not in the files.
        grown = getattr(self.lm, "_slide_llm_grown", False)
        embeddings = {
            id(m.weight)
            for m in (self.lm.get_input_embeddings(), self.lm.get_output_embeddings())
            if m is not None
        }
        self._unsaved = {
            f"lm.{n}"
            for n, p in self.lm.named_parameters()
            if cfg.lm and not p.requires_grad and not (grown and id(p) in embeddings)
        }
        if self._unsaved:
            self._register_state_dict_hook(_drop_unsaved)
            self.register_load_state_dict_post_hook(_allow_unsaved_missing)

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def input_streams(cls, cfg: SlideLLMConfig) -> dict[str, StreamSpec]:
        return {name: PREFIX_STREAMS[name] for name in cfg.prefix_streams}

    @classmethod
    def build_tokenizer(cls, cfg: SlideLLMConfig, train_reports: list[str], style: str) -> Any:
        from pathreport.data.subword import SubwordTokenizer

        if cfg.lm:
            return SubwordTokenizer.from_pretrained(cfg.lm, style=style)
        prompt_text = cfg.prompt.split(SLIDE_PLACEHOLDER)
        return SubwordTokenizer.train(
            train_reports, style=style, vocab_size=cfg.tokenizer_vocab_size, extra_text=prompt_text
        )

    @staticmethod
    def _build_lm(cfg: SlideLLMConfig, ctx: GeneratorContext) -> nn.Module:
        try:
            import transformers
        except ImportError as err:
            raise ImportError(
                "model=slide_llm needs transformers and peft: pip install 'pathreport[llm]'"
            ) from err
        dtype = LM_DTYPES[cfg.lm_dtype]
        if cfg.lm:
            try:
                lm = transformers.AutoModelForCausalLM.from_pretrained(cfg.lm, dtype=dtype)
            except (OSError, ValueError) as err:
                raise ConfigError(
                    f"model.lm={cfg.lm}: cannot load the language model ({err}). Give a local "
                    "folder (config.json + weights) or a hub name reachable from this machine; "
                    "or leave model.lm empty to build a small Llama from the model.lm_* "
                    "settings."
                ) from None
            if lm.get_input_embeddings().num_embeddings < ctx.vocab_size:
                lm.resize_token_embeddings(ctx.vocab_size)
                lm._slide_llm_grown = True
        else:
            config = transformers.LlamaConfig(
                vocab_size=ctx.vocab_size,
                hidden_size=cfg.lm_hidden,
                intermediate_size=cfg.lm_intermediate,
                num_hidden_layers=cfg.lm_layers,
                num_attention_heads=cfg.lm_heads,
                num_key_value_heads=cfg.lm_kv_heads,
                max_position_embeddings=4096,
                pad_token_id=ctx.pad_id,
                bos_token_id=ctx.bos_id,
                eos_token_id=ctx.eos_id,
                tie_word_embeddings=False,
            )
            config._attn_implementation = "sdpa"
            lm = transformers.LlamaForCausalLM(config).to(dtype)
        if cfg.lm_frozen:
            lm.requires_grad_(False)
        if cfg.gradient_checkpointing:
            if hasattr(lm, "activation_checkpointing_enable"):  # transformers >= 5.x
                lm.activation_checkpointing_enable(
                    activation_checkpointing_kwargs={"use_reentrant": False}
                )
            else:
                lm.gradient_checkpointing_enable(
                    gradient_checkpointing_kwargs={"use_reentrant": False}
                )
        if cfg.adapter == "lora":
            try:
                import peft
            except ImportError as err:
                raise ImportError(
                    "model.adapter=lora needs peft: pip install 'pathreport[llm]'"
                ) from err
            targets: Any = cfg.lora_targets
            if targets != "all-linear":
                targets = [t.strip() for t in targets.split(",") if t.strip()]
            lora = peft.LoraConfig(
                r=cfg.lora_r,
                lora_alpha=cfg.lora_alpha,
                lora_dropout=cfg.lora_dropout,
                target_modules=targets,
                bias="none",
                task_type="CAUSAL_LM",
            )
            lm = peft.get_peft_model(lm, lora)
        return lm

    @staticmethod
    def _prompt_ids(cfg: SlideLLMConfig, ctx: GeneratorContext) -> tuple[list[int], list[int]]:
        """The prompt's token ids before and after ``<slide>`` (none without a tokenizer: unit tests
        that build the model from a bare context)."""
        tokenizer = ctx.tokenizer
        if tokenizer is None or not hasattr(tokenizer, "encode_text"):
            return [], []
        before, after = cfg.prompt.split(SLIDE_PLACEHOLDER)
        return tokenizer.encode_text(before), tokenizer.encode_text(after)

    def _base_lm(self) -> nn.Module:
        return self.lm.get_base_model() if hasattr(self.lm, "get_base_model") else self.lm

    # -- forward -----------------------------------------------------------------------------------
    def encode(self, batch: SlideBatch) -> dict[str, Tensor]:
        """The LM input embeddings of every slide's prefix: (B, P, d_lm)."""
        x, mask = batch.features, batch.mask
        if self.cfg.pooling == "mean":
            pooled = adaptive_mean(x, mask, self.cfg.num_slide_tokens)
        else:
            pooled = self.pool(x, mask)
        parts = [self.projector(pooled)]
        for name in self.cfg.prefix_streams:
            stream = batch.streams[name]
            if stream.dim() == 3:
                stream = adaptive_mean(stream, mask, self.cfg.num_slide_tokens)
            else:
                stream = stream.unsqueeze(1)
            parts.append(self.stream_projectors[name](stream))
        embed = self.lm.get_input_embeddings()
        b = x.shape[0]
        before = embed(self.prompt_before).unsqueeze(0).expand(b, -1, -1)
        after = embed(self.prompt_after).unsqueeze(0).expand(b, -1, -1)
        slide = torch.cat(parts, dim=1).to(before.dtype)
        return {"prefix": torch.cat([before, slide, after], dim=1)}

    def decode(
        self, state: dict[str, Tensor], tokens: Tensor, cache: DecoderCache | None = None
    ) -> Tensor:
        prefix = state["prefix"]
        rows, t = tokens.shape
        k = rows // prefix.shape[0]
        embeds = self.lm.get_input_embeddings()(tokens)
        if cache is None:
            inputs = torch.cat([prefix.repeat_interleave(k, dim=0), embeds], dim=1)
            logits = self._run(inputs, None, keep=t)
        else:
            lm_cache = cache.external.get("lm")
            if (
                lm_cache is None
            ):  # first step: the prefix, once per slide, then shared by its hypotheses
                lm_cache = cache.external_state("lm", _cache_classes())
                self._run(prefix, lm_cache, keep=1)
                if k > 1:
                    lm_cache.expand_rows(k)
            logits = self._run(embeds, lm_cache, keep=t)
        return logits[..., : self.ctx.vocab_size]

    def _run(self, inputs: Tensor, lm_cache: Any, keep: int) -> Tensor:
        """The LM's logits at the last ``keep`` positions of ``inputs`` (embeddings)."""
        kwargs: dict[str, Any] = {"inputs_embeds": inputs, "use_cache": lm_cache is not None}
        if self._keep_arg:
            kwargs["logits_to_keep"] = keep
        if lm_cache is not None:
            kwargs[self._cache_arg] = lm_cache
        return self.lm(**kwargs).logits[:, -keep:]


def _drop_unsaved(
    module: SlideLLM, state_dict: dict[str, Any], prefix: str, local_metadata: Any
) -> None:
    for name in module._unsaved:
        state_dict.pop(prefix + name, None)


def _allow_unsaved_missing(module: SlideLLM, incompatible: Any) -> None:
    def own_name(key: str) -> str:
        return (
            key if key.startswith("lm.") else key[key.find(".lm.") + 1 :] if ".lm." in key else key
        )

    incompatible.missing_keys[:] = [
        k for k in incompatible.missing_keys if own_name(k) not in module._unsaved
    ]


__all__ = ["DEFAULT_PROMPT", "SlideLLM", "SlideLLMConfig", "adaptive_mean"]
